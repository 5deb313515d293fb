"""Paper 002 (Ueno, Morioka, Homma, Aoki, CHES 2016): the unified round-based
encryption/decryption datapath ``ueno`` and the conventional datapaths it is compared
with in the paper's Section 2 and Tables 1-2 (hw/cores/ueno, satoh, lutz, liu).

All four share ak_p002_ctrl (handshakes, counter, on-the-fly key schedule with the
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
    "cores/ueno/ak_p002_ctrl.sv",
)


def _cycles(extra: int) -> dict[int, int]:
    return {128: 10 + extra, 192: 12 + extra, 256: 14 + extra}


#: key setup of ak_p002_ctrl: Nr forward steps after the handshake cycle
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
)
