"""ak_asbus_master (RTL ASBUS master endpoint) on Verilator, RTL on both sides of the bus.

The bench top ``ak_asbus_master_tb.sv`` (hw/bench/asbus_master_tb) puts two ``ak_asbus_master`` in front of one
``ak_adam`` (N = 2); master 0 has the higher priority. The masters get different
buffers (:data:`MASTERS`) so that credits and local refusals are exercised on both
directions. At 32, 64 and 128 bits (one build per width, all cocotb tests in it):

* the paper's cases (40-word linear, 10 x 4-word block, 10 AES states; written by
  master 0, read back by master 1): data and memory against
  :class:`aeskit.asbus.model.DamModel`, and the cycles exactly: on the bus the same as
  the Python bus-functional model (:func:`aeskit.asbus.cases.expected_asbus_cycles`,
  REQ in the cycle the command is accepted), on the user side one cycle more (the read
  buffer: the last beat is on ``rd_data_o`` the cycle after RDATA);
* back-to-back commands: REQ every second cycle (REQ t, GNT t+1, next REQ t+2) and the
  write beats of consecutive commands without a gap, as the BFM;
* random traffic on both masters: random modes, lengths, addresses, byte valids, gaps
  on the command and write streams, random ``rd_ready_i`` / ``rsp_ready_i`` and ADAM
  wait states, commands the slave refuses and commands longer than a buffer (refused
  locally); checked every cycle: at most ``Outstanding`` commands per direction, read
  credits (reserved + buffered beats <= RdDepth), no write REQ before all its beats are
  buffered; at the end: every bus command equals its user command, every write beat
  taken on the bus is the user's beat of that command (the beats of refused writes are
  dropped, nothing shifts), responses in order per direction with the right error
  flag, every read beat (and ``rd_last_o``) and the final memory against the model
  replayed in grant order; bypass, then with the AES engines on;
* refusals: a read longer than RdDepth answered with an error in the next cycle and
  never on the bus (after the reads before it, if any), a write longer than WrDepth
  and a write the slave refuses: their beats are consumed and dropped, the next write
  is intact.

The file is both the pytest module and the cocotb test module (``cocotb_*``); the
pytest side also checks the bad parameters and Yosys ``read_slang``.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from aeskit.asbus.bench import adam_backdoor_dump, check_mem
from aeskit.asbus.bench_build import ADAM_BENCH_ARGS
from aeskit.asbus.cases import TESTS, expected_asbus_cycles, paper_case
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, AsbusCommand, DamModel,
                                ProtocolError, encode_len, random_legal_command)
from aeskit.asbus.tb import AdamTB, MbusAccess
from aeskit.hw.manifest import sim_sources, sources

HERE = Path(__file__).resolve().parent
#: the bench top (hw/bench/asbus_master_tb) with ADAM's and its own Verilator configuration
SOURCES = sim_sources("aeskit:bench:asbus_master_tb")
#: ak_asbus_master alone in compile order
MASTER_SOURCES = sources("aeskit:bus:asbus_master")
#: (Outstanding, RdDepth, WrDepth) of master 0 and master 1 (bench parameters)
MASTERS = ((4, 16, 64), (2, 64, 16))
MEM = 256
#: cycles after the last write beat until the decrypting engine has written its last
#: plaintext (as tests/hw/systems/adam/test_adam.py)
DRAIN_CYCLES = 64
#: cycles the RTL master adds on the user side of a read: RDATA in cycle c is on
#: rd_data_o in c + 1 (read buffer); the command side adds none
READ_BUFFER_CYCLES = 1


def beats_of(width: int, len12: int) -> int:
    """Beats of a command as the master counts them (reserved mode: none)."""
    if (len12 >> 10) == 3:
        return 0
    return DamModel(width).beats(len12)


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
@dataclass
class UCmd:
    """A command on one master's user side, and what happened to it."""

    cmd: AsbusCommand
    beats: int
    local: bool                 # longer than the master's buffer: refused, no bus cycle
    gap: int = 0                # idle cycles before cmd_valid_i rises
    at: int = 0                 # ... and not before this cycle
    present: int | None = None  # cycle cmd_valid_i rose
    accept: int | None = None   # cycle of the handshake
    req: int | None = None      # first cycle on REQ
    gnt: int | None = None
    bus_done: int | None = None  # last RESP beat or ERR
    bus_err: bool = False
    bus_beats: list[int] = field(default_factory=list)   # WDATA | WD_VLD << W, or RDATA
    rsp: int | None = None      # response handshake cycle
    rsp_err: bool | None = None
    rdata: list[int] = field(default_factory=list)       # user side, filled at the end
    rlast: list[bool] = field(default_factory=list)
    last_rd: int | None = None  # cycle of the last user read beat


