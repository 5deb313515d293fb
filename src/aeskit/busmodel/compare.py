"""ASBUS against AXI for the same workload: cycle ratios and valid-data bandwidth ratios.

A *cycle ratio* is ASBUS cycles / AXI cycles (below 1 when ASBUS is faster); the paper
quotes it in percent (Sec. 5.2, Sec. 7). At the same clock and for the same payload the
*valid-data bandwidth ratio* (Sec. 7: "valid data without protocol overhead that can be
transferred in one cycle") is its inverse, AXI cycles / ASBUS cycles.

``p_b2b`` is applied to both buses; ``None`` puts each bus at its own largest
back-to-back probability (n - 1) / n, as in Table IV.
"""

from __future__ import annotations

from aeskit.busmodel.latency import (
    Probability,
    asbus_block_cycles,
    asbus_cipher_cycles,
    asbus_linear_cycles,
    axi_block_cycles,
    axi_cipher_cycles,
    axi_linear_cycles,
)

__all__ = [
    "bandwidth_ratio",
    "block_ratio",
    "cipher_ratio",
    "linear_ratio",
]


def linear_ratio(beats: int, p_b2b: Probability | None = None) -> float:
    """ASBUS / AXI cycles of a linear transfer of ``beats`` beats (default limits)."""
    return asbus_linear_cycles(beats, p_b2b=p_b2b) / axi_linear_cycles(beats, p_b2b=p_b2b)


def block_ratio(rows: int, words_per_row: int, p_b2b: Probability | None = None) -> float:
    """ASBUS / AXI cycles of a ``rows`` x ``words_per_row`` block (default limits)."""
    asbus = asbus_block_cycles(rows, words_per_row, p_b2b=p_b2b)
    return asbus / axi_block_cycles(rows, words_per_row, p_b2b=p_b2b)


def cipher_ratio(states: int, width: int, p_b2b: Probability | None = None) -> float:
    """ASBUS / AXI cycles of a cipher test of ``states`` AES states on a ``width``-bit bus."""
    asbus = asbus_cipher_cycles(states, width, p_b2b=p_b2b)
    return asbus / axi_cipher_cycles(states, width, p_b2b=p_b2b)


def bandwidth_ratio(cycle_ratio: float) -> float:
    """Valid-data bandwidth of ASBUS over AXI for a given ASBUS/AXI cycle ratio.

    Same payload, same clock: bandwidth is payload / time, so the ratio inverts.
    """
    if not cycle_ratio > 0:
        raise ValueError(f"cycle ratio must be > 0, got {cycle_ratio!r}")
    return 1.0 / cycle_ratio
