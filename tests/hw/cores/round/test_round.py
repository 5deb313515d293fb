"""ak_round_core (the reference core, registry entry ``round``) on Verilator.

* every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record, 128/192/256-bit
  keys, encrypt and decrypt sections, against NIST and the model;
* exact cycle counts, never stalled: latency Nr, interval Nr (the registry's claim)
  and key setup Nr + 1, for every key size and direction;
* 20,000 random blocks (random keys reloaded every 1..8 blocks, random key sizes and
  directions) against the model, with random gaps on in_valid_i and stalls on
  out_ready_i, split over several pytest cases so that xdist can spread them;
* the same core with every other S-box implementation (registry entries
  ``round_comp``, ``round_canright``, ``round_lutinv``: parameter SboxImpl): every
  ECB KAT/MMT record of all key sizes, exact cycle counts and 3,000 random stalled
  blocks each;
* key reload behind blocks in flight, key and block presented in the same cycle,
  reset in the middle of a block and of a key setup, the illegal key length,
  tags through a TagWidth = 4 build; output stability under stall is asserted by
  the CoreTB monitor in every test.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.sim.coretb import CoreTB, intervals
from aeskit.vectors import block_vectors

NR = {16: 10, 24: 12, 32: 14}
#: key setup of ak_round_core: Nr forward steps after the handshake cycle
SETUP = {16: 11, 24: 13, 32: 15}
KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


async def _start(dut, *, gap: float = 0.0, stall: float = 0.0, seed: int = 1) -> CoreTB:
    tb = CoreTB(dut, gap_prob=gap, stall_prob=stall, seed=seed)
    tb.start_clock()
    await tb.reset()
    return tb


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_kat(dut) -> None:
    """Every ECB KAT/MMT record of one key size (AK_KEY_SIZE), in file order."""
    key_size = _env_int("AK_KEY_SIZE", 128)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=key_size)
    records = block_vectors("ECB", key_size=key_size, kinds=KAT_KINDS)
    assert records, f"no ECB vectors for {key_size}-bit keys"
    checks = []
    current = None
    for rec in records:
        if rec.key != current:
            tb.queue_key(rec.key)
            current = rec.key
        src, dst = (rec.ciphertext, rec.plaintext) if rec.decrypt else (rec.plaintext,
                                                                         rec.ciphertext)
        assert len(src) % 16 == 0 and len(src) == len(dst)
        for i in range(0, len(src), 16):
            br = tb.send(src[i:i + 16], decrypt=rec.decrypt)
            checks.append((br, dst[i:i + 16], rec))
    await tb.drain()
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    dut._log.info("%d-bit: %d records, %d blocks, %d keys, %d cycles", key_size,
                  len(records), len(checks), len(tb.keys), tb.cycle)


@cocotb.test()
async def cocotb_kat_all(dut) -> None:
    """Every ECB KAT/MMT record of all three key sizes (one simulation)."""
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=7)
    checks = []
    for key_size in (128, 192, 256):
        records = block_vectors("ECB", key_size=key_size, kinds=KAT_KINDS)
        assert records, f"no ECB vectors for {key_size}-bit keys"
        current = None
        for rec in records:
            if rec.key != current:
                tb.queue_key(rec.key)
                current = rec.key
            src, dst = ((rec.ciphertext, rec.plaintext) if rec.decrypt
                        else (rec.plaintext, rec.ciphertext))
            for i in range(0, len(src), 16):
                checks.append((tb.send(src[i:i + 16], decrypt=rec.decrypt), dst[i:i + 16], rec))
    await tb.drain()
    for br, want, rec in checks:
        assert br.result == want, f"{rec.file}:{rec.line}: got {br.result!r}, NIST {want.hex()}"
    dut._log.info("%d blocks, %d keys", len(checks), len(tb.keys))


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Latency Nr, interval Nr and key setup Nr+1, exactly, when never stalled."""
    tb = await _start(dut)
    rng = random.Random(5)
    for ks in (16, 24, 32):
        nr = NR[ks]
        for pattern in ("enc", "dec", "mixed"):
            # the blocks are queued behind the key, so the first one is presented
            # while the key setup runs
            krec = tb.queue_key(rng.randbytes(ks)).rec
            dirs = {"enc": [False] * 12, "dec": [True] * 12,
                    "mixed": [rng.random() < 0.5 for _ in range(12)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain()
            assert krec.setup_cycles == SETUP[ks], (
                f"{ks * 8}-bit key setup {krec.setup_cycles}, expected {SETUP[ks]}")
            lat = [r.latency for r in recs]
            gaps = intervals(recs)
            assert lat == [nr] * len(recs), f"{ks * 8}-bit {pattern}: latencies {lat}"
            assert gaps == [nr] * (len(recs) - 1), f"{ks * 8}-bit {pattern}: intervals {gaps}"
            # the first block goes in at the first edge at which in_ready_o is high
            assert recs[0].accept_cycle == krec.ready_cycle
            dut._log.info("%d-bit %s: setup %d, latency %d, interval %d", ks * 8, pattern,
                          krec.setup_cycles, lat[0], gaps[0])


@cocotb.test()
async def cocotb_random(dut) -> None:
    """AK_BLOCKS random blocks: random keys every 1..8 blocks, random sizes and
    directions, gaps AK_GAP and stalls AK_STALL."""
    n = _env_int("AK_BLOCKS", 1000)
    seed = _env_int("AK_SEED", 1)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=seed)
    rng = random.Random(seed)
    tag_max = (1 << tb.tag_width) - 1
    recs = []
    while len(recs) < n:
        tb.queue_key(rng.randbytes(rng.choice((16, 24, 32))))
        for _ in range(min(rng.randint(1, 8), n - len(recs))):
            recs.append(tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5,
                                tag=rng.randint(0, tag_max)))
    await tb.drain()
    assert all(r.done for r in recs)
    lat = [r.latency for r in recs]
    dut._log.info("%d blocks, %d keys, %d cycles, latency %d..%d", n, len(tb.keys), tb.cycle,
                  min(lat), max(lat))


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until they have all left (key_ready_o low
    while any is in flight, checked by the monitor), then applies to later blocks."""
    tb = await _start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    # back-to-back keys of every size, each followed by a few blocks
    for ks in (16, 24, 32, 24, 16, 32):
        tb.queue_key(rng.randbytes(ks))
        for _ in range(rng.randint(1, 4)):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
    await tb.drain()
    # key after blocks: accepted only once the last block has left
    tb.queue_key(rng.randbytes(16))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(3)]
    k2 = tb.queue_key(rng.randbytes(32))
    after = tb.send(rng.randbytes(16), decrypt=True)
    await tb.drain()
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.accept_cycle > k2.rec.accept_cycle
    assert after.result == AES(k2.rec.key).decrypt(after.data)


@cocotb.test()
async def cocotb_key_and_block_same_cycle(dut) -> None:
    """key_valid_i and in_valid_i together: the key goes first, the block waits and
    is then encrypted under the new key."""
    tb = await _start(dut)
    old, new = bytes(range(16)), bytes(range(100, 132))
    await tb.load_key(old)
    tb.send(bytes(16))
    await tb.drain()
    tb.pause()
    await RisingEdge(dut.clk_i)  # the last result leaves: the core is idle from here
    block = bytes.fromhex("00112233445566778899aabbccddeeff")
    dut.key_i.value = int.from_bytes(new, "big")
    dut.key_len_i.value = 2
    dut.key_valid_i.value = 1
    dut.in_data_i.value = int.from_bytes(block, "big")
    dut.in_decrypt_i.value = 0
    dut.in_tag_i.value = 1
    dut.in_valid_i.value = 1
    dut.out_ready_i.value = 1
    await FallingEdge(dut.clk_i)
    assert int(dut.key_ready_o.value) == 1
    assert int(dut.in_ready_o.value) == 0, "in_ready_o must be low while key_valid_i is high"
    await RisingEdge(dut.clk_i)  # key handshake
    dut.key_valid_i.value = 0
    waited = 0
    while True:
        await FallingEdge(dut.clk_i)
        if int(dut.in_ready_o.value):
            break
        waited += 1
        assert waited < 100
    assert waited + 1 == SETUP[32]
    await RisingEdge(dut.clk_i)  # block handshake
    dut.in_valid_i.value = 0
    cycles = 0
    while True:
        await FallingEdge(dut.clk_i)
        cycles += 1
        if int(dut.out_valid_o.value):
            break
        assert cycles < 100
    assert cycles == NR[32]
    got = int(dut.out_data_o.value).to_bytes(16, "big")
    assert got == AES(new).encrypt(block), "block was not processed under the new key"
    await RisingEdge(dut.clk_i)  # result taken
    tb.resume()
    await tb.load_key(new)
    tb.send(block)
    await tb.drain()


@cocotb.test()
async def cocotb_reset_mid_block(dut) -> None:
    """Reset in the middle of a block, of a stalled result and of a key setup leaves
    the core idle and keyless; a clean block goes through afterwards."""
    tb = await _start(dut, seed=9)
    rng = random.Random(9)
    for where in range(1, 16, 3):
        ks = rng.choice((16, 24, 32))
        await tb.load_key(rng.randbytes(ks))
        tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
        tb.send(rng.randbytes(16))
        await tb.cycles(where)
        await tb.reset()
        await FallingEdge(dut.clk_i)
        assert int(dut.out_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0, "no key after reset: in_ready_o must be low"
        assert int(dut.key_ready_o.value) == 1
        # a stalled result, then reset
        tb.stall_prob = 1.0
        await tb.load_key(rng.randbytes(ks))
        tb.send(rng.randbytes(16))
        await tb.cycles(NR[ks] + 5)
        await tb.reset()
        tb.stall_prob = 0.0
        # reset during a key setup
        tb.queue_key(rng.randbytes(ks))
        await tb.cycles(where % 9 + 1)
        await tb.reset()
        await tb.load_key(key := rng.randbytes(ks))
        r = tb.send(pt := rng.randbytes(16))
        await tb.drain()
        assert r.result == AES(key).encrypt(pt)


@cocotb.test()
async def cocotb_illegal_key_len(dut) -> None:
    """key_len_i = 3: handshake completes, in_ready_o then stays low until a legal
    key is loaded; nothing is ever produced under the illegal key."""
    tb = await _start(dut)
    await tb.load_key(bytes(16))
    tb.send(bytes(16))
    await tb.drain()
    for _ in range(2):
        krec = await tb.load_key(bytes(range(32)), key_len=3, wait_setup=False)
        assert krec.accept_cycle is not None
        for _ in range(60):
            await FallingEdge(dut.clk_i)
            assert int(dut.in_ready_o.value) == 0, "in_ready_o high after an illegal key"
            assert int(dut.key_ready_o.value) == 1, "key_ready_o must stay high (no hang)"
            assert int(dut.out_valid_o.value) == 0
    krec = await tb.load_key(key := bytes(range(24)))
    assert krec.setup_cycles == SETUP[24]
    r = tb.send(pt := bytes(range(16)), decrypt=True)
    await tb.drain()
    assert r.result == AES(key).decrypt(pt)


@cocotb.test()
async def cocotb_tags(dut) -> None:
    """Every tag value goes through with its block, under stalls."""
    tb = await _start(dut, gap=0.2, stall=0.5, seed=21)
    rng = random.Random(21)
    await tb.load_key(rng.randbytes(32))
    recs = [tb.send(rng.randbytes(16), decrypt=bool(t & 1), tag=t)
            for t in list(range(1 << tb.tag_width)) * 2]
    await tb.drain()
    assert [r.tag for r in recs] == list(range(1 << tb.tag_width)) * 2
    assert all(r.done for r in recs)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
CORE = get_core("round")


def _run(testcase: str, tag_width: int = 1, **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel=CORE.top, sources=CORE.file_paths(), test_module="test_round",
               test_dir=HERE, parameters={**CORE.parameters, "TagWidth": tag_width},
               testcase=testcase, extra_env={k: str(v) for k, v in env.items()})


def test_registry_claims_match() -> None:
    assert CORE.top == "ak_round_core"
    assert CORE.latency == {128: 10, 192: 12, 256: 14}
    assert CORE.interval == {128: 10, 192: 12, 256: 14}
    assert set(CORE.key_sizes) == {128, 192, 256} and CORE.decrypt


@pytest.mark.parametrize("key_size", [128, 192, 256])
def test_round_kat(key_size: int) -> None:
    _run("cocotb_kat", AK_KEY_SIZE=key_size)


def test_round_kat_stalled() -> None:
    _run("cocotb_kat", tag_width=4, AK_KEY_SIZE=192, AK_GAP=0.3, AK_STALL=0.5)


def test_round_exact_timing() -> None:
    _run("cocotb_exact_timing")


#: 20,000 random blocks in all: (blocks, gap probability, stall probability, TagWidth)
RANDOM_RUNS = [
    (5000, 0.0, 0.0, 1),
    (5000, 0.0, 0.5, 4),
    (4000, 0.5, 0.5, 4),
    (3000, 0.2, 0.2, 1),
    (3000, 0.1, 0.8, 4),
]


@pytest.mark.parametrize("blocks,gap,stall,tag_width", RANDOM_RUNS,
                         ids=[f"g{g}-s{s}-t{t}" for _, g, s, t in RANDOM_RUNS])
def test_round_random(blocks: int, gap: float, stall: float, tag_width: int) -> None:
    _run("cocotb_random", tag_width=tag_width, AK_BLOCKS=blocks, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=blocks + int(100 * gap) + int(10 * stall))


def test_round_random_total() -> None:
    assert sum(r[0] for r in RANDOM_RUNS) >= 20_000


def test_round_icarus() -> None:
    """The same RTL and test bench on Icarus Verilog 11 (slow there: a short subset)."""
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.toolchain.paths import iverilog

    if iverilog() is None:
        pytest.skip("Icarus Verilog not installed")
    run_cocotb(toplevel=CORE.top, sources=CORE.file_paths(), test_module="test_round",
               test_dir=HERE, parameters={**CORE.parameters, "TagWidth": 4},
               simulator="icarus",
               testcase=["cocotb_exact_timing", "cocotb_key_and_block_same_cycle",
                         "cocotb_illegal_key_len"])


#: the round core with the other S-box implementations (registry names)
VARIANTS = ["round_comp", "round_canright", "round_lutinv"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_round_sbox_variant(variant: str) -> None:
    """KATs of all key sizes under stalls, exact timing (unchanged by the S-box) and
    3,000 random stalled blocks with the S-box chosen by SboxImpl."""
    from aeskit.sim.cocotb_run import run_cocotb

    core = get_core(variant)
    assert core.top == CORE.top and core.parameters.get("SboxImpl") in (1, 2, 3)
    assert (core.latency, core.interval, core.key_setup) == (CORE.latency, CORE.interval,
                                                             CORE.key_setup)
    run_cocotb(toplevel=core.top, sources=core.file_paths(), test_module="test_round",
               test_dir=HERE, parameters={**core.parameters, "TagWidth": 4},
               testcase=["cocotb_kat_all", "cocotb_exact_timing", "cocotb_random"],
               extra_env={"AK_GAP": 0.2, "AK_STALL": 0.5, "AK_BLOCKS": 3000,
                          "AK_SEED": 40 + core.parameters["SboxImpl"]})


@pytest.mark.parametrize("case", ["cocotb_key_reload", "cocotb_key_and_block_same_cycle",
                                  "cocotb_reset_mid_block", "cocotb_illegal_key_len",
                                  "cocotb_tags"])
def test_round_control(case: str) -> None:
    _run(case, tag_width=4)
