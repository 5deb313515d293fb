"""The ADAM UVM environment: four agents and the scoreboard.

```
            +-------------------------- AdamEnv ---------------------------+
 sequences  | cpu (MbusAgent)      seqr -> MbusDriver  --+                  |
 ---------> | writer (master 0)    seqr -> AsbusDriver --+-> AdamTB pin loop -> DUT pins
            | reader (master 1)    seqr -> AsbusDriver --+   (one clocked    |
            | phy (MemPhyAgent)   [seqr -> WaitDriver]-+     coroutine)      |
            |                                                              |
            | monitors (pins, passive) --ap--> AdamScoreboard <- DamModel  |
            +--------------------------------------------------------------+
```

The test puts into the config DB, for the env: ``BFM`` (a started or to-be-started
:class:`~aeskit.asbus.tb.AdamTB`), ``width``, ``mem_bytes`` and ``backdoor`` (a
function returning the SRAM bytes, or None); ``phy_active`` makes the memory-PHY
agent active (wait states).
"""

from __future__ import annotations

from pyuvm import ConfigDB, UVMConfigItemNotFound, uvm_active_passive_enum, uvm_env

from aeskit.asbus.uvm.agents import AsbusMasterAgent, MbusAgent, MemPhyAgent
from aeskit.asbus.uvm.scoreboard import AdamScoreboard

__all__ = ["AdamEnv"]


class AdamEnv(uvm_env):
    def build_phase(self) -> None:
        ConfigDB().set(self, "writer*", "master", 0)
        ConfigDB().set(self, "reader*", "master", 1)
        try:
            phy_active = bool(self.cdb_get("phy_active"))
        except UVMConfigItemNotFound:
            phy_active = False
        ConfigDB().set(self, "phy", "is_active", uvm_active_passive_enum.UVM_ACTIVE
                       if phy_active else uvm_active_passive_enum.UVM_PASSIVE)
        self.cpu = MbusAgent("cpu", self)
        self.writer = AsbusMasterAgent("writer", self)
        self.reader = AsbusMasterAgent("reader", self)
        self.phy = MemPhyAgent("phy", self)
        self.scoreboard = AdamScoreboard("scoreboard", self)

    def connect_phase(self) -> None:
        self.cpu.ap.connect(self.scoreboard.mbus_export)
        self.writer.ap.connect(self.scoreboard.asbus_export)
        self.reader.ap.connect(self.scoreboard.asbus_export)
        self.phy.ap.connect(self.scoreboard.mem_export)
