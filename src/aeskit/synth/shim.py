"""The I/O shim top for place and route without an out-of-context mode (nextpnr-ice40
and nextpnr-nexus 0.11 reject ``--out-of-context``; see docs/synthesis.md).

An AES core has 400-600 top-level port bits; an iCE40-UP5K in SG48 has 39 I/O pins,
a LIFCL-40 in BG400 111. So the flow places a generated top, ``ak_ooc_top``, with four
pins: ``clk_i`` (the design's clock, a pin as out of context), ``sclk_i``, ``sin_i`` and
``sout_o`` of ``hw/primitives/io_shim/ak_io_shim.sv``, which drives every other input
bit of the design from a shift register and XORs every output bit into ``sout_o``. The
shim is its own hierarchy level in the netlist (Yosys ``keep_hierarchy``), so its cells
are counted on their own and subtracted from nextpnr's utilisation.

>>> ports = parse_portlist("module t\\ninput [7:0] a_i\\ninput [0:0] clk_i\\n"
...                        "output [0:3] y_o\\nendmodule\\n")
>>> [(p.direction, p.name, p.width) for p in ports]
[('input', 'a_i', 8), ('input', 'clk_i', 1), ('output', 'y_o', 4)]
>>> plan = plan_shim("t", ports, "clk_i")
>>> plan.in_bits, plan.out_bits
(8, 4)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
import functools
from pathlib import Path


__all__ = ["SHIM_MODULE", "TOP_MODULE", "Port", "ShimPlan", "nexus_pdc",
           "parse_portlist", "plan_shim", "shim_file"]

#: the shim's module name (its file: :func:`shim_file`)
SHIM_MODULE = "ak_io_shim"


@functools.lru_cache(maxsize=None)
def shim_file() -> Path:
    """The shim's RTL file, as its manifest (``aeskit:prim:io_shim``) lists it."""
    from aeskit.hw import manifest

    return manifest.module_file(SHIM_MODULE)
#: the generated top the flow places and routes
TOP_MODULE = "ak_ooc_top"

#: Nexus I/O sites of the four pins (LIFCL-40 BG400 balls). The two clocks need pins
#: with dedicated routing to a global-clock buffer (DCC): nextpnr-nexus logs
#: "constraining ... to bel ... based on dedicated routing" for L13 (the CrossLink-NX
#: evaluation board's clock input) and L16 (found by trying the balls around L13);
#: from a general-purpose pin (E17 was tried, with router2) the router failed to reach a
#: DCC once the design was large (so did router2 from these pins; the flow runs router1,
#: which routes them: docs/synthesis.md). sin_i and sout_o are general-purpose I/O; the shim's pins are not
#: timed, so the sites do not change the design's figures.
NEXUS_PINS: dict[str, str] = {"clk_i": "L13", "sclk_i": "L16", "sin_i": "F13",
                              "sout_o": "G13"}

_PORT_RE = re.compile(r"^(input|output|inout)\s+\[(-?\d+):(-?\d+)\]\s+(\S+)\s*$")


class ShimError(ValueError):
    """A design the shim cannot wrap (inout ports, a port list Yosys did not print)."""


@dataclass(frozen=True)
class Port:
    direction: str
    name: str
    width: int


@dataclass(frozen=True)
class ShimPlan:
    """The generated top: its text and how many bits the shim carries each way."""

    top: str
    #: input bits of the design other than the clock (the shim's shift register)
    in_bits: int
    #: output bits of the design (the shim's XOR)
    out_bits: int
    #: whether the design has the clock port (a pin of the generated top)
    has_clock: bool
    text: str

    def parameters(self) -> dict[str, int]:
        """The shim's parameters (at least one bit each way)."""
        return {"InWidth": max(1, self.in_bits), "OutWidth": max(1, self.out_bits)}

    def to_json(self) -> dict[str, int | bool]:
        return {"inputs": self.in_bits, "outputs": self.out_bits, "clock_pin": self.has_clock}


def parse_portlist(text: str) -> list[Port]:
    """The ports of Yosys's ``portlist`` output (``input [7:0] a_i`` lines)."""
    ports = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("module ", "endmodule")):
            continue
        m = _PORT_RE.match(line)
        if not m:
            raise ShimError(f"cannot read the port line {line!r} of Yosys's portlist")
        msb, lsb = int(m.group(2)), int(m.group(3))
        ports.append(Port(m.group(1), m.group(4), abs(msb - lsb) + 1))
    if not ports:
        raise ShimError("Yosys's portlist lists no ports")
    return ports


def plan_shim(top: str, ports: list[Port], clock: str) -> ShimPlan:
    """The ``ak_ooc_top`` that wraps ``top`` (ports ``ports``) with the shim: ``clock``
    stays a pin, every other input bit comes from the shim's shift register and every
    output bit goes into its XOR."""
    if top in (SHIM_MODULE, TOP_MODULE):
        raise ShimError(f"the design's top {top!r} has the name of the flow's own module")
    inouts = [p.name for p in ports if p.direction == "inout"]
    if inouts:
        raise ShimError(f"{top}: inout ports cannot be wrapped: {', '.join(inouts)}")
    has_clock = any(p.name == clock and p.direction == "input" for p in ports)
    conns: list[str] = []
    in_off = out_off = 0
    for p in ports:
        if p.direction == "input" and p.name == clock:
            conns.append(f".{p.name}({clock})")
        elif p.direction == "input":
            conns.append(f".{p.name}(in_w[{in_off} +: {p.width}])")
            in_off += p.width
        else:
            conns.append(f".{p.name}(out_w[{out_off} +: {p.width}])")
            out_off += p.width
    pins = ([f"  input  logic {clock},"] if has_clock else []) + [
        "  input  logic sclk_i,", "  input  logic sin_i,", "  output logic sout_o"]
    lines = [
        f"// Generated by aeskit.synth.shim: {top} with "
        f"{'clock pin ' + clock if has_clock else 'no clock pin'} and its "
        f"{in_off} other input bits / {out_off} output bits through {SHIM_MODULE}.",
        f"module {TOP_MODULE} (", *pins, ");",
        f"  logic [{max(1, in_off) - 1}:0] in_w;",
        f"  logic [{max(1, out_off) - 1}:0] out_w;",
    ]
    if out_off == 0:
        lines.append("  assign out_w = 1'b0;")
    lines += [
        f"  {SHIM_MODULE} u_io_shim (.sclk_i(sclk_i), .sin_i(sin_i), .par_o(in_w), "
        f".par_i(out_w), .sout_o(sout_o));",
        f"  {top} u_dut (",
        ",\n".join(f"    {c}" for c in conns),
        "  );",
        "endmodule",
        "",
    ]
    return ShimPlan(top, in_off, out_off, has_clock, "\n".join(lines))


def nexus_pdc(has_clock: bool, clock: str = "clk_i") -> str:
    """The Nexus constraints file placing the generated top's pins (nextpnr-nexus
    refuses unconstrained I/O)."""
    lines = []
    for pin, site in NEXUS_PINS.items():
        if pin == "clk_i":
            if not has_clock:
                continue
            pin = clock
        lines.append(f"ldc_set_location -site {{{site}}} [get_ports {pin}]")
    return "\n".join(lines) + "\n"


def shim_source() -> Path:
    """The shim's RTL file."""
    return shim_file()
