"""Shared primitives (hw/primitives): S-boxes, MixColumns, key-schedule steps."""

from __future__ import annotations

from aeskit.hw.registry import PrimitiveSpec

ORDER = 0

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("sbox_table", "sbox", "ak_sbox",
                  "SubBytes S-box as a case table (ROM)"),
    PrimitiveSpec("inv_sbox_table", "inv_sbox", "ak_inv_sbox",
                  "InvSubBytes S-box as a case table (ROM)"),
    PrimitiveSpec("xtime", "gf", "ak_xtime",
                  "Multiplication by {02} in GF(2^8)"),
    PrimitiveSpec("sub_word", "sbox", "ak_sub_word",
                  "SubWord: four table S-boxes on a 32-bit word"),
    PrimitiveSpec("mix_column", "mix_columns", "ak_mix_column",
                  "MixColumns on one 32-bit column"),
    PrimitiveSpec("inv_mix_column", "inv_mix_columns", "ak_inv_mix_column",
                  "InvMixColumns on one 32-bit column (pre-map + MixColumns)"),
    PrimitiveSpec("inv_mix_pre", "inv_mix_columns", "ak_inv_mix_pre",
                  "The pre-map of InvMixColumns on one column: InvMixColumns = MixColumns "
                  "after it, so a register can sit between the two (ak_rk_fill)"),
    PrimitiveSpec("key_step_ctl", "key_schedule", "ak_key_step_ctl",
                  "The decoded controls of one key expansion step (key length, phase, "
                  "direction), for callers that register them a cycle ahead"),
    PrimitiveSpec("key_step_split", "key_schedule", "ak_key_step_split",
                  "On-the-fly key expansion step on an Nk-word window, forward and backward, "
                  "with its SubWord input from the caller (a register) and the next step's "
                  "SubWord input as an output"),
)

