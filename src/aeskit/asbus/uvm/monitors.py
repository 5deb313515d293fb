"""Passive monitors of the ADAM UVM environment.

Each samples pins at the falling clock edge (the inputs were driven after the rising
edge, the outputs have settled) and knows nothing of the drivers: it rebuilds the
transactions from the protocol alone and writes them to its analysis port ``ap``.

* :class:`AsbusMonitor` -- one master's slice of the ASBUS: a command is the ADDR/WR/LEN
  held with REQ in the cycle before GNT; its write beats are WDATA/WD_VLD in the cycles
  RESP[1] is high, its read beats RDATA in the cycles RESP[0] is high (in command order
  per direction, as the slave answers them); ERR[1] / ERR[0] end the oldest write /
  read without data. Published when the last beat (or ERR) is seen.
* :class:`MbusMonitor` -- MBUS: a write when SEL and WR; a read when SEL and not WR,
  with the data on RDATA the cycle after.
* :class:`MemPhyMonitor` -- the SRAM ports of the memory controller inside ADAM
  (``dut.u_mem``: ``we_i``/``wr_word_i``/``wr_data_i``, ``re_i``/``rd_word_i``/
  ``rd_data_o``): every cycle's write (byte address -> byte, lane ``m`` of word ``w``
  is byte ``w * W/8 + m``) and every read with the data the SRAM returns one cycle
  later. A read of cycle ``c`` is published before the write of cycle ``c`` (the SRAM
  reads the old byte when both hit it at one edge).

Cycle numbers are the bench's count of rising edges (``AdamTB.cycle``), so the
transactions line up with the drivers' responses.
"""

from __future__ import annotations

from collections import deque

from cocotb.triggers import FallingEdge
from pyuvm import uvm_analysis_port, uvm_monitor

from aeskit.asbus.tb import AdamTB
from aeskit.asbus.uvm.items import AsbusItem, MbusItem, MemAccess, command_beats

__all__ = ["AsbusMonitor", "MbusMonitor", "MemPhyMonitor"]


class _PinMonitor(uvm_monitor):
    def build_phase(self) -> None:
        self.ap = uvm_analysis_port("ap", self)
        self.tb: AdamTB = self.cdb_get("BFM")   # for the DUT handle and the cycle count
        self.dut = self.tb.dut
        self.width = self.tb.width
        self.errors: list[str] = []

    async def _after_reset(self) -> None:
        """Sampling starts once the bench has released the reset."""
        await self.tb.reset_done.wait()


