"""Lint of the ASBUS endpoints (hw/bus/asbus) and the ADAM/XDAM systems
(hw/systems/adam, hw/systems/xdam): zero warnings.

* Verilator ``--lint-only -Wall`` (with the one waiver file) of the bus modules on
  their own and of ``ak_adam`` / ``ak_xdam`` at 32, 64 and 128 bits (which covers the
  engines in both directions, pre-scheduled and not, and every path and memory);
* Verilator ``--cc -Wall`` (scheduling warnings such as UNOPTFLAT) and Yosys
  ``read_slang`` + ``hierarchy -check; proc; check -assert`` of both tops at 32 bits;
* bad parameters are refused at elaboration with a message naming them.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aeskit.hw.manifest import sources, sources_of_module
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator, yosys

ADAM = sources("aeskit:system:adam")
XDAM = sources("aeskit:system:xdam")
MASTER = sources("aeskit:bus:asbus_master")
SLAVE = sources("aeskit:bus:asbus_slave")
ARBITER = sources_of_module("ak_asbus_arbiter")

TARGETS = (
    [(f"adam-{w}", "ak_adam", ADAM, {"DataWidth": w}) for w in (32, 64, 128)]
    + [(f"xdam-{w}", "ak_xdam", XDAM, {"DataWidth": w}) for w in (32, 64, 128)]
    + [(f"master-{w}", "ak_asbus_master", MASTER, {"DataWidth": w}) for w in (32, 64, 128)]
    + [("adam-1master", "ak_adam", ADAM, {"DataWidth": 32, "N": 1}),
       ("slave-4masters", "ak_asbus_slave", SLAVE, {"DataWidth": 64, "N": 4}),
       ("arbiter", "ak_asbus_arbiter", ARBITER, {"N": 3})]
)


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=900)


def _warnings(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]


@pytest.mark.parametrize("name,top,files,params", TARGETS, ids=[t[0] for t in TARGETS])
def test_verilator_lint(name: str, top: str, files: list[Path], params: dict) -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top,
           *(f"-G{k}={v}" for k, v in params.items()), str(WAIVERS), *map(str, files)]
    res = _run(cmd)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and not _warnings(out), f"{name}: verilator lint\n{out}"


@pytest.mark.parametrize("top,files", [("ak_adam", ADAM), ("ak_xdam", XDAM)])
def test_verilator_model(top: str, files: list[Path], tmp_path: Path) -> None:
    cmd = [verilator(), "--cc", "-Wall", "--Mdir", str(tmp_path), "--top-module", top,
           str(WAIVERS), *map(str, files)]
    res = _run(cmd)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and not _warnings(out), f"{top}: verilator --cc\n{out}"


@pytest.mark.parametrize("top,files", [("ak_adam", ADAM), ("ak_xdam", XDAM)])
def test_yosys_slang_check(top: str, files: list[Path], tmp_path: Path) -> None:
    script = (f"read_slang -j 1 --top {top} {' '.join(map(str, files))}; "
              f"hierarchy -check -top {top}; proc; check -assert")
    res = _run(yosys() + ["-p", script], cwd=tmp_path)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines()
                if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    assert res.returncode == 0 and not warnings, f"{top}: yosys\n" + "\n".join(
        warnings or out.splitlines()[-40:])


@pytest.mark.parametrize("top,files,param,value", [
    ("ak_adam", ADAM, "DataWidth", 48),
    ("ak_adam", ADAM, "MemBytes", 200),
    ("ak_xdam", XDAM, "MaxBurst", 0),
    ("ak_asbus_arbiter", ARBITER, "N", 0),
])
def test_bad_parameter_is_refused(top: str, files: list[Path], param: str, value: int) -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top, f"-G{param}={value}",
           str(WAIVERS), *map(str, files)]
    res = _run(cmd)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and f"{param}={value}" in out, f"{top} {param}={value} accepted\n{out}"
