"""The report page in headless Chromium: every table and plot report.json implies is
on the page, nothing failed to load, no console errors, a screenshot of the viewport;
and the check does fail on a page with a broken resource. Chromium is part of the
set-up (tools/setup_venv.sh): when it is missing these tests fail, they do not skip."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aeskit.report import layout
from aeskit.report.browser import VIEWPORT, BrowserCheck, check_report, find_chromium, png_size
from aeskit.report.render import write_html, write_markdown


def _write(report: dict[str, Any], folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.json").write_text(json.dumps(report, indent=2))
    write_markdown(report, folder / "report.md")
    write_html(report, folder / "index.html")
    return folder / "index.html"


def _need_chromium() -> None:
    """Fail (never skip) with the reason when Chromium is missing."""
    try:
        find_chromium()
    except RuntimeError as exc:
        pytest.fail(f"{exc} -- run tools/setup_venv.sh as root, or install chromium",
                    pytrace=False)


def _check(page: Path, shot: Path | None) -> BrowserCheck:
    _need_chromium()
    return check_report(page, shot)


def test_report_page_in_chromium(tmp_path: Path, fixture_report: dict[str, Any]) -> None:
    page = _write(fixture_report, tmp_path / "report")
    shot = tmp_path / "shot.png"
    check = _check(page, shot)
    print(check.summary())
    data = shot.read_bytes()
    assert len(data) > 1000 and png_size(data) == VIEWPORT == check.screenshot_size
    lay = layout.expected_layout(fixture_report)
    # the fixture: "Pick by need" + "Fits by device" + results table + 4 device tables
    # + 3 section tables; the throughput panels and the seed plot
    assert (lay.table_count, lay.plot_count) == (10, 2)
    assert check.missing == [], check.summary()
    assert (check.tables, check.plots) == (10, 2)
    assert check.section_titles[:4] == ["Pick by need", "Fits by device",
                                        "Throughput against area", "Results"]
    assert check.section_titles == lay.titles
    assert set(check.elements) == set(lay.tables + lay.plots)
    assert check.failed_loads == [] and check.console_errors == []
    assert check.ok


def test_check_reports_a_broken_page(tmp_path: Path, fixture_report: dict[str, Any]) -> None:
    page = _write(fixture_report, tmp_path / "report")
    text = page.read_text()
    # a broken image, a script error, and a lost plot: each must show
    first_plot = text.rindex("<svg", 0, text.index(f'data-aeskit="{layout.THROUGHPUT_PLOT}"'))
    end_plot = text.index("</svg>", first_plot) + len("</svg>")
    broken = (text[:first_plot] + text[end_plot:]).replace(
        "<h1>aeskit report</h1>",
        '<h1>aeskit report</h1><img src="missing.png" alt="x">'
        '<script>console.error("boom"); undefined_function();</script>')
    page.write_text(broken)
    check = _check(page, None)
    print(check.summary())
    assert not check.ok and check.screenshot is None
    assert len(check.failed_loads) == 1 and "missing.png" in check.failed_loads[0]
    assert any("boom" in e for e in check.console_errors)
    assert any("undefined_function" in e for e in check.console_errors)
    assert check.missing is not None
    assert f"{layout.THROUGHPUT_PLOT} not in the page" in check.missing
    assert "1 plots on the page, 2 expected" in check.missing


def test_cli_report_check_browser(tmp_path: Path, fixture_report: dict[str, Any],
                                  monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``aeskit report --check-browser`` checks the page run_report wrote, prints the
    summary, leaves screenshot.png beside it and exits 1 when the page is broken."""
    import aeskit.report
    from aeskit.cli import main

    _need_chromium()
    broken = {"on": False}

    def fake_run_report(cores: object, out: Path, **_kw: object) -> bool:
        page = _write(fixture_report, out)
        if broken["on"]:
            page.write_text(page.read_text().replace("<h1>", '<img src="gone.png"><h1>'))
        return True

    monkeypatch.setattr(aeskit.report, "run_report", fake_run_report)
    out = tmp_path / "rep"
    assert main(["report", "--cores", "round", "--out", str(out), "--check-browser"]) == 0
    text = capsys.readouterr().out
    assert ": OK" in text and "10 tables, 2 SVG plots" in text
    assert png_size((out / "screenshot.png").read_bytes()) == VIEWPORT
    broken["on"] = True
    assert main(["report", "--cores", "round", "--out", str(out), "--check-browser"]) == 1
    assert "gone.png" in capsys.readouterr().out
