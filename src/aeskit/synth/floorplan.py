"""Block-RAM floorplan: pin a netlist's DP16KD cells to EBR sites in name order.

nextpnr's HeAP placer places block RAMs with the rest and then legalises each to a
free EBR site; on a design made of many RAM-to-RAM pipelines (the unrolled T-table
cores: 84 DP16KD in ten rounds) the two RAMs of one lane often end up in different
EBR rows, 24 tile rows apart, and so do consecutive rounds (docs/synthesis.md has the
placement that was measured). A design that names EBR rows (``ram_rows``, part of
its hash) gets its DP16KD cells pinned before nextpnr reads the netlist: sorted by
hierarchical name (numbers compared as numbers, so ``g_round[2]`` comes before
``g_round[10]``), they fill the rows named, the same number of RAMs in each, centred
on the row, the first row left to right, the next right to left, and so on (a
serpentine, so consecutive RAMs stay next to each other across a row change). Each
pinned cell gets the ``BEL`` attribute nextpnr honours (``X<x>/Y<y>/EBR<i>``); the
placer then places the logic around them.

The EBR sites are those of the LFE5U-85F (the flow's ECP5 device), read from
nextpnr-ecp5 by pinning a one-RAM design to candidate sites (a site that does not
exist is an error: "No Bel named ..."): rows at Y = 22, 46, 70 and 82, each with 13
groups of four sites at X = g, g + 2, g + 4, g + 6 for g in :data:`EBR_GROUPS`, bel
``EBR<i>`` for the i-th site of its group: 4 x 52 = 208, the device's DP16KD count.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["EBR_GROUPS", "EBR_ROWS", "FLOORPLAN_DEVICE", "FloorplanError", "FloorplanStats",
           "ebr_sites", "pin_block_rams", "pin_in_file", "serpentine_sites"]

#: the first X of each group of four EBR sites in a row (LFE5U-85F)
EBR_GROUPS: tuple[int, ...] = (4, 13, 22, 31, 40, 49, 58, 69, 78, 87, 96, 105, 114)
#: the Y of the EBR rows (LFE5U-85F)
EBR_ROWS: tuple[int, ...] = (22, 46, 70, 82)
#: the device whose sites these are
FLOORPLAN_DEVICE = "LFE5U-85F"


class FloorplanError(ValueError):
    """A floorplan that cannot be made (unknown row, more RAMs than sites)."""


@dataclass
class FloorplanStats:
    """What :func:`pin_block_rams` did."""

    #: pinned cell -> bel, in pinning order
    pins: dict[str, str] = field(default_factory=dict)
    rows: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"rams": len(self.pins), "rows": list(self.rows)}


def ebr_sites() -> list[tuple[int, str]]:
    """The X of every EBR site of a row, left to right, with its bel suffix."""
    return [(g + 2 * i, f"EBR{i}") for g in EBR_GROUPS for i in range(4)]


def serpentine_sites(count: int, rows: tuple[int, ...]) -> list[str]:
    """``count`` bel names over ``rows``: the same number per row (the last row may hold
    fewer), centred on the row, alternately left to right and right to left."""
    if not rows:
        raise FloorplanError("a floorplan needs at least one EBR row")
    unknown = [r for r in rows if r not in EBR_ROWS]
    if unknown or len(set(rows)) != len(rows):
        raise FloorplanError(f"EBR rows must be distinct ones of {EBR_ROWS}, got {rows}")
    sites = ebr_sites()
    per_row = -(-count // len(rows))
    if per_row > len(sites):
        raise FloorplanError(f"{count} block RAMs do not fit {len(rows)} EBR row(s) of "
                             f"{len(sites)} sites")
    first = (len(sites) - per_row) // 2
    window = sites[first:first + per_row]
    out: list[str] = []
    for k, y in enumerate(rows):
        order = window if k % 2 == 0 else list(reversed(window))
        out.extend(f"X{x}/Y{y}/{bel}" for x, bel in order)
    return out[:count]


def _natural(name: str) -> list[Any]:
    return [(0, int(t)) if t.isdigit() else (1, t) for t in re.split(r"(\d+)", name)]


def pin_block_rams(netlist: dict[str, Any], top: str, rows: tuple[int, ...]) -> FloorplanStats:
    """Pin the DP16KD cells of ``top`` in ``netlist`` (Yosys JSON, changed in place)."""
    modules = netlist.get("modules", {})
    if top not in modules:
        raise FloorplanError(f"netlist has no module {top!r}")
    cells = modules[top]["cells"]
    rams = sorted((n for n, c in cells.items() if c.get("type") == "DP16KD"), key=_natural)
    stats = FloorplanStats(rows=tuple(rows))
    for name, bel in zip(rams, serpentine_sites(len(rams), tuple(rows))):
        cells[name].setdefault("attributes", {})["BEL"] = bel
        stats.pins[name] = bel
    return stats


def pin_in_file(path: Path, top: str, rows: tuple[int, ...]) -> FloorplanStats:
    """:func:`pin_block_rams` on a ``netlist.json``, rewritten only if a RAM was pinned."""
    netlist = json.loads(path.read_text())
    stats = pin_block_rams(netlist, top, rows)
    if stats.pins:
        path.write_text(json.dumps(netlist))
    return stats
