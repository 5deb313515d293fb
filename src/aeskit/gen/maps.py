"""The chosen fields, isomorphisms and every merged linear map of the S-box variants.

Everything here is computed at import time from the field definitions in
:mod:`aeskit.gen.fields` and the AES definitions in :mod:`aeskit.model.gf`; nothing
is typed in. Notation: a map is (matrix, constant) meaning ``x -> M x ^ c``.

Choice rule (documented in docs/primitives.md): among all valid choices, take the
one whose four linear maps around the shared inversion of the enc/dec S-box --
T, T A^-1, A T^-1, T^-1 (T: AES field -> tower field) -- need the fewest XOR gates
when each row is built separately; for the normal-basis tower, the constant maps of
the inversion (N, N x^2, nu x^2) are added to that cost. Ties: the smallest root.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

from aeskit.gen import gf2
from aeskit.gen.fields import (CompositeField, NormalField, aes_roots, has_no_root,
                               iso_matrix)
from aeskit.gen.gf2 import Matrix
from aeskit.model.gf import affine, gf_mul, inv_affine

__all__ = ["aes_roots", "AFFINE", "INV_AFFINE", "AFFINE_C", "INV_AFFINE_C", "MC_COEF", "IMC_COEF",
           "Choice", "composite", "canright", "mul_matrix", "column_matrix",
           "affine_mix_column", "inv_mix_column_inv_affine"]

#: A: the linear part of the S-box affine map, c = 0x63
AFFINE: Matrix = gf2.from_function(lambda x: affine(x) ^ 0x63, 8)
AFFINE_C = 0x63
#: A^-1 and its constant: inv_affine(x) = A^-1 x ^ 0x05
INV_AFFINE: Matrix = gf2.from_function(lambda x: inv_affine(x) ^ 0x05, 8)
INV_AFFINE_C = 0x05
#: MixColumns coefficients u_e of row i for byte i+e: 02 03 01 01 (paper 002 eq. 1)
MC_COEF = (0x02, 0x03, 0x01, 0x01)
#: InvMixColumns coefficients v_e: 0e 0b 0d 09
IMC_COEF = (0x0E, 0x0B, 0x0D, 0x09)


def mul_matrix(k: int) -> Matrix:
    """Multiplication by the constant ``k`` in the AES field."""
    return gf2.from_function(lambda x: gf_mul(x, k), 8)


def column_matrix(per_e: tuple[Matrix, Matrix, Matrix, Matrix]) -> Matrix:
    """32x32 matrix of out_i = sum_e M_e x_(i+e) on a column (row 0 in [31:24])."""
    def f(col: int) -> int:
        x = [(col >> (24 - 8 * r)) & 0xFF for r in range(4)]
        out = 0
        for i in range(4):
            b = 0
            for e in range(4):
                b ^= gf2.apply(per_e[e], x[(i + e) % 4])
            out |= b << (24 - 8 * i)
        return out
    return gf2.from_function(f, 32)


def _cost(t: Matrix) -> int:
    ti = gf2.inverse(t)
    return (gf2.xor_count(t) + gf2.xor_count(gf2.compose(t, INV_AFFINE))
            + gf2.xor_count(gf2.compose(AFFINE, ti)) + gf2.xor_count(ti))


@dataclass(frozen=True)
class Choice:
    """A tower/composite field and the root of the AES polynomial the isomorphism
    sends x = {02} to."""

    field: CompositeField | NormalField
    root: int

    @cached_property
    def t(self) -> Matrix:
        """T: AES field -> tower field."""
        return iso_matrix(self.field, self.root)

    @cached_property
    def t_inv(self) -> Matrix:
        return gf2.inverse(self.t)

    # the four maps around the shared inversion: (matrix, constant)
    @cached_property
    def in_fwd(self) -> tuple[Matrix, int]:
        return self.t, 0

    @cached_property
    def in_inv(self) -> tuple[Matrix, int]:
        """x -> T(A^-1 x ^ 05)."""
        return gf2.compose(self.t, INV_AFFINE), gf2.apply(self.t, INV_AFFINE_C)

    @cached_property
    def out_fwd(self) -> tuple[Matrix, int]:
        """y -> A(T^-1 y) ^ 63."""
        return gf2.compose(AFFINE, self.t_inv), AFFINE_C

    @cached_property
    def out_inv(self) -> tuple[Matrix, int]:
        return self.t_inv, 0


@cache
def composite() -> Choice:
    """Paper 000's field and the cheapest of its eight roots."""
    field = CompositeField()
    roots = aes_roots(field)
    best = min(roots, key=lambda r: (_cost(iso_matrix(field, r)), r))
    return Choice(field, best)


