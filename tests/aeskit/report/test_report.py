"""The report: rows built from measurements, failing cores marked, files written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.report import _row, run_report
from aeskit.report.render import plot_svg, write_html, write_markdown


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
    rep = {"aeskit_version": "t", "generated": "now", "flow": {"device": "d", "throughput": "t"},
           "rows": [good, bad, broken]}
    write_markdown(rep, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    assert "pass 10/10" in md and "FAIL 8/10" in md and "ERROR" in md and "boom" in md
    write_html(rep, tmp_path / "index.html")
    page = (tmp_path / "index.html").read_text()
    assert page.count('class="fail"') == 2


def test_plot_has_one_point_per_synthesized_row() -> None:
    rows = [{"lut4": 100 * (i + 1), "mbps": 50.0 * (i + 1), "core": "c", "key_size": 128 + i}
            for i in range(3)] + [{"lut4": None, "mbps": None, "core": "x", "key_size": 128}]
    assert plot_svg(rows).count("<circle") == 3


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
    from aeskit.sim.harness import Harness

    core = get_core(name)
    with Harness(core) as h:
        h.load_key(bytes(16))
        _, avg = h.run([bytes([i]) * 16 for i in range(64)], False)
        got = steady_interval(h, False, random.Random(1))
    assert got == core.interval[128]
    assert core.in_flight == 1 or avg.interval < core.interval[128]
