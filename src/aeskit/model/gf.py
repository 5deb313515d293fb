"""GF(2^8) arithmetic of FIPS-197 section 4 and the S-boxes derived from it.

Field elements are ``int`` in 0..255; bit 7 is the coefficient of x^7 (FIPS-197
writes the byte {b7 b6 ... b0}). The reduction polynomial is
m(x) = x^8 + x^4 + x^3 + x + 1 (0x11b).

The S-box is *computed* here at import time, the way FIPS-197 section 5.1.1
defines it: the multiplicative inverse in GF(2^8) (0 maps to 0) followed by the
affine map b'_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i with c = 0x63.
The inverse S-box applies the inverse affine map and then the inversion. No
table is typed in by hand.
"""

from __future__ import annotations

__all__ = ["gf_mul", "gf_inv", "xtime", "affine", "inv_affine", "SBOX", "INV_SBOX"]

#: x^8 + x^4 + x^3 + x + 1
REDUCTION_POLY = 0x11B


def _check_byte(name: str, value: int) -> None:
    if not 0 <= value <= 0xFF:
        raise ValueError(f"{name} must be a byte in 0..255, got {value}")


def xtime(a: int) -> int:
    """Multiply by x (that is, by {02}) modulo m(x)."""
    a <<= 1
    return a ^ REDUCTION_POLY if a & 0x100 else a


def gf_mul(a: int, b: int) -> int:
    """Product of two field elements modulo x^8 + x^4 + x^3 + x + 1."""
    _check_byte("a", a)
    _check_byte("b", b)
    product = 0
    while b:
        if b & 1:
            product ^= a
        a = xtime(a)
        b >>= 1
    return product


def gf_inv(a: int) -> int:
    """Multiplicative inverse (a^254, Fermat); ``gf_inv(0) == 0`` as FIPS-197 says."""
    _check_byte("a", a)
    result = 1
    base = a
    exponent = 254
    while exponent:
        if exponent & 1:
            result = gf_mul(result, base)
        base = gf_mul(base, base)
        exponent >>= 1
    return result if a else 0


def _rotl8(b: int, n: int) -> int:
    return ((b << n) | (b >> (8 - n))) & 0xFF


def affine(b: int) -> int:
    """The S-box affine map: b ^ rotl(b,1) ^ rotl(b,2) ^ rotl(b,3) ^ rotl(b,4) ^ 0x63."""
    return b ^ _rotl8(b, 1) ^ _rotl8(b, 2) ^ _rotl8(b, 3) ^ _rotl8(b, 4) ^ 0x63


def inv_affine(b: int) -> int:
    """Inverse of :func:`affine`: rotl(b,1) ^ rotl(b,3) ^ rotl(b,6) ^ 0x05."""
    return _rotl8(b, 1) ^ _rotl8(b, 3) ^ _rotl8(b, 6) ^ 0x05


#: SubBytes table, SBOX[x] = affine(x^-1)
SBOX: tuple[int, ...] = tuple(affine(gf_inv(x)) for x in range(256))
#: InvSubBytes table, INV_SBOX[y] = (inv_affine(y))^-1
INV_SBOX: tuple[int, ...] = tuple(gf_inv(inv_affine(y)) for y in range(256))
