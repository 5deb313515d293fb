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

import dataclasses
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.sources import HDL_SUFFIXES, source_hash
from aeskit.synth import stored, toolrun
from aeskit.synth.critical import critical_path, lut_levels
from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES, Device, get_device
from aeskit.synth.family import FAMILY
from aeskit.synth.fit import Misfit, check_fit, needs_of
from aeskit.synth.floorplan import FLOORPLAN_DEVICE, pin_in_file
from aeskit.synth.gates import (ABC_GATES, FF_LEGALIZE, GE_WEIGHTS, UnweightedCellError,
                                ge_of, parse_ltp_depth)
from aeskit.synth.outreg import absorb_in_file
from aeskit.synth.pnr import ROUTERS, NotPlaced, nextpnr_command, place_and_route
from aeskit.synth.result import DoesNotFit, GateCount, SynthError, SynthResult, ToolTimeout
from aeskit.synth.shim import (NEXUS_PINS, SHIM_MODULE, TOP_MODULE, Port, ShimError,
                               nexus_pdc, parse_portlist, plan_shim, shim_file)
from aeskit.synth.toolrun import (SynthTarget, read_slang_command, stage_sources,
                                  tool_versions)

__all__ = [
    "CLOCK_PORT",
    "DEVICE",
    "FLOW_BASE",
    "FLOW_VERSION",
    "FREQ_TARGET_MHZ",
    "PACKAGE",
    "PLACERS",
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
    "yosys_check",
]

#: Bump whenever a script changes what the flow produces. The recorded flow
#: version also carries a digest of the settings below and of the gate library
#: (:func:`flow_version`), so changing one of those reruns cached results too.
FLOW_BASE = "aeskit-synth/2"  # 2: block-RAM output registers (aeskit.synth.outreg)

#: the default device (``synthesize(device=...)`` and ``--device`` choose another of
#: :data:`aeskit.synth.devices.DEVICES`)
DEVICE = DEFAULT_DEVICE
PACKAGE = "CABGA381"
SPEED_GRADE = 6
#: nextpnr --freq, the same for every design. For a single-clock design the placed
#: and routed result does not depend on it (checked; see docs/synthesis.md).
FREQ_TARGET_MHZ = 200.0

#: minutes nextpnr may take before a design counts as "does not route" (a result, like
#: a design that does not fit, not a failure of the job); AESKIT_ROUTE_BUDGET_MIN
#: overrides it. The longest converging run in results/ took 18 minutes
#: (tbox_unfolded_pp, router2, 1,088 s), the unrolled T-table cores 4-11 minutes;
#: router2 on a congested design runs for ever, and a budget of an hour made a fresh
#: report of the designs that never route take hours (issue 17: minutes).
ROUTE_BUDGET_MIN = 30.0


def route_budget_min() -> float:
    """The route budget in minutes (:data:`ROUTE_BUDGET_MIN` or the environment's)."""
    raw = os.environ.get("AESKIT_ROUTE_BUDGET_MIN", "").strip()
    if not raw:
        return ROUTE_BUDGET_MIN
    try:
        value = float(raw)
    except ValueError:
        raise SynthError(
            f"AESKIT_ROUTE_BUDGET_MIN must be a number of minutes, got {raw!r}") from None
    if value <= 0:
        raise SynthError(f"AESKIT_ROUTE_BUDGET_MIN must be positive, got {raw!r}")
    return value


#: nextpnr router: router1 (nextpnr's default, the better Fmax: 71 against 55 MHz on
#: tbox_folded, 94 against 73 on ttable_col) unless the netlist uses more than
#: ROUTER2_MIN_EBR block RAMs: the unfolded cores (152-160 of 208 EBR) leave router1
#: congested after an hour, router2 routes them. The rule depends on the design only.
ROUTER2_MIN_EBR = 100


#: nextpnr placers a design may name (``Design.placer``, ``CoreSpec.placer``,
#: ``SystemSpec.placer``); without one nextpnr's default, HeAP, places. HeAP packs a
#: design into about a fifth of the LFE5U-85F at ~83 % LUT density; on the
#: co-processor router2 never resolved the congestion that leaves (2,128 overused wires
#: at iteration 8, 1,537 at 91; --placer-heap-beta 0.5 and 0.35 give the identical
#: placement), while the electrostatic placer ``static`` spreads it and router2
#: finishes in 84 iterations (3 min 50 s in all).
PLACERS = ("heap", "sa", "static")


def router_for(ebr: int) -> str:
    """The nextpnr router the flow uses for a netlist with ``ebr`` DP16KD."""
    return "router2" if ebr > ROUTER2_MIN_EBR else "router1"


