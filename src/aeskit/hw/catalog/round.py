"""The reference core ``round`` (hw/cores/round)."""

from __future__ import annotations

from aeskit.hw.catalog.sboxes import SBOX_IMPL
from aeskit.hw.registry import CoreSpec, configuration

ORDER = 10

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="round",
        top="ak_round_core",
        description="Reference core: one round per cycle, 16 table S-boxes plus 16 inverse, "
                    "on-the-fly key schedule forward and backward",
        paper="reference (FIPS-197)",
        latency={128: 10, 192: 12, 256: 14},
        interval={128: 10, 192: 12, 256: 14},
        key_setup={128: 11, 192: 13, 256: 15},
    ),
)

#: the same core with each S-box implementation of ak_sbox_sel (parameter SboxImpl)
_VARIANT_TEXT = {
    "comp": "composite-field GF(((2^2)^2)^2) S-boxes (paper 000)",
    "canright": "normal-basis tower S-boxes (Canright style)",
    "lutinv": "LUT-inverter + affine S-boxes (paper 001)",
}

CORES = CORES + tuple(
    CoreSpec(
        name=f"round_{kind}",
        top="ak_round_core",
        description=f"Reference core with {text} instead of tables",
        paper="reference (FIPS-197)",
        sbox=kind,
        parameters={"SboxImpl": SBOX_IMPL[kind]},
        latency={128: 10, 192: 12, 256: 14},
        interval={128: 10, 192: 12, 256: 14},
        key_setup={128: 11, 192: 13, 256: 15},
    )
    for kind, text in _VARIANT_TEXT.items()
)

#: configurations of the reference core (docs/core-contract.md, "Configurations"):
#: encrypt-only AES-128 (the smallest), encrypt-only with every key size (CTR, GCM,
#: CFB, OFB, CMAC need no decryption), and both directions with AES-128 only; and the
#: encrypt-only AES-128 build with composite-field S-boxes (the fewest LUT4 of the
#: S-box variants in that build: issue 48's Mbit/s per LUT4)
CORES = CORES + (
    configuration(CORES[0], key_sizes=(128,), decrypt=False),
    configuration(CORES[0], decrypt=False),
    configuration(CORES[0], key_sizes=(128,)),
    configuration(CORES[1], key_sizes=(128,), decrypt=False),
)
