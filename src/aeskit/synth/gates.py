"""Generic gate count: the gate library, its gate-equivalent weights, and parsing.

The ASIC-style figure of merit is the *gate equivalent* (GE): area in units of
one two-input NAND gate. aeskit maps every design with Yosys/ABC onto one fixed
library of simple gates (:data:`GATE_LIBRARY`) and weights each gate by
:data:`GE_WEIGHTS`. The weights are ratios of cell areas typical of commercial
and open standard-cell libraries at drive strength 1; see ``docs/synthesis.md``
for the rationale and the numbers they are drawn from. The absolute GE of a
design depends on the library a paper used, so compare GE *between aeskit
cores* first and with papers second.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = [
    "ABC_GATES",
    "FF_LEGALIZE",
    "GATE_LIBRARY",
    "GE_WEIGHTS",
    "UnweightedCellError",
    "ge_of",
    "parse_ltp_depth",
]

#: gates ABC may use (``abc -g``); NOT is always added by ABC. Every one is a cell
#: that any standard-cell library has. AND-with-inverted-input (ANDNOT/ORNOT) and
#: complex gates (AOI/OAI, NMUX) are left out on purpose: libraries differ most
#: on those, and without them every mapped gate has an unambiguous weight.
ABC_GATES: tuple[str, ...] = ("AND", "NAND", "OR", "NOR", "XOR", "XNOR", "MUX")

#: storage cells flip-flops and latches are legalised to before ABC
#: (``dfflegalize``). Clock enables and synchronous resets are *not* kept as
#: special flip-flops: they become gates (a MUX2 or AND/OR in front of the D input),
#: as with a library that has only plain and asynchronously-reset flip-flops.
#: Negative-edge clocks or active-high resets get an inverter.
FF_LEGALIZE: tuple[str, ...] = (
    "$_DFF_P_",      # D flip-flop
    "$_DFF_PN0_",    # D flip-flop, asynchronous active-low reset
    "$_DFF_PN1_",    # D flip-flop, asynchronous active-low set
    "$_DFFSR_PNN_",  # D flip-flop, asynchronous active-low set and reset
    "$_DLATCH_P_",   # transparent-high latch
)

#: Yosys cell type -> (library gate name, GE weight). NAND2 = 1 GE.
#: Rationale (docs/synthesis.md): static-CMOS transistor count / 4, cross-checked
#: against the cell areas of a 0.18 um library (INV 0.67, AND2/OR2 1.33, XOR2/XNOR2
#: 2.67, MUX2 2.67, DFF 5.67, DFF with reset 7.67). MUX2 and the reset flip-flops
#: are taken at the lower end (transmission-gate MUX, 2-4 extra transistors for a
#: reset). ``synth.json`` keeps the raw cell counts, so GE can be recomputed with
#: any other table.
GATE_LIBRARY: dict[str, tuple[str, float]] = {
    "$_NOT_": ("INV", 0.67),
    "$_NAND_": ("NAND2", 1.00),
    "$_NOR_": ("NOR2", 1.00),
    "$_AND_": ("AND2", 1.33),
    "$_OR_": ("OR2", 1.33),
    "$_XOR_": ("XOR2", 2.67),
    "$_XNOR_": ("XNOR2", 2.67),
    "$_MUX_": ("MUX2", 2.33),
    "$_DLATCH_P_": ("LATCH", 3.33),
    "$_DFF_P_": ("DFF", 5.67),
    "$_DFF_PN0_": ("DFFR", 6.67),
    "$_DFF_PN1_": ("DFFS", 6.67),
    "$_DFFSR_PNN_": ("DFFRS", 8.00),
}

#: Yosys cell type -> GE weight
GE_WEIGHTS: dict[str, float] = {k: v[1] for k, v in GATE_LIBRARY.items()}


class UnweightedCellError(ValueError):
    """The mapped netlist holds a cell type that has no GE weight."""


def ge_of(cells: Mapping[str, int]) -> float:
    """Total gate equivalents of a ``{yosys cell type: count}`` mapping."""
    unknown = sorted(set(cells) - set(GE_WEIGHTS))
    if unknown:
        raise UnweightedCellError(
            f"no GE weight for cell type(s) {', '.join(unknown)}; the gate-count flow "
            f"maps to {', '.join(sorted(GE_WEIGHTS))} only"
        )
    return round(sum(GE_WEIGHTS[t] * n for t, n in cells.items()), 2)


_LTP_RE = re.compile(r"Longest topological path in \S+ \(length=(\d+)\)")


def parse_ltp_depth(text: str) -> int:
    """Logic depth from Yosys ``ltp -noff`` output: gates on the longest path.

    ``ltp`` prints ``Longest topological path in TOP (length=N):`` where N counts
    the cells on the path (inverters included). A design without combinational
    cells has depth 0.
    """
    m = _LTP_RE.search(text)
    if m is None:
        raise ValueError("no 'Longest topological path' line in ltp output")
    return int(m.group(1))
