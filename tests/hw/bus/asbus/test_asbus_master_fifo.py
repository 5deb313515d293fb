"""ak_asbus_master_fifo (the data buffer of ak_asbus_master) on Verilator.

Width 7 / Depth 2 and Width 33 / Depth 16, instances of one generated wrapper top
(one Verilator build), driven concurrently with random pushes and random multi-entry
pops within the module's contract (a push only while not full or with a pop in the
same cycle, a pop of at most ``count_o`` entries), in phases that keep the buffer
mostly empty, mostly full or in between. Every cycle against a Python queue:

* ``count_o`` = entries after the last edge, ``head_o`` = the oldest entry whenever
  one is held (every value random, so order, loss and duplication show);
* fall-through: an entry pushed into an empty buffer is at the head from the next
  cycle on, also when the same edge popped the last entry;
* a pop of several entries at once (the master's discard of a refused write) removes
  exactly that many, the next one at the head in the next cycle; a pop of all entries
  together with a push leaves just the pushed one;
* a push into a full buffer together with a pop keeps the count;
* after reset: count 0; a Depth that is not a power of two is refused at elaboration.

The bench checks that full, empty, multi-entry pops, flush-with-push and
push-while-full-with-pop all occurred. The file is both the pytest module and the
cocotb test module.
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
SOURCES = sources_of_module("ak_asbus_master_fifo")
#: (Width, Depth)
VARIANTS = [(7, 2), (33, 16)]


def _aw(depth: int) -> int:
    return depth.bit_length() - 1


def _ports(width: int, depth: int) -> list[tuple[str, str, int]]:
    return [("input", "push_i", 1), ("input", "data_i", width),
            ("input", "pop_i", _aw(depth) + 1), ("output", "count_o", _aw(depth) + 1),
            ("output", "head_o", width)]


def _prefix(v: tuple[int, int]) -> str:
    return f"b{v[1]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_asbus_master_fifo",
                         [Instance(_prefix(v), {"DataWidth": v[0], "Depth": v[1]}, _ports(*v))
                          for v in VARIANTS],
                         generator="tests/hw/bus/asbus/test_asbus_master_fifo.py")


async def _drive(dut, inst: Prefixed, v: tuple[int, int], cycles: int, seed: int) -> dict:
    width, depth = v
    rng = random.Random(seed)
    q: deque[int] = deque()
    stats = {"full": 0, "empty": 0, "multi_pop": 0, "flush_push": 0, "push_full_pop": 0,
             "fall_through": 0}
    p_push, p_pop = 0.5, 0.5
    fresh = False
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"Width={width} Depth={depth} cycle {cycle}"
        count = int(inst.count_o.value)
        assert count == len(q), f"{where}: count_o {count}, expected {len(q)}"
        if q:
            head = int(inst.head_o.value)
            assert head == q[0], f"{where}: head_o {head:#x}, expected {q[0]:#x}"
            stats["fall_through"] += fresh
        stats["full"] += len(q) == depth
        stats["empty"] += not q
        if cycle % 40 == 0:
            p_push, p_pop = rng.choice(((0.9, 0.3), (0.3, 0.9), (0.6, 0.6), (1.0, 1.0)))
        pop = 0
        if q and rng.random() < p_pop:
            pop = rng.randint(2, len(q)) if len(q) > 1 and rng.random() < 0.15 else 1
        push = rng.random() < p_push and (len(q) < depth or pop >= 1)
        data = rng.getrandbits(width)
        inst.push_i.value = int(push)
        inst.pop_i.value = pop
        inst.data_i.value = data
        stats["multi_pop"] += pop > 1
        stats["flush_push"] += push and bool(q) and pop == len(q)
        stats["push_full_pop"] += push and len(q) == depth
        fresh = push and len(q) == pop       # the pushed entry is the head next cycle
        for _ in range(pop):
            q.popleft()
        if push:
            q.append(data)
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.push_i.value = 0
        inst.pop_i.value = 0
        inst.data_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.count_o.value) == 0, "count_o not 0 after reset"
    dut.rst_ni.value = 1
    cycles = int(os.environ.get("AK_CYCLES", "5000"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, cycles, seed + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for v, task in zip(VARIANTS, tasks):
        stats = await task
        assert all(stats.values()), (v, stats)
        dut._log.info("Width=%d Depth=%d: %s", v[0], v[1], stats)


def test_asbus_master_fifo() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_asbus_master_fifo_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_asbus_master_fifo", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 5})


@pytest.mark.parametrize("depth", [1, 12])
def test_bad_depth_is_refused(depth: int) -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_asbus_master_fifo", SOURCES, {"Depth": depth})
    assert f"Depth={depth} not a power of two" in out, out
