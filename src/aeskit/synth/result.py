"""What a synthesis run gives: :class:`SynthResult` (``synth.json``), the generic
:class:`GateCount`, and the errors of the flow (:class:`SynthError`, its
:class:`ToolTimeout` and :class:`DoesNotFit`, which carries a result)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit.synth.fit import Misfit

__all__ = ["DoesNotFit", "GateCount", "SynthError", "SynthResult", "ToolTimeout"]


class SynthError(RuntimeError):
    """A flow step failed. ``log_path`` and ``tail`` point at the evidence."""

    def __init__(self, message: str, log_path: Path | None = None, tail: str = "") -> None:
        self.message = message
        self.log_path = log_path
        self.tail = tail
        text = message
        if log_path is not None:
            text += f"\nlog: {log_path}"
        if tail:
            text += f"\n--- last lines ---\n{tail}"
        super().__init__(text)


class DoesNotFit(SynthError):
    """The design needs more of a resource than the device has. ``result`` is the
    :class:`SynthResult` with ``fits=False`` and the Yosys figures; ``misfit`` says
    what is short; ``str()`` starts with the one-line verdict
    (``<core> does not fit <device>: needs N of M X``)."""

    def __init__(self, result: SynthResult, log_path: Path | None = None) -> None:
        if result.misfit is None:
            raise ValueError("DoesNotFit needs a result with a misfit")
        self.result = result
        self.misfit = Misfit.from_json(result.misfit)
        super().__init__(self.misfit.message(result.core), log_path)


@dataclass(frozen=True)
class GateCount:
    """Generic gate count of a design on the fixed gate library."""

    #: gate equivalents (NAND2 = 1), weights in :data:`aeskit.synth.gates.GE_WEIGHTS`
    ge: float
    #: Yosys cell type -> count, e.g. ``{"$_XOR_": 8}``
    cells: dict[str, int]
    #: gates on the longest combinational path between registers and ports
    depth: int

    def to_json(self) -> dict[str, Any]:
        return {"ge": self.ge, "cells": dict(sorted(self.cells.items())), "depth": self.depth}


@dataclass
class SynthResult:
    """Area and speed of one design. ``synth.json`` holds :meth:`to_json`."""

    core: str
    top: str
    parameters: dict[str, Any]
    source_hash: str
    flow_version: str
    seed: int
    device: str
    package: str
    #: None on iCE40 (nextpnr-ice40 has one timing model per device)
    speed_grade: int | None
    freq_target_mhz: float
    #: logic cells used after packing. ECP5: LUT4 sites (nextpnr TRELLIS_COMB): logic
    #: LUTs, 2 per CCU2C carry cell, 2 per distributed-RAM block, and the packer's
    #: constant drivers. iCE40: logic cells (ICESTORM_LC: one LUT4 + one flip-flop +
    #: carry each) minus the I/O shim's. Nexus: LUT4 sites (OXIDE_COMB) minus the shim's.
    lut4: int
    #: the same count from the Yosys netlist: ECP5 LUT4 + 2*CCU2C + 2*TRELLIS_DPR16X4;
    #: iCE40 max(SB_LUT4, flip-flops, SB_CARRY) (a lower bound of the LCs); Nexus
    #: LUT4 + 2*(WIDEFN9 + CCU2 + DPR16X4) (see :func:`aeskit.synth.fit.needs_of`)
    lut4_synth: int
    #: flip-flops: ECP5 TRELLIS_FF; iCE40 the SB_DFF* cells of the design's netlist
    #: (nextpnr-ice40 counts LCs only); Nexus OXIDE_FF minus the shim's
    ff: int
    #: block RAMs: ECP5 DP16KD (18 kbit), iCE40 ICESTORM_RAM (SB_RAM40_4K, 4 kbit),
    #: Nexus OXIDE_EBR (18 kbit)
    ebr: int
    #: multipliers: ECP5 MULT18X18D, iCE40 ICESTORM_DSP (SB_MAC16), Nexus MULT18_CORE
    dsp: int
    #: achieved Fmax of the clk_i net after routing, MHz; None without
    #: register-to-register paths (e.g. purely combinational designs)
    fmax_mhz: float | None
    #: achieved Fmax of every clock nextpnr timed, MHz
    clocks: dict[str, float]
    #: generic gate equivalents and logic depth (gates); None when the design does
    #: not fit (the gate count is not run then)
    ge: float | None
    depth: int | None
    gate_cells: dict[str, int]
    #: Yosys cell counts after synth_ecp5 (iCE40, Nexus: after synth_ice40 /
    #: synth_nexus, the design's cells only, without the I/O shim's and the pins')
    ecp5_cells: dict[str, int]
    #: nextpnr utilisation: bel type -> used (only types with used > 0)
    utilization: dict[str, int]
    tool_versions: dict[str, str]
    #: wall time of each step, seconds (informational; not part of the cache key)
    times_s: dict[str, float]
    #: the exact commands run (Yosys scripts are saved next to the logs)
    commands: dict[str, list[str]]
    out_dir: Path
    #: role -> file name inside out_dir
    files: dict[str, str]
    #: False: the design does not fit ``device`` (``misfit`` says why); nextpnr and the
    #: gate count did not run, ``lut4``/``ff``/``ebr``/``dsp`` are the Yosys figures
    #: (``lut4 == lut4_synth``), ``fmax_mhz``, ``ge`` and ``depth`` are None
    fits: bool = True
    #: :meth:`aeskit.synth.fit.Misfit.to_json` when ``fits`` is False
    misfit: dict[str, Any] | None = None
    #: block-RAM read ports given their output register by :mod:`aeskit.synth.outreg`
    #: (``ports``) and the flip-flops that moved into them (``flip_flops``)
    outreg: dict[str, int] = field(default_factory=dict)
    #: block RAMs pinned by :mod:`aeskit.synth.floorplan` (``rams``) and the EBR rows
    #: (``rows``); None (and absent from ``synth.json``) for a design that names none
    floorplan: dict[str, Any] | None = None
    #: the worst clk_i path (:func:`aeskit.synth.critical.critical_path`): start and
    #: end in the RTL, logic cells, ns of logic and of routing; None without one
    critical_path: dict[str, Any] | None = None
    #: most LUT levels between registers in the mapped netlist (LUT4 = 1, PFUMX /
    #: L6MUX21 = 0.25; :func:`aeskit.synth.critical.lut_levels`): placement-independent
    lut_levels: float | None = None
    #: iCE40 and Nexus: the I/O shim that stands in for the pins (``inputs`` and
    #: ``outputs``: bits it carries; ``cells``: its Yosys cells; ``sites``: the
    #: utilisation it takes, subtracted from ``lut4``/``ff``); None (and absent from
    #: ``synth.json``) on ECP5, which places out of context
    io_shim: dict[str, Any] | None = None
    cached: bool = False

    def path(self, role: str) -> Path:
        """Absolute path of an output: ``yosys_log``, ``nextpnr_log``, ``gates_log``,
        ``report``, ``netlist``, ``result``, ..."""
        return self.out_dir / self.files[role]

    @property
    def logs(self) -> dict[str, Path]:
        return {k: self.path(k) for k in self.files if k.endswith("_log")}

    def to_json(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d.pop("cached")
        if d.get("io_shim") is None:
            d.pop("io_shim", None)  # ECP5's synth.json keeps its fields exactly
        if d.get("floorplan") is None:
            d.pop("floorplan", None)  # so does a design without a floorplan
        d["out_dir"] = str(self.out_dir)
        return d

    @classmethod
    def from_json(cls, data: Mapping[str, Any], out_dir: Path | None = None) -> SynthResult:
        d = dict(data)
        d["out_dir"] = Path(out_dir) if out_dir is not None else Path(d["out_dir"])
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


class ToolTimeout(SynthError):
    """A tool ran past its time budget and was stopped."""
