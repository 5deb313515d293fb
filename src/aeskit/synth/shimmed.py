"""The flow on a family without an out-of-context mode (iCE40, Nexus): the design
inside the generated four-pin top of :mod:`aeskit.synth.shim` (``ak_io_shim``: a shift
register drives the inputs, an XOR observes the outputs; its cells and sites are
subtracted). Yosys ``portlist`` -> the shim top -> the family's synth script ->
nextpnr on the shim top (:func:`aeskit.synth.pnr.place_and_route`) -> the gate count.
:func:`aeskit.synth.flow.synthesize` calls :func:`synthesize_shimmed` after its cache
check; see docs/synthesis.md."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from aeskit.synth import stored, toolrun
from aeskit.synth.critical import critical_path, lut_levels
from aeskit.synth.devices import Device
from aeskit.synth.family import FAMILY
from aeskit.synth.fit import Misfit, check_fit, needs_of
from aeskit.synth.gatecount import GATES_FILES, run_gate_count
from aeskit.synth.pnr import (PNR_FILES, NotPlaced, nextpnr_command, place_and_route,
                              router_placer, tool_label)
from aeskit.synth.result import DoesNotFit, SynthError, SynthResult
from aeskit.synth.settings import (CLOCK_PORT, FREQ_TARGET_MHZ, Progress, flow_version, note,
                                   route_budget_min)
from aeskit.synth.shim import (SHIM_MODULE, TOP_MODULE, Port, ShimError, nexus_pdc,
                               parse_portlist, plan_shim, shim_file)
from aeskit.synth.toolrun import SynthTarget

__all__ = ["synthesize_shimmed", "top_ports"]

#: the generated top's pin buffers (Nexus IB/OB), not counted as the design's cells
_PIN_CELLS = ("IB", "OB", "BB", "SB_IO")
_CLOCK_NET_RE = re.compile(r"(?:^|\.)" + re.escape(CLOCK_PORT) + r"(?:\$|$)")


def _family_ff(cells: Mapping[str, int], family: str) -> int:
    prefix = FAMILY[family].ff_cells
    return sum(n for c, n in cells.items() if c.startswith(prefix))


def _shim_sites(cells: Mapping[str, int], family: str) -> dict[str, int]:
    """Sites the shim's cells take: iCE40 one LC per LUT and per flip-flop (no LUT of
    the shim drives one of its flip-flops, so the packer pairs none), Nexus its LUT4
    sites and flip-flops."""
    if family == "iCE40":
        return {"ICESTORM_LC": cells.get("SB_LUT4", 0) + _family_ff(cells, family)}
    n = needs_of(cells, family)
    return {"OXIDE_COMB": n["OXIDE_COMB"], "OXIDE_FF": n["OXIDE_FF"]}


def _module_cells(stat: Mapping[str, Any], module: str) -> dict[str, int]:
    mods = stat.get("modules", {})
    data = mods.get("\\" + module, mods.get(module, {}))
    return {k: int(v) for k, v in data.get("num_cells_by_type", {}).items()
            if not k.startswith("$scopeinfo")}


def _family_fields(cells: Mapping[str, int], family: str) -> dict[str, int]:
    """lut4/ff/ebr/dsp of a design's Yosys cells (the figures of a misfit)."""
    needs = needs_of(cells, family)
    fam = FAMILY[family]
    return {"lut4": needs[fam.logic_bel], "lut4_synth": needs[fam.logic_bel],
            "ff": _family_ff(cells, family), "ebr": needs[fam.ram_bel],
            "dsp": needs[fam.dsp_bel]}


def _family_clock(clocks: Mapping[str, float]) -> str | None:
    """The name nextpnr gives the clk_i net after global promotion
    (``clk_i$SB_IO_IN_$glb_clk`` on iCE40, ``u_dut.clk_i$glb_clk`` on Nexus)."""
    if CLOCK_PORT in clocks:
        return CLOCK_PORT
    for name in clocks:
        if _CLOCK_NET_RE.search(name):
            return name
    return None


def _portlist(core: SynthTarget, out_dir: Path,
              progress: Progress | None) -> tuple[list[Port], list[str], float]:
    """The top's ports as Yosys elaborates them (``portlist``; ``ports.txt``,
    ``ports.ys`` and ``yosys_ports.log`` in ``out_dir``), the command and its time."""
    out_dir.mkdir(parents=True, exist_ok=True)
    note(progress, f"yosys portlist {core.name} ({core.top})")
    cmd, secs = toolrun.run_yosys(
        f"{toolrun.read_slang_command(core, out_dir)}\ntee -q -o ports.txt portlist\n",
        out_dir / "ports.ys", out_dir / "yosys_ports.log", cwd=out_dir,
        what=f"yosys portlist of {core.name}")
    try:
        return parse_portlist((out_dir / "ports.txt").read_text()), cmd, secs
    except (ShimError, OSError) as e:
        raise SynthError(f"{core.name}: {e}", out_dir / "yosys_ports.log") from e


