"""ak_pipe2_core (paper 001, registry entry ``pipe2``) on Verilator.

* every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record, 128/192/256-bit
  keys, encrypt and decrypt sections, against NIST (and, under stalls, the model);
* exact cycle counts, never stalled: latency 2*Nr, blocks accepted in pairs (edges A,
  A+1, A+2Nr, A+2Nr+1, ...: Nr cycles per block), key setup Nr+1, for every key size
  and direction;
* random differential: random keys, sizes, directions and tags against the model
  with random input gaps and output stalls (the CoreTB monitor checks the contract:
  outputs stable under stall, order, tags, key_ready_o low while blocks are in flight);
* two interleaved CBC-encryption streams (each block chained on its stream's previous
  result): Nr cycles per block with two streams, 2*Nr with one, exactly;
* key reload behind blocks in flight, reset in the middle of a block, illegal key
  length.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.sim.coretb import CoreTB, intervals
from aeskit.vectors import block_vectors

NR = {16: 10, 24: 12, 32: 14}
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
        src, dst = ((rec.ciphertext, rec.plaintext) if rec.decrypt
                    else (rec.plaintext, rec.ciphertext))
        for i in range(0, len(src), 16):
            checks.append((tb.send(src[i:i + 16], decrypt=rec.decrypt), dst[i:i + 16], rec))
    await tb.drain()
    assert len(checks) > 100
    for br, want, rec in checks:
        assert br.result == want, (f"{rec.file}:{rec.line} ({rec.kind} "
                                   f"{'dec' if rec.decrypt else 'enc'}): got "
                                   f"{br.result.hex() if br.result else None}, NIST "
                                   f"{want.hex()}")
    dut._log.info("%d-bit: %d records, %d blocks", key_size, len(records), len(checks))


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Latency 2Nr, accepts in pairs (Nr per block), key setup Nr+1, exactly."""
    tb = await _start(dut)
    rng = random.Random(5)
    for ks in (16, 24, 32):
        nr = NR[ks]
        for pattern in ("enc", "dec", "mixed"):
            krec = tb.queue_key(rng.randbytes(ks)).rec
            dirs = {"enc": [False] * 12, "dec": [True] * 12,
                    "mixed": [rng.random() < 0.5 for _ in range(12)]}[pattern]
            recs = [tb.send(rng.randbytes(16), decrypt=d) for d in dirs]
            await tb.drain()
            assert krec.setup_cycles == nr + 1, (ks, krec.setup_cycles)
            lat = [r.latency for r in recs]
            gaps = intervals(recs)
            assert lat == [2 * nr] * len(recs), f"{ks * 8}-bit {pattern}: latencies {lat}"
            assert gaps == [1, 2 * nr - 1] * 5 + [1], f"{ks * 8}-bit {pattern}: {gaps}"
            assert recs[0].accept_cycle == krec.ready_cycle
            span = recs[-1].accept_cycle - recs[0].accept_cycle
            # 12 blocks in 6 pairs: 5 pair periods of 2*Nr plus one cycle
            assert span == 5 * 2 * nr + 1
            dut._log.info("%d-bit %s: setup %d, latency %d, accept gaps %s", ks * 8, pattern,
                          krec.setup_cycles, lat[0], gaps[:2])


