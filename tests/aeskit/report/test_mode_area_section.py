"""The report's per-mode area section (issue 49): which builds it measures, each
rendered with its Modes mask, and the cost of a mode as the full build minus the build
without it (the expected figures below are worked out by hand from the inputs)."""

from __future__ import annotations

from aeskit.report.sections import mode_area


def test_builds_leave_out_one_added_mode_each() -> None:
    assert mode_area.builds(0x1FF) == [
        ("all", 0x1FF), ("no ccm", 0x1DF), ("no gcm", 0x1BF), ("no cmac", 0x17F),
        ("no xts", 0x0FF), ("block modes", 0x01F)]
    # ECB, CBC, CTR and CMAC: only CMAC to leave out, and that build is already the
    # block modes the system has
    assert mode_area.builds(0x087) == [("all", 0x087), ("no cmac", 0x007)]


def test_design_renders_the_mask() -> None:
    d = mode_area.design("coproc", 0x1BF)
    assert d.name == "coproc_m1bf"
    top = d.files[-1].read_text()
    assert ".Modes(9'h1bf)" in top
    d = mode_area.design("axis_core", 0x01F)
    assert ".Modes(9'h01f)" in d.files[-1].read_text()


def _data() -> dict:
    rows = [
        {"label": "all", "modes": 0x1FF, "LUT4": 9000, "FF": 3000, "DP16KD": 24},
        {"label": "no gcm", "modes": 0x1BF, "LUT4": 7250, "FF": 2400, "DP16KD": 24},
        {"label": "no xts", "modes": 0x0FF, "error": "yosys synth_ecp5 of coproc_m0ff failed"},
    ]
    return {"coproc": {"core": "tbox_folded", "builds": rows}}


def test_cost_is_full_minus_without() -> None:
    rows = _data()["coproc"]["builds"]
    assert mode_area.cost(rows, "no gcm") == {"LUT4": 1750, "FF": 600, "DP16KD": 0}
    assert mode_area.cost(rows, "no xts") == {"LUT4": None, "FF": None, "DP16KD": None}


def test_render() -> None:
    md = mode_area.render([], _data())
    lines = md.splitlines()
    gcm = next(ln for ln in lines if "| no gcm |" in ln)
    assert "ECB, CBC, CTR, CFB, OFB, CCM, CMAC, XTS" in gcm
    assert "| 7,250 | 2,400 | 24 | 1,750 / 600 / 0 |" in gcm
    xts = next(ln for ln in lines if "| no xts |" in ln)
    assert "failed" in xts and xts.count("|") == gcm.count("|")
    assert "Not measured" in mode_area.render([], None)
