"""ak_asbus_slave (the ASBUS slave endpoint: arbiter, command checks, command queue,
data-phase multiplexing) on Verilator.

Three parameter sets, (W, N) = (32, 2), (64, 1), (128, 4), MemBytes = 256 and
QueueDepth = 8 (the paper's), are instances of one generated wrapper top (one
Verilator build), driven concurrently. The bench plays N masters (random commands,
each held with REQ until GNT, the next one from the cycle after GNT at the earliest,
random idle cycles), the consumer of the queue head (``head_pop_i`` random, so the
queue fills up and drains) and the data paths (random owners, take/valid strobes, read
data and error answers every cycle). A Python model of the documented protocol
(docs/asbus.md "Command phase", "Errors"; the RTL header) predicts every cycle:

* GNT: REQ sampled at edge t gives GNT high in cycle t+1 only, to the lowest-numbered
  master that requests and whose GNT is not already high, and only while the queue
  holds fewer than 8 entries (a full queue: REQ waits, no GNT, until an entry leaves;
  the bench checks that this happened);
* the queue: commands in grant order, one push per grant, the head visible in the
  GNT cycle (``head_valid_o`` = queue not empty), popped with ``head_pop_i``; each
  entry's master, WR, mode, count / height / width (LEN decoded, a field of 0 = the
  maximum), and for accepted commands the word address and the bounding byte range
  ``head_lo_o`` .. ``head_hi_o`` (first and last byte touched);
* the PITCH of the grant cycle travels with the command: ``head_pitch_o`` of every
  entry is ``pitch_i`` of its grant cycle in words (``pitch_i >> log2(W/8)``, modulo
  the word-address width), and ``pitch_i`` changes every 37 cycles whatever the queue
  holds, so entries granted under one PITCH reach the head under another (the bench
  checks that this happened);
* command checks: ``head_err_o`` exactly when :meth:`aeskit.asbus.model.DamModel.check`
  refuses the command with the PITCH of its grant cycle; every refusal of
  docs/asbus.md "Errors" occurs (reserved mode, linear / block address not aligned
  to a beat, PITCH not a multiple of a beat, state address not 16-byte aligned, a
  byte at or beyond MemBytes, including LEN = 0 = 1024 beats);
* data phase (combinational): ``wr_data_o`` / ``wr_vld_o`` = WDATA / WD_VLD of
  ``wr_owner_i``; RESP[1] only to that master and only with ``wr_take_i``; RDATA =
  ``rd_data_i`` for everybody, RESP[0] only to ``rd_owner_i`` with ``rd_valid_i``;
  ERR[1] / ERR[0] a one-cycle pulse to ``err_owner_i`` exactly in the cycles of
  ``err_i`` (write / read by ``err_wr_i``). When the ERR pulse comes (the head
  reaches the front and its path is free) is decided by ak_adam's dispatch, not by
  this module: that rule is tested by tests/hw/systems/adam/test_adam.py;
* after reset: no GNT, the queue empty.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from collections import deque
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, DamModel, ProtocolError,
                                decode_len, encode_len)
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_asbus_slave")
MEM = 256
DEPTH = 8
#: (W, N)
VARIANTS = [(32, 2), (64, 1), (128, 4)]
REFUSALS = ("reserved mode", "not aligned to a", "row pitch", "not 16-byte aligned", "beyond")


def _mw(n: int) -> int:
    return max(1, (n - 1).bit_length())


def _ports(w: int, n: int) -> list[tuple[str, str, int]]:
    nb = w // 8
    ab = MEM.bit_length() - 1
    aw = ab - (nb.bit_length() - 1)
    mw = _mw(n)
    return [("input", "s_asbus_req", n), ("output", "s_asbus_gnt", n),
            ("input", "s_asbus_addr", 32 * n), ("input", "s_asbus_wr", n),
            ("input", "s_asbus_len", 12 * n), ("input", "s_asbus_wd_vld", nb * n),
            ("input", "s_asbus_wdata", w * n), ("output", "s_asbus_rdata", w),
            ("output", "s_asbus_resp", 2 * n), ("output", "s_asbus_err", 2 * n),
            ("input", "pitch_i", 16),
            ("output", "head_valid_o", 1), ("output", "head_master_o", mw),
            ("output", "head_wr_o", 1), ("output", "head_err_o", 1),
            ("output", "head_mode_o", 2), ("output", "head_word_o", aw),
            ("output", "head_count_o", 11), ("output", "head_height_o", 7),
            ("output", "head_width_o", 5), ("output", "head_lo_o", ab),
            ("output", "head_hi_o", ab), ("output", "head_pitch_o", aw),
            ("input", "head_pop_i", 1),
            ("input", "wr_owner_i", mw), ("input", "wr_take_i", 1),
            ("output", "wr_data_o", w), ("output", "wr_vld_o", nb),
            ("input", "rd_valid_i", 1), ("input", "rd_owner_i", mw),
            ("input", "rd_data_i", w), ("input", "err_i", 1),
            ("input", "err_owner_i", mw), ("input", "err_wr_i", 1)]


def _prefix(v: tuple[int, int]) -> str:
    return f"s{v[0]}n{v[1]}_"


def _wrapper(name: str) -> list[Path]:
    return write_wrapper(name, "ak_asbus_slave",
                         [Instance(_prefix(v), {"DataWidth": v[0], "N": v[1], "MemBytes": MEM,
                                                "QueueDepth": DEPTH}, _ports(*v))
                          for v in VARIANTS],
                         generator="tests/hw/bus/asbus/test_asbus_slave.py")


def _random_cmd(rng: random.Random, w: int) -> tuple[bool, int, int]:
    """(wr, addr, len12): legal most of the time, every kind of refusal sometimes."""
    nb = w // 8
    wr = rng.random() < 0.5
    kind = rng.random()
    if kind < 0.55:            # usually legal (unless PITCH is bad / the range overflows)
        mode = rng.choice((MODE_LINEAR, MODE_BLOCK, MODE_STATE))
        if mode == MODE_LINEAR:
            return wr, rng.randrange(MEM // nb) * nb, encode_len(mode, rng.randint(1, 8))
        if mode == MODE_BLOCK:
            return wr, rng.randrange(MEM // nb) * nb, encode_len(
                mode, rows=rng.randint(1, 4), words=rng.randint(1, 4))
        return wr, rng.randrange(MEM // 16) * 16, encode_len(mode, rng.randint(1, 4))
    if kind < 0.62:            # reserved mode
        return wr, rng.randrange(MEM // 16) * 16, (3 << 10) | rng.getrandbits(10)
    if kind < 0.72:            # a linear / block address off the beat grid
        mode = rng.choice((MODE_LINEAR, MODE_BLOCK))
        len12 = encode_len(mode, 1, rows=1, words=1)
        return wr, rng.randrange(MEM // nb) * nb + rng.randint(1, nb - 1), len12
    if kind < 0.80:            # a state address off the 16-byte grid
        return wr, rng.randrange(MEM // 16) * 16 + rng.randint(1, 15), encode_len(MODE_STATE, 1)
    if kind < 0.90:            # beyond the memory: LEN = 0 (max) or a high address
        mode = rng.choice((MODE_LINEAR, MODE_BLOCK, MODE_STATE))
        len12 = mode << 10
        if rng.random() < 0.5:
            return wr, 0, len12
        return wr, rng.choice((MEM, 0x1000, 0xFFFF_FFF0, MEM - 16)), (mode << 10) | 2
    mode = rng.choice((MODE_LINEAR, MODE_BLOCK, MODE_STATE))   # random anything
    return wr, rng.getrandbits(9), (mode << 10) | rng.getrandbits(10)


def _pitch_words(w: int, pitch: int) -> int:
    """``head_pitch_o`` of a command granted with ``pitch`` (bytes): the row pitch in
    words, modulo the word-address width."""
    nb = w // 8
    aw = (MEM.bit_length() - 1) - (nb.bit_length() - 1)
    return (pitch >> (nb.bit_length() - 1)) % (1 << aw)


def _entry(w: int, master: int, wr: bool, addr: int, len12: int, pitch: int) -> dict:
    """The queue entry the slave must make of a command granted with ``pitch``."""
    nb = w // 8
    ab = MEM.bit_length() - 1
    aw = ab - (nb.bit_length() - 1)
    mode, count, rows, words = decode_len(len12)
    why = None
    try:
        DamModel(w, mem_bytes=MEM, pitch=pitch).check(addr, len12)
    except ProtocolError as exc:
        why = str(exc)
    e = {"head_master_o": master, "head_wr_o": int(wr), "head_err_o": int(why is not None),
         "head_mode_o": mode, "head_count_o": count, "head_height_o": rows,
         "head_width_o": words,
         "head_pitch_o": _pitch_words(w, pitch)}
    if why is None:
        if mode == MODE_BLOCK:
            end = addr + (rows - 1) * pitch + words * nb
        elif mode == MODE_STATE:
            end = addr + 16 * count
        else:
            end = addr + count * nb
        e.update(head_word_o=(addr // nb) % (1 << aw), head_lo_o=addr % (1 << ab),
                 head_hi_o=(end - 1) % (1 << ab))
    return {"fields": e, "why": why}


def _field(v: int, i: int, width: int) -> int:
    return (v >> (i * width)) & ((1 << width) - 1)


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
async def _drive(dut, inst: Prefixed, v: tuple[int, int], cycles: int, seed: int) -> dict:
    w, n = v
    nb = w // 8
    rng = random.Random(seed)
    gnt_q = 0
    queue: deque[dict] = deque()
    cmd: list[tuple[bool, int, int] | None] = [None] * n   # a command held with REQ
    req_word = [0] * n                                     # what is on REQ now
    pitch = 0
    stats = {"grants": 0, "full_wait": 0, "refused": {r: 0 for r in REFUSALS}, "max_q": 0,
             "pitch_queued": 0}
    p_pop = 0.5
    for cycle in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        where = f"W={w} N={n} cycle {cycle}"
        gnt = int(inst.s_asbus_gnt.value)
        assert gnt == gnt_q, f"{where}: GNT {gnt:#x}, expected {gnt_q:#x}"
        hv = int(inst.head_valid_o.value)
        assert hv == int(bool(queue)), f"{where}: head_valid_o {hv}, queue holds {len(queue)}"
        if queue:
            for name, val in queue[0]["fields"].items():
                got = int(getattr(inst, name).value)
                assert got == val, (f"{where}: head {name} {got:#x}, expected {val:#x} "
                                    f"({queue[0]['cmd']}, refusal: {queue[0]['why']})")
        # phases: drain slowly (the queue fills) or fast
        if cycle % 200 == 0:
            p_pop = rng.choice((0.05, 0.5, 0.9))
        if cycle % 37 == 0:
            old = pitch
            # beside small and unaligned pitches, aligned ones at or above MemBytes:
            # a block of two or more rows is refused whatever the pitch's low bits
            # (MEM + nb wraps to one word), one row is accepted
            pitch = rng.choice((0, nb, 3 * nb, 5 * nb, 16 * nb, nb + 1 if nb > 1 else 3,
                                rng.getrandbits(16), MEM + nb,
                                nb * rng.randrange(MEM // nb, 0x10000 // nb)))
            if queue and _pitch_words(w, pitch) != _pitch_words(w, old):
                stats["pitch_queued"] += 1     # queued entries keep their own PITCH
        # masters: REQ held until GNT; a new command from the cycle after GNT
        req, addrs, wrs, lens = 0, 0, 0, 0
        for i in range(n):
            if (gnt_q >> i) & 1:
                hold = rng.random() < 0.5          # masked anyway
                held = req_word[i] if hold else None
            else:
                held = None
                if cmd[i] is None and rng.random() < 0.6:
                    cmd[i] = _random_cmd(rng, w)
                if cmd[i] is not None:
                    held = cmd[i]
            if held is not None:
                wr, addr, len12 = held
                req |= 1 << i
            else:
                wr, addr, len12 = (rng.random() < 0.5, rng.getrandbits(32), rng.getrandbits(12))
            req_word[i] = (wr, addr, len12)
            wrs |= int(wr) << i
            addrs |= addr << (32 * i)
            lens |= len12 << (12 * i)
        inst.s_asbus_req.value = req
        inst.s_asbus_addr.value = addrs
        inst.s_asbus_wr.value = wrs
        inst.s_asbus_len.value = lens
        inst.pitch_i.value = pitch
        pop = bool(queue) and rng.random() < p_pop
        inst.head_pop_i.value = int(pop)
        # data phase, all random
        wdata, wvld = rng.getrandbits(w * n), rng.getrandbits(nb * n)
        wown, rown, eown = (rng.randrange(n) for _ in range(3))
        take, rvalid, err, errwr = (rng.random() < 0.5 for _ in range(4))
        rdata = rng.getrandbits(w)
        inst.s_asbus_wdata.value = wdata
        inst.s_asbus_wd_vld.value = wvld
        inst.wr_owner_i.value = wown
        inst.wr_take_i.value = int(take)
        inst.rd_valid_i.value = int(rvalid)
        inst.rd_owner_i.value = rown
        inst.rd_data_i.value = rdata
        inst.err_i.value = int(err)
        inst.err_owner_i.value = eown
        inst.err_wr_i.value = int(errwr)
        await Timer(1, unit="ns")
        assert int(inst.wr_data_o.value) == _field(wdata, wown, w), f"{where}: wr_data_o"
        assert int(inst.wr_vld_o.value) == _field(wvld, wown, nb), f"{where}: wr_vld_o"
        assert int(inst.s_asbus_rdata.value) == rdata, f"{where}: RDATA"
        want_resp = want_err = 0
        if take:
            want_resp |= 1 << (2 * wown + 1)
        if rvalid:
            want_resp |= 1 << (2 * rown)
        if err:
            want_err |= 1 << (2 * eown + int(errwr))
        assert int(inst.s_asbus_resp.value) == want_resp, (
            f"{where}: RESP {int(inst.s_asbus_resp.value):#x}, expected {want_resp:#x}")
        assert int(inst.s_asbus_err.value) == want_err, (
            f"{where}: ERR {int(inst.s_asbus_err.value):#x}, expected {want_err:#x}")
        # the model's edge
        cand = [i for i in range(n) if (req >> i) & 1 and not (gnt_q >> i) & 1]
        gnt_q = 0
        if cand and len(queue) < DEPTH:
            i = cand[0]
            wr, addr, len12 = cmd[i]  # type: ignore[misc]
            e = _entry(w, i, wr, addr, len12, pitch)
            e["cmd"] = f"master {i} {'wr' if wr else 'rd'} addr={addr:#x} len={len12:#05x} " \
                       f"pitch={pitch}"
            queue.append(e)
            if e["why"] is not None:
                for r in REFUSALS:
                    if r in e["why"]:
                        stats["refused"][r] += 1
            cmd[i] = None
            gnt_q = 1 << i
            stats["grants"] += 1
        elif cand:
            stats["full_wait"] += 1
        if pop:
            queue.popleft()
        stats["max_q"] = max(stats["max_q"], len(queue))
    return stats


async def _reset(dut, insts) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.s_asbus_req.value = 0
        inst.head_pop_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.s_asbus_gnt.value) == 0 and int(inst.head_valid_o.value) == 0
    dut.rst_ni.value = 1


@cocotb.test()
async def cocotb_random(dut) -> None:
    insts = [Prefixed(dut, _prefix(v)) for v in VARIANTS]
    await _reset(dut, insts)
    cycles = int(os.environ.get("AK_CYCLES", "3000"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = [cocotb.start_soon(_drive(dut, inst, v, cycles, seed + i))
             for i, (v, inst) in enumerate(zip(VARIANTS, insts))]
    for v, task in zip(VARIANTS, tasks):
        stats = await task
        dut._log.info("W=%d N=%d: %s", *v, stats)
        assert stats["max_q"] == DEPTH and stats["full_wait"] > 0, (v, stats)
        assert all(stats["refused"].values()), (v, stats)
        assert stats["grants"] > cycles // 10, (v, stats)
        assert stats["pitch_queued"] > 0, (v, stats)


def test_asbus_slave() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_asbus_slave_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_asbus_slave", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 5})