class Port:
    """One master's user side (what the bench drives) and its bookkeeping."""

    def __init__(self, index: int, outstanding: int, rd_depth: int, wr_depth: int) -> None:
        self.i = index
        self.out, self.rd_depth, self.wr_depth = outstanding, rd_depth, wr_depth
        self.pending: deque[UCmd] = deque()
        self.cur: UCmd | None = None
        self.cur_from = 0
        self.wq: deque[tuple[int, int, int]] = deque()   # (data, strb, gap)
        self.wcur: tuple[int, int, int] | None = None
        self.wcur_from = 0
        self.pushed = 0
        self.cmds: list[UCmd] = []           # accepted, in order
        self.w_cum: dict[int, int] = {}      # id(write) -> its beats + all before it
        self.w_total = 0
        self.bus_wait: deque[UCmd] = deque()  # accepted bus commands not yet granted
        self.bus_w: deque[UCmd] = deque()     # granted writes, not finished on the bus
        self.bus_r: deque[UCmd] = deque()
        self.rsp_w: deque[UCmd] = deque()     # accepted, waiting for their response
        self.rsp_r: deque[UCmd] = deque()
        self.rd_user: list[tuple[int, bool, int]] = []
        self.rd_res = 0                       # read beats reserved (credits)
        self.rd_buf = 0                       # read beats received, not popped
        self.p_rd = 1.0
        self.p_rsp = 1.0
        # coverage, logged by the random test
        self.stalls = 0                       # cycles with cmd_valid_i and not cmd_ready_o
        self.max_rd = 0                       # most read beats reserved + buffered
        self.max_out = 0                      # most commands of one direction outstanding

    def issue(self, uc: UCmd) -> UCmd:
        self.pending.append(uc)
        return uc

    def push(self, data: int, strb: int, gap: int = 0) -> None:
        self.wq.append((data, strb, gap))

    def busy(self) -> bool:
        return bool(self.pending or self.cur or self.wq or self.wcur or self.rsp_w
                    or self.rsp_r or self.rd_buf)


_INPUTS = ("cmd_valid_i", "cmd_addr_i", "cmd_wr_i", "cmd_len_i", "wr_valid_i", "wr_data_i",
           "wr_strb_i", "rd_ready_i", "rsp_ready_i", "s_mbus_sel", "s_mbus_wr", "s_mbus_addr",
           "s_mbus_wdata", "wait_i")


