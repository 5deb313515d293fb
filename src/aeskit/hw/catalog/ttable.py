"""The T-table cores of paper 004 (Deshpande & Leelavathi, after Drimer, Gueneysu and
Paar) in hw/cores/ttable: the iterative column module, the round module and the
unrolled pipeline. See docs/cores/ttable.md."""

from __future__ import annotations

from aeskit.hw.catalog.memory_primitives import RK_FILL_SETUP
from aeskit.hw.registry import CoreSpec, configuration

ORDER = 40

PAPER = "004 Deshpande/Drimer"

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="ttable_col",
        top="ak_ttable_col",
        description="Paper 004 basic module: one eight-stage T-table column pipeline "
                    "(2 dual-port T-table ROMs, LUT XOR cascade) with feedback, one column "
                    "per cycle, two blocks interleaved; round keys in LUT RAM",
        paper=PAPER,
        sbox="ttable-ram",
        latency={128: 85, 192: 101, 256: 117},
        interval={128: 40, 192: 48, 256: 56},
        key_setup=dict(RK_FILL_SETUP),
        in_flight=2,
    ),
)

#: cycles the output buffer (ak_pipe_outbuf) adds to the unrolled pipeline's latency
OUTBUF_CYCLES = 2


def outbuf_depth(latency: int) -> int:
    """Entries of the unrolled cores' output buffer: the power of two >= latency."""
    return 1 << (latency - 1).bit_length()


#: middle-round stages with packed T-table words (ak_ttable_unrolled's PackedStages
#: default) per KeyLen: AES-256 with 32-bit words everywhere needs 220 DP16KD of 208
PACKED_STAGES: tuple[int, ...] = (0, 0, 2)


def unrolled_ebr(key_len: int, decrypt: bool = True) -> int:
    """DP16KD of an unrolled core: 16 a 32-bit middle stage, 8 a packed one, 8 for the
    last stage, 4 for the output buffer. Encrypt only (``decrypt`` False): every
    middle stage packed (ak_ttable_unrolled's default with one direction)."""
    nr = 10 + 2 * key_len
    packed = PACKED_STAGES[key_len] if decrypt else nr - 1
    return 16 * (nr - 1 - packed) + 8 * packed + 8 + 4


def _unrolled(name: str, key_len: int, decrypt: bool = True) -> CoreSpec:
    ks = (128, 192, 256)[key_len]
    nr = 10 + 2 * key_len
    ebr = unrolled_ebr(key_len, decrypt)
    packed = PACKED_STAGES[key_len] if decrypt else nr - 1
    words = (f"{packed} packed middle-round stages (17-bit T-table words), the others "
             "32-bit" if packed else "32-bit T-table words")
    if not decrypt:
        words = "every middle-round stage packed"
    return CoreSpec(
        name=name,
        top="ak_ttable_unrolled",
        description=f"Paper 004 unrolled: {nr} T-table round stages (4 lanes each, "
                    f"{8 * nr}-stage pipeline), one block per cycle, AES-{ks} only "
                    "(KeyLen build parameter), " +
                    ("encryption and decryption per block; " if decrypt else
                     "encryption only (Directions = 1: no decryption tables or round "
                     "keys, T-table words of 16 bits, {02}s and s); ") +
                    f"{words} ({ebr} DP16KD); round keys in registers, no stall "
                    "(credit-based output buffer)",
        paper=PAPER,
        key_sizes=(ks,),
        decrypt=decrypt,
        sbox="ttable-ram",
        parameters={"KeyLen": key_len} if decrypt else {"KeyLen": key_len, "Directions": 1},
        latency={ks: 8 * nr + 1 + OUTBUF_CYCLES},
        interval={ks: 1},
        key_setup={ks: RK_FILL_SETUP[ks]},
        in_flight=outbuf_depth(8 * nr + 1 + OUTBUF_CYCLES),
        # ~20k FF: router1 was still congested after 45 minutes on the AES-128
        # build (packed words then), router2 routes it (docs/cores/ttable.md)
        router="router2",
        # the block RAMs pinned in name order over the EBR rows (a round's next to
        # each other, the rounds in a serpentine): HeAP alone split lanes and rounds
        # across rows (docs/synthesis.md). With 32-bit words all four rows: on
        # AES-128 (156 RAMs) seeds 1-3 gave 127.7 / 121.8 / 117.7 MHz against
        # 118.3 / 118.0 / 121.5 on three full rows (docs/cores/ttable.md)
        ram_rows=(22, 46, 70, 82),
    )


CORES = CORES + (
    CoreSpec(
        name="ttable_round",
        top="ak_ttable_round",
        description="Paper 004 round module: four eight-stage T-table lanes (one full "
                    "round) with feedback, eight blocks in flight; round keys in LUT RAM",
        paper=PAPER,
        sbox="ttable-ram",
        latency={128: 82, 192: 98, 256: 114},
        interval={128: 10, 192: 12, 256: 14},
        key_setup=dict(RK_FILL_SETUP),
        in_flight=8,
    ),
    _unrolled("ttable_unrolled", 0),
    _unrolled("ttable_unrolled_192", 1),
    _unrolled("ttable_unrolled_256", 2),
    # the encrypt-only AES-128 configuration (docs/core-contract.md "Configurations"):
    # KeyLen fixes the key size already; Directions = 1 halves the middle stages' RAMs
    _unrolled("ttable_unrolled_e128", 0, decrypt=False),
)

#: configurations of the iterative cores (docs/core-contract.md, "Configurations"):
#: encrypt-only AES-128 and both directions with AES-128 only
_BY_NAME = {c.name: c for c in CORES}
CORES += tuple(
    configuration(_BY_NAME[base], key_sizes=(128,), decrypt=dec)
    for base in ("ttable_col", "ttable_round") for dec in (False, True)
)
