"""The cocotb core bench: the tests every core of the core contract runs, written once.

A core's test file (``tests/hw/cores/<core>/``) is both its pytest module and its
cocotb module. It takes the shared cocotb tests by binding them to names of its own
(cocotb registers every test object a test module holds)::

    cocotb_kat = corebench.cocotb_kat

and keeps only what is special about the core (a timing pattern, a second stream, its
own reset sequence built from the steps below). Its pytest side calls :func:`run`.

The shared tests read what they check from the environment, which :func:`run` fills
from :class:`Claims` (by default the registry entry's claims):

* ``AK_KEY_SIZES`` (bits, e.g. ``128,192,256``), ``AK_DECRYPT`` (``1``/``0``);
* ``AK_LATENCY``, ``AK_INTERVAL``, ``AK_SETUP``, ``AK_CBC``: cycles per key size,
  ``128:10,192:12,256:14``;
* ``AK_WINDOW``: the exact-timing test checks the accept spacing over this many
  blocks (1: every interval; a core that takes blocks in bursts, e.g. two back to
  back and then none for ``2 * interval - 1`` cycles, sets its ``in_flight``);
* ``AK_DRAIN_TIMEOUT``: cycles without a handshake before a drain fails;
* ``AK_TIMING_BLOCKS``: blocks per direction pattern in the exact-timing test;
* ``AK_PER_KEY``: the random test loads a new key every 1..AK_PER_KEY blocks;

and per run ``AK_CORE`` (the registry name), ``AK_KEY_SIZE``, ``AK_GAP``, ``AK_STALL``,
``AK_BLOCKS``, ``AK_SEED``, ``AK_RESETS`` (a run may also override any claim variable).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cocotb
from cocotb.handle import Immediate
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from aeskit.hw import contract
from aeskit.model import AES, cbc_decrypt, cbc_encrypt
from aeskit.testbench.cbc_rate import cbc_stream
from aeskit.testbench.coretb import BlockRecord, CoreTB, KeyRecord, intervals
from aeskit.vectors import block_vectors

if TYPE_CHECKING:
    from aeskit.hw.registry import CoreSpec

__all__ = ["INITIAL_OUTPUTS_FILE", "RESET_PHASES", "Claims", "blocks_after_reset",
           "cbc_rate", "check_block", "check_claimed", "check_model", "cocotb_cbc_rate",
           "cocotb_exact_timing", "cocotb_initial_state", "cocotb_kat",
           "cocotb_key_reload", "cocotb_random", "cocotb_random_resets", "cocotb_tags",
           "core_phase", "env_float", "env_int", "exact_timing", "initial_state", "kat",
           "key_reload", "keyless_idle", "queue_random", "random_resets", "refuse_key",
           "reset_at_random", "reset_idle", "reset_round", "rotation", "run", "start",
           "start_from_env"]

#: the NIST ECB files every core runs (known answers and multi-block messages)
KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _per_size(text: str) -> dict[int, int]:
    return {int(k): int(v) for k, v in (item.split(":") for item in text.split(",") if item)}


def _per_size_text(values: Mapping[int, int]) -> str:
    return ",".join(f"{k}:{v}" for k, v in sorted(values.items()))


@dataclass(frozen=True)
class Claims:
    """What the shared tests check, per key size in bits."""

    key_sizes: tuple[int, ...]
    latency: dict[int, int]
    interval: dict[int, int]
    setup: dict[int, int]
    decrypt: bool = True
    #: cycles per block of CBC at full speed (default: the interval)
    cbc: dict[int, int] = field(default_factory=dict)
    #: accept spacing is checked over this many blocks (see the module doc)
    window: int = 1
    drain_timeout: int = 10_000
    #: blocks per direction pattern in the exact-timing test
    timing_blocks: int = 12
    #: the random test loads a new key every 1..per_key blocks
    per_key: int = 8

    @classmethod
    def of(cls, core: CoreSpec, **changes: Any) -> Claims:
        """The registry's claims for ``core`` with ``changes`` (field values)."""
        claims = cls(key_sizes=tuple(core.key_sizes), latency=dict(core.latency),
                     interval=dict(core.interval), setup=dict(core.key_setup),
                     decrypt=core.decrypt)
        return replace(claims, **changes)

    def env(self) -> dict[str, str]:
        return {"AK_KEY_SIZES": ",".join(map(str, self.key_sizes)),
                "AK_DECRYPT": str(int(self.decrypt)),
                "AK_LATENCY": _per_size_text(self.latency),
                "AK_INTERVAL": _per_size_text(self.interval),
                "AK_SETUP": _per_size_text(self.setup),
                "AK_CBC": _per_size_text(self.cbc or self.interval),
                "AK_WINDOW": str(self.window),
                "AK_DRAIN_TIMEOUT": str(self.drain_timeout),
                "AK_TIMING_BLOCKS": str(self.timing_blocks), "AK_PER_KEY": str(self.per_key)}

    @classmethod
    def from_env(cls) -> Claims:
        e = os.environ
        return cls(key_sizes=tuple(int(k) for k in e["AK_KEY_SIZES"].split(",")),
                   latency=_per_size(e["AK_LATENCY"]), interval=_per_size(e["AK_INTERVAL"]),
                   setup=_per_size(e["AK_SETUP"]), decrypt=e.get("AK_DECRYPT", "1") == "1",
                   cbc=_per_size(e["AK_CBC"]), window=int(e.get("AK_WINDOW", "1")),
                   drain_timeout=int(e.get("AK_DRAIN_TIMEOUT", "10000")),
                   timing_blocks=int(e.get("AK_TIMING_BLOCKS", "12")),
                   per_key=int(e.get("AK_PER_KEY", "8")))

    @property
    def sizes(self) -> list[int]:
        """The key sizes in bytes."""
        return [k // 8 for k in self.key_sizes]


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def rotation(core: CoreSpec) -> Claims:
    """The registry's claims for a core that works on ``in_flight`` blocks in rotation
    (it takes them in a burst, then none until the first leaves): accept spacing
    checked over ``in_flight`` blocks, ``3 * in_flight + 1`` blocks per exact-timing
    pattern, a new key every 1..``3 * in_flight`` blocks in the random test."""
    n = core.in_flight
    return Claims.of(core, window=n, timing_blocks=3 * n + 1, per_key=3 * n)


def run(core: CoreSpec, test_module: str, test_dir: Path, testcase: str | Sequence[str], *,
        tag_width: int = 1, params: Mapping[str, object] | None = None,
        claims: Claims | None = None, simulator: str = "verilator", seed: int | None = None,
        **env: object) -> Path:
    """Build ``core`` (its registry parameters, ``TagWidth`` and ``params``) and run
    ``testcase`` of ``test_module`` with ``claims`` (default: the registry's) and the
    run settings ``env`` in the environment, on ``simulator``. ``seed`` is the run's
    ``+verilator+seed`` (the random initial register values; a run-time plusarg, the
    build is the same for every seed) and cocotb's random seed. Returns the results
    file (in the folder the simulation ran in)."""
    from aeskit.sim.cocotb_run import run_cocotb

    claims = claims or Claims.of(core)
    # on Verilator the core contract's assertions are bound into the core
    # (aeskit.hw.contract): a broken rule stops the simulation with its name. The
    # checker gets the claims of this run (a build with other parameters than the
    # registry's, e.g. tbox_unfolded with NrMax = 14, has other key sizes: rule C7
    # refuses a key size the checker is not told of)
    verilator = simulator == "verilator"
    checked = replace(core, key_sizes=tuple(claims.key_sizes), decrypt=claims.decrypt,
                      key_setup=dict(claims.setup) or dict(core.key_setup))
    sources = contract.sources(checked) if verilator else core.file_paths()
    build_args = contract.verilator_args(checked) if verilator else []
    return run_cocotb(toplevel=core.top, sources=sources, test_module=test_module,
                      test_dir=test_dir, build_args=build_args,
                      parameters={**core.parameters, "TagWidth": tag_width, **(params or {})},
                      testcase=testcase, simulator=simulator, seed=seed,
                      extra_env={"AK_CORE": core.name, **claims.env(),
                                 **{k: str(v) for k, v in env.items()}})


# ----------------------------------------------------------------------------------
# steps the tests are made of
# ----------------------------------------------------------------------------------
async def start(dut: Any, *, gap: float = 0.0, stall: float = 0.0, seed: int = 1) -> CoreTB:
    """A :class:`CoreTB` on ``dut``, clock running, after a reset."""
    tb = CoreTB(dut, gap_prob=gap, stall_prob=stall, seed=seed)
    tb.start_clock()
    await tb.reset()
    return tb


async def start_from_env(dut: Any, seed: int) -> CoreTB:
    """:func:`start` with gaps AK_GAP and stalls AK_STALL."""
    return await start(dut, gap=env_float("AK_GAP", 0.0), stall=env_float("AK_STALL", 0.0),
                 seed=seed)


async def kat(tb: CoreTB, key_sizes: Sequence[int], claims: Claims) -> int:
    """Every ECB KAT/MMT record of ``key_sizes`` (bits) in file order through ``tb``
    (encrypt and, if the core decrypts, decrypt sections), each block against NIST.
    Returns the number of blocks."""
    checks: list[tuple[BlockRecord, bytes, Any]] = []
    for key_size in key_sizes:
        records = block_vectors("ECB", key_size=key_size, kinds=KAT_KINDS)
        if not claims.decrypt:
            records = [r for r in records if not r.decrypt]
        assert records, f"no ECB vectors for {key_size}-bit keys"
        if claims.decrypt:
            assert any(r.decrypt for r in records) and any(not r.decrypt for r in records)
        current = None
        for rec in records:
            if rec.key != current:
                tb.queue_key(rec.key)
                current = rec.key
            src, dst = ((rec.ciphertext, rec.plaintext) if rec.decrypt
                        else (rec.plaintext, rec.ciphertext))
            assert len(src) % 16 == 0 and len(src) == len(dst)
            for i in range(0, len(src), 16):
                checks.append((tb.send(src[i:i + 16], decrypt=rec.decrypt), dst[i:i + 16], rec))
    await tb.drain(timeout_cycles=claims.drain_timeout)
    assert len(checks) > 100
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    return len(checks)


TimingCheck = Callable[[int, str, KeyRecord, list[BlockRecord]], None]


async def exact_timing(dut: Any, claims: Claims, blocks: int,
                       check: TimingCheck | None = None) -> None:
    """Never stalled, for every key size and direction pattern (encrypt, decrypt,
    mixed): key setup, latency and accept spacing exactly as claimed, and the first
    block (queued behind the key) accepted at the first edge ``in_ready_o`` is high.
    ``check(key bytes, pattern, key record, block records)`` adds a core's own checks."""
    tb = await start(dut)
    rng = random.Random(5)
    w = claims.window
    for ks in claims.sizes:
        bits = 8 * ks
        for pattern in (("enc", "dec", "mixed") if claims.decrypt else ("enc",)):
            krec = tb.queue_key(rng.randbytes(ks)).rec
            dirs = {"enc": [False] * blocks, "dec": [True] * blocks,
                    "mixed": [rng.random() < 0.5 for _ in range(blocks)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain(timeout_cycles=claims.drain_timeout)
            check_claimed(krec, recs, claims, pattern)
            lat = [r.latency for r in recs]
            acc = [r.accept_cycle for r in recs]
            span = [b - a for a, b in zip(acc, acc[w:])]  # type: ignore[operator]
            assert span == [w * claims.interval[bits]] * (blocks - w), (
                f"{bits}-bit {pattern}: accept spacing over {w} block(s) {span}, "
                f"intervals {intervals(recs)}")
            assert recs[0].accept_cycle == krec.ready_cycle
            if check is not None:
                check(ks, pattern, krec, recs)
            dut._log.info("%d-bit %s: setup %d, latency %d, intervals %s", bits, pattern,
                          krec.setup_cycles, lat[0], intervals(recs)[:2 * w])


async def key_reload(dut: Any, *, keys: Sequence[int] = (16, 24, 32, 24, 16, 32),
                     per_key: int = 4, tail: int = 3, first: int = 16, second: int = 32,
                     after_decrypt: bool = True, mixed: bool = True,
                     drain_timeout: int = 10_000) -> None:
    """Keys of the sizes ``keys`` (bytes) back to back under stalls, each followed by
    1..``per_key`` blocks; then a ``second`` key queued behind ``tail`` blocks under a
    ``first`` key is taken only once they have all left (``key_ready_o`` low while any
    is in flight, checked by the monitor), and applies to the block after it."""
    tb = await start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    for ks in keys:
        tb.queue_key(rng.randbytes(ks))
        for _ in range(rng.randint(1, per_key)):
            data = rng.randbytes(16)
            tb.send(data, decrypt=mixed and rng.random() < 0.5)
    await tb.drain(timeout_cycles=drain_timeout)
    tb.queue_key(rng.randbytes(first))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(tail)]
    k2 = tb.queue_key(rng.randbytes(second))
    after = tb.send(rng.randbytes(16), decrypt=after_decrypt)
    await tb.drain(timeout_cycles=drain_timeout)
    assert k2.rec.accept_cycle is not None and blocks[-1].out_cycle is not None
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.accept_cycle is not None and after.accept_cycle > k2.rec.accept_cycle
    model = AES(k2.rec.key)
    assert after.result == (model.decrypt(after.data) if after_decrypt
                            else model.encrypt(after.data))


async def check_block(tb: CoreTB, key: bytes, block: bytes, decrypt: bool = False,
                      drain_timeout: int = 10_000) -> KeyRecord:
    """Load ``key``, send ``block``, check the result against the model."""
    krec = await tb.load_key(key)
    r = tb.send(block, decrypt=decrypt)
    await tb.drain(timeout_cycles=drain_timeout)
    model = AES(key)
    assert r.result == (model.decrypt(block) if decrypt else model.encrypt(block))
    return krec


async def refuse_key(tb: CoreTB, key: bytes, code: int, cycles: int) -> None:
    """A key with ``key_len_i = code`` (illegal, or a size the build lacks): the
    handshake completes, then for ``cycles`` cycles ``in_ready_o`` stays low,
    ``key_ready_o`` high (no hang) and nothing comes out."""
    krec = await tb.load_key(key, key_len=code, wait_setup=False, refused=True)
    assert krec.accept_cycle is not None
    dut = tb.dut
    for _ in range(cycles):
        await FallingEdge(dut.clk_i)
        assert int(dut.in_ready_o.value) == 0, f"in_ready_o high after key code {code}"
        assert int(dut.key_ready_o.value) == 1, "key_ready_o must stay high (no hang)"
        assert int(dut.out_valid_o.value) == 0


async def offer_refused_block(tb: CoreTB, rng: random.Random, decrypt: bool,
                              cycles: int, what: str) -> None:
    """Hold a block (``in_decrypt_i`` = ``decrypt``) valid for ``cycles`` cycles on an
    idle core that must refuse it: ``in_ready_o`` low before every edge (so it is
    never accepted) and nothing comes out; then withdraw it. The TB is paused
    meanwhile (it would wait for the handshake). ``what`` names the case."""
    await tb.drain()
    dut = tb.dut
    await FallingEdge(dut.clk_i)
    tb.pause()
    dut.key_valid_i.value = 0
    dut.out_ready_i.value = 1
    dut.in_data_i.value = int.from_bytes(rng.randbytes(16), "big")
    dut.in_tag_i.value = 0
    dut.in_decrypt_i.value = int(decrypt)
    dut.in_valid_i.value = 1
    for i in range(cycles):
        await Timer(1, unit="ns")  # in_ready_o settles on the offered block
        assert int(dut.in_ready_o.value) == 0, f"{what}: in_ready_o high, cycle {i}"
        assert int(dut.out_valid_o.value) == 0, f"{what}: out_valid_o high, cycle {i}"
        await FallingEdge(dut.clk_i)
    dut.in_valid_i.value = 0
    dut.in_decrypt_i.value = 0
    # hand the pins back between the TB's sampling (this falling edge) and its next
    # drive (the rising edge)
    await Timer(1, unit="ns")
    tb.resume()


async def refusal(dut: Any, claims: Claims, cycles: int = 40, seed: int = 1) -> list[str]:
    """What a core refuses (docs/core-contract.md, "Configurations"), each case after
    a legal key and a good block: a key of every size the core lacks and of the
    illegal code 3 -- the handshake completes, then ``in_ready_o`` stays low with no
    block offered and with an encryption block held valid, nothing comes out, and a
    legal key works again; and, if the core does not decrypt, a decryption block held
    valid under a legal key is never accepted, after which an encryption block under
    the same key is. Returns one line per case."""
    tb = await start(dut, seed=seed)
    rng = random.Random(seed)
    done: list[str] = []

    def legal_key() -> bytes:
        return rng.randbytes(rng.choice(claims.sizes))

    for code, bits in enumerate((128, 192, 256, None)):
        if bits in claims.key_sizes:
            continue
        name = f"key_len_i = {code}" + (f" ({bits}-bit key, not built)" if bits else "")
        await check_block(tb, legal_key(), rng.randbytes(16))
        await refuse_key(tb, rng.randbytes(bits // 8 if bits else 32), code, cycles)
        await offer_refused_block(tb, rng, False, cycles, f"after {name}")
        await check_block(tb, legal_key(), rng.randbytes(16))
        done.append(f"refused {name}; a legal key works again")
    if not claims.decrypt:
        key = legal_key()
        await check_block(tb, key, rng.randbytes(16))
        await offer_refused_block(tb, rng, True, cycles, "decryption block")
        block = rng.randbytes(16)
        r = tb.send(block)
        await tb.drain()
        assert r.result == AES(key).encrypt(block), "encryption after a refused decryption"
        done.append("refused a decryption block; encryption under the same key goes on")
    return done


async def keyless_idle(tb: CoreTB, cycles: int, what: str = "after reset") -> None:
    """The core as after a reset (docs/core-contract.md: idle, no key loaded) for
    ``cycles`` cycles, nothing sent meanwhile: ``out_valid_o`` low (nothing stale
    comes out), ``in_ready_o`` low (no key), ``key_ready_o`` high. ``what`` starts the
    failure message."""
    dut = tb.dut
    for i in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"{what}, cycle {i}"
        assert int(dut.out_valid_o.value) == 0, (
            f"{where}: out_valid_o high with no block sent since the reset (stale output "
            f"{int(dut.out_data_o.value):032x})")
        assert int(dut.in_ready_o.value) == 0, f"{where}: in_ready_o high with no key loaded"
        assert int(dut.key_ready_o.value) == 1, f"{where}: key_ready_o low in an idle core"


async def reset_idle(tb: CoreTB, cycles: int) -> None:
    """Reset after ``cycles`` cycles; the core is then idle and keyless."""
    await tb.cycles(cycles)
    await tb.reset()
    await keyless_idle(tb, 1)


async def reset_round(tb: CoreTB, rng: random.Random, where: int, key: int | Sequence[int],
                      blocks: str, *, stalled: int | Callable[[int], int] | None = None,
                      setup_mod: int | None = None, final: bool | None = None,
                      drain_timeout: int = 10_000) -> None:
    """One reset round: a key of ``key`` bytes (or one of the sizes ``key`` picked at
    random), ``blocks`` sent under it (one letter a block: ``e`` encrypt, ``d``
    decrypt, ``r`` random), reset after ``where`` cycles (:func:`reset_idle`); then, if
    asked, reset with a result held by a stall for ``stalled`` cycles (or
    ``stalled(key bytes)``), reset
    ``where % setup_mod + 1`` cycles into a key setup, and a clean block (decrypt
    ``final``) under a fresh key."""
    ks = key if isinstance(key, int) else rng.choice(key)
    await tb.load_key(rng.randbytes(ks))
    for d in blocks:
        data = rng.randbytes(16)
        tb.send(data, decrypt=rng.random() < 0.5 if d == "r" else d == "d")
    await reset_idle(tb, where)
    if stalled is not None:
        tb.stall_prob = 1.0
        await tb.load_key(rng.randbytes(ks))
        tb.send(rng.randbytes(16))
        await tb.cycles(stalled if isinstance(stalled, int) else stalled(ks))
        await tb.reset()
        tb.stall_prob = 0.0
    if setup_mod is not None:
        tb.queue_key(rng.randbytes(ks))
        await tb.cycles(where % setup_mod + 1)
        await tb.reset()
    if final is not None:
        await check_block(tb, rng.randbytes(ks), rng.randbytes(16), decrypt=final,
                          drain_timeout=drain_timeout)


def _direction(rng: random.Random, claims: Claims) -> bool:
    """A random direction (decrypt flag) the core supports."""
    return claims.decrypt and rng.random() < 0.5


def queue_random(tb: CoreTB, rng: random.Random, claims: Claims, blocks: int
                 ) -> list[BlockRecord]:
    """Queue ``blocks`` random blocks of random directions and tags, under random keys
    of the claimed sizes, a new key every 1..per_key blocks; returns their records."""
    tag_max = (1 << tb.tag_width) - 1
    recs: list[BlockRecord] = []
    while len(recs) < blocks:
        tb.queue_key(rng.randbytes(rng.choice(claims.sizes)))
        for _ in range(min(rng.randint(1, claims.per_key), blocks - len(recs))):
            data = rng.randbytes(16)
            recs.append(tb.send(data, decrypt=_direction(rng, claims),
                                tag=rng.randint(0, tag_max)))
    return recs


def check_model(recs: Sequence[BlockRecord], what: str) -> None:
    """Every record in ``recs`` came out equal to the model's result under its key;
    ``what`` starts the failure message."""
    for r in recs:
        model = AES(r.key)
        want = model.decrypt(r.data) if r.decrypt else model.encrypt(r.data)
        assert r.result == want, (
            f"{what}: block {r.index} ({'dec' if r.decrypt else 'enc'}, key {r.key.hex()}, "
            f"in {r.data.hex()}): got {r.result.hex() if r.result else None}, model "
            f"{want.hex()}")


def check_claimed(krec: KeyRecord, recs: Sequence[BlockRecord], claims: Claims,
                  what: str) -> None:
    """The key setup of ``krec`` and the latency of each of ``recs`` (sent under it,
    never stalled) are the claimed ones."""
    bits = 8 * len(krec.key)
    assert krec.setup_cycles == claims.setup[bits], (
        f"{what}: {bits}-bit key setup {krec.setup_cycles}, claimed {claims.setup[bits]}")
    lat = [r.latency for r in recs]
    assert lat == [claims.latency[bits]] * len(recs), (
        f"{what}: {bits}-bit latencies {lat}, claimed {claims.latency[bits]}")


#: what the core is doing when :func:`random_resets` resets it (in turn)
RESET_PHASES = ("key setup", "blocks in flight", "output stalled")


def core_phase(tb: CoreTB) -> str:
    """What the core is doing now (after the inputs driven at a rising edge, before
    the next edge): ``"output stalled"`` (a result held by ``out_ready_i`` low), ``"key
    setup"``, ``"blocks in flight"`` or ``"idle"`` (an input may be waiting)."""
    dut = tb.dut
    if int(dut.out_valid_o.value) and not int(dut.out_ready_i.value):
        return "output stalled"
    if tb.setup_pending:
        return "key setup"
    return "blocks in flight" if tb.in_flight else "idle"


async def reset_at_random(tb: CoreTB, rng: random.Random, claims: Claims, target: str,
                          delay: int) -> int:
    """Assert ``rst_ni`` at the first cycle, ``delay`` or more cycles from now, in which
    the core is in phase ``target`` (:func:`core_phase`), asynchronously 1 ns to half a
    period - 1 ns after the rising edge, for 1..5 edges (:meth:`CoreTB.reset`: the
    bench forgets what was queued or in flight). Whenever the bench runs dry, more
    random blocks are queued (:func:`queue_random`); the phase must come within
    ``delay`` + drain_timeout cycles. Returns the cycle the reset was asserted in."""
    clk = tb.dut.clk_i
    offset = rng.randint(1, tb.period_ns // 2 - 1)
    for waited in range(delay + claims.drain_timeout):
        await RisingEdge(clk)
        await Timer(offset, unit="ns")
        if waited >= delay and core_phase(tb) == target:
            cycle, hold = tb.cycle, rng.randint(1, 5)
            tb.log.info("reset in cycle %d (%s, %d in flight) for %d cycles", cycle, target,
                        tb.in_flight, hold)
            await tb.reset(hold)
            return cycle
        if tb.idle:
            queue_random(tb, rng, claims, rng.randint(1, claims.per_key))
    raise AssertionError(f"cycle {tb.cycle}: the core was not in phase {target!r} in "
                         f"{delay + claims.drain_timeout} cycles")


async def blocks_after_reset(tb: CoreTB, rng: random.Random, claims: Claims, gap: float,
                             stall: float, what: str) -> None:
    """After a reset, as after the first one: a key of a random claimed size takes the
    claimed setup and its first block (no gap, no stall) the claimed latency; then
    1..per_key blocks more under ``gap`` and ``stall``; all equal to the model."""
    tb.gap_prob = tb.stall_prob = 0.0
    krec = await tb.load_key(rng.randbytes(rng.choice(claims.sizes)))
    first = tb.send(rng.randbytes(16), decrypt=_direction(rng, claims))
    await tb.drain(timeout_cycles=claims.drain_timeout)
    check_claimed(krec, [first], claims, what)
    tb.gap_prob, tb.stall_prob = gap, stall
    rest = [tb.send(rng.randbytes(16), decrypt=_direction(rng, claims))
            for _ in range(rng.randint(1, claims.per_key))]
    await tb.drain(timeout_cycles=claims.drain_timeout)
    check_model([first, *rest], what)


async def random_resets(dut: Any, claims: Claims, resets: int, seed: int) -> None:
    """``resets`` rounds of: a random stream (:func:`queue_random`, 1..4 * per_key
    blocks, random gaps and stalls) reset at a random cycle in turn in each phase of
    :data:`RESET_PHASES` (:func:`reset_at_random`); for the longest claimed latency +
    1..16 cycles the core is as after its first reset (:func:`keyless_idle`: nothing
    stale comes out, no key); then :func:`blocks_after_reset`."""
    tb = await start(dut, seed=seed)
    rng = random.Random(seed)
    latency = max(claims.latency.values())
    longest = latency + max(claims.setup.values())
    for i in range(resets):
        gap, stall = rng.choice((0.0, 0.3, 0.6)), rng.choice((0.3, 0.6, 0.9))
        tb.gap_prob, tb.stall_prob = gap, stall
        queue_random(tb, rng, claims, rng.randint(1, 4 * claims.per_key))
        phase = RESET_PHASES[i % len(RESET_PHASES)]
        dut._log.info("seed %d, reset %d: gap %.1f, stall %.1f", seed, i + 1, gap, stall)
        cycle = await reset_at_random(tb, rng, claims, phase, rng.randint(0, longest))
        what = f"seed {seed}, reset {i + 1} in cycle {cycle} ({phase})"
        await keyless_idle(tb, latency + rng.randint(1, 16), what)
        await blocks_after_reset(tb, rng, claims, gap, stall, what)


#: the file (in the simulation's folder) to which :func:`initial_state` writes the
#: outputs it found before the first reset
INITIAL_OUTPUTS_FILE = "initial_outputs.txt"


async def initial_state(dut: Any, claims: Claims, seed: int, blocks: int = 3) -> None:
    """From the register values ``+verilator+seed+<seed>`` gave: the outputs before
    any reset go to :data:`INITIAL_OUTPUTS_FILE` (the caller compares seeds); after the
    reset the core is as after a reset (:func:`keyless_idle`) for the longest claimed
    latency + 8 cycles; then for every claimed key size a key and ``blocks`` blocks of
    each direction back to back in random order: setup and latencies as claimed,
    results equal to the model."""
    what = f"+verilator+seed+{seed}"
    # rst_ni high before the simulator's first evaluation: a random rst_ni low there
    # would reset (some of) the registers before the test starts
    dut.rst_ni.value = Immediate(1)
    tb = CoreTB(dut)  # every input low, the clock not yet running
    await Timer(1, unit="ns")
    Path(INITIAL_OUTPUTS_FILE).write_text(" ".join(
        f"{name}={int(getattr(dut, name).value):x}"
        for name in ("out_valid_o", "out_data_o", "out_tag_o", "in_ready_o", "key_ready_o")))
    tb.start_clock()
    await tb.reset()
    await keyless_idle(tb, max(claims.latency.values()) + 8, f"{what}, after the first reset")
    rng = random.Random(seed)
    for ks in claims.sizes:
        krec = await tb.load_key(rng.randbytes(ks))
        dirs = [False] * blocks + ([True] * blocks if claims.decrypt else [])
        rng.shuffle(dirs)
        recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
        await tb.drain(timeout_cycles=claims.drain_timeout)
        check_claimed(krec, recs, claims, what)
        check_model(recs, f"{what}, {8 * ks}-bit key")


async def cbc_rate(dut: Any, claims: Claims, *, blocks: int = 20,
                   directions: Sequence[bool] = (False, True)) -> None:
    """CBC at full speed (:func:`aeskit.testbench.cbc_rate.cbc_stream`: a zero-latency mode
    engine chaining through out_data_o), every key size and direction in
    ``directions`` (decrypt flags): the result against the model, and the cycles per
    block (accept to accept) exactly the claim."""
    tb = await start(dut)
    rng = random.Random(23)
    got = {}
    for ks in claims.sizes:
        key, iv = rng.randbytes(ks), rng.randbytes(16)
        pts = [rng.randbytes(16) for _ in range(blocks)]
        cts_model = cbc_encrypt(AES(key), iv, b"".join(pts))
        await tb.load_key(key)
        tb.pause()
        await RisingEdge(dut.clk_i)
        for decrypt in directions:
            src = ([cts_model[i:i + 16] for i in range(0, len(cts_model), 16)] if decrypt
                   else pts)
            outs, accepts = await cbc_stream(dut, iv, src, decrypt)
            want = cbc_decrypt(AES(key), iv, cts_model) if decrypt else cts_model
            assert b"".join(outs) == want, f"{ks * 8}-bit CBC decrypt={decrypt} mismatch"
            gaps = sorted({b - a for a, b in zip(accepts, accepts[1:])})
            got[(ks * 8, "dec" if decrypt else "enc")] = gaps
            assert gaps == [claims.cbc[8 * ks]], f"{ks * 8}-bit CBC decrypt={decrypt}: {gaps}"
            for _ in range(3):
                await RisingEdge(dut.clk_i)
        tb.resume()
    dut._log.info("CBC cycles per block: %s", got)


# ----------------------------------------------------------------------------------
# the shared cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_kat(dut: Any) -> None:
    """Every ECB KAT/MMT record of one key size (AK_KEY_SIZE), in file order, with gaps
    AK_GAP and stalls AK_STALL."""
    key_size = env_int("AK_KEY_SIZE", 128)
    tb = await start_from_env(dut, key_size)
    n = await kat(tb, [key_size], Claims.from_env())
    dut._log.info("%d-bit: %d blocks, %d keys, %d cycles", key_size, n, len(tb.keys), tb.cycle)


@cocotb.test()
async def cocotb_exact_timing(dut: Any) -> None:
    """Latency, accept spacing and key setup exactly as claimed (timing_blocks blocks
    per direction pattern)."""
    claims = Claims.from_env()
    await exact_timing(dut, claims, claims.timing_blocks)


@cocotb.test()
async def cocotb_random(dut: Any) -> None:
    """AK_BLOCKS random blocks against the model: random keys of the supported sizes
    every 1..per_key blocks, random directions and tags, gaps AK_GAP and stalls
    AK_STALL (the CoreTB scoreboard checks order, tags and output stability)."""
    claims = Claims.from_env()
    n = env_int("AK_BLOCKS", 1000)
    seed = env_int("AK_SEED", 1)
    tb = await start_from_env(dut, seed)
    recs = queue_random(tb, random.Random(seed), claims, n)
    await tb.drain(timeout_cycles=claims.drain_timeout)
    assert all(r.done for r in recs)
    assert [r.index for r in recs] == sorted(r.index for r in recs)
    check_model(recs, f"seed {seed}")
    lat = [r.latency for r in recs]
    dut._log.info("%d blocks, %d keys, %d cycles, latency %d..%d", n, len(tb.keys), tb.cycle,
                  min(lat), max(lat))


@cocotb.test()
async def cocotb_key_reload(dut: Any) -> None:
    """:func:`key_reload` with keys of every size (16, 24, 32, 24, 16, 32 bytes)."""
    await key_reload(dut)


@cocotb.test()
async def cocotb_tags(dut: Any) -> None:
    """Every tag value goes through with its block, under gaps and stalls."""
    tb = await start(dut, gap=0.2, stall=0.5, seed=21)
    rng = random.Random(21)
    await tb.load_key(rng.randbytes(32))
    recs = [tb.send(rng.randbytes(16), decrypt=bool(t & 1), tag=t)
            for t in list(range(1 << tb.tag_width)) * 2]
    await tb.drain()
    assert [r.tag for r in recs] == list(range(1 << tb.tag_width)) * 2
    assert all(r.done for r in recs)


@cocotb.test()
async def cocotb_cbc_rate(dut: Any) -> None:
    """:func:`cbc_rate`, both directions, 20 blocks per stream."""
    await cbc_rate(dut, Claims.from_env())


@cocotb.test()
async def cocotb_refusal(dut: Any) -> None:
    """:func:`refusal`: what the core's build lacks is refused, never silently wrong."""
    for line in await refusal(dut, Claims.from_env(), env_int("AK_CYCLES", 40),
                              env_int("AK_SEED", 1)):
        dut._log.info(line)


@cocotb.test()
async def cocotb_random_resets(dut: Any) -> None:
    """:func:`random_resets`: AK_RESETS resets (default 24: each phase 8 times), seed
    AK_SEED."""
    await random_resets(dut, Claims.from_env(), env_int("AK_RESETS", 24), env_int("AK_SEED", 1))


@cocotb.test()
async def cocotb_initial_state(dut: Any) -> None:
    """:func:`initial_state` for seed AK_SEED (the run's ``+verilator+seed``)."""
    await initial_state(dut, Claims.from_env(), env_int("AK_SEED", 1))
