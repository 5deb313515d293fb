"""Static transfer-latency models of AXI and ASBUS (paper 000, Sec. 5.1, Table I).

Every function returns the expected number of bus clock cycles of one workload on one
bus, under the paper's assumptions: a grant and a slave response are always immediate,
the memory never stalls, and ``p_b2b`` is the back-to-back probability P -- the
chance that a transfer follows the previous one closely enough to hide part of its
overhead under it. The derivation, with every constant's origin, is in
``docs/busmodel.md``; in short:

* a command costs ``C`` cycles: AXI ``C = 4`` (REQ/GNT handshake 2, address 1,
  response 1), ASBUS ``C = 2`` (arbitration and address merged; the response rides
  in the data cycles). Back to back, ``O = 2`` of them overlap the previous
  transfer, so ``n`` commands cost ``(C - O*P) * n``;
* a payload larger than one command allows is split: AXI bursts of at most ``XS``
  beats (16 in AXI3, 256 in AXI4), a block one AXI burst per row (AXI has no block
  transfer); ASBUS linear commands of at most ``AS = 1024`` beats, block commands of at
  most ``AH = 64`` rows by ``AW = 16`` words, state commands of at most 1024 states;
* a cipher workload moves ``N_E`` 128-bit states through an AES engine that takes
  ``10 x c_W`` cycles per state (``c_W`` = 5 / 3 / 2 cycles per round on a 32 / 64 /
  128-bit datapath). AXI moves one burst per state (the engine buffers and reorders
  each state), ASBUS one state-transfer command for all of them. The commands are
  back to back; with probability P a state's processing is hidden under the next
  state's transfer, so ``N_E * 10 c_W * (1 - P)`` engine cycles stay exposed.

``p_b2b=None`` (the default) means "as back to back as this workload can be", i.e.
P = (n - 1) / n for n commands (n = N_E for the cipher models): every command but
the first overlaps its predecessor. That is the setting of the paper's Table IV.

Numbers are exact: P is converted to a :class:`~fractions.Fraction` (a ``float`` at
its shortest decimal form, so 0.95 is 19/20), and the results are exact before the
final conversion to ``float``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Final, Literal

__all__ = [
    "AES_ROUNDS",
    "ASBUS_BLOCK_HEIGHT_LIMIT",
    "ASBUS_BLOCK_WIDTH_LIMIT",
    "ASBUS_COMMAND_CYCLES",
    "ASBUS_LINEAR_LIMIT",
    "ASBUS_STATE_LIMIT",
    "AXI3_BURST_LIMIT",
    "AXI4_BURST_LIMIT",
    "AXI_COMMAND_CYCLES",
    "BUSES",
    "Bus",
    "BusModelError",
    "CYCLES_PER_ROUND",
    "OVERLAP_CYCLES",
    "Probability",
    "STATE_BITS",
    "WIDTHS",
    "aes_latency_cycles",
    "asbus_block_commands",
    "asbus_block_cycles",
    "asbus_cipher_cycles",
    "asbus_linear_commands",
    "asbus_linear_cycles",
    "asbus_state_commands",
    "axi_block_commands",
    "axi_block_cycles",
    "axi_cipher_cycles",
    "axi_linear_commands",
    "axi_linear_cycles",
    "beats_per_state",
    "block_cycles",
    "cipher_cycles",
    "command_overhead",
    "linear_cycles",
    "max_b2b_probability",
]

Bus = Literal["axi", "asbus"]
Probability = float | Fraction

BUSES: Final[tuple[Bus, ...]] = ("axi", "asbus")
WIDTHS: Final[tuple[int, ...]] = (32, 64, 128)
STATE_BITS: Final = 128

AXI_COMMAND_CYCLES: Final = 4  # REQ/GNT 2 + address 1 + response 1 (Sec. 5.1)
ASBUS_COMMAND_CYCLES: Final = 2  # arbitration+address 2; response inside the data cycles
OVERLAP_CYCLES: Final = 2  # command cycles hidden under the previous transfer, back to back

AXI3_BURST_LIMIT: Final = 16  # XS: AxLEN is 4 bits in AXI3
AXI4_BURST_LIMIT: Final = 256  # AxLEN is 8 bits in AXI4 (INCR)
ASBUS_LINEAR_LIMIT: Final = 1024  # AS: LEN[9:0]
ASBUS_BLOCK_HEIGHT_LIMIT: Final = 64  # AH: LEN[5:0]
ASBUS_BLOCK_WIDTH_LIMIT: Final = 16  # AW: LEN[9:6]
ASBUS_STATE_LIMIT: Final = 1024  # LEN[9:0] of a state transfer (LEN[11:10] = 2'b10)

AES_ROUNDS: Final = 10  # the paper's engine: AES-128
CYCLES_PER_ROUND: Final[dict[int, int]] = {32: 5, 64: 3, 128: 2}  # Sec. 3.1 / 5.1

_COMMAND_CYCLES: Final[dict[str, int]] = {"axi": AXI_COMMAND_CYCLES, "asbus": ASBUS_COMMAND_CYCLES}


class BusModelError(ValueError):
    """A workload or bus parameter outside what the model (or the protocol) defines."""


# --- input checks -----------------------------------------------------------------


def _count(name: str, value: int, maximum: int | None = None) -> int:
    """A positive ``int`` (not ``bool``), at most ``maximum`` when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BusModelError(f"{name} must be an int, got {value!r}")
    if value < 1:
        raise BusModelError(f"{name} must be >= 1, got {value}")
    if maximum is not None and value > maximum:
        raise BusModelError(f"{name} must be <= {maximum}, got {value}")
    return value


