"""aeskit.gen: the fields, the isomorphisms and the merged maps, checked against
independent definitions (the model's GF(2^8) arithmetic, paper 000's printed
equations, plain polynomial arithmetic), and the committed RTL against the generator."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from aeskit import REPO_ROOT
from aeskit.gen import gf2, maps, stale
from aeskit.gen.fields import CompositeField, aes_roots, iso_matrix
from aeskit.model.gf import affine, gf_inv, gf_mul, inv_affine
from aeskit.model import inv_mix_columns, mix_columns


def _clmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a <<= 1
        b >>= 1
    return r


def test_composite_eqs_of_paper_000() -> None:
    """Eqs. (4), (6), (7) as printed equal the field arithmetic (GF(2^2) product by
    polynomial multiplication modulo x^2+x+1)."""
    f = CompositeField()
    for a in range(4):
        for b in range(4):
            p = _clmul(a, b)
            if p & 4:
                p ^= 0b111
            assert f.mul4(a, b) == p
    for a in range(4):
        a1, a0 = a >> 1, a & 1
        assert f.mul_phi(a) == (((a1 ^ a0) << 1) | a1)  # eq. (7)
    for a in range(16):
        a3, a2, a1, a0 = ((a >> i) & 1 for i in (3, 2, 1, 0))
        eq4 = ((a2 ^ a1 ^ a0) << 3) | ((a3 ^ a0) << 2) | (a3 << 1) | (a3 ^ a2)
        assert f.sq_lambda(a) == eq4 == f.mul16(f.lam, f.mul16(a, a))


def test_composite_roots_match_seed_notes() -> None:
    assert aes_roots(CompositeField()) == [0x42, 0x46, 0x5A, 0x5F, 0x6A, 0x6C, 0x7B, 0x7C]


@pytest.mark.parametrize("which", ["composite", "canright"])
def test_isomorphism_is_a_field_isomorphism(which: str) -> None:
    ch = getattr(maps, which)()
    t = ch.t
    assert gf2.compose(t, ch.t_inv) == gf2.identity(8)
    img = [gf2.apply(t, x) for x in range(256)]
    assert sorted(img) == list(range(256))
    for a in range(256):
        for b in range(a, 256):
            assert img[gf_mul(a, b)] == ch.field.mul(img[a], img[b])
    for x in range(256):
        assert ch.field.inv(img[x]) == img[gf_inv(x)]


@pytest.mark.parametrize("which", ["composite", "canright"])
def test_merged_sbox_maps(which: str) -> None:
    ch = getattr(maps, which)()
    for x in range(256):
        def ap(mc: tuple[gf2.Matrix, int], v: int) -> int:
            return gf2.apply(mc[0], v) ^ mc[1]
        t_inv = lambda v: gf2.apply(ch.t_inv, v)  # noqa: E731
        assert ap(ch.in_fwd, x) == gf2.apply(ch.t, x)
        assert ap(ch.in_inv, x) == gf2.apply(ch.t, inv_affine(x))
        assert ap(ch.out_fwd, x) == affine(t_inv(x))
        assert ap(ch.out_inv, x) == t_inv(x)
        # the whole S-box through the tower field
        assert ap(ch.out_fwd, ch.field.inv(ap(ch.in_fwd, x))) == affine(gf_inv(x))
        assert ap(ch.out_inv, ch.field.inv(ap(ch.in_inv, x))) == gf_inv(inv_affine(x))


def test_ueno_unified_maps() -> None:
    """U_e = delta(u_e A(delta^-1 x)), V_e = delta(A^-1(v_e delta^-1 x)) (paper 002),
    and the column maps equal MixColumns/InvMixColumns of the model in between."""
    u = maps.ueno()
    d, di = (lambda v: gf2.apply(u.delta, v)), (lambda v: gf2.apply(u.delta_inv, v))
    lin_a = lambda v: affine(v) ^ 0x63  # noqa: E731
    lin_ai = lambda v: inv_affine(v) ^ 0x05  # noqa: E731
    for x in range(256):
        for e, (ue, ve) in enumerate(zip((2, 3, 1, 1), (0x0E, 0x0B, 0x0D, 0x09))):
            assert gf2.apply(u.u[e], x) == d(gf_mul(ue, lin_a(di(x))))
            assert gf2.apply(u.v[e], x) == d(lin_ai(gf_mul(ve, di(x))))
    rng = random.Random(5)
    for _ in range(300):
        col = rng.randbytes(4)
        x = int.from_bytes(col, "big")
        m, c = u.enc_column
        want = mix_columns(bytes(affine(di(b)) for b in col) + bytes(12))[:4]
        assert gf2.apply(m, x) ^ c == int.from_bytes(bytes(d(b) for b in want), "big")
        m, c = u.dec_column
        want = inv_mix_columns(bytes(di(b) for b in col) + bytes(12))[:4]
        assert gf2.apply(m, x) ^ c == int.from_bytes(bytes(d(inv_affine(b)) for b in want), "big")


def test_affine_mix_column_map() -> None:
    m, c = maps.affine_mix_column()
    rng = random.Random(6)
    for _ in range(300):
        col = rng.randbytes(4)
        want = mix_columns(bytes(affine(b) for b in col) + bytes(12))[:4]
        assert gf2.apply(m, int.from_bytes(col, "big")) ^ c == int.from_bytes(want, "big")


def test_root_choice_is_the_cheapest() -> None:
    f = CompositeField()
    costs = {r: maps._cost(iso_matrix(f, r)) for r in aes_roots(f)}
    assert costs[maps.composite().root] == min(costs.values())


def test_gf2_inverse_detects_singular() -> None:
    with pytest.raises(ValueError):
        gf2.inverse((1, 1, 4))


def test_committed_rtl_matches_generator() -> None:
    bad = stale()
    assert not bad, f"out of date, rerun tools/gen_primitives.py: {[str(p) for p in bad]}"


def test_generator_script_check_mode() -> None:
    res = subprocess.run([sys.executable, str(REPO_ROOT / "tools" / "gen_primitives.py"),
                          "--check"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
