"""The reference core ``round`` (hw/cores/round)."""

from __future__ import annotations

from aeskit.hw.catalog.primitives import PRIM
from aeskit.hw.registry import CoreSpec

ORDER = 10

_ROUND_FILES: tuple[str, ...] = (
    PRIM + "ak_sbox.sv",
    PRIM + "ak_inv_sbox.sv",
    PRIM + "ak_sub_word.sv",
    PRIM + "ak_xtime.sv",
    PRIM + "ak_mix_column.sv",
    PRIM + "ak_inv_mix_column.sv",
    PRIM + "ak_key_step.sv",
    "cores/round/ak_round_core.sv",
)

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="round",
        top="ak_round_core",
        files=_ROUND_FILES,
        description="Reference core: one round per cycle, 16 table S-boxes plus 16 inverse, "
                    "on-the-fly key schedule forward and backward",
        paper="reference (FIPS-197)",
        latency={128: 10, 192: 12, 256: 14},
        interval={128: 10, 192: 12, 256: 14},
        key_setup={128: 11, 192: 13, 256: 15},
    ),
)


