"""aeskit.synth.floorplan: the EBR site table, the serpentine order, pinning in name
order, and the pins taken by nextpnr (every one of the 208 sites exists, a pinned
design places and routes)."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from aeskit.synth import Design, synthesize
from aeskit.synth.floorplan import (EBR_ROWS, FloorplanError, ebr_sites, pin_block_rams,
                                    serpentine_sites)
from aeskit.toolchain.paths import nextpnr_ecp5

FIX = Path(__file__).parent / "fixtures"


def _xy(bel: str) -> tuple[int, int]:
    x, y, _ = bel.split("/")
    return int(x[1:]), int(y[1:])


def test_site_table_is_the_devices_208() -> None:
    sites = ebr_sites()
    assert len(sites) == 52 and len({x for x, _ in sites}) == 52
    assert [x for x, _ in sites] == sorted(x for x, _ in sites)
    # the i-th site of each group of four is bel EBR<i>
    assert [b for _, b in sites[:8]] == ["EBR0", "EBR1", "EBR2", "EBR3"] * 2
    everything = serpentine_sites(208, EBR_ROWS)
    assert len(set(everything)) == 208


def test_serpentine_is_centred_and_turns() -> None:
    bels = serpentine_sites(10, (46, 22))
    assert len(bels) == 10
    first, second = [_xy(b) for b in bels[:5]], [_xy(b) for b in bels[5:]]
    assert {y for _, y in first} == {46} and {y for _, y in second} == {22}
    xs = [x for x, _ in first]
    assert xs == sorted(xs)                      # left to right
    assert [x for x, _ in second] == xs[::-1]    # then right to left
    assert second[0][0] == first[-1][0]          # the turn keeps the column
    allx = [x for x, _ in ebr_sites()]
    left, right = allx.index(xs[0]), len(allx) - 1 - allx.index(xs[-1])
    assert abs(left - right) <= 1                # centred
    # an uneven count leaves the last row short
    assert len(serpentine_sites(7, (22, 46))) == 7


@pytest.mark.parametrize("rows", [(), (21,), (22, 22)])
def test_bad_rows_are_refused(rows: tuple[int, ...]) -> None:
    with pytest.raises(FloorplanError):
        serpentine_sites(4, rows)


def test_too_many_rams_are_refused() -> None:
    with pytest.raises(FloorplanError, match="do not fit"):
        serpentine_sites(53, (22,))


def _netlist(names: list[str]) -> dict[str, Any]:
    cells = {n: {"type": "DP16KD", "attributes": {}} for n in names}
    cells["lut"] = {"type": "LUT4", "attributes": {}}
    return {"modules": {"top": {"cells": cells}}}


def test_pins_in_natural_name_order() -> None:
    names = ["g_round[10].rom", "g_round[2].rom", "g_round[1].rom_b", "g_round[1].rom_a",
             "outbuf.mem"]
    nl = _netlist(names)
    stats = pin_block_rams(nl, "top", (70,))
    assert list(stats.pins) == ["g_round[1].rom_a", "g_round[1].rom_b", "g_round[2].rom",
                                "g_round[10].rom", "outbuf.mem"]
    cells = nl["modules"]["top"]["cells"]
    assert "BEL" not in cells["lut"]["attributes"]
    xs = [_xy(cells[n]["attributes"]["BEL"])[0] for n in stats.pins]
    assert xs == sorted(xs) and len(set(xs)) == 5
    assert stats.to_json() == {"rams": 5, "rows": [70]}
    with pytest.raises(FloorplanError, match="no module"):
        pin_block_rams(nl, "other", (70,))


def test_ram_rows_are_part_of_the_hash() -> None:
    base = Design("fx", "ak_fx_rom_chain", (FIX / "ak_fx_rom_chain.sv",))
    pinned = Design("fx", "ak_fx_rom_chain", (FIX / "ak_fx_rom_chain.sv",), ram_rows=(46,))
    other = Design("fx", "ak_fx_rom_chain", (FIX / "ak_fx_rom_chain.sv",), ram_rows=(22,))
    assert len({base.source_hash(), pinned.source_hash(), other.source_hash()}) == 3


def test_a_pinned_design_places_and_routes(tmp_path: Path) -> None:
    """The fixture ROM chain with its two RAMs pinned to row 70: the result records the
    floorplan, the netlist nextpnr read carries the pins, and nextpnr routed it."""
    design = Design("fx_rom_chain_fp", "ak_fx_rom_chain", (FIX / "ak_fx_rom_chain.sv",),
                    ram_rows=(70,))
    r = synthesize(design, tmp_path / "out")
    assert r.floorplan == {"rams": 2, "rows": [70]}
    cells = json.loads(r.path("netlist").read_text())["modules"]["ak_fx_rom_chain"]["cells"]
    bels = sorted(c["attributes"]["BEL"] for c in cells.values() if c["type"] == "DP16KD")
    assert bels == sorted(serpentine_sites(2, (70,)))
    assert r.fmax_mhz is not None
    # a design without rows keeps synth.json's fields as they were
    plain = synthesize(Design("fx_rom_chain_nofp", "ak_fx_rom_chain",
                              (FIX / "ak_fx_rom_chain.sv",)), tmp_path / "plain")
    assert plain.floorplan is None
    assert "floorplan" not in json.loads(plain.path("result").read_text())


def test_every_site_exists_in_nextpnr(tmp_path: Path) -> None:
    """The fixture's block RAMs and copies of one, 208 in all, pinned to all 208 sites,
    pass nextpnr's placer (a site that does not exist fails with "No Bel named ...", two
    cells on one site fail too), and the placed netlist nextpnr writes has every RAM on
    the site it was pinned to."""
    r = synthesize(Design("fx_rom_chain_sites", "ak_fx_rom_chain",
                          (FIX / "ak_fx_rom_chain.sv",)), tmp_path / "src")
    netlist = json.loads(r.path("netlist").read_text())
    cells = netlist["modules"]["ak_fx_rom_chain"]["cells"]
    rams = [n for n, c in cells.items() if c["type"] == "DP16KD"]
    name, ram = rams[0], cells[rams[0]]
    fresh = 10_000_000
    for k in range(208 - len(rams)):
        twin = copy.deepcopy(ram)
        for pin, direction in twin["port_directions"].items():
            if direction == "output":   # own, unused outputs
                twin["connections"][pin] = list(range(fresh, fresh + len(
                    twin["connections"][pin])))
                fresh += len(twin["connections"][pin])
        cells[f"{name}_twin{k}"] = twin
    stats = pin_block_rams(netlist, "ak_fx_rom_chain", EBR_ROWS)
    assert len(stats.pins) == 208
    (tmp_path / "n.json").write_text(json.dumps(netlist))
    res = subprocess.run(
        [*nextpnr_ecp5(), "--85k", "--package", "CABGA381", "--speed", "6",
         "--out-of-context", "--json", "n.json", "--top", "ak_fx_rom_chain", "--no-route",
         "--report", "r.json", "--write", "placed.json", "-q"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    used = json.loads((tmp_path / "r.json").read_text())["utilization"]["DP16KD"]["used"]
    assert used == 208
    placed = json.loads((tmp_path / "placed.json").read_text())["modules"]
    placed_cells = next(iter(placed.values()))["cells"]
    where = {n: c["attributes"].get("NEXTPNR_BEL") for n, c in placed_cells.items()
             if c["type"] == "DP16KD"}
    assert where == stats.pins


def test_registry_rows_are_sites() -> None:
    """Every registry core that names EBR rows names rows of the device, and the RAM
    counts its documentation gives fit them (the unrolled T-table cores 84 / 100 / 116,
    tbox_unfolded 160)."""
    from aeskit.hw.registry import CORES

    named = {c.name: c.ram_rows for c in CORES if c.ram_rows is not None}
    assert set(named) >= {"ttable_unrolled", "tbox_unfolded"}
    rams = {"ttable_unrolled": 84, "ttable_unrolled_192": 100, "ttable_unrolled_256": 116,
            "tbox_unfolded": 160}
    for name, rows in named.items():
        assert rows is not None
        assert len(set(serpentine_sites(rams.get(name, 1), rows))) == rams.get(name, 1)
