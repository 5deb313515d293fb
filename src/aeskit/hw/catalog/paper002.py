"""Paper 002 (Ueno, Morioka, Homma, Aoki, CHES 2016): the unified round-based
encryption/decryption datapath ``ueno`` and the conventional datapaths it is compared
with in the paper's Section 2 and Tables 1-2 (hw/cores/ueno, satoh, lutz, liu).

All four share ak_round_ctrl (handshakes, counter, on-the-fly key schedule with the
decryption start key computed once per key load), so the comparison measures the
datapaths. Theory, timing and what each baseline follows: docs/cores/paper002.md.
"""

from __future__ import annotations

from aeskit.hw.registry import CoreSpec, configuration

ORDER = 20

PAPER = "002 Ueno et al."

def _cycles(extra: int) -> dict[int, int]:
    return {128: 10 + extra, 192: 12 + extra, 256: 14 + extra}


#: key setup of ak_round_ctrl: Nr forward steps after the handshake cycle
KEY_SETUP = _cycles(1)

CORES: tuple[CoreSpec, ...] = (
    CoreSpec(
        name="ueno",
        top="ak_ueno_core",
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

#: the encrypt-only AES-128 configuration of each (ak_round_ctrl's Directions and
#: KeySizes, docs/core-contract.md "Configurations"): the unified datapaths with their
#: direction selects constant
CORES = CORES + tuple(configuration(c, key_sizes=(128,), decrypt=False)
                      for c in CORES if c.name in ("ueno", "satoh", "lutz", "liu"))
