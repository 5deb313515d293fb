"""T-table primitive of paper 004 (Deshpande & Leelavathi, after Drimer, Gueneysu and
Paar): the T-table block RAM shared by the ``ttable_*`` cores."""

from __future__ import annotations

from aeskit.hw.catalog.primitives import PRIM
from aeskit.hw.registry import PrimitiveSpec

ORDER = 3

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("ttable_ram", "ttable", "ak_ttable_ram", (PRIM + "ak_ttable_ram.sv",),
                  "T-table ROM, two synchronous read ports, address {dec, T0/T2, last, byte}: "
                  "T0/T2 and last-round T0'/T2' for encryption and decryption (tables and "
                  "address bits a user does not need are dropped by parameters)"),
)
