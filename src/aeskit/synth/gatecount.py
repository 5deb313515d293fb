"""The generic gate count: ``read_slang`` + ``synth -flatten`` + ``abc -g`` onto a
fixed gate library (:mod:`aeskit.synth.gates`) -> gate equivalents and the longest
path in gates, family-independent (``gates.ys``, ``yosys_gates.log``,
``gates_stat.json``, ``gates_ltp.txt``)."""

from __future__ import annotations

from pathlib import Path

from aeskit.synth import toolrun
from aeskit.synth.gates import (ABC_GATES, FF_LEGALIZE, UnweightedCellError, ge_of,
                                parse_ltp_depth)
from aeskit.synth.result import GateCount, SynthError
from aeskit.synth.settings import Progress, note
from aeskit.synth.toolrun import SynthTarget

__all__ = ["GATES_FILES", "gate_count", "gates_script", "run_gate_count"]

GATES_FILES = {
    "gates_script": "gates.ys",
    "gates_log": "yosys_gates.log",
    "gates_stat": "gates_stat.json",
    "gates_ltp": "gates_ltp.txt",
}


def gates_script(core: SynthTarget, cwd: Path) -> str:
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


def gate_count(core: SynthTarget, out_dir: Path, *,
               progress: Progress | None = None) -> GateCount:
    """Generic gate count of ``core`` (files ``gates.ys``, ``yosys_gates.log``,
    ``gates_stat.json``, ``gates_ltp.txt`` in ``out_dir``)."""
    gc, _, _ = run_gate_count(core, Path(out_dir).resolve(), progress)
    return gc


def run_gate_count(core: SynthTarget, out_dir: Path, progress: Progress | None,
                ) -> tuple[GateCount, list[str], float]:
    out_dir.mkdir(parents=True, exist_ok=True)
    toolrun.checked_hash(core)
    for name in ("gates_stat.json", "gates_ltp.txt"):
        (out_dir / name).unlink(missing_ok=True)
    note(progress, f"yosys gate count {core.name} ({core.top})")
    cmd, dt = toolrun.run_yosys(gates_script(core, out_dir), out_dir / "gates.ys", out_dir / "yosys_gates.log",
                         cwd=out_dir, what=f"yosys gate count of {core.name}")
    cells = toolrun.stat_cells(out_dir / "gates_stat.json")
    try:
        ge = ge_of(cells)
        depth = parse_ltp_depth((out_dir / "gates_ltp.txt").read_text())
    except (UnweightedCellError, ValueError) as e:
        raise SynthError(f"gate count of {core.name}: {e}", out_dir / "yosys_gates.log") from e
    return GateCount(ge=ge, cells=cells, depth=depth), cmd, dt