@cache
def canright() -> Choice:
    """The normal-basis tower with the cheapest (N, nu, root)."""
    best: tuple[int, int, int, int] | None = None
    for n in (0b01, 0b10):
        probe = NormalField(n, 0)
        if not has_no_root(probe.mul4, n, 2):
            continue
        for nu in range(16):
            f = NormalField(n, nu)
            if not has_no_root(f.mul16, nu, 4):
                continue
            extra = (gf2.xor_count(f.scl_n_matrix()) + gf2.xor_count(f.sq_scl_n_matrix())
                     + gf2.xor_count(f.sq_scl_nu_matrix()))
            for r in aes_roots(f):
                key = (_cost(iso_matrix(f, r)) + extra, n, nu, r)
                if best is None or key < best:
                    best = key
    assert best is not None
    _, n, nu, r = best
    return Choice(NormalField(n, nu), r)


# ------------------------------------------------------------------------------------
# paper 001: the retimed Affine + MixColumns
# ------------------------------------------------------------------------------------
@cache
def affine_mix_column() -> tuple[Matrix, int]:
    """MixColumns(Affine(v)) on a column of inverses v: sum_e u_e A v_(i+e) ^ c'.
    The constant is MixColumns of (63,63,63,63) = (63,63,63,63) since 2+3+1+1 = 1."""
    m = column_matrix(tuple(gf2.compose(mul_matrix(u), AFFINE) for u in MC_COEF))  # type: ignore[arg-type]
    c = 0
    for i in range(4):
        b = 0
        for u in MC_COEF:
            b ^= gf_mul(AFFINE_C, u)
        c |= b << (24 - 8 * i)
    return m, c


@cache
def inv_mix_column_inv_affine() -> tuple[Matrix, int]:
    """InvAffine(InvMixColumns(y)) on a column y, byte-wise InvAffine after the column
    map: A^-1 (sum_e v_e y_(i+e)) ^ 05 = sum_e A^-1 v_e y_(i+e) ^ 05 (the retimed
    decryption round of pipe2: the next round's InvAffine merged into this one's
    InvMixColumns)."""
    m = column_matrix(tuple(gf2.compose(INV_AFFINE, mul_matrix(v)) for v in IMC_COEF))  # type: ignore[arg-type]
    return m, int.from_bytes(bytes([INV_AFFINE_C] * 4), "big")


# ------------------------------------------------------------------------------------
# paper 002: the unified affine maps (over the normal-basis tower of ``canright()``)
# ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Ueno:
    """Delta = T of :func:`canright`; U_e(x) = Delta(u_e A(Delta'(x))),
    V_e(x) = Delta(A'(v_e Delta'(x))) (paper 002 eqs. (4) and (6))."""

    choice: Choice

    @property
    def delta(self) -> Matrix:
        return self.choice.t

    @property
    def delta_inv(self) -> Matrix:
        return self.choice.t_inv

    @cached_property
    def u(self) -> tuple[Matrix, ...]:
        return tuple(gf2.compose(self.delta, mul_matrix(k), AFFINE, self.delta_inv)
                     for k in MC_COEF)

    @cached_property
    def v(self) -> tuple[Matrix, ...]:
        return tuple(gf2.compose(self.delta, INV_AFFINE, mul_matrix(k), self.delta_inv)
                     for k in IMC_COEF)

    @property
    def c_enc(self) -> int:
        """Delta(c), c = 0x63."""
        return gf2.apply(self.delta, AFFINE_C)

    @property
    def c_dec(self) -> int:
        """Delta(c'), c' = 0x05."""
        return gf2.apply(self.delta, INV_AFFINE_C)

    @cached_property
    def affine_t(self) -> tuple[Matrix, int]:
        """The S-box affine map over the tower field: Delta A Delta' (+ Delta(c))."""
        return gf2.compose(self.delta, AFFINE, self.delta_inv), self.c_enc

    @cached_property
    def inv_affine_t(self) -> tuple[Matrix, int]:
        return gf2.compose(self.delta, INV_AFFINE, self.delta_inv), self.c_dec

    @staticmethod
    def _rep(c: int) -> int:
        return c | c << 8 | c << 16 | c << 24

    @cached_property
    def enc_column(self) -> tuple[Matrix, int]:
        """sum_e U_e(x_(i+e)) ^ Delta(c) per row (the encryption unified affine)."""
        return column_matrix(self.u), self._rep(self.c_enc)  # type: ignore[arg-type]

    @cached_property
    def dec_column(self) -> tuple[Matrix, int]:
        """sum_e V_e(y_(i+e)) ^ Delta(c') per row (the decryption unified affine)."""
        return column_matrix(self.v), self._rep(self.c_dec)  # type: ignore[arg-type]


@cache
def ueno() -> Ueno:
    return Ueno(canright())