class AsbusMonitor(_PinMonitor):
    """Master ``master`` (config DB) of the ASBUS."""

    def build_phase(self) -> None:
        super().build_phase()
        self.master: int = self.cdb_get("master")

    async def run_phase(self) -> None:
        d, i, w, nb = self.dut, self.master, self.width, self.width // 8
        wmask, vmask = (1 << w) - 1, (1 << nb) - 1
        writes: deque[AsbusItem] = deque()
        reads: deque[AsbusItem] = deque()
        held: AsbusItem | None = None      # command on REQ in the previous cycle
        req_start: int | None = None       # first cycle of the current REQ
        await self._after_reset()
        while True:
            await FallingEdge(d.clk_i)
            cyc = self.tb.cycle
            gnt = (int(d.s_asbus_gnt.value) >> i) & 1
            if gnt:
                if held is None:
                    self.errors.append(f"cycle {cyc}: GNT to master {i} without REQ")
                else:
                    held.gnt_cycle = cyc
                    (writes if held.wr else reads).append(held)
                held, req_start = None, None
            elif (int(d.s_asbus_req.value) >> i) & 1:
                if req_start is None:
                    req_start = cyc
                held = AsbusItem(f"m{i}", wr=bool((int(d.s_asbus_wr.value) >> i) & 1),
                                 addr=(int(d.s_asbus_addr.value) >> (32 * i)) & 0xFFFFFFFF,
                                 len12=(int(d.s_asbus_len.value) >> (12 * i)) & 0xFFF)
                held.master, held.req_cycle = i, req_start
            resp = (int(d.s_asbus_resp.value) >> (2 * i)) & 3
            err = (int(d.s_asbus_err.value) >> (2 * i)) & 3
            if resp & 2:
                if not writes:
                    self.errors.append(f"cycle {cyc}: RESP[1] to master {i} without a write")
                else:
                    it = writes[0]
                    it.data.append((int(d.s_asbus_wdata.value) >> (w * i)) & wmask)
                    it.vld.append((int(d.s_asbus_wd_vld.value) >> (nb * i)) & vmask)
                    if len(it.data) == command_beats(w, it.len12):
                        self._publish(writes.popleft(), cyc)
            if err & 2:
                if not writes or writes[0].data:
                    self.errors.append(f"cycle {cyc}: ERR[1] to master {i} without a fresh write")
                else:
                    writes[0].error = True
                    self._publish(writes.popleft(), cyc)
            if resp & 1:
                if not reads:
                    self.errors.append(f"cycle {cyc}: RESP[0] to master {i} without a read")
                else:
                    it = reads[0]
                    it.rdata.append(int(d.s_asbus_rdata.value))
                    if len(it.rdata) == command_beats(w, it.len12):
                        self._publish(reads.popleft(), cyc)
            if err & 1:
                if not reads or reads[0].rdata:
                    self.errors.append(f"cycle {cyc}: ERR[0] to master {i} without a fresh read")
                else:
                    reads[0].error = True
                    self._publish(reads.popleft(), cyc)

    def _publish(self, item: AsbusItem, cycle: int) -> None:
        item.done_cycle = cycle
        self.ap.write(item)


class MbusMonitor(_PinMonitor):
    """The processor's MBUS."""

    async def run_phase(self) -> None:
        d = self.dut
        pending: MbusItem | None = None
        await self._after_reset()
        while True:
            await FallingEdge(d.clk_i)
            cyc = self.tb.cycle
            if pending is not None:
                pending.rdata = int(d.s_mbus_rdata.value)
                self.ap.write(pending)
                pending = None
            if int(d.s_mbus_sel.value):
                item = MbusItem("mbus", wr=bool(int(d.s_mbus_wr.value)),
                                addr=int(d.s_mbus_addr.value), data=int(d.s_mbus_wdata.value))
                item.cycle = cyc
                if item.wr:
                    self.ap.write(item)
                else:
                    pending = item


class MemPhyMonitor(_PinMonitor):
    """The SRAM ports of ``dut.u_mem`` (reached through the DUT hierarchy)."""

    async def run_phase(self) -> None:
        mem = self.dut.u_mem
        nb = self.width // 8
        aw = (self.tb.mem_bytes // nb - 1).bit_length()
        amask = (1 << aw) - 1
        rd_pending: tuple[int, list[int]] | None = None   # (cycle, byte addresses)
        wr_pending: MemAccess | None = None
        await self._after_reset()
        while True:
            await FallingEdge(self.dut.clk_i)
            cyc = self.tb.cycle
            if rd_pending is not None:
                c, addrs = rd_pending
                data = int(mem.rd_data_o.value)
                self.ap.write(MemAccess("rd", write=False, cycle=c,
                                       data={a: (data >> (8 * m)) & 0xFF
                                             for m, a in enumerate(addrs)}))
                rd_pending = None
            if wr_pending is not None:
                self.ap.write(wr_pending)
                wr_pending = None
            we = int(mem.we_i.value)
            if we:
                words = int(mem.wr_word_i.value)
                data = int(mem.wr_data_i.value)
                wr_pending = MemAccess("wr", write=True, cycle=cyc, data={
                    ((words >> (aw * m)) & amask) * nb + m: (data >> (8 * m)) & 0xFF
                    for m in range(nb) if (we >> m) & 1})
            if int(mem.re_i.value):
                words = int(mem.rd_word_i.value)
                rd_pending = (cyc, [((words >> (aw * m)) & amask) * nb + m for m in range(nb)])
