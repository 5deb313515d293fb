"""cocotb bench for ADAM (``ak_adam``): ASBUS masters, the MBUS processor, wait states.

One clocked loop owns every input of the DUT. Each cycle it drives the inputs right
after the rising edge and samples the outputs at the falling edge, so what it sees at
the falling edge of cycle ``n`` (the interval after rising edge ``n``) decides what
happens at edge ``n + 1``.

Master behaviour (the ASBUS rules, docs/asbus.md):

* command: REQ with ADDR/WR/LEN held until GNT is seen; the command was taken at the
  edge before GNT; the next command (if any) is driven in the cycle after GNT;
* write data: WDATA/WD_VLD carry the oldest granted write beat not yet taken and are
  held until RESP[1] is seen (the slave inserts wait states by keeping it low);
* read data: RDATA is taken in every cycle RESP[0] is high;
* ERR[1] / ERR[0]: the oldest granted write / read command was refused, no data.

Every command records the cycle its REQ first went up, its GNT cycle, the cycles of
its first and last data beats (or its ERR), so the tests measure cycles exactly.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Event, FallingEdge, RisingEdge

from aeskit.asbus.model import AsbusCommand, DamModel
from aeskit.model import expand_key

__all__ = ["AdamTB", "IssuedCommand", "MasterState", "MbusAccess"]

#: the DUT inputs the loop drives
_INPUTS = ("s_asbus_req", "s_asbus_addr", "s_asbus_wr", "s_asbus_len", "s_asbus_wd_vld",
           "s_asbus_wdata", "s_mbus_sel", "s_mbus_wr", "s_mbus_addr", "s_mbus_wdata", "wait_i")


@dataclass
class IssuedCommand:
    """A command with what happened to it on the bus."""

    cmd: AsbusCommand
    beats: int
    start_after: int = 0               # do not raise REQ before this cycle
    after: IssuedCommand | None = None  # ... nor before this command is done
    req_cycle: int | None = None
    gnt_cycle: int | None = None
    first_cycle: int | None = None     # cycle of the first data beat (taken or returned)
    done_cycle: int | None = None
    error: bool = False
    rdata: list[int] = field(default_factory=list)
    taken: int = 0                     # write beats taken
    on_done: Callable[[IssuedCommand], None] | None = None   # called once, when done

    @property
    def done(self) -> bool:
        return self.done_cycle is not None

    def finish(self, cycle: int, error: bool = False) -> None:
        self.error, self.done_cycle = error, cycle
        if self.on_done is not None:
            self.on_done(self)


@dataclass
class MbusAccess:
    """One queued MBUS access; ``cycle`` once driven, ``rdata`` once a read returned."""

    wr: bool
    addr: int
    data: int = 0
    cycle: int | None = None
    rdata: int | None = None

    @property
    def done(self) -> bool:
        return self.cycle is not None and (self.wr or self.rdata is not None)


@dataclass
class MasterState:
    index: int
    pending: deque = field(default_factory=deque)   # not yet granted
    writes: deque = field(default_factory=deque)    # granted writes with beats left
    reads: deque = field(default_factory=deque)     # granted reads with beats left
    current: IssuedCommand | None = None            # command on REQ
    gnt_seen: bool = False


class AdamTB:
    """Drive ``ak_adam`` with ``masters`` ASBUS masters and an MBUS processor."""

    def __init__(self, dut, *, masters: int = 2, wait_prob: tuple[float, float] = (0.0, 0.0),
                 seed: int = 1, mem_bytes: int = 256) -> None:
        self.dut = dut
        self.mem_bytes = mem_bytes
        self.width = int(dut.DataWidth.value) if hasattr(dut, "DataWidth") else len(dut.s_asbus_rdata)
        self.nb = self.width // 8
        self.n = masters
        self.m = [MasterState(i) for i in range(masters)]
        self.cycle = 0
        self.wait_prob = wait_prob
        self.rng = random.Random(seed)
        self.mbus_q: deque = deque()
        self.mbus_rdata: list[int] = []
        self._mbus_reads: deque[MbusAccess] = deque()   # MBUS reads driven, data pending
        self.errors: list[str] = []
        self.wait_cycles = [0, 0]
        self.reset_done = Event()              # set once reset is released
        self._driven: dict[str, int] = {}      # last value written to each input

    # ------------------------------------------------------------------ set-up
    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.rst_ni.value = 0
        d.s_asbus_req.value = 0
        d.s_asbus_addr.value = 0
        d.s_asbus_wr.value = 0
        d.s_asbus_len.value = 0
        d.s_asbus_wd_vld.value = 0
        d.s_asbus_wdata.value = 0
        d.s_mbus_sel.value = 0
        d.s_mbus_wr.value = 0
        d.s_mbus_addr.value = 0
        d.s_mbus_wdata.value = 0
        d.wait_i.value = 0
        self._driven = dict.fromkeys(_INPUTS, 0)
        self._handles = {n: getattr(d, n) for n in _INPUTS}
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)
        self.reset_done.set()
        cocotb.start_soon(self._loop())

    # ------------------------------------------------------------------ MBUS
    def mbus_write(self, addr: int, data: int) -> MbusAccess:
        acc = MbusAccess(True, addr, data)
        self.mbus_q.append(acc)
        return acc

    def mbus_read(self, addr: int) -> MbusAccess:
        """Queue a read; its data go to ``mbus_rdata`` (in order) and the access."""
        acc = MbusAccess(False, addr)
        self.mbus_q.append(acc)
        return acc

    def configure(self, model: DamModel) -> None:
        """Queue the MBUS writes that put ``model``'s key, pitch and CTRL in the DUT."""
        words = b"".join(expand_key(model.key))
        for i in range(44):
            self.mbus_write(0x40 + 4 * i, int.from_bytes(words[4 * i:4 * i + 4], "big"))
        self.mbus_write(0x04, model.pitch)
        self.mbus_write(0x00, int(model.dec_en) | (int(model.enc_en) << 1))

    async def mbus_idle(self) -> None:
        while self.mbus_q or self._mbus_reads:
            await RisingEdge(self.dut.clk_i)
        await RisingEdge(self.dut.clk_i)

    # ------------------------------------------------------------------ ASBUS
    def issue(self, master: int, cmd: AsbusCommand, beats: int, *, start_after: int = 0,
              after: IssuedCommand | None = None,
              on_done: Callable[[IssuedCommand], None] | None = None) -> IssuedCommand:
        ic = IssuedCommand(cmd, beats, start_after=start_after, after=after, on_done=on_done)
        self.m[master].pending.append(ic)
        return ic

    def busy(self) -> bool:
        return any(m.pending or m.writes or m.reads or m.current for m in self.m)

    async def drain(self, timeout: int = 20000) -> None:
        start = self.cycle
        while self.busy():
            await RisingEdge(self.dut.clk_i)
            if self.cycle - start > timeout:
                raise AssertionError(f"ASBUS traffic not finished after {timeout} cycles")
            if self.errors:
                raise AssertionError("; ".join(self.errors))
        if self.errors:
            raise AssertionError("; ".join(self.errors))

    # ------------------------------------------------------------------ the loop
    def _slice(self, sig, i: int, w: int) -> int:
        return (int(sig.value) >> (i * w)) & ((1 << w) - 1)

    async def _loop(self) -> None:
        d = self.dut
        while True:
            # ---- sample the cycle that is ending
            await FallingEdge(d.clk_i)
            gnt = int(d.s_asbus_gnt.value)
            resp = int(d.s_asbus_resp.value)
            err = int(d.s_asbus_err.value)
            rdata = int(d.s_asbus_rdata.value) if (resp & int("01" * self.n, 2)) else 0
            # MBUS read data: registered, valid the cycle after the read
            if self._mbus_reads and self._mbus_reads[0].cycle == self.cycle - 1:
                acc = self._mbus_reads.popleft()
                acc.rdata = int(d.s_mbus_rdata.value)
                self.mbus_rdata.append(acc.rdata)
            for ms in self.m:
                i = ms.index
                if ms.current is not None and (gnt >> i) & 1:
                    ic = ms.current
                    ic.gnt_cycle = self.cycle
                    (ms.writes if ic.cmd.wr else ms.reads).append(ic)
                    ms.current = None
                if (resp >> (2 * i + 1)) & 1:
                    if not ms.writes:
                        self.errors.append(f"cycle {self.cycle}: RESP[1] to master {i} "
                                           "without a write")
                    else:
                        ic = ms.writes[0]
                        ic.taken += 1
                        if ic.taken == 1:
                            ic.first_cycle = self.cycle
                        if ic.taken == ic.beats:
                            ms.writes.popleft()
                            ic.finish(self.cycle)
                if (err >> (2 * i + 1)) & 1:
                    if not ms.writes or ms.writes[0].taken:
                        self.errors.append(f"cycle {self.cycle}: ERR[1] to master {i} "
                                           "without a fresh write")
                    else:
                        ms.writes.popleft().finish(self.cycle, error=True)
                if (resp >> (2 * i)) & 1:
                    if not ms.reads:
                        self.errors.append(f"cycle {self.cycle}: RESP[0] to master {i} "
                                           "without a read")
                    else:
                        ic = ms.reads[0]
                        ic.rdata.append(rdata)
                        if len(ic.rdata) == 1:
                            ic.first_cycle = self.cycle
                        if len(ic.rdata) == ic.beats:
                            ms.reads.popleft()
                            ic.finish(self.cycle)
                if (err >> (2 * i)) & 1:
                    if not ms.reads or ms.reads[0].rdata:
                        self.errors.append(f"cycle {self.cycle}: ERR[0] to master {i} "
                                           "without a fresh read")
                    else:
                        ms.reads.popleft().finish(self.cycle, error=True)
            # ---- drive the next cycle
            await RisingEdge(d.clk_i)
            self.cycle += 1
            req = addr = wr = ln = vld = wdata = 0
            for ms in self.m:
                i = ms.index
                if ms.current is None and ms.pending:
                    nxt = ms.pending[0]
                    if self.cycle >= nxt.start_after and (nxt.after is None or nxt.after.done):
                        ms.current = ms.pending.popleft()
                        ms.current.req_cycle = self.cycle
                if ms.current is not None:
                    c = ms.current.cmd
                    req |= 1 << i
                    addr |= c.addr << (32 * i)
                    wr |= int(c.wr) << i
                    ln |= c.len12 << (12 * i)
                if ms.writes:
                    ic = ms.writes[0]
                    c = ic.cmd
                    wdata |= c.data[ic.taken] << (self.width * i)
                    v = c.vld[ic.taken] if c.vld else (1 << self.nb) - 1
                    vld |= v << (self.nb * i)
            drive = self._drive
            drive("s_asbus_req", req)
            drive("s_asbus_addr", addr)
            drive("s_asbus_wr", wr)
            drive("s_asbus_len", ln)
            drive("s_asbus_wdata", wdata)
            drive("s_asbus_wd_vld", vld)
            w = 0
            for bit in (0, 1):
                if self.wait_prob[bit] and self.rng.random() < self.wait_prob[bit]:
                    w |= 1 << bit
                    self.wait_cycles[bit] += 1
            drive("wait_i", w)
            if self.mbus_q:
                acc = self.mbus_q.popleft()
                acc.cycle = self.cycle
                drive("s_mbus_sel", 1)
                drive("s_mbus_wr", int(acc.wr))
                drive("s_mbus_addr", acc.addr)
                drive("s_mbus_wdata", acc.data)
                if not acc.wr:
                    self._mbus_reads.append(acc)
            else:
                drive("s_mbus_sel", 0)
                drive("s_mbus_wr", 0)

    def _drive(self, name: str, value: int) -> None:
        """Write an input only when it changes (most inputs hold most cycles)."""
        if self._driven.get(name) != value:
            self._driven[name] = value
            self._handles[name].value = value
