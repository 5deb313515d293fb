"""The critical path of a routed design in words a reader can use: where it starts
and ends in the RTL, how many logic cells it crosses, and how its delay splits into
logic and routing.

nextpnr's ``--report`` JSON lists the worst path of each clock as a chain of
``clk-to-q``, ``routing``, ``logic`` and ``setup`` steps between cells whose names
Yosys made up (``out_data_o_TRELLIS_FF_Q_111``). The cells of the Yosys netlist keep
a ``src`` attribute (``src/cores/round/ak_round_core.sv:233.3``: the ``always_ff`` or
memory the cell came from), so :func:`critical_path` names the start and end by that
source line and, when the line opens a named block (``begin : state_reg``), by the
block's name.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

__all__ = ["critical_path", "describe_cell", "format_path", "lut_levels"]

_BLOCK_RE = re.compile(r"begin\s*:\s*(\w+)")
#: the ``.0.0`` Yosys appends to a memory's name for each block RAM it maps to
_RAM_SUFFIX_RE = re.compile(r"(\.\d+)+$")


def describe_cell(name: str, cell: Mapping[str, Any] | None, src_root: Path) -> str:
    """``file.sv:LINE (block)`` of a netlist cell from its ``src`` attribute (the
    first location that is not in Yosys's own cell library); a block RAM, whose
    ``src`` is Yosys's map file, by its memory's name (``u_rk_ram.dec_mem DP16KD``);
    else the cell's type."""
    if cell is None:
        return "?"
    src = str(cell.get("attributes", {}).get("src", ""))
    for loc in src.split("|"):
        m = re.match(r"(.+?):(\d+)", loc)
        if not m or loc.startswith("/share/"):
            continue
        rel, line = m.group(1), int(m.group(2))
        text = f"{Path(rel).name}:{line}"
        path = src_root / rel
        try:
            lines = path.read_text(errors="replace").splitlines()
            block = _BLOCK_RE.search(lines[line - 1]) if 0 < line <= len(lines) else None
        except OSError:
            block = None
        if block:
            text += f" ({block.group(1)})"
        return text
    kind = str(cell.get("type", "?"))
    if kind == "DP16KD":
        return f"{_RAM_SUFFIX_RE.sub('', name)} {kind}"
    return kind


#: the suffixes nextpnr-ice40's packer appends to a netlist cell's name when it puts
#: the cell into a logic cell (``<flip-flop>_DFFLC``, ``<LUT>_LC``)
PACKED_SUFFIXES: tuple[str, ...] = ("_DFFLC", "_LC")


def critical_path(report: Mapping[str, Any], netlist: Mapping[str, Any], top: str,
                  src_root: Path, clock: str = "clk_i",
                  packed_suffixes: tuple[str, ...] = (),
                  exact_clock: bool = False) -> dict[str, Any] | None:
    """Summary of the worst register-to-register path of ``clock`` (nextpnr report
    JSON ``report``, Yosys netlist ``netlist``; source files under ``src_root``):
    ``start``, ``end`` (see :func:`describe_cell`), ``start_type``/``end_type``
    (cell types, e.g. ``TRELLIS_FF``, ``DP16KD``), ``logic_cells`` (cells the path
    goes through), ``logic_ns`` (clock-to-output, cells and setup), ``routing_ns``,
    ``total_ns``. None when the report has no such path. ``exact_clock``: match the
    clock net's whole name, not its end; ``packed_suffixes``: what the packer appended
    to a netlist cell's name (:data:`PACKED_SUFFIXES` on iCE40)."""
    if exact_clock:  # ``clock`` is the whole net name (a second clock, sclk_i, ends alike)
        def on_clock(end: str) -> bool:
            return end == clock or end.split(" ")[-1] == clock
    else:
        def on_clock(end: str) -> bool:
            return end.endswith(clock)
    paths = [p for p in report.get("critical_paths", [])
             if on_clock(str(p.get("from", ""))) and on_clock(str(p.get("to", "")))]
    if not paths or not paths[0].get("path"):
        return None
    steps = paths[0]["path"]
    cells = netlist.get("modules", {}).get(top, {}).get("cells", {})

    def unpacked(name: str) -> str:
        # a packed cell's name back to the netlist cell it holds (``packed_suffixes``)
        for suffix in packed_suffixes:
            if name not in cells and name.endswith(suffix) and name[:-len(suffix)] in cells:
                return name[:-len(suffix)]
        return name

    first = unpacked(steps[0]["from"]["cell"])
    last = unpacked(steps[-1]["to"]["cell"])
    logic = sum(float(s["delay"]) for s in steps if s["type"] != "routing")
    routing = sum(float(s["delay"]) for s in steps if s["type"] == "routing")
    return {
        "start": describe_cell(first, cells.get(first), src_root),
        "start_type": str(cells.get(first, {}).get("type", "?")),
        "end": describe_cell(last, cells.get(last), src_root),
        "end_type": str(cells.get(last, {}).get("type", "?")),
        "logic_cells": sum(1 for s in steps if s["type"] == "logic"),
        "logic_ns": round(logic, 2),
        "routing_ns": round(routing, 2),
        "total_ns": round(logic + routing, 2),
    }


def format_path(cp: Mapping[str, Any] | None) -> str:
    """One line for a table: ``start -> end, N cells, L ns logic + R ns routing``."""
    if not cp:
        return "-"
    return (f"{cp['start']} -> {cp['end']}, {cp['logic_cells']} cells, "
            f"{cp['logic_ns']:.1f} ns logic + {cp['routing_ns']:.1f} ns routing")


#: levels a combinational ECP5 cell adds: a LUT4 (or a CCU2C half) is a level; the
#: wide-function multiplexers (PFUMX makes a LUT5, L6MUX21 a LUT6/7) sit in the
#: slice next to their LUTs and count a quarter
_LEVEL = {"LUT4": 1.0, "CCU2C": 1.0, "PFUMX": 0.25, "L6MUX21": 0.25}

#: the same per family: iCE40 a SB_LUT4 is a level, the SB_CARRY beside it (the LC's
#: dedicated carry logic) none; Nexus a LUT4 or CCU2 half is a level, a WIDEFN9 (two
#: LUT4s and the slice's multiplexer) one and a quarter, an INV none (absorbed)
_FAMILY_LEVEL: dict[str, dict[str, float]] = {
    "ECP5": _LEVEL,
    "iCE40": {"SB_LUT4": 1.0, "SB_CARRY": 0.0},
    "Nexus": {"LUT4": 1.0, "CCU2": 1.0, "WIDEFN9": 1.25, "INV": 0.0},
}
#: cell types whose inputs end a path, per family (prefixes)
_FAMILY_ENDS: dict[str, tuple[str, ...]] = {
    "ECP5": ("TRELLIS_FF", "DP16KD"),
    "iCE40": ("SB_DFF", "SB_RAM40_4K", "SB_SPRAM256KA", "SB_MAC16"),
    "Nexus": ("FD1P3", "DP16K", "PDP16K", "SP16K", "PDPSC16K", "LRAM", "MULT"),
}


def lut_levels(netlist: Mapping[str, Any], top: str, family: str = "ECP5") -> float:
    """The most logic levels (:data:`_LEVEL`; other families :data:`_FAMILY_LEVEL`) on
    any path that ends at a flip-flop or block-RAM input of the mapped netlist of
    ``family``, starting at a register, a RAM output or a port. A
    placement-independent measure of the logic between registers (the routed delay
    adds the wires); 0.0 for a netlist without such paths."""
    levels = _FAMILY_LEVEL[family]
    ends = _FAMILY_ENDS[family]
    cells = netlist.get("modules", {}).get(top, {}).get("cells", {})
    driver: dict[int, str] = {}
    for name, cell in cells.items():
        dirs = cell.get("port_directions", {})
        for pin, bits in cell.get("connections", {}).items():
            if dirs.get(pin) == "output":
                for b in bits:
                    if isinstance(b, int):
                        driver[b] = name
    memo: dict[str, float] = {}

    def level(bit: Any) -> float:
        # iterative depth-first search: netlists are deep enough to overflow recursion
        if not isinstance(bit, int) or bit not in driver:
            return 0.0
        root = driver[bit]
        if cells[root]["type"] not in levels:
            return 0.0
        stack = [root]
        while stack:
            name = stack[-1]
            if name in memo:
                stack.pop()
                continue
            cell = cells[name]
            dirs = cell.get("port_directions", {})
            pending = []
            best = 0.0
            for pin, bits in cell["connections"].items():
                if dirs.get(pin) != "input":
                    continue
                for b in bits:
                    src = driver.get(b) if isinstance(b, int) else None
                    if src is None or cells[src]["type"] not in levels:
                        continue
                    if src in memo:
                        best = max(best, memo[src])
                    else:
                        pending.append(src)
            if pending:
                stack.extend(pending)
            else:
                memo[name] = best + levels[cell["type"]]
                stack.pop()
        return memo[root]

    worst = 0.0
    for cell in cells.values():
        if family == "ECP5":
            if cell["type"] not in ends:
                continue
        elif not str(cell["type"]).startswith(ends):
            continue
        dirs = cell.get("port_directions", {})
        for pin, bits in cell["connections"].items():
            if dirs.get(pin) == "input":
                for b in bits:
                    worst = max(worst, level(b))
    return worst
