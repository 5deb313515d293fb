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

Every command records the cycle its REQ first went up, its GNT cycle, and the cycle
of its last data beat (or its ERR), so the tests measure cycles exactly.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.asbus.model import AsbusCommand, DamModel
from aeskit.model import expand_key

__all__ = ["AdamTB", "IssuedCommand", "MasterState"]


@dataclass
class IssuedCommand:
    """A command with what happened to it on the bus."""

    cmd: AsbusCommand
    beats: int
    start_after: int = 0               # do not raise REQ before this cycle
    after: IssuedCommand | None = None  # ... nor before this command is done
    req_cycle: int | None = None
    gnt_cycle: int | None = None
    done_cycle: int | None = None
    error: bool = False
    rdata: list[int] = field(default_factory=list)
    taken: int = 0                     # write beats taken

    @property
    def done(self) -> bool:
        return self.done_cycle is not None


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
                 seed: int = 1) -> None:
        self.dut = dut
        self.width = int(dut.W.value) if hasattr(dut, "W") else len(dut.s_asbus_rdata)
        self.nb = self.width // 8
        self.n = masters
        self.m = [MasterState(i) for i in range(masters)]
        self.cycle = 0
        self.wait_prob = wait_prob
        self.rng = random.Random(seed)
        self.mbus_q: deque = deque()
        self.mbus_rdata: list[int] = []
        self._mbus_reads: deque = deque()   # cycles in which an MBUS read was driven
        self.errors: list[str] = []
        self.wait_cycles = [0, 0]

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
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)
        cocotb.start_soon(self._loop())

    # ------------------------------------------------------------------ MBUS
    def mbus_write(self, addr: int, data: int) -> None:
        self.mbus_q.append((True, addr, data))

    def mbus_read(self, addr: int) -> None:
        self.mbus_q.append((False, addr, 0))

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
              after: IssuedCommand | None = None) -> IssuedCommand:
        ic = IssuedCommand(cmd, beats, start_after=start_after, after=after)
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
            if self._mbus_reads and self._mbus_reads[0] == self.cycle - 1:
                self._mbus_reads.popleft()
                self.mbus_rdata.append(int(d.s_mbus_rdata.value))
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
                        if ic.taken == ic.beats:
                            ic.done_cycle = self.cycle
                            ms.writes.popleft()
                if (err >> (2 * i + 1)) & 1:
                    if not ms.writes or ms.writes[0].taken:
                        self.errors.append(f"cycle {self.cycle}: ERR[1] to master {i} "
                                           "without a fresh write")
                    else:
                        ic = ms.writes.popleft()
                        ic.error, ic.done_cycle = True, self.cycle
                if (resp >> (2 * i)) & 1:
                    if not ms.reads:
                        self.errors.append(f"cycle {self.cycle}: RESP[0] to master {i} "
                                           "without a read")
                    else:
                        ic = ms.reads[0]
                        ic.rdata.append(rdata)
                        if len(ic.rdata) == ic.beats:
                            ic.done_cycle = self.cycle
                            ms.reads.popleft()
                if (err >> (2 * i)) & 1:
                    if not ms.reads or ms.reads[0].rdata:
                        self.errors.append(f"cycle {self.cycle}: ERR[0] to master {i} "
                                           "without a fresh read")
                    else:
                        ic = ms.reads.popleft()
                        ic.error, ic.done_cycle = True, self.cycle
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
            d.s_asbus_req.value = req
            d.s_asbus_addr.value = addr
            d.s_asbus_wr.value = wr
            d.s_asbus_len.value = ln
            d.s_asbus_wdata.value = wdata
            d.s_asbus_wd_vld.value = vld
            w = 0
            for bit in (0, 1):
                if self.wait_prob[bit] and self.rng.random() < self.wait_prob[bit]:
                    w |= 1 << bit
                    self.wait_cycles[bit] += 1
            d.wait_i.value = w
            if self.mbus_q:
                is_wr, a, v = self.mbus_q.popleft()
                d.s_mbus_sel.value = 1
                d.s_mbus_wr.value = int(is_wr)
                d.s_mbus_addr.value = a
                d.s_mbus_wdata.value = v
                if not is_wr:
                    self._mbus_reads.append(self.cycle)
            else:
                d.s_mbus_sel.value = 0
                d.s_mbus_wr.value = 0
