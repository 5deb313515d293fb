"""Drivers of the ADAM UVM environment.

All three drive the DUT through the one clocked pin loop of
:class:`aeskit.asbus.tb.AdamTB` (the bus-functional model: it applies the ASBUS
master rules cycle by cycle, so every driver sees the same clock edge and no two
coroutines write the same vector). A driver turns a sequence item into a request to
that loop:

* :class:`MbusDriver` -- one MBUS access per item; ``item_done`` once it is on the bus
  (a read: once its data came back, returned in ``item.rdata``);
* :class:`AsbusDriver` -- pipelined: the command is queued on its master at once and
  ``item_done`` called, so a master keeps several commands outstanding (the slave's
  eight-entry queue); when the command finishes the item, with ERR, read data and
  cycles filled in, goes back as the response (``put_response``);
* :class:`WaitDriver` -- sets the memory-side wait-state probabilities (``wait_i``) for
  the item's number of cycles.
"""

from __future__ import annotations

from cocotb.triggers import ClockCycles, RisingEdge
from pyuvm import uvm_driver

from aeskit.asbus.tb import AdamTB, IssuedCommand
from aeskit.asbus.uvm.items import AsbusItem, MbusItem, WaitItem, command_beats

__all__ = ["AsbusDriver", "MbusDriver", "WaitDriver"]


def _bfm(comp: uvm_driver) -> AdamTB:
    tb = comp.cdb_get("BFM")
    assert isinstance(tb, AdamTB), f"{comp.get_full_name()}: no AdamTB under 'BFM'"
    return tb


class MbusDriver(uvm_driver):
    """The processor's MBUS port."""

    def build_phase(self) -> None:
        self.tb = _bfm(self)

    async def run_phase(self) -> None:
        clk = self.tb.dut.clk_i
        while True:
            item: MbusItem = await self.seq_item_port.get_next_item()
            acc = (self.tb.mbus_write(item.addr, item.data) if item.wr
                   else self.tb.mbus_read(item.addr))
            while not acc.done:
                await RisingEdge(clk)
            item.cycle, item.rdata = acc.cycle, acc.rdata
            self.seq_item_port.item_done()


class AsbusDriver(uvm_driver):
    """One ASBUS master (``master`` from the config DB)."""

    def build_phase(self) -> None:
        self.tb = _bfm(self)
        self.master: int = self.cdb_get("master")

    async def run_phase(self) -> None:
        while True:
            item: AsbusItem = await self.seq_item_port.get_next_item()
            item.master = self.master
            self.tb.issue(self.master, item.command(), command_beats(self.tb.width, item.len12),
                          start_after=self.tb.cycle + item.delay,
                          on_done=lambda ic, it=item: self._done(it, ic))
            self.seq_item_port.item_done()

    def _done(self, item: AsbusItem, ic: IssuedCommand) -> None:
        item.error, item.rdata = ic.error, list(ic.rdata)
        item.req_cycle, item.gnt_cycle, item.done_cycle = ic.req_cycle, ic.gnt_cycle, ic.done_cycle
        self.seq_item_port.put_response(item)


class WaitDriver(uvm_driver):
    """Memory-side wait states (the ``wait_i`` knob of ADAM)."""

    def build_phase(self) -> None:
        self.tb = _bfm(self)

    async def run_phase(self) -> None:
        while True:
            item: WaitItem = await self.seq_item_port.get_next_item()
            self.tb.wait_prob = (item.read_prob, item.write_prob)
            if item.cycles:
                await ClockCycles(self.tb.dut.clk_i, item.cycles)
                self.tb.wait_prob = (0.0, 0.0)
            self.seq_item_port.item_done()
