"""cocotb tests shared by the ttable_* core tests (test_ttable_col.py,
test_ttable_round.py, test_ttable_unrolled.py): the cocotb module they all run.

Settings come from the environment: AK_CORE (registry name), AK_KEY_SIZE, AK_GAP,
AK_STALL, AK_BLOCKS, AK_SEED.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.sim.coretb import CoreTB, intervals
from aeskit.vectors import block_vectors

KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")
NR = {16: 10, 24: 12, 32: 14}


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _core():
    return get_core(os.environ["AK_CORE"])


async def _start(dut, *, gap: float = 0.0, stall: float = 0.0, seed: int = 1) -> CoreTB:
    tb = CoreTB(dut, gap_prob=gap, stall_prob=stall, seed=seed)
    tb.start_clock()
    await tb.reset()
    return tb


@cocotb.test()
async def cocotb_kat(dut) -> None:
    """Every ECB KAT/MMT record of one key size (AK_KEY_SIZE), both directions."""
    key_size = _env_int("AK_KEY_SIZE", 128)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=key_size)
    core = _core()
    records = block_vectors("ECB", key_size=key_size, kinds=KAT_KINDS)
    if not core.decrypt:
        records = [r for r in records if not r.decrypt]
    assert records
    checks = []
    current = None
    for rec in records:
        if rec.key != current:
            tb.queue_key(rec.key)
            current = rec.key
        src, dst = (rec.ciphertext, rec.plaintext) if rec.decrypt else (rec.plaintext,
                                                                         rec.ciphertext)
        for i in range(0, len(src), 16):
            br = tb.send(src[i:i + 16], decrypt=rec.decrypt)
            checks.append((br, dst[i:i + 16], rec))
    await tb.drain(timeout_cycles=2000)
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    dut._log.info("%d-bit: %d records, %d blocks, %d cycles", key_size, len(records),
                  len(checks), tb.cycle)


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Exact latency, accept spacing (blocks j and j + in_flight) and key setup, never
    stalled, for every key size the core supports and both directions."""
    core = _core()
    tb = await _start(dut)
    rng = random.Random(5)
    inf = core.in_flight
    for ks in core.key_sizes:
        nb = ks // 8
        for pattern in (("enc", "dec", "mixed") if core.decrypt else ("enc",)):
            krec = tb.queue_key(rng.randbytes(nb)).rec
            n = 3 * inf + 1
            dirs = {"enc": [False] * n, "dec": [True] * n,
                    "mixed": [rng.random() < 0.5 for _ in range(n)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain(timeout_cycles=2000)
            assert krec.setup_cycles == core.key_setup[ks], (
                f"{ks}-bit key setup {krec.setup_cycles}, expected {core.key_setup[ks]}")
            lat = [r.latency for r in recs]
            assert lat == [core.latency[ks]] * n, f"{ks}-bit {pattern}: latencies {lat}"
            acc = [r.accept_cycle for r in recs]
            span = [b - a for a, b in zip(acc, acc[inf:])]
            assert span == [inf * core.interval[ks]] * (n - inf), (
                f"{ks}-bit {pattern}: accept spacing over {inf} blocks {span}, "
                f"intervals {intervals(recs)}")
            assert recs[0].accept_cycle == krec.ready_cycle
            dut._log.info("%d-bit %s: setup %d, latency %d, intervals %s", ks, pattern,
                          krec.setup_cycles, lat[0], intervals(recs)[:2 * inf])


@cocotb.test()
async def cocotb_random(dut) -> None:
    """AK_BLOCKS random blocks: random keys every 1..3*in_flight blocks, random sizes
    and directions, gaps AK_GAP and stalls AK_STALL, random tags."""
    core = _core()
    n = _env_int("AK_BLOCKS", 500)
    seed = _env_int("AK_SEED", 1)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=seed)
    rng = random.Random(seed)
    tag_max = (1 << tb.tag_width) - 1
    recs = []
    while len(recs) < n:
        tb.queue_key(rng.randbytes(rng.choice(core.key_sizes) // 8))
        for _ in range(min(rng.randint(1, 3 * core.in_flight), n - len(recs))):
            recs.append(tb.send(rng.randbytes(16), decrypt=core.decrypt and rng.random() < 0.5,
                                tag=rng.randint(0, tag_max)))
    await tb.drain(timeout_cycles=4000)
    assert all(r.done for r in recs)


@cocotb.test()
async def cocotb_full_rate(dut) -> None:
    """One block offered every cycle (no gaps), random back-pressure AK_STALL: every
    block comes out once, in order, with its tag (CoreTB scoreboard), and the core
    holds in_flight blocks at once when not stalled."""
    core = _core()
    tb = await _start(dut, gap=0.0, stall=_env_float("AK_STALL", 0.5), seed=17)
    rng = random.Random(17)
    for ks in core.key_sizes:
        tb.queue_key(rng.randbytes(ks // 8))
        recs = [tb.send(rng.randbytes(16), decrypt=core.decrypt and rng.random() < 0.5)
                for _ in range(_env_int("AK_BLOCKS", 200))]
        await tb.drain(timeout_cycles=4000)
        assert all(r.done and r.result == r.expected for r in recs), "blocks lost or wrong"
        outs = [r.out_cycle for r in recs]
        assert outs == sorted(outs) and len(set(outs)) == len(outs), "results reordered"
        # the most blocks in flight at any edge
        events = sorted([(r.accept_cycle, 1) for r in recs] + [(r.out_cycle, -1) for r in recs])
        cur = peak = 0
        for _, d in events:
            cur += d
            peak = max(peak, cur)
        assert peak >= core.in_flight, f"{ks}-bit: at most {peak} blocks in flight"


@cocotb.test()
async def cocotb_key_change(dut) -> None:
    """Keys of every size back to back, each followed by a few blocks under stalls; a
    key queued behind blocks is taken only when they have left."""
    core = _core()
    tb = await _start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    for ks in list(core.key_sizes) * 2:
        tb.queue_key(rng.randbytes(ks // 8))
        for _ in range(rng.randint(1, 2 * core.in_flight)):
            tb.send(rng.randbytes(16), decrypt=core.decrypt and rng.random() < 0.5)
    await tb.drain(timeout_cycles=4000)
    ks = core.key_sizes[0] // 8
    tb.queue_key(rng.randbytes(ks))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(3)]
    k2 = tb.queue_key(rng.randbytes(ks))
    after = tb.send(rng.randbytes(16))
    await tb.drain(timeout_cycles=4000)
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.result == AES(k2.rec.key).encrypt(after.data)


@cocotb.test()
async def cocotb_reset_and_illegal_key(dut) -> None:
    """Reset in the middle of blocks leaves the core idle and keyless; an illegal
    key_len_i (3) is taken but no block is accepted until a legal key."""
    core = _core()
    tb = await _start(dut, seed=9)
    rng = random.Random(9)
    nb = core.key_sizes[0] // 8
    for where in (1, 7, 30, 90):
        await tb.load_key(rng.randbytes(nb))
        for _ in range(3):
            tb.send(rng.randbytes(16))
        await tb.cycles(where)
        await tb.reset()
        await FallingEdge(dut.clk_i)
        assert int(dut.out_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0
        assert int(dut.key_ready_o.value) == 1
    await tb.load_key(bytes(range(32)), key_len=3, wait_setup=False)
    for _ in range(40):
        await FallingEdge(dut.clk_i)
        assert int(dut.in_ready_o.value) == 0
        assert int(dut.key_ready_o.value) == 1
    await tb.load_key(key := rng.randbytes(nb))
    r = tb.send(pt := rng.randbytes(16))
    await tb.drain(timeout_cycles=2000)
    assert r.result == AES(key).encrypt(pt)
    await RisingEdge(dut.clk_i)
