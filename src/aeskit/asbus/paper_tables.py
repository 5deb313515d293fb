"""Paper 000's Tables II and III (Virtex-6, ISE 14.7, XPower) and the ASBUS/AXI ratios
of Table IV that follow from them.

Table IV's columns are products of Tables I-III (SEED-NOTES, docs/busmodel.md):
valid-data bandwidth (VDB) is payload / (cycles x clock period) at one clock, so the
ASBUS/AXI VDB ratio is AXI cycles / ASBUS cycles; slice efficiency (SE) is VDB per
slice; dynamic energy (DE) is dynamic power x cycles; dynamic-energy efficiency (DEE)
is payload / DE. Every ratio below is computed from the printed Table II-IV numbers
and reproduces the figures the text quotes (cipher DE 71.27 / 60.17 / 48.38 %, VDB
1.30 / 1.56 / 1.95x, DEE 1.40 / 1.66 / 2.07x, 128-bit cipher SE 2.10x).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from aeskit.busmodel import PAPER_TABLE_IV_CYCLES, WIDTHS

__all__ = ["PAPER_DYNAMIC_MW", "PAPER_TABLE_II", "PaperArea", "PaperRatios", "paper_ratios"]


@dataclass(frozen=True)
class PaperArea:
    """One row of Table II."""

    ios: int
    slices: int
    mof_mhz: float


#: Table II, (bus, width) -> IOs, slices, maximum operating frequency
PAPER_TABLE_II: Final[dict[tuple[str, int], PaperArea]] = {
    ("axi", 32): PaperArea(533, 26106, 133.010),
    ("asbus", 32): PaperArea(324, 24822, 183.636),
    ("axi", 64): PaperArea(661, 22603, 131.528),
    ("asbus", 64): PaperArea(460, 21319, 176.154),
    ("axi", 128): PaperArea(917, 18344, 130.152),
    ("asbus", 128): PaperArea(732, 17060, 184.176),
}

#: Table III, dynamic power in mW, (test, bus) -> (32, 64, 128 bits)
PAPER_DYNAMIC_MW: Final[dict[tuple[str, str], tuple[int, int, int]]] = {
    ("linear", "axi"): (612, 577, 623),
    ("linear", "asbus"): (574, 540, 584),
    ("block", "axi"): (752, 971, 1263),
    ("block", "asbus"): (695, 927, 1226),
    ("cipher", "axi"): (771, 1063, 1747),
    ("cipher", "asbus"): (716, 995, 1650),
}


@dataclass(frozen=True)
class PaperRatios:
    """ASBUS / AXI ratios of one Table IV test at one width."""

    cycles: float     # CY ASBUS / CY AXI
    vdb: float        # valid-data bandwidth ASBUS / AXI = 1 / cycles
    se: float         # slice efficiency ASBUS / AXI
    de: float         # dynamic energy ASBUS / AXI (the 71.27 / 60.17 / 48.38 %)
    dee: float        # dynamic-energy efficiency ASBUS / AXI = 1 / de


def paper_ratios(test: str, width: int) -> PaperRatios:
    """The paper's ASBUS/AXI ratios for ``test`` at ``width``, from Tables II-IV."""
    i = WIDTHS.index(width)
    cy_a = PAPER_TABLE_IV_CYCLES[(test, "asbus")][i]  # type: ignore[index]
    cy_x = PAPER_TABLE_IV_CYCLES[(test, "axi")][i]  # type: ignore[index]
    vdb = cy_x / cy_a
    se = vdb * PAPER_TABLE_II[("axi", width)].slices / PAPER_TABLE_II[("asbus", width)].slices
    de = (PAPER_DYNAMIC_MW[(test, "asbus")][i] * cy_a) / (PAPER_DYNAMIC_MW[(test, "axi")][i] * cy_x)
    return PaperRatios(cy_a / cy_x, vdb, se, de, 1.0 / de)
