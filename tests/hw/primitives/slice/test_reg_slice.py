"""ak_reg_slice (the one register slice) on Verilator.

Two widths, instances of one generated wrapper top, driven with random valid on the
input and random ready on the output (phases of mostly stalled, mostly free, both at
full rate), against a Python model of the stream:

* every beat offered and taken (valid_i && ready_o) comes out once, in order, with its
  data (random values, checked as they leave): nothing dropped or duplicated;
* ready_o is low only while a beat waits in the skid register (it holds exactly two
  beats then), and valid_o is high exactly while a beat is held;
* one cycle of latency: a beat taken at an edge is on the output after it;
* full rate: with valid_i and ready_i high every cycle a beat passes every cycle (the
  bench sees at least 50 such cycles in a row, in the phases driving both at 100 %);
* after reset: valid_o 0, ready_o 1.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw.manifest import sources_of_module
from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_reg_slice")
WIDTHS = [1, 133]


def _ports(w: int) -> list[tuple[str, str, int]]:
    return [("input", "valid_i", 1), ("output", "ready_o", 1), ("input", "data_i", w),
            ("output", "valid_o", 1), ("input", "ready_i", 1), ("output", "data_o", w)]


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_reg_slice",
                         [Instance(f"w{w}_", {"Width": w}, _ports(w)) for w in WIDTHS],
                         generator="tests/hw/primitives/slice/test_reg_slice.py")


async def _drive(dut, inst: Prefixed, w: int, cycles: int, seed: int) -> dict:
    rng = random.Random(seed)
    held: deque[int] = deque()          # beats inside the slice, oldest first
    stats = {"stall_in": 0, "full_rate": 0, "moved": 0}
    p_valid = p_ready = 0.5
    run = 0
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"Width={w} cycle {cycle}"
        valid_o, ready_o = int(inst.valid_o.value), int(inst.ready_o.value)
        assert valid_o == int(bool(held)), f"{where}: valid_o {valid_o}, {len(held)} held"
        assert ready_o == int(len(held) < 2), f"{where}: ready_o {ready_o}, {len(held)} held"
        if held:
            got = int(inst.data_o.value)
            assert got == held[0], f"{where}: data_o {got:#x}, expected {held[0]:#x}"
        if cycle % 60 == 0:
            p_valid, p_ready = rng.choice(((0.9, 0.2), (0.3, 0.9), (0.6, 0.6), (1.0, 1.0)))
        valid = rng.random() < p_valid
        ready = rng.random() < p_ready
        data = rng.getrandbits(w)
        inst.valid_i.value = int(valid)
        inst.ready_i.value = int(ready)
        inst.data_i.value = data
        stats["stall_in"] += valid and not ready_o
        out = bool(held) and ready
        take = valid and ready_o
        run = run + 1 if (out and take) else 0
        stats["full_rate"] = max(stats["full_rate"], run)
        if out:
            held.popleft()
            stats["moved"] += 1
        if take:
            held.append(data)
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, f"w{w}_") for w in WIDTHS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.valid_i.value = 0
        inst.ready_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.valid_o.value) == 0 and int(inst.ready_o.value) == 1
    dut.rst_ni.value = 1
    cycles = int(os.environ.get("AK_CYCLES", "6000"))
    tasks = [cocotb.start_soon(_drive(dut, inst, w, cycles, 11 + i))
             for i, (w, inst) in enumerate(zip(WIDTHS, insts))]
    for w, task in zip(WIDTHS, tasks):
        stats = await task
        assert stats["stall_in"] and stats["moved"], (w, stats)
        assert stats["full_rate"] >= 50, (w, stats)


def test_reg_slice() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_reg_slice_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_reg_slice", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"))
