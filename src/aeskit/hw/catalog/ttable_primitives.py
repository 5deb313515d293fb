"""T-table primitive of paper 004 (Deshpande & Leelavathi, after Drimer, Gueneysu and
Paar): the T-table block RAM shared by the ``ttable_*`` cores."""

from __future__ import annotations

from aeskit.hw.registry import PrimitiveSpec

ORDER = 3

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("ttable_ram", "ttable", "ak_ttable_ram",
                  "T-table ROM, two synchronous read ports, address {dec, T0/T2, last, byte}: "
                  "T0/T2 and last-round T0'/T2' for encryption and decryption (tables and "
                  "address bits a user does not need are dropped by parameters; Packed: 17-bit "
                  "middle-round words, one DP16KD per two lookups)"),
    PrimitiveSpec("ttable_unpack", "ttable", "ak_ttable_unpack",
                  "widens a packed T-table word {dec, Q, P} to the 32-bit T0/Td0 word: one "
                  "LUT4 per bit (24 LUT4 a lookup), combinational"),
)