#: the clock port of the core contract; its net's achieved Fmax is the result
CLOCK_PORT = "clk_i"

Progress = Callable[[str], None]


#: the flow of the families without an out-of-context mode (iCE40, Nexus): bump when
#: its scripts, the generated shim top or the netlist fix-ups change what it produces
#: (2: Nexus CCU2 carry-ins tied to VLO unlinked)
SHIM_FLOW = "shim/2"


def flow_version(family: str = "ECP5") -> str:
    """``FLOW_BASE`` plus a digest of every setting that shapes the results of
    ``family``'s devices.

    ECP5: the digest names the default device, as it did before the device became a
    parameter, so the default device's cached results stay valid; the device of a
    result is its own cache key field (``device``). iCE40 and Nexus: the digest
    covers the family's devices (switch, package, speed grade), the shim flow
    (:data:`SHIM_FLOW`, the shim's RTL and the Nexus pins) and the shared settings."""
    if family == "ECP5":
        settings = repr((DEVICE, PACKAGE, SPEED_GRADE, FREQ_TARGET_MHZ, "router1",
                         "router2", ROUTER2_MIN_EBR, CLOCK_PORT,
                         ABC_GATES, FF_LEGALIZE, sorted(GE_WEIGHTS.items())))
    else:
        devices = [(d.name, d.nextpnr_flag, d.package, d.speed_grade)
                   for d in DEVICES.values() if d.family == family]
        if not devices:
            raise ValueError(f"unknown device family {family!r}")
        settings = repr((family, devices, SHIM_FLOW, _shim_digest(), sorted(NEXUS_PINS.items()),
                         FAMILY[family].pre_synth, FREQ_TARGET_MHZ, CLOCK_PORT,
                         ABC_GATES, FF_LEGALIZE, sorted(GE_WEIGHTS.items()),
                         *((("router", FAMILY[family].router),)
                           if FAMILY[family].router is not None else ())))
    return f"{FLOW_BASE}+{hashlib.sha256(settings.encode()).hexdigest()[:8]}"


