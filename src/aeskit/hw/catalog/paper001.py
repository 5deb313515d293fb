"""Paper 001 (Lin, Huang): the two-stage pipelined core ``pipe2`` (hw/cores/pipe2).
See docs/cores/pipe2.md."""

from __future__ import annotations

from aeskit.hw.registry import CoreSpec, configuration

ORDER = 15

PAPER = "001 Lin/Huang"

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="pipe2",
        top="ak_pipe2_core",
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

#: the encrypt-only AES-128 configuration (docs/core-contract.md "Configurations")
CORES = CORES + (configuration(CORES[0], key_sizes=(128,), decrypt=False),)
