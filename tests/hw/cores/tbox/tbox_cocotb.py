"""cocotb tests shared by the test files of paper 003's memory-based cores
(hw/cores/tbox): every core speaks the core contract, so one set of tests, steered
by environment variables set by the pytest side of each file:

* ``AK_KEY_SIZES``  key sizes (bits) the build supports, e.g. ``128,192,256``;
* ``AK_LAT_ROUND``  cycles of latency per round (1, or 3 for intra-round pipelining);
* ``AK_LAT_EXTRA``  cycles added after the rounds (the unfolded cores' output buffer: 2);
* ``AK_PIPELINED``  1 for the unfolded cores (interval 1), 0 for the folded one (Nr);
* ``AK_KEY_SIZE``, ``AK_BLOCKS``, ``AK_GAP``, ``AK_STALL``, ``AK_SEED`` per test.

Key setup is the registry's (57/63/76, the word-serial ak_rk_fill).
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw.catalog.memory_primitives import rk_fill_cycles
from aeskit.model import AES, cbc_encrypt
from aeskit.sim.coretb import CoreTB, intervals
from aeskit.vectors import block_vectors

NR = {16: 10, 24: 12, 32: 14}
CODE = {16: 0, 24: 1, 32: 2}
KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def key_sizes() -> list[int]:
    """Supported key sizes in bytes."""
    return [int(k) // 8 for k in os.environ.get("AK_KEY_SIZES", "128,192,256").split(",")]


def latency(ks: int) -> int:
    return _env_int("AK_LAT_ROUND", 1) * NR[ks] + _env_int("AK_LAT_EXTRA", 0)


def interval(ks: int) -> int:
    return 1 if _env_int("AK_PIPELINED", 0) else NR[ks]


def setup(ks: int) -> int:
    return rk_fill_cycles(8 * ks)


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
    records = block_vectors("ECB", key_size=key_size, kinds=KAT_KINDS)
    assert records, f"no ECB vectors for {key_size}-bit keys"
    assert any(r.decrypt for r in records) and any(not r.decrypt for r in records)
    checks = []
    current = None
    for rec in records:
        if rec.key != current:
            tb.queue_key(rec.key)
            current = rec.key
        src, dst = (rec.ciphertext, rec.plaintext) if rec.decrypt else (rec.plaintext,
                                                                         rec.ciphertext)
        for i in range(0, len(src), 16):
            checks.append((tb.send(src[i:i + 16], decrypt=rec.decrypt), dst[i:i + 16], rec))
    await tb.drain()
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    dut._log.info("%d-bit: %d records, %d blocks", key_size, len(records), len(checks))


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Latency, interval and key setup exactly as claimed, never stalled, for every
    supported key size and direction pattern."""
    tb = await _start(dut)
    rng = random.Random(5)
    for ks in key_sizes():
        for pattern in ("enc", "dec", "mixed"):
            krec = tb.queue_key(rng.randbytes(ks)).rec
            dirs = {"enc": [False] * 40, "dec": [True] * 40,
                    "mixed": [rng.random() < 0.5 for _ in range(40)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain()
            assert krec.setup_cycles == setup(ks), (
                f"{ks * 8}-bit key setup {krec.setup_cycles}, expected {setup(ks)}")
            lat = [r.latency for r in recs]
            gaps = intervals(recs)
            assert lat == [latency(ks)] * len(recs), f"{ks * 8}-bit {pattern}: latencies {lat}"
            assert gaps == [interval(ks)] * (len(recs) - 1), (
                f"{ks * 8}-bit {pattern}: intervals {gaps}")
            assert recs[0].accept_cycle == krec.ready_cycle
            dut._log.info("%d-bit %s: setup %d, latency %d, interval %d", ks * 8, pattern,
                          krec.setup_cycles, lat[0], gaps[0])


@cocotb.test()
async def cocotb_random(dut) -> None:
    """AK_BLOCKS random blocks: random keys (supported sizes) every 1..AK_PER_KEY
    blocks, random directions and tags, gaps AK_GAP and stalls AK_STALL. With AK_GAP = 0
    this is a full-rate stream (one block offered every cycle); the CoreTB scoreboard
    checks that no block is lost, duplicated or reordered (results in order, tags)."""
    n = _env_int("AK_BLOCKS", 1000)
    seed = _env_int("AK_SEED", 1)
    per_key = _env_int("AK_PER_KEY", 8)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=seed)
    rng = random.Random(seed)
    tag_max = (1 << tb.tag_width) - 1
    recs = []
    sizes = key_sizes()
    while len(recs) < n:
        tb.queue_key(rng.randbytes(rng.choice(sizes)))
        for _ in range(min(rng.randint(1, per_key), n - len(recs))):
            recs.append(tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5,
                                tag=rng.randint(0, tag_max)))
    await tb.drain()
    assert all(r.done for r in recs)
    assert [r.index for r in recs] == sorted(r.index for r in recs)
    dut._log.info("%d blocks, %d keys, %d cycles", n, len(tb.keys), tb.cycle)