class MasterTB:
    """Drives the user side of both RTL masters, ADAM's MBUS and wait states; watches
    the ASBUS nets between the masters and ADAM. One clocked loop: inputs driven after
    the rising edge, everything sampled at the falling edge (as aeskit.asbus.tb)."""

    #: MBUS set-up of a model (key words, PITCH, CTRL): AdamTB's, over mbus_write below
    configure = AdamTB.configure

    def __init__(self, dut, width: int, seed: int = 1, wait: float = 0.0) -> None:
        self.dut = dut
        self.width, self.nb = width, width // 8
        self.ports = [Port(i, *MASTERS[i]) for i in range(2)]
        self.rng = random.Random(seed)
        self.wait = wait
        self.cycle = 0
        self.errors: list[str] = []
        self.grants: list[tuple[int, int, UCmd]] = []   # (cycle, master, command)
        self.mbus_q: deque[MbusAccess] = deque()
        self.wait_cycles = 0

    # -------------------------------------------------------------- set-up, MBUS
    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.rst_ni.value = 0
        self._h = {n: getattr(d, n) for n in _INPUTS}
        for h in self._h.values():
            h.value = 0
        self._driven = dict.fromkeys(_INPUTS, 0)
        self._o = {n: getattr(d, n) for n in (
            "cmd_ready_o", "wr_ready_o", "rd_valid_o", "rd_data_o", "rd_last_o", "rsp_valid_o",
            "rsp_wr_o", "rsp_err_o", "asbus_req", "asbus_gnt", "asbus_addr", "asbus_wr",
            "asbus_len", "asbus_wd_vld", "asbus_wdata", "asbus_rdata", "asbus_resp",
            "asbus_err")}
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)
        cocotb.start_soon(self._loop())

    def mbus_write(self, addr: int, data: int) -> MbusAccess:
        acc = MbusAccess(True, addr, data)
        self.mbus_q.append(acc)
        return acc

    async def setup(self, model: DamModel) -> None:
        self.configure(model)
        while self.mbus_q:
            await RisingEdge(self.dut.clk_i)
        await RisingEdge(self.dut.clk_i)

    # -------------------------------------------------------------- traffic
    def ucmd(self, master: int, cmd: AsbusCommand, gap: int = 0) -> UCmd:
        """Queue a command (and, for a write, its beats with no gaps); return it."""
        p = self.ports[master]
        beats = beats_of(self.width, cmd.len12)
        uc = UCmd(cmd, beats, beats > (p.wr_depth if cmd.wr else p.rd_depth), gap)
        return p.issue(uc)

    async def drain(self, timeout: int = 50000) -> None:
        start = self.cycle
        while any(p.busy() for p in self.ports):
            await RisingEdge(self.dut.clk_i)
            if self.errors:
                raise AssertionError("; ".join(self.errors[:5]))
            if self.cycle - start > timeout:
                raise AssertionError(f"traffic not finished after {timeout} cycles")
        await RisingEdge(self.dut.clk_i)
        await FallingEdge(self.dut.clk_i)
        assert not int(self.dut.rd_valid_o.value), "read beats nobody asked for"
        assert not int(self.dut.rsp_valid_o.value), "responses nobody asked for"
        if self.errors:
            raise AssertionError("; ".join(self.errors[:5]))

    def _err(self, msg: str) -> None:
        self.errors.append(f"cycle {self.cycle}: {msg}")

    # -------------------------------------------------------------- the loop
    async def _loop(self) -> None:
        d, w, nb = self.dut, self.width, self.nb
        o = self._o
        drv: dict[str, int] = {}
        while True:
            await FallingEdge(d.clk_i)
            c = self.cycle
            cmd_ready = int(o["cmd_ready_o"].value)
            wr_ready = int(o["wr_ready_o"].value)
            rd_valid = int(o["rd_valid_o"].value)
            rsp_valid = int(o["rsp_valid_o"].value)
            req = int(o["asbus_req"].value)
            gnt = int(o["asbus_gnt"].value)
            resp = int(o["asbus_resp"].value)
            err = int(o["asbus_err"].value)
            rd_data = int(o["rd_data_o"].value) if rd_valid else 0
            rd_last = int(o["rd_last_o"].value) if rd_valid else 0
            if rsp_valid:
                rsp_wr, rsp_err = int(o["rsp_wr_o"].value), int(o["rsp_err_o"].value)
            if gnt:
                b_addr, b_wr = int(o["asbus_addr"].value), int(o["asbus_wr"].value)
                b_len = int(o["asbus_len"].value)
            if resp & 0b1010:
                b_wdata, b_vld = int(o["asbus_wdata"].value), int(o["asbus_wd_vld"].value)
            if resp & 0b0101:
                b_rdata = int(o["asbus_rdata"].value)
            for p in self.ports:
                i = p.i
                # grant: the command on REQ was taken at the previous edge
                if (gnt >> i) & 1:
                    if not p.bus_wait:
                        self._err(f"GNT to master {i} without a command")
                        continue
                    uc = p.bus_wait.popleft()
                    uc.gnt = c
                    got = ((b_addr >> (32 * i)) & 0xFFFFFFFF, (b_wr >> i) & 1,
                           (b_len >> (12 * i)) & 0xFFF)
                    want = (uc.cmd.addr, int(uc.cmd.wr), uc.cmd.len12)
                    if got != want:
                        self._err(f"master {i}: bus command {got}, user command {want}")
                    if uc.req is None or uc.req >= c:
                        self._err(f"master {i}: GNT in {c}, REQ in {uc.req}")
                    (p.bus_w if uc.cmd.wr else p.bus_r).append(uc)
                    self.grants.append((c, i, uc))
                # command handshake
                if p.cur is not None and c >= p.cur_from and not (cmd_ready >> i) & 1:
                    p.stalls += 1
                if p.cur is not None and c >= p.cur_from and (cmd_ready >> i) & 1:
                    uc, p.cur = p.cur, None
                    uc.accept = c
                    p.cmds.append(uc)
                    if uc.cmd.wr:
                        p.w_total += uc.beats
                        p.w_cum[id(uc)] = p.w_total
                        p.rsp_w.append(uc)
                    else:
                        p.rsp_r.append(uc)
                        if not uc.local:
                            p.rd_res += uc.beats
                    if not uc.local:
                        p.bus_wait.append(uc)
                # REQ: the oldest command not yet granted (the granted one holds REQ in
                # its GNT cycle)
                if (req >> i) & 1 and not (gnt >> i) & 1:
                    if not p.bus_wait:
                        self._err(f"REQ from master {i} without an accepted command")
                    else:
                        uc = p.bus_wait[0]
                        if uc.req is None:
                            uc.req = c
                            if uc.cmd.wr and p.pushed < p.w_cum[id(uc)]:
                                self._err(f"master {i}: write REQ with {p.pushed} beats "
                                          f"pushed, {p.w_cum[id(uc)]} needed")
                # data phases
                if (resp >> (2 * i + 1)) & 1:
                    if not p.bus_w:
                        self._err(f"RESP[1] to master {i} without a write")
                    else:
                        uc = p.bus_w[0]
                        uc.bus_beats.append(((b_wdata >> (w * i)) & ((1 << w) - 1))
                                            | (((b_vld >> (nb * i)) & ((1 << nb) - 1)) << w))
                        if len(uc.bus_beats) == uc.beats:
                            uc.bus_done = c
                            p.bus_w.popleft()
                if (err >> (2 * i + 1)) & 1:
                    if not p.bus_w or p.bus_w[0].bus_beats:
                        self._err(f"ERR[1] to master {i} without a fresh write")
                    else:
                        uc = p.bus_w.popleft()
                        uc.bus_done, uc.bus_err = c, True
                if (resp >> (2 * i)) & 1:
                    if not p.bus_r:
                        self._err(f"RESP[0] to master {i} without a read")
                    else:
                        uc = p.bus_r[0]
                        uc.bus_beats.append(b_rdata)
                        p.rd_res -= 1
                        p.rd_buf += 1
                        if len(uc.bus_beats) == uc.beats:
                            uc.bus_done = c
                            p.bus_r.popleft()
                if (err >> (2 * i)) & 1:
                    if not p.bus_r or p.bus_r[0].bus_beats:
                        self._err(f"ERR[0] to master {i} without a fresh read")
                    else:
                        uc = p.bus_r.popleft()
                        uc.bus_done, uc.bus_err = c, True
                        p.rd_res -= uc.beats
                # user streams
                if p.wcur is not None and c >= p.wcur_from and (wr_ready >> i) & 1:
                    p.wcur = None
                    p.pushed += 1
                if (rd_valid >> i) & 1 and (drv.get("rd_ready_i", 0) >> i) & 1:
                    p.rd_user.append(((rd_data >> (w * i)) & ((1 << w) - 1),
                                      bool((rd_last >> i) & 1), c))
                    p.rd_buf -= 1
                if (rsp_valid >> i) & 1 and (drv.get("rsp_ready_i", 0) >> i) & 1:
                    q = p.rsp_w if (rsp_wr >> i) & 1 else p.rsp_r
                    if not q:
                        self._err(f"master {i}: response without a command")
                    else:
                        uc = q.popleft()
                        uc.rsp, uc.rsp_err = c, bool((rsp_err >> i) & 1)
                # invariants of the master
                p.max_out = max(p.max_out, len(p.rsp_w), len(p.rsp_r))
                p.max_rd = max(p.max_rd, p.rd_res + p.rd_buf)
                if len(p.rsp_w) > p.out or len(p.rsp_r) > p.out:
                    self._err(f"master {i}: more than {p.out} commands outstanding")
                if p.rd_res + p.rd_buf > p.rd_depth:
                    self._err(f"master {i}: {p.rd_res} read beats reserved + {p.rd_buf} "
                              f"buffered > RdDepth {p.rd_depth}")
            # ---- drive the next cycle
            await RisingEdge(d.clk_i)
            self.cycle = c = c + 1
            v = dict.fromkeys(("cmd_valid_i", "cmd_addr_i", "cmd_wr_i", "cmd_len_i",
                               "wr_valid_i", "wr_data_i", "wr_strb_i", "rd_ready_i",
                               "rsp_ready_i"), 0)
            for p in self.ports:
                i = p.i
                if p.cur is None and p.pending:
                    p.cur = p.pending.popleft()
                    p.cur_from = max(c + p.cur.gap, p.cur.at)
                if p.cur is not None and c >= p.cur_from:
                    if p.cur.present is None:
                        p.cur.present = c
                    cm = p.cur.cmd
                    v["cmd_valid_i"] |= 1 << i
                    v["cmd_addr_i"] |= cm.addr << (32 * i)
                    v["cmd_wr_i"] |= int(cm.wr) << i
                    v["cmd_len_i"] |= cm.len12 << (12 * i)
                if p.wcur is None and p.wq:
                    p.wcur = p.wq.popleft()
                    p.wcur_from = c + p.wcur[2]
                if p.wcur is not None and c >= p.wcur_from:
                    v["wr_valid_i"] |= 1 << i
                    v["wr_data_i"] |= p.wcur[0] << (w * i)
                    v["wr_strb_i"] |= p.wcur[1] << (nb * i)
                if p.p_rd >= 1.0 or self.rng.random() < p.p_rd:
                    v["rd_ready_i"] |= 1 << i
                if p.p_rsp >= 1.0 or self.rng.random() < p.p_rsp:
                    v["rsp_ready_i"] |= 1 << i
            if self.wait:
                v["wait_i"] = (int(self.rng.random() < self.wait) << 1) | int(
                    self.rng.random() < self.wait)
                self.wait_cycles += bin(v["wait_i"]).count("1")
            else:
                v["wait_i"] = 0
            if self.mbus_q:
                acc = self.mbus_q.popleft()
                acc.cycle = c
                v.update(s_mbus_sel=1, s_mbus_wr=1, s_mbus_addr=acc.addr, s_mbus_wdata=acc.data)
            else:
                v.update(s_mbus_sel=0, s_mbus_wr=0)
            for name, val in v.items():
                if self._driven.get(name) != val:
                    self._driven[name] = val
                    self._h[name].value = val
            drv = v

    # -------------------------------------------------------------- results
    def finish(self) -> None:
        """Split each master's user read beats over its reads (in order; a refused read
        has none) and check the responses and the write beats taken on the bus."""
        mask = (1 << self.nb) - 1
        for p in self.ports:
            k = 0
            for uc in p.cmds:
                what = f"master {p.i} {'write' if uc.cmd.wr else 'read'} {uc.cmd.addr:#x} " \
                       f"LEN {uc.cmd.len12:#05x}"
                assert uc.rsp is not None, f"{what}: no response"
                if uc.local:
                    assert uc.gnt is None and uc.req is None, f"{what}: on the bus"
                    assert uc.rsp_err, f"{what}: longer than the buffer, not refused"
                    continue
                assert uc.bus_done is not None, f"{what}: not finished on the bus"
                assert uc.rsp_err == uc.bus_err, f"{what}: response error {uc.rsp_err}, " \
                                                 f"bus error {uc.bus_err}"
                assert uc.rsp > uc.bus_done, f"{what}: response before the bus finished"
                if uc.cmd.wr:
                    if not uc.bus_err:
                        want = [d | ((uc.cmd.vld[j] if uc.cmd.vld else mask) << self.width)
                                for j, d in enumerate(uc.cmd.data)]
                        assert uc.bus_beats == want, (
                            f"{what}: beats on the bus differ from the user's, first "
                            f"{[hex(x) for x in uc.bus_beats[:3]]} / {[hex(x) for x in want[:3]]}")
                elif not uc.bus_err:
                    got = p.rd_user[k:k + uc.beats]
                    k += uc.beats
                    uc.rdata = [g[0] for g in got]
                    uc.rlast = [g[1] for g in got]
                    uc.last_rd = got[-1][2] if got else None
                    assert uc.rdata == uc.bus_beats, f"{what}: user beats differ from RDATA"
                    assert uc.rlast == [False] * (uc.beats - 1) + [True], f"{what}: rd_last_o"
            assert k == len(p.rd_user), f"master {p.i}: {len(p.rd_user) - k} read beats too many"


