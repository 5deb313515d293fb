"""The compact class (issue 50, hw/cores/compact): cores for the smallest FPGAs.

``compact32`` works on one 32-bit column per cycle (4 S-boxes, one MixColumns), four
cycles per round plus the initial AddRoundKey, with the round keys generated one word
per cycle (forward for encryption, backward from the window the key setup keeps for
decryption). ``compact8`` is byte-serial: one S-box shared by the datapath and the
key schedule, one byte through it per cycle, 32 cycles per pass (16 key bytes, 16
state bytes), round keys one byte per cycle on the fly; ``compact8_bram`` holds its
S-box in one 512 x 8 block-RAM ROM. docs/cores/compact.md.
"""

from __future__ import annotations

from aeskit.hw.catalog.sboxes import SBOX_IMPL
from aeskit.hw.registry import CoreSpec, configuration

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

#: the same core with one shared S-box per row instead of a SubBytes and an InvSubBytes
#: table: the composite-field S-box of paper 000 (ak_sbox_comp_encdec, dec_i the block's
#: direction), the smallest of the three shared forms here (Yosys, 29 Nov 2026: comp
#: 3,167 LUT4, canright 3,339, lutinv 4,318; tables 3,918)
CORES = CORES + (
    CoreSpec(
        name="compact32_comp",
        top="ak_compact32_core",
        description="Compact core with 4 shared composite-field S-boxes (SubBytes and "
                    "InvSubBytes, paper 000's form) instead of 4 + 4 tables",
        paper="compact class (issue 50)",
        sbox="comp",
        parameters={"SboxImpl": SBOX_IMPL["comp"]},
        latency={128: 44, 192: 52, 256: 60},
        interval={128: 44, 192: 52, 256: 60},
        key_setup={128: 45, 192: 53, 256: 61},
    ),
)

#: configurations (docs/core-contract.md, "Configurations"): encrypt-only AES-128 (no
#: InvSubBytes tables, no backward key schedule, a 128-bit key register) and both
#: directions with AES-128 only
CORES = CORES + (
    configuration(CORES[0], key_sizes=(128,), decrypt=False),
    configuration(CORES[0], key_sizes=(128,)),
)

#: the same core with its S-boxes in block RAM (SboxImpl 4): the datapath's four lookups
#: and the key schedule's SubWord in four dual-port ROMs (ak_sbox_rom2, SubBytes and
#: InvSubBytes in each), read by the registers that feed the table S-boxes otherwise, so
#: the cycle counts do not change; 4 ECP5 DP16KD, 8 iCE40 SB_RAM40_4K
COMPACT32_BRAM = CoreSpec(
    name="compact32_bram",
    top="ak_compact32_core",
    description="Compact core with its 8 S-box lookups (datapath and SubWord) in 4 "
                "dual-port block-RAM ROMs instead of LUTs",
    paper="compact class (issue 50)",
    sbox="bram",
    parameters={"SboxImpl": 4},
    latency={128: 44, 192: 52, 256: 60},
    interval={128: 44, 192: 52, 256: 60},
    key_setup={128: 45, 192: 53, 256: 61},
)
CORES = CORES + (
    COMPACT32_BRAM,
    configuration(COMPACT32_BRAM, key_sizes=(128,), decrypt=False),
)

#: compact8 (byte-serial, one S-box): Nr + 1 passes of 32 cycles plus one, key setup one
#: key byte per cycle (16(Nr+1)) plus one
_C8_CYCLES = {128: 353, 192: 417, 256: 481}
_C8_SETUP = {128: 177, 192: 209, 256: 241}

#: the block-RAM S-box of compact8 (SboxImpl 4: port A of ak_sbox_rom2, {dec, byte})
COMPACT8_SBOX_ROM = 4

_COMPACT8 = (
    CoreSpec(
        name="compact8",
        top="ak_compact8_core",
        description="Compact core, byte-serial: one S-box (tables) shared by the datapath "
                    "and the key schedule, one byte per cycle, byte-serial on-the-fly key "
                    "schedule forward and backward",
        paper="compact class (issue 50)",
        latency=dict(_C8_CYCLES),
        interval=dict(_C8_CYCLES),
        key_setup=dict(_C8_SETUP),
    ),
    CoreSpec(
        name="compact8_bram",
        top="ak_compact8_core",
        description="Compact core, byte-serial, its one S-box a 512 x 8 block-RAM ROM "
                    "(SubBytes and InvSubBytes, one port of ak_sbox_rom2)",
        paper="compact class (issue 50)",
        sbox="bram",
        parameters={"SboxImpl": COMPACT8_SBOX_ROM},
        latency=dict(_C8_CYCLES),
        interval=dict(_C8_CYCLES),
        key_setup=dict(_C8_SETUP),
    ),
)

#: compact8's encrypt-only AES-128 configurations (no InvSubBytes table or ROM half,
#: no backward taps, no last_q, a 16-byte key window)
CORES = CORES + _COMPACT8 + (
    configuration(_COMPACT8[0], key_sizes=(128,), decrypt=False),
    configuration(_COMPACT8[1], key_sizes=(128,), decrypt=False),
)

#: compact8r (issue 50's area targets): byte-serial, encryption and AES-128 only, the
#: state, the cipher key and the round key in one 64 x 8 block RAM, the S-box a block-RAM
#: ROM (port A of ak_sbox_rom2): 11 passes of 64 cycles, the result at step 700 plus one
#: (latency and interval 702); the key is staged in the RAM before its handshake (16
#: cycles while key_valid_i is high), then copied to the key area: key setup 18
CORES = CORES + (
    CoreSpec(
        name="compact8r_e128",
        top="ak_compact8r_core",
        description="Compact core, byte-serial, encryption and AES-128 only: state, cipher "
                    "key and round key in one 64 x 8 block RAM, one block-RAM S-box "
                    "(ak_sbox_rom2), a 4-byte column accumulator and key word",
        paper="compact class (issue 50)",
        key_sizes=(128,),
        decrypt=False,
        sbox="bram",
        parameters={"Directions": 1, "KeySizes": 1},
        latency={128: 702},
        interval={128: 702},
        key_setup={128: 18},
    ),
)