@cocotb.test()
async def cocotb_random(dut) -> None:
    """AK_BLOCKS random blocks: random keys every 1..8 blocks, random sizes,
    directions and tags, gaps AK_GAP and stalls AK_STALL."""
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


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until both stages are empty, then applies."""
    tb = await _start(dut, stall=0.3, seed=3)
    rng = random.Random(3)
    for ks in (16, 24, 32, 24, 16, 32):
        tb.queue_key(rng.randbytes(ks))
        for _ in range(rng.randint(1, 5)):
            tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
    await tb.drain()
    tb.queue_key(rng.randbytes(16))
    blocks = [tb.send(rng.randbytes(16)) for _ in range(3)]
    k2 = tb.queue_key(rng.randbytes(32))
    after = tb.send(rng.randbytes(16), decrypt=True)
    await tb.drain()
    assert k2.rec.accept_cycle >= blocks[-1].out_cycle
    assert after.result == AES(k2.rec.key).decrypt(after.data)


@cocotb.test()
async def cocotb_reset_and_illegal_key(dut) -> None:
    """Reset with two blocks in flight leaves the core idle and keyless; an illegal
    key length completes its handshake and leaves in_ready_o low."""
    tb = await _start(dut, seed=9)
    rng = random.Random(9)
    for where in (1, 2, 7, 19):
        await tb.load_key(rng.randbytes(24))
        tb.send(rng.randbytes(16), decrypt=True)
        tb.send(rng.randbytes(16))
        await tb.cycles(where)
        await tb.reset()
        await FallingEdge(dut.clk_i)
        assert int(dut.out_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0
        assert int(dut.key_ready_o.value) == 1
    krec = await tb.load_key(bytes(range(32)), key_len=3, wait_setup=False)
    assert krec.accept_cycle is not None
    for _ in range(40):
        await FallingEdge(dut.clk_i)
        assert int(dut.in_ready_o.value) == 0 and int(dut.key_ready_o.value) == 1
    await tb.load_key(key := bytes(range(16)))
    r = tb.send(pt := bytes(range(16)))
    await tb.drain()
    assert r.result == AES(key).encrypt(pt)


@cocotb.test()
async def cocotb_two_streams(dut) -> None:
    """Two CBC-encryption streams interleaved by tag (each block waits for its own
    stream's previous ciphertext): Nr cycles per block; one stream alone: 2Nr."""
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for sig in ("key_valid_i", "in_valid_i", "in_decrypt_i", "in_tag_i"):
        getattr(dut, sig).value = 0
    dut.out_ready_i.value = 1
    for _ in range(2):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    rng = random.Random(77)
    n = _env_int("AK_BLOCKS", 16)
    for ks in (16, 24, 32):
        nr = NR[ks]
        key = rng.randbytes(ks)
        model = AES(key)
        dut.key_i.value = int.from_bytes(key + bytes(32 - ks), "big")
        dut.key_len_i.value = {16: 0, 24: 1, 32: 2}[ks]
        dut.key_valid_i.value = 1
        while True:
            await FallingEdge(dut.clk_i)
            if int(dut.key_ready_o.value):
                break
        await RisingEdge(dut.clk_i)
        dut.key_valid_i.value = 0
        for streams in (2, 1):
            ivs = [rng.randbytes(16) for _ in range(streams)]
            msgs = [[rng.randbytes(16) for _ in range(n)] for _ in range(streams)]
            expect = []
            for iv, msg in zip(ivs, msgs):
                prev, out = iv, []
                for b in msg:
                    prev = model.encrypt(bytes(x ^ y for x, y in zip(b, prev)))
                    out.append(prev)
                expect.append(out)
            chain = list(ivs)        # the value each stream XORs into its next block
            ready = [True] * streams  # previous result of the stream is back
            sent = [0] * streams
            got: list[list[bytes]] = [[] for _ in range(streams)]
            first = last = None
            cycle = 0
            turn = 0
            await FallingEdge(dut.clk_i)
            while sum(len(g) for g in got) < streams * n:
                # at the falling edge: take a result (out_ready_i is always high), then
                # offer the next block of a stream whose chain value is back (round
                # robin); in_ready_o does not depend on in_valid_i, so it is sampled now
                if int(dut.out_valid_o.value):
                    s = int(dut.out_tag_o.value)
                    c = int(dut.out_data_o.value).to_bytes(16, "big")
                    got[s].append(c)
                    chain[s] = c
                    ready[s] = True
                    last = cycle
                cand = [s % streams for s in range(turn, turn + streams)
                        if ready[s % streams] and sent[s % streams] < n]
                offer = cand[0] if cand else None
                if offer is not None:
                    blk = bytes(x ^ y for x, y in zip(msgs[offer][sent[offer]], chain[offer]))
                    dut.in_data_i.value = int.from_bytes(blk, "big")
                    dut.in_tag_i.value = offer
                    dut.in_valid_i.value = 1
                    if int(dut.in_ready_o.value):
                        ready[offer] = False
                        sent[offer] += 1
                        turn = offer + 1
                        if first is None:
                            first = cycle
                else:
                    dut.in_valid_i.value = 0
                await RisingEdge(dut.clk_i)
                cycle += 1
                await FallingEdge(dut.clk_i)
                assert cycle < 100 * n * nr
            dut.in_valid_i.value = 0
            assert got == expect, f"{ks * 8}-bit, {streams} stream(s): CBC mismatch"
            # from the first accept to the last result: n rounds of 2*Nr cycles
            # (plus one for the second stream's offset)
            per_block = (last - first) / (streams * n)
            assert last - first == n * 2 * nr + (streams - 1), (ks, streams, last - first)
            dut._log.info("%d-bit CBC, %d stream(s): %.2f cycles per block", ks * 8,
                          streams, per_block)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
CORE = get_core("pipe2")


def _run(testcase: str | list[str], tag_width: int = 4, **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel=CORE.top, sources=CORE.file_paths(), test_module="test_pipe2",
               test_dir=HERE, parameters={**CORE.parameters, "TagWidth": tag_width},
               testcase=testcase, extra_env={k: str(v) for k, v in env.items()})


def test_registry_claims_match() -> None:
    assert CORE.top == "ak_pipe2_core" and CORE.in_flight == 2
    assert CORE.latency == {128: 20, 192: 24, 256: 28}
    assert CORE.interval == {128: 10, 192: 12, 256: 14}
    assert CORE.key_setup == {128: 11, 192: 13, 256: 15}
    assert set(CORE.key_sizes) == {128, 192, 256} and CORE.decrypt


@pytest.mark.parametrize("key_size", [128, 192, 256])
def test_pipe2_kat(key_size: int) -> None:
    _run("cocotb_kat", AK_KEY_SIZE=key_size)


def test_pipe2_kat_stalled() -> None:
    _run("cocotb_kat", AK_KEY_SIZE=256, AK_GAP=0.3, AK_STALL=0.5)


def test_pipe2_exact_timing() -> None:
    _run("cocotb_exact_timing")


RANDOM_RUNS = [(3000, 0.0, 0.0), (3000, 0.0, 0.5), (2000, 0.5, 0.5), (2000, 0.1, 0.8)]


@pytest.mark.parametrize("blocks,gap,stall", RANDOM_RUNS,
                         ids=[f"g{g}-s{s}" for _, g, s in RANDOM_RUNS])
def test_pipe2_random(blocks: int, gap: float, stall: float) -> None:
    _run("cocotb_random", AK_BLOCKS=blocks, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=blocks + int(100 * gap) + int(10 * stall))


def test_pipe2_two_streams() -> None:
    _run("cocotb_two_streams", AK_BLOCKS=16)


@pytest.mark.parametrize("case", ["cocotb_key_reload", "cocotb_reset_and_illegal_key"])
def test_pipe2_control(case: str) -> None:
    _run(case)