async def _tb(dut, **kw) -> MasterTB:
    tb = MasterTB(dut, len(dut.asbus_rdata), **kw)
    await tb.start()
    return tb


def _push_beats(tb: MasterTB, master: int, uc: UCmd, rng: random.Random | None = None,
                p_gap: float = 0.0) -> None:
    """The write beats of ``uc`` on the master's write stream (random gaps)."""
    cmd = uc.cmd
    for j in range(uc.beats):
        strb = cmd.vld[j] if cmd.vld else (1 << tb.nb) - 1
        gap = rng.randint(1, 4) if rng is not None and rng.random() < p_gap else 0
        tb.ports[master].push(cmd.data[j], strb, gap)


async def _fill(tb: MasterTB, model: DamModel, rng: random.Random) -> None:
    """Known memory: one linear write of all bytes by master 0 (linear: no engine)."""
    n = MEM // tb.nb
    data = [rng.getrandbits(tb.width) for _ in range(n)]
    uc = tb.ucmd(0, AsbusCommand(True, 0, encode_len(MODE_LINEAR, n), data))
    _push_beats(tb, 0, uc)
    await tb.drain()
    tb.finish()
    assert not uc.rsp_err
    dec, model.dec_en = model.dec_en, False
    model.write(0, uc.cmd.len12, data)
    model.dec_en = dec


