"""GCM at one block per cycle (hw/modes/gcm_pipe: ``ak_gcm_pipe``) on a registry core.

:func:`system_sv` renders ``ak_gcm_pipe_sys`` (template
``hw/bench/gcm_pipe_sys/ak_gcm_pipe_sys.sv.tpl``, manifest ``aeskit:bench:gcm_pipe_sys``):
``ak_gcm_pipe`` wired to one core of the registry by the core-contract ports. The
core must take a block every cycle for the full rate (the unrolled cores); any core
works, at its own interval. ``FifoDepth`` must be at least the core's latency for
one block per cycle (128 covers every registry core).

The system builds the unrolled T-table core with packed T-table words in every middle
stage (:func:`system_core`: 84 DP16KD on AES-128 instead of the registry's 156): beside
the GHASH pipeline the 156-RAM build did not route on two of three placement seeds
within the flow's 30 minutes (28 Nov 2026, docs/gcm_pipe.md), and the GHASH unit, not
the core, sets the system's clock. The simulation and the synthesis build the same
core.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from aeskit.hw import manifest, templates
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

SYS = "aeskit:bench:gcm_pipe_sys"
SYS_TOP = "ak_gcm_pipe_sys"
#: GHASH pipeline depth and payload FIFO of the default build
STAGES = 8
FIFO_DEPTH = 128


def system_core(core: CoreSpec) -> CoreSpec:
    """The core as the system builds it: ``ak_ttable_unrolled`` with every middle stage
    in packed words (``PackedStages = Nr - 1``), any other core as the registry has it."""
    if core.top != "ak_ttable_unrolled":
        return core
    nr = 10 + 2 * int(core.parameters.get("KeyLen", 0))
    return dataclasses.replace(core, parameters={**core.parameters, "PackedStages": nr - 1})


def system_sv(core: CoreSpec, stages: int = STAGES, fifo_depth: int = FIFO_DEPTH) -> str:
    """SystemVerilog of ``ak_gcm_pipe_sys`` on ``core`` (its registry parameters, but
    the unrolled T-table core's words: :func:`system_core`)."""
    core = system_core(core)
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
