"""The report's first plot, "which core for my budget": throughput against area, one
panel per device (the main device, then each FPGA family device of ``family_rows``),
drawn with matplotlib into an inline SVG.

* One mark per core (its AES-128 row, else its first placed row), at its LUT4 (iCE40:
  logic cells) and Mbit/s, both on log axes.
* Block RAM is shown, not hidden on the LUT4 axis: a core without block RAM is a
  circle, a core with block RAM a square whose area grows with its block-RAM count,
  and its label carries the count (``ttable_round_e128 · 8 EBR``).
* The Pareto front (no other core has less or equal LUT4 and more or equal Mbit/s) is
  red and joined by the staircase of the best throughput within a LUT4 budget.
* On the ECP5 panel of the LFE5U-85F the open peers (:mod:`aeskit.report.sections.peers`,
  measured in the same flow) are black triangles.
* Labels are placed so they do not overlap each other or the marks: each label tries
  positions around its mark, nearest first, and takes the first free one; a label
  with no free position goes to the one that overlaps least, joined to its mark by a
  thin line.

:func:`panels` is the data (tested on its own); :func:`tradeoff_svg` draws it.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aeskit.report.pareto import pareto_front, step_line

__all__ = ["CAPTION", "Mark", "Panel", "label_of", "panels", "tradeoff_svg"]

CAPTION = ("One mark per core (AES-128 where built), Mbit/s = 128 x Fmax / interval on the "
           "device of the panel. Circles use no block RAM; squares do, larger with more "
           "block RAMs, and their labels give the count (EBR: ECP5 DP16KD or Nexus EBR; "
           "RAM: iCE40 SB_RAM40_4K). Red: the Pareto front, joined by the staircase of "
           "the best Mbit/s within a LUT4 budget. Black triangles: the open peers of "
           "issue 48 measured in the same flow (LFE5U-85F panel only).")

FRONT_COLOUR = "#d62728"
POINT_COLOUR = "#1f77b4"
PEER_COLOUR = "#222222"
#: the device the peers were measured on (issue 48's table)
PEER_DEVICE = "LFE5U-85F"


@dataclass(frozen=True)
class Mark:
    """One design on a panel."""

    #: the core (or peer) name, also the mark's SVG id after its kind
    name: str
    label: str
    lut4: float
    mbps: float
    ebr: int = 0
    #: "core" or "peer"
    kind: str = "core"


@dataclass
class Panel:
    """One device's plot: its marks and which cores are on the Pareto front."""

    device: str
    family: str
    area_label: str
    marks: list[Mark] = field(default_factory=list)
    front: list[str] = field(default_factory=list)

    @property
    def empty_text(self) -> str:
        return f"no core fits and routes on {self.device}"


def label_of(core: str, ebr: int, family: str = "ECP5") -> str:
    """A mark's label: the core, and its block RAMs when it has any (EBR on ECP5 and
    Nexus, RAM for the iCE40's SB_RAM40_4K)."""
    unit = "RAM" if family == "iCE40" else "EBR"
    return f"{core} · {ebr} {unit}" if ebr else core


