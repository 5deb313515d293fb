"""Bus fuzzing of the ASBUS master endpoint ``ak_asbus_master`` (docs/asbus_master.md),
Verilator, with the shared pieces of :mod:`aeskit.verif.asbus_fuzz`.

The bench is one generated wrapper top (:func:`aeskit.testbench.wrapper.write_wrapper`, one
build) holding four masters of different buffers (:data:`VARIANTS`: W = 32 with
Outstanding 2 / RdDepth 8 / WrDepth 8 and with 4 / 64 / 32, W = 64 and W = 128);
``make test`` drives the two 32-bit ones, the slow variant all four. Each master is
driven on both sides by Python, every cycle:

* user side: random commands held with ``cmd_valid_i`` until ``cmd_ready_o`` (random
  gaps, back to back, junk on the payload while not valid), in every shape of
  :func:`aeskit.verif.asbus_fuzz.random_shape`: fitting the buffer, exactly filling it,
  longer than it (refused locally, documented), a LEN field at 0 (its maximum; longer
  than any buffer here, so refused locally), the reserved mode (no beat, sent to the
  slave); every write's beats on the write stream with random gaps and strobes (also
  those of refused writes, which the master must consume and drop); ``rd_ready_i`` and
  ``rsp_ready_i`` low at random;
* ASBUS side, a responder playing the slave: GNT after a random delay (REQ ``t``, GNT
  ``t+1`` at the earliest) with a random queue limit, each direction answered in order:
  ERR (a one-cycle pulse, in the GNT cycle at the earliest) at random and for every
  reserved-mode command, else every beat with RESP (the cycle after GNT at the
  earliest, the next command's beats right after the previous one's) and random wait
  states in bursts, random RDATA; now and then a RESP or ERR pulse with nothing in
  flight, which the header documents as ignored.

A reference model written from the header and docs/asbus_master.md (acceptance: the
command register, Outstanding per direction, store and forward, read credits, local
refusal once no earlier command of its direction is on the bus, dropped beats; the
write buffer's head on WDATA/WD_VLD, refused writes' beats dropped at ERR; read beats
one cycle after RDATA; responses the cycle after the last beat / ERR / local refusal,
in order per direction, writes first) predicts every output in every cycle:
``cmd_ready_o`` (whatever the payload), REQ/ADDR/WR/LEN, WDATA/WD_VLD,
``wr_ready_o``, ``rd_valid_o`` / ``rd_data_o`` / ``rd_last_o``, ``rsp_valid_o`` /
``rsp_wr_o`` / ``rsp_err_o``. On top: each beat the responder takes is the user's beat
of that command (data and strobe), each user read beat is the RDATA beat of its
command, each command is answered once with its error flag, the read buffer never
holds more than RdDepth beats, and nothing hangs (:data:`HANG` cycles without any
handshake while something is pending, :data:`HANG_REQ` for any one command). At the
end everything is drained and the master is idle. A run must have covered every
kind of command, refusal, stall and back-pressure (:data:`COVER`).

``AK_FUZZ_N`` (transactions = user commands, over the driven masters) and
``AK_FUZZ_SEED`` size the run: 3,000 in ``make test``, 100,000 in the slow variant.
The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw.manifest import sources
from aeskit.verif.asbus_fuzz import (HANG, HANG_REQ, N_FAST, N_SLOW, Coverage, FuzzFailure,
                                   master_beats, random_shape, run_fuzz, settings)
from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper

HERE = Path(__file__).resolve().parent
TOP = "ak_asbus_master_fuzz_tb"
SOURCES = sources("aeskit:bus:asbus_master")


@dataclass(frozen=True)
class Variant:
    prefix: str
    width: int
    outstanding: int
    rd_depth: int
    wr_depth: int

    @property
    def params(self) -> dict[str, int]:
        return {"DataWidth": self.width, "Outstanding": self.outstanding,
                "RdDepth": self.rd_depth, "WrDepth": self.wr_depth}


#: the masters of the bench (one build); make test drives the 32-bit ones
VARIANTS = (Variant("a32_", 32, 2, 8, 8), Variant("b32_", 32, 4, 64, 32),
            Variant("c64_", 64, 3, 16, 16), Variant("d128_", 128, 16, 32, 64))
FAST = tuple(v.prefix for v in VARIANTS if v.width == 32)
#: what every run must have exercised on each master
COVER = ("accepted write", "accepted read", "local refusal write", "local refusal read",
         "slave ERR write", "slave ERR read", "shape fits", "shape fills", "shape over",
         "shape max", "shape reserved", "stall slot", "stall outstanding",
         "stall write beats", "stall read credits", "stall earlier on bus",
         "stall drop pending",
         "write buffer full", "rd_ready low", "rsp_ready low",
         "write and read response both waiting",
         "ERR in the GNT cycle", "REQ right after GNT", "GNT delayed", "wait state write",
         "wait state read", "spurious pulse ignored", "beats dropped (local)",
         "beats dropped (ERR)")


def _ports(v: Variant) -> list[tuple[str, str, int]]:
    w, nb = v.width, v.width // 8
    return [("input", "cmd_valid_i", 1), ("output", "cmd_ready_o", 1),
            ("input", "cmd_addr_i", 32), ("input", "cmd_wr_i", 1), ("input", "cmd_len_i", 12),
            ("input", "wr_valid_i", 1), ("output", "wr_ready_o", 1),
            ("input", "wr_data_i", w), ("input", "wr_strb_i", nb),
            ("output", "rd_valid_o", 1), ("input", "rd_ready_i", 1),
            ("output", "rd_data_o", w), ("output", "rd_last_o", 1),
            ("output", "rsp_valid_o", 1), ("input", "rsp_ready_i", 1),
            ("output", "rsp_wr_o", 1), ("output", "rsp_err_o", 1),
            ("output", "m_asbus_req", 1), ("input", "m_asbus_gnt", 1),
            ("output", "m_asbus_addr", 32), ("output", "m_asbus_wr", 1),
            ("output", "m_asbus_len", 12), ("output", "m_asbus_wd_vld", nb),
            ("output", "m_asbus_wdata", w), ("input", "m_asbus_rdata", w),
            ("input", "m_asbus_resp", 2), ("input", "m_asbus_err", 2)]


def _wrapper() -> list[Path]:
    return write_wrapper(TOP, "ak_asbus_master",
                         [Instance(v.prefix, v.params, _ports(v)) for v in VARIANTS],
                         generator="tests/hw/bus/asbus/test_asbus_master_fuzz.py",
                         public_ports_only=True)


# ----------------------------------------------------------------------------------
# commands
# ----------------------------------------------------------------------------------
@dataclass(eq=False)
class UCmd:
    """A user command and what happened to it."""

    idx: int
    wr: bool
    addr: int
    len12: int
    beats: int
    local: bool                      # longer than the buffer: refused without a bus cycle
    kind: str
    data: list[tuple[int, int]] = field(default_factory=list)   # write beats (data, strobe)
    presented: int = -1
    accepted: int = -1
    granted: int = -1
    refuse: bool = False             # the responder's decision (reserved: always)
    t_err: int = 0                   # earliest cycle of its ERR
    t_data: int = 0                  # earliest cycle of its first beat
    bus_n: int = 0                   # beats the responder gave / took
    rdata: list[int] = field(default_factory=list)      # RDATA beats given
    m_taken: int = 0                 # beats the model counted
    user_n: int = 0                  # read beats the user took
    err: bool | None = None          # the error flag of its completion (model)
    answered: int = -1

    def __str__(self) -> str:
        return (f"{'write' if self.wr else 'read'} ADDR {self.addr:#010x} LEN "
                f"{self.len12:#05x} ({self.kind}, {self.beats} beats)")


# ----------------------------------------------------------------------------------
# the reference model of the header
# ----------------------------------------------------------------------------------
class MasterModel:
    """The documented state of one master: the command register, per direction the
    commands on the bus (accepted, not complete) and those complete but not answered,
    the write buffer (beats, owed beats, beats still to drop) and the read buffer (beats,
    reserved beats). :meth:`predict` gives a cycle's outputs for its inputs,
    :meth:`edge` applies the cycle's handshakes."""

    def __init__(self, v: Variant) -> None:
        self.v = v
        self.slot: UCmd | None = None
        self.w_fly: deque[UCmd] = deque()
        self.r_fly: deque[UCmd] = deque()
        self.w_done: deque[UCmd] = deque()
        self.r_done: deque[UCmd] = deque()
        self.wbuf: deque[tuple[int, int]] = deque()
        self.w_pend = 0
        self.drop = 0
        self.rbuf: deque[tuple[int, bool, UCmd]] = deque()
        self.r_pend = 0

    def accept(self, wr: bool, len12: int) -> tuple[bool, bool, str]:
        """(ok, long, why not) for a command on the payload lines, the command register
        aside."""
        v = self.v
        beats = master_beats(v.width, len12)
        if wr:
            long = beats > v.wr_depth
            if len(self.w_fly) + len(self.w_done) >= v.outstanding:
                return False, long, "outstanding"
            if self.drop:
                return False, long, "drop pending"
            if long:
                return not self.w_fly, long, "earlier on bus"
            return len(self.wbuf) >= self.w_pend + beats, long, "write beats"
        long = beats > v.rd_depth
        if len(self.r_fly) + len(self.r_done) >= v.outstanding:
            return False, long, "outstanding"
        if long:
            return not self.r_fly, long, "earlier on bus"
        return len(self.rbuf) + self.r_pend + beats <= v.rd_depth, long, "read credits"

    def edge(self, *, fire: UCmd | None, long: bool, push: tuple[int, int] | None,
             w_resp: bool, w_err: bool, r_resp: bool, r_err: bool, rdata: int, rd_pop: bool,
             rsp_pop: bool, gnt: bool) -> tuple[UCmd | None, UCmd | None, int]:
        """Apply one edge; return (the write answered, the read answered, beats dropped
        locally) for the bench's bookkeeping."""
        w_has = bool(self.w_done)
        w_take = w_resp and bool(self.w_fly)
        w_refuse = w_err and bool(self.w_fly)
        r_take = r_resp and bool(self.r_fly)
        r_refuse = r_err and bool(self.r_fly)
        # write buffer: one beat taken, a refused write's beats, or a local drop
        drop_n = min(len(self.wbuf), self.drop)
        assert not (drop_n and (w_take or w_refuse)), "model: drop while a write is on the bus"
        if w_take:
            pop = 1
        elif w_refuse:
            pop = self.w_fly[0].beats
            assert self.w_fly[0].m_taken == 0, "model: ERR after a beat"
        else:
            pop = drop_n
        assert pop <= len(self.wbuf), "model: pop beyond the write buffer"
        for _ in range(pop):
            self.wbuf.popleft()
        if push is not None:
            self.wbuf.append(push)
        self.drop = fire.beats if (fire is not None and fire.wr and long) else self.drop - drop_n
        if w_take:
            self.w_pend -= 1
            h = self.w_fly[0]
            h.m_taken += 1
            if h.m_taken == h.beats:
                h.err = False
                self.w_done.append(self.w_fly.popleft())
        elif w_refuse:
            h = self.w_fly.popleft()
            self.w_pend -= h.beats
            h.err = True
            self.w_done.append(h)
        # read buffer
        if rd_pop:
            self.rbuf.popleft()
        if r_take:
            h = self.r_fly[0]
            h.m_taken += 1
            self.r_pend -= 1
            self.rbuf.append((rdata, h.m_taken == h.beats, h))
            if h.m_taken == h.beats:
                h.err = False
                self.r_done.append(self.r_fly.popleft())
        elif r_refuse:
            h = self.r_fly.popleft()
            self.r_pend -= h.beats
            h.err = True
            self.r_done.append(h)
        assert len(self.rbuf) <= self.v.rd_depth, "model: read buffer overflow"
        # the new command
        slot = self.slot if (self.slot is not None and not gnt) else None
        if fire is not None:
            if long:
                fire.err = True
                (self.w_done if fire.wr else self.r_done).append(fire)
            else:
                slot = fire
                if fire.wr:
                    self.w_fly.append(fire)
                    self.w_pend += fire.beats
                else:
                    self.r_fly.append(fire)
                    self.r_pend += fire.beats
        self.slot = slot
        # the response taken at this edge (writes first)
        w_ans = r_ans = None
        if rsp_pop:
            if w_has:
                w_ans = self.w_done.popleft()
            else:
                r_ans = self.r_done.popleft()
        return w_ans, r_ans, drop_n

    def idle(self) -> bool:
        return not (self.slot or self.w_fly or self.r_fly or self.w_done or self.r_done
                    or self.wbuf or self.rbuf or self.drop)


