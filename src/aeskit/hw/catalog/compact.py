"""The compact class (issue 50, hw/cores/compact): cores for the smallest FPGAs.

``compact32`` works on one 32-bit column per cycle (4 S-boxes, one MixColumns), four
cycles per round plus the initial AddRoundKey, with the round keys generated one word
per cycle (forward for encryption, backward from the window the key setup keeps for
decryption). docs/cores/compact.md.
"""

from __future__ import annotations

from aeskit.hw.catalog.sboxes import SBOX_IMPL
from aeskit.hw.registry import CoreSpec

ORDER = 45

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="compact32",
        top="ak_compact32_core",
        description="Compact core: 32-bit datapath, one column per cycle (4 table S-boxes "
                    "plus 4 inverse, one MixColumns), word-serial on-the-fly key schedule "
                    "forward and backward",
        paper="compact class (issue 50)",
        latency={128: 44, 192: 52, 256: 60},
        interval={128: 44, 192: 52, 256: 60},
        key_setup={128: 45, 192: 53, 256: 61},
    ),
)

#: the same core with one shared S-box per row (ak_sbox_lutinv_encdec, dec_i the block's
#: direction) instead of a SubBytes and an InvSubBytes table: 4 S-boxes, not 8
CORES = CORES + (
    CoreSpec(
        name="compact32_lutinv",
        top="ak_compact32_core",
        description="Compact core with 4 shared LUT-inverter S-boxes (SubBytes and "
                    "InvSubBytes, paper 001's form) instead of 4 + 4 tables",
        paper="compact class (issue 50)",
        sbox="lutinv",
        parameters={"SboxImpl": SBOX_IMPL["lutinv"]},
        latency={128: 44, 192: 52, 256: 60},
        interval={128: 44, 192: 52, 256: 60},
        key_setup={128: 45, 192: 53, 256: 61},
    ),
)
