"""The report's seed-spread plot, FPGA families section, Pareto marks and the
"measured" (provenance) column, rendered from a fixture report."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from aeskit.report import families, layout, seeds
from aeskit.report.provenance import measured
from aeskit.report.render import COLUMNS, plot_svg, write_html, write_markdown


def test_measured_column() -> None:
    assert measured({}) == "–"
    assert measured({"provenance": {"synth": "measured now", "sim": "measured now"}}) == "now"
    assert measured({"provenance": {"synth": "reused 1a2b3c4", "sim": "reused 1a2b3c4"}}) \
        == "reused 1a2b3c4"
    assert measured({"provenance": {"synth": "reused 1a2b3c4", "sim": "measured now"}}) \
        == "synth reused 1a2b3c4, sim now"
    assert measured({"provenance": {"synth": "measured now"}}) == "synth now, sim –"


def test_markdown_has_measured_seeds_and_families(tmp_path: Path,
                                                  fixture_report: dict[str, Any]) -> None:
    write_markdown(fixture_report, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    col = [k for k, _, _ in COLUMNS].index("provenance")
    cells = {ln.split("|")[1].strip() + ln.split("|")[2].strip(): ln.strip("|").split("|")
             for ln in md.split("## Fmax")[0].splitlines() if ln.startswith("| ")}
    assert cells["pipe2128"][col].strip() == "synth reused 1a2b3c4, sim now"
    assert cells["round192"][col].strip() == "now"
    assert cells["ttable_unrolled128"][col].strip() == "–"
    assert "## Fmax over placement seeds" in md
    assert "| round | 1: 71.0, 2: 68.5, 3: 74.2 | 68.5 | 71.0 | 74.2 | 8.0 % |" in md
    assert "| tbox_folded | 1: 60.0 | 60.0 | 60.0 | 60.0 | 0.0 % |" in md
    assert ("| ttable_unrolled | – | – | does not fit (needs 220 of 208 DP16KD) | – | – |"
            in md)
    assert "## FPGA families" in md
    for heading in ("LFE5U-85F (ECP5)", "iCE40-UP5K (iCE40)", "iCE40-HX8K (iCE40)",
                    "LIFCL-40 (Nexus)"):
        assert f"### {heading}" in md
    assert ("| ttable_unrolled | 128 | 13,685 | 6,842 | 4 | 0 | does not fit (needs 13,685 of "
            "5,280 LUT4) | 1 | – | – | LUT4 13,685/5,280 (259 %), FF 6,842/5,280 (130 %) | "
            "synth now, sim reused 1a2b3c4 |") in md
    assert "| lutz | 128 | 5,000 | 2,500 | 4 | 0 | no Fmax (did not route) |" in md


def test_families_order_and_every_core_has_a_row(fixture_report: dict[str, Any]) -> None:
    fixture_report["family_rows"] = [r for r in fixture_report["family_rows"]
                                     if not (r["device"] == "LIFCL-40" and r["core"] == "pipe2")]
    tables = families.device_tables(fixture_report)
    assert [t.device for t in tables] == ["LFE5U-85F", "iCE40-UP5K", "iCE40-HX8K", "LIFCL-40"]
    nexus = tables[-1]
    # the main rows' round-192/256 and the dropped pipe2 still get a row
    assert [r[0] + str(r[1]) for r in nexus.rows] == [
        "round128", "round192", "round256", "pipe2128", "tbox_folded128",
        "ttable_unrolled128", "lutz128"]
    assert next(r for r in nexus.rows if r[0] == "pipe2")[6] == families.NOT_RUN


def test_pareto_front_marked_on_plots(fixture_report: dict[str, Any]) -> None:
    svg = plot_svg(fixture_report["rows"])
    front = re.findall(r'<circle cx="[\d.]+" cy="[\d.]+" class="front".*?<title>([^:]+):', svg)
    # tbox_folded (1,500 LUT4) < round-128 (2,100) < pipe2 (3,400); lutz and the slower
    # round key sizes are dominated; ttable_unrolled does not fit (no point)
    assert front == ["round-128", "pipe2-128", "tbox_folded-128"]
    assert svg.count("<circle") == 6 and "ttable_unrolled" not in svg
    assert 'class="front-line"' in svg
    up5k = next(t for t in families.device_tables(fixture_report) if t.device == "iCE40-UP5K")
    assert up5k.svg.count('class="front"') == 3 and up5k.svg.count("<circle") == 4


def test_seed_plot_lines(fixture_report: dict[str, Any]) -> None:
    svg = seeds.seeds_svg(fixture_report["rows"])
    assert f'data-aeskit="{seeds.PLOT_ID}"' in svg
    # one line per core: a median dot for the four that route, a note for the misfit
    assert svg.count('class="median"') == 4 and svg.count('class="spread"') == 4
    assert svg.count('class="seed"') == 3 + 3 + 1 + 2
    assert "does not fit (needs 220 of 208 DP16KD)" in svg
    assert "no synthesized cores yet" in seeds.seeds_svg([])


def test_report_without_family_rows_still_renders(tmp_path: Path,
                                                  fixture_report: dict[str, Any]) -> None:
    del fixture_report["family_rows"]
    for r in fixture_report["rows"]:
        for k in ("provenance", "fmax_seeds", "fmax_min", "fmax_max"):
            r.pop(k, None)
    write_html(fixture_report, tmp_path / "index.html")
    write_markdown(fixture_report, tmp_path / "r.md")
    page = (tmp_path / "index.html").read_text()
    assert families.NONE_TEXT in page and families.NONE_TEXT in (tmp_path / "r.md").read_text()
    lay = layout.expected_layout(fixture_report)
    assert lay.tables == ["table:pick", layout.RESULTS_TABLE]
    assert lay.plots == [layout.THROUGHPUT_PLOT, seeds.PLOT_ID]
    assert lay.table_count == 2 + 3
    # without family rows the iCE40 question says so instead of naming a core
    assert "no core fits the iCE40-UP5K in this report" in page
    for name in lay.tables + lay.plots:
        assert f'data-aeskit="{name}"' in page
