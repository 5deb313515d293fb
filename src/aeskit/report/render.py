"""Render the report data as Markdown and as HTML: the results table, inline SVG plots
(throughput against area with the Pareto front, Fmax over the placement seeds), the FPGA
families section and the report sections. The HTML page is self-contained: no scripts,
no external resources; its tables and plots carry ``data-aeskit`` names that
:mod:`aeskit.report.layout` expects."""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aeskit.report.numbers import num

from aeskit.report import families, layout, pick, seeds
from aeskit.report.provenance import measured
from aeskit.report.svgplot import Point, throughput_area_svg
from aeskit.synth.fit import Misfit

COLUMNS: list[tuple[str, str, str]] = [
    # key, header, format
    ("core", "core", "s"),
    ("key_size", "key", "d"),
    ("latency", "latency", "d"),
    ("interval", "interval", ".1f"),
    ("latency_dec", "lat. dec", "d"),
    ("interval_dec", "int. dec", ".1f"),
    ("key_setup", "key setup", "d"),
    ("lut4", "LUT4", "d"),
    ("ff", "FF", "d"),
    ("ebr", "EBR", "d"),
    ("dsp", "DSP", "d"),
    ("fmax_mhz", "Fmax MHz", ".1f"),
    ("fmax_spread", "Fmax min-max", "s"),
    ("ge", "GE", ".0f"),
    ("mbps", "Mbps", ".0f"),
    ("mbps_per_lut", "Mbps/LUT", ".3f"),
    ("kbps_per_ge", "kbps/GE", ".1f"),
    ("provenance", "measured", "prov"),
]


def misfit_note(d: Mapping[str, Any]) -> str | None:
    """``does not fit (needs N of M X)`` for a report row or a ``synth.json`` of a
    design that does not fit its device; None for everything else."""
    note = d.get("does_not_fit")
    if note:
        return str(note)
    if d.get("fits") is False and d.get("misfit"):
        return Misfit.from_json(d["misfit"]).note()
    return None


def _cell(r: Mapping[str, Any], key: str, f: str) -> str:
    """A table cell; the Fmax cell of a design that does not fit says so."""
    if key == "fmax_mhz" and r.get("fmax_mhz") is None:
        note = misfit_note(r)
        if note:
            return note
    if f == "prov":
        return measured(r)
    return _fmt(r.get(key), f)


def _fmt(v: Any, f: str) -> str:
    return num(v, f, missing="–")


def _status(r: dict[str, Any]) -> str:
    if r["errors"]:
        return "ERROR"
    if not r["tests_ok"]:
        return f"FAIL {r['tests_passed']}/{r['tests_total']}"
    claims = "" if r.get("claims_ok", True) else ", cycles differ from the registry's claim"
    return f"pass {r['tests_passed']}/{r['tests_total']}{claims}"


def write_markdown(report: dict[str, Any], path: Path) -> None:
    lines = ["# aeskit report", "",
             f"Generated {report['generated']} by aeskit {report['aeskit_version']}.", "",
             f"Flow: {report['flow']['device']}. {report['flow']['throughput']}.", "",
             "Latency: cycles from the accepting edge to the first edge with `out_valid_o`; "
             "interval: cycles between accepted blocks of a continuous, unstalled stream. "
             "Checks: NIST ECB KAT/MMT + random stalled blocks through the compiled harness.", "",
             f"## {pick.PICK_TITLE}", "", pick.picks_markdown(report), "",
             f"## {layout.RESULTS_TITLE}", ""]
    hdr = [h for _, h, _ in COLUMNS] + ["checks"]
    lines.append("| " + " | ".join(hdr) + " |")
    lines.append("|" + "---|" * len(hdr))
    for r in report["rows"]:
        cells = [_cell(r, k, f) for k, _, f in COLUMNS] + [_status(r)]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"## {layout.SEEDS_TITLE}", "", seeds.seeds_markdown(report["rows"])]
    lines += ["", f"## {families.TITLE}", "", families.families_markdown(report)]
    for sec in report.get("sections", []):
        lines += ["", f"## {sec['title']}", "", sec["markdown"]]
    errs = [(r["core"], e) for r in report["rows"] for e in r["errors"]]
    if errs:
        lines += ["", "## Errors", ""]
        seen = set()
        for core, e in errs:
            if (core, e) not in seen:
                seen.add((core, e))
                lines.append(f"- **{core}**: {e.splitlines()[0] if e else e}")
    path.write_text("\n".join(lines) + "\n")


