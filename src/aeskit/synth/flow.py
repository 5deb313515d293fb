"""Synthesis flow: Yosys ``synth_ecp5`` + nextpnr-ecp5 out of context, and a
generic gate count. ``docs/synthesis.md`` explains every setting.

Three tool runs per design, all into one output folder:

1. ``yosys -s synth_ecp5.ys``: ``read_slang`` + ``synth_ecp5`` -> ``netlist.json``
   (log ``yosys_ecp5.log``, cell counts ``yosys_stat.json``);
1b. :mod:`aeskit.synth.outreg` moves the flip-flops that register a block-RAM
   read (no reset) into the DP16KD's output register (``REGMODE = "OUTREG"``);
   a design that names EBR rows (``ram_rows``) gets its block RAMs pinned to them
   in name order (:mod:`aeskit.synth.floorplan`);
2. ``nextpnr-ecp5`` on ``netlist.json``, out of context on an ECP5 device (the
   LFE5U-85F unless ``device=`` says otherwise) -> ``report.json`` (utilisation,
   Fmax; log ``nextpnr.log``), unless Yosys's cell counts already exceed the
   device (:func:`aeskit.synth.fit.check_fit`): then :class:`DoesNotFit`;
3. ``yosys -s gates.ys``: ``read_slang`` + ``synth -flatten`` + ``abc -g`` onto a
   fixed gate library -> gate counts ``gates_stat.json`` and the longest path
   ``gates_ltp.txt`` (log ``yosys_gates.log``).

A seed k > 1 (a ``<name>~seed<k>`` folder of :func:`synth_dir`) whose design was
synthesized here for another seed takes that folder's netlist (already through 1b)
and gate count and runs only step 2 (:func:`_seed_donor`).

iCE40 and Nexus (``device=`` one of those families): nextpnr-ice40 / nextpnr-nexus
have no out-of-context mode, so the design is placed inside the generated four-pin top
of :mod:`aeskit.synth.shim` (``ak_io_shim``: a shift register drives the inputs, an XOR
observes the outputs; its cells are subtracted), with ``synth_ice40`` /
``synth_nexus``; see :func:`_synthesize_shimmed` and docs/synthesis.md.

The result is :class:`SynthResult`, written to ``synth.json``. It is reused while the
design's ``source_hash()``, :data:`FLOW_VERSION`, the device, the seed and the tool
versions are unchanged. A design that does not fit the device is a result too
(``fits: false`` in ``synth.json``, cached the same way); :func:`synthesize` raises
:class:`DoesNotFit` for it, carrying the Yosys figures.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.sources import source_hash
from aeskit.synth import stored, toolrun
from aeskit.synth.critical import critical_path, lut_levels
from aeskit.synth.devices import Device, get_device
from aeskit.synth.fit import Misfit, check_fit, needs_of
from aeskit.synth.floorplan import FLOORPLAN_DEVICE, pin_in_file
from aeskit.synth.gatecount import GATES_FILES, gate_count, run_gate_count
from aeskit.synth.outreg import absorb_in_file
from aeskit.synth.pnr import (PNR_FILES, NotPlaced, nextpnr_command, place_and_route,
                              router_placer, tool_label)
from aeskit.synth.result import DoesNotFit, GateCount, SynthError, SynthResult, ToolTimeout
from aeskit.synth.settings import (CLOCK_PORT, DEVICE, FLOW_BASE, FLOW_VERSION,
                                   FREQ_TARGET_MHZ, PACKAGE, PLACERS, ROUTE_BUDGET_MIN,
                                   SPEED_GRADE, Progress, flow_version, note,
                                   route_budget_min, router_for)
from aeskit.synth.shimmed import synthesize_shimmed, top_ports
from aeskit.synth.toolrun import (SynthTarget, read_slang_command, stage_sources,
                                  tool_versions, yosys_check)

__all__ = [
    "CLOCK_PORT",
    "DEVICE",
    "FLOW_BASE",
    "FLOW_VERSION",
    "FREQ_TARGET_MHZ",
    "PACKAGE",
    "PLACERS",
    "flow_version",
    "router_for",
    "ROUTE_BUDGET_MIN",
    "SPEED_GRADE",
    "Design",
    "DoesNotFit",
    "GateCount",
    "SynthError",
    "SynthResult",
    "ToolTimeout",
    "route_budget_min",
    "SynthTarget",
    "gate_count",
    "read_slang_command",
    "top_ports",
    "stage_sources",
    "synth_dir",
    "synthesize",
    "tool_versions",
    "yosys_area",
    "yosys_check",
]

# --------------------------------------------------------------------------------
# What can be synthesized
# --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Design:
    """Any top module and its files (a primitive, a wrapper, a test fixture).

    ``files`` are in compile order (packages first); ``parameters`` override the
    top module's parameters. The hash also covers the files in ``include_dirs``.
    """

    name: str
    top: str
    files: tuple[Path, ...]
    include_dirs: tuple[Path, ...] = ()
    parameters: dict[str, Any] = field(default_factory=dict)
    #: nextpnr router for this design instead of :func:`router_for`'s rule (part of
    #: the design's hash): for a design the rule's router does not route in time
    router: str | None = None
    #: nextpnr placer instead of nextpnr's default ``heap`` (one of :data:`PLACERS`;
    #: part of the design's hash when set)
    placer: str | None = None
    #: EBR rows (LFE5U-85F Y) to pin the block RAMs to, in name order
    #: (:mod:`aeskit.synth.floorplan`; part of the design's hash when set)
    ram_rows: tuple[int, ...] | None = None

    def file_paths(self) -> list[Path]:
        return [Path(f) for f in self.files]

    def include_paths(self) -> list[Path]:
        return [Path(d) for d in self.include_dirs]

    def source_hash(self) -> str:
        return source_hash(self)


# --------------------------------------------------------------------------------
# Yosys scripts
# --------------------------------------------------------------------------------
def _ecp5_script(core: SynthTarget, cwd: Path) -> str:
    return "\n".join([
        toolrun.read_slang_command(core, cwd),
        f"synth_ecp5 -top {core.top} -json netlist.json",
        "tee -q -o yosys_stat.json stat -json",
        "",
    ])


def synth_dir(name: str, device: str = DEVICE, root: Path | None = None,
              seed: int = 1) -> Path:
    """The output folder of design ``name`` on ``device`` placed with ``seed``:
    ``<root>/<name>`` for the default device and seed 1 (as before devices and seeds
    were a choice), ``<root>/<name>@<device>`` for another device, ``~seed<k>``
    appended for another seed, so that no two results overwrite each other.
    ``root`` defaults to ``build/synth``."""
    base = root if root is not None else BUILD_ROOT / "synth"
    folder = name if device == DEVICE else f"{name}@{device}"
    return base / (folder if seed == 1 else f"{folder}~seed{seed}")


def _load_cached(out_dir: Path, source_hash: str, seed: int,
                 versions: Mapping[str, str], device: str = DEVICE) -> SynthResult | None:
    """The result in ``out_dir`` if it is current (:func:`aeskit.synth.stored.current`:
    the same sources, flow version, seed, tool versions and device). A stored
    Yosys-stage misfit is only reused while the device table still rejects its cell
    counts the same way."""
    data = stored.current(out_dir, stored.parts_of(
        source_hash, flow_version(get_device(device).family), seed, device, versions))
    if data is None:
        return None
    try:
        result = SynthResult.from_json(data, out_dir)
        if not result.fits and not _misfit_still_holds(result, device):
            return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    result.cached = True
    return result


def _misfit_still_holds(result: SynthResult, device: str) -> bool:
    if result.misfit is None:
        return False
    stored = Misfit.from_json(result.misfit)
    if stored.device != device:
        return False
    if stored.stage != "yosys":
        return True  # nextpnr's verdict: same netlist, tools, seed and device
    return check_fit(result.ecp5_cells, device) == stored


#: the files of the Yosys stages a placement with another seed takes from another
#: seed's folder (:func:`_seed_donor`): the same sources give the same netlist and
#: gate count
_DONATED = ("synth_ecp5.ys", "yosys_ecp5.log", "yosys_stat.json", "netlist.json",
            "gates.ys", "yosys_gates.log", "gates_stat.json", "gates_ltp.txt")


def _seed_donor(out_dir: Path, seed: int, common: Mapping[str, Any]) -> dict[str, Any] | None:
    """For a seed other than 1: the ``synth.json`` of another seed's folder of the same
    design (the seed-1 folder, ``out_dir`` without its ``~seed<k>`` (:func:`synth_dir`),
    first, then the other ``~seed<j>`` folders) made here from the same sources,
    parameters, flow, device and tools, placed (it fits), and still holding its
    netlist and gate-count files. Those files are copied into ``out_dir`` and the
    netlist (block-RAM output registers absorbed, RAMs pinned) is placed again with
    ``seed``, instead of synthesizing the same netlist again. None when there is no
    such folder (e.g. a folder restored from the results store has no netlist)."""
    base, sep, tail = out_dir.name.rpartition("~seed")
    if seed == 1 or not sep or tail != str(seed):
        return None
    others = sorted(p for p in out_dir.parent.glob(f"{base}~seed*") if p != out_dir)
    for donor in (out_dir.parent / base, *others):
        try:
            data = json.loads((donor / "synth.json").read_text())
        except (OSError, ValueError):
            continue
        same = all(data.get(k) == common[k] for k in (
            "core", "top", "parameters", "source_hash", "flow_version", "device",
            "tool_versions"))
        if same and data.get("fits") and all((donor / f).is_file() for f in _DONATED):
            for f in _DONATED:
                shutil.copyfile(donor / f, out_dir / f)
            return {**data, "out_dir": donor}
    return None


_YOSYS_FILES = {
    "result": "synth.json",
    "yosys_script": "synth_ecp5.ys",
    "yosys_log": "yosys_ecp5.log",
    "yosys_stat": "yosys_stat.json",
    "netlist": "netlist.json",
}


def _misfit_result(common: Mapping[str, Any], ecp5_cells: dict[str, int], misfit: Misfit,
                   commands: dict[str, list[str]], times: Mapping[str, float],
                   files: dict[str, str]) -> SynthResult:
    """The result of a design that does not fit: the Yosys figures, no Fmax or GE."""
    needs = needs_of(ecp5_cells)
    return SynthResult(
        **common,
        lut4=needs["LUT4"], lut4_synth=needs["LUT4"], ff=needs["FF"], ebr=needs["DP16KD"],
        dsp=needs["MULT18X18D"], fmax_mhz=None, clocks={}, ge=None, depth=None,
        gate_cells={}, ecp5_cells=ecp5_cells, utilization={},
        times_s={k: round(v, 2) for k, v in times.items()}, commands=commands,
        files=files, fits=False, misfit=misfit.to_json())


def _nextpnr_command(core: SynthTarget, dev: Device, seed: int, router: str,
                     log_name: str, placer: str | None = None) -> list[str]:
    """The out-of-context nextpnr-ecp5 command line; ``--placer`` only for a design
    that names one (so every other design's command, and its cached result, stays as
    it was)."""
    return nextpnr_command(dev, top=core.top, seed=seed, freq_mhz=FREQ_TARGET_MHZ,
                           log_name=log_name, router=router, placer=placer,
                           place=["--package", PACKAGE, "--speed", str(SPEED_GRADE)])


def synthesize(core: SynthTarget, out_dir: Path, *, seed: int = 1, device: str = DEVICE,
               progress: Progress | None = None, force: bool = False) -> SynthResult:
    """Synthesize, place and route ``core`` on ``device`` and count its gates; see the
    module doc.

    Returns the cached ``out_dir/synth.json`` when the design, the flow version, the
    device, the seed and the tool versions are unchanged (``force=True`` reruns).
    Raises :class:`DoesNotFit` (a :class:`SynthError`) when the design needs more
    LUT4, FF, DP16KD or MULT18X18D than ``device`` has, by Yosys's count (nextpnr is
    not run) or by nextpnr's placement; that outcome is cached too. An unknown
    ``device`` raises :class:`aeskit.synth.devices.UnknownDeviceError`.
    """
    dev = get_device(device)
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    source_hash = toolrun.checked_hash(core)
    versions = tool_versions(dev.family)
    if not force:
        hit = _load_cached(out_dir, source_hash, seed, versions, dev.name)
        if hit is not None:
            stored.save(hit, measured_now=False)
        elif stored.restore(out_dir, stored.parts_of(source_hash, flow_version(dev.family),
                                                     seed, dev.name, versions)):
            hit = _load_cached(out_dir, source_hash, seed, versions, dev.name)
        if hit is not None:
            note(progress, f"cached {core.name}: {out_dir / 'synth.json'}")
            if not hit.fits:
                raise DoesNotFit(hit)
            return hit

    if dev.family != "ECP5":
        return synthesize_shimmed(core, dev, out_dir, seed, source_hash, versions, progress)

    # a rerun that stops early (the design does not fit) leaves no stale later outputs
    for name in ("synth.json", "netlist.json", "yosys_stat.json", "report.json",
                 "nextpnr.log", "gates_stat.json", "gates_ltp.txt"):
        (out_dir / name).unlink(missing_ok=True)
    common: dict[str, Any] = dict(
        core=core.name, top=core.top, parameters=dict(core.parameters),
        source_hash=source_hash, flow_version=FLOW_VERSION, seed=seed,
        device=dev.name, package=PACKAGE, speed_grade=SPEED_GRADE,
        freq_target_mhz=FREQ_TARGET_MHZ, tool_versions=dict(versions), out_dir=out_dir)
    commands: dict[str, list[str]] = {}
    times: dict[str, float] = {}

    # 1. Yosys synth_ecp5 (another seed of a design synthesized here: its netlist)
    donor = _seed_donor(out_dir, seed, common)
    if donor is not None:
        note(progress, f"netlist and gate count of seed {donor['seed']} "
                        f"({donor['out_dir']}), placed with seed {seed}")
        commands["yosys"] = donor["commands"]["yosys"]
        ecp5_cells = {k: int(v) for k, v in donor["ecp5_cells"].items()}
        common["outreg"] = donor.get("outreg") or {}
        if donor.get("floorplan") is not None:
            common["floorplan"] = donor["floorplan"]
    else:
        note(progress, f"yosys synth_ecp5 {core.name} ({core.top})")
        commands["yosys"], times["yosys"] = toolrun.run_yosys(
            _ecp5_script(core, out_dir), out_dir / "synth_ecp5.ys",
            out_dir / "yosys_ecp5.log", cwd=out_dir, what=f"yosys synth_ecp5 of {core.name}")
        ecp5_cells = toolrun.stat_cells(out_dir / "yosys_stat.json")
        outreg = absorb_in_file(out_dir / "netlist.json", core.top)
        if outreg.ports:
            note(progress, f"{len(outreg.ports)} block-RAM read port(s) take their output "
                            f"register ({outreg.flip_flops} flip-flops moved in)")
        common["outreg"] = outreg.to_json()
        ram_rows = getattr(core, "ram_rows", None)
        if ram_rows and dev.name == FLOORPLAN_DEVICE:
            plan = pin_in_file(out_dir / "netlist.json", core.top, tuple(ram_rows))
            note(progress, f"{len(plan.pins)} block RAM(s) pinned to EBR rows "
                            f"{', '.join(str(r) for r in plan.rows)} in name order")
            common["floorplan"] = plan.to_json()
    misfit = check_fit(ecp5_cells, dev)
    if misfit is not None:
        result = _misfit_result(common, ecp5_cells, misfit, commands, times, dict(_YOSYS_FILES))
        stored.write_result(result)
        raise DoesNotFit(result)

    # 2. nextpnr-ecp5, out of context
    router, placer = router_placer(core, router_for(ecp5_cells.get("DP16KD", 0)))
    assert router is not None
    note(progress, f"nextpnr-ecp5 {core.name} ({dev.name} {PACKAGE} -{SPEED_GRADE}, "
                    f"seed {seed}, target {FREQ_TARGET_MHZ:g} MHz, {router}"
                    f"{', placer ' + placer if placer else ''})")
    commands["nextpnr"] = _nextpnr_command(core, dev, seed, router, "nextpnr.log", placer)
    try:
        times["nextpnr"] = place_and_route(
            commands["nextpnr"], dev, out_dir, what=f"nextpnr-ecp5 of {core.name}",
            budget_min=route_budget_min(), router_label=router,
            tool_label=tool_label("nextpnr-ecp5", versions))
    except NotPlaced as err:
        if err.seconds is not None:
            times["nextpnr"] = err.seconds
        result = _misfit_result(common, ecp5_cells, err.misfit, commands, times,
                                {**_YOSYS_FILES, "nextpnr_log": "nextpnr.log"})
        stored.write_result(result)
        raise DoesNotFit(result, err.log_path) from err
    report = json.loads((out_dir / "report.json").read_text())
    netlist = json.loads((out_dir / "netlist.json").read_text())
    crit = critical_path(report, netlist, core.top, out_dir, CLOCK_PORT)
    levels = lut_levels(netlist, core.top)
    del netlist
    used = {k: int(v.get("used", 0)) for k, v in report.get("utilization", {}).items()}
    clocks = {k: float(v["achieved"]) for k, v in report.get("fmax", {}).items()}

    # 3. generic gate count (the other seed's, when its netlist was taken)
    if donor is not None:
        gc = GateCount(ge=float(donor["ge"]), cells=dict(donor["gate_cells"]),
                       depth=int(donor["depth"]))
        commands["gates"] = donor["commands"]["gates"]
    else:
        gc, commands["gates"], times["gates"] = run_gate_count(core, out_dir, progress)

    result = SynthResult(
        **common,
        lut4=used.get("TRELLIS_COMB", 0),
        lut4_synth=needs_of(ecp5_cells)["LUT4"],
        ff=used.get("TRELLIS_FF", 0),
        ebr=used.get("DP16KD", 0),
        dsp=used.get("MULT18X18D", 0),
        fmax_mhz=_clock_fmax(clocks),
        clocks=clocks,
        ge=gc.ge, depth=gc.depth, gate_cells=gc.cells,
        ecp5_cells=ecp5_cells,
        utilization={k: v for k, v in sorted(used.items()) if v},
        times_s={k: round(v, 2) for k, v in times.items()},
        commands=commands,
        files={**_YOSYS_FILES, **PNR_FILES, **GATES_FILES},
        critical_path=crit,
        lut_levels=levels,
    )
    stored.write_result(result)
    return result


def _clock_fmax(clocks: Mapping[str, float]) -> float | None:
    """Fmax of the clk_i net. Out of context the net keeps the port's name; with
    global promotion nextpnr would call it ``$glbnet$clk_i``."""
    if CLOCK_PORT in clocks:
        return clocks[CLOCK_PORT]
    for name, f in clocks.items():
        if name.endswith("$" + CLOCK_PORT):
            return f
    return None


def yosys_area(core: SynthTarget, out_dir: Path) -> dict[str, int]:
    """Area of ``core`` by Yosys alone (``synth_ecp5``, the flow's first stage; no
    placement): ``{"LUT4", "FF", "DP16KD", "MULT18X18D"}`` sites as the fit check counts
    them (:func:`aeskit.synth.fit.needs_of`: a carry cell or a distributed-RAM block is
    two LUT4). For comparing builds of one design (a mode left out) where placing each
    would cost minutes; nextpnr's LUT4 of a placed design differs by packing. Not
    cached here: the caller keys the result (:func:`aeskit.store.cached_file`)."""
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    toolrun.checked_hash(core)
    toolrun.run_yosys(_ecp5_script(core, out_dir), out_dir / "synth_ecp5.ys",
                      out_dir / "yosys_ecp5.log", cwd=out_dir,
                      what=f"yosys synth_ecp5 of {core.name}")
    return needs_of(toolrun.stat_cells(out_dir / "yosys_stat.json"))
