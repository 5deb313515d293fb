"""GF(2^8) arithmetic and the computed S-boxes, against independent definitions."""

from __future__ import annotations

import pytest

from aeskit.model import INV_SBOX, SBOX, gf_inv, gf_mul
from aeskit.model.gf import affine, inv_affine, xtime


def ref_mul(a: int, b: int) -> int:
    """Carry-less product, then polynomial long division by x^8+x^4+x^3+x+1."""
    p = 0
    for i in range(8):
        if (b >> i) & 1:
            p ^= a << i
    for bit in range(14, 7, -1):
        if (p >> bit) & 1:
            p ^= 0x11B << (bit - 8)
    return p


def ref_sbox(x: int) -> int:
    """FIPS-197 5.1.1 bit by bit: b'_i = b_i ^ b_(i+4) ^ b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i."""
    inv = 0 if x == 0 else next(y for y in range(1, 256) if ref_mul(x, y) == 1)
    out = 0
    for i in range(8):
        bit = 0
        for k in (0, 4, 5, 6, 7):
            bit ^= (inv >> ((i + k) % 8)) & 1
        bit ^= (0x63 >> i) & 1
        out |= bit << i
    return out


def test_gf_mul_matches_long_division() -> None:
    for a in range(256):
        for b in range(0, 256, 7):
            assert gf_mul(a, b) == ref_mul(a, b), (a, b)


def test_gf_mul_field_laws() -> None:
    assert gf_mul(0x57, 0x83) == 0xC1  # the worked product of FIPS-197 section 4.2
    assert gf_mul(0x57, 0x13) == 0xFE  # and of section 4.2.1
    for a in range(256):
        assert gf_mul(a, 1) == a
        assert gf_mul(a, 2) == xtime(a)
        assert gf_mul(a, 0x35) == gf_mul(0x35, a)
        if a:
            assert gf_mul(a, gf_inv(a)) == 1
    assert gf_inv(0) == 0


@pytest.mark.parametrize("bad", [(-1, 1), (256, 1), (1, 300)])
def test_gf_mul_rejects_non_bytes(bad: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match=r"0\.\.255"):
        gf_mul(*bad)


def test_sbox_matches_bitwise_definition() -> None:
    assert list(SBOX) == [ref_sbox(x) for x in range(256)]


def test_sbox_known_entries_and_properties() -> None:
    assert SBOX[0x00] == 0x63 and SBOX[0x53] == 0xED  # FIPS-197 5.1.1 example
    assert sorted(SBOX) == list(range(256))
    assert all(SBOX[x] != x and SBOX[x] != x ^ 0xFF for x in range(256))  # no (anti-)fixed points
    assert all(INV_SBOX[SBOX[x]] == x for x in range(256))
    assert all(inv_affine(affine(x)) == x for x in range(256))
    assert isinstance(SBOX, tuple) and len(SBOX) == 256 and len(INV_SBOX) == 256
