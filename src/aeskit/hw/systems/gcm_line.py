"""The line-rate GCM system (hw/systems/gcm_line, ``ak_gcm_line``) with a registry core.

:func:`system_sv` renders ``ak_gcm_line_sys`` (template
``hw/systems/gcm_line/ak_gcm_line_sys.sv.tpl``, manifest ``aeskit:system:gcm_line``):
``ak_gcm_line`` (ak_gcm_pipe behind AXI4-Stream in and out and AXI4-Lite registers)
wired to one core of the registry by the core contract ports. The core must take a
block every cycle for the full rate (the unrolled cores; ``ttable_unrolled`` by
default, built as :func:`aeskit.hw.systems.gcm_pipe.system_core` builds it).
:func:`system_files` writes it and returns every source in compile order;
:func:`regmap` reads the register map from ``gcm_line.rdl``; :func:`header` packs a
packet's header beat. See docs/gcm_line.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from aeskit import BUILD_ROOT, HW_ROOT
from aeskit.gen.regs import RegLayout, layout
from aeskit.hw import manifest, templates
from aeskit.hw.systems.gcm_pipe import FIFO_DEPTH, STAGES, system_core

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

SYS = "aeskit:system:gcm_line"
SYS_TOP = "ak_gcm_line_sys"
DEFAULT_CORE = "ttable_unrolled"
RDL = HW_ROOT / "systems" / "gcm_line" / "gcm_line.rdl"
#: ak_gcm_line's output FIFO (the RTL default)
OUT_DEPTH = 32
#: the mode mask (mode code 6, GCM/GMAC; ak_gcm_line's Modes, its only value)
MODES = 0x040
#: measured cycles (docs/gcm_line.md "Throughput", asserted exactly by
#: tests/hw/systems/gcm_line): (payload bytes, packets) -> cycles from the first s_axis
#: beat to the last m_axis beat of back-to-back encryptions without AAD, never paused,
#: on ttable_unrolled (latency 83) with Stages 8
THROUGHPUT: dict[tuple[int, int], int] = {
    (64, 4): 118, (64, 12): 158, (64, 100): 598, (1500, 4): 478, (1500, 12): 1238}
#: KEY_LEN codes, by key bytes
KEY_LEN_CODE: dict[int, int] = {16: 0, 24: 1, 32: 2}


def _core(core: CoreSpec | str) -> CoreSpec:
    from aeskit.hw.registry import get_core

    return get_core(core) if isinstance(core, str) else core


def system_sv(core: CoreSpec | str = DEFAULT_CORE) -> str:
    """SystemVerilog of ``ak_gcm_line_sys``: ak_gcm_line on ``core`` (registry
    parameters; the unrolled T-table core with packed words, as in ak_gcm_pipe_sys)."""
    spec = system_core(_core(core))
    params = ", ".join(f".{k}({v})" for k, v in {**spec.parameters, "TagWidth": 1}.items())
    line = (f".Modes(9'h{MODES:03x}), .Stages({STAGES}), .FifoDepth({FIFO_DEPTH}), "
            f".OutDepth({OUT_DEPTH})")
    return templates.render(SYS, SYS_TOP, core=spec.name, core_top=spec.top,
                            core_params=params, line_params=line)


def system_files(core: CoreSpec | str = DEFAULT_CORE, out_dir: Path | None = None,
                 modes: int = MODES) -> list[Path]:
    """Write ``ak_gcm_line_sys.sv`` for ``core`` into ``out_dir`` (default
    ``build/gcm_line/<core>``); return every source in compile order (the core's, the
    system's, the rendered top). ``modes`` must be :data:`MODES` (the registry passes
    the system's mask)."""
    if modes != MODES:
        raise ValueError(f"gcm_line runs GCM only (modes {MODES:#05x}), not {modes:#05x}")
    spec = _core(core)
    out = out_dir if out_dir is not None else BUILD_ROOT / "gcm_line" / spec.name
    top = templates.write_if_changed(out / f"{SYS_TOP}.sv", system_sv(spec))
    return spec.file_paths() + manifest.sources(SYS) + [top]


def header(iv: bytes, aad_len: int, msg_len: int, tag_len: int, decrypt: bool = False,
           slot: int = 0) -> bytes:
    """The 16 bytes of a packet's header beat (byte 0 first, in tdata[7:0]): the IV,
    the payload length (big-endian), the AAD length, then decrypt, slot and tag length."""
    if len(iv) != 12 or not 0 <= aad_len < 256 or not 0 <= msg_len < 65536:
        raise ValueError("the header takes a 12-byte IV, AAD < 256 and payload < 65536 bytes")
    if not 0 <= slot < 4 or not 0 <= tag_len < 32:
        raise ValueError("slot 0..3, tag length 0..31")
    flags = (int(decrypt) << 7) | (slot << 5) | tag_len
    return iv + msg_len.to_bytes(2, "big") + bytes([aad_len, flags])


def blocks_per_cycle(nbytes: int, packets: int) -> float:
    """Payload blocks per cycle over all cycles of a :data:`THROUGHPUT` stream."""
    return packets * -(-nbytes // 16) / THROUGHPUT[(nbytes, packets)]


def regmap() -> RegLayout:
    """The register map of gcm_line.rdl."""
    return layout(RDL)
