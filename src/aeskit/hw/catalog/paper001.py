"""Paper 001 (Lin, Huang): the two-stage pipelined core ``pipe2`` (hw/cores/pipe2).
See docs/cores/pipe2.md."""

from __future__ import annotations

from aeskit.hw.catalog.primitives import PRIM
from aeskit.hw.registry import CoreSpec

ORDER = 15

PAPER = "001 Lin/Huang"

PIPE2_FILES: tuple[str, ...] = (
    PRIM + "ak_gf_inv.sv",
    PRIM + "ak_affine.sv",
    PRIM + "ak_inv_affine.sv",
    PRIM + "ak_affine_mix_column.sv",
    PRIM + "ak_xtime.sv",
    PRIM + "ak_mix_column.sv",
    PRIM + "ak_inv_mix_column.sv",
    PRIM + "ak_sbox.sv",
    PRIM + "ak_sub_word.sv",
    PRIM + "ak_key_step.sv",
    "cores/pipe2/ak_pipe2_core.sv",
)

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="pipe2",
        top="ak_pipe2_core",
        files=PIPE2_FILES,
        description="Paper 001: one round cut into two pipeline stages at the output of "
                    "16 shared LUT GF(2^8) inverters (InvAffine retimed out of the round, "
                    "Affine merged with MixColumns), two blocks in flight, pipelined "
                    "on-the-fly key generator",
        paper=PAPER,
        sbox="lutinv",
        latency={128: 20, 192: 24, 256: 28},
        interval={128: 10, 192: 12, 256: 14},
        key_setup={128: 11, 192: 13, 256: 15},
        in_flight=2,
    ),
)
