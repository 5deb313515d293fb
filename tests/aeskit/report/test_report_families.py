"""run_report's family rows: every core on every other family's device (seed 1), a
misfit with its utilisation, a fit with its Fmax and placed counts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aeskit.hw import get_core
from aeskit.report import run_report
from aeskit.synth import SynthResult
from aeskit.synth.fit import Misfit

from .test_report import _fake_sim, _misfit_synth


def _fits(core: str, device: str, fmax: float, comb: int) -> dict[str, Any]:
    d = _misfit_synth(core, device, comb, 900, 0, 84)
    d.update(fits=True, misfit=None, fmax_mhz=fmax, clocks={"clk_i": fmax},
             utilization={"OXIDE_COMB": comb, "OXIDE_FF": 900, "TRELLIS_COMB": comb,
                          "TRELLIS_FF": 900})
    return d


def test_every_core_gets_a_row_per_family_device(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import aeskit.report
    import aeskit.synth
    from aeskit.synth import DoesNotFit

    calls: list[tuple[str, int]] = []

    def fake(design: Any, out_dir: Path, *, seed: int = 1, device: str = "",
             **_k: object) -> SynthResult:
        calls.append((device, seed))
        if device == "iCE40-UP5K":
            misfit = Misfit(device, "yosys", {"ICESTORM_LC": 13000, "ICESTORM_RAM": 0},
                            {"ICESTORM_LC": 5280, "ICESTORM_RAM": 30}, ("ICESTORM_LC",))
            data = _misfit_synth("round", device, 13000, 0, 0, 30)
            data["misfit"] = misfit.to_json()
            raise DoesNotFit(SynthResult.from_json(data))
        fmax = {"LFE5U-85F": 60.0 + seed, "LIFCL-40": 50.0}[device]
        return SynthResult.from_json(_fits("round", device, fmax, 12000))

    monkeypatch.setattr(aeskit.report.measure, "measure_core", _fake_sim)
    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    core = get_core("round")
    assert run_report([core], tmp_path, jobs=1, sections=[], seeds=(1, 2, 3),
                      families=("iCE40-UP5K", "LIFCL-40"))
    # three seeds on the report's device, one on each family's
    assert sorted(calls) == sorted([("LFE5U-85F", 1), ("LFE5U-85F", 2), ("LFE5U-85F", 3),
                                    ("iCE40-UP5K", 1), ("LIFCL-40", 1)])
    data = json.loads((tmp_path / "report.json").read_text())
    fam = data["family_rows"]
    assert len(fam) == 3 * len(core.key_sizes)
    by = {(r["device"], r["key_size"]): r for r in fam}
    for ks in core.key_sizes:
        ecp5, ice, nexus = (by[("LFE5U-85F", ks)], by[("iCE40-UP5K", ks)],
                            by[("LIFCL-40", ks)])
        assert (ecp5["family"], ice["family"], nexus["family"]) == ("ECP5", "iCE40", "Nexus")
        assert ecp5["fmax_mhz"] == 62.0  # the median seed
        assert ice["fmax_mhz"] is None and ice["mbps"] is None
        assert ice["does_not_fit"] == "does not fit (needs 13000 of 5280 ICESTORM_LC)"
        assert ice["utilisation"]["ICESTORM_LC"] == [13000, 5280]
        assert nexus["fmax_mhz"] == 50.0
        assert nexus["mbps"] == pytest.approx(128 * 50.0 / core.interval[ks])
        assert nexus["utilisation"]["OXIDE_COMB"] == [12000, 32256]
    assert "FPGA families" in (tmp_path / "index.html").read_text()


def test_report_without_families_has_no_family_rows(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import aeskit.report

    monkeypatch.setattr(aeskit.report.measure, "measure_core", _fake_sim)
    assert run_report([get_core("round")], tmp_path, jobs=1, sections=[], skip_synth=True)
    assert json.loads((tmp_path / "report.json").read_text())["family_rows"] == []


def test_families_argument() -> None:
    from aeskit.cli import parse_families

    assert parse_families(None, "LFE5U-85F") == ("iCE40-UP5K", "iCE40-HX8K", "LIFCL-40")
    assert parse_families("none", "LFE5U-85F") == ()
    assert parse_families("LIFCL-40,LFE5U-85F", "LFE5U-85F") == ("LIFCL-40",)
    with pytest.raises(ValueError, match="device"):
        parse_families("iCE40-XX", "LFE5U-85F")
