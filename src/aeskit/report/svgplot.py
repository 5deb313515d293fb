"""Inline SVG plots of the report: throughput against area on log axes with the Pareto
front marked. Plain SVG text, no scripts and no external resources."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass

from aeskit.report.pareto import pareto_front, step_line

FRONT_COLOUR = "#d62728"
POINT_COLOUR = "#1f77b4"


@dataclass(frozen=True)
class Point:
    """One design in a plot: area (logic cells), throughput (Mbps), its label."""

    area: float
    mbps: float
    label: str


def svg_open(width: int, height: int, plot_id: str, title: str) -> list[str]:
    """The opening tags of a plot: ``data-aeskit`` names it for the browser check
    (:mod:`aeskit.report.layout`), ``<title>`` describes it."""
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'font-family="sans-serif" font-size="11" data-aeskit="{html.escape(plot_id)}" '
            f'role="img">',
            f"<title>{html.escape(title)}</title>",
            f'<rect width="{width}" height="{height}" fill="white"/>']


def throughput_area_svg(points: list[Point], *, plot_id: str, title: str,
                        area_label: str = "LUT4", width: int = 640, height: int = 400,
                        empty: str = "no synthesized cores yet") -> str:
    """Scatter plot of throughput (Mbps, log) against area (log), one circle per point;
    the points on the Pareto front (:func:`aeskit.report.pareto.pareto_front`) are
    highlighted (``class="front"``) and joined by the staircase of the best throughput
    within an area budget."""
    m = 60
    out = svg_open(width, height, plot_id, title)
    pts = [p for p in points if p.area > 0 and p.mbps > 0]
    if not pts:
        out.append(f'<text x="{m}" y="{height // 2}">{html.escape(empty)}</text></svg>')
        return "\n".join(out)
    xs = [math.log10(p.area) for p in pts]
    ys = [math.log10(p.mbps) for p in pts]
    x0, x1 = math.floor(min(xs)), math.ceil(max(xs) + 1e-9)
    y0, y1 = math.floor(min(ys)), math.ceil(max(ys) + 1e-9)
    x1, y1 = max(x1, x0 + 1), max(y1, y0 + 1)

    def sx(v: float) -> float:
        return m + (math.log10(v) - x0) / (x1 - x0) * (width - 2 * m)

    def sy(v: float) -> float:
        return height - m - (math.log10(v) - y0) / (y1 - y0) * (height - 2 * m)

    out.append(f'<line x1="{m}" y1="{height - m}" x2="{width - m}" y2="{height - m}" '
               f'stroke="black"/>')
    out.append(f'<line x1="{m}" y1="{m}" x2="{m}" y2="{height - m}" stroke="black"/>')
    for e in range(x0, x1 + 1):
        out.append(f'<text x="{sx(10.0 ** e):.0f}" y="{height - m + 16}" '
                   f'text-anchor="middle">{10 ** e:g}</text>')
    for e in range(y0, y1 + 1):
        out.append(f'<text x="{m - 6}" y="{sy(10.0 ** e) + 4:.0f}" '
                   f'text-anchor="end">{10 ** e:g}</text>')
    out.append(f'<text x="{width / 2}" y="{height - 20}" text-anchor="middle">'
               f'{html.escape(area_label)} (log)</text>')
    out.append(f'<text x="16" y="{height / 2}" transform="rotate(-90 16 {height / 2})" '
               f'text-anchor="middle">Mbps at Fmax (log)</text>')
    front = pareto_front([(p.area, p.mbps) for p in pts])
    on_front = set(front)
    stairs = step_line([(pts[i].area, pts[i].mbps) for i in front])
    if len(stairs) > 1:
        coords = " ".join(f"{sx(a):.1f},{sy(t):.1f}" for a, t in stairs)
        out.append(f'<polyline class="front-line" points="{coords}" fill="none" '
                   f'stroke="{FRONT_COLOUR}" stroke-width="1.5"/>')
    for i, p in enumerate(pts):
        x, y = sx(p.area), sy(p.mbps)
        front_attr = (f' class="front" r="5" fill="{FRONT_COLOUR}"' if i in on_front
                      else f' r="4" fill="{POINT_COLOUR}"')
        tip = f"{p.label}: {p.area:g} {area_label}, {p.mbps:.0f} Mbps" + (
            ", on the Pareto front" if i in on_front else "")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}"{front_attr}>'
                   f'<title>{html.escape(tip)}</title></circle>')
        out.append(f'<text x="{x + 6:.1f}" y="{y - 6:.1f}">{html.escape(p.label)}</text>')
    lx = m + 10
    out.append(f'<rect x="{lx}" y="{m - 40}" width="9" height="9" fill="{FRONT_COLOUR}"/>'
               f'<text x="{lx + 14}" y="{m - 32}">Pareto front (most Mbps for the area)</text>')
    out.append(f'<rect x="{lx}" y="{m - 24}" width="9" height="9" fill="{POINT_COLOUR}"/>'
               f'<text x="{lx + 14}" y="{m - 16}">dominated</text>')
    out.append("</svg>")
    return "\n".join(out)
