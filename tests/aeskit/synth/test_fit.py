"""The fit check (aeskit.synth.fit) and the device table (aeskit.synth.devices), without
running any tool: Yosys cell counts in, verdict and one-line message out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from aeskit.synth import DEFAULT_DEVICE, DEVICES, Device, UnknownDeviceError, get_device, synth_dir
from aeskit.synth.fit import (Misfit, check_fit, misfit_from_nextpnr_log,
                              misfit_from_route_failure, misfit_from_route_timeout, needs_of)
from aeskit.synth.flow import SynthError, ToolTimeout, route_budget_min
from aeskit.synth.toolrun import run as _run

FIX = Path(__file__).parent / "fixtures"

#: a made-up device with small, distinct capacities, so that each resource is checked
#: against its own limit (not against another resource's number)
TINY = Device("TINY", "--tiny", lut4=100, ff=50, ebr=4, dsp=2)

#: Yosys cells exactly at TINY's limits: LUT4 sites = LUT4 + 2*CCU2C + 2*TRELLIS_DPR16X4
#: = 90 + 2*3 + 2*2 = 100; PFUMX, L6MUX21 and ALU54B take no counted site
AT_LIMIT = {"LUT4": 90, "CCU2C": 3, "TRELLIS_DPR16X4": 2, "TRELLIS_FF": 50, "DP16KD": 4,
            "MULT18X18D": 2, "PFUMX": 500, "L6MUX21": 500, "ALU54B": 9}


def test_needs_counts_lut4_sites_as_nextpnr_does() -> None:
    assert needs_of(AT_LIMIT) == {"LUT4": 100, "FF": 50, "DP16KD": 4, "MULT18X18D": 2}
    assert needs_of({}) == {"LUT4": 0, "FF": 0, "DP16KD": 0, "MULT18X18D": 0}


def test_fits_below_and_exactly_at_the_limit() -> None:
    assert check_fit({"LUT4": 10, "TRELLIS_FF": 3}, TINY) is None
    assert check_fit(AT_LIMIT, TINY) is None


@pytest.mark.parametrize("cell, resource, needs, available", [
    ("LUT4", "LUT4", 101, 100),
    ("CCU2C", "LUT4", 102, 100),          # one carry cell more: two LUT4 sites
    ("TRELLIS_DPR16X4", "LUT4", 102, 100),
    ("TRELLIS_FF", "FF", 51, 50),
    ("DP16KD", "DP16KD", 5, 4),
    ("MULT18X18D", "MULT18X18D", 3, 2),
])
def test_one_over_does_not_fit(cell: str, resource: str, needs: int, available: int) -> None:
    cells = {**AT_LIMIT, cell: AT_LIMIT[cell] + 1}
    m = check_fit(cells, TINY)
    assert m is not None
    assert m.over == (resource,) and m.stage == "yosys" and m.device == "TINY"
    assert (m.needs[resource], m.available[resource]) == (needs, available)
    assert m.message("core_x") == \
        f"core_x does not fit TINY: needs {needs} of {available} {resource}"
    assert m.note() == f"does not fit (needs {needs} of {available} {resource})"


def test_every_short_resource_in_one_line() -> None:
    cells = {**AT_LIMIT, "LUT4": 200, "DP16KD": 9, "MULT18X18D": 7}
    m = check_fit(cells, TINY)
    assert m is not None and m.over == ("LUT4", "DP16KD", "MULT18X18D")
    assert m.message("big") == ("big does not fit TINY: needs 210 of 100 LUT4, 9 of 4 DP16KD, "
                                "7 of 2 MULT18X18D")
    assert "\n" not in m.message("big")


def test_issue_example_on_the_real_table() -> None:
    m = check_fit({"LUT4": 5000, "TRELLIS_FF": 9000, "DP16KD": 156}, "LFE5U-25F")
    assert m is not None
    assert m.message("ttable_unrolled") == \
        "ttable_unrolled does not fit LFE5U-25F: needs 156 of 56 DP16KD"
    assert check_fit({"LUT4": 5000, "TRELLIS_FF": 9000, "DP16KD": 156}, "LFE5U-85F") is None
    assert check_fit({"DP16KD": 209}, "LFE5U-85F") is not None


def test_misfit_json_round_trip() -> None:
    m = check_fit({**AT_LIMIT, "DP16KD": 6}, TINY)
    assert m is not None
    data = m.to_json()
    assert data["over"] == ["DP16KD"] and data["needs"]["DP16KD"] == 6
    assert Misfit.from_json(data) == m


def test_device_table_is_nextpnrs() -> None:
    """The capacities nextpnr-ecp5 (yowasp 0.11.1.0.post826) reported for each device,
    CABGA381, out of context (``test_devices.py`` re-reads them from nextpnr)."""
    measured = {
        "LFE5U-12F": ("--12k", 24288, 24288, 56, 28),
        "LFE5U-25F": ("--25k", 24288, 24288, 56, 28),
        "LFE5U-45F": ("--45k", 43848, 43848, 108, 72),
        "LFE5U-85F": ("--85k", 83640, 83640, 208, 156),
    }
    assert {n: (d.nextpnr_flag, d.lut4, d.ff, d.ebr, d.dsp) for n, d in DEVICES.items()
            if d.family == "ECP5"} == measured
    assert DEFAULT_DEVICE == "LFE5U-85F"
    assert get_device("LFE5U-45F").capacity() == {"LUT4": 43848, "FF": 43848, "DP16KD": 108,
                                                  "MULT18X18D": 72}


def test_unknown_device() -> None:
    with pytest.raises(UnknownDeviceError, match="LFE5U-99F.*LFE5U-12F, LFE5U-25F"):
        get_device("LFE5U-99F")
    with pytest.raises(ValueError):
        check_fit({}, "LFE5UM-85F")


def test_synth_dir_per_device(tmp_path: Path) -> None:
    assert synth_dir("round", root=tmp_path) == tmp_path / "round"
    assert synth_dir("round", "LFE5U-85F", tmp_path) == tmp_path / "round"
    assert synth_dir("round", "LFE5U-25F", tmp_path) == tmp_path / "round@LFE5U-25F"
    dirs = {synth_dir("round", d, tmp_path) for d in DEVICES}
    assert len(dirs) == len(DEVICES)


# --------------------------------------------------------------------------------
# nextpnr's verdict, from its log
# --------------------------------------------------------------------------------
def test_nextpnr_log_out_of_dp16kd() -> None:
    """A real log: nextpnr-ecp5 --12k on the 57-EBR fixture (ak_fx_big_ram)."""
    log = (FIX / "nextpnr_no_dp16kd.log").read_text()
    m = misfit_from_nextpnr_log(log, "LFE5U-12F")
    assert m is not None and m.stage == "nextpnr" and m.over == ("DP16KD",)
    assert m.needs == {"LUT4": 1047, "FF": 2064, "DP16KD": 57, "MULT18X18D": 0}
    assert m.message("fx_big_ram") == "fx_big_ram does not fit LFE5U-12F: needs 57 of 56 DP16KD"


def test_nextpnr_log_out_of_sites_at_full_utilisation() -> None:
    log = ("Info: Device utilisation:\n"
           "Info: \t              DP16KD:       0/     56     0%\n"
           "Info: \t          TRELLIS_FF:     100/  24288     0%\n"
           "Info: \t        TRELLIS_COMB:   24288/  24288   100%\n"
           "ERROR: Unable to place cell 'x', no BELs remaining to implement cell type "
           "'TRELLIS_COMB'\n")
    m = misfit_from_nextpnr_log(log, "LFE5U-25F")
    assert m is not None and m.over == ("LUT4",)
    assert m.summary() == "needs more than the 24288 LUT4"


def test_nextpnr_log_without_a_shortage_is_no_misfit() -> None:
    log = ("Info: Device utilisation:\n"
           "Info: \t              DP16KD:      12/    208     5%\n"
           "ERROR: Failed to parse JSON file 'netlist.json'\n")
    assert misfit_from_nextpnr_log(log, "LFE5U-85F") is None
    assert misfit_from_nextpnr_log("", "LFE5U-85F") is None


# --------------------------------------------------------------------------------
# a route that does not converge within the budget
# --------------------------------------------------------------------------------
def test_route_timeout_verdict_from_a_router2_log() -> None:
    """Excerpt of a real log: router2 on the co-processor, overuse rising again after
    iteration 30 (stopped by hand at iteration 91)."""
    log = (FIX / "nextpnr_router2_congested.log").read_text()
    m = misfit_from_route_timeout(log, "LFE5U-85F", 60, "router2")
    assert m.stage == "route" and m.over == ("routing",)
    assert m.message("coproc") == ("coproc does not route on LFE5U-85F: routing congested: "
                                   "1,537 wires still overused after 60 min of router2")
    assert m.note() == ("does not route (routing congested: 1,537 wires still overused after "
                        "60 min of router2)")
    assert Misfit.from_json(m.to_json()) == m
    # a log cut off before the router printed anything
    early = misfit_from_route_timeout("Info: Running placer\n", "LFE5U-85F", 0.5, "router1")
    assert early.summary() == "routing congested: not routed after 0.5 min of router1"


def test_misfit_json_without_detail_reads_as_before() -> None:
    m = check_fit({"DP16KD": 60}, "LFE5U-25F")
    assert m is not None and "detail" not in m.to_json()
    assert Misfit.from_json(m.to_json()) == m


def test_tool_past_its_budget_is_stopped(tmp_path: Path) -> None:
    t0 = time.monotonic()
    with pytest.raises(ToolTimeout, match="stopped after 0.3 s"):
        _run(["sleep", "30"], cwd=tmp_path, log_path=None, what="sleep", timeout_s=0.3)
    assert time.monotonic() - t0 < 10  # killed, not waited for


def test_route_budget_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AESKIT_ROUTE_BUDGET_MIN", raising=False)
    assert route_budget_min() == 30.0
    monkeypatch.setenv("AESKIT_ROUTE_BUDGET_MIN", "2.5")
    assert route_budget_min() == 2.5
    for bad in ("x", "0", "-1"):
        monkeypatch.setenv("AESKIT_ROUTE_BUDGET_MIN", bad)
        with pytest.raises(SynthError, match="AESKIT_ROUTE_BUDGET_MIN"):
            route_budget_min()


#: the end of nextpnr-nexus 0.11.1's log (router2) on tbox_folded, as it was
NEXUS_ROUTE_FAIL_LOG = """\
Info: Running post-place optimisations...
Info:      created 1 direct LUT-FF pairs
Info: Routing globals...
Info:     routed net 'sclk_i_IB_I_O$glb_clk' using global resources
Info:     routed net 'u_dut.clk_i$glb_clk' using global resources
Info: Running router2...
Info: Setting up routing resources...
Info: Running main router loop...
ERROR: Failed to route arc 0.0 of net 'u_dut.clk_i', from X87/Y17/JPADDI_SEIO33_CORE_IOA \
to X86/Y28/JCLKI_DCC_DCC1.
0 warnings, 1 error
"""


def test_route_failure_from_a_nextpnr_nexus_log() -> None:
    """A router that gives up on a net is a result (stage "route"), quoted in one line."""
    assert misfit_from_nextpnr_log(NEXUS_ROUTE_FAIL_LOG, "LIFCL-40") is None
    m = misfit_from_route_failure(NEXUS_ROUTE_FAIL_LOG, "LIFCL-40", "nextpnr-nexus 0.11.1")
    assert m is not None and m.stage == "route" and m.over == ("routing",)
    assert m.device == "LIFCL-40" and m.needs == {} and m.available == {}
    assert m.detail == ("does not route: nextpnr-nexus 0.11.1 cannot route clock net "
                        "'u_dut.clk_i' to its global buffer (arc 0.0, "
                        "X87/Y17/JPADDI_SEIO33_CORE_IOA -> X86/Y28/JCLKI_DCC_DCC1)")
    assert "\n" not in m.detail
    assert m.note() == m.detail
    assert m.message("tbox_folded") == (
        "tbox_folded does not route on LIFCL-40: nextpnr-nexus 0.11.1 cannot route clock "
        "net 'u_dut.clk_i' to its global buffer (arc 0.0, X87/Y17/JPADDI_SEIO33_CORE_IOA "
        "-> X86/Y28/JCLKI_DCC_DCC1)")
    assert Misfit.from_json(m.to_json()) == m


def test_route_failure_other_router_messages() -> None:
    r1 = ("Warning: Failed to find a route for arc 0 of net x_q[3].\n"
          "ERROR: Routing design failed.\n")
    m = misfit_from_route_failure(r1, "iCE40-HX8K", "nextpnr-ice40 0.11.1")
    assert m is not None and m.note() == (
        "does not route: nextpnr-ice40 0.11.1 cannot route net 'x_q[3]' (arc 0)")
    m = misfit_from_route_failure("ERROR: Routing design failed.\n", "LIFCL-40", "nextpnr-nexus")
    assert m is not None and m.note() == "does not route: nextpnr-nexus's router failed"
    m = misfit_from_route_failure("ERROR: Failed to route arc 2 of net 'd', from X1/Y2/A to "
                                  "X3/Y4/B.\n", "LIFCL-40", "nextpnr-nexus 0.11.1")
    assert m is not None and m.detail.endswith("cannot route net 'd' (arc 2, X1/Y2/A -> X3/Y4/B)")
    # not a router failure: no verdict
    assert misfit_from_route_failure("ERROR: Found unconstrained IO 'a'\n", "LIFCL-40",
                                     "nextpnr-nexus") is None
