"""The memory-based cores of paper 003 (Chaves et al., "Reconfigurable Memory Based
AES Co-Processor"): T-box block RAMs (S-box x MixColumns coefficients, both
directions in one RAM), folded and unfolded (hw/cores/tbox), and their configurations
(docs/core-contract.md, "Configurations")."""

from __future__ import annotations

from aeskit.hw.catalog.memory_primitives import RK_FILL_SETUP
from aeskit.hw.registry import CoreSpec, configuration

ORDER = 30

PAPER = "003 Chaves et al."

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="tbox_folded",
        top="ak_tbox_folded",
        description="Folded memory-based core: one round per cycle on 8 dual-port T-box "
                    "RAMs (S-box x MixColumns, enc+dec), round keys in a RAM bank "
                    "addressed by {decrypt, round}",
        paper=PAPER,
        sbox="tbox-ram",
        latency={128: 10, 192: 12, 256: 14},
        interval={128: 10, 192: 12, 256: 14},
        key_setup=dict(RK_FILL_SETUP),
        in_flight=1,
        # the 24 block RAMs pinned in name order to the two nearest EBR rows (12 a
        # row): the round loop runs RAM -> lane XORs -> next RAM address in one cycle,
        # so every RAM is on it; seeds 1-3 71.6 / 69.3 / 69.1 MHz placed by HeAP,
        # 82.1 / 81.6 / 79.1 pinned (docs/cores/tbox.md)
        ram_rows=(70, 82),
    ),
)

CORES += (
    CoreSpec(
        name="tbox_unfolded",
        top="ak_tbox_unfolded",
        description="Unfolded memory-based core: one T-box round unit per round (8 dual-port "
                    "RAMs each), RAM outputs as inter-round registers, 1 block/cycle, no stall "
                    "(credit-based output buffer); built for AES-128 (NrMax = 10)",
        paper=PAPER,
        key_sizes=(128,),
        sbox="tbox-ram",
        parameters={"IntraPipe": 0, "NrMax": 10},
        latency={128: 12},
        interval={128: 1},
        key_setup={128: RK_FILL_SETUP[128]},
        in_flight=16,
        # the 160 block RAMs pinned in name order over the four EBR rows (40 a row,
        # the rounds in a serpentine): seeds 1-3 39.8 / 40.3 / 42.0 MHz placed by
        # HeAP, 57.5 / 58.6 / 57.8 pinned (60.0 / 58.6 / 54.0 with the valid chain's
        # stop flags from flip-flops; docs/cores/tbox.md, docs/synthesis.md)
        ram_rows=(22, 46, 70, 82),
    ),
    CoreSpec(
        name="tbox_unfolded_pp",
        top="ak_tbox_unfolded",
        description="Unfolded memory-based core with two extra registers inside each round "
                    "(before the RAMs, in the XOR tree): 3 cycles per round, 1 block/cycle; "
                    "built for AES-128 (NrMax = 10)",
        paper=PAPER,
        key_sizes=(128,),
        sbox="tbox-ram",
        # RkGroup = 2: the round-key store's write chain (ak_rk_store Group), so the
        # key fill does not broadcast to every store entry across the die; with the
        # RAMs pinned like tbox_unfolded's: seeds 1-3 103.4 / 103.3 / 104.3 MHz,
        # against 73.6 / 88.4 / 80.7 placed by HeAP with Group 0 (docs/cores/tbox.md)
        parameters={"IntraPipe": 1, "NrMax": 10, "RkGroup": 2},
        latency={128: 32},
        interval={128: 1},
        key_setup={128: RK_FILL_SETUP[128]},
        in_flight=32,
        ram_rows=(22, 46, 70, 82),
    ),
)

#: configurations (docs/core-contract.md, "Configurations"): encrypt-only AES-128 of
#: each core (one direction: packed T-box words, one DP16KD a RAM instead of two; no
#: decryption round keys), and the folded core with both directions, AES-128 only
_BY_NAME = {c.name: c for c in CORES}
CORES += (
    configuration(_BY_NAME["tbox_folded"], key_sizes=(128,), decrypt=False),
    configuration(_BY_NAME["tbox_folded"], key_sizes=(128,)),
    configuration(_BY_NAME["tbox_unfolded"], key_sizes=(128,), decrypt=False),
    configuration(_BY_NAME["tbox_unfolded_pp"], key_sizes=(128,), decrypt=False),
)