@functools.lru_cache(maxsize=None)
def _shim_digest() -> str:
    try:
        return hashlib.sha256(shim_file().read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


FLOW_VERSION = flow_version()


# --------------------------------------------------------------------------------
# What can be synthesized
# --------------------------------------------------------------------------------
#: files of an include folder that are hashed and copied
_HDL_SUFFIXES = HDL_SUFFIXES


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


def _gates_script(core: SynthTarget, cwd: Path) -> str:
    legal = " ".join(f"-cell {c} 01" for c in FF_LEGALIZE)
    return "\n".join([
        toolrun.read_slang_command(core, cwd),
        f"synth -flatten -top {core.top} -noabc",
        f"dfflegalize {legal}",
        f"abc -g {','.join(ABC_GATES)}",
        "opt_clean",
        "tee -q -o gates_stat.json stat -json",
        "tee -q -o gates_ltp.txt ltp -noff",
        "",
    ])


def _check_script(core: SynthTarget, cwd: Path) -> str:
    return "\n".join([
        toolrun.read_slang_command(core, cwd),
        f"hierarchy -check -top {core.top}",
        "proc",
        "check -assert",
        "",
    ])


def _checked_hash(core: SynthTarget) -> str:
    missing = [str(p) for p in core.file_paths() if not Path(p).is_file()]
    if missing:
        raise SynthError(f"{core.name}: source file(s) missing: {', '.join(missing)}")
    return core.source_hash()


def _note(progress: Progress | None, msg: str) -> None:
    if progress is not None:
        progress(msg)


# --------------------------------------------------------------------------------
# Public flow steps
# --------------------------------------------------------------------------------
def yosys_check(core: SynthTarget, *, log_path: Path | None = None) -> None:
    """Elaborate ``core`` and run ``check -assert`` (multiple drivers, logic loops,
    undriven nets ...). Raises :class:`SynthError` with the log tail on failure.

    The log goes to ``log_path`` if given, else to a temporary folder that is removed.
    """
    _checked_hash(core)
    with tempfile.TemporaryDirectory(prefix="aeskit-check-") as tmp:
        work = Path(tmp)
        log = work / "yosys_check.log"
        failure: SynthError | None = None
        try:
            toolrun.run_yosys(_check_script(core, work), work / "check.ys", log, cwd=work,
                       what=f"yosys check of {core.name}")
        except SynthError as e:
            failure = e
        kept = None
        if log_path is not None and log.is_file():
            kept = Path(log_path)
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(log.read_bytes())
    if failure is not None:
        raise SynthError(failure.message, kept, failure.tail) from failure


def gate_count(core: SynthTarget, out_dir: Path, *,
               progress: Progress | None = None) -> GateCount:
    """Generic gate count of ``core`` (files ``gates.ys``, ``yosys_gates.log``,
    ``gates_stat.json``, ``gates_ltp.txt`` in ``out_dir``)."""
    gc, _, _ = _gate_count(core, Path(out_dir).resolve(), progress)
    return gc


def _gate_count(core: SynthTarget, out_dir: Path, progress: Progress | None,
                ) -> tuple[GateCount, list[str], float]:
    out_dir.mkdir(parents=True, exist_ok=True)
    _checked_hash(core)
    for name in ("gates_stat.json", "gates_ltp.txt"):
        (out_dir / name).unlink(missing_ok=True)
    _note(progress, f"yosys gate count {core.name} ({core.top})")
    cmd, dt = toolrun.run_yosys(_gates_script(core, out_dir), out_dir / "gates.ys", out_dir / "yosys_gates.log",
                         cwd=out_dir, what=f"yosys gate count of {core.name}")
    cells = toolrun.stat_cells(out_dir / "gates_stat.json")
    try:
        ge = ge_of(cells)
        depth = parse_ltp_depth((out_dir / "gates_ltp.txt").read_text())
    except (UnweightedCellError, ValueError) as e:
        raise SynthError(f"gate count of {core.name}: {e}", out_dir / "yosys_gates.log") from e
    return GateCount(ge=ge, cells=cells, depth=depth), cmd, dt


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


def _write_result(result: SynthResult) -> None:
    """Write ``synth.json`` and record the result in the active results store."""
    stored.write(result)
    stored.save(result)


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
_PNR_FILES = {"nextpnr_log": "nextpnr.log", "report": "report.json"}
_GATES_FILES = {
    "gates_script": "gates.ys",
    "gates_log": "yosys_gates.log",
    "gates_stat": "gates_stat.json",
    "gates_ltp": "gates_ltp.txt",
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


def _router_placer(core: SynthTarget, default_router: str | None,
                   ) -> tuple[str | None, str | None]:
    """The design's own router and placer (``router``, ``placer``), else
    ``default_router`` and nextpnr's placer; an unknown one is refused."""
    router = getattr(core, "router", None) or default_router
    if router is not None and router not in ROUTERS:
        raise SynthError(f"{core.name}: unknown nextpnr router {router!r}")
    placer = getattr(core, "placer", None)
    if placer is not None and placer not in PLACERS:
        raise SynthError(f"{core.name}: unknown nextpnr placer {placer!r} "
                         f"(one of {', '.join(PLACERS)})")
    return router, placer


def _tool_label(tool: str, versions: Mapping[str, str]) -> str:
    """``nextpnr-nexus 0.11.1``: the tool and its version, for a verdict."""
    version = versions.get(tool, "").removeprefix("nextpnr-")
    return f"{tool} {version}".strip()


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
    source_hash = _checked_hash(core)
    versions = tool_versions(dev.family)
    if not force:
        hit = _load_cached(out_dir, source_hash, seed, versions, dev.name)
        if hit is not None:
            stored.save(hit, measured_now=False)
        elif stored.restore(out_dir, stored.parts_of(source_hash, flow_version(dev.family),
                                                     seed, dev.name, versions)):
            hit = _load_cached(out_dir, source_hash, seed, versions, dev.name)
        if hit is not None:
            _note(progress, f"cached {core.name}: {out_dir / 'synth.json'}")
            if not hit.fits:
                raise DoesNotFit(hit)
            return hit

    if dev.family != "ECP5":
        return _synthesize_shimmed(core, dev, out_dir, seed, source_hash, versions, progress)

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
        _note(progress, f"netlist and gate count of seed {donor['seed']} "
                        f"({donor['out_dir']}), placed with seed {seed}")
        commands["yosys"] = donor["commands"]["yosys"]
        ecp5_cells = {k: int(v) for k, v in donor["ecp5_cells"].items()}
        common["outreg"] = donor.get("outreg") or {}
        if donor.get("floorplan") is not None:
            common["floorplan"] = donor["floorplan"]
    else:
        _note(progress, f"yosys synth_ecp5 {core.name} ({core.top})")
        commands["yosys"], times["yosys"] = toolrun.run_yosys(
            _ecp5_script(core, out_dir), out_dir / "synth_ecp5.ys",
            out_dir / "yosys_ecp5.log", cwd=out_dir, what=f"yosys synth_ecp5 of {core.name}")
        ecp5_cells = toolrun.stat_cells(out_dir / "yosys_stat.json")
        outreg = absorb_in_file(out_dir / "netlist.json", core.top)
        if outreg.ports:
            _note(progress, f"{len(outreg.ports)} block-RAM read port(s) take their output "
                            f"register ({outreg.flip_flops} flip-flops moved in)")
        common["outreg"] = outreg.to_json()
        ram_rows = getattr(core, "ram_rows", None)
        if ram_rows and dev.name == FLOORPLAN_DEVICE:
            plan = pin_in_file(out_dir / "netlist.json", core.top, tuple(ram_rows))
            _note(progress, f"{len(plan.pins)} block RAM(s) pinned to EBR rows "
                            f"{', '.join(str(r) for r in plan.rows)} in name order")
            common["floorplan"] = plan.to_json()
    misfit = check_fit(ecp5_cells, dev)
    if misfit is not None:
        result = _misfit_result(common, ecp5_cells, misfit, commands, times, dict(_YOSYS_FILES))
        _write_result(result)
        raise DoesNotFit(result)

    # 2. nextpnr-ecp5, out of context
    router, placer = _router_placer(core, router_for(ecp5_cells.get("DP16KD", 0)))
    assert router is not None
    _note(progress, f"nextpnr-ecp5 {core.name} ({dev.name} {PACKAGE} -{SPEED_GRADE}, "
                    f"seed {seed}, target {FREQ_TARGET_MHZ:g} MHz, {router}"
                    f"{', placer ' + placer if placer else ''})")
    commands["nextpnr"] = _nextpnr_command(core, dev, seed, router, "nextpnr.log", placer)
    try:
        times["nextpnr"] = place_and_route(
            commands["nextpnr"], dev, out_dir, what=f"nextpnr-ecp5 of {core.name}",
            budget_min=route_budget_min(), router_label=router,
            tool_label=_tool_label("nextpnr-ecp5", versions))
    except NotPlaced as err:
        if err.seconds is not None:
            times["nextpnr"] = err.seconds
        result = _misfit_result(common, ecp5_cells, err.misfit, commands, times,
                                {**_YOSYS_FILES, "nextpnr_log": "nextpnr.log"})
        _write_result(result)
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
        gc, commands["gates"], times["gates"] = _gate_count(core, out_dir, progress)

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
        files={**_YOSYS_FILES, **_PNR_FILES, **_GATES_FILES},
        critical_path=crit,
        lut_levels=levels,
    )
    _write_result(result)
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



# --------------------------------------------------------------------------------
# iCE40 and Nexus: no out-of-context mode, the design inside the I/O shim top
# --------------------------------------------------------------------------------
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
    _note(progress, f"yosys portlist {core.name} ({core.top})")
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


def _synthesize_shimmed(core: SynthTarget, dev: Device, out_dir: Path, seed: int,
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
    _note(progress, f"yosys {synth_cmd} {core.name} ({core.top}) in the I/O shim "
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
            _note(progress, f"{unlinked} CCU2 carry-in(s) tied to VLO left unconnected "
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
        _write_result(result)
        raise DoesNotFit(result)

    # 2. nextpnr on the shim top
    router, placer = _router_placer(core, fam.router)
    speed = f" -{dev.speed_grade}" if dev.speed_grade is not None else ""
    _note(progress, f"{tool} {core.name} ({dev.name} {dev.package}{speed}, seed {seed}, "
                    f"target {FREQ_TARGET_MHZ:g} MHz)")
    where = ["--package", dev.package] if fam.package_flag else ["--pdc", "io.pdc"]
    commands["nextpnr"] = nextpnr_command(
        dev, top=TOP_MODULE, seed=seed, freq_mhz=FREQ_TARGET_MHZ, log_name="nextpnr.log",
        place=where, router=router, placer=placer)
    try:
        times["nextpnr"] = place_and_route(
            commands["nextpnr"], dev, out_dir, what=f"{tool} of {core.name}",
            budget_min=route_budget_min(), router_label=router or "nextpnr's default router",
            tool_label=_tool_label(tool, versions))
    except NotPlaced as err:
        if err.seconds is not None:
            times["nextpnr"] = err.seconds
        misfit = err.misfit
        shim_part = ", ".join(f"{n} {r}" for r, n in shim_sites.items() if r in misfit.over)
        if shim_part:
            misfit = dataclasses.replace(
                misfit, detail=f"{misfit.summary()} (of which the I/O shim takes {shim_part})")
        else:
            _note(progress, misfit.message(core.name))
        result = misfit_result(misfit, {"nextpnr_log": "nextpnr.log"})
        _write_result(result)
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
    gc, commands["gates"], times["gates"] = _gate_count(core, out_dir, progress)

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
        files={**files, **_PNR_FILES, **_GATES_FILES},
        critical_path=crit,
        lut_levels=levels,
    )
    _write_result(result)
    return result
