"""The report's first screen (the throughput-against-area panels with the Pareto front,
block RAM and the peers; "Fits by device"; the one-row-per-core results table with its
"measured" column), the seed-spread plot and the FPGA families section, rendered from a
fixture report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aeskit.report import families, fits, layout, results_table, seeds, tradeoff
from aeskit.report.provenance import measured
from aeskit.report.render import write_html, write_markdown
from aeskit.report.sections.peers import PEERS


def test_measured_column() -> None:
    assert measured({}) == "–"
    assert measured({"provenance": {"synth": "measured now", "sim": "measured now"}}) == "now"
    assert measured({"provenance": {"synth": "reused 1a2b3c4", "sim": "reused 1a2b3c4"}}) \
        == "reused 1a2b3c4"
    assert measured({"provenance": {"synth": "reused 1a2b3c4", "sim": "measured now"}}) \
        == "synth reused 1a2b3c4, sim now"
    assert measured({"provenance": {"synth": "measured now"}}) == "synth now, sim –"


def _results_cells(md: str) -> dict[str, list[str]]:
    """The results table of a report.md: core -> its cells."""
    part = md.split(f"## {layout.RESULTS_TITLE}")[1].split("## Fmax")[0]
    return {ln.split("|")[1].strip(): [c.strip() for c in ln.strip().strip("|").split("|")]
            for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("| core")}


def test_markdown_has_measured_seeds_and_families(tmp_path: Path,
                                                  fixture_report: dict[str, Any]) -> None:
    write_markdown(fixture_report, tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    col = {k: i for i, (k, _, _) in enumerate(results_table.COLUMNS)}
    cells = _results_cells(md)
    # one row per core: round's three key sizes share one
    assert list(cells) == ["round", "pipe2", "tbox_folded", "ttable_unrolled", "lutz"]
    assert cells["pipe2"][col["provenance"]] == "synth reused 1a2b3c4, sim now"
    assert cells["round"][col["provenance"]] == "now"
    assert cells["ttable_unrolled"][col["provenance"]] == "–"
    # round: per key size in the build's order, area and clock once
    assert cells["round"][col["build"]] == "both 128/192/256"
    assert cells["round"][col["interval"]] == "10/12/14"
    assert cells["round"][col["latency"]] == "10/10/10"
    assert cells["round"][col["lut4"]] == "2,100"
    assert cells["round"][col["fmax_mhz"]] == "71.0 (68.5-74.2)"
    assert cells["round"][col["mbps"]] == "/".join(
        f"{128 * 71.0 / itv:,.0f}" for itv in (10, 12, 14))
    assert cells["round"][col["checks"]] == "pass 30/30"
    assert cells["ttable_unrolled"][col["fmax_mhz"]] == "does not fit (needs 220 of 208 DP16KD)"
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
    # the table of contents links every heading
    for title in ("Pick by need", "Fits by device", "Throughput against area", "Results",
                  "Critical paths", "Paper 004"):
        assert f"[{title}](#{title.lower().replace(' ', '-')})" in md


def test_decryption_cycles_named_where_they_differ(fixture_report: dict[str, Any]) -> None:
    g = results_table.groups(fixture_report["rows"])[0]
    assert results_table.cells(g)[2] == "10/10/10"
    g[1] = {**g[1], "latency_dec": 13}
    assert results_table.cells(g)[2] == "10/10/10 (dec 10/13/10)"
    enc_only = [{**r, "latency_dec": None, "interval_dec": None} for r in g[:1]]
    assert results_table.cells(enc_only)[1] == "enc 128"


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


def test_panels_mark_the_front_block_ram_and_peers(fixture_report: dict[str, Any]) -> None:
    ps = tradeoff.panels(fixture_report)
    # the main device, then the family devices other than it
    assert [p.device for p in ps] == ["LFE5U-85F", "iCE40-UP5K", "iCE40-HX8K", "LIFCL-40"]
    main = ps[0]
    cores = {m.name: m for m in main.marks if m.kind == "core"}
    # one mark per core (round at AES-128); ttable_unrolled does not fit: no mark
    assert sorted(cores) == ["lutz", "pipe2", "round", "tbox_folded"]
    assert cores["round"].mbps == 128 * 71.0 / 10
    # tbox_folded (1,500 LUT4) < round (2,100) < pipe2 (3,400); lutz is dominated
    assert main.front == ["tbox_folded", "round", "pipe2"]
    assert [m.name for m in main.marks if m.kind == "peer"] == [
        p.name.replace("`", "") for p in PEERS]
    # the iCE40 panels count logic cells and name their RAMs so
    up5k = ps[1]
    assert up5k.area_label == "logic cells" and up5k.front == ["tbox_folded", "round", "pipe2"]
    assert all(m.kind == "core" for m in up5k.marks)
    assert {m.label for m in up5k.marks} >= {"round · 4 RAM"}
    assert sorted(m.name for m in ps[2].marks) == ["pipe2", "round", "tbox_folded"]
    assert tradeoff.label_of("x", 8) == "x · 8 EBR" and tradeoff.label_of("x", 0) == "x"


def test_tradeoff_svg_draws_every_mark_and_label(fixture_report: dict[str, Any]) -> None:
    svg = tradeoff.tradeoff_svg(fixture_report, layout.THROUGHPUT_PLOT)
    assert svg.startswith("<svg ") and f'data-aeskit="{layout.THROUGHPUT_PLOT}"' in svg
    assert svg.count("<svg") == 1
    for name in ("tbox_folded", "round", "pipe2"):
        assert f'id="front:{name}"' in svg and f'id="label:{name}"' in svg
    assert 'id="point:lutz"' in svg and "ttable_unrolled" not in svg.split("UP5K")[0]
    assert 'id="peer:tiny_aes aes_128"' in svg
    assert svg.count('id="front-line"') == 4


def test_fits_by_device(fixture_report: dict[str, Any]) -> None:
    devs = {d.device: d for d in fits.fits(fixture_report)}
    assert list(devs) == ["LFE5U-85F", "LFE5U-12F", "LFE5U-25F", "LFE5U-45F", "iCE40-UP5K",
                          "iCE40-HX8K", "LIFCL-40"]
    main = devs["LFE5U-85F"]
    assert main.judged_by == fits.PLACED and main.total == 5
    assert sorted(r["core"] for r in main.fitting) == ["lutz", "pipe2", "round", "tbox_folded"]
    assert main.cells()[2:] == ["4 of 5", "`tbox_folded` (1,500)", "`pipe2` (1,153)"]
    assert devs["LFE5U-12F"].judged_by == fits.BY_COUNT
    # HX8K: lutz fits but does not route; ttable_unrolled does not fit
    assert sorted(r["core"] for r in devs["iCE40-HX8K"].fitting) == [
        "pipe2", "round", "tbox_folded"]
    # a core of 13,000 LUT4 fits the 25F by count, not the 12F (rated 12K LUT4)
    big = {**fixture_report["rows"][6], "core": "big", "lut4": 13000, "ff": 100}
    devs = {d.device: d for d in fits.fits({**fixture_report,
                                            "rows": [*fixture_report["rows"], big]})}
    assert "big" not in [r["core"] for r in devs["LFE5U-12F"].fitting]
    assert "big" in [r["core"] for r in devs["LFE5U-25F"].fitting]
    # a device where nothing routes says so plainly
    fam = [{**r, "fmax_mhz": None} if r["device"] == "LIFCL-40" else r
           for r in fixture_report["family_rows"]]
    nexus = next(d for d in fits.fits({**fixture_report, "family_rows": fam})
                 if d.device == "LIFCL-40")
    assert nexus.cells()[2:] == ["none of 5: no core fits", "-", "-"]


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
    assert lay.tables == ["table:pick", fits.FITS_TABLE, layout.RESULTS_TABLE]
    assert lay.plots == [layout.THROUGHPUT_PLOT, seeds.PLOT_ID]
    assert lay.table_count == 3 + 3
    # without family rows the iCE40 question says so instead of naming a core
    assert "no core fits the iCE40-UP5K in this report" in page
    for name in lay.tables + lay.plots:
        assert f'data-aeskit="{name}"' in page