def _per_core(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One placed row per core: its AES-128 row, else its first placed row."""
    out: dict[str, Mapping[str, Any]] = {}
    for r in rows:
        if not (r.get("lut4") and r.get("mbps") and r.get("fmax_mhz") is not None):
            continue
        core = str(r["core"])
        if core not in out or (r.get("key_size") == 128 and out[core].get("key_size") != 128):
            out[core] = r
    return list(out.values())


def _panel(device: str, family: str, rows: Sequence[Mapping[str, Any]],
           peers: bool) -> Panel:
    area = "logic cells" if family == "iCE40" else "LUT4"
    p = Panel(device, family, area)
    for r in _per_core(rows):
        ebr = int(r.get("ebr") or 0)
        p.marks.append(Mark(str(r["core"]), label_of(str(r["core"]), ebr, family),
                            float(r["lut4"]), float(r["mbps"]), ebr))
    cores = [m for m in p.marks if m.kind == "core"]
    p.front = [cores[i].name for i in pareto_front([(m.lut4, m.mbps) for m in cores])]
    if peers:
        from aeskit.report.sections.peers import PEERS

        for peer in PEERS:
            name = peer.name.replace("`", "")
            p.marks.append(Mark(name, name, float(peer.lut4), peer.mbps, 0, "peer"))
    return p


def panels(report: Mapping[str, Any]) -> list[Panel]:
    """The main device's panel, then one per device of ``family_rows`` other than the
    main device (families in :data:`aeskit.report.families.FAMILY_ORDER`)."""
    from aeskit.report import families

    main = str((report.get("rows") or [{}])[0].get("device") or PEER_DEVICE) \
        if report.get("rows") else PEER_DEVICE
    main_family = "iCE40" if main.startswith("iCE40") else \
        "Nexus" if main.startswith("LIFCL") else "ECP5"
    out = [_panel(main, main_family, report.get("rows") or [], peers=main == PEER_DEVICE)]
    fam_rows = families.family_rows(report)
    for family, device in families.devices(report):
        if device == main:
            continue
        out.append(_panel(device, family, [r for r in fam_rows if str(r["device"]) == device],
                          peers=False))
    return out


# ---------------------------------------------------------------------------------
# Drawing
# ---------------------------------------------------------------------------------
#: label offsets from a mark, in points: nearest ring first
_RINGS = (7.0, 16.0, 28.0, 42.0)
_DIRECTIONS = ((1, 0), (1, 1), (1, -1), (0, 1), (0, -1), (-1, 0), (-1, 1), (-1, -1))


def _marker_size(ebr: int) -> float:
    """Marker area in points^2: 36 without block RAM, growing with log2 of the count."""
    return 36.0 if ebr <= 0 else 36.0 + 22.0 * math.log2(1 + ebr)


def _overlap(a: Any, b: Any) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def _place_labels(fig: Any, ax: Any, marks: list[Mark], order: list[int]) -> None:
    """Labels around their marks, first free position of the rings (see module doc)."""
    from matplotlib.transforms import Bbox

    renderer = fig.canvas.get_renderer()
    trans = ax.transData
    taken: list[Any] = []
    for m in marks:  # the marks themselves, as small boxes
        x, y = trans.transform((m.lut4, m.mbps))
        r = math.sqrt(_marker_size(m.ebr)) * fig.dpi / 72.0 / 2 + 1
        taken.append(Bbox([[x - r, y - r], [x + r, y + r]]))
    axbox = ax.get_window_extent(renderer)
    for i in order:
        m = marks[i]
        best: tuple[float, Any, tuple[float, float], str, str] | None = None
        for ring in _RINGS:
            for dx, dy in _DIRECTIONS:
                ha = "left" if dx > 0 else "right" if dx < 0 else "center"
                va = "bottom" if dy > 0 else "top" if dy < 0 else "center"
                off = (dx * ring, dy * ring * 0.8)
                t = ax.annotate(m.label, (m.lut4, m.mbps), xytext=off,
                                textcoords="offset points", ha=ha, va=va, fontsize=7)
                box = t.get_window_extent(renderer)
                t.remove()
                cost = sum(_overlap(box, b) for b in taken)
                inside = (box.x0 >= axbox.x0 and box.x1 <= axbox.x1
                          and box.y0 >= axbox.y0 and box.y1 <= axbox.y1)
                if not inside:
                    cost += box.width * box.height
                if best is None or cost < best[0]:
                    best = (cost, box, off, ha, va)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        cost, box, off, ha, va = best
        far = abs(off[0]) > _RINGS[0] or abs(off[1]) > _RINGS[0]
        colour = PEER_COLOUR if m.kind == "peer" else "#333333"
        ax.annotate(m.label, (m.lut4, m.mbps), xytext=off, textcoords="offset points",
                    ha=ha, va=va, fontsize=7, color=colour, gid=f"label:{m.name}",
                    arrowprops=({"arrowstyle": "-", "color": "#999999", "lw": 0.5}
                                if far else None))
        taken.append(box)


def _draw_panel(ax: Any, p: Panel) -> list[int]:
    """The marks, axes and front line of one panel; returns the label order (the
    labels are placed after the figure's layout is final)."""
    ax.set_title(f"{p.device} ({p.family})", fontsize=10)
    ax.set_xlabel(f"{p.area_label} (log)", fontsize=8)
    ax.set_ylabel("Mbit/s (log)", fontsize=8)
    ax.tick_params(which="both", labelsize=7)
    if not p.marks:
        ax.text(0.5, 0.5, p.empty_text, ha="center", va="center", transform=ax.transAxes,
                fontsize=9, color="#666666")
        ax.set_xticks([])
        ax.set_yticks([])
        return []
    ax.set_xscale("log")
    ax.set_yscale("log")
    xs = [m.lut4 for m in p.marks]
    ys = [m.mbps for m in p.marks]
    ax.set_xlim(min(xs) / 1.6, max(xs) * 2.2)
    ax.set_ylim(min(ys) / 2.0, max(ys) * 2.5)
    ax.grid(True, which="major", color="#eeeeee", lw=0.6)
    front = set(p.front)
    for m in p.marks:
        if m.kind == "peer":
            ax.scatter([m.lut4], [m.mbps], marker="^", s=46, color=PEER_COLOUR, zorder=3,
                       gid=f"peer:{m.name}")
            continue
        colour = FRONT_COLOUR if m.name in front else POINT_COLOUR
        ax.scatter([m.lut4], [m.mbps], marker="s" if m.ebr else "o", s=_marker_size(m.ebr),
                   color=colour, alpha=0.85, edgecolors="white", linewidths=0.5, zorder=3,
                   gid=f"{'front' if m.name in front else 'point'}:{m.name}")
    fpts = sorted((m.lut4, m.mbps) for m in p.marks if m.name in front and m.kind == "core")
    if len(fpts) > 1:
        line = step_line(fpts)
        ax.plot([a for a, _ in line], [t for _, t in line], color=FRONT_COLOUR, lw=0.8,
                alpha=0.6, zorder=2, gid="front-line")
    # labels: the front first, then the peers, then the rest by throughput
    return sorted(range(len(p.marks)), key=lambda i: (
        0 if p.marks[i].name in front else 1 if p.marks[i].kind == "peer" else 2,
        -p.marks[i].mbps))


def tradeoff_svg(report: Mapping[str, Any], plot_id: str) -> str:
    """The panels as one inline ``<svg>`` element (no XML prolog), named
    ``data-aeskit=plot_id`` for the browser check."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    ps = panels(report)
    cols = 2 if len(ps) > 1 else 1
    nrows = -(-len(ps) // cols)
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "aeskit",
                                "font.family": "sans-serif"}):
        fig, axes = plt.subplots(nrows, cols, figsize=(7.0 * cols, 5.2 * nrows), squeeze=False)
        try:
            orders = [_draw_panel(ax, p) for ax, p in zip(axes.flat, ps)]
            for ax in list(axes.flat)[len(ps):]:
                ax.set_visible(False)
            legend = [
                Line2D([], [], marker="o", ls="", color=POINT_COLOUR, label="core, no block RAM"),
                Line2D([], [], marker="s", ls="", color=POINT_COLOUR, markersize=9,
                       label="core with block RAM (size grows with its EBR count)"),
                Line2D([], [], marker="o", ls="", color=FRONT_COLOUR,
                       label="Pareto front (best Mbit/s within a LUT4 budget)"),
                Line2D([], [], marker="^", ls="", color=PEER_COLOUR,
                       label="open peers (same flow, issue 48)")]
            fig.legend(handles=legend, loc="lower center", ncol=4 if cols > 1 else 2, fontsize=8,
                       frameon=False)
            fig.tight_layout(rect=(0, 0.05 if cols > 1 else 0.09, 1, 1))
            for ax, p, order in zip(axes.flat, ps, orders):
                _place_labels(fig, ax, p.marks, order)
            buf = io.StringIO()
            fig.savefig(buf, format="svg", metadata={"Date": None})
        finally:
            plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]
    return svg.replace("<svg ", f'<svg data-aeskit="{plot_id}" role="img" ', 1)
