"""ak_asbus_addrgen (the ASBUS slave's per-beat address generator) on Verilator.

At W = 32, 64 and 128, for the write (``Read = 0``) and the read (``Read = 1``)
schedule, random commands (linear, block with random row pitch, AES states; random
word addresses and lengths, and each mode at its maximum, the LEN field 0) are loaded
with ``start_i`` and stepped with a random ``adv_i`` (stalls). Every cycle the bench
compares the outputs with :func:`aeskit.asbus.model.beat_addresses` (the reference:
the memory byte address of every bus lane of every beat, Fig. 7 schedule in state
mode, rows at ADDR + i*PITCH in block mode):

* ``bus2mem_o[b]`` = the memory lane (address mod W/8) of bus lane b's byte and
  ``lane_word_o[m]`` = the word address (address div W/8) of the byte memory lane m
  holds in that beat (so every memory lane is used exactly once per beat);
* ``active_o`` from the edge that took ``start_i`` until the edge that stepped the
  last beat, ``last_o`` exactly on the last beat, ``mode_o`` = the command's mode,
  and in state mode ``beat_o`` = the beat within the state and ``state_word_o`` = the
  word address of the state;
* ``adv_i`` low holds the beat; ``adv_i`` while idle does nothing;
* back to back: a command loaded with ``start_i`` in the cycle of the previous
  command's last beat (with ``adv_i``) presents its first beat in the next cycle (no
  gap), and a command loaded while idle presents its first beat the cycle after;
* after reset ``active_o`` is low.

All six (W, Read) parameter sets are instances of one generated wrapper top (one
Verilator build), driven concurrently. The word-address width AW is 12 (4096 words),
so every maximum-length command fits.

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
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, beat_addresses,
                                decode_len, encode_len)
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_asbus_addrgen")
AW = 12
#: (W, Read)
VARIANTS = [(w, r) for w in (32, 64, 128) for r in (0, 1)]


# ----------------------------------------------------------------------------------
# generated wrapper: one instance per parameter set in one build
# ----------------------------------------------------------------------------------
def _ports(w: int) -> list[tuple[str, str, int]]:
    nb = w // 8
    lw = nb.bit_length() - 1
    return [("input", "start_i", 1), ("input", "mode_i", 2), ("input", "word_i", AW),
            ("input", "count_i", 11), ("input", "height_i", 7), ("input", "width_i", 5),
            ("input", "pitch_i", AW), ("input", "adv_i", 1),
            ("output", "active_o", 1), ("output", "last_o", 1), ("output", "mode_o", 2),
            ("output", "state_word_o", AW), ("output", "beat_o", 2),
            ("output", "lane_word_o", nb * AW), ("output", "bus2mem_o", nb * lw)]


def _prefix(v: tuple[int, int]) -> str:
    return f"a{v[0]}{'r' if v[1] else 'w'}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_asbus_addrgen",
                         [Instance(_prefix(v), {"DataWidth": v[0], "AddrWidth": AW, "Read": v[1]},
                                   _ports(v[0])) for v in VARIANTS],
                         generator="tests/hw/bus/asbus/test_asbus_addrgen.py")


class Cmd:
    """A command: byte address, LEN, row pitch in bytes; its beats from the model."""

    def __init__(self, w: int, read: bool, addr: int, len12: int, pitch: int = 0) -> None:
        self.w, self.addr, self.len12, self.pitch = w, addr, len12, pitch
        self.mode = len12 >> 10
        self.beats = beat_addresses(w, addr, len12, pitch=pitch, read=read)

    def fits(self) -> bool:
        return max(max(b) for b in self.beats) < (1 << AW) * (self.w // 8)


def _random_cmd(rng: random.Random, w: int, read: bool) -> Cmd:
    nb = w // 8
    words = 1 << AW
    while True:
        mode = rng.choice((MODE_LINEAR, MODE_BLOCK, MODE_STATE))
        big = rng.random() < 0.1
        pitch = 0
        if mode == MODE_LINEAR:
            len12 = encode_len(mode, rng.randint(1, 64 if big else 9))
            addr = rng.randrange(words) * nb
        elif mode == MODE_BLOCK:
            rows, wds = (rng.randint(1, 64), rng.randint(1, 16)) if big else \
                (rng.randint(1, 6), rng.randint(1, 5))
            len12 = encode_len(mode, rows=rows, words=wds)
            pitch = rng.randrange(0, 80) * nb
            addr = rng.randrange(words) * nb
        else:
            len12 = encode_len(mode, rng.randint(1, 16 if big else 4))
            addr = rng.randrange(words * nb // 16) * 16
        cmd = Cmd(w, read, addr, len12, pitch)
        if cmd.fits():
            return cmd


def _max_cmds(w: int, read: bool) -> list[Cmd]:
    """Each mode at its maximum (LEN field 0): 1024 beats, 64 x 16 words, 1024 states."""
    nb = w // 8
    return [Cmd(w, read, 0, encode_len(MODE_LINEAR, 1024)),
            Cmd(w, read, nb, encode_len(MODE_BLOCK, rows=64, words=16), pitch=16 * nb),
            Cmd(w, read, 0, encode_len(MODE_STATE, 1024))]


def _expect(cmd: Cmd, i: int, nb: int) -> dict[str, object]:
    """The outputs of beat i of cmd, from the model's byte addresses."""
    lanes = cmd.beats[i]
    lw = nb.bit_length() - 1
    bus2mem = [a % nb for a in lanes]
    lane_word: list[int | None] = [None] * nb
    for a in lanes:
        assert lane_word[a % nb] is None, "model: a memory lane twice in one beat"
        lane_word[a % nb] = (a // nb) % (1 << AW)
    exp: dict[str, object] = {
        "bus2mem_o": sum(m << (lw * b) for b, m in enumerate(bus2mem)),
        "lane_word_o": sum(wd << (AW * m) for m, wd in enumerate(lane_word)),  # type: ignore
        "mode_o": cmd.mode,
        "last_o": int(i == len(cmd.beats) - 1),
    }
    if cmd.mode == MODE_STATE:
        per = 128 // cmd.w
        k, j = divmod(i, per)
        exp["beat_o"] = j
        exp["state_word_o"] = ((cmd.addr + 16 * k) // nb) % (1 << AW)
    return exp


def _load(inst: Prefixed, cmd: Cmd, nb: int) -> None:
    mode, count, rows, words = decode_len(cmd.len12)
    inst.start_i.value = 1
    inst.mode_i.value = mode
    inst.word_i.value = cmd.addr // nb
    inst.count_i.value = count
    inst.height_i.value = rows
    inst.width_i.value = words
    inst.pitch_i.value = cmd.pitch // nb


def _garbage(inst: Prefixed, rng: random.Random) -> None:
    """start_i low: the command inputs must be ignored."""
    inst.start_i.value = 0
    inst.mode_i.value = rng.getrandbits(2)
    inst.word_i.value = rng.getrandbits(AW)
    inst.count_i.value = rng.getrandbits(11)
    inst.height_i.value = rng.getrandbits(7)
    inst.width_i.value = rng.getrandbits(5)
    inst.pitch_i.value = rng.getrandbits(AW)


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
async def _drive(dut, inst: Prefixed, v: tuple[int, int], cmds: list[Cmd], p_adv: float,
                 p_b2b: float, seed: int) -> int:
    """Run ``cmds`` through one instance, one loop turn per cycle; return the beats
    checked. ``p_b2b``: probability of loading the next command with the last beat."""
    w, read = v
    nb = w // 8
    rng = random.Random(seed)
    cur: Cmd | None = None      # the command whose beat is shown now
    beat = 0
    todo = list(cmds)
    checked = 0
    cycle = 0
    while todo or cur is not None:
        await FallingEdge(dut.clk_i)
        cycle += 1
        where = f"W={w} Read={read} cycle {cycle}"
        active = int(inst.active_o.value)
        assert active == int(cur is not None), f"{where}: active_o {active}"
        adv = rng.random() < p_adv
        start = False
        if cur is not None:
            exp = _expect(cur, beat, nb)
            for name, val in exp.items():
                got = int(getattr(inst, name).value)
                assert got == val, (f"{where}: {cur.mode=} addr={cur.addr:#x} "
                                    f"len={cur.len12:#05x} pitch={cur.pitch} beat {beat}: "
                                    f"{name} {got:#x}, expected {val:#x}")
            checked += 1
            last = bool(exp["last_o"])
            if adv:
                beat += 1
                if last:
                    cur, beat = None, 0
                    start = bool(todo) and rng.random() < p_b2b
        else:
            start = bool(todo) and rng.random() < 0.5
        inst.adv_i.value = int(adv)
        if start:
            cur, beat = todo.pop(0), 0
            _load(inst, cur, nb)
        else:
            _garbage(inst, rng)
        assert cycle < 20 * (sum(len(c.beats) for c in cmds) + 100), f"{where}: no progress"
    return checked


async def _reset(dut, insts) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.start_i.value = 0
        inst.adv_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.active_o.value) == 0
    dut.rst_ni.value = 1


async def _all(dut, make, p_adv: float, p_b2b: float) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    await _reset(dut, insts)
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, make(v, random.Random(seed + i)),
                                      p_adv, p_b2b, seed + 10 + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for task in tasks:
        assert await task > 0


@cocotb.test()
async def cocotb_random(dut) -> None:
    """Random commands of every mode, adv_i high 70 % of the cycles, half of the
    commands loaded back to back with the previous last beat."""
    n = int(os.environ.get("AK_COMMANDS", "120"))
    await _all(dut, lambda v, rng: [_random_cmd(rng, v[0], bool(v[1])) for _ in range(n)],
               p_adv=0.7, p_b2b=0.5)


@cocotb.test()
async def cocotb_back_to_back_max(dut) -> None:
    """Each mode at its maximum (LEN field 0), adv_i always high, every command loaded
    with the previous last beat (beats stream without a gap)."""
    await _all(dut, lambda v, rng: _max_cmds(v[0], bool(v[1])), p_adv=1.0, p_b2b=1.0)


def test_asbus_addrgen() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_asbus_addrgen_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_asbus_addrgen", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 3})


def test_model_schedule_spot_check() -> None:
    """The reference itself at one point (Fig. 7(b), 64-bit write, first beat)."""
    assert Cmd(64, False, 0, 0x802).beats[0] == [0, 13, 10, 7, 4, 1, 14, 11]
