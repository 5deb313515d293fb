"""ak_xdam_fifo (XDAM's small register FIFO) on Verilator.

Depth 2 (DW = 5) and Depth 8 (DW = 13), instances of one generated wrapper top (one
Verilator build), driven concurrently with random push/pop in phases that keep the
FIFO mostly empty, mostly full, or in between. Every cycle against a Python queue:

* ``valid_o`` exactly when an entry is held, ``count_o`` = entries, ``data_o`` = the
  oldest entry (order kept, nothing lost or duplicated: every value random and
  checked when it leaves);
* latency 1: an entry pushed at an edge is visible at the head in the next cycle;
* push and pop in the same cycle, including when full (the header's "allowed, not
  when empty"): the count stays, the order holds;
* a pop while empty is ignored (alone, and with a push in the same cycle: the pushed
  entry stays);
* a push into a full FIFO without a pop is ignored (the header's overflow guard):
  count, order and data unchanged; the bench checks that this case, full and empty
  all occurred;
* after reset: empty, count 0; Depth = 1 or 3 is refused at elaboration.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_xdam_fifo")
#: (DW, Depth)
VARIANTS = [(5, 2), (13, 8)]


def _ports(dw: int, depth: int) -> list[tuple[str, str, int]]:
    return [("input", "push_i", 1), ("input", "data_i", dw), ("input", "pop_i", 1),
            ("output", "valid_o", 1), ("output", "data_o", dw),
            ("output", "count_o", depth.bit_length())]


def _prefix(v: tuple[int, int]) -> str:
    return f"f{v[1]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_xdam_fifo",
                         [Instance(_prefix(v), {"DataWidth": v[0], "Depth": v[1]}, _ports(*v))
                          for v in VARIANTS],
                         generator="tests/hw/systems/xdam/test_xdam_fifo.py")


async def _drive(dut, inst: Prefixed, v: tuple[int, int], cycles: int, seed: int) -> dict:
    dw, depth = v
    rng = random.Random(seed)
    q: deque[int] = deque()
    stats = {"full": 0, "empty": 0, "push_pop_full": 0, "pop_empty": 0, "push_pop_empty": 0,
             "push_full": 0, "out": 0}
    p_push = p_pop = 0.5
    sent = 0
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"DW={dw} Depth={depth} cycle {cycle}"
        valid, count = int(inst.valid_o.value), int(inst.count_o.value)
        assert count == len(q), f"{where}: count_o {count}, expected {len(q)}"
        assert valid == int(bool(q)), f"{where}: valid_o {valid}"
        if q:
            got = int(inst.data_o.value)
            assert got == q[0], f"{where}: data_o {got:#x}, expected {q[0]:#x}"
        stats["full"] += len(q) == depth
        stats["empty"] += not q
        if cycle % 50 == 0:
            p_push, p_pop = rng.choice(((0.9, 0.3), (0.3, 0.9), (0.6, 0.6), (1.0, 1.0)))
        pop = rng.random() < p_pop
        push = rng.random() < p_push
        data = sent & ((1 << dw) - 1) if rng.random() < 0.5 else rng.getrandbits(dw)
        inst.push_i.value = int(push)
        inst.pop_i.value = int(pop)
        inst.data_i.value = data
        stats["push_pop_full"] += push and pop and len(q) == depth
        stats["pop_empty"] += pop and not q
        stats["push_pop_empty"] += push and pop and not q
        ignored = push and not pop and len(q) == depth
        stats["push_full"] += ignored
        if pop and q:
            q.popleft()
            stats["out"] += 1
        if push and not ignored:
            q.append(data)
            sent += 1
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.push_i.value = 0
        inst.pop_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.valid_o.value) == 0 and int(inst.count_o.value) == 0
    dut.rst_ni.value = 1
    cycles = int(os.environ.get("AK_CYCLES", "4000"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, cycles, seed + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for v, task in zip(VARIANTS, tasks):
        stats = await task
        assert all(stats.values()), (v, stats)


def test_xdam_fifo() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_xdam_fifo_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_xdam_fifo", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 9})


@pytest.mark.parametrize("depth", [1, 3])
def test_bad_depth_is_refused(depth: int) -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_xdam_fifo", SOURCES, {"Depth": depth})
    assert f"Depth={depth} not a power of two" in out, out
