"""ak_axis_core (hw/systems/axis, the AXI4-Stream wrapper) on a registry core.

:func:`system_sv` renders ``ak_axis_sys``: one ``ak_axis_core`` wired to one core of
the registry by its contract ports, so the wrapper runs on ANY core (template
``hw/systems/axis/ak_axis_sys.sv.tpl``, manifest ``aeskit:system:axis_core``);
:func:`system_files` writes it and returns every source of the system in compile
order. The wrapper itself is documented in docs/axis_core.md.
"""

from __future__ import annotations

from pathlib import Path

from aeskit.hw import manifest, templates
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

__all__ = ["SYS", "SYS_TOP", "FIFO_DEPTH", "HOLD_BEATS", "MODES", "input_fifo_depth", "system_sv",
           "system_files", "wrapper_paths"]

#: the manifest of the wrapper (its template, its sources, the mode engine)
SYS = "aeskit:system:axis_core"
SYS_TOP = "ak_axis_sys"
#: ak_axis_core FifoDepth of the rendered system on a core of at most two blocks in
#: flight (the RTL default); deeper pipelines get :func:`input_fifo_depth`
FIFO_DEPTH = 4
#: the share of the core's own rate a long packet should reach on a deep pipeline
CHUNK_RATE = 0.9
#: cycles a chunk costs besides its blocks and the core's latency (chunk forming,
#: command, the engine's input slice and output, the status: docs/axis_core.md)
CHUNK_OVERHEAD = 8
#: ak_axis_core Modes of the rendered system (the RTL default: every mode it offers)
MODES = 0x1FF
#: ak_axis_core HoldBeats of the rendered system (the RTL default: no packet held)
HOLD_BEATS = 0
#: the wrapper's core tag width (its mode engine has one stream: two lanes)
CORE_TAG_WIDTH = 1


def wrapper_paths() -> list[Path]:
    """ak_axis_core's sources in compile order (mode engine, register block, top)."""
    return manifest.sources(SYS)


def input_fifo_depth(core: CoreSpec) -> int:
    """ak_axis_core FifoDepth for ``core``: :data:`FIFO_DEPTH` (4) for a core of at most
    two blocks in flight; for a deeper pipeline the smallest power of two D with which a
    long ECB/CTR packet, sent to the engine in chunks of D beats that each pay the
    core's latency, runs at :data:`CHUNK_RATE` of the core's rate:
    D x interval >= CHUNK_RATE / (1 - CHUNK_RATE) x (latency + CHUNK_OVERHEAD), the
    worst key size (``ttable_unrolled``: 1024)."""
    if core.blocks_in_flight() <= 2:
        return FIFO_DEPTH
    k = CHUNK_RATE / (1 - CHUNK_RATE)
    need = max(k * (core.latency[s] + CHUNK_OVERHEAD) / core.interval[s] for s in core.latency)
    depth = FIFO_DEPTH
    while depth < need:
        depth *= 2
    return depth


def system_sv(core: CoreSpec, fifo_depth: int | None = None, modes: int = MODES,
              hold_beats: int = HOLD_BEATS) -> str:
    """SystemVerilog of ``ak_axis_sys``: ak_axis_core on ``core`` (registry parameters),
    its input FIFO ``fifo_depth`` beats deep (default: :func:`input_fifo_depth` of the core),
    the modes of the mask ``modes`` built (bit i: mode code i), CCM/GCM decryptions of
    up to ``hold_beats`` payload beats held until their tag passed (0: none)."""
    from aeskit.hw.registry import KEY_LEN_CODE

    if fifo_depth is None:
        fifo_depth = input_fifo_depth(core)
    params = ", ".join(f".{k}({v})" for k, v in
                       {**core.parameters, "TagWidth": CORE_TAG_WIDTH}.items())
    mask = sum(1 << code for size, code in KEY_LEN_CODE.items() if size in core.key_sizes)
    return templates.render(SYS, SYS_TOP, core=core.name, core_top=core.top,
                            core_params=params, fifo_depth=fifo_depth,
                            key_lens=f"3'b{mask:03b}", in_flight=core.engine_in_flight(),
                            decrypts="1'b1" if core.decrypt else "1'b0",
                            modes=f"9'h{modes:03x}", hold_beats=hold_beats)


def system_files(core: CoreSpec, out_dir: Path, fifo_depth: int | None = None,
                 modes: int = MODES, hold_beats: int = HOLD_BEATS) -> list[Path]:
    """Write ``ak_axis_sys.sv`` for ``core`` into ``out_dir``; return every source."""
    top = templates.write_if_changed(out_dir / f"{SYS_TOP}.sv",
                                     system_sv(core, fifo_depth, modes, hold_beats))
    return core.file_paths() + wrapper_paths() + [top]
