"""ak_adam under the pyuvm environment of :mod:`aeskit.asbus.uvm` (the paper used UVM).

Agents for the processor (MBUS), two ASBUS masters (writer and reader) and the memory
PHY (the SRAM port inside ADAM), with sequencer, driver and monitor each; a scoreboard
checks read data, every SRAM write and read and the final memory (backdoor) against
:class:`aeskit.asbus.model.DamModel`, protocol errors (ERR, no data, memory
unchanged, ERRCNT) and the MBUS registers. At 32, 64 and 128 bits:

* ``AdamPaperUvm``: the paper's three cases, cycles exactly as in test_adam;
* ``AdamRandomUvm``: random traffic on both masters with wait states (bypass, then
  cipher; in the cipher phase also a bypass write right behind a one-state cipher
  write to the same bytes: write-after-write order), then every illegal command as a
  write and a read.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pyuvm

from aeskit.asbus.bench_build import ADAM_BENCH_ARGS, ADAM_BENCH_SOURCES
from aeskit.asbus.uvm.tests import AdamPaperUvm, AdamRandomUvm

HERE = Path(__file__).resolve().parent

# cocotb tests (pyuvm.test registers each class as a cocotb test named after it)
pyuvm.test()(AdamPaperUvm)
pyuvm.test()(AdamRandomUvm)


def _run(width: int, **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_adam", sources=list(ADAM_BENCH_SOURCES), test_module="test_adam_uvm",
               test_dir=HERE, parameters={"DataWidth": width}, build_args=ADAM_BENCH_ARGS,
               testcase=["AdamPaperUvm", "AdamRandomUvm"],
               extra_env={k: str(v) for k, v in env.items()})


# 32 bits in make test; the wider builds in make test-full (as test_adam)
@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow),
                                   pytest.param(128, marks=pytest.mark.slow)])
def test_adam_uvm(width: int) -> None:
    _run(width)


@pytest.mark.slow
@pytest.mark.parametrize("width", [32, 64, 128])
def test_adam_uvm_random_long(width: int) -> None:
    _run(width, AK_COMMANDS=600, AK_SEED=width, AK_WAIT=0.5)
