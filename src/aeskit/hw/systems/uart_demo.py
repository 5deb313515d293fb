"""The UART demo (hw/systems/uart_demo, ``ak_uart_demo_sys``) with a registry core.

:func:`system_sv` renders ``ak_uart_demo_sys`` (template
``hw/systems/uart_demo/ak_uart_demo_sys.sv.tpl``, manifest ``aeskit:system:uart_demo``):
the demo's controller (UART, frame parser, AXI4-Lite master) driving the lean AES
peripheral ``ak_aes_lite`` on one core of the registry (``compact32_bram_e128`` by
default), with the defaults of its parameters ``ClkHz`` and ``Baud``.
:func:`system_files` writes it and returns every source in compile order. See
docs/uart_demo.md; the host side is :mod:`aeskit.board`.
"""

from __future__ import annotations

from pathlib import Path

from aeskit import BUILD_ROOT
from aeskit.hw import manifest, templates
from typing import TYPE_CHECKING
from aeskit.hw.systems import lite

if TYPE_CHECKING:  # the registry imports this module while it collects its systems
    from aeskit.hw.registry import CoreSpec

SYS = "aeskit:system:uart_demo"
SYS_TOP = "ak_uart_demo_sys"
DEFAULT_CORE = lite.DEFAULT_CORE
#: the demo's modes (ak_aes_lite's Modes): ECB, CBC, CTR, CMAC
DEFAULT_MODES = lite.DEFAULT_MODES
DEFAULT_CLK_HZ = 12_000_000
DEFAULT_BAUD = 115_200


def clk_per_bit(clk_hz: int, baud: int) -> int:
    """Clock cycles per UART bit, as the RTL computes it (ClkHz / Baud rounded)."""
    return (clk_hz + baud // 2) // baud


def timeout_cycles(clk_hz: int, baud: int) -> int:
    """The inter-byte timeout in cycles, as the RTL: 10 ms, at least 20 bit times."""
    return max(clk_hz // 100, 20 * clk_per_bit(clk_hz, baud))


def _check(clk_hz: int, baud: int) -> None:
    if baud <= 0 or clk_per_bit(clk_hz, baud) < 4:
        raise ValueError(f"ClkHz / Baud must be at least 4 (got {clk_hz} / {baud})")


def system_sv(core: CoreSpec | str = DEFAULT_CORE, clk_hz: int = DEFAULT_CLK_HZ,
              baud: int = DEFAULT_BAUD, modes: int | None = None) -> str:
    """SystemVerilog of ``ak_uart_demo_sys`` on ``core`` with parameter defaults
    ``ClkHz = clk_hz``, ``Baud = baud``; ``modes``: ak_aes_lite's Modes mask (None:
    9'h087)."""
    from aeskit.hw.registry import get_core

    _check(clk_hz, baud)
    spec = get_core(core) if isinstance(core, str) else core
    params, lite_params = lite.instance_params(spec, modes)
    return templates.render(SYS, SYS_TOP, core=spec.name, core_top=spec.top,
                            core_params=params, lite_params=lite_params,
                            clk_hz=clk_hz, baud=baud)


def system_files(core: CoreSpec | str = DEFAULT_CORE, out_dir: Path | None = None,
                 modes: int | None = None, clk_hz: int = DEFAULT_CLK_HZ,
                 baud: int = DEFAULT_BAUD) -> list[Path]:
    """Write ``ak_uart_demo_sys.sv`` (see :func:`system_sv`) into ``out_dir`` (default
    ``build/uart_demo/<core>-<clk_hz>-<baud>[-m<modes>]``); return every source in
    compile order (the core's, ak_aes_lite's, the demo's, the rendered top)."""
    from aeskit.hw.registry import get_core

    spec = get_core(core) if isinstance(core, str) else core
    sub = f"{spec.name}-{clk_hz}-{baud}" + ("" if modes is None else f"-m{modes:03x}")
    out = out_dir if out_dir is not None else BUILD_ROOT / "uart_demo" / sub
    top = templates.write_if_changed(out / f"{SYS_TOP}.sv",
                                     system_sv(spec, clk_hz, baud, modes))
    return spec.file_paths() + manifest.sources(SYS) + [top]