async def _dump(tb: MasterTB) -> list[int]:
    await ClockCycles(tb.dut.clk_i, DRAIN_CYCLES)
    return adam_backdoor_dump(tb.dut.u_adam, tb.width, MEM)


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_paper_cases(dut) -> None:
    """Sec. 6 cases through the RTL masters: master 0 writes, master 1 reads back. The
    write data are in master 0's buffer first, then both commands are presented in the
    same cycle. Bus cycles exactly as the BFM's (expected_asbus_cycles); user side one
    cycle more (read buffer); responses the cycle after the last beat."""
    tb = await _tb(dut)
    width = tb.width
    for test in TESTS:
        model, wcmd, rcmd = paper_case(test, width, seed=int(os.environ.get("AK_SEED", "0")))
        await tb.setup(model)
        w = UCmd(wcmd, beats_of(width, wcmd.len12), False)
        _push_beats(tb, 0, w)
        while tb.ports[0].wq or tb.ports[0].wcur:
            await RisingEdge(dut.clk_i)
        await RisingEdge(dut.clk_i)
        start = tb.cycle + 2                 # both commands presented in this cycle
        w.at = start
        tb.ports[0].issue(w)
        r = tb.ucmd(1, rcmd)
        r.at = start
        await tb.drain()
        tb.finish()
        assert not w.rsp_err and not r.rsp_err, f"{test} {width}: refused"
        model.write(wcmd.addr, wcmd.len12, wcmd.data)
        want = model.read(rcmd.addr, rcmd.len12)
        assert r.rdata == want, f"{test} {width}: read data differ"
        check_mem(await _dump(tb), model, f"{test} {width}")
        exp_write, exp_whole = expected_asbus_cycles(test, width)
        assert w.present == w.accept == w.req == r.present == r.accept == r.req == start, (
            f"{test}: presented/accepted/REQ write {w.present}/{w.accept}/{w.req}, read "
            f"{r.present}/{r.accept}/{r.req}, expected all {start}")
        bus_write = w.bus_done - w.req + 1
        bus_whole = r.bus_done - w.req + 1
        user_whole = r.last_rd - w.accept + 1
        assert (bus_write, bus_whole) == (exp_write, exp_whole), (
            f"{test} {width}: bus write {bus_write} / whole {bus_whole} cycles, BFM "
            f"{exp_write} / {exp_whole}")
        assert user_whole == exp_whole + READ_BUFFER_CYCLES, (
            f"{test} {width}: user side {user_whole} cycles, expected "
            f"{exp_whole} + {READ_BUFFER_CYCLES}")
        assert (w.rsp, r.rsp) == (w.bus_done + 1, r.bus_done + 1), (
            f"{test}: responses in {w.rsp} / {r.rsp}, last beats {w.bus_done} / {r.bus_done}")
        dut._log.info("%s %d-bit: bus write %d, whole %d cycles (BFM %d / %d); user side %d",
                      test, width, bus_write, bus_whole, exp_write, exp_whole, user_whole)


