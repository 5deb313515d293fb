"""ak_dam_rpath (the read data path of ADAM and XDAM) on Verilator.

Three instances in one generated wrapper top (one Verilator build), driven
concurrently, each used the way its system uses it (random commands from
:func:`aeskit.asbus.pathbench.random_path_command`):

* W = 32 and W = 128 with ``PreScheduled = 1`` (ADAM): linear, block (random row
  pitch) and AES-state commands; a state command either encrypts (memory read in the
  ShiftRows schedule of Fig. 7, ciphertext out in natural order) or is bypassed
  (returned in ShiftRows order);
* W = 64 with ``PreScheduled = 0`` (XDAM): linear commands only; a 16-byte aligned
  command of whole states may encrypt (memory read in natural order).

``discard_i`` (XDAM's refused bursts) is mixed into all three, ``MW = 2``. The bench
plays the dispatcher (a command starts only when the path is idle or finishing, a
bypass command only when ``eng_busy_o`` is low, as ``ak_adam`` / ``ak_xdam`` do) and
the SRAM (random contents; a read at an edge shows its data in the next cycle, the
output holds until the next read, as ``ak_dam_mem``). ``wait_i`` is high in 30 % of
the cycles. Counting enabled cycles (those in which no waiting beat is held back),
checked every cycle against :func:`aeskit.asbus.model.beat_addresses` and
:class:`aeskit.model.AES`:

* ``re_o`` exactly when a command is active, the path enabled and the command not
  discarded; ``word_o`` reads, memory lane by memory lane, exactly the bytes of the
  beat the schedule gives; ``idle_o`` exactly when no command is active (a command
  started at an edge reads in the next cycle, no gap); ``finishing_o`` on the last
  read;
* returned beats, exactly in time: a bypassed (or discarded: zeros) beat is pending
  one enabled cycle after its read, an encrypted state's beat j ``8B + 13 + j``
  enabled cycles after the read of its last beat (one for the memory, then the
  engine's ``8B + 12 + j``; ``9B + 13 + j`` with ``PreScheduled = 0``);
  ``pending_o`` exactly then, ``valid_o`` = ``pending_o`` and not ``wait_i``,
  ``data_o`` and ``owner_o`` the beat's, held while it waits; every beat once, in
  command order;
* ``eng_busy_o`` exactly from the cycle that reads a cipher state's first beat through
  the last enabled cycle its ciphertext is pending; ``empty_o`` exactly when no
  command is active and nothing read is still on its way out;
* every kind of command, back-to-back start and stall occurred.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from aeskit.asbus.pathbench import (PathCommand, command_ports, path_aw, path_fields,
                                    random_path_command)
from aeskit.model import AES, expand_key
from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_dam_rpath")
MEM = 256
MW = 2
#: (W, PreScheduled)
VARIANTS = [(32, 1), (64, 0), (128, 1)]


def _ports(w: int) -> list[tuple[str, str, int]]:
    nb, aw = w // 8, path_aw(w, MEM)
    return [*command_ports(w, MEM, MW),
            ("output", "empty_o", 1),
            ("output", "re_o", 1), ("output", "word_o", nb * aw), ("input", "data_i", w),
            ("input", "wait_i", 1), ("output", "valid_o", 1), ("output", "pending_o", 1),
            ("output", "owner_o", MW), ("output", "data_o", w)]


def _prefix(v: tuple[int, int]) -> str:
    return f"r{v[0]}p{v[1]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(
        name, "ak_dam_rpath",
        [Instance(_prefix(v), {"DataWidth": v[0], "MemBytes": MEM, "IdWidth": MW, "PreScheduled": v[1]},
                  _ports(v[0])) for v in VARIANTS],
        generator="tests/hw/systems/dam/test_dam_rpath.py", public_ports_only=True)


# ----------------------------------------------------------------------------------
# commands and their reference
# ----------------------------------------------------------------------------------
def _new_cmd(rng: random.Random, v: tuple[int, int]) -> PathCommand:
    return random_path_command(rng, v[0], bool(v[1]), write=False, mem_bytes=MEM, mw=MW)


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
async def _drive(dut, inst: Prefixed, v: tuple[int, int], n_cmds: int, seed: int) -> dict:
    w, pre = v
    nb, per, aw = w // 8, 128 // w, path_aw(w, MEM)
    rng = random.Random(seed)
    key = rng.randbytes(16)
    aes = AES(key)
    inst.rk_i.value = int.from_bytes(b"".join(expand_key(key)), "little")
    mem = rng.randbytes(MEM)
    lat = 8 * per + 13 + (0 if pre else per)       # last read -> first ciphertext beat
    due: dict[int, tuple[int, int]] = {}           # enabled cycle -> (data, owner)
    inside: list[list[int]] = []                   # [first-read ecnt, last due ecnt]
    todo = [_new_cmd(rng, v) for _ in range(n_cmds)]
    cur: PathCommand | None = None
    rd = rng.getrandbits(w)                        # the SRAM's read data register
    stats = {"linear": 0, "block": 0, "state_bypass": 0, "cipher": 0, "discard": 0,
             "back_to_back": 0, "held_by_engine": 0, "held_beats": 0, "beats": 0}
    cycle = ecnt = 0
    last_due = -1
    while todo or cur is not None or any(k >= ecnt for k in due):
        await FallingEdge(dut.clk_i)
        cycle += 1
        where = f"W={w} pre={pre} cycle {cycle} (enabled {ecnt})"
        idle = cur is None
        assert int(inst.idle_o.value) == int(idle), f"{where}: idle_o"
        wait = rng.random() < 0.3
        inst.wait_i.value = int(wait)
        inst.data_i.value = rd
        await Timer(1, unit="ns")
        # the returned beat
        want = due.get(ecnt)
        pending = int(inst.pending_o.value)
        assert pending == int(want is not None), f"{where}: pending_o {pending}"
        assert int(inst.valid_o.value) == int(pending and not wait), f"{where}: valid_o"
        if want is not None:
            data, owner = want
            got = int(inst.data_o.value)
            assert got == data, f"{where}: data_o {got:#x}, expected {data:#x}"
            assert int(inst.owner_o.value) == owner, f"{where}: owner_o"
            if wait:
                stats["held_beats"] += 1
            else:
                stats["beats"] += 1
        en = not (want is not None and wait)
        issue = cur is not None and en
        assert int(inst.re_o.value) == int(issue and cur is not None and not cur.discard), (
            f"{where}: re_o")
        last = issue and cur is not None and cur.k == cur.n - 1
        assert int(inst.finishing_o.value) == int(last), f"{where}: finishing_o"
        busy = any(a < ecnt <= z for a, z in inside)
        if issue and cur is not None:
            beat = cur.lanes[cur.k]
            if not cur.discard:
                words = int(inst.word_o.value)
                reads = {((words >> (aw * m)) & ((1 << aw) - 1)) * nb + m for m in range(nb)}
                assert reads == set(beat), f"{where}: word_o reads {sorted(reads)}, " \
                                           f"expected {sorted(beat)}"
                rd = int.from_bytes(bytes(mem[((words >> (aw * m)) & ((1 << aw) - 1)) * nb + m]
                                          for m in range(nb)), "little")
            if cur.cipher:
                busy = True
                s, j = divmod(cur.k, per)
                if j == 0:
                    inside.append([ecnt, 1 << 60])
                if j == per - 1:
                    base = cur.addr + 16 * s
                    ct = aes.encrypt(mem[base:base + 16])
                    for jj in range(per):
                        due[ecnt + lat + jj] = (int.from_bytes(ct[jj * nb:(jj + 1) * nb],
                                                               "little"), cur.master)
                    inside[-1][1] = ecnt + lat + per - 1
            else:
                data = 0 if cur.discard else int.from_bytes(bytes(mem[a] for a in beat),
                                                           "little")
                assert ecnt + 1 not in due, f"{where}: bench error, two beats due at once"
                due[ecnt + 1] = (data, cur.master)
            last_due = max(due, default=last_due)
            cur.k += 1
            if cur.k == cur.n:
                cur = None
        assert int(inst.eng_busy_o.value) == int(busy), f"{where}: eng_busy_o, expected {busy}"
        # empty_o: no command active, no beat read in the last enabled cycle (the
        # memory stage), no state in the engine
        empty = idle and last_due < ecnt and not busy
        assert int(inst.empty_o.value) == int(empty), f"{where}: empty_o, expected {empty}"
        # dispatch the next command (at the edge of the last read or later)
        start = False
        if todo and cur is None and rng.random() < (0.8 if last else 0.5):
            if todo[0].cipher or not busy:
                start = True
                stats["back_to_back"] += last
            else:
                stats["held_by_engine"] += 1
        if start:
            nxt = todo.pop(0)
            for name, val in path_fields(w, nxt).items():
                getattr(inst, name).value = val
            inst.cipher_i.value = int(nxt.cipher)
            inst.discard_i.value = int(nxt.discard)
            inst.master_i.value = nxt.master
            stats[nxt.kind] += 1
            cur = nxt
        else:
            for name, width in (("mode_i", 2), ("word_i", aw), ("count_i", 11),
                                ("height_i", 7), ("width_i", 5), ("pitch_i", aw),
                                ("cipher_i", 1), ("discard_i", 1), ("master_i", MW)):
                getattr(inst, name).value = rng.getrandbits(width)
        inst.start_i.value = int(start)
        ecnt += en
        assert cycle < 300 * n_cmds + 1000, f"{where}: no progress"
    inst.start_i.value = 0
    inst.wait_i.value = 0
    for _ in range(3):
        await FallingEdge(dut.clk_i)
        assert int(inst.pending_o.value) == 0, f"W={w} pre={pre}: a beat more than expected"
        assert int(inst.eng_busy_o.value) == 0, f"W={w} pre={pre}: eng_busy_o after the end"
        assert int(inst.empty_o.value) == 1, f"W={w} pre={pre}: empty_o low after the end"
    return stats


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.start_i.value = 0
        inst.wait_i.value = 0
        inst.rk_i.value = 0
        inst.data_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.idle_o.value) == 1 and int(inst.eng_busy_o.value) == 0
        assert int(inst.pending_o.value) == 0 and int(inst.empty_o.value) == 1
    dut.rst_ni.value = 1
    n = int(os.environ.get("AK_CMDS", "160"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, n, seed * 10 + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for v, task in zip(VARIANTS, tasks):
        stats = await task
        kinds = ["linear", "cipher", "discard", "back_to_back", "held_by_engine",
                 "held_beats", "beats"]
        if v[1]:
            kinds += ["block", "state_bypass"]
        assert all(stats[k] for k in kinds), (v, stats)
        dut._log.info("W=%d PreScheduled=%d: %s", v[0], v[1], stats)


@pytest.mark.slow  # paper 000's DAM data path alone; make test runs the DAM with the AES engine
def test_dam_rpath() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_dam_rpath_tb"
    vlt, sv = _wrapper(name)
    run_cocotb(toplevel=name, sources=[vlt, *SOURCES, sv], test_module="test_dam_rpath",
               test_dir=HERE, parameters={},
               build_args=("--no-public-flat-rw", "-CFLAGS", "-O0"), extra_env={"AK_SEED": 3})
