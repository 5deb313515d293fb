"""Agents of the ADAM UVM environment: sequencer, driver and monitor each.

* :class:`MbusAgent` -- the processor on MBUS (keys, row pitch, configuration);
* :class:`AsbusMasterAgent` -- one ASBUS bus master (``master`` from the config DB:
  0 = the writer, the paper's USB 2.0 host; 1 = the reader, its Wi-Fi MAC);
* :class:`MemPhyAgent` -- the memory PHY: its monitor watches the SRAM port of the
  memory controller inside ADAM; when active (config DB ``is_active``) a sequencer and
  a driver add memory-side wait states (``wait_i``); the env makes it passive unless
  the test sets ``phy_active``.

Every agent exposes its monitor's analysis port as ``ap``.
"""

from __future__ import annotations

from pyuvm import uvm_agent, uvm_sequencer

from aeskit.asbus.uvm.drivers import AsbusDriver, MbusDriver, WaitDriver
from aeskit.asbus.uvm.monitors import AsbusMonitor, MbusMonitor, MemPhyMonitor

__all__ = ["AsbusMasterAgent", "MbusAgent", "MemPhyAgent"]


class _Agent(uvm_agent):
    driver_cls: type = MbusDriver
    monitor_cls: type = MbusMonitor

    def build_phase(self) -> None:
        super().build_phase()
        self.monitor = self.monitor_cls("monitor", self)
        if self.active():
            self.seqr = uvm_sequencer("seqr", self)
            self.driver = self.driver_cls("driver", self)

    def connect_phase(self) -> None:
        self.ap = self.monitor.ap
        if self.active():
            self.driver.seq_item_port.connect(self.seqr.seq_item_export)

    def check_phase(self) -> None:
        assert not self.monitor.errors, f"{self.get_full_name()}: {self.monitor.errors[:4]}"


class MbusAgent(_Agent):
    driver_cls = MbusDriver
    monitor_cls = MbusMonitor


class AsbusMasterAgent(_Agent):
    driver_cls = AsbusDriver
    monitor_cls = AsbusMonitor


class MemPhyAgent(_Agent):
    driver_cls = WaitDriver
    monitor_cls = MemPhyMonitor
