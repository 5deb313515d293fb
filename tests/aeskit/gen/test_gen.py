"""aeskit.gen: the fields, the isomorphisms and the merged maps, checked against
independent definitions (the model's GF(2^8) arithmetic, paper 000's printed
equations, plain polynomial arithmetic); the tables in the rendered RTL against the
model; and the one staleness check: every committed generated file (RTL, cipher_ahb
register block, doc blocks, timing diagrams) equals what ``python -m aeskit.gen``
writes."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import aeskit.gen.__main__ as cli
from aeskit import HW_ROOT, REPO_ROOT
from aeskit.gen import gf2, maps, outputs, stale
from aeskit.gen.fields import CompositeField, aes_roots, iso_matrix
from aeskit.gen import rtl
from aeskit.gen.rtl import RTL
from aeskit.hw import manifest
from aeskit.model import inv_mix_columns, mix_columns
from aeskit.model.gf import INV_SBOX, SBOX, affine, gf_inv, gf_mul, inv_affine


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


def test_inv_mix_column_inv_affine_map() -> None:
    m, c = maps.inv_mix_column_inv_affine()
    rng = random.Random(7)
    for _ in range(300):
        col = rng.randbytes(4)
        want = bytes(inv_affine(b) for b in inv_mix_columns(col + bytes(12))[:4])
        assert gf2.apply(m, int.from_bytes(col, "big")) ^ c == int.from_bytes(want, "big")


def test_root_choice_is_the_cheapest() -> None:
    f = CompositeField()
    costs = {r: maps._cost(iso_matrix(f, r)) for r in aes_roots(f)}
    assert costs[maps.composite().root] == min(costs.values())


def test_gf2_inverse_detects_singular() -> None:
    with pytest.raises(ValueError):
        gf2.inverse((1, 1, 4))


def test_every_generated_file_is_current() -> None:
    """The one staleness test of the repository's generated files."""
    bad = stale()
    assert not bad, f"out of date, rerun python -m aeskit.gen: {[str(p) for p in bad]}"


def test_stale_reports_a_changed_or_missing_file(tmp_path: Path) -> None:
    """The check is not vacuous: an edited file and a missing file are reported."""
    texts = outputs()
    for rel, text in texts.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    assert stale(tmp_path, texts) == []
    rel = str(rtl.path("ak_tbox_ram").relative_to(REPO_ROOT))
    edited = tmp_path / rel
    edited.write_text(texts[rel].replace("32'h", "32'H", 1))
    missing = tmp_path / "hw" / "systems" / "cipher_ahb" / "gen" / "ak_cipher_ahb_regs.h"
    missing.unlink()
    assert stale(tmp_path, texts) == [edited, missing]


def test_check_mode_exit_status(monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    sbox = rtl.path("ak_sbox")
    monkeypatch.setattr(cli, "stale", lambda: [sbox])
    assert cli.main(["--check"]) == 1
    assert f"{sbox.relative_to(REPO_ROOT)} is out of date" in capsys.readouterr().err
    monkeypatch.setattr(cli, "stale", lambda: [])
    assert cli.main(["--check"]) == 0


def test_every_generated_rtl_file_is_in_a_manifest() -> None:
    """Each generated module's file is listed by a manifest, under hw/."""
    for module in RTL:
        path = rtl.path(module)
        assert path.is_file() and path.stem == module
        assert path.is_relative_to(HW_ROOT) and manifest.owner(path)


def _case_table(text: str) -> list[int]:
    rows = re.findall(r"^\s+8'h([0-9a-f]{2}): \w+ <?= 8'h([0-9a-f]{2});$", text, re.M)
    assert [int(a, 16) for a, _ in rows] == list(range(256))
    return [int(b, 16) for _, b in rows]


@pytest.mark.parametrize("module, want", [
    ("ak_sbox", SBOX),
    ("ak_inv_sbox", INV_SBOX),
    ("ak_sbox_bram", SBOX),
    ("ak_inv_sbox_bram", INV_SBOX),
    ("ak_gf_inv", tuple(gf_inv(x) for x in range(256))),
])
def test_case_tables_equal_model(module: str, want: tuple[int, ...]) -> None:
    assert _case_table(RTL[module]()) == list(want)


def test_sbox_rom_byte_equals_model() -> None:
    """ak_sbox_rom_byte (compact8's block-RAM S-box): {0, b} holds S(b), {1, b} S^-1(b)."""
    rows = re.findall(r"^\s+9'h([0-9a-f]{3}): rom_q <= 8'h([0-9a-f]{2});$",
                      RTL["ak_sbox_rom_byte"](), re.M)
    assert [int(a, 16) for a, _ in rows] == list(range(512))
    assert [int(b, 16) for _, b in rows] == list(SBOX) + list(INV_SBOX)


def test_tbox_ram_words_equal_model() -> None:
    """Word i of the packed localparam (listed from word 511 down) is S(b) x {02,01,01,03}
    for i = {0, b} and S^-1(b) x {0e,09,0d,0b} for i = {1, b}, lane 0 in [31:24]."""
    listed = re.findall(r"32'h([0-9a-f]{8})", RTL["ak_tbox_ram"]())
    words = [int(w, 16) for w in reversed(listed)]
    want = []
    for table, coef in ((SBOX, (0x02, 0x01, 0x01, 0x03)), (INV_SBOX, (0x0E, 0x09, 0x0D, 0x0B))):
        want += [int.from_bytes(bytes(gf_mul(table[b], c) for c in coef), "big")
                 for b in range(256)]
    assert words == want
