"""aeskit.synth.outreg: which block-RAM read ports take their output register, on
hand-made netlists (each rule) and on a real Yosys netlist (the fixture ROM chain)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from aeskit.synth import Design, synthesize
from aeskit.synth.outreg import absorb_in_file, absorb_output_registers

FIX = Path(__file__).parent / "fixtures"


def _ram(width: int = 18, regmode: str = "NOREG", clkmux: str = "CLKA") -> dict[str, Any]:
    conn: dict[str, list[Any]] = {"CLKA": [2], "CLKB": [2], "CEA": [3], "OCEA": ["1"],
                                  "CEB": ["0"], "OCEB": ["1"]}
    dirs = {p: "input" for p in conn}
    for i in range(18):
        conn[f"DOA{i}"] = [100 + i] if i < 4 else [900 + i]  # bits 0-3 used
        conn[f"DOB{i}"] = [700 + i]
        dirs[f"DOA{i}"] = dirs[f"DOB{i}"] = "output"
    return {"type": "DP16KD", "parameters": {
        "DATA_WIDTH_A": format(width, "032b"), "DATA_WIDTH_B": format(width, "032b"),
        "REGMODE_A": regmode, "REGMODE_B": "NOREG", "CLKAMUX": clkmux, "CLKBMUX": "CLKB"},
        "connections": conn, "port_directions": dirs, "attributes": {}}


def _ff(di: int, q: int, *, ce: Any = 5, cemux: str = "CE", lsr: Any = "0",
        clk: int = 2) -> dict[str, Any]:
    return {"type": "TRELLIS_FF",
            "parameters": {"CEMUX": cemux, "CLKMUX": "CLK", "GSR": "DISABLED",
                           "LSRMUX": "LSR", "REGSET": "RESET", "SRMODE": "LSR_OVER_CE"},
            "connections": {"CLK": [clk], "CE": [ce], "LSR": [lsr], "DI": [di], "Q": [q]},
            "port_directions": {"CLK": "input", "CE": "input", "LSR": "input",
                                "DI": "input", "Q": "output"}, "attributes": {}}


def _netlist(**ff_kw: Any) -> dict[str, Any]:
    cells: dict[str, Any] = {"ram": _ram()}
    for i in range(4):
        cells[f"ff{i}"] = _ff(100 + i, 200 + i, **ff_kw)
    return {"modules": {"top": {"ports": {}, "cells": cells}}}


def test_absorbs_a_registered_port() -> None:
    nl = _netlist()
    stats = absorb_output_registers(nl, "top")
    cells = nl["modules"]["top"]["cells"]
    assert stats.ports == ["ram.A"] and stats.flip_flops == 4
    assert not any(n.startswith("ff") for n in cells)
    ram = cells["ram"]
    assert ram["parameters"]["REGMODE_A"] == "OUTREG"
    assert ram["parameters"]["REGMODE_B"] == "NOREG"
    assert [ram["connections"][f"DOA{i}"] for i in range(4)] == [[200 + i] for i in range(4)]
    assert ram["connections"]["OCEA"] == [5]  # the flip-flops' enable
    assert stats.skipped["ram.B"] == "no data output used"


def test_flip_flops_without_enable_give_a_constant_output_enable() -> None:
    nl = _netlist(cemux="1 ", ce="1")  # Yosys writes string parameters with a space
    stats = absorb_output_registers(nl, "top")
    assert stats.ports == ["ram.A"]
    assert nl["modules"]["top"]["cells"]["ram"]["connections"]["OCEA"] == ["1"]


def test_inverted_enable_gets_one_shared_inverter() -> None:
    """Flip-flops enabled by the inverse of a net (CEMUX = "INV"): OCE is driven by an
    added LUT4 inverter of that net (Z = not A), one for both RAMs that need it."""
    nl = _netlist(cemux="INV")
    cells = nl["modules"]["top"]["cells"]
    cells["ram2"] = _ram()
    for i in range(4):
        cells["ram2"]["connections"][f"DOA{i}"] = [300 + i]
        cells[f"gg{i}"] = _ff(300 + i, 400 + i, cemux="INV")
    stats = absorb_output_registers(nl, "top")
    assert sorted(stats.ports) == ["ram.A", "ram2.A"] and stats.flip_flops == 8
    luts = [c for c in cells.values() if c["type"] == "LUT4"]
    assert len(luts) == 1
    inv = luts[0]
    assert inv["connections"]["A"] == [5] and inv["connections"]["B"] == ["0"]
    init = int(inv["parameters"]["INIT"], 2)
    assert (init >> 0) & 1 == 1 and (init >> 1) & 1 == 0  # Z = not A with B = C = D = 0
    out = inv["connections"]["Z"]
    assert cells["ram"]["connections"]["OCEA"] == out == cells["ram2"]["connections"]["OCEA"]
    assert out[0] > 900 + 17  # a new net, not one of the netlist's


@pytest.mark.parametrize("change, reason", [
    (lambda nl: nl["modules"]["top"]["cells"]["ff2"]["connections"].update(LSR=[77]),
     "DOA2: flip-flop has a set/reset"),
    (lambda nl: nl["modules"]["top"]["cells"]["ff1"]["connections"].update(CE=[6]),
     "flip-flops with different enables"),
    (lambda nl: nl["modules"]["top"]["cells"]["ff3"]["connections"].update(CLK=[9]),
     "DOA3: flip-flop on another clock"),
    (lambda nl: nl["modules"]["top"]["cells"].update(
        lut=_ff(101, 300) | {"type": "LUT4"}), "DOA1 has 2 loads"),
    (lambda nl: nl["modules"]["top"]["cells"]["ram"]["connections"].update(CLKA=[8]),
     "DOA0: flip-flop on another clock"),
    (lambda nl: nl["modules"]["top"]["cells"].update(ram=_ram(regmode="OUTREG")),
     "already registered"),
    (lambda nl: nl["modules"]["top"]["cells"].update(ram=_ram(clkmux="INV")),
     "inverted clock"),
    (lambda nl: nl["modules"]["top"].update(ports={"q": {"direction": "output",
                                                        "bits": [100]}}),
     "DOA0 has 1 loads"),
])
def test_leaves_ports_it_cannot_absorb(change: Any, reason: str) -> None:
    nl = _netlist()
    change(nl)
    before = copy.deepcopy(nl)
    stats = absorb_output_registers(nl, "top")
    assert stats.ports == [] and stats.flip_flops == 0
    assert stats.skipped["ram.A"] == reason
    assert nl == before


def test_pseudo_dual_port_ram_takes_both_output_registers() -> None:
    """A 36-bit RAM reads on DOA and DOB: one group; both ports get OUTREG and OCE."""
    nl = _netlist()
    cells = nl["modules"]["top"]["cells"]
    cells["ram"] = _ram(width=36)
    for i in range(3):
        cells["ram"]["connections"][f"DOB{i}"] = [500 + i]
        cells[f"hh{i}"] = _ff(500 + i, 600 + i)
    stats = absorb_output_registers(nl, "top")
    assert stats.ports == ["ram.AB"] and stats.flip_flops == 7
    ram = cells["ram"]
    assert ram["parameters"]["REGMODE_A"] == ram["parameters"]["REGMODE_B"] == "OUTREG"
    assert ram["connections"]["OCEA"] == ram["connections"]["OCEB"] == [5]
    assert [ram["connections"][f"DOB{i}"] for i in range(3)] == [[600 + i] for i in range(3)]
    # a different clock on port B leaves it alone
    nl2 = _netlist()
    nl2["modules"]["top"]["cells"]["ram"] = _ram(width=36)
    nl2["modules"]["top"]["cells"]["ram"]["connections"]["CLKB"] = [8]
    assert absorb_output_registers(nl2, "top").skipped["ram.AB"] == "ports on different clocks"


def test_unchanged_file_is_not_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "n.json"
    nl = _netlist(lsr=42)
    path.write_text(json.dumps(nl))
    mtime = path.stat().st_mtime_ns
    assert absorb_in_file(path, "top").ports == []
    assert path.stat().st_mtime_ns == mtime


@pytest.mark.parametrize("out_reg", [1, 0])
def test_flow_moves_the_fixture_registers_into_the_rams(out_reg: int, tmp_path: Path) -> None:
    """The whole flow on the ROM chain. OutReg = 1: both ROMs' A ports take their word
    register (18 flip-flops each); the result register q_o stays a flip-flop (it
    follows a register, not a RAM). OutReg = 0: ROM 0's word feeds the XOR, so its
    port is left alone, and ROM 1's word goes straight into q_o, which (no reset, no
    enable) becomes ROM 1's output register."""
    design = Design(name=f"fx_rom_chain{out_reg}", top="ak_fx_rom_chain",
                    files=(FIX / "ak_fx_rom_chain.sv",), parameters={"OutReg": out_reg})
    r = synthesize(design, tmp_path / "out")
    ports = 2 if out_reg else 1
    assert r.outreg == {"ports": ports, "flip_flops": 18 * ports}
    netlist = json.loads(r.path("netlist").read_text())
    rams = {n: c for n, c in netlist["modules"]["ak_fx_rom_chain"]["cells"].items()
            if c["type"] == "DP16KD"}
    regmode = {n.split(".")[0]: c["parameters"]["REGMODE_A"] for n, c in rams.items()}
    assert regmode == {"rom0": "OUTREG" if out_reg else "NOREG", "rom1": "OUTREG"}
    # flip-flops left: the address register (9), and with OutReg the result (18)
    assert r.ff == 9 + (18 if out_reg else 0)
    assert r.critical_path is not None and r.critical_path["start_type"] == "DP16KD"
