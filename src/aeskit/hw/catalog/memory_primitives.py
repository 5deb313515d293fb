"""Memory-based primitives of paper 003 (Chaves et al.): T-box block RAMs and the
round-key stores (register bank for pipelined cores, RAM bank for folded cores)."""

from __future__ import annotations

from aeskit.hw.catalog.primitives import PRIM
from aeskit.hw.registry import PrimitiveSpec

ORDER = 2

#: ak_key_step and its dependencies, plus InvMixColumns: what ak_rk_fill needs
RK_FILL_FILES: tuple[str, ...] = (
    PRIM + "ak_sbox.sv",
    PRIM + "ak_sub_word.sv",
    PRIM + "ak_xtime.sv",
    PRIM + "ak_mix_column.sv",
    PRIM + "ak_inv_mix_column.sv",
    PRIM + "ak_key_step.sv",
    PRIM + "ak_rk_fill.sv",
)

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("tbox_ram", "tbox", "ak_tbox_ram", (PRIM + "ak_tbox_ram.sv",),
                  "T-box ROM, 512 x 32, two synchronous read ports: {dec, byte} -> "
                  "S(b) x {02,01,01,03} or S^-1(b) x {0e,09,0d,0b}"),
    PrimitiveSpec("rk_fill", "key_schedule", "ak_rk_fill", RK_FILL_FILES,
                  "Hardware key expansion filling a round-key store: one encryption and "
                  "one equivalent-inverse-cipher decryption key per cycle"),
    PrimitiveSpec("rk_store", "key_store", "ak_rk_store",
                  RK_FILL_FILES + (PRIM + "ak_rk_store.sv",),
                  "Register-based round-key store: all encryption and decryption round "
                  "keys in parallel, hardware or software fill"),
    PrimitiveSpec("rk_ram", "key_store", "ak_rk_ram",
                  RK_FILL_FILES + (PRIM + "ak_rk_ram.sv",),
                  "Round-key RAM bank addressed by {decrypt, round}, read latency 1, plus "
                  "the two round-0 keys in registers"),
)
