"""The boards ``aeskit board`` builds for, and their pins and clocks.

Pins, I/O standards and oscillator frequencies come from ``amaranth-boards`` (the
``board`` extra): each :class:`Board` names its Amaranth platform class, and
:func:`board_pins` reads the clock, the USB-UART's two lines and the LEDs from that
platform's resources. Nothing here runs Amaranth's own build; the pins become a
constraint file of the family (:func:`constraints`: ECP5 ``.lpf``, iCE40 ``.pcf``).

A board is listed only when amaranth-boards gives it a UART the demo can talk to:
the OrangeCrab (USB straight to the FPGA) and the UPduino v3 (its FTDI's UART pins
are not in amaranth-boards) are not. The ECPIX-5's LFE5UM5G is not among the flow's
devices (:data:`aeskit.synth.devices.DEVICES`) yet.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from aeskit.synth.devices import Device, get_device

__all__ = ["BOARDS", "Board", "BuildError", "Pin", "board_pins", "constraints", "get_board"]


class BuildError(Exception):
    """A board build cannot go on; ``str()`` is one line for the user."""


@dataclass(frozen=True)
class Board:
    """One board: its name on the command line, the amaranth-boards platform
    (``module:Class``), the flow's device, nextpnr's name of its package and the
    registry core the demo uses when none is given."""

    name: str
    title: str
    platform: str
    device: str
    package: str
    default_core: str

    @property
    def dev(self) -> Device:
        return get_device(self.device)


BOARDS: dict[str, Board] = {b.name: b for b in (
    Board("ulx3s", "ULX3S (LFE5U-85F)", "ulx3s:ULX3S_85F_Platform", "LFE5U-85F",
          "CABGA381", "compact32_bram"),
    Board("ulx3s-45f", "ULX3S (LFE5U-45F)", "ulx3s:ULX3S_45F_Platform", "LFE5U-45F",
          "CABGA381", "compact32_bram"),
    Board("ulx3s-25f", "ULX3S (LFE5U-25F)", "ulx3s:ULX3S_25F_Platform", "LFE5U-25F",
          "CABGA381", "compact32_bram"),
    Board("ulx3s-12f", "ULX3S (LFE5U-12F)", "ulx3s:ULX3S_12F_Platform", "LFE5U-12F",
          "CABGA381", "compact32_bram"),
    Board("icebreaker", "iCEBreaker (iCE40-UP5K)", "icebreaker:ICEBreakerPlatform",
          "iCE40-UP5K", "sg48", "compact32_bram_e128"),
)}


def get_board(name: str) -> Board:
    try:
        return BOARDS[name]
    except KeyError:
        raise BuildError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}") from None


@dataclass(frozen=True)
class Pin:
    """One port of ``ak_board_top`` on one package pin, with its I/O attributes."""

    port: str
    site: str
    attrs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class BoardPins:
    """What the board build needs of a platform: the oscillator and the pins."""

    clock_hz: int
    pins: tuple[Pin, ...]
    leds: int
    led_active_low: bool


def _platform(board: Board) -> Any:
    module, _, cls = board.platform.partition(":")
    try:
        mod = importlib.import_module(f"amaranth_boards.{module}")
    except ImportError as e:
        raise BuildError(f"the board pins need amaranth-boards ({e.name} is missing): "
                         f"pip install 'aeskit[board]'") from None
    return getattr(mod, cls)()


def _resource(platform: Any, name: str, number: int = 0) -> Any:
    try:
        return platform.lookup(name, number)
    except Exception:  # amaranth's ResourceError
        return None


def _attrs(res: Any) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in res.attrs.items() if v is not None)


def _pins_of(res: Any) -> tuple[Any, bool]:
    """The one Pins of a resource (or subsignal) and whether it is inverted."""
    (io,) = res.ios
    names = io.names if hasattr(io, "names") else io.map_names({}, res)
    return names, bool(getattr(io, "invert", False))


def board_pins(board: Board) -> BoardPins:
    """Clock, UART and LED pins of ``board`` from amaranth-boards."""
    plat = _platform(board)
    clk = _resource(plat, plat.default_clk)
    uart = _resource(plat, "uart")
    if clk is None or uart is None:
        raise BuildError(f"{board.name}: amaranth-boards gives no clock or UART")
    (clk_site,), _ = _pins_of(clk)
    pins = [Pin("clk_i", clk_site, _attrs(clk))]
    subs = {s.name: s for s in uart.ios}
    for port, sub in (("uart_rx_i", "rx"), ("uart_tx_o", "tx")):
        (site,), _ = _pins_of(subs[sub])
        pins.append(Pin(port, site, _attrs(uart) + _attrs(subs[sub])))
    leds: list[tuple[str, bool, tuple[tuple[str, str], ...]]] = []
    while (led := _resource(plat, "led", len(leds))) is not None and len(leds) < 8:
        (site,), inv = _pins_of(led)
        leds.append((site, inv, _attrs(led)))
    if len(leds) < 2:
        raise BuildError(f"{board.name}: the demo wants two LEDs, amaranth-boards gives "
                         f"{len(leds)}")
    if len({inv for _, inv, _ in leds}) != 1:
        raise BuildError(f"{board.name}: LEDs of mixed polarity")
    pins += [Pin(f"led_o[{i}]", site, attrs) for i, (site, _, attrs) in enumerate(leds)]
    return BoardPins(int(plat.default_clk_frequency), tuple(pins), len(leds), leds[0][1])


#: ECP5 .lpf attributes ak_board_top's pins take from amaranth-boards
_LPF_ATTRS = ("IO_TYPE", "DRIVE", "PULLMODE")


def constraints(board: Board, bp: BoardPins) -> str:
    """The pin constraint file of ``board``'s family: ECP5 ``.lpf`` (sites, I/O type,
    drive, pull, and the clock's frequency), iCE40 ``.pcf`` (sites, pull-ups)."""
    lines: list[str] = [f"# {board.title}: pins from amaranth-boards ({board.platform})"]
    if board.dev.family == "ECP5":
        for p in bp.pins:
            lines.append(f'LOCATE COMP "{p.port}" SITE "{p.site}";')
            attrs = " ".join(f"{k}={v}" for k, v in p.attrs if k in _LPF_ATTRS)
            if attrs:
                lines.append(f'IOBUF PORT "{p.port}" {attrs};')
        lines.append(f'FREQUENCY PORT "clk_i" {bp.clock_hz / 1e6:g} MHz;')
    elif board.dev.family == "iCE40":
        for p in bp.pins:
            pull = " -pullup yes" if dict(p.attrs).get("PULLUP") in ("1", "True") else ""
            lines.append(f"set_io{pull} {p.port} {p.site}")
    else:
        raise BuildError(f"{board.name}: no constraint format for {board.dev.family}")
    return "\n".join(lines) + "\n"