def _width(width: int) -> int:
    if isinstance(width, bool) or not isinstance(width, int) or width not in WIDTHS:
        raise BusModelError(f"bus width must be one of {WIDTHS} bits, got {width!r}")
    return width


def _bus(bus: str) -> Bus:
    if bus == "axi":
        return "axi"
    if bus == "asbus":
        return "asbus"
    raise BusModelError(f"bus must be one of {BUSES}, got {bus!r}")


def _rounds(rounds: int) -> int:
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds not in (10, 12, 14):
        raise BusModelError(f"AES rounds must be 10, 12 or 14, got {rounds!r}")
    return rounds


def _probability(p_b2b: Probability | None, commands: int) -> Fraction:
    """P as an exact fraction in [0, 1); ``None`` is the largest P for ``commands``."""
    if p_b2b is None:
        return max_b2b_probability(commands)
    if isinstance(p_b2b, bool) or not isinstance(p_b2b, (int, float, Fraction)):
        raise BusModelError(f"back-to-back probability must be a number, got {p_b2b!r}")
    if isinstance(p_b2b, float):
        if not math.isfinite(p_b2b):
            raise BusModelError(f"back-to-back probability must be finite, got {p_b2b!r}")
        p = Fraction(repr(p_b2b))
    else:
        p = Fraction(p_b2b)
    if not 0 <= p < 1:
        raise BusModelError(f"back-to-back probability must satisfy 0 <= P < 1, got {p_b2b!r}")
    return p


# --- building blocks --------------------------------------------------------------


def max_b2b_probability(commands: int) -> Fraction:
    """The largest meaningful back-to-back probability for ``commands`` transfers.

    Every command but the first can overlap its predecessor: P = (n - 1) / n. The
    paper states this range for each of its models (Sec. 5.1); Table IV is
    evaluated at it.
    """
    n = _count("commands", commands)
    return Fraction(n - 1, n)


def command_overhead(bus: Bus, commands: int, p_b2b: Probability | None = None) -> float:
    """Cycles spent on ``commands`` commands outside the data beats: ``(C - 2P) * n``.

    ``C`` is 4 on AXI and 2 on ASBUS; 2 cycles of each command hide under the
    previous transfer when it is back to back (probability ``p_b2b``).
    """
    return float(_overhead(_bus(bus), _count("commands", commands), p_b2b))


def _overhead(bus: Bus, commands: int, p_b2b: Probability | None) -> Fraction:
    p = _probability(p_b2b, commands)
    return (_COMMAND_CYCLES[bus] - OVERLAP_CYCLES * p) * commands


def beats_per_state(width: int) -> int:
    """Bus beats that carry one 128-bit AES state: 4 / 2 / 1 at 32 / 64 / 128 bits."""
    return STATE_BITS // _width(width)


