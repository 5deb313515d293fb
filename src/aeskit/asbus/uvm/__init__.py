"""pyuvm verification environment of ADAM (``ak_adam``, paper 000; the paper used UVM).

* :mod:`~aeskit.asbus.uvm.items` -- sequence items (MBUS access, ASBUS command, wait
  states) and the memory-PHY transaction;
* :mod:`~aeskit.asbus.uvm.sequences` -- configuration, command lists, the paper's cases,
  random traffic, the illegal commands, wait states;
* :mod:`~aeskit.asbus.uvm.drivers` / :mod:`~aeskit.asbus.uvm.monitors` -- drivers on
  the one clocked pin loop of :class:`aeskit.asbus.tb.AdamTB`; passive pin monitors;
* :mod:`~aeskit.asbus.uvm.agents` -- processor (MBUS), two bus masters, memory PHY;
* :mod:`~aeskit.asbus.uvm.scoreboard` -- everything against
  :class:`aeskit.asbus.model.DamModel`;
* :mod:`~aeskit.asbus.uvm.env` / :mod:`~aeskit.asbus.uvm.tests` -- the env and the
  UVM tests, registered as cocotb tests by ``tests/hw/systems/adam/test_adam_uvm.py``.

See docs/asbus.md, "UVM environment".
"""

from aeskit.asbus.uvm.env import AdamEnv
from aeskit.asbus.uvm.scoreboard import AdamScoreboard
from aeskit.asbus.uvm.tests import AdamPaperUvm, AdamRandomUvm

__all__ = ["AdamEnv", "AdamPaperUvm", "AdamRandomUvm", "AdamScoreboard"]
