"""cocotb tests of the paper-002 cores (``ueno`` and the conventional datapaths
``satoh``, ``lutz``, ``liu``): all speak the core contract through ak_round_ctrl, so
they run the shared core bench (:mod:`aeskit.testbench.corebench`) with the claims of the
registry entry under test (test_paper002.py sets them), and this reset sequence.

Expected results come from ``aeskit.vectors`` (NIST CAVP files) and ``aeskit.model``
(itself checked against ``cryptography``); the claims come from the registry, so a
core that is one cycle off fails here.
"""

from __future__ import annotations

import random

import cocotb

# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (check_block, cocotb_cbc_rate, cocotb_exact_timing,
                                  cocotb_kat, cocotb_key_reload, cocotb_random, cocotb_tags,
                                  refuse_key, reset_round, start)

SIZES = (16, 24, 32)



@cocotb.test()
async def cocotb_illegal_and_reset(dut) -> None:
    """key_len_i = 3: the handshake completes and in_ready_o stays low; reset in the
    middle of a block, of a stalled result and of a key setup leaves the core idle
    and keyless; a clean block goes through afterwards."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    await check_block(tb, bytes(16), bytes(16))
    await refuse_key(tb, bytes(range(32)), 3, 40)
    for where in (1, 4, 9, 13):
        await reset_round(tb, rng, where, SIZES, "rrr", stalled=20, setup_mod=7, final=True)
