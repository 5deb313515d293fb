"""ak_io_shim (the flow's pin stand-in on iCE40 and Nexus) on Verilator.

Each cycle of ``sclk_i`` shifts a random bit in at ``sin_i``; after each edge ``par_o``
must equal a Python model of the InWidth-bit shift register (bit 0 the newest, bit
InWidth-1 the oldest; the register has no reset, so after k edges its k lowest bits),
and ``sout_o`` must be the XOR of the random word driven on
``par_i`` (checked before and after the edge: it is combinational). Widths 1 (the
one-bit branch) and 13 x 7, and the widths of an AES core's ports (392 x 132).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from aeskit.hw import PRIMITIVES

HERE = Path(__file__).resolve().parent


@cocotb.test()
async def shim_shifts_and_xors(dut) -> None:
    in_w, out_w = int(os.environ["AK_IN"]), int(os.environ["AK_OUT"])
    rng = random.Random(in_w * 1000 + out_w)
    model = 0
    dut.sclk_i.value = 0
    dut.sin_i.value = 0
    dut.par_i.value = 0
    await Timer(1, unit="ns")
    for cycle in range(4 * in_w + 20):
        bit = rng.getrandbits(1)
        word = rng.getrandbits(out_w)
        dut.sin_i.value = bit
        dut.par_i.value = word
        await Timer(1, unit="ns")
        assert int(dut.sout_o.value) == bin(word).count("1") % 2, f"cycle {cycle}: XOR"
        dut.sclk_i.value = 1
        await Timer(1, unit="ns")
        model = ((model << 1) | bit) & ((1 << in_w) - 1)
        # no reset: only the bits shifted in so far are known
        known = (1 << min(cycle + 1, in_w)) - 1
        assert int(dut.par_o.value) & known == model & known, f"cycle {cycle}: shift register"
        dut.sclk_i.value = 0
        await Timer(1, unit="ns")


@pytest.mark.parametrize("in_w,out_w", [(1, 1), (13, 7), (392, 132)])
def test_io_shim(in_w: int, out_w: int) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    prim = next(p for p in PRIMITIVES if p.top == "ak_io_shim")
    run_cocotb(toplevel="ak_io_shim", sources=prim.file_paths(), test_module="test_io_shim",
               test_dir=HERE, parameters={"InWidth": in_w, "OutWidth": out_w},
               extra_env={"AK_IN": in_w, "AK_OUT": out_w})
