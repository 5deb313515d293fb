"""cocotb tests of the ttable_* cores (test_ttable_col.py, test_ttable_round.py,
test_ttable_unrolled.py): the shared core bench (:mod:`aeskit.testbench.corebench`) with the
claims of the core under test, and what these cores add: a full-rate stream that
must fill the core (in_flight blocks at once), key changes, reset and the illegal key
length.

Settings come from the environment: AK_CORE (registry name), AK_KEY_SIZE, AK_GAP,
AK_STALL, AK_BLOCKS, AK_SEED and the claims :func:`aeskit.testbench.corebench.run` sets.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import RisingEdge

from aeskit.hw import get_core
from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (check_block, cocotb_exact_timing, cocotb_kat, cocotb_random,
                                  refuse_key, reset_round, start)



def _core():
    return get_core(os.environ["AK_CORE"])


@cocotb.test()
async def cocotb_full_rate(dut) -> None:
    """One block offered every cycle (no gaps), random back-pressure AK_STALL: every
    block comes out once, in order, with its tag (CoreTB scoreboard), and the core
    holds in_flight blocks at once when not stalled."""
    core = _core()
    tb = await start(dut, gap=0.0, stall=corebench.env_float("AK_STALL", 0.5), seed=17)
    rng = random.Random(17)
    for ks in core.key_sizes:
        tb.queue_key(rng.randbytes(ks // 8))
        recs = [tb.send(rng.randbytes(16), decrypt=core.decrypt and rng.random() < 0.5)
                for _ in range(corebench.env_int("AK_BLOCKS", 200))]
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
    first = core.key_sizes[0] // 8
    await corebench.key_reload(dut, keys=[ks // 8 for ks in core.key_sizes] * 2,
                               per_key=2 * core.in_flight, first=first, second=first,
                               after_decrypt=False, mixed=core.decrypt, drain_timeout=4000)


@cocotb.test()
async def cocotb_reset_and_illegal_key(dut) -> None:
    """Reset in the middle of blocks leaves the core idle and keyless; an illegal
    key_len_i (3) is taken but no block is accepted until a legal key."""
    core = _core()
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    nb = core.key_sizes[0] // 8
    for where in (1, 7, 30, 90):
        await reset_round(tb, rng, where, nb, "eee")
    await refuse_key(tb, bytes(range(32)), 3, 40)
    await check_block(tb, rng.randbytes(nb), rng.randbytes(16), drain_timeout=2000)
    await RisingEdge(dut.clk_i)
