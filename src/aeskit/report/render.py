"""Render the report data as Markdown and as HTML: the results table, inline SVG plots
(throughput against area with the Pareto front, Fmax over the placement seeds), the FPGA
families section and the report sections. The HTML page is self-contained: no scripts,
no external resources; its tables and plots carry ``data-aeskit`` names that
:mod:`aeskit.report.layout` expects."""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aeskit.report import families, fits, layout, pick, results_table, seeds, tradeoff
from aeskit.report.results_table import misfit_note

__all__ = ["markdown_to_html", "misfit_note", "plot_svg", "write_html", "write_markdown"]


def _slug(title: str) -> str:
    """The anchor of a heading, as GitHub forms it for the Markdown: lower case, spaces
    to hyphens, other punctuation dropped."""
    import re

    s = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return s.replace(" ", "-")


def _titles(report: Mapping[str, Any]) -> list[str]:
    """Every ``##`` title of the page, in order (the table of contents)."""
    return [*layout.fixed_titles(report), *(str(s["title"]) for s in report.get("sections", []))]


def _contents_markdown(report: Mapping[str, Any]) -> list[str]:
    return ["Contents: " + " · ".join(f"[{t}](#{_slug(t)})" for t in _titles(report)), ""]


def write_markdown(report: dict[str, Any], path: Path) -> None:
    lines = ["# aeskit report", "",
             f"Generated {report['generated']} by aeskit {report['aeskit_version']}.", "",
             f"Flow: {report['flow']['device']}. {report['flow']['throughput']}.", "",
             *_contents_markdown(report),
             "Latency: cycles from the accepting edge to the first edge with `out_valid_o`; "
             "interval: cycles between accepted blocks of a continuous, unstalled stream. "
             "Checks: NIST ECB KAT/MMT + random stalled blocks through the compiled harness.", "",
             f"## {pick.PICK_TITLE}", "", pick.picks_markdown(report), ""]
    if report.get("rows"):
        lines += [f"## {fits.FITS_TITLE}", "", fits.fits_markdown(report), ""]
    lines += [f"## {layout.THROUGHPUT_TITLE}", "",
              f"![{layout.THROUGHPUT_TITLE}](throughput_vs_area.svg)", "",
              tradeoff.CAPTION, "",
              f"## {layout.RESULTS_TITLE}", "", results_table.NOTE, ""]
    hdr = results_table.HEADER
    lines.append("| " + " | ".join(hdr) + " |")
    lines.append("|" + "---|" * len(hdr))
    for g in results_table.groups(report["rows"]):
        lines.append("| " + " | ".join(c.replace("|", "/") for c in results_table.cells(g))
                     + " |")
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


def plot_svg(report: Mapping[str, Any]) -> str:
    """The throughput-against-area panels (:mod:`aeskit.report.tradeoff`) as inline SVG."""
    return tradeoff.tradeoff_svg(report, layout.THROUGHPUT_PLOT)


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


def _h2(title: str) -> str:
    return f'<h2 id="{_slug(title)}">{html.escape(title)}</h2>'


def _table_html(name: str, header: Sequence[str], rows: Sequence[Sequence[str]],
                classes: Sequence[str] | None = None,
                tips: Sequence[str] | None = None) -> str:
    """A named table; ``classes`` a row's class attribute text, ``tips`` its first
    cell's tooltip."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)

    def cell(i: int, k: int, c: str) -> str:
        tip = f' title="{html.escape(tips[i])}"' if tips and k == 0 else ""
        return f"<td{tip}>{html.escape(c.replace('`', ''))}</td>"

    body = "\n".join(
        f"<tr{classes[i] if classes else ''}>"
        + "".join(cell(i, k, c) for k, c in enumerate(cells)) + "</tr>"
        for i, cells in enumerate(rows))
    return f'<table data-aeskit="{name}"><tr>{head}</tr>\n{body}\n</table>'


def write_html(report: dict[str, Any], path: Path) -> None:
    svg = plot_svg(report)
    (path.parent / "throughput_vs_area.svg").write_text(svg)
    seeds_svg = seeds.seeds_svg(report["rows"])
    groups = results_table.groups(report["rows"])
    results = _table_html(layout.RESULTS_TABLE, results_table.HTML_HEADER,
                          [results_table.cells(g, results_table.HTML_KEYS) for g in groups],
                          [' class="fail"' if results_table.failed(g) else "" for g in groups],
                          [f"measured: {results_table.cells(g, ['provenance'])[0]}"
                           for g in groups])
    picks = _table_html(pick.PICK_TABLE, pick.HEADER, pick.pick_cells(report))
    fit_html = ""
    if report.get("rows"):
        devs = fits.fits(report)
        fit_html = _h2(fits.FITS_TITLE) + "\n" + (
            f"<p>{html.escape(fits.INTRO)}</p>\n"
            + _table_html(fits.FITS_TABLE, fits.HEADER, [d.cells() for d in devs])
            if devs else f"<p>{html.escape(fits.fits_markdown(report))}</p>")
    toc = "".join(f'<li><a href="#{_slug(t)}">{html.escape(t)}</a></li>'
                  for t in _titles(report))
    sections = "\n".join(f"{_h2(str(sec['title']))}\n{markdown_to_html(sec['markdown'])}"
                         for sec in report.get("sections", []))
    doc = f"""<!doctype html>
<html><head><meta charset="utf-8"><title>aeskit report</title>
<style>body{{font-family:sans-serif;margin:1.5em}}table{{border-collapse:collapse;font-size:13px}}
td,th{{border:1px solid #ccc;padding:2px 5px;text-align:right}}td{{white-space:nowrap}}tr.fail td{{background:#fdd}}
tr.misfit td{{background:#fff4d6}}svg{{display:block;margin:1em 0;max-width:100%;height:auto}}
nav ul{{columns:3;font-size:90%}}</style>
</head><body>
<h1>aeskit report</h1>
<p>Generated {html.escape(report['generated'])} by aeskit {html.escape(report['aeskit_version'])}.
Flow: {html.escape(report['flow']['device'])}. {html.escape(report['flow']['throughput'])}.</p>
<nav><b>Contents</b><ul>{toc}</ul></nav>
{_h2(pick.PICK_TITLE)}
{picks}
{fit_html}
{_h2(layout.THROUGHPUT_TITLE)}
{svg}
<p>{html.escape(tradeoff.CAPTION)}</p>
{_h2(layout.RESULTS_TITLE)}
<p>{html.escape(results_table.NOTE)}</p>
{results}
{_h2(layout.SEEDS_TITLE)}
{seeds_svg}
{_h2(families.TITLE)}
{families.families_html(report)}
{sections}
<p>Data: <a href="report.json">report.json</a>, <a href="report.md">report.md</a>.</p>
</body></html>
"""
    path.write_text(doc)
