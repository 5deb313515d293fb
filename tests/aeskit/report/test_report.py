"""The report: rows built from measurements, failing cores marked, files written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.report import _row, run_report
from aeskit.report.render import write_html, write_markdown
from aeskit.report.tradeoff import panels


def _sim(lat: int, itv: float, passed: int, total: int, ks: int = 128) -> dict:
    d = {"latency": lat, "interval": itv, "key_setup": 11, "tests_passed": passed,
         "tests_total": total, "failures": []}
    return {"per_key": {str(ks): {"enc": d, "dec": d}}}


def test_row_derives_throughput() -> None:
    core = get_core("round")
    syn = {"lut4": 2000, "ff": 500, "ebr": 0, "dsp": 0, "fmax_mhz": 100.0, "ge": 20000.0,
           "depth": 30}
    r = _row(core, 128, _sim(10, 10.0, 5, 5), syn, [])
    assert r["mbps"] == 128 * 100.0 / 10.0
    assert r["mbps_per_lut"] == r["mbps"] / 2000
    assert r["kbps_per_ge"] == 1000 * r["mbps"] / 20000.0
    assert r["tests_ok"] and r["tests_passed"] == 10
    assert r["claims_ok"]
    assert not _row(core, 128, _sim(11, 10.0, 5, 5), syn, [])["claims_ok"]


def test_failing_core_is_marked(tmp_path: Path) -> None:
    core = get_core("round")
    good = _row(core, 128, _sim(10, 10.0, 5, 5), None, [])
    bad = _row(core, 192, _sim(12, 12.0, 4, 5, 192), None, [])
    broken = _row(core, 256, None, None, ["synth: boom"])
    assert not bad["tests_ok"] and not broken["tests_ok"]
    # three cores (the results table has a row per core, its key sizes side by side)
    good, bad, broken = ({**r, "core": name} for r, name in
                         ((good, "good"), (bad, "bad"), (broken, "broken")))
    rep = {"aeskit_version": "t", "generated": "now", "flow": {"device": "d", "throughput": "t"},
           "rows": [good, bad, broken]}
    write_markdown(rep, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    assert "pass 10/10" in md and "FAIL 8/10" in md and "ERROR" in md and "boom" in md
    write_html(rep, tmp_path / "index.html")
    page = (tmp_path / "index.html").read_text()
    assert page.count('class="fail"') == 2


def test_plot_has_one_mark_per_synthesized_core() -> None:
    rows = [{"lut4": 100 * (i + 1), "mbps": 50.0 * (i + 1), "fmax_mhz": 10.0 * (i + 1),
             "core": f"c{i}", "key_size": 128, "device": "LFE5U-85F"} for i in range(3)]
    # a core's other key sizes share its mark (its AES-128 row)
    rows += [{"lut4": 100, "mbps": 40.0, "fmax_mhz": 10.0, "core": "c0", "key_size": 256,
              "device": "LFE5U-85F"}]
    rows += [{"lut4": None, "mbps": None, "fmax_mhz": None, "core": "x", "key_size": 128},
             # a design that does not fit: Yosys's LUT4, no Fmax, no mark
             {"lut4": 70000, "mbps": None, "fmax_mhz": None, "core": "big", "key_size": 128,
              "does_not_fit": "does not fit (needs 220 of 208 DP16KD)"},
             # a throughput without an Fmax is not plotted either
             {"lut4": 500, "mbps": 80.0, "fmax_mhz": None, "core": "odd", "key_size": 128}]
    (main,) = panels({"rows": rows})
    cores = [m for m in main.marks if m.kind == "core"]
    assert [(m.name, m.mbps) for m in cores] == [("c0", 50.0), ("c1", 100.0), ("c2", 150.0)]


def test_report_on_round_without_synthesis(tmp_path: Path) -> None:
    core = get_core("round")
    assert run_report([core], tmp_path, jobs=1, skip_synth=True)
    data = json.loads((tmp_path / "report.json").read_text())
    rows = {r["key_size"]: r for r in data["rows"]}
    assert set(rows) == set(core.key_sizes)
    for ks, r in rows.items():
        assert r["latency"] == core.latency[ks] and r["interval"] == core.interval[ks]
        assert r["latency_dec"] == core.latency[ks] and r["interval_dec"] == core.interval[ks]
        assert r["key_setup"] == core.key_setup[ks]
        assert r["tests_ok"] and r["tests_total"] > 100 and r["claims_ok"]
    assert (tmp_path / "index.html").exists() and (tmp_path / "report.md").exists()


def test_markdown_sections_render_to_html() -> None:
    from aeskit.report.render import markdown_to_html

    h = markdown_to_html("### Title\n\nSome `code` and **bold**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n- x\n- y")
    assert "<h3>Title</h3>" in h and "<code>code</code>" in h and "<b>bold</b>" in h
    assert "<th>a</th>" in h and "<td>2</td>" in h and "<li>y</li>" in h


def test_report_runs_only_the_chosen_sections(tmp_path: Path) -> None:
    core = get_core("round")
    assert run_report([core], tmp_path, jobs=1, skip_synth=True, sections=["paper003"])
    data = json.loads((tmp_path / "report.json").read_text())
    from aeskit.report.sections import paper003

    assert [s["title"] for s in data["sections"]] == [paper003.TITLE]
    with pytest.raises(ValueError, match="unknown report section"):
        run_report([core], tmp_path, jobs=1, skip_synth=True, sections=["paper999"])


@pytest.mark.parametrize("name", ["pipe2", "ttable_col"])
def test_steady_interval_of_multi_block_cores(name: str) -> None:
    """Cores holding several blocks take the first ones at once; the report's interval
    is the steady state, equal to the registry's claim (the plain 63-block average of
    pipe2 is 9.86, not 10)."""
    import random

    from aeskit.report.measure import steady_interval
    from aeskit.harness.core import Harness

    core = get_core(name)
    with Harness(core) as h:
        h.load_key(bytes(16))
        _, avg = h.run([bytes([i]) * 16 for i in range(64)], False)
        got = steady_interval(h, False, random.Random(1))
    assert got == core.interval[128]
    assert core.in_flight == 1 or avg.interval < core.interval[128]


# --------------------------------------------------------------------------------
# A core that does not fit the device
# --------------------------------------------------------------------------------
def _misfit_synth(core: str, device: str, lut4: int, ff: int, ebr: int,
                  available_ebr: int) -> dict:
    """A ``synth.json`` of a design that does not fit (as aeskit.synth writes it)."""
    from aeskit.synth.fit import Misfit

    misfit = Misfit(device, "yosys", {"LUT4": lut4, "FF": ff, "DP16KD": ebr, "MULT18X18D": 0},
                    {"LUT4": 83640, "FF": 83640, "DP16KD": available_ebr, "MULT18X18D": 156},
                    ("DP16KD",))
    return {"core": core, "top": f"ak_{core}", "parameters": {}, "source_hash": "0" * 16,
            "flow_version": "v", "seed": 1, "device": device, "package": "CABGA381",
            "speed_grade": 6, "freq_target_mhz": 200.0, "lut4": lut4, "lut4_synth": lut4,
            "ff": ff, "ebr": ebr, "dsp": 0, "fmax_mhz": None, "clocks": {}, "ge": None,
            "depth": None, "gate_cells": {},
            "ecp5_cells": {"LUT4": lut4, "TRELLIS_FF": ff, "DP16KD": ebr}, "utilization": {},
            "tool_versions": {}, "times_s": {}, "commands": {}, "out_dir": "/nonexistent",
            "files": {}, "fits": False, "misfit": misfit.to_json()}


def test_misfit_row_renders_as_does_not_fit(tmp_path: Path) -> None:
    core = get_core("ttable_unrolled")
    syn = _misfit_synth(core.name, "LFE5U-85F", 7123, 30456, 220, 208)
    r = _row(core, 128, _sim(core.latency[128], 1.0, 5, 5), syn, [])
    assert r["does_not_fit"] == "does not fit (needs 220 of 208 DP16KD)"
    assert (r["lut4"], r["ff"], r["ebr"]) == (7123, 30456, 220)
    assert r["fmax_mhz"] is None and r["mbps"] is None and r["mbps_per_lut"] is None
    assert r["tests_ok"] and not r["errors"]
    fits = _row(core, 128, _sim(83, 1.0, 5, 5), {"lut4": 10, "fmax_mhz": 50.0, "fits": True}, [])
    assert fits["does_not_fit"] is None and fits["mbps"] == 128 * 50.0
    rep = {"aeskit_version": "t", "generated": "now", "flow": {"device": "d", "throughput": "t"},
           "rows": [r]}
    write_markdown(rep, tmp_path / "r.md")
    line = next(ln for ln in (tmp_path / "r.md").read_text().splitlines()
                if ln.startswith("| ttable_unrolled |"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    from aeskit.report.results_table import COLUMNS
    col = {k: i for i, (k, _, _) in enumerate(COLUMNS)}
    assert cells[col["fmax_mhz"]] == "does not fit (needs 220 of 208 DP16KD)"
    assert (cells[col["lut4"]], cells[col["ff"]], cells[col["ebr"]]) == ("7,123", "30,456", "220")
    assert cells[col["mbps"]] == "–" and cells[-1].startswith("pass 10/10")
    write_html(rep, tmp_path / "index.html")
    page = (tmp_path / "index.html").read_text()
    assert "<td>does not fit (needs 220 of 208 DP16KD)</td>" in page
    assert 'class="fail"' not in page and "<circle" not in page


def _fake_sim(core: object, cache: Path, **_kw: object) -> dict:
    """measure_core's answer for ``round``: every key size as claimed, all tests passed."""
    spec = get_core("round")
    per = {}
    for ks in spec.key_sizes:
        per.update(_sim(spec.latency[ks], float(spec.interval[ks]), 5, 5, ks)["per_key"])
    return {"per_key": per}


