"""ak_dam_wpath (the write data path of ADAM and XDAM) on Verilator.

Three instances in one generated wrapper top (one Verilator build), driven
concurrently, each used the way its system uses it (random commands from
:func:`aeskit.asbus.pathbench.random_path_command`):

* W = 32 and W = 128 with ``PreScheduled = 1`` (ADAM): linear, block (random row
  pitch, rows may overlap) and AES-state commands; a state command either decrypts
  (ciphertext in the InvShiftRows write schedule of Fig. 7) or is bypassed;
* W = 64 with ``PreScheduled = 0`` (XDAM): linear commands only (XDAM passes
  ``mode_i = 0``); a 16-byte aligned command of whole states may decrypt (ciphertext
  in natural order).

``discard_i`` (XDAM's refused bursts) is mixed into all three, ``MW = 2``
(four masters). The bench plays the dispatcher: it starts a command only when the
path is idle or finishing (back to back, in the cycle of the last beat, most of the
time) and a bypass command only when ``eng_busy_o`` is low, as ``ak_adam`` and
``ak_xdam`` do. ``wait_i`` is high in 30 % of the cycles; between commands, and in
every input the path must ignore, the bench drives random garbage. Checked every
cycle, against :func:`aeskit.asbus.model.beat_addresses` and :class:`aeskit.model.AES`:

* ``take_o`` = a command active and ``wait_i`` low; ``idle_o`` exactly when no command
  is active (so a command started at an edge takes its first beat in the next cycle,
  no gap); ``finishing_o`` exactly on the last beat; ``owner_o`` = the command's
  master;
* memory writes, exactly: a bypassed beat writes in the cycle that takes it, each bus
  lane with its ``vld_i`` bit to the byte the schedule gives (write enables, word
  addresses and data of every memory lane); a decrypted state writes its plaintext
  in natural order, beat j exactly ``8B + 12 + j`` cycles (``9B + 12 + j`` with
  ``PreScheduled = 0``) after the cycle of the state's last beat (the engine's
  documented latency; 47 / 29 / 20 and 51 / 31 / 21 from the first beat at full
  rate); a discarded command writes nothing; no write in any other cycle;
* ``eng_busy_o`` exactly while a state is in the engine: from the cycle that takes its
  first beat through the cycle of its last memory write;
* at the end both memories (the one the RTL wrote and the reference) are equal, and
  every kind of command, back-to-back start and stall occurred.

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
SOURCES = sources_of_module("ak_dam_wpath")
MEM = 256
MW = 2
#: (W, PreScheduled)
VARIANTS = [(32, 1), (64, 0), (128, 1)]


def _ports(w: int) -> list[tuple[str, str, int]]:
    nb, aw = w // 8, path_aw(w, MEM)
    return [*command_ports(w, MEM, MW),
            ("input", "wait_i", 1), ("output", "owner_o", MW), ("output", "take_o", 1),
            ("input", "data_i", w), ("input", "vld_i", nb),
            ("output", "we_o", nb), ("output", "word_o", nb * aw), ("output", "data_o", w)]


def _prefix(v: tuple[int, int]) -> str:
    return f"w{v[0]}p{v[1]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(
        name, "ak_dam_wpath",
        [Instance(_prefix(v), {"DataWidth": v[0], "MemBytes": MEM, "IdWidth": MW, "PreScheduled": v[1]},
                  _ports(v[0])) for v in VARIANTS],
        generator="tests/hw/systems/dam/test_dam_wpath.py", public_ports_only=True)


# ----------------------------------------------------------------------------------
# commands and their reference
# ----------------------------------------------------------------------------------
def _new_cmd(rng: random.Random, v: tuple[int, int]) -> PathCommand:
    return random_path_command(rng, v[0], bool(v[1]), write=True, mem_bytes=MEM, mw=MW)


def _state_ct(v: tuple[int, int], cmd: PathCommand, s: int) -> bytes:
    """The ciphertext of state s of a decrypting command, from its bus beats."""
    w, pre = v
    nb, per = w // 8, 128 // w
    base = cmd.addr + 16 * s
    ct = [0] * 16
    for j in range(per):
        beat = cmd.beats[s * per + j]
        for b in range(nb):
            pos = (cmd.lanes[s * per + j][b] - base) if pre else j * nb + b
            ct[pos] = (beat >> (8 * b)) & 0xFF
    return bytes(ct)


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
    lat = 8 * per + 12 + (0 if pre else per)       # last beat -> first memory write
    rtl: list[int | None] = [None] * MEM            # what the RTL wrote
    due: dict[int, tuple[int, list[int]]] = {}      # cycle -> (byte address, bytes)
    inside: list[list[int]] = []                    # [first-beat cycle, last-write cycle]
    todo = [_new_cmd(rng, v) for _ in range(n_cmds)]
    cur: PathCommand | None = None
    stats = {"linear": 0, "block": 0, "state_bypass": 0, "cipher": 0, "discard": 0,
             "back_to_back": 0, "held_by_engine": 0, "wait_in_cipher": 0, "writes": 0}
    cycle = 0
    while todo or cur is not None or due:
        await FallingEdge(dut.clk_i)
        cycle += 1
        where = f"W={w} pre={pre} cycle {cycle}"
        assert int(inst.idle_o.value) == int(cur is None), f"{where}: idle_o"
        if cur is not None:
            assert int(inst.owner_o.value) == cur.master, f"{where}: owner_o"
        wait = rng.random() < 0.3
        inst.wait_i.value = int(wait)
        if cur is not None:
            inst.data_i.value = cur.beats[cur.k]
            inst.vld_i.value = cur.vld[cur.k]
        else:
            inst.data_i.value = rng.getrandbits(w)
            inst.vld_i.value = rng.getrandbits(nb)
        await Timer(1, unit="ns")
        take = cur is not None and not wait
        assert int(inst.take_o.value) == int(take), f"{where}: take_o"
        last = take and cur is not None and cur.k == len(cur.beats) - 1
        assert int(inst.finishing_o.value) == int(last), f"{where}: finishing_o"
        # the writes expected in this cycle
        expect: dict[int, int] = {}
        if cycle in due:
            base, data = due.pop(cycle)
            expect = {base + i: b for i, b in enumerate(data)}
        if take and cur is not None and not cur.cipher and not cur.discard:
            assert not expect, f"{where}: bench error, a bypass beat meets an engine write"
            for b in range(nb):
                if (cur.vld[cur.k] >> b) & 1:
                    expect[cur.lanes[cur.k][b]] = (cur.beats[cur.k] >> (8 * b)) & 0xFF
        we, words, data = (int(inst.we_o.value), int(inst.word_o.value),
                           int(inst.data_o.value))
        got = {((words >> (aw * m)) & ((1 << aw) - 1)) * nb + m: (data >> (8 * m)) & 0xFF
               for m in range(nb) if (we >> m) & 1}
        assert got == expect, f"{where}: memory writes {got}, expected {expect}"
        for a, b in got.items():
            rtl[a] = b
        stats["writes"] += len(got)
        # the engine's occupancy (before this cycle's take)
        busy = any(a <= cycle <= z for a, z in inside)
        if take and cur is not None and cur.cipher:
            busy = True
            s, j = divmod(cur.k, per)
            if j == 0:
                inside.append([cycle, 1 << 60])
            if wait:
                stats["wait_in_cipher"] += 1
            if j == per - 1:
                pt = aes.decrypt(_state_ct(v, cur, s))
                for jj in range(per):
                    assert cycle + lat + jj not in due, f"{where}: bench error, two writes"
                    due[cycle + lat + jj] = (cur.addr + 16 * s + jj * nb,
                                             list(pt[jj * nb:(jj + 1) * nb]))
                inside[-1][1] = cycle + lat + per - 1
        elif cur is not None and cur.cipher and wait:
            stats["wait_in_cipher"] += 1
        assert int(inst.eng_busy_o.value) == int(busy), f"{where}: eng_busy_o, expected {busy}"
        if take and cur is not None:
            cur.k += 1
            if cur.k == len(cur.beats):
                cur = None
        # dispatch the next command (at the edge of the last beat or later)
        start = False
        if todo and cur is None and rng.random() < (0.8 if last else 0.5):
            nxt = todo[0]
            if nxt.cipher or not busy:
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
            # garbage the path must ignore
            for name, width in (("mode_i", 2), ("word_i", aw), ("count_i", 11),
                                ("height_i", 7), ("width_i", 5), ("pitch_i", aw),
                                ("cipher_i", 1), ("discard_i", 1), ("master_i", MW)):
                getattr(inst, name).value = rng.getrandbits(width)
        inst.start_i.value = int(start)
        assert cycle < 200 * n_cmds + 1000, f"{where}: no progress"
    # drained: nothing more is written, the engine is empty
    inst.start_i.value = 0
    for _ in range(3):
        await FallingEdge(dut.clk_i)
        assert int(inst.we_o.value) == 0, f"W={w} pre={pre}: a write more than expected"
        assert int(inst.eng_busy_o.value) == 0, f"W={w} pre={pre}: eng_busy_o after the end"
    return stats | {"_rtl": rtl}


def _reference_memory(v: tuple[int, int], cmds: list[PathCommand], key: bytes) -> list[int | None]:
    """Memory after the commands, applied in order (what the bench must end with)."""
    w, pre = v
    nb, per = w // 8, 128 // w
    mem: list[int | None] = [None] * MEM
    aes = AES(key)
    for cmd in cmds:
        if cmd.discard:
            continue
        if cmd.cipher:
            for s in range(len(cmd.beats) // per):
                pt = aes.decrypt(_state_ct(v, cmd, s))
                mem[cmd.addr + 16 * s: cmd.addr + 16 * s + 16] = list(pt)
            continue
        for i, beat in enumerate(cmd.beats):
            for b in range(nb):
                if (cmd.vld[i] >> b) & 1:
                    mem[cmd.lanes[i][b]] = (beat >> (8 * b)) & 0xFF
    return mem


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.start_i.value = 0
        inst.wait_i.value = 0
        inst.rk_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.idle_o.value) == 1 and int(inst.eng_busy_o.value) == 0
        assert int(inst.we_o.value) == 0
    dut.rst_ni.value = 1
    n = int(os.environ.get("AK_CMDS", "160"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, n, seed * 10 + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for i, (v, task) in enumerate(zip(VARIANTS, tasks)):
        stats = await task
        # the same commands again, from the same seed, into the reference memory
        rng = random.Random(seed * 10 + i)
        key = rng.randbytes(16)
        cmds = [_new_cmd(rng, v) for _ in range(n)]
        assert stats.pop("_rtl") == _reference_memory(v, cmds, key), f"{v}: final memory"
        kinds = ["linear", "cipher", "discard", "back_to_back", "held_by_engine",
                 "wait_in_cipher", "writes"]
        if v[1]:
            kinds += ["block", "state_bypass"]
        assert all(stats[k] for k in kinds), (v, stats)
        dut._log.info("W=%d PreScheduled=%d: %s", v[0], v[1], stats)


@pytest.mark.slow  # paper 000's DAM data path alone; make test runs the DAM with the AES engine
def test_dam_wpath() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_dam_wpath_tb"
    vlt, sv = _wrapper(name)
    run_cocotb(toplevel=name, sources=[vlt, *SOURCES, sv], test_module="test_dam_wpath",
               test_dir=HERE, parameters={},
               build_args=("--no-public-flat-rw", "-CFLAGS", "-O0"), extra_env={"AK_SEED": 3})
