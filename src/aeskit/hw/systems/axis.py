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

__all__ = ["SYS", "SYS_TOP", "FIFO_DEPTH", "HOLD_BEATS", "KEY_SLOTS", "MODES", "input_fifo_depth",
           "plain_stream", "system_sv", "system_files", "wrapper_paths"]

#: the manifest of the wrapper (its template, its sources, the mode engine)
SYS = "aeskit:system:axis_core"
SYS_TOP = "ak_axis_sys"
#: ak_axis_core FifoDepth of the rendered system on a core of at most two blocks in
#: flight (the RTL default); deeper pipelines get :func:`input_fifo_depth`
FIFO_DEPTH = 4
#: cycles a packet boundary costs besides the core's latency on a streamed build
#: (chunk forming, command, the engine's input slice and output, the status:
#: docs/axis_core.md, "Timing")
CHUNK_OVERHEAD = 8
#: ak_axis_core Modes of the rendered system (the RTL default: every mode it offers)
MODES = 0x1FF
#: ak_axis_core HoldBeats of the rendered system (the RTL default: no packet held)
HOLD_BEATS = 0
#: ak_axis_core KeySlots of the rendered system: key slots selected per packet by
#: s_axis_tdest (docs/axis_core.md, "Key slots"); 1 is the wrapper of before
KEY_SLOTS = 4
#: the wrapper's core tag width (its mode engine has one stream: two lanes)
CORE_TAG_WIDTH = 1


def wrapper_paths() -> list[Path]:
    """ak_axis_core's sources in compile order (mode engine, register block, top)."""
    return manifest.sources(SYS)


def plain_stream(core: CoreSpec) -> bool:
    """ak_axis_core PlainStream for ``core``: on a pipeline of more than two blocks in
    flight an ECB..OFB packet runs as one engine message, extended as its beats come
    (the engine's PlainStream: a block per cycle into the core); a core of at most two
    blocks keeps the chunks of before (and their exact cycles)."""
    return core.blocks_in_flight() > 2


def input_fifo_depth(core: CoreSpec) -> int:
    """ak_axis_core FifoDepth for ``core``: :data:`FIFO_DEPTH` (4) unless
    :func:`plain_stream`; then the smallest power of two that holds the beats a source
    feeding at the core's rate sends while the core drains at a packet boundary
    (latency / interval + :data:`CHUNK_OVERHEAD`, the worst key size;
    ``ttable_unrolled``: 128), so the source is not held there."""
    if not plain_stream(core):
        return FIFO_DEPTH
    need = max(core.latency[s] / core.interval[s] + CHUNK_OVERHEAD for s in core.latency)
    depth = FIFO_DEPTH
    while depth < need:
        depth *= 2
    return depth


def system_sv(core: CoreSpec, fifo_depth: int | None = None, modes: int = MODES,
              hold_beats: int = HOLD_BEATS, stream: bool | None = None,
              key_slots: int = KEY_SLOTS) -> str:
    """SystemVerilog of ``ak_axis_sys``: ak_axis_core on ``core`` (registry parameters),
    its input FIFO ``fifo_depth`` beats deep (default: :func:`input_fifo_depth` of the core),
    the modes of the mask ``modes`` built (bit i: mode code i), CCM/GCM decryptions of
    up to ``hold_beats`` payload beats held until their tag passed (0: none), ECB..OFB
    packets as one engine message when ``stream`` (default: :func:`plain_stream`),
    ``key_slots`` key slots (1, 2, 4, 8) picked per packet by ``s_axis_tdest``."""
    from aeskit.hw.registry import KEY_LEN_CODE

    if key_slots not in (1, 2, 4, 8):
        raise ValueError(f"key_slots must be 1, 2, 4 or 8, got {key_slots}")
    if fifo_depth is None:
        fifo_depth = input_fifo_depth(core)
    params = ", ".join(f".{k}({v})" for k, v in
                       {**core.parameters, "TagWidth": CORE_TAG_WIDTH}.items())
    mask = sum(1 << code for size, code in KEY_LEN_CODE.items() if size in core.key_sizes)
    return templates.render(SYS, SYS_TOP, core=core.name, core_top=core.top,
                            core_params=params, fifo_depth=fifo_depth,
                            key_lens=f"3'b{mask:03b}", in_flight=core.engine_in_flight(),
                            decrypts="1'b1" if core.decrypt else "1'b0",
                            modes=f"9'h{modes:03x}", hold_beats=hold_beats,
                            plain_stream="1'b1" if (plain_stream(core) if stream is None
                                                    else stream) else "1'b0",
                            key_slots=key_slots,
                            slot_w=max(1, (key_slots - 1).bit_length()))


def system_files(core: CoreSpec, out_dir: Path, fifo_depth: int | None = None,
                 modes: int = MODES, hold_beats: int = HOLD_BEATS,
                 stream: bool | None = None, key_slots: int = KEY_SLOTS) -> list[Path]:
    """Write ``ak_axis_sys.sv`` for ``core`` into ``out_dir``; return every source."""
    top = templates.write_if_changed(out_dir / f"{SYS_TOP}.sv",
                                     system_sv(core, fifo_depth, modes, hold_beats, stream,
                                               key_slots))
    return core.file_paths() + wrapper_paths() + [top]
