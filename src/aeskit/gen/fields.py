"""The tower and composite fields the S-box variants compute in.

Two constructions of GF(2^8), both built from the field definitions:

* :class:`CompositeField` -- paper 000 (Yang, Wen, Fan): GF(((2^2)^2)^2) in
  polynomial bases, GF(2^2) = GF(2)[x]/(x^2+x+1), GF(2^4) = GF(2^2)[y]/(y^2+y+phi),
  GF(2^8) = GF(2^4)[z]/(z^2+z+lambda) with phi = {10}_2 = x and lambda = {1100}_2
  = (x+1)y. An element is written high half first: bits [7:4] are the coefficient
  of z, [3:0] the constant; likewise [3:2]/[1:0] for y and [1]/[0] for x.
* :class:`NormalField` -- Canright's compact style: normal bases at every level,
  GF(2^2) basis (W^2, W) with W^2+W+1 = 0, GF(2^4) basis (Z^4, Z) with Z^2+Z+N = 0,
  GF(2^8) basis (Y^16, Y) with Y^2+Y+nu = 0 (N in GF(2^2), nu in GF(2^4) chosen so
  the polynomials are irreducible). Bits: [7:4] coefficient of Y, [3:0] of Y^16;
  [3:2] of Z, [1:0] of Z^4; [1] of W, [0] of W^2.

Both classes expose the same arithmetic the hardware uses (multiplication at every
level, the norm-based inversion); :func:`aes_roots` and :func:`iso_matrix` give the
isomorphisms from the AES field (x^8+x^4+x^3+x+1).
"""

from __future__ import annotations

from dataclasses import dataclass

from aeskit.gen.gf2 import Matrix, from_function

__all__ = ["CompositeField", "NormalField", "aes_roots", "iso_matrix", "power"]

AES_POLY = 0x11B