# ----------------------------------------------------------------------------------
# one master's bench: user side, responder, checks
# ----------------------------------------------------------------------------------
_IN = ("cmd_valid_i", "cmd_addr_i", "cmd_wr_i", "cmd_len_i", "wr_valid_i", "wr_data_i",
       "wr_strb_i", "rd_ready_i", "rsp_ready_i", "m_asbus_gnt", "m_asbus_rdata",
       "m_asbus_resp", "m_asbus_err")


class MasterFuzz:
    """Random traffic on one master (see the module doc)."""

    def __init__(self, dut: Any, v: Variant, seed: int, n: int) -> None:
        self.v = v
        self.w, self.nb = v.width, v.width // 8
        self.seed, self.n = seed, n
        # each master its own stream, derived from the run's seed and its place
        self.rng = random.Random(seed * 16 + VARIANTS.index(v))
        self.cov = Coverage()
        self.model = MasterModel(v)
        inst = Prefixed(dut, v.prefix)
        self.h = {port: getattr(inst, port) for _, port, _ in _ports(v)}
        self.drv: dict[str, int] = {}
        self.vals: dict[str, int] = dict.fromkeys(_IN, 0)
        self.cycle = 0
        self.idx = 0
        self.generated = 0
        # user side
        self.cmds: deque[UCmd] = deque()
        self.cur: UCmd | None = None
        self.next_cmd = 0
        self.wstream: deque[tuple[int, int, UCmd]] = deque()
        self.wcur: tuple[int, int, UCmd] | None = None
        self.wcur_since = 0
        self.next_beat = 0
        self.all: list[UCmd] = []
        self.open: deque[UCmd] = deque()       # accepted, not yet answered (oldest first)
        # responder
        self.q_w: deque[UCmd] = deque()
        self.q_r: deque[UCmd] = deque()
        self.req_prev = False
        self.gnt_prev = False
        self.req_since = -1
        self.wait_w = self.wait_r = 0
        self.take_w: tuple[UCmd, int] | None = None
        self.spurious = ""
        # progress
        self.progress = 0
        self.epoch_left = 0
        self.p: dict[str, float] = {}

    # -------------------------------------------------------------- helpers
    def fail(self, msg: str, cmd: UCmd | None = None) -> NoReturn:
        what = f"transaction {cmd.idx} ({cmd})" if cmd is not None else \
            f"after transaction {self.idx}"
        raise FuzzFailure(f"seed {self.seed}, {self.v.prefix.rstrip('_')} "
                          f"(W={self.w}, Outstanding {self.v.outstanding}, RdDepth "
                          f"{self.v.rd_depth}, WrDepth {self.v.wr_depth}), cycle {self.cycle}, "
                          f"{what}: {msg}")

    def _set(self, name: str, value: int) -> None:
        self.vals[name] = value
        if self.drv.get(name) != value:
            self.drv[name] = value
            self.h[name].value = value

    def new_epoch(self) -> None:
        """Draw the random behaviour of both sides for the next stretch of commands."""
        rng = self.rng
        self.epoch_left = rng.randint(40, 400)
        self.p = {
            "gap": rng.choice((0.0, 0.3, 0.7)),        # idle cycles before a command
            "beat_gap": rng.choice((0.0, 0.2, 0.6)),
            "rd": rng.choice((1.0, 0.7, 0.3, 0.1)),
            "rsp": rng.choice((1.0, 0.7, 0.3, 0.1)),
            "gnt": rng.choice((1.0, 0.6, 0.2)),
            "qmax": rng.choice((1, 2, 3, 8, 8)),
            "err": rng.choice((0.0, 0.1, 0.3, 0.6)),
            "wait_w": rng.choice((0.0, 0.1, 0.3, 0.6)),
            "wait_r": rng.choice((0.0, 0.1, 0.3, 0.6)),
            "burst": rng.choice((1, 4, 16)),
            "spur": rng.choice((0.0, 0.02, 0.05)),
            "wr": rng.choice((0.5, 0.5, 0.2, 0.8)),
        }

    def generate(self) -> None:
        """Keep a few commands ahead (a write's beats go on the stream at once)."""
        rng, v = self.rng, self.v
        while len(self.cmds) < 3 and self.generated < self.n:
            if self.epoch_left <= 0:
                self.new_epoch()
            self.epoch_left -= 1
            self.generated += 1
            wr = rng.random() < self.p["wr"]
            len12, kind = random_shape(rng, self.w, v.wr_depth if wr else v.rd_depth)
            if wr and kind == "max" and rng.random() < 0.85:
                wr = False                          # a max write costs its 1024+ beats
                len12, kind = random_shape(rng, self.w, v.rd_depth)
            beats = master_beats(self.w, len12)
            c = UCmd(self.generated, wr, rng.getrandbits(32), len12, beats,
                     beats > (v.wr_depth if wr else v.rd_depth), kind)
            self.cov(f"shape {kind}")
            if wr:
                full = (1 << self.nb) - 1
                for _ in range(beats):
                    x = rng.random()
                    strb = full if x < 0.6 else 0 if x < 0.65 else rng.getrandbits(self.nb)
                    beat = (rng.getrandbits(self.w), strb)
                    c.data.append(beat)
                    self.wstream.append((*beat, c))
            self.cmds.append(c)
            self.all.append(c)

    def busy(self) -> bool:
        return bool(self.cmds or self.cur or self.wstream or self.wcur or self.open
                    or not self.model.idle() or self.generated < self.n)

    # -------------------------------------------------------------- drive (after edge)
    def drive(self, cycle: int) -> None:
        self.cycle = cycle
        rng, p, m = self.rng, self.p, self.model
        self.generate()
        # ---- user: command
        if self.cur is None and self.cmds and cycle >= self.next_cmd:
            self.cur = self.cmds.popleft()
            self.cur.presented = cycle
        if self.cur is not None:
            c = self.cur
            self._set("cmd_valid_i", 1)
            self._set("cmd_addr_i", c.addr)
            self._set("cmd_wr_i", int(c.wr))
            self._set("cmd_len_i", c.len12)
        else:
            self._set("cmd_valid_i", 0)
            if rng.random() < 0.3:                  # junk while not valid
                self._set("cmd_addr_i", rng.getrandbits(32))
                self._set("cmd_wr_i", rng.getrandbits(1))
                self._set("cmd_len_i", rng.getrandbits(12))
        # ---- user: write beats
        if self.wcur is None and self.wstream and cycle >= self.next_beat:
            self.wcur = self.wstream.popleft()
            self.wcur_since = cycle
        if self.wcur is not None:
            self._set("wr_valid_i", 1)
            self._set("wr_data_i", self.wcur[0])
            self._set("wr_strb_i", self.wcur[1])
        else:
            self._set("wr_valid_i", 0)
            if rng.random() < 0.3:
                self._set("wr_data_i", rng.getrandbits(self.w))
                self._set("wr_strb_i", rng.getrandbits(self.nb))
        self._set("rd_ready_i", int(p["rd"] >= 1.0 or rng.random() < p["rd"]))
        self._set("rsp_ready_i", int(p["rsp"] >= 1.0 or rng.random() < p["rsp"]))
        # ---- responder: GNT for the command on REQ in the previous cycle
        gnt = 0
        if self.req_prev and not self.gnt_prev:
            if len(self.q_w) + len(self.q_r) < p["qmax"] and (
                    p["gnt"] >= 1.0 or rng.random() < p["gnt"]):
                c = m.slot
                if c is None:
                    self.fail("REQ without a command in the command register")
                gnt = 1
                c.granted = cycle
                if self.req_since < cycle - 1:
                    self.cov("GNT delayed")
                c.refuse = (c.len12 >> 10) == 3 or rng.random() < p["err"]
                c.t_err = cycle if rng.random() < 0.5 else cycle + rng.randint(1, 4)
                c.t_data = cycle + 1 + (0 if rng.random() < 0.7 else rng.randint(1, 6))
                (self.q_w if c.wr else self.q_r).append(c)
        self._set("m_asbus_gnt", gnt)
        # ---- responder: write and read data phases, in order per direction
        resp = err = 0
        self.take_w = None
        self.spurious = ""
        if self.q_w:
            h = self.q_w[0]
            if h.refuse:
                if cycle >= h.t_err:
                    err |= 2
                    if h.granted == cycle:
                        self.cov("ERR in the GNT cycle")
                    self._done(self.q_w, cycle)
            elif cycle >= h.t_data:
                if self.wait_w:
                    self.wait_w -= 1
                elif rng.random() < p["wait_w"]:
                    self.wait_w = rng.randint(0, p["burst"] - 1)
                    self.cov("wait state write")
                else:
                    resp |= 2
                    self.take_w = (h, h.bus_n)
                    h.bus_n += 1
                    if h.bus_n == h.beats:
                        self._done(self.q_w, cycle)
        elif not m.w_fly and rng.random() < p["spur"]:
            if rng.random() < 0.5:
                resp |= 2
            else:
                err |= 2
            self.spurious = "write"
        rdata = self.vals["m_asbus_rdata"]
        if self.q_r:
            h = self.q_r[0]
            if h.refuse:
                if cycle >= h.t_err:
                    err |= 1
                    if h.granted == cycle:
                        self.cov("ERR in the GNT cycle")
                    self._done(self.q_r, cycle)
            elif cycle >= h.t_data:
                if self.wait_r:
                    self.wait_r -= 1
                elif rng.random() < p["wait_r"]:
                    self.wait_r = rng.randint(0, p["burst"] - 1)
                    self.cov("wait state read")
                else:
                    resp |= 1
                    rdata = rng.getrandbits(self.w)
                    h.rdata.append(rdata)
                    h.bus_n += 1
                    if h.bus_n == h.beats:
                        self._done(self.q_r, cycle)
        elif not m.r_fly and rng.random() < p["spur"]:
            if rng.random() < 0.5:
                resp |= 1
            else:
                err |= 1
            self.spurious = "read"
        self._set("m_asbus_resp", resp)
        self._set("m_asbus_err", err)
        if not resp & 1 and rng.random() < 0.2:       # junk while no read beat
            rdata = rng.getrandbits(self.w)
        self._set("m_asbus_rdata", rdata)

    def _done(self, q: deque[UCmd], cycle: int) -> None:
        """The head of a responder queue is complete in ``cycle``: the next command of
        that direction is answered from the next cycle at the earliest."""
        q.popleft()
        if q:
            q[0].t_err = max(q[0].t_err, cycle + 1)
            q[0].t_data = max(q[0].t_data, cycle + 1)

    # -------------------------------------------------------------- sample (before edge)
    def sample(self) -> None:
        c, m, v, h, x = self.cycle, self.model, self.v, self.h, self.vals
        gnt = bool(x["m_asbus_gnt"])
        wr_in, len_in = bool(x["cmd_wr_i"]), x["cmd_len_i"]
        ok, long, why = m.accept(wr_in, len_in)
        ready = (m.slot is None or gnt) and ok
        valid = bool(x["cmd_valid_i"])
        # ---- every output against the model
        got = int(h["cmd_ready_o"].value)
        if got != ready:
            self.fail(f"cmd_ready_o {got}, model {int(ready)} (WR {int(wr_in)} LEN "
                      f"{len_in:#05x}, command register {'busy' if m.slot else 'free'}, "
                      f"GNT {int(gnt)}, {why})", self.cur)
        req = m.slot is not None or (valid and ok and not long)
        if int(h["m_asbus_req"].value) != req:
            self.fail(f"REQ {int(h['m_asbus_req'].value)}, model {int(req)}", m.slot or self.cur)
        if req:
            want = m.slot if m.slot is not None else self.cur
            assert want is not None
            bus = (int(h["m_asbus_addr"].value), int(h["m_asbus_wr"].value),
                   int(h["m_asbus_len"].value))
            if bus != (want.addr, int(want.wr), want.len12):
                self.fail(f"ADDR/WR/LEN {bus[0]:#x}/{bus[1]}/{bus[2]:#05x} on REQ", want)
        if int(h["wr_ready_o"].value) != (len(m.wbuf) != v.wr_depth):
            self.fail(f"wr_ready_o {int(h['wr_ready_o'].value)} with {len(m.wbuf)} beats "
                      f"buffered of {v.wr_depth}")
        vld = int(h["m_asbus_wd_vld"].value)
        if m.wbuf:
            want_d, want_s = m.wbuf[0]
            if vld != want_s or int(h["m_asbus_wdata"].value) != want_d:
                self.fail(f"WDATA/WD_VLD {int(h['m_asbus_wdata'].value):#x}/{vld:#x}, the "
                          f"buffer's head beat {want_d:#x}/{want_s:#x}")
        elif vld:
            self.fail(f"WD_VLD {vld:#x} with the write buffer empty")
        rd_valid = int(h["rd_valid_o"].value)
        if rd_valid != bool(m.rbuf):
            self.fail(f"rd_valid_o {rd_valid} with {len(m.rbuf)} beats buffered")
        if rd_valid:
            d, last, rc = m.rbuf[0]
            got_d, got_l = int(h["rd_data_o"].value), int(h["rd_last_o"].value)
            if (got_d, got_l) != (d, int(last)):
                self.fail(f"rd_data_o/rd_last_o {got_d:#x}/{got_l}, model {d:#x}/{int(last)}",
                          rc)
        rsp_valid = int(h["rsp_valid_o"].value)
        if rsp_valid != bool(m.w_done or m.r_done):
            self.fail(f"rsp_valid_o {rsp_valid}, model: {len(m.w_done)} write and "
                      f"{len(m.r_done)} read responses waiting")
        if rsp_valid:
            head = m.w_done[0] if m.w_done else m.r_done[0]
            got = (int(h["rsp_wr_o"].value), int(h["rsp_err_o"].value))
            if got != (int(head.wr), int(bool(head.err))):
                self.fail(f"rsp_wr_o/rsp_err_o {got}, model {int(head.wr)}/{int(bool(head.err))}",
                          head)
        # ---- the responder's view of the bus
        resp, err = x["m_asbus_resp"], x["m_asbus_err"]
        if self.take_w is not None:
            tc, j = self.take_w
            if not m.wbuf:
                self.fail(f"write beat {j} taken from an empty write buffer", tc)
            if (m.wbuf[0][0], m.wbuf[0][1]) != tc.data[j]:
                self.fail(f"write beat {j} taken as {m.wbuf[0][0]:#x}/{m.wbuf[0][1]:#x}, the "
                          f"user's {tc.data[j][0]:#x}/{tc.data[j][1]:#x}", tc)
        if self.spurious:
            self.cov("spurious pulse ignored")
        # ---- coverage and handshakes of this cycle
        fire = self.cur if (valid and ready) else None
        if valid and not ready:
            self.cov(f"stall {why}" if not ok else "stall slot")
        push = None
        if self.wcur is not None and len(m.wbuf) != v.wr_depth:
            push = (self.wcur[0], self.wcur[1])
        elif self.wcur is not None:
            self.cov("write buffer full")
        rd_pop = bool(rd_valid and x["rd_ready_i"])
        if rd_pop:                       # the user takes beat j of a read: its RDATA beat j
            d, last, rc = m.rbuf[0]
            j = rc.user_n
            if j >= len(rc.rdata) or d != rc.rdata[j] or last != (j == rc.beats - 1):
                self.fail(f"user read beat {j} {d:#x} (last {int(last)}), the responder gave "
                          f"{[hex(b) for b in rc.rdata]}", rc)
            rc.user_n += 1
        if rd_valid and not x["rd_ready_i"]:
            self.cov("rd_ready low")
        rsp_pop = bool(rsp_valid and x["rsp_ready_i"])
        if rsp_valid and not x["rsp_ready_i"]:
            self.cov("rsp_ready low")
        if m.w_done and m.r_done:
            self.cov("write and read response both waiting")
        if req and self.gnt_prev:
            self.cov("REQ right after GNT")
        if req and (not self.req_prev or self.gnt_prev):
            self.req_since = c                       # a new command on REQ
        if err & 2 and m.w_fly and m.w_fly[0].beats:
            self.cov("beats dropped (ERR)")
        # ---- the edge
        w_ans, r_ans, dropped = m.edge(
            fire=fire, long=long, push=push, w_resp=bool(resp & 2), w_err=bool(err & 2),
            r_resp=bool(resp & 1), r_err=bool(err & 1), rdata=x["m_asbus_rdata"],
            rd_pop=rd_pop, rsp_pop=rsp_pop, gnt=gnt)
        if dropped:
            self.cov("beats dropped (local)", dropped)
        progress = bool(fire or push or resp or err or rd_pop or rsp_pop or gnt)
        if fire is not None:
            fire.accepted = c
            self.idx = fire.idx
            self.open.append(fire)
            self.cur = None
            self.next_cmd = c + 1 + self._gap(self.p["gap"])
            kind = "local refusal" if fire.local else "accepted"
            self.cov(f"{kind} {'write' if fire.wr else 'read'}")
        if push is not None:
            self.wcur = None
            self.next_beat = c + 1 + self._gap(self.p["beat_gap"])
        for ans in (w_ans, r_ans):
            if ans is not None:
                self._answered(ans)
        self.req_prev, self.gnt_prev = req, gnt
        if progress:
            self.progress = c
        self._watch()

    def _gap(self, p: float) -> int:
        if p == 0.0 or self.rng.random() >= p:
            return 0
        return self.rng.randint(1, 3) if self.rng.random() < 0.8 else self.rng.randint(4, 40)

    def _answered(self, c: UCmd) -> None:
        """A response handshake: the command's, once, with the documented error flag;
        a write's bus beats were the user's, a read's beats all delivered."""
        c.answered = self.cycle
        oldest = next((o for o in self.open if o.wr == c.wr), None)
        if oldest is not c:
            self.fail(f"answered out of order: the oldest open {'write' if c.wr else 'read'} "
                      f"is {f'transaction {oldest.idx}' if oldest else 'none'}", c)
        self.open.remove(c)
        want_err = c.local or c.refuse
        if bool(c.err) != want_err:
            self.fail(f"answered with error {c.err}, expected {want_err} "
                      f"({'local' if c.local else 'slave ERR' if c.refuse else 'done'})", c)
        if not c.local and c.granted < 0:
            self.fail("answered but never granted", c)
        if want_err and not c.local and c.bus_n:
            self.fail(f"refused after {c.bus_n} beats", c)
        if c.local and c.granted >= 0:
            self.fail("refused locally but put on the bus", c)
        if c.refuse and not c.local:
            self.cov(f"slave ERR {'write' if c.wr else 'read'}")

    def _watch(self) -> None:
        """Hang detector: no handshake of any kind for HANG cycles while something is
        pending, or a command older than HANG_REQ cycles."""
        c = self.cycle
        pending = self.cur is not None or self.wcur is not None or self.open or self.model.rbuf
        if pending and c - self.progress > HANG:
            waits = []
            if self.cur is not None:
                waits.append(f"cmd_valid_i since {self.cur.presented}")
            if self.wcur is not None:
                waits.append(f"wr_valid_i since {self.wcur_since}")
            if self.model.slot is not None:
                waits.append("REQ without GNT")
            if self.open:
                waits.append(f"{len(self.open)} commands unanswered")
            self.fail(f"hang: no handshake for {HANG} cycles ({', '.join(waits)})",
                      self.open[0] if self.open else self.cur)
        if self.cur is not None and c - self.cur.presented > HANG_REQ:
            self.fail(f"not accepted in {HANG_REQ} cycles", self.cur)
        if self.open and c - self.open[0].accepted > HANG_REQ:
            self.fail(f"not answered in {HANG_REQ} cycles", self.open[0])

    # -------------------------------------------------------------- end
    def finish(self) -> None:
        m = self.model
        if not m.idle():
            self.fail("not idle at the end")
        for c in self.all:
            if c.answered < 0:
                self.fail("never answered", c)
            if not c.err and (c.bus_n, c.m_taken) != (c.beats, c.beats):
                self.fail(f"{c.bus_n} beats on the bus, {c.m_taken} seen by the master", c)
            if not c.wr and not c.err and c.user_n != c.beats:
                self.fail(f"{c.user_n} read beats delivered to the user", c)
        h = self.h
        for name in ("rd_valid_o", "rsp_valid_o", "m_asbus_req", "m_asbus_wd_vld"):
            if int(h[name].value):
                self.fail(f"{name} high when idle")


