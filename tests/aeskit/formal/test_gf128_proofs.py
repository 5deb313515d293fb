"""aeskit.formal.bilinear and the GF(2^128) proofs (aeskit.formal.gf128).

The proofs of make test are in ``aeskit.formal.proofs.PROOFS`` and run by
test_formal.py; the remaining digit sizes run here behind the slow marker. The
checks below show that the method fails where it must: a wrong Karatsuba term, a
wrong serial step, a wrong done_o timing, and a design that is not bilinear in its
declared operands (refused, not "proven").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit import BUILD_ROOT
from aeskit.formal import gf128 as g
from aeskit.formal.bilinear import Schedule, prove_bilinear
from aeskit.formal.equiv import FormalError
from aeskit.formal.proofs import GF128_PROOFS, GF128_SLOW_PROOFS, proofs_for, run_proof
from aeskit.hw import PRIMITIVES
from aeskit.synth import Design

MUT = BUILD_ROOT / "formal" / "mutants-gf128"


@pytest.mark.slow
@pytest.mark.parametrize("proof", GF128_SLOW_PROOFS, ids=[p.name for p in GF128_SLOW_PROOFS])
def test_slow_proof(proof) -> None:
    r = run_proof(proof)
    assert r.proven, f"{proof.name}: not equivalent, see {r.log_path}\n{r.detail}"


def test_every_gf128_primitive_has_a_proof() -> None:
    lib = {p.name for p in PRIMITIVES if p.kind == "gf128" and p.name != "gf128_mul_comb"}
    missing = sorted(n for n in lib if not proofs_for(n))
    assert not missing, missing
    # make test proves the one-cycle forms and digits 32 (Karatsuba), 8 and 1
    assert {p.name for p in GF128_PROOFS} >= {"gf128-kara", "gf128-mul-d1", "gf128-mul-d128"}


def _mutant(design: Design, old: str, new: str, tag: str) -> Design:
    files = list(design.files)
    top_file = next(f for f in files if Path(f).stem == design.top)
    text = Path(top_file).read_text()
    assert old in text, f"mutation anchor {old!r} not in {top_file}"
    out = MUT / tag
    out.mkdir(parents=True, exist_ok=True)
    bad = out / Path(top_file).name
    bad.write_text(text.replace(old, new, 1))
    return Design(f"{design.name}_{tag}", design.top,
                  tuple(bad if f == top_file else f for f in files), parameters=design.parameters)


def test_fails_on_wrong_karatsuba_term() -> None:
    bad = _mutant(g.kara(), "^ lo ^ hi;\n    prod", "^ lo;\n    prod", "kara")
    gold_s, gate_s, _ = g.comb_schedule()
    r = prove_bilinear(g.comb(), bad, gold_s, gate_s, name="mutant-gf128-kara",
                       out_dir=MUT / "run-kara")
    assert not r.proven and "differs" in r.detail


def test_fails_on_wrong_serial_shift() -> None:
    """The rest of a shifted by one digit too few: a wrong product, caught."""
    bad = _mutant(g.mul(8, False), "a_d    = a_q >> D;", "a_d    = a_q >> (D - 1);", "shift")
    gold_s, gate_s, exp = g.mul_schedule(8)
    r = prove_bilinear(g.comb(), bad, gold_s, gate_s, name="mutant-gf128-shift",
                       out_dir=MUT / "run-shift", expect=exp)
    assert not r.proven


def test_fails_on_wrong_done_timing() -> None:
    """One step too many: done_o a cycle late (and the product wrong), caught."""
    bad = _mutant(g.mul(32, False), "cnt_d  = CntW'(Steps - 2);", "cnt_d  = CntW'(Steps - 1);",
                  "late")
    gold_s, gate_s, exp = g.mul_schedule(32)
    r = prove_bilinear(g.comb(), bad, gold_s, gate_s, name="mutant-gf128-late",
                       out_dir=MUT / "run-late", expect=exp)
    assert not r.proven and "done_o" in r.detail


def test_refuses_a_design_that_is_not_bilinear() -> None:
    """a * a is quadratic in a: the type check refuses it instead of sampling it."""
    gold = g.comb()
    sq = Schedule({"a_i": "A", "b_i": "B"}, ({"a_i": "A", "b_i": "B"},), (0,), ("z_o",))
    bad = _mutant(g.comb(), "pb[i] = b_i[127-i];", "pb[i] = a_i[127-i] ^ b_i[127-i];", "square")
    with pytest.raises(FormalError, match="not bilinear"):
        prove_bilinear(gold, bad, sq, sq, name="mutant-gf128-square", out_dir=MUT / "run-sq")