def aes_latency_cycles(width: int, rounds: int = AES_ROUNDS) -> int:
    """Engine cycles for one state: ``rounds * c_W`` (c_W = 5 / 3 / 2; 50 / 30 / 20 cycles)."""
    return _rounds(rounds) * CYCLES_PER_ROUND[_width(width)]


# --- number of commands (burst splitting) -------------------------------------------


def axi_linear_commands(beats: int, burst_limit: int = AXI3_BURST_LIMIT) -> int:
    """AXI bursts for ``beats`` contiguous beats: ``ceil(N_L / XS)``."""
    xs = _count("AXI burst limit XS", burst_limit, AXI4_BURST_LIMIT)
    return math.ceil(_count("beats", beats) / xs)


def asbus_linear_commands(beats: int, burst_limit: int = ASBUS_LINEAR_LIMIT) -> int:
    """ASBUS linear commands for ``beats`` beats: ``ceil(N_L / AS)``."""
    as_ = _count("ASBUS linear limit AS", burst_limit, ASBUS_LINEAR_LIMIT)
    return math.ceil(_count("beats", beats) / as_)


def axi_block_commands(rows: int, words_per_row: int, burst_limit: int = AXI3_BURST_LIMIT) -> int:
    """AXI bursts for a block: every row on its own, ``N_H * ceil(N_W / XS)``."""
    xs = _count("AXI burst limit XS", burst_limit, AXI4_BURST_LIMIT)
    return _count("rows", rows) * math.ceil(_count("words per row", words_per_row) / xs)


def asbus_block_commands(
    rows: int,
    words_per_row: int,
    max_rows: int = ASBUS_BLOCK_HEIGHT_LIMIT,
    max_words: int = ASBUS_BLOCK_WIDTH_LIMIT,
) -> int:
    """ASBUS block commands: ``ceil(N_H / AH) * ceil(N_W / AW)``.

    One command moves up to ``AH`` rows of up to ``AW`` words (LEN[5:0], LEN[9:6]);
    a larger block is tiled into several commands.
    """
    ah = _count("ASBUS block height limit AH", max_rows, ASBUS_BLOCK_HEIGHT_LIMIT)
    aw = _count("ASBUS block width limit AW", max_words, ASBUS_BLOCK_WIDTH_LIMIT)
    tall = math.ceil(_count("rows", rows) / ah)
    return tall * math.ceil(_count("words per row", words_per_row) / aw)


def asbus_state_commands(states: int, max_states: int = ASBUS_STATE_LIMIT) -> int:
    """ASBUS state-transfer commands for ``states`` AES states: ``ceil(N_E / max)``."""
    limit = _count("ASBUS state limit", max_states, ASBUS_STATE_LIMIT)
    return math.ceil(_count("states", states) / limit)


# --- Table I: linear --------------------------------------------------------------


def axi_linear_cycles(
    beats: int, *, burst_limit: int = AXI3_BURST_LIMIT, p_b2b: Probability | None = None
) -> float:
    """AXI linear transfer: ``(4 - 2P) * ceil(N_L / XS) + N_L`` (Table I, eq. 10)."""
    n = axi_linear_commands(beats, burst_limit)
    return float(_overhead("axi", n, p_b2b) + beats)


def asbus_linear_cycles(
    beats: int, *, burst_limit: int = ASBUS_LINEAR_LIMIT, p_b2b: Probability | None = None
) -> float:
    """ASBUS linear transfer: ``(2 - 2P) * ceil(N_L / AS) + N_L`` (Table I, eq. 11)."""
    n = asbus_linear_commands(beats, burst_limit)
    return float(_overhead("asbus", n, p_b2b) + beats)


# --- Table I: block ---------------------------------------------------------------


def axi_block_cycles(
    rows: int,
    words_per_row: int,
    *,
    burst_limit: int = AXI3_BURST_LIMIT,
    p_b2b: Probability | None = None,
) -> float:
    """AXI block of ``N_H`` rows of ``N_W`` beats, one burst (or more) per row.

    ``(4 - 2P) * N_H * ceil(N_W / XS) + N_H * N_W`` (Table I, eq. 12).
    """
    n = axi_block_commands(rows, words_per_row, burst_limit)
    return float(_overhead("axi", n, p_b2b) + rows * words_per_row)


