"""aeskit.sim.cocotb_run: the runner never reaches a system Verilator, and a model's
build stamp covers its optimisation flags."""

from __future__ import annotations

import os

import pytest

from aeskit.sim import cocotb_run
from aeskit.toolchain.paths import venv_bin


def test_venv_tools_come_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A caller outside the venv (PATH = /usr/bin first, where Debian's Verilator 5.006
    lives) gets the venv's tools put in front before cocotb looks for a simulator."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    cocotb_run._venv_tools_first()
    assert os.environ["PATH"].split(os.pathsep) == [str(venv_bin()), "/usr/bin", "/bin"]
    cocotb_run._venv_tools_first()  # idempotent
    assert os.environ["PATH"].split(os.pathsep)[0] == str(venv_bin())
    assert os.environ["PATH"].count(str(venv_bin())) == 1


def test_stamp_covers_the_optimisation_flags(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: object) -> None:
    from pathlib import Path

    src = Path(str(tmp_path)) / "m.sv"
    src.write_text("module m; endmodule\n")
    a = cocotb_run._stamp([src], {}, "verilator", False, [], "m")
    monkeypatch.setattr(cocotb_run, "OPT_MAKEFLAGS", "OPT_FAST=-O2")
    assert cocotb_run._stamp([src], {}, "verilator", False, [], "m") != a
