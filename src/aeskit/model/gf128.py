"""GF(2^128) arithmetic of GCM (NIST SP 800-38D, section 6.3) and CMAC's doubling.

A block is an ``int`` in 0..2^128-1 read big-endian from its 16 bytes
(``int.from_bytes(block, "big")``), which is also how the RTL ports hold it (byte 0
in bits [127:120]). GCM numbers the bits of a block from the left: bit 0 is the most
significant bit of byte 0, and it is the coefficient of x^0. So on a port value ``v``
the coefficient of x^i is ``v[127 - i]``; the field polynomial is
x^128 + x^7 + x^2 + x + 1, and multiplying by x is a right shift with R = 0xe1 || 0^120
folded in when the bit shifted out (x^127's coefficient, ``v[0]``) was set.

CMAC (SP 800-38B) uses the other convention: its doubling is a left shift with 0x87
folded into the low byte when the top bit was set (:func:`cmac_double`).
"""

from __future__ import annotations

__all__ = ["GCM_R", "MASK128", "gf128_mul", "gf128_pow", "cmac_double", "block_int", "int_block"]

MASK128 = (1 << 128) - 1
#: R of SP 800-38D Algorithm 1: 11100001 || 0^120
GCM_R = 0xE1 << 120


def _check(name: str, v: int) -> None:
    if not 0 <= v <= MASK128:
        raise ValueError(f"{name} must be a 128-bit value, got {v:#x}")


def gf128_mul(x: int, y: int) -> int:
    """X . Y in GCM's field (SP 800-38D Algorithm 1, bit by bit)."""
    _check("x", x)
    _check("y", y)
    z, v = 0, y
    for i in range(128):
        if (x >> (127 - i)) & 1:
            z ^= v
        v = (v >> 1) ^ GCM_R if v & 1 else v >> 1
    return z


def gf128_pow(h: int, n: int) -> int:
    """H^n in GCM's field (n >= 1): the powers a GHASH aggregated over n blocks needs."""
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    r = h
    for _ in range(n - 1):
        r = gf128_mul(r, h)
    return r


def cmac_double(v: int) -> int:
    """CMAC's subkey step (SP 800-38B 6.1): v << 1, XOR 0x87 if the top bit was set."""
    _check("v", v)
    return ((v << 1) & MASK128) ^ (0x87 if v >> 127 else 0)


def block_int(block: bytes) -> int:
    """16 bytes -> the 128-bit value of the port (byte 0 in bits [127:120])."""
    if len(block) != 16:
        raise ValueError(f"a block is 16 bytes, got {len(block)}")
    return int.from_bytes(block, "big")


def int_block(v: int) -> bytes:
    """The 128-bit value of a port -> its 16 bytes."""
    _check("v", v)
    return v.to_bytes(16, "big")