def plot_svg(rows: list[dict[str, Any]], width: int = 640, height: int = 400) -> str:
    """Scatter plot: throughput (Mbps, log) against LUT4 (log), one point per core/key
    with an Fmax (a design that does not fit its device has none and is left out); the
    Pareto front highlighted and joined by a staircase."""
    pts = [Point(float(r["lut4"]), float(r["mbps"]), f"{r['core']}-{r['key_size']}")
           for r in rows if r.get("lut4") and r.get("mbps") and r.get("fmax_mhz")]
    return throughput_area_svg(pts, plot_id=layout.THROUGHPUT_PLOT,
                               title="Throughput against area (ECP5), Pareto front marked",
                               width=width, height=height)


def markdown_to_html(md: str) -> str:
    """The small Markdown subset sections use: paragraphs, pipe tables, bullet lists,
    `code`, **bold** and headings (###)."""
    import re

    def inline(t: str) -> str:
        t = html.escape(t)
        t = re.sub(r"`([^`]+)`", r"<code>\1</code>", t)
        return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", t)

    out: list[str] = []
    for ls in layout.markdown_blocks(md):
        if layout.is_table(ls):
            cells = [[c.strip() for c in x.strip().strip("|").split("|")] for x in ls]
            body = [r for r in cells[1:] if not all(set(c) <= set("-: ") for c in r)]
            out.append("<table><tr>" + "".join(f"<th>{inline(c)}</th>" for c in cells[0])
                       + "</tr>" + "".join("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in r)
                                           + "</tr>" for r in body) + "</table>")
        elif ls and all(x.lstrip().startswith("- ") for x in ls):
            out.append("<ul>" + "".join(f"<li>{inline(x.lstrip()[2:])}</li>" for x in ls) + "</ul>")
        elif ls and ls[0].startswith("#"):
            level = min(6, len(ls[0]) - len(ls[0].lstrip("#")))
            out.append(f"<h{level}>{inline(ls[0].lstrip('#').strip())}</h{level}>")
            if ls[1:]:
                out.append(f"<p>{inline(' '.join(ls[1:]))}</p>")
        else:
            out.append(f"<p>{inline(' '.join(ls))}</p>")
    return "\n".join(out)


def write_html(report: dict[str, Any], path: Path) -> None:
    svg = plot_svg(report["rows"])
    (path.parent / "throughput_vs_area.svg").write_text(svg)
    head = "".join(f"<th>{html.escape(h)}</th>" for _, h, _ in COLUMNS) + "<th>checks</th>"
    seeds_svg = seeds.seeds_svg(report["rows"])
    body = []
    for r in report["rows"]:
        cls = "" if (r["tests_ok"] and not r["errors"]) else ' class="fail"'
        cells = "".join(f"<td>{html.escape(_cell(r, k, f))}</td>" for k, _, f in COLUMNS)
        body.append(f"<tr{cls}>{cells}<td>{html.escape(_status(r))}</td></tr>")
    pick_head = "".join(f"<th>{html.escape(h)}</th>" for h in pick.HEADER)
    pick_body = "\n".join("<tr>" + "".join(
        f"<td>{html.escape(c.strip('`'))}</td>" for c in cells) + "</tr>"
        for cells in pick.pick_cells(report))
    sections = "\n".join(f"<h2>{html.escape(sec['title'])}</h2>\n{markdown_to_html(sec['markdown'])}"
                         for sec in report.get("sections", []))
    doc = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>aeskit report</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:3px 8px;text-align:right}}tr.fail td{{background:#fdd}}
tr.misfit td{{background:#fff4d6}}svg{{display:block;margin:1em 0}}</style>
</head><body>
<h1>aeskit report</h1>
<p>Generated {html.escape(report['generated'])} by aeskit {html.escape(report['aeskit_version'])}.
Flow: {html.escape(report['flow']['device'])}. {html.escape(report['flow']['throughput'])}.</p>
<h2>{pick.PICK_TITLE}</h2>
<table data-aeskit="{pick.PICK_TABLE}"><tr>{pick_head}</tr>
{pick_body}
</table>
<h2>{layout.RESULTS_TITLE}</h2>
<table data-aeskit="{layout.RESULTS_TABLE}"><tr>{head}</tr>
{chr(10).join(body)}
</table>
<h2>{layout.THROUGHPUT_TITLE}</h2>
{svg}
<h2>{layout.SEEDS_TITLE}</h2>
{seeds_svg}
<h2>{families.TITLE}</h2>
{families.families_html(report)}
{sections}
<p>Data: <a href="report.json">report.json</a>, <a href="report.md">report.md</a>.</p>
</body></html>
"""
    path.write_text(doc)
