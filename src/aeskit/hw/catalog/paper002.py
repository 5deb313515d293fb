"""Paper 002 (Ueno, Morioka, Homma, Aoki, CHES 2016): the unified round-based
encryption/decryption datapath ``ueno`` and the conventional datapaths it is compared
with in the paper's Section 2 and Tables 1-2 (hw/cores/ueno, satoh, lutz, liu).

All four share ak_round_ctrl (handshakes, counter, on-the-fly key schedule with the
decryption start key computed once per key load), so the comparison measures the
datapaths. Theory, timing and what each baseline follows: docs/cores/paper002.md.
"""

from __future__ import annotations

from aeskit.hw.catalog.primitives import PRIM
from aeskit.hw.registry import CoreSpec

ORDER = 20

PAPER = "002 Ueno et al."

#: the shared control and key schedule
CTRL_FILES: tuple[str, ...] = (
    PRIM + "ak_sbox.sv",
    PRIM + "ak_sub_word.sv",
    PRIM + "ak_xtime.sv",
    PRIM + "ak_key_step.sv",
    "cores/round/ak_round_ctrl.sv",
)


def _cycles(extra: int) -> dict[int, int]:
    return {128: 10 + extra, 192: 12 + extra, 256: 14 + extra}


#: key setup of ak_round_ctrl: Nr forward steps after the handshake cycle
KEY_SETUP = _cycles(1)

UENO_FILES: tuple[str, ...] = (
    *CTRL_FILES,
    PRIM + "ak_ueno_iso.sv",
    PRIM + "ak_ueno_iso_inv.sv",
    PRIM + "ak_ueno_affine.sv",
    PRIM + "ak_nb_inv.sv",
    PRIM + "ak_ueno_enc_column.sv",
    PRIM + "ak_ueno_dec_column.sv",
    "cores/ueno/ak_ueno_round.sv",
    "cores/ueno/ak_ueno_core.sv",
)

#: the conventional unified datapaths share the S-box (normal-basis tower inversion,
#: Canright-style merged maps) and the MixColumns/InvMixColumns unification
UNIFIED_FILES: tuple[str, ...] = (
    *CTRL_FILES,
    PRIM + "ak_nb_inv.sv",
    PRIM + "ak_sbox_canright_encdec.sv",
    PRIM + "ak_mix_column.sv",
    "cores/ueno/ak_p002_mix_column_encdec.sv",
)

SATOH_FILES: tuple[str, ...] = (
    *UNIFIED_FILES,
    PRIM + "ak_inv_mix_column.sv",
    "cores/satoh/ak_satoh_core.sv",
)

LIU_FILES: tuple[str, ...] = (*UNIFIED_FILES, "cores/liu/ak_liu_core.sv")

LUTZ_FILES: tuple[str, ...] = (
    *CTRL_FILES,
    PRIM + "ak_gf_inv.sv",
    PRIM + "ak_affine.sv",
    PRIM + "ak_inv_affine.sv",
    PRIM + "ak_mix_column.sv",
    PRIM + "ak_inv_mix_column.sv",
    "cores/lutz/ak_lutz_core.sv",
)

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="ueno",
        top="ak_ueno_core",
        files=UENO_FILES,
        description="Paper 002 unified enc/dec round datapath: shared tower-field inversion "
                    "at the start of the round, unified affine U0..U3 / V0..V3, one 128-bit "
                    "4:1 multiplexer, isomorphisms only in the pre-/post-round datapaths",
        paper=PAPER,
        sbox="tower-nb",
        latency=_cycles(1),
        interval=_cycles(1),
        key_setup=KEY_SETUP,
    ),
    CoreSpec(
        name="ueno_mux",
        top="ak_ueno_core",
        files=UENO_FILES,
        description="ueno with output multiplexers instead of the 1:2 demultiplexer and "
                    "bit-parallel XORs (FPGA variant, Demux = 0): on LUT4s the AND gating "
                    "widens every leaf of the unified-affine XOR trees",
        paper=PAPER,
        sbox="tower-nb",
        parameters={"Demux": 0},
        latency=_cycles(1),
        interval=_cycles(1),
        key_setup=KEY_SETUP,
    ),
    CoreSpec(
        name="satoh",
        top="ak_satoh_core",
        files=SATOH_FILES,
        description="Paper 002 baseline, Satoh et al. [29]: each function unified with its "
                    "inverse (muxed S-box maps around one tower inversion, shared "
                    "MixColumns), decryption reordered with InvMixColumns on the round key",
        paper=PAPER,
        sbox="tower-nb",
        latency=_cycles(1),
        interval=_cycles(1),
        key_setup=KEY_SETUP,
    ),
    CoreSpec(
        name="lutz",
        top="ak_lutz_core",
        files=LUTZ_FILES,
        description="Paper 002 baseline, Lutz et al. [15]: separate encryption and "
                    "decryption paths around one shared table-lookup inversion, three "
                    "multiplexers, register after InvMixColumns, 10 cycles per block",
        paper=PAPER,
        sbox="lutinv",
        latency=_cycles(0),
        interval=_cycles(0),
        key_setup=KEY_SETUP,
    ),
    CoreSpec(
        name="liu",
        top="ak_liu_core",
        files=LIU_FILES,
        description="Paper 002 baseline, Liu et al. [14]: unified functions as Satoh's but "
                    "AddRoundKey not moved past InvMixColumns, so a selector places the "
                    "round key before or after the shared (Inv)MixColumns",
        paper=PAPER,
        sbox="tower-nb",
        latency=_cycles(1),
        interval=_cycles(1),
        key_setup=KEY_SETUP,
    ),
)
