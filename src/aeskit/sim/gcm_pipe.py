"""GCM at one block per cycle (hw/modes/gcm_pipe: ``ak_gcm_pipe``) on a registry core.

:func:`system_sv` renders ``ak_gcm_pipe_sys`` (template
``hw/bench/gcm_pipe_sys/ak_gcm_pipe_sys.sv.tpl``, manifest ``aeskit:bench:gcm_pipe_sys``):
``ak_gcm_pipe`` wired to one core of the registry by the core-contract ports. The
core must take a block every cycle for the full rate (the unrolled cores); any core
works, at its own interval. ``FifoDepth`` must be at least the core's latency for
one block per cycle (128 covers every registry core).
"""

from __future__ import annotations

from pathlib import Path

from aeskit.hw import manifest, templates
from aeskit.hw.registry import CoreSpec

SYS = "aeskit:bench:gcm_pipe_sys"
SYS_TOP = "ak_gcm_pipe_sys"
#: GHASH pipeline depth and payload FIFO of the default build
STAGES = 8
FIFO_DEPTH = 128


def system_sv(core: CoreSpec, stages: int = STAGES, fifo_depth: int = FIFO_DEPTH) -> str:
    """SystemVerilog of ``ak_gcm_pipe_sys`` on ``core`` (its registry parameters)."""
    params = ", ".join(f".{k}({v})" for k, v in {**core.parameters, "TagWidth": 1}.items())
    return templates.render(SYS, SYS_TOP, core=core.name, core_top=core.top,
                            core_params=params, stages=stages, fifo_depth=fifo_depth)


def system_files(core: CoreSpec, out_dir: Path, stages: int = STAGES,
                 fifo_depth: int = FIFO_DEPTH) -> list[Path]:
    """Write ``ak_gcm_pipe_sys.sv`` for ``core`` into ``out_dir``; return every source
    in compile order."""
    top = templates.write_if_changed(out_dir / f"{SYS_TOP}.sv",
                                     system_sv(core, stages, fifo_depth))
    return core.file_paths() + manifest.sources(SYS) + [top]
