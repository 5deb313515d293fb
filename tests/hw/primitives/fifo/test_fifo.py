"""ak_fifo (the one FIFO primitive) on Verilator.

Several (Width, Depth, GateEmpty) builds, instances of one generated wrapper top (one
Verilator build), driven concurrently with random push/pop/clear in phases that keep
the FIFO mostly empty, mostly full, or in between (random stalls on both sides).
Every cycle against a Python queue:

* ``valid_o`` exactly when an entry is held, ``full_o`` exactly at Depth entries,
  ``count_o`` = entries, ``data_o`` = the oldest entry (order kept, nothing lost or
  duplicated: every value random and checked when it leaves);
* one cycle from push to pop: an entry pushed at an edge is at the head after it;
* push and pop in the same cycle in every state, full included;
* ``pop_i`` while empty is ignored (alone, and with a push: the pushed entry stays);
* the bench never pushes into a full FIFO without a pop (ak_fifo stops the simulation
  with $error on that: a user's bug), but offers the push with a pop in that state;
* ``clr_i`` empties it (whatever push and pop do in that cycle);
* ``GateEmpty`` = 1: ``data_o`` is zero while empty;
* after reset: empty, count 0. Depth = 0 is refused at elaboration.
* ``RegRead`` = 1 (registered read into a head register, block RAM): the same, except
  that an entry is at the head two cycles after its push (``count_o`` and ``full_o``
  count it at once); full rate in and out. Hold together with RegRead is refused.
* ``Hold`` = 1: entries pushed with ``hold_i`` are stored (``count_o``, ``full_o``) but
  not visible (``valid_o``, ``data_o``, ``pop_i``) until ``release_i`` releases them all,
  or ``drop_i`` discards them all (the bench, like a user, holds only the youngest
  entries: once it holds, it holds every push until a release or drop); release and drop
  also on the edge of a push, with and without a pop. ``Hold`` = 0: ``hold_i``,
  ``release_i`` and ``drop_i`` are driven at random and must change nothing.

The bench checks that full, empty, push+pop while full, pop while empty and clear all
occurred for every build.

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
SOURCES = sources_of_module("ak_fifo")
#: (Width, Depth, GateEmpty, Hold, RegRead)
VARIANTS = [(5, 1, 1, 0, 0), (13, 3, 0, 0, 0), (135, 4, 1, 0, 0), (8, 16, 1, 0, 0),
            (129, 6, 0, 0, 0), (7, 5, 1, 1, 0), (128, 8, 1, 1, 0), (9, 2, 0, 1, 0),
            (6, 1, 1, 0, 1), (11, 2, 0, 0, 1), (135, 5, 1, 0, 1), (16, 19, 0, 0, 1)]


def _ports(w: int, depth: int) -> list[tuple[str, str, int]]:
    return [("input", "clr_i", 1), ("input", "push_i", 1), ("input", "data_i", w),
            ("input", "pop_i", 1), ("input", "hold_i", 1), ("input", "release_i", 1),
            ("input", "drop_i", 1), ("output", "valid_o", 1), ("output", "full_o", 1),
            ("output", "data_o", w), ("output", "count_o", depth.bit_length())]


def _prefix(v: tuple[int, int, int, int, int]) -> str:
    return f"w{v[0]}d{v[1]}h{v[3]}r{v[4]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_fifo",
                         [Instance(_prefix(v), {"Width": v[0], "Depth": v[1], "GateEmpty": v[2],
                                                   "Hold": v[3], "RegRead": v[4]},
                                   _ports(v[0], v[1]))
                          for v in VARIANTS],
                         generator="tests/hw/primitives/fifo/test_fifo.py")


async def _drive(dut, inst: Prefixed, v: tuple[int, int, int, int, int], cycles: int,
                 seed: int) -> dict:
    w, depth, gate, hold_built, reg_read = v
    rng = random.Random(seed)
    q: deque[int] = deque()
    qc: deque[int] = deque()  # the cycle of each entry's push
    rel = 0          # released entries: the oldest rel of q
    holding = False  # the bench holds every push until a release or drop
    stats = {"full": 0, "empty": 0, "push_pop_full": 0, "pop_empty": 0, "clear": 0, "out": 0}
    if hold_built:
        stats |= {"held": 0, "release": 0, "drop": 0, "release_push": 0, "drop_push": 0,
                  "held_invisible": 0}
    p_push = p_pop = 0.5
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"Width={w} Depth={depth} Hold={hold_built} RegRead={reg_read} cycle {cycle}"
        if reg_read:
            # the head: the oldest entry, two cycles after its push
            rel = int(bool(q) and cycle - qc[0] >= 2)
        valid, full, count = (int(inst.valid_o.value), int(inst.full_o.value),
                              int(inst.count_o.value))
        assert count == len(q), f"{where}: count_o {count}, expected {len(q)}"
        assert valid == int(rel > 0), f"{where}: valid_o {valid}"
        assert full == int(len(q) == depth), f"{where}: full_o {full}"
        got = int(inst.data_o.value)
        if rel:
            assert got == q[0], f"{where}: data_o {got:#x}, expected {q[0]:#x}"
        elif gate:
            assert got == 0, f"{where}: data_o {got:#x} while nothing released (GateEmpty)"
        stats["full"] += len(q) == depth
        stats["empty"] += not q
        if hold_built:
            stats["held_invisible"] += rel == 0 and len(q) > 0
        if cycle % 40 == 0:
            p_push, p_pop = rng.choice(((0.9, 0.3), (0.3, 0.9), (0.6, 0.6), (1.0, 1.0)))
        pop = rng.random() < p_pop
        push = rng.random() < p_push and (len(q) < depth or (pop and rel > 0))
        clr = rng.random() < 0.01
        data = rng.getrandbits(w)
        if hold_built:
            if not holding and rng.random() < 0.05:
                holding = True
            hold = holding
            release = holding and rng.random() < 0.08
            drop = holding and not release and rng.random() < 0.06
        else:
            # ignored by a plain FIFO: random
            hold, release, drop = (rng.random() < 0.5 for _ in range(3))
        inst.push_i.value = int(push)
        inst.pop_i.value = int(pop)
        inst.clr_i.value = int(clr)
        inst.data_i.value = data
        inst.hold_i.value = int(hold)
        inst.release_i.value = int(release)
        inst.drop_i.value = int(drop)
        if clr:
            stats["clear"] += 1
            q.clear()
            qc.clear()
            rel = 0
            holding = False
            continue
        stats["push_pop_full"] += push and pop and len(q) == depth
        stats["pop_empty"] += pop and not rel
        if pop and rel:
            q.popleft()
            qc.popleft()
            rel -= 1
            stats["out"] += 1
        if push:
            q.append(data)
            qc.append(cycle)
            if hold_built and hold:
                stats["held"] += 1
            else:
                rel += 1
        if hold_built and release:
            stats["release"] += 1
            stats["release_push"] += push
            rel = len(q)
            holding = False
        elif hold_built and drop:
            stats["drop"] += 1
            stats["drop_push"] += push
            while len(q) > rel:
                q.pop()
                qc.pop()
            holding = False
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.push_i.value = 0
        inst.pop_i.value = 0
        inst.clr_i.value = 0
        inst.hold_i.value = 0
        inst.release_i.value = 0
        inst.drop_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.valid_o.value) == 0 and int(inst.count_o.value) == 0
        assert int(inst.full_o.value) == 0
    dut.rst_ni.value = 1
    cycles = int(os.environ.get("AK_CYCLES", "5000"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, cycles, seed + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for v, task in zip(VARIANTS, tasks):
        stats = await task
        assert all(stats.values()), (v, stats)


def test_fifo() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_fifo_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_fifo", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 5})


def test_zero_depth_is_refused() -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_fifo", SOURCES, {"Depth": 0})
    assert "Depth must be >= 1" in out, out


def test_hold_with_reg_read_is_refused() -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_fifo", SOURCES, {"Hold": 1, "RegRead": 1})
    assert "Hold needs RegRead = 0" in out, out
