"""The device table (aeskit.synth.devices) against nextpnr-ecp5 itself: the "available"
of each counted bel type in ``--report`` for every device (slow: one Yosys run and four
nextpnr runs, about a minute with a cold YoWASP cache)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from aeskit.hw.manifest import sources
from aeskit.toolchain import paths as tools
from aeskit.synth import DEVICES, Design, read_slang_command
from aeskit.synth.devices import RESOURCES
from aeskit.synth.flow import PACKAGE

FIX = Path(__file__).parent / "fixtures"


def _netlist(work: Path) -> Design:
    design = Design("fx_reg_xor", "ak_fx_reg_xor",
                    tuple(sources("aeskit:fixture:fx_reg_xor", FIX)), (FIX / "include",))
    script = (f"{read_slang_command(design, work)}\n"
              f"synth_ecp5 -top {design.top} -json netlist.json\n")
    (work / "t.ys").write_text(script)
    subprocess.run([*tools.yosys(), "-q", "-s", "t.ys"], cwd=work, check=True)
    return design


@pytest.mark.slow
def test_capacities_are_what_nextpnr_reports(tmp_path: Path) -> None:
    design = _netlist(tmp_path)
    for name, dev in DEVICES.items():
        if dev.family != "ECP5":
            continue  # test_families.py re-reads the iCE40 and Nexus capacities
        report = f"report_{name}.json"
        subprocess.run([*tools.nextpnr_ecp5(), dev.nextpnr_flag, "--package", PACKAGE,
                        "--out-of-context", "--json", "netlist.json", "--top", design.top,
                        "--report", report, "-q"], cwd=tmp_path, check=True,
                       capture_output=True)
        util = json.loads((tmp_path / report).read_text())["utilization"]
        available = {res: util[bel]["available"] for res, bel in RESOURCES.items()}
        assert available == dev.capacity(), name
