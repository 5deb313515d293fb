"""The synthesis flow's pin stand-in for devices whose nextpnr has no out-of-context
mode (iCE40, Nexus; aeskit.synth.shim, docs/synthesis.md)."""

from __future__ import annotations

from aeskit.hw.registry import PrimitiveSpec

ORDER = 9

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("io_shim", "flow", "ak_io_shim",
                  "Pin stand-in for place and route without out-of-context mode: an "
                  "InWidth-bit shift register drives a design's inputs, the XOR of its "
                  "OutWidth output bits is one pin"),
)
