"""cocotb tests of paper 003's memory-based cores (hw/cores/tbox), run by the test
files of the tbox cores: the shared core bench (:mod:`aeskit.testbench.corebench`) steered
by the claims the pytest side sets, and what these cores add: a
full-rate stream with tags in sequence, key sizes the build does not support, CBC at
full speed (encryption). Exact timing runs ``AK_TIMING_BLOCKS`` (40) blocks per
direction pattern.
"""

from __future__ import annotations

import random

import cocotb

from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (Claims, check_block, cocotb_exact_timing, cocotb_kat,
                                  cocotb_random, refuse_key, reset_round, start)

CODE = {16: 0, 24: 1, 32: 2}



@cocotb.test()
async def cocotb_full_rate_tags(dut) -> None:
    """Full-rate stream (a block offered every cycle) with random back-pressure:
    the tag of every result must be the next one in sequence (nothing lost, doubled
    or reordered), and with out_ready_i high the pipeline moves one block per cycle."""
    claims = Claims.from_env()
    tb = await start(dut, stall=corebench.env_float("AK_STALL", 0.4), seed=17)
    rng = random.Random(17)
    for ks in claims.sizes:
        tb.queue_key(rng.randbytes(ks))
        recs = [tb.send(rng.randbytes(16), decrypt=rng.random() < 0.5)
                for _ in range(corebench.env_int("AK_BLOCKS", 600))]
        await tb.drain()
        tags = [r.tag for r in recs]
        assert tags == [(recs[0].tag + i) % (1 << tb.tag_width) for i in range(len(recs))]
        outs = [r.out_cycle for r in recs]
        assert outs == sorted(outs) and len(set(outs)) == len(outs)
    # the same without stalls: one result per cycle
    tb.stall_prob = 0.0
    tb.queue_key(rng.randbytes(claims.sizes[0]))
    recs = [tb.send(rng.randbytes(16)) for _ in range(200)]
    await tb.drain()
    gaps = [b.out_cycle - a.out_cycle for a, b in zip(recs, recs[1:])]
    want = claims.interval[claims.key_sizes[0]]
    assert gaps == [want] * len(gaps), f"output spacing {set(gaps)}"


@cocotb.test()
async def cocotb_key_reload(dut) -> None:
    """A key queued behind blocks waits until they have all left, then applies."""
    sizes = Claims.from_env().sizes
    await corebench.key_reload(dut, keys=[sizes[i % len(sizes)] for i in range(6)],
                               per_key=30, tail=20, first=sizes[0], second=sizes[-1])


@cocotb.test()
async def cocotb_illegal_and_reset(dut) -> None:
    """key_len_i = 3 and key sizes the build does not support: the handshake
    completes, in_ready_o stays low; reset in the middle of a stream leaves the core
    idle and keyless; a clean block goes through afterwards."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    sizes = Claims.from_env().sizes
    bad = [(bytes(range(32)), 3)] + [(bytes(k), CODE[k]) for k in (16, 24, 32) if k not in sizes]
    for key, code in bad:
        await check_block(tb, bytes(sizes[0]), bytes(16))
        await refuse_key(tb, key, code, 40)
    for where in (1, 4, 9, 23):
        await reset_round(tb, rng, where, sizes, "r" * 8, setup_mod=7, final=True)


@cocotb.test()
async def cocotb_cbc_rate(dut) -> None:
    """CBC encryption at full speed: the next input is formed combinationally as
    P ^ out_data_o in the cycle out_valid_o is high (a zero-latency mode engine) and
    presented at once: the ciphertext against the model, Nr cycles per block."""
    await corebench.cbc_rate(dut, Claims.from_env(), blocks=50, directions=(False,))