@cocotb.test()
async def cocotb_back_to_back(dut) -> None:
    """Commands back to back on one master: REQ t, GNT t+1, next REQ t+2, as the BFM;
    the write beats of consecutive commands stream without a gap; so do the reads."""
    tb = await _tb(dut)
    width, nb = tb.width, tb.nb
    model = DamModel(width)
    await tb.setup(model)
    rng = random.Random(5)
    ln = encode_len(MODE_LINEAR, 2)
    # master 0 (Outstanding 4): four 2-beat commands never wait for a response
    writes = []
    for k in range(4):
        cmd = AsbusCommand(True, 2 * nb * k, ln, [rng.getrandbits(width) for _ in range(2)])
        writes.append(tb.ucmd(0, cmd))
        _push_beats(tb, 0, writes[-1])
    # the beats first, then the commands back to back
    tb.ports[0].pending[0].gap = 20
    await tb.drain()
    reads = [tb.ucmd(0, AsbusCommand(False, 2 * nb * k, ln)) for k in range(4)]
    await tb.drain()
    tb.finish()
    for seq, what in ((writes, "write"), (reads, "read")):
        for a, b in zip(seq, seq[1:]):
            assert a.gnt == a.req + 1 and b.req == a.gnt + 1, (
                f"{what}s: REQ/GNT {[(x.req, x.gnt) for x in seq]}, not REQ t, GNT t+1, "
                "next REQ t+2")
        assert seq[0].accept == seq[0].present == seq[0].req
        assert seq[-1].bus_done - seq[0].req + 1 == 2 + 8 + (1 if what == "read" else 0), (
            f"{what}s: first REQ {seq[0].req}, last beat {seq[-1].bus_done}: the beats do "
            "not stream back to back")
    for uc in writes:
        model.write(uc.cmd.addr, uc.cmd.len12, uc.cmd.data)
    for uc in reads:
        assert uc.rdata == model.read(uc.cmd.addr, uc.cmd.len12)


