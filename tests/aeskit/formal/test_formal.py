"""aeskit.formal.equiv: every proof of the S-box library holds, and the runner fails on a
deliberately wrong design (mutated copies written under build/)."""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit import BUILD_ROOT
from aeskit.formal.equiv import FormalError, prove_equivalent
from aeskit.formal.proofs import PROOFS, design_of, run_proof, sources_of
from aeskit.hw import PRIMITIVES, manifest
from aeskit.synth import Design

MUT = BUILD_ROOT / "formal" / "mutants"


@pytest.mark.parametrize("proof", PROOFS, ids=[p.name for p in PROOFS])
def test_proof(proof) -> None:
    r = run_proof(proof)
    assert r.proven, f"{proof.name}: not equivalent, see {r.log_path}\n{r.detail}"


def _mutant(module: str, old: str, new: str) -> Path:
    src = manifest.module_file(module)
    text = src.read_text()
    assert old in text, f"mutation anchor {old!r} not in {src}"
    MUT.mkdir(parents=True, exist_ok=True)
    p = MUT / src.name
    p.write_text(text.replace(old, new, 1))
    return p


def _with(top: str, bad: Path) -> tuple[Path, ...]:
    """The sources of ``top`` with the file of the mutated module replaced by ``bad``."""
    files = sources_of(top)
    assert sum(f.name == bad.name for f in files) == 1, f"{bad.name} not among {files}"
    return tuple(bad if f.name == bad.name else f for f in files)


def _sbox() -> Design:
    return design_of("ak_sbox", "sbox")


def test_fails_on_wrong_s2() -> None:
    """One flipped constant bit in substage 2's output map must be caught."""
    bad = _mutant("ak_sbox_comp_s2", "assign out_enc[0] = ", "assign out_enc[0] = 1'b1 ^ ")
    gate = Design("comp_bad", "ak_sbox_comp_encdec", _with("ak_sbox_comp_encdec", bad))
    r = prove_equivalent(_sbox(), gate, fix={"dec_i": 0}, name="mutant-s2",
                         out_dir=MUT / "run-s2")
    assert not r.proven and "FAIL" in r.detail


def test_fails_on_wrong_inversion() -> None:
    """A wrong GF(2^2) product inside the tower inversion."""
    bad = _mutant("ak_nb_inv", "(a[0] & b[0]) ^ e", "(a[0] | b[0]) ^ e")
    gate = Design("canright_bad", "ak_sbox_canright_encdec", _with("ak_sbox_canright_encdec", bad))
    r = prove_equivalent(_sbox(), gate, fix={"dec_i": 0}, name="mutant-nb",
                         out_dir=MUT / "run-nb")
    assert not r.proven


def test_fails_on_wrong_direction() -> None:
    gate = design_of("ak_sbox_lutinv_encdec", "lutinv")
    r = prove_equivalent(_sbox(), gate, fix={"dec_i": 1}, name="mutant-dir",
                         out_dir=MUT / "run-dir")
    assert not r.proven


def test_linear_mode_fails_on_wrong_map() -> None:
    bad = _mutant("ak_ueno_enc_column", "assign out_o[17] = ", "assign out_o[17] = in_i[3] ^ ")
    gold = design_of("ak_ueno_enc_column", "ref")
    gate = Design("bad", "ak_ueno_enc_column", (bad,))
    r = prove_equivalent(gold, gate, linear_width=32, name="mutant-lin", out_dir=MUT / "run-lin")
    assert not r.proven


def test_linear_mode_refuses_nonlinear_logic() -> None:
    """The XOR-only proof must not accept a design with AND gates in it."""
    gold = design_of("ak_ueno_iso", "ref")
    gate = design_of("ak_gf_inv", "inv")
    with pytest.raises(FormalError):
        prove_equivalent(gold, gate, linear_width=8, name="mutant-nonlin",
                         out_dir=MUT / "run-nonlin")


def test_port_mismatch_is_an_error() -> None:
    gate = design_of("ak_sbox_canright_encdec", "encdec")
    with pytest.raises(FormalError):
        prove_equivalent(_sbox(), gate, name="mutant-ports", out_dir=MUT / "run-ports")


def test_every_sbox_variant_has_a_proof() -> None:
    """Each S-box/inversion/linear-map primitive of the library is covered by a proof."""
    covered = {n for p in PROOFS for n in p.covers}
    lib = {p.name for p in PRIMITIVES if p.kind in ("sbox", "inv_sbox", "sbox_encdec",
                                                    "sbox_part", "inversion", "linear")
           and p.name not in ("sbox_table", "inv_sbox_table", "sub_word")}
    assert lib <= covered, f"no proof for {sorted(lib - covered)}"