# ------------------------------------------------------------------------------------
# paper 000: polynomial bases
# ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CompositeField:
    """GF(((2^2)^2)^2), polynomial bases, phi = {10}, lambda = {1100} (paper 000)."""

    phi: int = 0b10
    lam: int = 0b1100
    name: str = "composite GF(((2^2)^2)^2), polynomial basis (paper 000)"

    # GF(2^2): x^2 = x + 1 -- paper eq. (6)
    @staticmethod
    def mul4(a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 1, a & 1, b >> 1, b & 1
        c1 = (b1 & a1) ^ (b0 & a1) ^ (b1 & a0)
        c0 = (b1 & a1) ^ (b0 & a0)
        return (c1 << 1) | c0

    @staticmethod
    def sq4(a: int) -> int:
        a1, a0 = a >> 1, a & 1
        return (a1 << 1) | (a1 ^ a0)

    def mul_phi(self, a: int) -> int:
        """phi * a in GF(2^2) -- paper eq. (7) for phi = {10}."""
        return self.mul4(self.phi, a)

    # GF(2^4): y^2 = y + phi
    def mul16(self, a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 2, a & 3, b >> 2, b & 3
        hh = self.mul4(a1, b1)
        hi = hh ^ self.mul4(a1, b0) ^ self.mul4(a0, b1)
        lo = self.mul_phi(hh) ^ self.mul4(a0, b0)
        return (hi << 2) | lo

    def sq16(self, a: int) -> int:
        a1, a0 = a >> 2, a & 3
        h = self.sq4(a1)
        return (h << 2) | (self.mul_phi(h) ^ self.sq4(a0))

    def inv16(self, a: int) -> int:
        """(a1 y + a0)^-1 = (a1 y + (a1+a0)) * d^-1, d = phi a1^2 + a1 a0 + a0^2 in
        GF(2^2), where d^-1 = d^2."""
        a1, a0 = a >> 2, a & 3
        d = self.mul_phi(self.sq4(a1)) ^ self.mul4(a1, a0) ^ self.sq4(a0)
        di = self.sq4(d)
        return (self.mul4(a1, di) << 2) | self.mul4(a1 ^ a0, di)

    def sq_lambda(self, a: int) -> int:
        """lambda * a^2 in GF(2^4) -- paper eq. (4)."""
        return self.mul16(self.lam, self.mul16(a, a))

    # GF(2^8): z^2 = z + lambda
    def mul(self, a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 4, a & 15, b >> 4, b & 15
        hh = self.mul16(a1, b1)
        hi = hh ^ self.mul16(a1, b0) ^ self.mul16(a0, b1)
        lo = self.mul16(self.lam, hh) ^ self.mul16(a0, b0)
        return (hi << 4) | lo

    def norm_inv(self, a: int) -> int:
        """d^-1 of the inversion, d = lambda a1^2 + a1 a0 + a0^2 = lambda a1^2 +
        a0 (a1 + a0) (what substage 1 computes)."""
        a1, a0 = a >> 4, a & 15
        return self.inv16(self.sq_lambda(a1) ^ self.mul16(a0, a1 ^ a0))

    def inv(self, a: int) -> int:
        """(a1 z + a0)^-1 = (a1 z + (a1+a0)) * d^-1."""
        a1, a0 = a >> 4, a & 15
        di = self.norm_inv(a)
        return (self.mul16(a1, di) << 4) | self.mul16(a1 ^ a0, di)


# ------------------------------------------------------------------------------------
# Canright: normal bases
# ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NormalField:
    """GF(((2^2)^2)^2) in normal bases (W^2, W), (Z^4, Z), (Y^16, Y)."""

    n: int    # N in GF(2^2): Z^2 + Z + N = 0
    nu: int   # nu in GF(2^4): Y^2 + Y + nu = 0
    name: str = "tower GF((2^4)^2), normal bases (Canright style)"

    # GF(2^2) in basis (W^2, W): bit 1 = coefficient of W, bit 0 of W^2
    @staticmethod
    def mul4(a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 1, a & 1, b >> 1, b & 1
        e = (a1 ^ a0) & (b1 ^ b0)
        return (((a1 & b1) ^ e) << 1) | ((a0 & b0) ^ e)

    @staticmethod
    def sq4(a: int) -> int:
        """Squaring (= inversion) in a normal basis: swap the two coordinates."""
        return ((a & 1) << 1) | (a >> 1)

    def scl_n(self, a: int) -> int:
        return self.mul4(self.n, a)

    def sq_scl_n(self, a: int) -> int:
        return self.mul4(self.n, self.sq4(a))

    # GF(2^4) in basis (Z^4, Z): bits [3:2] coefficient of Z, [1:0] of Z^4
    def mul16(self, a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 2, a & 3, b >> 2, b & 3
        e = self.scl_n(self.mul4(a1 ^ a0, b1 ^ b0))
        return ((self.mul4(a1, b1) ^ e) << 2) | (self.mul4(a0, b0) ^ e)

    def inv16(self, a: int) -> int:
        a1, a0 = a >> 2, a & 3
        theta = self.sq4(self.mul4(a1, a0) ^ self.sq_scl_n(a1 ^ a0))
        return (self.mul4(theta, a0) << 2) | self.mul4(theta, a1)

    def sq_scl_nu(self, a: int) -> int:
        return self.mul16(self.nu, self.mul16(a, a))

    # GF(2^8) in basis (Y^16, Y): bits [7:4] coefficient of Y, [3:0] of Y^16
    def mul(self, a: int, b: int) -> int:
        a1, a0, b1, b0 = a >> 4, a & 15, b >> 4, b & 15
        e = self.mul16(self.nu, self.mul16(a1 ^ a0, b1 ^ b0))
        return ((self.mul16(a1, b1) ^ e) << 4) | (self.mul16(a0, b0) ^ e)

    def inv(self, a: int) -> int:
        g1, g0 = a >> 4, a & 15
        theta = self.inv16(self.mul16(g1, g0) ^ self.sq_scl_nu(g1 ^ g0))
        return (self.mul16(theta, g0) << 4) | self.mul16(theta, g1)

    # the constant linear maps the hardware takes from the generator
    def scl_n_matrix(self) -> Matrix:
        return from_function(self.scl_n, 2)

    def sq_scl_n_matrix(self) -> Matrix:
        return from_function(self.sq_scl_n, 2)

    def sq_scl_nu_matrix(self) -> Matrix:
        return from_function(self.sq_scl_nu, 4)


def one(field: CompositeField | NormalField) -> int:
    """The multiplicative identity (found, not assumed: it is 0x01 in polynomial
    bases and 0xff in normal bases)."""
    for e in range(1, 256):
        if all(field.mul(e, x) == x for x in (1, 2, 0x53, 0xff)):
            return e
    raise ValueError(f"{field.name}: no identity element")


def power(field: CompositeField | NormalField, a: int, k: int) -> int:
    r = one(field)
    for _ in range(k):
        r = field.mul(r, a)
    return r


def has_no_root(mul, const: int, width: int) -> bool:
    """True when t^2 + t + const has no root among the ``width``-bit elements, i.e.
    the quadratic is irreducible over that field."""
    return all((mul(t, t) ^ t) != const for t in range(1 << width))


def aes_roots(field: CompositeField | NormalField) -> list[int]:
    """Elements r of ``field`` with r^8 + r^4 + r^3 + r + 1 = 0 (eight for a field)."""
    o = one(field)
    roots = []
    for r in range(256):
        p = [o]
        for _ in range(8):
            p.append(field.mul(p[-1], r))
        if p[8] ^ p[4] ^ p[3] ^ p[1] ^ p[0] == 0:
            roots.append(r)
    return roots


def iso_matrix(field: CompositeField | NormalField, root: int) -> Matrix:
    """The map AES field -> ``field`` sending x (= {02}) to ``root``: column i is root^i."""
    o = one(field)
    cols = [o]
    for _ in range(7):
        cols.append(field.mul(cols[-1], root))
    return tuple(sum(((cols[j] >> i) & 1) << j for j in range(8)) for i in range(8))