@cocotb.test()
async def cocotb_refusals(dut) -> None:
    """A read longer than RdDepth: error response in the next cycle, never on the bus,
    after the earlier reads' responses if any are outstanding; a write longer than
    WrDepth and a write the slave refuses: beats consumed and dropped, the next write
    intact, memory unchanged by the refused ones."""
    tb = await _tb(dut)
    width, nb = tb.width, tb.nb
    rng = random.Random(7)
    model = DamModel(width)
    await tb.setup(model)
    await _fill(tb, model, rng)
    rd0 = MASTERS[0][1]
    # idle master: accepted at once, error response the next cycle, no REQ
    long_rd = tb.ucmd(0, AsbusCommand(False, 0, encode_len(MODE_LINEAR, rd0 + 1)), gap=3)
    await tb.drain()
    assert long_rd.local and long_rd.present == long_rd.accept, "long read not accepted at once"
    assert long_rd.rsp == long_rd.accept + 1 and long_rd.rsp_err, (
        f"long read: accepted {long_rd.accept}, response {long_rd.rsp} err {long_rd.rsp_err}")
    # behind an outstanding read: answered after it, in order
    tb.ports[0].p_rd = 0.2
    good = tb.ucmd(0, AsbusCommand(False, 0, encode_len(MODE_LINEAR, rd0)))
    long2 = tb.ucmd(0, AsbusCommand(False, 0, encode_len(MODE_STATE, 1024)))
    after = tb.ucmd(0, AsbusCommand(False, nb, encode_len(MODE_LINEAR, 1)))
    await tb.drain()
    tb.ports[0].p_rd = 1.0
    assert good.rsp < long2.rsp < after.rsp and long2.rsp_err and not after.rsp_err
    assert long2.rsp == max(long2.accept, good.rsp) + 1
    # writes: too long for master 1's buffer, refused by the slave (unaligned, beyond
    # memory), each followed by a good write of the same master
    wr1 = MASTERS[1][2]
    bad = [AsbusCommand(True, 0x40, encode_len(MODE_LINEAR, wr1 + 3)),
           AsbusCommand(True, 0x40 + 1, encode_len(MODE_LINEAR, 3)),
           AsbusCommand(True, MEM - nb, encode_len(MODE_LINEAR, 2)),
           AsbusCommand(True, 0x20, 0xC00 | 5)]
    ucs = []
    for k, cmd in enumerate(bad):
        cmd.data = [rng.getrandbits(width) for _ in range(beats_of(width, cmd.len12))]
        goodw = AsbusCommand(True, 0x10 * k, encode_len(MODE_LINEAR, 2),
                             [rng.getrandbits(width) for _ in range(2)])
        for c in (cmd, goodw):
            uc = tb.ucmd(1, c)
            _push_beats(tb, 1, uc, rng, 0.3)
            ucs.append(uc)
    await tb.drain()
    tb.finish()
    assert ucs[0].local and ucs[0].gnt is None
    for uc in ucs:
        c = uc.cmd
        try:
            if uc.local:
                raise ProtocolError("local")
            model.write(c.addr, c.len12, c.data)
            assert not uc.rsp_err, f"write {c.addr:#x} LEN {c.len12:#05x} refused"
        except ProtocolError:
            assert uc.rsp_err, f"write {c.addr:#x} LEN {c.len12:#05x} not refused"
    check_mem(await _dump(tb), model, "after the refused writes")


def _random_command(rng: random.Random, width: int, port: Port) -> AsbusCommand:
    nb = width // 8
    wr = rng.random() < 0.5
    depth = port.wr_depth if wr else port.rd_depth
    x = rng.random()
    if x < 0.04:                         # longer than this master's buffer
        addr, ln = 0, encode_len(MODE_LINEAR, depth + rng.randint(1, 4))
    elif x < 0.14:                       # refused by the slave
        addr, ln = rng.choice((
            (nb * rng.randrange(8) + rng.randint(1, nb - 1), encode_len(MODE_LINEAR,
                                                                         rng.randint(1, 3))),
            (MEM - nb, encode_len(MODE_LINEAR, rng.randint(2, 4))),
            (16 * rng.randrange(4) + 8, encode_len(MODE_STATE, 1)),
            (0, 3 << 10 | rng.randrange(1024)),
            (0, encode_len(MODE_BLOCK, rows=7, words=1)),     # 6 * 48 + nb > 256
        ))
    else:
        addr, ln = random_legal_command(rng, width, MEM, 48)
    return AsbusCommand(wr, addr, ln)