async def run_masters(dut: Any, prefixes: tuple[str, ...], n: int, seed: int) -> None:
    variants = [v for v in VARIANTS if v.prefix in prefixes]
    per = -(-n // len(variants))
    benches = [MasterFuzz(dut, v, seed, per) for v in variants]
    dut._log.info("ASBUS master fuzz: seed %d, %d transactions on %s", seed, per * len(benches),
                  ", ".join(v.prefix.rstrip("_") for v in variants))
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for v in VARIANTS:                       # masters not driven: quiet inputs
        if v.prefix not in prefixes:
            inst = Prefixed(dut, v.prefix)
            for name in _IN:
                getattr(inst, name).value = 0
    for b in benches:
        for name in _IN:
            b._set(name, 0)
        b.new_epoch()
    dut.rst_ni.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    cycle = 0
    while any(b.busy() for b in benches):
        await RisingEdge(dut.clk_i)
        cycle += 1
        for b in benches:
            b.drive(cycle)
        await FallingEdge(dut.clk_i)
        for b in benches:
            b.sample()
    for _ in range(3):
        await RisingEdge(dut.clk_i)
        cycle += 1
        for b in benches:
            b.drive(cycle)
        await FallingEdge(dut.clk_i)
        for b in benches:
            b.sample()
    for b in benches:
        b.finish()
        dut._log.info("%s: seed %d, %d transactions, %d cycles; %s", b.v.prefix.rstrip("_"),
                      b.seed, b.idx, cycle, b.cov)
        b.cov.require(COVER, f"seed {b.seed}, {b.v.prefix.rstrip('_')}")


@cocotb.test()
async def cocotb_asbus_master_fuzz(dut: Any) -> None:
    """The 32-bit masters (make test)."""
    n, seed = settings(default_seed=1)
    await run_masters(dut, FAST, n, seed)


@cocotb.test()
async def cocotb_asbus_master_fuzz_all(dut: Any) -> None:
    """All four masters, 32 to 128 bits (the slow variant)."""
    n, seed = settings(default_seed=2, default_n=N_SLOW)
    await run_masters(dut, tuple(v.prefix for v in VARIANTS), n, seed)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, n: int, seed: int) -> None:
    """Run ``testcase`` with ``n`` commands and ``seed`` (one build for all tests)."""
    vlt, sv = _wrapper()
    run_fuzz(toplevel=TOP, sources=[vlt, *SOURCES, sv], test_module="test_asbus_master_fuzz",
             test_dir=HERE, testcase=testcase, n=n, seed=seed,
             build_args=("--no-public-flat-rw", "-CFLAGS", "-O0"))


def test_asbus_master_fuzz() -> None:
    """3,000 random commands over the two 32-bit masters."""
    _run("cocotb_asbus_master_fuzz", *settings(default_seed=1, default_n=N_FAST))


@pytest.mark.slow
def test_asbus_master_fuzz_long() -> None:
    """100,000 random commands over all four masters (32, 64, 128 bits)."""
    _run("cocotb_asbus_master_fuzz_all", *settings(default_seed=2, default_n=N_SLOW))