def asbus_block_cycles(
    rows: int,
    words_per_row: int,
    *,
    max_rows: int = ASBUS_BLOCK_HEIGHT_LIMIT,
    max_words: int = ASBUS_BLOCK_WIDTH_LIMIT,
    p_b2b: Probability | None = None,
) -> float:
    """ASBUS block: one command per ``AH x AW`` tile, the slave computes each row address.

    ``(2 - 2P) * ceil(N_H / AH) * ceil(N_W / AW) + N_H * N_W`` (Table I, eq. 13).
    """
    n = asbus_block_commands(rows, words_per_row, max_rows, max_words)
    return float(_overhead("asbus", n, p_b2b) + rows * words_per_row)


# --- Table I: cipher --------------------------------------------------------------


def _cipher(
    bus: Bus, commands: int, states: int, width: int, rounds: int, p_b2b: Probability | None
) -> Fraction:
    """Commands (always back to back) + data beats + the engine latency left exposed.

    Sec. 5.1 assumes "all the transfers are back-to-back" for the cipher tests, so the
    command overhead is taken at its largest P; ``p_b2b`` is the chance that a state's
    ``rounds * c_W`` engine cycles hide under the next state's transfer.
    """
    command = _overhead(bus, commands, None)
    data = states * beats_per_state(width)
    exposed = aes_latency_cycles(width, rounds) * states * (1 - _probability(p_b2b, states))
    return command + data + exposed


def axi_cipher_cycles(
    states: int, width: int, *, rounds: int = AES_ROUNDS, p_b2b: Probability | None = None
) -> float:
    """AXI cipher test: ``N_E`` states, one AXI burst of ``128 / W`` beats per state.

    ``2 + 2 N_E + N_E * 128/W + N_E * 10 c_W * (1 - P)``, which is Table I's
    ``2 + 2N_E(28 - 25P)``, ``2 + 2N_E(17 - 15P)``, ``2 + N_E(23 - 20P)`` for
    32 / 64 / 128 bits (eqs. 14-16).
    """
    n = _count("states", states)
    return float(_cipher("axi", n, n, width, rounds, p_b2b))


def asbus_cipher_cycles(
    states: int,
    width: int,
    *,
    max_states: int = ASBUS_STATE_LIMIT,
    rounds: int = AES_ROUNDS,
    p_b2b: Probability | None = None,
) -> float:
    """ASBUS cipher test: one state-transfer command (per ``max_states`` states).

    ``2 + N_E * 128/W + N_E * 10 c_W * (1 - P)``, which is Table I's
    ``2 + 2N_E(27 - 25P)``, ``2 + 2N_E(16 - 15P)``, ``2 + N_E(21 - 20P)`` (eqs. 17-19).
    """
    n = asbus_state_commands(states, max_states)
    return float(_cipher("asbus", n, states, width, rounds, p_b2b))


# --- by bus name --------------------------------------------------------------------


def linear_cycles(bus: Bus, beats: int, *, p_b2b: Probability | None = None) -> float:
    """:func:`axi_linear_cycles` or :func:`asbus_linear_cycles` with default limits."""
    if _bus(bus) == "axi":
        return axi_linear_cycles(beats, p_b2b=p_b2b)
    return asbus_linear_cycles(beats, p_b2b=p_b2b)


def block_cycles(
    bus: Bus, rows: int, words_per_row: int, *, p_b2b: Probability | None = None
) -> float:
    """:func:`axi_block_cycles` or :func:`asbus_block_cycles` with default limits."""
    if _bus(bus) == "axi":
        return axi_block_cycles(rows, words_per_row, p_b2b=p_b2b)
    return asbus_block_cycles(rows, words_per_row, p_b2b=p_b2b)


def cipher_cycles(bus: Bus, states: int, width: int, *, p_b2b: Probability | None = None) -> float:
    """:func:`axi_cipher_cycles` or :func:`asbus_cipher_cycles` with default limits."""
    if _bus(bus) == "axi":
        return axi_cipher_cycles(states, width, p_b2b=p_b2b)
    return asbus_cipher_cycles(states, width, p_b2b=p_b2b)
