"""cocotb tests shared by the paper-002 cores (``ueno`` and the conventional datapaths
``satoh``, ``lutz``, ``liu``): all speak the core contract through ak_round_ctrl, so one
set of tests, steered by environment variables that test_paper002.py sets from the
registry entry of the core under test:

* ``AK_LATENCY``   claimed latency per key size, e.g. ``11,13,15``;
* ``AK_INTERVAL``  claimed interval (ECB and CBC, both directions), e.g. ``11,13,15``;
* ``AK_SETUP``     claimed key setup, e.g. ``11,13,15``;
* ``AK_KEY_SIZE``, ``AK_BLOCKS``, ``AK_GAP``, ``AK_STALL``, ``AK_SEED`` per test.

Expected results come from ``aeskit.vectors`` (NIST CAVP files) and ``aeskit.model``
(itself checked against ``cryptography``); the claims come from the registry, so a
core that is one cycle off fails here.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.model import AES, cbc_decrypt, cbc_encrypt
from aeskit.sim.cbc_rate import cbc_stream
from aeskit.sim.coretb import CoreTB, intervals
from aeskit.vectors import block_vectors

KAT_KINDS = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")
SIZES = (16, 24, 32)


def _env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def _env_float(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


def _claim(name: str) -> dict[int, int]:
    """A per-key-size claim from the environment, keyed by key size in bytes."""
    vals = [int(v) for v in os.environ[name].split(",")]
    assert len(vals) == 3, f"{name} must list three values (128, 192, 256)"
    return dict(zip(SIZES, vals))


async def _start(dut, *, gap: float = 0.0, stall: float = 0.0, seed: int = 1) -> CoreTB:
    tb = CoreTB(dut, gap_prob=gap, stall_prob=stall, seed=seed)
    tb.start_clock()
    await tb.reset()
    return tb


@cocotb.test()
async def cocotb_kat(dut) -> None:
    """Every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record of one key size
    (AK_KEY_SIZE), encrypt and decrypt sections, in file order."""
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
        assert len(src) % 16 == 0 and len(src) == len(dst)
        for i in range(0, len(src), 16):
            checks.append((tb.send(src[i:i + 16], decrypt=rec.decrypt), dst[i:i + 16], rec))
    await tb.drain()
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    dut._log.info("%d-bit: %d records, %d blocks, %d keys", key_size, len(records),
                  len(checks), len(tb.keys))


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Latency, interval (ECB) and key setup exactly as the registry claims, never
    stalled, for every key size and direction pattern."""
    lat_c, int_c, set_c = _claim("AK_LATENCY"), _claim("AK_INTERVAL"), _claim("AK_SETUP")
    tb = await _start(dut)
    rng = random.Random(5)
    for ks in SIZES:
        for pattern in ("enc", "dec", "mixed"):
            krec = tb.queue_key(rng.randbytes(ks)).rec
            dirs = {"enc": [False] * 12, "dec": [True] * 12,
                    "mixed": [rng.random() < 0.5 for _ in range(12)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain()
            assert krec.setup_cycles == set_c[ks], (
                f"{ks * 8}-bit key setup {krec.setup_cycles}, claimed {set_c[ks]}")
            lat = [r.latency for r in recs]
            gaps = intervals(recs)
            assert lat == [lat_c[ks]] * len(recs), f"{ks * 8}-bit {pattern}: latencies {lat}"
            assert gaps == [int_c[ks]] * (len(recs) - 1), (
                f"{ks * 8}-bit {pattern}: intervals {gaps}")
            assert recs[0].accept_cycle == krec.ready_cycle
            dut._log.info("%d-bit %s: setup %d, latency %d, interval %d", ks * 8, pattern,
                          krec.setup_cycles, lat[0], gaps[0])


@cocotb.test()
async def cocotb_random(dut) -> None:
    """AK_BLOCKS random blocks against the model: random keys of every size reloaded
    every 1..8 blocks, random directions and tags, gaps AK_GAP and stalls AK_STALL
    (the CoreTB scoreboard checks order, tags and output stability under stall)."""
    n = _env_int("AK_BLOCKS", 1000)
    seed = _env_int("AK_SEED", 1)
    tb = await _start(dut, gap=_env_float("AK_GAP", 0.0), stall=_env_float("AK_STALL", 0.0),
                      seed=seed)
    rng = random.Random(seed)
    tag_max = (1 << tb.tag_width) - 1
    recs = []
    while len(recs) < n:
        tb.queue_key(rng.randbytes(rng.choice(SIZES)))
        for _ in range(min(rng.randint(1, 8), n - len(recs))):
            recs.append(tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5,
                                tag=rng.randint(0, tag_max)))
    await tb.drain()
    assert all(r.done for r in recs)
    for r in recs:
        model = AES(r.key)
        assert r.result == (model.decrypt(r.data) if r.decrypt else model.encrypt(r.data))
    dut._log.info("%d blocks, %d keys, %d cycles", n, len(tb.keys), tb.cycle)


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until they have all left, then applies."""
    tb = await _start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    for ks in (16, 24, 32, 24, 16, 32):
        tb.queue_key(rng.randbytes(ks))
        for _ in range(rng.randint(1, 4)):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
    await tb.drain()
    tb.queue_key(rng.randbytes(16))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(3)]
    k2 = tb.queue_key(rng.randbytes(32))
    after = tb.send(rng.randbytes(16), decrypt=True)
    await tb.drain()
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.accept_cycle > k2.rec.accept_cycle
    assert after.result == AES(k2.rec.key).decrypt(after.data)


@cocotb.test()
async def cocotb_illegal_and_reset(dut) -> None:
    """key_len_i = 3: the handshake completes and in_ready_o stays low; reset in the
    middle of a block, of a stalled result and of a key setup leaves the core idle
    and keyless; a clean block goes through afterwards."""
    tb = await _start(dut, seed=9)
    rng = random.Random(9)
    await tb.load_key(bytes(16))
    tb.send(bytes(16))
    await tb.drain()
    krec = await tb.load_key(bytes(range(32)), key_len=3, wait_setup=False)
    assert krec.accept_cycle is not None
    for _ in range(40):
        await FallingEdge(dut.clk_i)
        assert int(dut.in_ready_o.value) == 0, "in_ready_o high after an illegal key"
        assert int(dut.key_ready_o.value) == 1
        assert int(dut.out_valid_o.value) == 0
    for where in (1, 4, 9, 13):
        ks = rng.choice(SIZES)
        await tb.load_key(rng.randbytes(ks))
        for _ in range(3):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
        await tb.cycles(where)
        await tb.reset()
        await FallingEdge(dut.clk_i)
        assert int(dut.out_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0
        assert int(dut.key_ready_o.value) == 1
        tb.stall_prob = 1.0                 # a stalled result, then reset
        await tb.load_key(rng.randbytes(ks))
        tb.send(rng.randbytes(16))
        await tb.cycles(20)
        await tb.reset()
        tb.stall_prob = 0.0
        tb.queue_key(rng.randbytes(ks))      # reset during a key setup
        await tb.cycles(where % 7 + 1)
        await tb.reset()
        await tb.load_key(key := rng.randbytes(ks))
        r = tb.send(pt := rng.randbytes(16), decrypt=True)
        await tb.drain()
        assert r.result == AES(key).decrypt(pt)


@cocotb.test()
async def cocotb_tags(dut) -> None:
    """Every tag value goes through with its block, under gaps and stalls."""
    tb = await _start(dut, gap=0.2, stall=0.5, seed=21)
    rng = random.Random(21)
    await tb.load_key(rng.randbytes(32))
    recs = [tb.send(rng.randbytes(16), decrypt=bool(t & 1), tag=t)
            for t in list(range(1 << tb.tag_width)) * 2]
    await tb.drain()
    assert [r.tag for r in recs] == list(range(1 << tb.tag_width)) * 2
    assert all(r.done for r in recs)


@cocotb.test()
async def cocotb_cbc_rate(dut) -> None:
    """CBC encryption and decryption at full speed (aeskit.sim.cbc_rate.cbc_stream: a
    zero-latency mode engine chaining through out_data_o), every key size: the result
    against the model, and the cycles per block (accept to accept) exactly the
    registry's interval -- CBC encryption runs as fast as ECB on a round-based core."""
    int_c = _claim("AK_INTERVAL")
    tb = await _start(dut)
    rng = random.Random(23)
    got = {}
    for ks in SIZES:
        key, iv = rng.randbytes(ks), rng.randbytes(16)
        pts = [rng.randbytes(16) for _ in range(20)]
        cts_model = cbc_encrypt(AES(key), iv, b"".join(pts))
        await tb.load_key(key)
        tb.pause()
        await RisingEdge(dut.clk_i)
        for decrypt in (False, True):
            src = ([cts_model[i:i + 16] for i in range(0, len(cts_model), 16)] if decrypt
                   else pts)
            outs, accepts = await cbc_stream(dut, iv, src, decrypt)
            want = (cbc_decrypt(AES(key), iv, cts_model) if decrypt else cts_model)
            assert b"".join(outs) == want, f"{ks * 8}-bit CBC decrypt={decrypt} mismatch"
            gaps = sorted({b - a for a, b in zip(accepts, accepts[1:])})
            got[(ks * 8, "dec" if decrypt else "enc")] = gaps
            assert gaps == [int_c[ks]], f"{ks * 8}-bit CBC decrypt={decrypt}: cycles {gaps}"
            for _ in range(3):
                await RisingEdge(dut.clk_i)
        tb.resume()
    dut._log.info("CBC cycles per block: %s", got)
