"""The co-processor (hw/systems/coproc, ``ak_coproc``) with a registry core.

:func:`system_sv` renders ``ak_coproc_sys`` (template
``hw/systems/coproc/ak_coproc_sys.sv.tpl``, manifest ``aeskit:system:coproc``): the
co-processor wired to one core of the registry by the core contract ports
(``tbox_folded``, paper 003's core, by default). :func:`system_files` writes it and
returns every source in compile order, for a simulator or a synthesis run.
:func:`regmap` reads the register map from ``coproc.rdl`` (addresses and field
positions, so a bench never repeats a number of the map).

:func:`measure_cycles` runs the cocotb bench of ``tests/hw/systems/coproc`` on a core
and returns the cycles from the START write to DONE for a list of payload sizes
(ECB encryption, AES-128, the memory model of the bench: cocotbext-axi's AxiRam
without pauses; see docs/coproc.md for its latency).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from aeskit import BUILD_ROOT, HW_ROOT, REPO_ROOT
from aeskit.hw import manifest, templates
from aeskit.gen.regs import RegLayout, layout
from aeskit.hw.codes import CoprocErr, Mode
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

#: the co-processor's manifest (its RTL, the template, the mode engine as dependency)
SYS = "aeskit:system:coproc"
SYS_TOP = "ak_coproc_sys"
DEFAULT_CORE = "tbox_folded"
RDL = HW_ROOT / "systems" / "coproc" / "coproc.rdl"
#: mode codes of CTRL.MODE (the mode engine's cmd_mode, aeskit.hw.codes): ECB .. CCM,
#: the modes of register map 1.0 (the benches of those modes iterate this)
MODE_CODE: dict[str, int] = {m.name.lower(): int(m) for m in Mode if m <= Mode.CCM}
#: the modes map 1.1 adds: GCM (GMAC: LEN 0), CMAC, XTS (code 8: CTRL.MODE_HI = 1)
AEAD_MODE_CODE: dict[str, int] = {m.name.lower(): int(m) for m in Mode if m > Mode.CCM}


def mode_fields(code: int) -> dict[str, int]:
    """CTRL fields of a 4-bit mode code: MODE holds bits [2:0], MODE_HI bit 3."""
    return {"CTRL__MODE": code & 7, "CTRL__MODE_HI": code >> 3}
#: key length codes of CTRL.KEY_LEN, by key bytes
KEY_LEN_CODE: dict[int, int] = {16: 0, 24: 1, 32: 2}
#: STATUS.ERR_CODE values (aeskit.hw.codes.CoprocErr)
ERR: dict[str, int] = {e.name: int(e) for e in CoprocErr}
#: where the cocotb bench lives (measure_cycles runs it)
BENCH_DIR = REPO_ROOT / "tests" / "hw" / "systems" / "coproc"


def _core(core: CoreSpec | str) -> CoreSpec:
    from aeskit.hw.registry import get_core

    return get_core(core) if isinstance(core, str) else core


def coproc_paths() -> list[Path]:
    """ak_coproc's sources (mode engine first) in compile order, from the manifests."""
    return manifest.sources(SYS)


def system_sv(core: CoreSpec | str = DEFAULT_CORE, modes: int | None = None) -> str:
    """SystemVerilog of ``ak_coproc_sys``: ak_coproc on ``core`` (registry parameters);
    ``modes``: ak_coproc's Modes mask (bit m: mode code m; None: the RTL default, all
    nine)."""
    spec = _core(core)
    params = ", ".join(f".{k}({v})" for k, v in {**spec.parameters, "TagWidth": 1}.items())
    caps = spec.engine_caps() + ("" if modes is None else f", .Modes(9'h{modes:03x})")
    return templates.render(SYS, SYS_TOP, core=spec.name, core_top=spec.top,
                            core_params=params, in_flight=spec.engine_in_flight(),
                            core_caps=caps)



def system_files(core: CoreSpec | str = DEFAULT_CORE, out_dir: Path | None = None,
                 modes: int | None = None) -> list[Path]:
    """Write ``ak_coproc_sys.sv`` for ``core`` (``modes``: see :func:`system_sv`) into
    ``out_dir`` (default ``build/coproc/<core>``, ``build/coproc/<core>-m<modes>`` with
    a Modes mask); return every source in compile order (the core's, the
    co-processor's, the rendered top)."""
    spec = _core(core)
    sub = spec.name if modes is None else f"{spec.name}-m{modes:03x}"
    out = out_dir if out_dir is not None else BUILD_ROOT / "coproc" / sub
    top = templates.write_if_changed(out / f"{SYS_TOP}.sv", system_sv(spec, modes))
    return spec.file_paths() + coproc_paths() + [top]


#: the register map's addresses and fields (aeskit.gen.regs.RegLayout)
RegMap = RegLayout


def regmap() -> RegLayout:
    """The register map of coproc.rdl."""
    return layout(RDL)


def measure_cycles(sizes: tuple[int, ...] = (16, 512, 16384),
                   core: CoreSpec | str = DEFAULT_CORE) -> dict[int, int]:
    """Cycles from the START write to DONE (the CYCLES register, checked against the
    bench's own count of clock edges) of one ECB encryption with a 128-bit key per
    payload size in bytes, on ``core``, memory = AxiRam without pauses."""
    from aeskit.sim.cocotb_run import run_cocotb

    spec = _core(core)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cycles.json"
        run_cocotb(toplevel=SYS_TOP, sources=system_files(spec),
                   test_module="test_coproc", test_dir=BENCH_DIR, parameters={},
                   testcase="cocotb_measure",
                   extra_env={"AK_COPROC_SIZES": ",".join(map(str, sizes)),
                              "AK_COPROC_OUT": str(out)},
                   includes=spec.include_paths(), seed=1)
        return {int(k): v for k, v in json.loads(out.read_text()).items()}
