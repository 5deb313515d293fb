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

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (Claims, check_block, cocotb_kat, cocotb_random, refuse_key,
                                  reset_round, start)
from aeskit.testbench.coretb import BlockRecord, KeyRecord, intervals

NR = {16: 10, 24: 12, 32: 14}

# ----------------------------------------------------------------------------------
# cocotb tests: the shared core bench, and what is special about this core
# ----------------------------------------------------------------------------------


def _pairs(ks: int, pattern: str, krec: KeyRecord, recs: list[BlockRecord]) -> None:
    """Blocks are accepted in pairs: edges A, A+1, A+2Nr, A+2Nr+1, ..."""
    nr = NR[ks]
    gaps = intervals(recs)
    assert gaps == [1, 2 * nr - 1] * 5 + [1], f"{ks * 8}-bit {pattern}: {gaps}"
    span = recs[-1].accept_cycle - recs[0].accept_cycle  # type: ignore[operator]
    # 12 blocks in 6 pairs: 5 pair periods of 2*Nr plus one cycle
    assert span == 5 * 2 * nr + 1


@cocotb.test()
async def cocotb_exact_timing(dut) -> None:
    """Latency 2Nr, accepts in pairs (Nr per block), key setup Nr+1, exactly."""
    await corebench.exact_timing(dut, Claims.from_env(), 12, check=_pairs)


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until both stages are empty, then applies."""
    await corebench.key_reload(dut, per_key=5)


@cocotb.test()
async def cocotb_reset_and_illegal_key(dut) -> None:
    """Reset with two blocks in flight leaves the core idle and keyless; an illegal
    key length completes its handshake and leaves in_ready_o low."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    for where in (1, 2, 7, 19):
        await reset_round(tb, rng, where, 24, "de")
    await refuse_key(tb, bytes(range(32)), 3, 40)
    await check_block(tb, bytes(range(16)), bytes(range(16)))


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
    n = corebench.env_int("AK_BLOCKS", 16)
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
    # blocks go in pairs: the exact-timing test checks the spacing over two
    corebench.run(CORE, "test_pipe2", HERE, testcase, tag_width=tag_width,
                  claims=Claims.of(CORE, window=CORE.in_flight), **env)


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


@pytest.mark.slow
def test_pipe2_e128() -> None:
    """The encrypt-only AES-128 configuration (Directions = 1, KeySizes = 1): the
    AES-128 encryption KATs, exact timing as the full build's and random stalled
    blocks; its refusals in tests/hw/bench/contract/test_core_refusal.py."""
    core = get_core("pipe2_e128")
    assert core.key_sizes == (128,) and not core.decrypt
    assert core.parameters == {"Directions": 1, "KeySizes": 1}
    assert (core.latency[128], core.interval[128], core.key_setup[128]) == \
        (CORE.latency[128], CORE.interval[128], CORE.key_setup[128])
    corebench.run(core, "test_pipe2", HERE, ["cocotb_kat", "cocotb_exact_timing",
                                              "cocotb_random"],
                  tag_width=4, claims=Claims.of(core, window=core.in_flight),
                  AK_KEY_SIZE=128, AK_BLOCKS=3000, AK_GAP=0.2, AK_STALL=0.5, AK_SEED=62)