@cocotb.test()
async def cocotb_random_traffic(dut) -> None:
    """Both masters at once, random everything (see the module doc); every bus command,
    write beat, response, read beat and the final memory against the model replayed in
    grant order. Phase 0 bypass, phase 1 with the AES engines on."""
    seed = int(os.environ.get("AK_SEED", "1"))
    n_cmds = int(os.environ.get("AK_COMMANDS", "60"))
    wait = float(os.environ.get("AK_WAIT", "0.3"))
    rng = random.Random(seed)
    tb = await _tb(dut, seed=seed, wait=wait)
    width, nb = tb.width, tb.nb
    for phase in range(2):
        model = DamModel(width, pitch=48, key=rng.randbytes(16), dec_en=bool(phase),
                         enc_en=bool(phase))
        await tb.setup(model)
        await _fill(tb, model, rng)
        tb.grants.clear()
        ucs = []
        for p in tb.ports:
            p.p_rd, p.p_rsp = rng.choice((0.3, 0.7, 1.0)), rng.choice((0.3, 0.7, 1.0))
            for _ in range(n_cmds):
                cmd = _random_command(rng, width, p)
                uc = tb.ucmd(p.i, cmd, gap=rng.choice((0, 0, 0, 1, 2, 5)))
                if cmd.wr:
                    cmd.data = [rng.getrandbits(width) for _ in range(uc.beats)]
                    cmd.vld = [rng.getrandbits(nb) | (rng.random() < 0.5) * ((1 << nb) - 1)
                               for _ in range(uc.beats)]
                    _push_beats(tb, p.i, uc, rng, 0.2)
                ucs.append(uc)
        await tb.drain(timeout=200000)
        tb.finish()
        n_err = n_loc = 0
        for _, _, uc in sorted(tb.grants, key=lambda g: g[0]):
            cmd = uc.cmd
            what = f"{'write' if cmd.wr else 'read'} {cmd.addr:#x} LEN {cmd.len12:#05x}"
            try:
                model.check(cmd.addr, cmd.len12)
            except ProtocolError:
                assert uc.rsp_err and uc.bus_err, f"{what} accepted, the model refuses it"
                n_err += 1
                continue
            assert not uc.rsp_err, f"{what} refused, the model accepts it"
            if cmd.wr:
                model.write(cmd.addr, cmd.len12, cmd.data,
                            None if (cmd.mode == MODE_STATE and model.dec_en) else cmd.vld)
            else:
                want = model.read(cmd.addr, cmd.len12)
                assert uc.rdata == want, (f"{what}: {[hex(x) for x in uc.rdata]} / "
                                          f"{[hex(x) if x is not None else None for x in want]}")
        for uc in ucs:
            assert uc.accept is not None and uc.rsp is not None
            if uc.local:
                n_loc += 1
                assert uc.rsp_err and uc.gnt is None
        assert len(tb.grants) + n_loc == len(ucs)
        check_mem(await _dump(tb), model, f"random phase {phase}")
        dut._log.info("phase %d: %d commands (%d refused by the slave, %d locally), %d wait "
                      "states, cycle %d", phase, len(ucs), n_err, n_loc, tb.wait_cycles, tb.cycle)
        for p in tb.ports:
            dut._log.info("  master %d: %d command stall cycles, up to %d of %d commands "
                          "outstanding, up to %d of %d read beats reserved + buffered", p.i,
                          p.stalls, p.max_out, p.out, p.max_rd, p.rd_depth)


# ----------------------------------------------------------------------------------
# pytest
# ----------------------------------------------------------------------------------
def _params(width: int) -> dict:
    (o0, r0, w0), (o1, r1, w1) = MASTERS
    return {"DataWidth": width, "Out0": o0, "Rd0": r0, "Wr0": w0, "Out1": o1, "Rd1": r1, "Wr1": w1}


def _run(width: int, tests: list[str], **env) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_asbus_master_tb", sources=SOURCES, test_module="test_asbus_master",
               test_dir=HERE, parameters=_params(width), testcase=tests,
               build_args=ADAM_BENCH_ARGS, extra_env={k: str(v) for k, v in env.items()})


# 32 bits in make test; the wider builds (64, 128: 1-2 minutes each) in make test-full
@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow),
                                   pytest.param(128, marks=pytest.mark.slow)])
def test_asbus_master(width: int) -> None:
    _run(width, ["cocotb_paper_cases", "cocotb_back_to_back", "cocotb_refusals",
                 "cocotb_random_traffic"])


@pytest.mark.parametrize("param,value", [("DataWidth", 48), ("Outstanding", 0), ("Outstanding", 17),
                                         ("RdDepth", 48), ("WrDepth", 1), ("RdDepth", 8192)])
def test_bad_parameter_is_refused(param: str, value: int) -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_asbus_master", MASTER_SOURCES, {param: value})
    assert f"{param}={value}" in out, out


def test_yosys_slang_check(tmp_path: Path) -> None:
    """Yosys read_slang accepts the master (default parameters and W = 128)."""
    from aeskit.toolchain.paths import yosys

    for width in (32, 128):
        script = (f"read_slang -j 1 -G DataWidth={width} --top ak_asbus_master "
                  f"{' '.join(map(str, MASTER_SOURCES))}; hierarchy -check -top ak_asbus_master; "
                  "proc; check -assert")
        res = subprocess.run(yosys() + ["-p", script], capture_output=True, text=True,
                             cwd=tmp_path, timeout=600)
        out = res.stdout + res.stderr
        bad = [ln for ln in out.splitlines() if ln.lstrip().startswith(("Warning", "ERROR"))
               or ": warning: " in ln or ": error: " in ln]
        assert res.returncode == 0 and not bad, f"W={width}: yosys\n" + "\n".join(
            bad or out.splitlines()[-30:])
