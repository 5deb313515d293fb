"""Fmax over the placement seeds, one line per core: the median seed's Fmax as a dot,
a bar from the slowest to the fastest seed, a tick per seed (SVG), and the same
figures as a Markdown table."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

FRONT_COLOUR = "#d62728"
POINT_COLOUR = "#1f77b4"


def svg_open(width: int, height: int, plot_id: str, title: str) -> list[str]:
    """The opening tags of the plot: ``data-aeskit`` names it for the browser check
    (:mod:`aeskit.report.layout`), ``<title>`` describes it."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="11" data-aeskit="{html.escape(plot_id)}" '
            f'role="img">',
            f"<title>{html.escape(title)}</title>",
            f'<rect width="{width}" height="{height}" fill="white"/>']

PLOT_ID = "plot:fmax-seeds"


@dataclass(frozen=True)
class Spread:
    """A core's Fmax by seed; ``note`` instead of figures when it has none (e.g. "does
    not fit (...)")."""

    core: str
    seeds: dict[int, float]
    median: float | None
    low: float | None
    high: float | None
    note: str | None = None


def spreads(rows: list[Mapping[str, Any]]) -> list[Spread]:
    """One :class:`Spread` per synthesized core, in the rows' order (the key sizes of a
    core share its synthesis; its first row speaks for it). A core without a synthesis
    result (``--no-synth``, a failed job) is left out; one that does not fit keeps its
    note."""
    out: list[Spread] = []
    seen: set[str] = set()
    for r in rows:
        core = str(r.get("core"))
        if core in seen:
            continue
        seeds = {int(k): float(v) for k, v in (r.get("fmax_seeds") or {}).items()
                 if v is not None}
        median = r.get("fmax_mhz")
        if median is None:
            note = r.get("does_not_fit")
            if not note:
                continue
            seen.add(core)
            out.append(Spread(core, seeds, None, None, None, str(note)))
            continue
        seen.add(core)
        values = list(seeds.values()) or [float(median)]
        low = r.get("fmax_min")
        high = r.get("fmax_max")
        out.append(Spread(core, seeds, float(median),
                          float(low) if low is not None else min(values),
                          float(high) if high is not None else max(values)))
    return out


def seeds_markdown(rows: list[Mapping[str, Any]]) -> str:
    """The Markdown table: core, Fmax by seed, min, median, max, spread in % of the
    median."""
    sp = spreads(rows)
    if not sp:
        return "No synthesized core in this report."
    lines = ["| core | Fmax MHz by seed | min | median | max | spread |",
             "| --- | --- | --- | --- | --- | --- |"]
    for s in sp:
        by_seed = ", ".join(f"{k}: {v:.1f}" for k, v in sorted(s.seeds.items())) or "–"
        if s.median is None or s.low is None or s.high is None:
            lines.append(f"| {s.core} | {by_seed} | – | {s.note} | – | – |")
            continue
        pct = 100.0 * (s.high - s.low) / s.median if s.median else 0.0
        lines.append(f"| {s.core} | {by_seed} | {s.low:.1f} | {s.median:.1f} | "
                     f"{s.high:.1f} | {pct:.1f} % |")
    return "\n".join(lines)


def seeds_svg(rows: list[Mapping[str, Any]], width: int = 640) -> str:
    """The plot: one line per core, MHz on a linear axis; a bar from min to max, a tick
    per seed, a dot at the median; a core that does not fit shows its note."""
    sp = spreads(rows)
    line_h, top, bottom, left, right = 22, 30, 44, 130, 30
    height = top + bottom + line_h * max(1, len(sp))
    title = "Fmax over the placement seeds: median (dot), min to max (bar), each seed (tick)"
    out = svg_open(width, height, PLOT_ID, title)
    if not sp:
        out.append(f'<text x="{left}" y="{top + 14}">no synthesized cores yet</text></svg>')
        return "\n".join(out)
    values = [v for s in sp for v in [*s.seeds.values(), s.low, s.high, s.median]
              if v is not None]
    if values:
        lo = math.floor(min(values) / 10.0) * 10.0
        hi = math.ceil(max(values) / 10.0) * 10.0
    else:
        lo, hi = 0.0, 100.0
    hi = max(hi, lo + 10.0)

    def sx(v: float) -> float:
        return left + (v - lo) / (hi - lo) * (width - left - right)

    base = top + line_h * len(sp)
    out.append(f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" stroke="black"/>')
    step = _tick_step(hi - lo)
    t = lo
    while t <= hi + 1e-9:
        out.append(f'<line x1="{sx(t):.1f}" y1="{top}" x2="{sx(t):.1f}" y2="{base}" '
                   f'stroke="#eee"/>'
                   f'<text x="{sx(t):.1f}" y="{base + 16}" text-anchor="middle">{t:g}</text>')
        t += step
    out.append(f'<text x="{(left + width - right) / 2}" y="{base + 34}" '
               f'text-anchor="middle">Fmax MHz</text>')
    for k, s in enumerate(sp):
        y = top + line_h * k + line_h / 2
        out.append(f'<text x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">'
                   f'{html.escape(s.core)}</text>')
        if s.median is None or s.low is None or s.high is None:
            out.append(f'<text x="{left + 4}" y="{y + 4:.1f}" fill="#a00">'
                       f'{html.escape(s.note or "")}</text>')
            continue
        out.append(f'<line class="spread" x1="{sx(s.low):.1f}" y1="{y:.1f}" '
                   f'x2="{sx(s.high):.1f}" y2="{y:.1f}" stroke="{POINT_COLOUR}" '
                   f'stroke-width="4" stroke-linecap="round"/>')
        for seed, v in sorted(s.seeds.items()):
            out.append(f'<line class="seed" x1="{sx(v):.1f}" y1="{y - 6:.1f}" x2="{sx(v):.1f}" '
                       f'y2="{y + 6:.1f}" stroke="black"><title>seed {seed}: {v:.1f} MHz'
                       f'</title></line>')
        out.append(f'<circle class="median" cx="{sx(s.median):.1f}" cy="{y:.1f}" r="5" '
                   f'fill="{FRONT_COLOUR}"><title>{html.escape(s.core)}: median '
                   f'{s.median:.1f} MHz, {s.low:.1f}-{s.high:.1f} over '
                   f'{len(s.seeds) or 1} seed(s)</title></circle>')
    out.append("</svg>")
    return "\n".join(out)


def _tick_step(span: float) -> float:
    """A round tick distance giving 4 to 10 ticks over ``span`` MHz."""
    for step in (1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 500.0):
        if span / step <= 10:
            return step
    return 1000.0
