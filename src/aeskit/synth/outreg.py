"""Block-RAM output registers: move the flip-flops that register a DP16KD read port
into the block RAM (``REGMODE_x = "OUTREG"``).

Yosys 0.70 maps every ECP5 block RAM with ``REGMODE_A/B = "NOREG"``: the read data
leaves the RAM's output latch, and nextpnr times that latch's clock-to-output at
5.61 ns on the -6 part. The DP16KD also has an output register after the latch, with
its own clock enable (``OCEx``); its clock-to-output is 0.97 ns. Measured on a chain
of two DP16KD with one LUT4 between them (LFE5U-85F -6, seed 1): 121 MHz without,
283 MHz with the output register. Yosys does not use it, so the flow does: after
``synth_ecp5``, :func:`absorb_output_registers` rewrites ``netlist.json`` before
nextpnr reads it.

A read port is absorbed when the netlist already has the register the RAM would
add, i.e. every used data output bit of the port drives exactly one load, the ``DI``
of a ``TRELLIS_FF`` that

* is clocked by the port's clock, on the same edge (``CLKMUX = "CLK"``, the port's
  ``CLKxMUX`` not inverted);
* has no set or reset: ``LSR`` tied to 0 (the RTL register has no reset, like the
  block RAM latch before it);
* and all of the port's flip-flops share one clock enable (``CEMUX = "CE"``, one
  net; or ``CEMUX = "INV"``, the same net inverted) or none (``CEMUX = "1"``): it
  becomes ``OCEx`` (an inverted enable through one added LUT4 inverter, shared by
  every port with that enable).

Then the flip-flops are deleted, each ``DOx`` bit drives the net the flip-flop drove,
``OCEx`` takes the enable and ``REGMODE_x = "OUTREG"``. A RAM in true-dual-port mode
(``DATA_WIDTH_x`` <= 18) has two read groups, one per port. A RAM with 36-bit ports
(Yosys's pseudo-dual-port mapping: port B reads 36 bits, on ``DOA0-17`` and
``DOB0-17``) has one read group over both ports' outputs; it is absorbed only when both
ports have the same clock net, and then both ports get ``REGMODE = "OUTREG"`` and the
same ``OCE``, so the result is the same whichever port's clock and enable the
hardware uses for those outputs. The rewrite is exact: the output register behaves as
the flip-flops did (same clock, enable, no reset; both power up at 0). A netlist
without such a pattern is not changed at all.

The RTL asks for it by writing the register without reset right after the RAM read
(``ak_ttable_ram`` and ``ak_tbox_ram`` with ``OutReg = 1``); docs/synthesis.md lists
the rule.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["OutregStats", "absorb_output_registers", "absorb_in_file"]

#: data output pins of a DP16KD read port
_DO = {port: [f"DO{port}{i}" for i in range(18)] for port in "AB"}


@dataclass
class OutregStats:
    """What :func:`absorb_output_registers` did."""

    #: block RAM ports that got ``REGMODE = "OUTREG"``, as ``cell.port``
    ports: list[str] = field(default_factory=list)
    #: flip-flops removed (moved into the RAMs)
    flip_flops: int = 0
    #: ports left alone and why (``cell.port: reason``), for the log
    skipped: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ports": len(self.ports), "flip_flops": self.flip_flops}


def _width(cell: dict[str, Any], port: str) -> int:
    raw = cell["parameters"].get(f"DATA_WIDTH_{port}", "18")
    try:
        return int(str(raw), 2) if set(str(raw)) <= {"0", "1"} and len(str(raw)) > 2 \
            else int(str(raw))
    except ValueError:
        return 36


def _param(params: dict[str, Any], key: str, default: str) -> str:
    """A string parameter as Yosys writes it (``"1 "``: a trailing space marks a
    string that looks like bits), stripped."""
    return str(params.get(key, default)).strip()


def _loads(cells: dict[str, Any]) -> dict[Any, list[tuple[str, str]]]:
    out: dict[Any, list[tuple[str, str]]] = defaultdict(list)
    for name, cell in cells.items():
        dirs = cell.get("port_directions", {})
        for pin, bits in cell["connections"].items():
            if dirs.get(pin) == "input":
                for b in bits:
                    if isinstance(b, int):
                        out[b].append((name, pin))
    return out


def _port_plan(name: str, cell: dict[str, Any], port: str, cells: dict[str, Any],
               loads: dict[Any, list[tuple[str, str]]], outputs: set[int]
               ) -> tuple[list[tuple[str, str]], Any] | str:
    """The (DO pin, flip-flop) pairs and the enable of an absorbable read group, or
    the reason it is not. ``port`` is ``"A"`` or ``"B"`` (a true-dual-port port) or
    ``"AB"`` (the 36-bit read port of a pseudo-dual-port RAM, data on DOA and DOB)."""
    params = cell["parameters"]
    conn = cell["connections"]
    for q in port:
        if _param(params, f"REGMODE_{q}", "NOREG") != "NOREG":
            return "already registered"
        if _param(params, f"CLK{q}MUX", f"CLK{q}") != f"CLK{q}":
            return "inverted clock"
    if len(port) == 1 and _width(cell, port) > 18:
        return "36-bit pseudo-dual-port mode"
    clks = {conn.get(f"CLK{q}", ["x"])[0] for q in port}
    if len(clks) != 1:
        return "ports on different clocks"
    clk = clks.pop()
    pairs: list[tuple[str, str]] = []
    enable: Any = None
    for pin in [pin for q in port for pin in _DO[q]]:
        bits = conn.get(pin)
        if not bits or not isinstance(bits[0], int):
            continue
        bit = bits[0]
        sinks = loads.get(bit, [])
        if not sinks and bit not in outputs:
            continue  # unused data bit
        if len(sinks) != 1 or bit in outputs:
            return f"{pin} has {len(sinks)} loads"
        ff_name, ff_pin = sinks[0]
        ff = cells[ff_name]
        if ff["type"] != "TRELLIS_FF" or ff_pin != "DI":
            return f"{pin} drives {ff['type']}.{ff_pin}"
        p, c = ff["parameters"], ff["connections"]
        if _param(p, "CLKMUX", "CLK") != "CLK" or c.get("CLK", [None])[0] != clk:
            return f"{pin}: flip-flop on another clock"
        if c.get("LSR", ["0"])[0] != "0" or _param(p, "LSRMUX", "LSR") != "LSR":
            return f"{pin}: flip-flop has a set/reset"
        cemux = _param(p, "CEMUX", "1")
        if cemux == "1":
            ce: Any = "1"
        elif cemux in ("CE", "INV"):
            ce = (cemux, c.get("CE", ["1"])[0])
        else:
            return f"{pin}: flip-flop enable mode {cemux!r}"
        if enable is None:
            enable = ce
        elif enable != ce:
            return "flip-flops with different enables"
        pairs.append((pin, ff_name))
    if not pairs:
        return "no data output used"
    return pairs, enable


def _read_groups(cell: dict[str, Any]) -> list[str]:
    """``["A", "B"]`` for a true-dual-port DP16KD (ports of at most 18 bits), ``["AB"]``
    for one whose ports are 36 bits wide (Yosys's pseudo-dual-port mapping: port B
    reads 36 bits, on DOA0-17 and DOB0-17)."""
    if _width(cell, "A") > 18 or _width(cell, "B") > 18:
        return ["AB"]
    return ["A", "B"]


#: LUT4 INIT of an inverter of input A (B, C, D tied low): Z = INIT[{D,C,B,A}]
_INV_INIT = format(0x5555, "016b")


def _enable_bit(enable: Any, cells: dict[str, Any], inverters: dict[Any, int],
                next_bit: list[int]) -> Any:
    """The net for ``OCEx``: ``"1"``, the enable's own bit, or the output of a LUT4
    that inverts it (made once per enable bit)."""
    if enable == "1":
        return "1"
    mode, bit = enable
    if mode == "CE" or bit in ("0", "1"):
        return bit if mode == "CE" else ("0" if bit == "1" else "1")
    if bit not in inverters:
        out = next_bit[0]
        next_bit[0] += 1
        cells[f"$aeskit_outreg_inv${out}"] = {
            "hide_name": 1, "type": "LUT4", "parameters": {"INIT": _INV_INIT},
            "attributes": {}, "port_directions": {"A": "input", "B": "input", "C": "input",
                                                  "D": "input", "Z": "output"},
            "connections": {"A": [bit], "B": ["0"], "C": ["0"], "D": ["0"], "Z": [out]}}
        inverters[bit] = out
    return inverters[bit]


def _max_bit(module: dict[str, Any]) -> int:
    bits = [b for c in module["cells"].values() for v in c["connections"].values()
            for b in v if isinstance(b, int)]
    bits += [b for n in module.get("netnames", {}).values() for b in n["bits"]
             if isinstance(b, int)]
    bits += [b for p in module.get("ports", {}).values() for b in p["bits"]
             if isinstance(b, int)]
    return max(bits, default=1)


def absorb_output_registers(netlist: dict[str, Any], top: str) -> OutregStats:
    """Rewrite ``netlist`` (a Yosys JSON netlist, in place): see the module doc."""
    stats = OutregStats()
    module = netlist["modules"][top]
    cells: dict[str, Any] = module["cells"]
    inverters: dict[Any, int] = {}
    next_bit = [_max_bit(module) + 1]
    outputs = {b for p in module.get("ports", {}).values()
               if p.get("direction") == "output" for b in p["bits"] if isinstance(b, int)}
    loads = _loads(cells)
    for name in sorted(n for n, c in cells.items() if c["type"] == "DP16KD"):
        cell = cells[name]
        for port in _read_groups(cell):
            plan = _port_plan(name, cell, port, cells, loads, outputs)
            if isinstance(plan, str):
                stats.skipped[f"{name}.{port}"] = plan
                continue
            pairs, enable = plan
            for pin, ff_name in pairs:
                q = cells[ff_name]["connections"]["Q"]
                cell["connections"][pin] = list(q)
                del cells[ff_name]
                stats.flip_flops += 1
            oce = _enable_bit(enable, cells, inverters, next_bit)
            for q in port:
                cell["connections"][f"OCE{q}"] = [oce]
                cell["parameters"][f"REGMODE_{q}"] = "OUTREG"
            stats.ports.append(f"{name}.{port}")
    return stats


def absorb_in_file(path: Path, top: str) -> OutregStats:
    """:func:`absorb_output_registers` on the netlist file ``path``; the file is
    rewritten only when something was absorbed."""
    netlist = json.loads(Path(path).read_text())
    stats = absorb_output_registers(netlist, top)
    if stats.ports:
        tmp = Path(path).with_suffix(".json.tmp")
        tmp.write_text(json.dumps(netlist))
        tmp.replace(path)
    return stats
