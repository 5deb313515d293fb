"""What the flow does differently per FPGA family, as data: the Yosys synth command and
the steps before it, the nextpnr tool, the router the family needs, the nextpnr bel
types of a result's fields, the flip-flop cells of a Yosys netlist, the pin cells of
a generated top, the cell-name suffixes of packed cells, and the netlist fix-up
between Yosys and nextpnr. :mod:`aeskit.synth.flow` and :mod:`aeskit.synth.pnr` read
these; neither compares family names."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from aeskit.synth.critical import PACKED_SUFFIXES

__all__ = ["FAMILY", "Family"]


def _unlink_constant_carry_in(netlist_path: Path) -> int:
    """Leave unconnected every CCU2 carry input that ``synth_nexus`` ties to a VLO
    (constant 0) cell, and return how many. Yosys's abc9 flow does that at the start
    of a carry chain (YosysHQ/yosys issue 4081) and nextpnr-nexus 0.11 refuses it
    ("CIN net ... driven by non-CCU2 cell ..._VLO_Z"; a constant "0" bit is refused
    the same way); an unconnected CIN is a carry-in of 0, which is what the chain
    means and what the flow without abc9 writes."""
    data = json.loads(netlist_path.read_text())
    count = 0
    for module in data.get("modules", {}).values():
        cells = module.get("cells", {})
        low = {b for c in cells.values() if c.get("type") == "VLO"
               for b in c.get("connections", {}).get("Z", []) if isinstance(b, int)}
        for cell in cells.values():
            conns = cell.get("connections", {})
            if cell.get("type") == "CCU2" and conns.get("CIN") and conns["CIN"][0] in low:
                del conns["CIN"]
                count += 1
    if count:
        tmp = netlist_path.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, netlist_path)
    return count


@dataclass(frozen=True)
class Family:
    """One FPGA family's traits."""

    name: str
    #: the Yosys synth command (``synth_ecp5``, ``synth_ice40``, ``synth_nexus``)
    synth: str
    #: the nextpnr tool, as :func:`aeskit.synth.toolrun.tool_versions` names it
    nextpnr: str
    #: nextpnr bel types of a result's fields: logic cells, flip-flops (None where
    #: nextpnr counts none: an iCE40 logic cell holds both), block RAM, multiplier
    logic_bel: str
    ff_bel: str | None
    ram_bel: str
    dsp_bel: str
    #: prefix of the Yosys flip-flop cells
    ff_cells: str
    #: nextpnr places out of context (no pins needed; otherwise the I/O shim)
    out_of_context: bool
    #: nextpnr takes the package as ``--package`` (Nexus: in the device name)
    package_flag: bool = True
    #: nextpnr's pin-constraint option and file suffix (a board's pins)
    constraints: str = "--lpf"
    #: nextpnr's option that writes the placed and routed design for the bitstream
    #: packer, and that file's suffix
    pnr_output: tuple[str, str] = ("--textcfg", ".config")
    #: the nextpnr router the family needs where a design names none (None: nextpnr's
    #: default, or the flow's EBR rule on ECP5)
    router: str | None = None
    #: Yosys commands before the synth command
    pre_synth: tuple[str, ...] = ()
    #: suffixes nextpnr appends to packed cells' names (critical-path lookup)
    packed_suffixes: tuple[str, ...] = ()
    #: a fix-up of the Yosys netlist before nextpnr reads it; returns how many cells
    #: it changed
    netlist_fixup: Callable[[Path], int] | None = None


#: every family the flow targets
FAMILY: dict[str, Family] = {f.name: f for f in (
    Family("ECP5", "synth_ecp5", "nextpnr-ecp5", "TRELLIS_COMB", "TRELLIS_FF", "DP16KD",
           "MULT18X18D", "TRELLIS_FF", out_of_context=True),
    # iCE40 has no LUT RAM: a memory the RTL asks to be distributed RAM
    # (``ram_style = "distributed"``, e.g. the T-table cores' round-key store) has no
    # mapping there (memory_libmap: "no valid mapping found"), so it is built from
    # flip-flops, ``ram_style = "logic"``, as the RTL's "not a block RAM" intends; the
    # attribute as a string or, as read_slang stores it, as an 88-bit constant
    Family("iCE40", "synth_ice40", "nextpnr-ice40", "ICESTORM_LC", None, "ICESTORM_RAM",
           "ICESTORM_DSP", "SB_DFF", out_of_context=False, constraints="--pcf",
           pnr_output=("--asc", ".asc"),
           pre_synth=('setattr -set ram_style "logic" a:ram_style=distributed '
                      "a:ram_style=88'b" + "".join(f"{ord(c):08b}" for c in "distributed"),),
           packed_suffixes=PACKED_SUFFIXES),
    # nextpnr-nexus 0.11.1's default, router2, fails on every AES core on the first arc
    # of the clock pin's net, from the pad to its global buffer ("Failed to route arc
    # 0.0 of net 'u_dut.clk_i', from X87/Y17/JPADDI_SEIO33_CORE_IOA to
    # X86/Y28/JCLKI_DCC_DCC1"; pins, banks and a single clock did not change it);
    # router1 routes them (docs/synthesis.md)
    Family("Nexus", "synth_nexus", "nextpnr-nexus", "OXIDE_COMB", "OXIDE_FF", "OXIDE_EBR",
           "MULT18_CORE", "FD1P3", out_of_context=False, router="router1",
           package_flag=False, constraints="--pdc", pnr_output=("--fasm", ".fasm"),
           netlist_fixup=_unlink_constant_carry_in),
)}