def test_report_keeps_going_past_a_misfit(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """run_report with the synthesis job answering "does not fit": the row says so, the
    report is written and run_report returns True; a real tool failure still fails."""
    import aeskit.report
    import aeskit.synth
    from aeskit.synth import DoesNotFit, SynthError, SynthResult, synth_dir

    core = get_core("round")
    calls: list[tuple[Path, str]] = []

    def misfit(design: object, out_dir: Path, *, device: str, **_kw: object) -> None:
        calls.append((out_dir, device))
        raise DoesNotFit(SynthResult.from_json(
            _misfit_synth("round", device, 2600, 700, 60, 56)))

    monkeypatch.setattr(aeskit.report.measure, "measure_core", _fake_sim)
    monkeypatch.setattr(aeskit.synth, "synthesize", misfit)
    assert run_report([core], tmp_path, jobs=1, sections=[], device="LFE5U-25F")
    assert calls == [(synth_dir("round", "LFE5U-25F"), "LFE5U-25F")]
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["flow"]["device"].startswith("LFE5U-25F-6BG381C (CABGA381, speed 6)")
    r = next(r for r in data["rows"] if r["key_size"] == 128)
    assert r["does_not_fit"] == "does not fit (needs 60 of 56 DP16KD)"
    assert (r["lut4"], r["ff"], r["ebr"], r["fmax_mhz"]) == (2600, 700, 60, None)
    assert not r["errors"]
    assert "does not fit (needs 60 of 56 DP16KD)" in (tmp_path / "report.md").read_text()

    def broken(*_a: object, **_k: object) -> None:
        raise SynthError("yosys synth_ecp5 of round failed (exit code 1)", None, "ERROR: x")

    monkeypatch.setattr(aeskit.synth, "synthesize", broken)
    assert not run_report([core], tmp_path / "b", jobs=1, sections=[])
    rows = json.loads((tmp_path / "b" / "report.json").read_text())["rows"]
    assert rows[0]["errors"] and rows[0]["does_not_fit"] is None
    assert rows[0]["errors"][0].startswith("synth: yosys synth_ecp5 of round failed")


def test_default_device_header_is_unchanged() -> None:
    from aeskit.report import device_text

    assert device_text("LFE5U-85F") == \
        "LFE5U-85F-6BG381C (CABGA381, speed 6), out of context, seed 1"
    with pytest.raises(ValueError, match="unknown device"):
        run_report([get_core("round")], Path("/nonexistent"), device="LFE5U-99F")


@pytest.mark.parametrize("section, core", [
    ("paper001", "pipe2"), ("paper002", "ueno"), ("paper003", "tbox_unfolded_pp"),
    ("paper003", "tbox_folded"), ("paper004", "ttable_unrolled"), ("paper004", "ttable_col"),
])
def test_sections_say_does_not_fit(section: str, core: str) -> None:
    """Every section that shows core rows shows a misfit row's verdict where the Fmax
    would be, and renders without a number that needs an Fmax."""
    import importlib

    mod = importlib.import_module(f"aeskit.report.sections.{section}")
    spec = get_core(core)
    rows = [_row(spec, ks, _sim(spec.latency[ks], float(spec.interval[ks]), 5, 5, ks),
                 _misfit_synth(core, "LFE5U-25F", 4321, 765, 99, 56), [])
            for ks in spec.key_sizes]
    md = mod.render(rows, None)
    note = "does not fit (needs 99 of 56 DP16KD)"
    assert note in md
    line = next(ln for ln in md.splitlines() if note in ln)
    assert "4,321" in line and "765" in line


def test_section_synth_results_that_do_not_fit() -> None:
    """paper001's engine/cipher lines and paper002's datapath rows come from the
    sections' own synthesis results; a misfit there reads "does not fit" too."""
    from aeskit.report.sections import paper001, paper002

    eng = _misfit_synth("mode_sys_pipe2", "LFE5U-12F", 30000, 9000, 70, 56)
    md = paper001.render([], {"synth": {"mode_sys_pipe2": eng, "cipher_ahb": eng}})
    assert md.count("30,000 LUT4, 9,000 FF, 70 EBR, does not fit (needs 70 of 56 DP16KD)") == 2
    assert "Fmax" not in md.split("mode engine (two streams")[1].split("\n\n")[0]
    spec = get_core("ueno")
    rows = [_row(spec, 128, _sim(spec.latency[128], float(spec.interval[128]), 5, 5), None, [])]
    dp = _misfit_synth("ueno_dp", "LFE5U-12F", 26000, 600, 0, 56)
    dp["misfit"]["over"], dp["misfit"]["needs"]["LUT4"] = ["LUT4"], 26000
    dp["misfit"]["available"]["LUT4"] = 24288
    md = paper002.render(rows, {"dp": {"ueno": dp}})
    assert "datapath: does not fit (needs 26000 of 24288 LUT4)." in md
    assert "| 26,000 | 600 | does not fit (needs 26000 of 24288 LUT4) |" in md


def test_paper001_systems_show_seeds_critical_path_and_target() -> None:
    """paper001's system lines: the median seed's Fmax with every seed's, the median
    seed's critical path, and whether cipher_ahb meets issue 14's 100 MHz."""
    from aeskit.report.sections import paper001

    cp = {"start": "s.sv:1 (a)", "end": "e.sv:2 (b)", "logic_cells": 12, "logic_ns": 3.0,
          "routing_ns": 22.5}
    top = {"lut4": 26000, "ff": 8000, "ebr": 0, "fmax_mhz": 38.6, "fmax_min": 33.8,
           "fmax_max": 41.9, "fmax_seeds": {"1": 33.8, "2": 38.6, "3": 41.9}, "fits": True,
           "critical_path": cp, "commands": {"nextpnr": ["--router", "router2"]}}
    md = paper001.render([], {"synth": {"cipher_ahb": top}})
    assert ("Fmax 38.6 MHz (median; seeds 1 / 2 / 3: 33.8 / 38.6 / 41.9 MHz) "
            "(nextpnr router2, placer heap)") in md
    assert "Critical path (median seed): s.sv:1 (a) -> e.sv:2 (b), 12 cells, 3.0 ns logic " \
           "+ 22.5 ns routing." in md
    assert "(median seed): not met, 38.6 MHz (39% of it)" in md
    md = paper001.render([], {"synth": {"cipher_ahb": {**top, "fmax_mhz": 100.0}}})
    assert "(median seed): met, 100.0 MHz." in md


def test_coproc_section_renders_table2() -> None:
    """The co-processor section: Table 2 with the paper's cycles converted to the
    co-processor's 100 MHz clock, ours per block, Mbit/s at the synthesized Fmax; a
    system that does not fit says so."""
    from aeskit.report.sections import coproc

    syn = {"coproc": {"lut4": 4000, "ff": 2000, "ebr": 24, "fmax_mhz": 80.0, "fits": True},
           "axis_core": _misfit_synth("axis_core", "LFE5U-12F", 30000, 900, 0, 56)}
    syn["axis_core"]["misfit"]["over"] = ["LUT4"]
    syn["axis_core"]["misfit"]["needs"]["LUT4"] = 30000
    syn["axis_core"]["misfit"]["available"]["LUT4"] = 12000
    md = coproc.render([], {"cycles": {16: 80, 512: 400, 16384: 10240}, "synth": syn})
    # 16 KiB: 1024 blocks, 10.0 per block; 131072 bit / (10240 / 80 MHz) = 1024 Mbit/s
    assert "| 128 Kibit | 31,246 | 10,415 | 1,258 | 10,240 | 0.98 | 10.0 | 1,024 |" in md
    assert "| 128 bit | 646 | 215 | 59 | 80 | 0.37 | 80.0 | 128 |" in md
    assert "| 4,000 | 2,000 | 24 | 80.0 |" in md
    assert "does not fit (needs 30000 of 12000 LUT4)" in md
    assert "Not measured" in coproc.render([], None)


def test_coproc_section_renders_the_small_systems() -> None:
    """The co-processor builds for the smallest FPGAs: one row per system and iCE40
    device, with the device's logic cells, the modes built and what does not fit."""
    from aeskit.report.sections import coproc

    small = {"coproc_lite": {"iCE40-UP5K": {"lut4": 3100, "ff": 1500, "ebr": 10,
                                            "fmax_mhz": 31.25, "fits": True},
                             "iCE40-HX8K": {"lut4": 3100, "ff": 1500, "ebr": 10,
                                            "fmax_mhz": 55.0, "fits": True}},
             "coproc_cmac": {"iCE40-UP5K": _misfit_synth("coproc_cmac", "iCE40-UP5K", 6000,
                                                         1800, 10, 0)}}
    small["coproc_cmac"]["iCE40-UP5K"]["misfit"]["over"] = ["LUT4"]
    small["coproc_cmac"]["iCE40-UP5K"]["misfit"]["needs"]["LUT4"] = 6000
    small["coproc_cmac"]["iCE40-UP5K"]["misfit"]["available"]["LUT4"] = 5280
    md = coproc.render([], {"cycles": {}, "synth": {}, "small": small})
    assert ("| `coproc_lite` | compact32_bram_e128 | ECB, CBC, CTR | iCE40-UP5K | "
            "3,100 of 5,280 | 1,500 | 10 | 31.2 |") in md
    assert "| iCE40-HX8K | 3,100 of 7,680 | 1,500 | 10 | 55.0 |" in md
    assert "| `coproc_cmac` | compact32_bram_e128 | ECB, CBC, CTR, CMAC | iCE40-UP5K |" in md
    assert "does not fit (needs 6000 of 5280 LUT4)" in md
    assert "smallest FPGAs" not in coproc.render([], {"cycles": {}, "synth": {}})


def test_three_seeds_give_median_fmax_spread_and_critical_paths(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """run_report places every core with each seed (each in its own folder) and shows
    the median seed's Fmax and area, the min-max spread and the median seed's critical
    path; a core that does not fit is not placed again with other seeds."""
    import aeskit.report
    import aeskit.synth
    from aeskit.synth import synth_dir

    fmax = {1: 50.0, 2: 47.0, 3: 53.5}
    calls: list[tuple[Path, int]] = []

    def fake(design: object, out_dir: Path, *, seed: int, **_kw: object) -> object:
        calls.append((out_dir, seed))
        data = {"core": "round", "seed": seed, "fmax_mhz": fmax[seed], "lut4": 1000 + seed,
                "lut_levels": 7.5,
                "ff": 900, "ebr": 0, "dsp": 0, "ge": 1.0, "depth": 3, "fits": True,
                "critical_path": {"start": f"a.sv:{seed} (x)", "end": "b.sv:2 (y)",
                                  "start_type": "TRELLIS_FF", "end_type": "TRELLIS_FF",
                                  "logic_cells": seed, "logic_ns": 1.0, "routing_ns": 2.0,
                                  "total_ns": 3.0}}
        return type("R", (), {"to_json": lambda self: data})()

    monkeypatch.setattr(aeskit.report.measure, "measure_core", _fake_sim)
    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    assert run_report([get_core("round")], tmp_path, jobs=1, sections=[], seeds=(1, 2, 3))
    assert calls == [(synth_dir("round", seed=s), s) for s in (1, 2, 3)]
    assert [p.name for p, _ in calls] == ["round", "round~seed2", "round~seed3"]
    data = json.loads((tmp_path / "report.json").read_text())
    r = next(r for r in data["rows"] if r["key_size"] == 128)
    assert (r["fmax_mhz"], r["lut4"]) == (50.0, 1001)  # seed 1 is the median
    assert (r["fmax_min"], r["fmax_max"], r["fmax_spread"]) == (47.0, 53.5, "47.0-53.5")
    assert r["fmax_seeds"] == {"1": 50.0, "2": 47.0, "3": 53.5}
    assert "seeds 1, 2, 3" in data["flow"]["device"]
    md = (tmp_path / "report.md").read_text()
    assert "## Critical paths" in md
    assert "| round | 1: 50.0, 2: 47.0, 3: 53.5 | 50.0 | 7.5 | a.sv:1 (x) -> b.sv:2 (y), 1 cells, " \
           "1.0 ns logic + 2.0 ns routing |" in md
    assert '<h2 id="critical-paths">Critical paths</h2>' in (tmp_path / "index.html").read_text()
    with pytest.raises(ValueError, match="seeds must be positive"):
        run_report([get_core("round")], tmp_path, seeds=(0,))
