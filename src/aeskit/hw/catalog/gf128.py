"""GF(2^128) multipliers of GCM/GHASH (hw/primitives/gf128, issue 15): the schoolbook
reference, the Karatsuba one-cycle form, the Horner digit step and the multiplier
``ak_gf128_mul`` the mode engine instantiates, one variant per DigitBits/Karatsuba.

Every variant is proven equal to the schoolbook reference ``ak_gf128_mul_comb``
(:mod:`aeskit.formal.proofs`, ``gf128-*``; what each proof covers is in
docs/primitives/gf128.md) and simulated against :func:`aeskit.model.gf128.gf128_mul`
(tests/hw/primitives/gf128). ``aeskit primitives`` measures them
(:mod:`aeskit.report.gf128_table`).
"""

from __future__ import annotations

from aeskit.hw.registry import PrimitiveSpec

ORDER = 4

#: the manifest of all of them, named outright (not looked up from the module's file)
MANIFEST = "aeskit:prim:gf128"

#: the DigitBits values ak_gf128_mul accepts
DIGIT_BITS: tuple[int, ...] = (128, 32, 16, 8, 4, 1)


def cycles_per_product(digit_bits: int) -> int:
    """Cycles from the start cycle to done_o (and between back-to-back starts)."""
    return 128 // digit_bits


def mul_name(digit_bits: int, karatsuba: bool) -> str:
    """Registry name of one ak_gf128_mul variant: gf128_mul_d8, gf128_mul_d128_kara, ..."""
    return f"gf128_mul_d{digit_bits}" + ("_kara" if karatsuba else "")


#: (DigitBits, Karatsuba) of the registered ak_gf128_mul variants (Karatsuba only where
#: it changes the logic: the one-cycle form and digits of 16 and 32 bits)
MUL_VARIANTS: tuple[tuple[int, bool], ...] = (
    (128, False), (128, True), (32, False), (32, True), (16, False), (16, True),
    (8, False), (4, False), (1, False))

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("gf128_mul_comb", "gf128", "ak_gf128_mul_comb",
                  "GF(2^128) product of GCM, schoolbook, combinational (the reference)",
                  manifest=MANIFEST),
    PrimitiveSpec("gf128_mul_kara", "gf128", "ak_gf128_mul_kara",
                  "GF(2^128) product of GCM, two Karatsuba levels (9 x 32x32), "
                  "combinational", manifest=MANIFEST),
    PrimitiveSpec("gf128_reduce", "gf128", "ak_gf128_reduce",
                  "Reduction modulo x^128 + x^7 + x^2 + x + 1 (polynomial bit order)",
                  manifest=MANIFEST),
    PrimitiveSpec("gf128_digit_step", "gf128", "ak_gf128_digit_step",
                  "One Horner step Z * x^D + d * B mod P of the digit-serial multiplier",
                  parameters={"DigitBits": 8}, manifest=MANIFEST),
) + tuple(
    PrimitiveSpec(mul_name(d, k), "gf128", "ak_gf128_mul",
                  f"GF(2^128) multiplier for GHASH, {'one-cycle' if d == 128 else f'{d}-bit digit-serial'}"
                  f"{', Karatsuba' if k else ''}: {cycles_per_product(d)} cycle(s) per product "
                  f"(ak_gf128_mul DigitBits={d} Karatsuba={int(k)})",
                  parameters={"DigitBits": d, "Karatsuba": int(k)}, manifest=MANIFEST)
    for d, k in MUL_VARIANTS)
