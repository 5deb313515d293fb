"""``aeskit asbus`` (aeskit.asbus.evaluate) at 32 bits without synthesis: the JSON
records, cycles equal to what the system tests assert, toggles checked by an
independent count of the kept VCD, and clear errors for bad options."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from aeskit.asbus.cases import TESTS, expected_asbus_cycles
from aeskit.asbus.evaluate import evaluate
from aeskit.asbus.run import measure
from aeskit.cli import main

FIELDS = {"test", "bus", "width", "measured_cycles", "model_cycles", "paper_cycles", "toggles",
          "lut4", "fmax"}
PERIOD_PS = 10_000
TOPS = {"asbus": "ak_adam", "axi": "ak_xdam"}


def _naive_toggles(vcd: Path, scope: str, start: int, end: int) -> int:
    """Bit changes of the variables under ``scope`` with a time stamp in [start, end):
    header read with regular expressions, values kept as strings of width characters."""
    text = vcd.read_text()
    head, body = text.split("$enddefinitions", 1)
    assert re.search(r"\$timescale\s+1ps\s+\$end", head), "test assumes a 1 ps timescale"
    path: list[str] = []
    width: dict[str, int] = {}
    for m in re.finditer(r"\$scope\s+\S+\s+(\S+)\s+\$end|\$upscope\s+\$end|"
                         r"\$var\s+\S+\s+(\d+)\s+(\S+)\s+(\S+)", head):
        if m.group(1):
            path.append(m.group(1))
        elif m.group(2):
            name = ".".join([*path, m.group(4)])
            if name.startswith(scope + "."):
                width[m.group(3)] = int(m.group(2))
        else:
            path.pop()
    value: dict[str, str] = {}
    total, now = 0, 0
    for line in body.splitlines()[1:]:
        line = line.strip()
        if not line or line.startswith("$"):
            continue
        if line[0] == "#":
            now = int(line[1:])
            continue
        if line[0] == "b":
            bits, code = line[1:].split()
        else:
            bits, code = line[0], line[1:]
        if code not in width:
            continue
        bits = bits.rjust(width[code], "0")
        if code in value and start <= now < end:
            total += sum(a != b for a, b in zip(value[code], bits))
        value[code] = bits
    return total


@pytest.fixture(scope="module")
def library_run(tmp_path_factory: pytest.TempPathFactory):
    vcd_dir = tmp_path_factory.mktemp("vcd")
    ev = evaluate([32], ["asbus", "axi"], synth=False, vcd_dir=vcd_dir)
    return ev, vcd_dir


@pytest.mark.slow  # the 32-bit ASBUS and AXI runs with VCD: about 2 minutes
def test_cli_json_records(library_run) -> None:
    ev, _ = library_run
    exe = Path(sys.executable).parent / "aeskit"
    out = subprocess.run([str(exe), "asbus", "--widths", "32", "--buses", "asbus,axi",
                          "--no-synth", "--json"], capture_output=True, text=True, check=True,
                         timeout=600)
    recs = json.loads(out.stdout)
    assert FIELDS <= set(recs[0])
    assert {(r["test"], r["bus"], r["width"]) for r in recs} == {
        (t, b, 32) for t in TESTS for b in ("asbus", "axi")}
    assert len(recs) == 6
    # the CLI reads the cache the library run left: the same records
    assert recs == [r.as_dict() for r in ev.records]
    assert "cached simulation" in out.stderr
    for r in recs:
        assert r["lut4"] is None and r["fmax"] is None
        assert r["toggles"] > 0
        assert r["t_end_ps"] - r["t_start_ps"] == r["measured_cycles"] * PERIOD_PS


@pytest.mark.slow  # the 32-bit ASBUS and AXI runs with VCD: about 2 minutes
def test_cycles_equal_the_system_tests(library_run) -> None:
    ev, _ = library_run
    for test in TESTS:
        r = ev.record(test, "asbus", 32)
        assert r is not None
        # what tests/hw/systems/adam/test_adam.py asserts for ADAM
        assert r.measured_cycles == expected_asbus_cycles(test, 32)[1], test
    # AXI cycles are recorded, not asserted, by test_xdam: the traced build must give
    # what the untraced build (the one the system tests run) gives
    plain = {(r.test, r.bus): r.measured_cycles for r in measure(widths=(32,), buses=("axi",))}
    for test in TESTS:
        r = ev.record(test, "axi", 32)
        assert r is not None and r.measured_cycles == plain[(test, "axi")], test


@pytest.mark.slow  # the 32-bit ASBUS and AXI runs with VCD: about 2 minutes
def test_toggles_agree_with_an_independent_count(library_run) -> None:
    ev, vcd_dir = library_run
    for bus in ("asbus", "axi"):
        vcd = vcd_dir / f"{bus}-32.vcd"
        assert vcd.is_file()
        for test in TESTS:
            r = ev.record(test, bus, 32)
            assert r is not None and r.t_start_ps is not None and r.t_end_ps is not None
            want = _naive_toggles(vcd, TOPS[bus], r.t_start_ps, r.t_end_ps)
            assert r.toggles == want, (test, bus)
    # the cipher case moves the same bytes through two AES engines: more activity
    for bus in ("asbus", "axi"):
        lin, ciph = ev.record("linear", bus, 32), ev.record("cipher", bus, 32)
        assert lin is not None and ciph is not None and ciph.toggles > lin.toggles


@pytest.mark.parametrize("args, msg", [
    (["--widths", "48"], "width must be one of 32, 64, 128, got 48"),
    (["--widths", "32,abc"], "got 'abc'"),
    (["--buses", "asbus,pci"], "bus must be 'asbus' or 'axi', got 'pci'"),
    (["--buses", ""], "bus must be"),
])
def test_bad_options(args: list[str], msg: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["asbus", "--no-synth", *args]) == 2
    err = capsys.readouterr().err
    assert msg in err