@cocotb.test()
async def cocotb_full_rate_tags(dut) -> None:
    """Full-rate stream (a block offered every cycle) with random back-pressure:
    the tag of every result must be the next one in sequence (nothing lost, doubled
    or reordered), and with out_ready_i high the pipeline moves one block per cycle."""
    stall = _env_float("AK_STALL", 0.4)
    tb = await _start(dut, stall=stall, seed=17)
    rng = random.Random(17)
    for ks in key_sizes():
        tb.queue_key(rng.randbytes(ks))
        recs = [tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
                for _ in range(_env_int("AK_BLOCKS", 600))]
        await tb.drain()
        tags = [r.tag for r in recs]
        assert tags == [(recs[0].tag + i) % (1 << tb.tag_width) for i in range(len(recs))]
        outs = [r.out_cycle for r in recs]
        assert outs == sorted(outs) and len(set(outs)) == len(outs)
    # the same without stalls: one result per cycle
    tb.stall_prob = 0.0
    tb.queue_key(rng.randbytes(key_sizes()[0]))
    recs = [tb.send(rng.randbytes(16)) for _ in range(200)]
    await tb.drain()
    gaps = [b.out_cycle - a.out_cycle for a, b in zip(recs, recs[1:])]
    want = interval(key_sizes()[0])
    assert gaps == [want] * len(gaps), f"output spacing {set(gaps)}"


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until they have all left, then applies."""
    tb = await _start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    sizes = key_sizes()
    for i in range(6):
        tb.queue_key(rng.randbytes(sizes[i % len(sizes)]))
        for _ in range(rng.randint(1, 30)):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
    await tb.drain()
    tb.queue_key(rng.randbytes(sizes[0]))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(20)]
    k2 = tb.queue_key(rng.randbytes(sizes[-1]))
    after = tb.send(rng.randbytes(16), decrypt=True)
    await tb.drain()
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.accept_cycle > k2.rec.accept_cycle
    assert after.result == AES(k2.rec.key).decrypt(after.data)


@cocotb.test()
async def cocotb_illegal_and_reset(dut) -> None:
    """key_len_i = 3 and key sizes the build does not support: the handshake
    completes, in_ready_o stays low; reset in the middle of a stream leaves the core
    idle and keyless; a clean block goes through afterwards."""
    tb = await _start(dut, seed=9)
    rng = random.Random(9)
    sizes = key_sizes()
    bad = [(bytes(range(32)), 3)] + [(bytes(k), CODE[k]) for k in (16, 24, 32) if k not in sizes]
    for key, code in bad:
        await tb.load_key(bytes(sizes[0]))
        tb.send(bytes(16))
        await tb.drain()
        krec = await tb.load_key(key, key_len=code, wait_setup=False)
        assert krec.accept_cycle is not None
        for _ in range(40):
            await FallingEdge(dut.clk_i)
            assert int(dut.in_ready_o.value) == 0, f"in_ready_o high after key code {code}"
            assert int(dut.key_ready_o.value) == 1
            assert int(dut.out_valid_o.value) == 0
    for where in (1, 4, 9, 23):
        ks = rng.choice(sizes)
        await tb.load_key(rng.randbytes(ks))
        for _ in range(8):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
        await tb.cycles(where)
        await tb.reset()
        await FallingEdge(dut.clk_i)
        assert int(dut.out_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0
        assert int(dut.key_ready_o.value) == 1
        tb.queue_key(rng.randbytes(ks))      # reset during a key setup
        await tb.cycles(where % 7 + 1)
        await tb.reset()
        await tb.load_key(key := rng.randbytes(ks))
        r = tb.send(pt := rng.randbytes(16), decrypt=True)
        await tb.drain()
        assert r.result == AES(key).decrypt(pt)


@cocotb.test()
async def cocotb_cbc_rate(dut) -> None:
    """CBC encryption at full speed: the next input is formed combinationally as
    P ^ out_data_o in the cycle out_valid_o is high (a zero-latency mode engine) and
    presented at once. Checks the ciphertext against the model and reports/asserts
    the cycles per block (AK_CBC_CYCLES per key size: Nr)."""
    tb = await _start(dut)
    rng = random.Random(23)
    results = {}
    for ks in key_sizes():
        key, iv = rng.randbytes(ks), rng.randbytes(16)
        pts = [rng.randbytes(16) for _ in range(50)]
        await tb.load_key(key)
        tb.pause()
        await RisingEdge(dut.clk_i)
        dut.out_ready_i.value = 1
        dut.key_valid_i.value = 0
        dut.in_decrypt_i.value = 0
        dut.in_tag_i.value = 0
        cts: list[bytes] = []
        accepts: list[int] = []
        cycle = 0
        dut.in_data_i.value = int.from_bytes(bytes(a ^ b for a, b in zip(pts[0], iv)), "big")
        dut.in_valid_i.value = 1
        valid = True
        while len(cts) < len(pts):
            await FallingEdge(dut.clk_i)
            cycle += 1
            assert cycle < 100 * len(pts), "CBC stream hung"
            if int(dut.out_valid_o.value):
                c = int(dut.out_data_o.value).to_bytes(16, "big")
                cts.append(c)
                if len(cts) < len(pts):   # the chained block, in the same cycle
                    nxt = bytes(a ^ b for a, b in zip(pts[len(cts)], c))
                    dut.in_data_i.value = int.from_bytes(nxt, "big")
                    dut.in_valid_i.value = 1
                    valid = True
            # in_ready_o does not depend on in_valid_i/in_data_i
            fire_in = valid and int(dut.in_ready_o.value)
            if fire_in:
                accepts.append(cycle)
            await RisingEdge(dut.clk_i)
            if fire_in:
                dut.in_valid_i.value = 0
                valid = False
        dut.in_valid_i.value = 0
        want = cbc_encrypt(AES(key), iv, b"".join(pts))
        assert b"".join(cts) == want, f"{ks * 8}-bit CBC mismatch"
        gaps = [b - a for a, b in zip(accepts, accepts[1:])]
        results[ks * 8] = sorted(set(gaps))
        expect = _env_int(f"AK_CBC_CYCLES_{ks * 8}", NR[ks])
        assert set(gaps) == {expect}, f"{ks * 8}-bit CBC cycles per block {sorted(set(gaps))}"
        for _ in range(3):
            await RisingEdge(dut.clk_i)
        tb.resume()
    dut._log.info("CBC-encryption cycles per block: %s", results)
