"""What a rendered report page must contain, derived from ``report.json`` alone: the
browser check (:mod:`aeskit.report.browser`) compares the page Chromium loaded
against it.

"Every table and plot present" means, for a page written by
:func:`aeskit.report.render.write_html` from a report dict:

* every ``<h2>`` title of :func:`expected_layout` (the fixed ones, then one per entry
  of ``report["sections"]``) is in the DOM;
* every named element (``data-aeskit`` attribute: the "Pick by need" table, the
  "Fits by device" table, the results table, the throughput-vs-area plot (one panel
  per device), the Fmax-over-seeds plot, and per device of ``report["family_rows"]``
  its table) is in the DOM and laid out with a non-zero width and height;
* the page has exactly as many ``<table>`` elements as named tables plus the pipe
  tables in the sections' Markdown, and exactly as many top-level ``<svg>`` plots as
  named plots.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from aeskit.report import families
from aeskit.report.fits import FITS_TABLE, FITS_TITLE
from aeskit.report.pick import PICK_TABLE, PICK_TITLE

RESULTS_TITLE = "Results"
THROUGHPUT_TITLE = "Throughput against area"
SEEDS_TITLE = "Fmax over placement seeds"
RESULTS_TABLE = "table:results"
THROUGHPUT_PLOT = "plot:throughput-area"
SEEDS_PLOT = "plot:fmax-seeds"


@dataclass
class Layout:
    """The expected page: section titles in order, named tables and plots, totals."""

    titles: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    plots: list[str] = field(default_factory=list)
    table_count: int = 0
    plot_count: int = 0


def markdown_blocks(md: str) -> list[list[str]]:
    """A section's Markdown split into blocks (at blank lines), each a list of lines."""
    return [b.strip().splitlines() for b in re.split(r"\n\s*\n", md.strip()) if b.strip()]


def is_table(block: list[str]) -> bool:
    """A pipe table: every line of the block starts with ``|``."""
    return bool(block) and all(x.strip().startswith("|") for x in block)


def fixed_titles(report: Mapping[str, Any]) -> list[str]:
    """The page's own ``<h2>`` titles in order (the sections' follow): "Fits by device"
    only when the report has rows."""
    fit = [FITS_TITLE] if report.get("rows") else []
    return [PICK_TITLE, *fit, THROUGHPUT_TITLE, RESULTS_TITLE, SEEDS_TITLE, families.TITLE]


def expected_layout(report: Mapping[str, Any]) -> Layout:
    from aeskit.report.fits import fits

    devices = [d for _, d in families.devices(report)]
    sections = list(report.get("sections", []))
    fit_table = [FITS_TABLE] if report.get("rows") and fits(report) else []
    lay = Layout(
        titles=[*fixed_titles(report), *(str(s["title"]) for s in sections)],
        tables=[PICK_TABLE, *fit_table, RESULTS_TABLE,
                *(families.table_id(d) for d in devices)],
        plots=[THROUGHPUT_PLOT, SEEDS_PLOT])
    section_tables = sum(is_table(b) for s in sections
                         for b in markdown_blocks(str(s.get("markdown", ""))))
    lay.table_count = len(lay.tables) + section_tables
    lay.plot_count = len(lay.plots)
    return lay


def compare(layout: Layout, titles: list[str], sizes: Mapping[str, tuple[float, float]],
            table_count: int, plot_count: int) -> list[str]:
    """What the page lacks against ``layout``, one line each (empty: all present).
    ``sizes``: every ``data-aeskit`` element of the page with its laid-out width and
    height in CSS pixels."""
    missing = [f"section title {t!r}" for t in layout.titles if t not in titles]
    for name in [*layout.tables, *layout.plots]:
        if name not in sizes:
            missing.append(f"{name} not in the page")
        elif min(sizes[name]) <= 0:
            missing.append(f"{name} has no size on the page ({sizes[name][0]:g} x "
                           f"{sizes[name][1]:g})")
    if table_count != layout.table_count:
        missing.append(f"{table_count} tables on the page, {layout.table_count} expected")
    if plot_count != layout.plot_count:
        missing.append(f"{plot_count} plots on the page, {layout.plot_count} expected")
    return missing