def top_ports(core: SynthTarget, out_dir: Path,
              progress: Progress | None = None) -> list[Port]:
    """The ports of ``core``'s top, from Yosys's elaboration of its sources (seconds;
    no synthesis), working in ``out_dir``."""
    return _portlist(core, out_dir, progress)[0]


def synthesize_shimmed(core: SynthTarget, dev: Device, out_dir: Path, seed: int,
                        source_hash: str, versions: Mapping[str, str],
                        progress: Progress | None) -> SynthResult:
    """:func:`synthesize` for a family without an out-of-context mode: the design in
    the generated :mod:`aeskit.synth.shim` top (Yosys ``portlist``, then the family's
    synth script, nextpnr on the four-pin top, the gate count)."""
    family = dev.family
    fam = FAMILY[family]
    synth_cmd, tool = fam.synth, fam.nextpnr
    for name in ("synth.json", "netlist.json", "yosys_stat.json", "report.json",
                 "nextpnr.log", "gates_stat.json", "gates_ltp.txt", "ports.txt"):
        (out_dir / name).unlink(missing_ok=True)
    common: dict[str, Any] = dict(
        core=core.name, top=core.top, parameters=dict(core.parameters),
        source_hash=source_hash, flow_version=flow_version(family), seed=seed,
        device=dev.name, package=dev.package, speed_grade=dev.speed_grade,
        freq_target_mhz=FREQ_TARGET_MHZ, tool_versions=dict(versions), out_dir=out_dir)
    commands: dict[str, list[str]] = {}
    times: dict[str, float] = {}
    files = {"result": "synth.json", "ports_script": "ports.ys", "ports_log": "yosys_ports.log",
             "shim_top": "shim/ak_ooc_top.sv", "yosys_script": f"{synth_cmd}.ys",
             "yosys_log": f"yosys_{family.lower()}.log", "yosys_stat": "yosys_stat.json",
             "netlist": "netlist.json"}

    # 1a. the design's ports -> the shim top
    ports, commands["yosys_ports"], times["yosys_ports"] = _portlist(core, out_dir, progress)
    try:
        plan = plan_shim(core.top, ports, CLOCK_PORT)
    except ShimError as e:
        raise SynthError(f"{core.name}: {e}", out_dir / "yosys_ports.log") from e
    shim_dir = out_dir / "shim"
    shim_dir.mkdir(exist_ok=True)
    shutil.copyfile(shim_file(), shim_dir / shim_file().name)
    (shim_dir / "ak_ooc_top.sv").write_text(plan.text)
    if family == "Nexus":
        (out_dir / "io.pdc").write_text(nexus_pdc(plan.has_clock, CLOCK_PORT))
        files["pdc"] = "io.pdc"
    shim_params = " ".join(f"-G {k}={v}" for k, v in plan.parameters().items())

    # 1b. Yosys: the design read exactly as for ECP5, the shim, the top
    note(progress, f"yosys {synth_cmd} {core.name} ({core.top}) in the I/O shim "
                    f"({plan.in_bits} in, {plan.out_bits} out)")
    script = "\n".join([
        toolrun.read_slang_command(core, out_dir),
        f"read_slang -j 1 {shim_params} --top {SHIM_MODULE} shim/{shim_file().name}",
        f"read_slang -j 1 --top {TOP_MODULE} shim/ak_ooc_top.sv",
        f"hierarchy -top {TOP_MODULE}",
        f"setattr -mod -set keep_hierarchy 1 {SHIM_MODULE}",
        *fam.pre_synth,
        f"{synth_cmd} -top {TOP_MODULE} -json netlist.json",
        "tee -q -o yosys_stat.json stat -json",
        "",
    ])
    commands["yosys"], times["yosys"] = toolrun.run_yosys(
        script, out_dir / files["yosys_script"], out_dir / files["yosys_log"], cwd=out_dir,
        what=f"yosys {synth_cmd} of {core.name}")
    stat = json.loads((out_dir / "yosys_stat.json").read_text())
    total = toolrun.stat_cells(out_dir / "yosys_stat.json")
    shim_cells = _module_cells(stat, SHIM_MODULE)
    cells = {k: v - shim_cells.get(k, 0) for k, v in total.items()
             if k != SHIM_MODULE and k not in _PIN_CELLS}
    cells = {k: v for k, v in sorted(cells.items()) if v > 0}
    shim_sites = _shim_sites(shim_cells, family)
    common["io_shim"] = {**plan.to_json(), "cells": dict(sorted(shim_cells.items())),
                         "sites": shim_sites}
    if fam.netlist_fixup is not None:  # Nexus: CCU2 carry-ins tied to VLO
        unlinked = fam.netlist_fixup(out_dir / "netlist.json")
        if unlinked:
            note(progress, f"{unlinked} CCU2 carry-in(s) tied to VLO left unconnected "
                            f"(Yosys issue 4081)")
        common["io_shim"]["ccu2_cin_unlinked"] = unlinked

    def misfit_result(misfit: Misfit, extra_files: dict[str, str]) -> SynthResult:
        return SynthResult(
            **common, **_family_fields(cells, family), fmax_mhz=None, clocks={}, ge=None,
            depth=None, gate_cells={}, ecp5_cells=cells, utilization={},
            times_s={k: round(v, 2) for k, v in times.items()}, commands=commands,
            files={**files, **extra_files}, fits=False, misfit=misfit.to_json())

    misfit = check_fit(cells, dev)
    if misfit is not None:
        result = misfit_result(misfit, {})
        stored.write_result(result)
        raise DoesNotFit(result)

    # 2. nextpnr on the shim top
    router, placer = router_placer(core, fam.router)
    speed = f" -{dev.speed_grade}" if dev.speed_grade is not None else ""
    note(progress, f"{tool} {core.name} ({dev.name} {dev.package}{speed}, seed {seed}, "
                    f"target {FREQ_TARGET_MHZ:g} MHz)")
    where = ["--package", dev.package] if fam.package_flag else ["--pdc", "io.pdc"]
    commands["nextpnr"] = nextpnr_command(
        dev, top=TOP_MODULE, seed=seed, freq_mhz=FREQ_TARGET_MHZ, log_name="nextpnr.log",
        place=where, router=router, placer=placer)
    try:
        times["nextpnr"] = place_and_route(
            commands["nextpnr"], dev, out_dir, what=f"{tool} of {core.name}",
            budget_min=route_budget_min(), router_label=router or "nextpnr's default router",
            tool_label=tool_label(tool, versions))
    except NotPlaced as err:
        if err.seconds is not None:
            times["nextpnr"] = err.seconds
        misfit = err.misfit
        shim_part = ", ".join(f"{n} {r}" for r, n in shim_sites.items() if r in misfit.over)
        if shim_part:
            misfit = dataclasses.replace(
                misfit, detail=f"{misfit.summary()} (of which the I/O shim takes {shim_part})")
        else:
            note(progress, misfit.message(core.name))
        result = misfit_result(misfit, {"nextpnr_log": "nextpnr.log"})
        stored.write_result(result)
        raise DoesNotFit(result, err.log_path) from err
    report = json.loads((out_dir / "report.json").read_text())
    used = {k: int(v.get("used", 0)) for k, v in report.get("utilization", {}).items()}
    clocks = {k: float(v["achieved"]) for k, v in report.get("fmax", {}).items()}
    clock_net = _family_clock(clocks)
    crit: dict[str, Any] | None = None
    levels: float | None = None
    try:
        netlist = json.loads((out_dir / "netlist.json").read_text())
        if clock_net is not None:
            crit = critical_path(report, netlist, TOP_MODULE, out_dir, clock_net,
                                 fam.packed_suffixes, exact_clock=True)
        levels = lut_levels(netlist, TOP_MODULE, family)
        del netlist
    except (KeyError, ValueError, TypeError, IndexError):
        crit, levels = None, None  # informational: never fails the flow

    # 3. generic gate count (family-independent: the design alone)
    gc, commands["gates"], times["gates"] = run_gate_count(core, out_dir, progress)

    logic, ff_bel, ram, dsp = fam.logic_bel, fam.ff_bel, fam.ram_bel, fam.dsp_bel
    result = SynthResult(
        **common,
        lut4=used.get(logic, 0) - shim_sites.get(logic, 0),
        lut4_synth=needs_of(cells, family)[logic],
        ff=(used.get(ff_bel, 0) - shim_sites.get(ff_bel, 0) if ff_bel is not None
            else _family_ff(cells, family)),
        ebr=used.get(ram, 0),
        dsp=used.get(dsp, 0),
        fmax_mhz=clocks[clock_net] if clock_net is not None else None,
        clocks=clocks,
        ge=gc.ge, depth=gc.depth, gate_cells=gc.cells,
        ecp5_cells=cells,
        utilization={k: v for k, v in sorted(used.items()) if v},
        times_s={k: round(v, 2) for k, v in times.items()},
        commands=commands,
        files={**files, **PNR_FILES, **GATES_FILES},
        critical_path=crit,
        lut_levels=levels,
    )
    stored.write_result(result)
    return result
