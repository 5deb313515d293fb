"""The lean AES peripheral (hw/systems/lite, ``ak_aes_lite``) with a registry core.

:func:`system_sv` renders ``ak_aes_lite_sys`` (template
``hw/systems/lite/ak_aes_lite_sys.sv.tpl``, manifest ``aeskit:system:aes_lite``): the
peripheral wired to one core of the registry by the core contract ports
(``compact32_bram_e128`` by default). :func:`system_files` writes it and returns every
source in compile order, for a simulator or a synthesis run. :func:`regmap` reads the
register map from ``aes_lite.rdl``. See docs/aes_lite.md.
"""

from __future__ import annotations

from pathlib import Path

from aeskit import BUILD_ROOT, HW_ROOT
from aeskit.gen.regs import RegLayout, layout
from aeskit.hw import manifest, templates
from aeskit.hw.codes import Mode
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

SYS = "aeskit:system:aes_lite"
SYS_TOP = "ak_aes_lite_sys"
DEFAULT_CORE = "compact32_bram_e128"
RDL = HW_ROOT / "systems" / "lite" / "aes_lite.rdl"
#: ak_aes_lite's default Modes: ECB, CBC, CTR, CMAC
DEFAULT_MODES = 0x087
#: CTRL.MODE codes (the project's mode codes, aeskit.hw.codes.Mode)
MODE_CODE: dict[str, int] = {m.name.lower(): int(m)
                             for m in (Mode.ECB, Mode.CBC, Mode.CTR, Mode.CMAC)}
#: CTRL.KEY_LEN codes, by key bytes
KEY_LEN_CODE: dict[int, int] = {16: 0, 24: 1, 32: 2}
#: STATUS.ERR codes
ERR: dict[str, int] = {"NONE": 0, "ILLEGAL": 1}


def _core(core: CoreSpec | str) -> CoreSpec:
    from aeskit.hw.registry import get_core

    return get_core(core) if isinstance(core, str) else core


def lite_paths() -> list[Path]:
    """ak_aes_lite's sources in compile order, from the manifest."""
    return manifest.sources(SYS)


def system_sv(core: CoreSpec | str = DEFAULT_CORE, modes: int | None = None) -> str:
    """SystemVerilog of ``ak_aes_lite_sys``: ak_aes_lite on ``core`` (registry
    parameters, its directions and key sizes as CoreDirections / CoreKeySizes);
    ``modes``: the Modes mask (None: the RTL default, 9'h087)."""
    spec = _core(core)
    params, lite = instance_params(spec, modes)
    return templates.render(SYS, SYS_TOP, core=spec.name, core_top=spec.top,
                            core_params=params, lite_params=lite)


def instance_params(spec: CoreSpec, modes: int | None = None) -> tuple[str, str]:
    """The parameter overrides of the core's instance (TagWidth(1) included) and of
    ak_aes_lite's (Modes, CoreDirections, CoreKeySizes) in a top that wires them."""
    from aeskit.hw.registry import key_sizes_mask

    params = ", ".join(f".{k}({v})" for k, v in {**spec.parameters, "TagWidth": 1}.items())
    dirs = 3 if spec.decrypt else 1
    lite = (f".Modes(9'h{(DEFAULT_MODES if modes is None else modes):03x}), "
            f".CoreDirections(2'b{dirs:02b}), "
            f".CoreKeySizes(3'b{key_sizes_mask(spec.key_sizes):03b})")
    return params, lite


def system_files(core: CoreSpec | str = DEFAULT_CORE, out_dir: Path | None = None,
                 modes: int | None = None) -> list[Path]:
    """Write ``ak_aes_lite_sys.sv`` for ``core`` (``modes``: see :func:`system_sv`) into
    ``out_dir`` (default ``build/aes_lite/<core>``, ``build/aes_lite/<core>-m<modes>``
    with a Modes mask); return every source in compile order (the core's, the
    peripheral's, the rendered top)."""
    spec = _core(core)
    sub = spec.name if modes is None else f"{spec.name}-m{modes:03x}"
    out = out_dir if out_dir is not None else BUILD_ROOT / "aes_lite" / sub
    top = templates.write_if_changed(out / f"{SYS_TOP}.sv", system_sv(spec, modes))
    return spec.file_paths() + lite_paths() + [top]


def regmap() -> RegLayout:
    """The register map of aes_lite.rdl."""
    return layout(RDL)
