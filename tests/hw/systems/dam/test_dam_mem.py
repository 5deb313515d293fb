"""ak_dam_mem (the byte-lane banked SRAM of ADAM/XDAM) on Verilator.

At W = 32, 64 and 128 (MemBytes = 256, the paper's; the three are instances of one
generated wrapper top, one Verilator build, driven concurrently), every cycle a random
write (random byte enables ``we_i``, a random word address per lane, random data) and
a random read (``re_i`` random, a random word address per lane; often the word being
written in the same cycle) are checked against a Python byte array:

* write at the clock edge, only the enabled lanes, each lane at its own address (lane
  m holds the bytes whose address mod W/8 is m);
* read registered: the data of ``rd_word_i`` sampled at the edge of ``re_i`` is on
  ``rd_data_o`` the cycle after and held while ``re_i`` is low;
* full duplex: a read and a write in the same cycle both happen; a read of the very
  byte written at the same edge returns the old contents (the read samples the array
  at the edge the write lands; the RTL header does not say more than "write at the
  clock edge, read registered");
* after reset ``rd_data_o`` is 0 (the read register is reset; the storage is not:
  bytes never written are not checked).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_dam_mem")
MEM = 256
WIDTHS = (32, 64, 128)


def _aw(w: int) -> int:
    return (MEM // (w // 8)).bit_length() - 1


def _ports(w: int) -> list[tuple[str, str, int]]:
    nb = w // 8
    return [("input", "we_i", nb), ("input", "wr_word_i", nb * _aw(w)),
            ("input", "wr_data_i", w), ("input", "re_i", 1),
            ("input", "rd_word_i", nb * _aw(w)), ("output", "rd_data_o", w)]


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_dam_mem",
                         [Instance(f"m{w}_", {"DataWidth": w, "MemBytes": MEM}, _ports(w))
                          for w in WIDTHS],
                         generator="tests/hw/systems/dam/test_dam_mem.py")


async def _drive(dut, inst: Prefixed, w: int, cycles: int, seed: int) -> dict:
    nb, aw = w // 8, _aw(w)
    depth = 1 << aw
    rng = random.Random(seed)
    mem: list[int | None] = [None] * MEM        # byte address -> value
    expect: list[int | None] = [0] * nb         # rd_data_o per lane (None: never written)
    stats = {"reads": 0, "same_cycle_same_byte": 0, "checked_bytes": 0}
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        got = int(inst.rd_data_o.value)
        for m in range(nb):
            if expect[m] is not None:
                g = (got >> (8 * m)) & 0xFF
                assert g == expect[m], (f"W={w} cycle {cycle}: rd_data_o lane {m} {g:#04x}, "
                                        f"expected {expect[m]:#04x}")
                stats["checked_bytes"] += 1
        we = rng.getrandbits(nb) if rng.random() < 0.7 else 0
        wwords = [rng.randrange(depth) for _ in range(nb)]
        wdata = rng.getrandbits(w)
        re = rng.random() < 0.6
        rwords = [wwords[m] if rng.random() < 0.3 else rng.randrange(depth) for m in range(nb)]
        inst.we_i.value = we
        inst.wr_word_i.value = sum(a << (aw * m) for m, a in enumerate(wwords))
        inst.wr_data_i.value = wdata
        inst.re_i.value = int(re)
        inst.rd_word_i.value = sum(a << (aw * m) for m, a in enumerate(rwords))
        # the edge: the read samples the old contents, then the write lands
        if re:
            stats["reads"] += 1
            for m in range(nb):
                expect[m] = mem[rwords[m] * nb + m]
                if (we >> m) & 1 and rwords[m] == wwords[m]:
                    stats["same_cycle_same_byte"] += 1
        for m in range(nb):
            if (we >> m) & 1:
                mem[wwords[m] * nb + m] = (wdata >> (8 * m)) & 0xFF
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, f"m{w}_") for w in WIDTHS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.we_i.value = 0
        inst.re_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.rd_data_o.value) == 0, "rd_data_o not 0 after reset"
    dut.rst_ni.value = 1
    cycles = int(os.environ.get("AK_CYCLES", "3000"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, w, cycles, seed + w))
             for w, inst in zip(WIDTHS, insts)]
    for w, task in zip(WIDTHS, tasks):
        stats = await task
        assert stats["same_cycle_same_byte"] > 50 and stats["checked_bytes"] > cycles, (w, stats)


def test_dam_mem() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_dam_mem_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_dam_mem", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 11})
