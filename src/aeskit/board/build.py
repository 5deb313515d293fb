"""``aeskit board``: a bitstream of the UART demo for a board.

The top is ``ak_board_top`` (hw/boards): power-on reset, the board's oscillator,
USB-UART and LEDs around ``ak_uart_demo_sys`` on a registry core. The steps, all in
``build/board/<board>/<core>/``:

1. the demo's sources (:func:`aeskit.hw.systems.uart_demo.system_files`) and the board top;
   the pins from amaranth-boards as the family's constraint file (``board.lpf`` /
   ``board.pcf``, :mod:`aeskit.board.boards`);
2. Yosys ``read_slang`` + the family's synth command -> ``netlist.json``; a design
   whose cells exceed the device stops here with the flow's "does not fit" verdict;
3. nextpnr with the pins and the board clock as its target
   (:func:`aeskit.synth.pnr.nextpnr_command`, the flow's one place-and-route run);
4. the timing check: the clock net's achieved Fmax against the board clock. A miss
   stops the build with one line saying by how much; no bitstream is written;
5. the packer (``ecppack --compress`` / ``icepack``) -> ``<board>.bit`` / ``.bin``,
   and ``timing.txt`` + ``board.json``: resources, Fmax, slack, bitstream size.

The demo runs on the board's own oscillator (12 MHz iCEBreaker, 25 MHz ULX3S): the
UART, not the clock, bounds its throughput, so no PLL is inserted.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.board.boards import Board, BuildError, board_pins, constraints, get_board
from aeskit.hw import manifest
from aeskit.hw.registry import CoreSpec, get_core
from aeskit.synth import toolrun
from aeskit.synth.family import FAMILY
from aeskit.synth.fit import check_fit, needs_of
from aeskit.synth.flow import Design, route_budget_min
from aeskit.synth.pnr import NotPlaced, nextpnr_command, place_and_route
from aeskit.synth.result import SynthError
from aeskit.toolchain import paths as tools

__all__ = ["BoardBuild", "TOP", "build", "timing_miss"]

TOP = "ak_board_top"
BOARD_TOP = "aeskit:board:top"
DEFAULT_BAUD = 115_200


@dataclass
class BoardBuild:
    """What a board build wrote and measured."""

    board: str
    core: str
    device: str
    clock_mhz: float
    baud: int
    #: achieved Fmax of the board clock's net, MHz
    fmax_mhz: float
    #: nextpnr's utilisation: bel type -> (used, available)
    utilization: dict[str, tuple[int, int]]
    bitstream: Path
    bitstream_bytes: int
    bitstream_sha256: str
    seed: int
    out_dir: Path

    @property
    def slack_ns(self) -> float:
        return 1e3 / self.clock_mhz - 1e3 / self.fmax_mhz

    def summary(self) -> str:
        used = ", ".join(f"{k} {u:,}/{a:,}" for k, (u, a) in self.utilization.items() if u)
        return (f"{self.board}: {self.core} on {self.device}: {self.fmax_mhz:.1f} MHz "
                f"achieved for the {self.clock_mhz:g} MHz board clock (slack "
                f"{self.slack_ns:.2f} ns); {used}; {self.bitstream.name} "
                f"{self.bitstream_bytes:,} bytes")


def _outputs(board: Board) -> tuple[str, ...]:
    """The files a build of ``board`` writes into its folder (a new build removes
    them first, so a failed one leaves no stale bitstream)."""
    fam = FAMILY[board.dev.family]
    return ("board.lpf", "board.pcf", "synth.ys", "yosys.log", "yosys_stat.json",
            "netlist.json", "nextpnr.log", "report.json", f"{board.name}{fam.pnr_output[1]}",
            f"{board.name}.bit", f"{board.name}.bin", "timing.txt", "board.json")


def _note(progress: Callable[[str], None] | None, msg: str) -> None:
    if progress is not None:
        progress(msg)


def _demo_files(spec: CoreSpec, out_dir: Path) -> list[Path]:
    from aeskit.hw.systems import uart_demo# the demo's renderer

    return [*uart_demo.system_files(spec, out_dir=out_dir),
            *manifest.sources(BOARD_TOP)]


def build(board_name: str, core: str | None = None, *, seed: int = 1,
          baud: int = DEFAULT_BAUD, out_dir: Path | None = None,
          progress: Callable[[str], None] | None = None) -> BoardBuild:
    """Build the UART demo's bitstream for ``board_name`` on ``core`` (the board's
    default core when None). Raises :class:`BuildError` with one line for an unknown
    board or core, a design that does not fit or does not meet the board clock, and
    a tool failure (the log's path in the message)."""
    board = get_board(board_name)
    try:
        spec = get_core(core or board.default_core)
    except KeyError as e:
        raise BuildError(str(e).strip("'\"")) from None
    if seed < 1:
        raise BuildError(f"seed must be 1 or more, got {seed}")
    if baud <= 0:
        raise BuildError(f"baud must be positive, got {baud}")
    bp = board_pins(board)
    if bp.clock_hz < 4 * baud:
        raise BuildError(f"{board.name}: {baud} baud needs a clock of at least 4x that")
    dev, fam = board.dev, FAMILY[board.dev.family]
    out = (out_dir or BUILD_ROOT / "board" / board.name / spec.name).resolve()
    out.mkdir(parents=True, exist_ok=True)
    for name in _outputs(board):  # only what a build writes: --out may hold other files
        (out / name).unlink(missing_ok=True)
    try:
        return _build(board, spec, bp, dev, fam, out, seed, baud, progress)
    except SynthError as e:
        where = f" (log: {e.log_path})" if e.log_path is not None else ""
        raise BuildError(f"{board.name}: {e.message}{where}") from None


def _build(board: Board, spec: CoreSpec, bp: Any, dev: Any, fam: Any, out: Path,
           seed: int, baud: int, progress: Callable[[str], None] | None) -> BoardBuild:
    clock_mhz = bp.clock_hz / 1e6
    design = Design(f"{board.name}-{spec.name}", TOP,
                    tuple(_demo_files(spec, out / "gen")),
                    parameters={"ClkHz": bp.clock_hz, "Baud": baud, "Leds": bp.leds,
                                "LedActiveLow": bp.led_active_low})
    pins_file = "board" + (".lpf" if fam.constraints == "--lpf" else ".pcf")
    (out / pins_file).write_text(constraints(board, bp))

    _note(progress, f"yosys {fam.synth} {TOP} ({spec.name}, {board.title})")
    script = "\n".join([toolrun.read_slang_command(design, out), *fam.pre_synth,
                        f"{fam.synth} -top {TOP} -json netlist.json",
                        "tee -q -o yosys_stat.json stat -json", ""])
    toolrun.run_yosys(script, out / "synth.ys", out / "yosys.log", cwd=out,
                      what=f"yosys {fam.synth} of {design.name}")
    cells = toolrun.stat_cells(out / "yosys_stat.json")
    misfit = check_fit(cells, dev)
    if misfit is not None:
        raise BuildError(misfit.message(f"{board.name}: {spec.name}"))

    opt, suffix = fam.pnr_output
    placed = f"{board.name}{suffix}"
    where = ["--package", board.package]
    if dev.speed_grade is not None and fam.package_flag:  # ECP5: speed grade too
        where += ["--speed", str(dev.speed_grade)]
    cmd = nextpnr_command(dev, top=TOP, seed=seed, freq_mhz=clock_mhz, log_name="nextpnr.log",
                          place=[*where, fam.constraints, pins_file],
                          outputs=[opt, placed])
    _note(progress, f"{fam.nextpnr} {design.name} ({dev.name} {board.package}, seed {seed}, "
                    f"clock {clock_mhz:g} MHz)")
    try:
        place_and_route(cmd, dev, out, what=f"{fam.nextpnr} of {design.name}",
                        budget_min=route_budget_min(), router_label="nextpnr's default router",
                        tool_label=fam.nextpnr)
    except NotPlaced as e:
        raise BuildError(e.misfit.message(f"{board.name}: {spec.name}")) from None
    report = json.loads((out / "report.json").read_text())
    fmax = _clock_fmax(report)
    util = {k: (int(v.get("used", 0)), int(v.get("available", 0)))
            for k, v in report.get("utilization", {}).items()}
    if fmax is None:
        raise BuildError(f"{board.name}: nextpnr timed no clock net (report.json)")
    timing = (f"board {board.name} ({board.title}), core {spec.name}, device {dev.name}\n"
              f"clock {clock_mhz:g} MHz ({1e3 / clock_mhz:.2f} ns), achieved "
              f"{fmax:.2f} MHz ({1e3 / fmax:.2f} ns), slack {1e3 / clock_mhz - 1e3 / fmax:.2f} ns\n"
              + "".join(f"{k}: {u}/{a}\n" for k, (u, a) in util.items() if u))
    (out / "timing.txt").write_text(timing)
    miss = timing_miss(f"{board.name}: {spec.name}", clock_mhz, fmax)
    if miss is not None:
        raise BuildError(miss)

    ext = ".bit" if fam.pnr_output[0] == "--textcfg" else ".bin"
    bitstream = out / f"{board.name}{ext}"
    pack = (tools.ecppack() + ["--compress", placed, bitstream.name] if ext == ".bit"
            else tools.icepack() + [placed, bitstream.name])
    _note(progress, f"{pack[0]} -> {bitstream}")
    toolrun.run(pack, cwd=out, log_path=None, what=f"bitstream packing of {design.name}")
    data = bitstream.read_bytes()
    result = BoardBuild(board.name, spec.name, dev.name, clock_mhz, baud, fmax, util,
                        bitstream, len(data), hashlib.sha256(data).hexdigest(), seed, out)
    record = {**asdict(result), "bitstream": str(bitstream), "out_dir": str(out),
              "yosys_cells": needs_of(cells, dev.family), "commands": {"nextpnr": cmd,
                                                                     "pack": pack}}
    (out / "board.json").write_text(json.dumps(record, indent=1, default=str) + "\n")
    return result


def timing_miss(what: str, clock_mhz: float, fmax_mhz: float) -> str | None:
    """The one-line verdict on a design that misses the board clock, None when it
    meets it."""
    if fmax_mhz >= clock_mhz:
        return None
    return (f"{what} misses the {clock_mhz:g} MHz board clock by {clock_mhz - fmax_mhz:.2f} "
            f"MHz ({fmax_mhz:.2f} MHz achieved, {1e3 / fmax_mhz - 1e3 / clock_mhz:.2f} ns "
            f"over); no bitstream written")


def _clock_fmax(report: dict[str, Any]) -> float | None:
    """The achieved Fmax of the clock net (``clk_i`` after global promotion)."""
    fmax = report.get("fmax", {})
    names = [n for n in fmax if "clk_i" in n] or list(fmax)
    return min((float(fmax[n]["achieved"]) for n in names), default=None)
