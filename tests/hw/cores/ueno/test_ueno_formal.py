"""Formal proof that one round of ak_ueno_round (the round datapath of ``ueno``) equals
the FIPS-197 round, for every state and round key, encryption and decryption, normal
and final round, the full 128-bit round (not a column slice).

Why a cut. A plain miter of the whole round (or of one column: 32 state bits through
four S-boxes into MixColumns) against the table-S-box round did not finish in 5
minutes: the two sides share no internal points (table S-box vs tower inversion merged
into the unified affine) and the XOR mixing of four S-boxes defeats the SAT solver.
So the proof is split at the GF(2^8) inversion, which both sides contain:

1. ``round-cut-{enc,dec}``: with ak_nb_inv replaced by a cut (hw/bench/formal/
   fv_nb_inv_cut.sv, the identity), ak_ueno_round is an affine map of (v, k) -- v the 16
   tower-field inverses of the state, k the round key -- and so is the FIPS-197 round
   written from the reference primitives with the inversion cut at the same place
   (fv_ueno_round_cut_gold.sv: delta^-1(v) is gf_inv of the state bytes, SubBytes =
   ak_affine of it, ak_mix_column, ak_inv_mix_column_direct, ak_inv_affine). The
   XOR-only proof of :func:`aeskit.formal.prove_equivalent` (``linear_width=256``:
   both netlists contain only XOR/XNOR/NOT/BUF, and the miter holds for the 257 inputs
   0 and 2^i) proves them equal for all 2^256 inputs.
2. ``tower-inv`` (from :mod:`aeskit.formal.proofs`): delta^-1(ak_nb_inv(delta(x))) ==
   ak_gf_inv(x) for all x, i.e. the cut value v really is delta(gf_inv(.)) of the
   state bytes in both state forms; ``lutinv-enc/-dec`` prove ak_affine(ak_gf_inv(x))
   and ak_gf_inv(ak_inv_affine(x)) equal to the table S-boxes.

Together: ak_ueno_round(d, k) == delta(FIPS-197 round(delta^-1 d, k)) (encryption) and
the same for the retimed decryption state s = delta(InvAffine(m)). A mutated round
(one constant bit flipped, written under build/formal/mutants) must fail step 1.

Run time: about 30 s of CPU per proof (257 small SAT problems each); the two
directions of the paper's form in the normal run, the ueno_mux form in ``-m slow``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit import BUILD_ROOT
from aeskit.formal.equiv import prove_equivalent
from aeskit.formal.proofs import PROOFS, design_of, run_proof, sources_of
from aeskit.hw import manifest
from aeskit.synth import Design

#: the round under test (aeskit:core:ueno_round, a dependency of the cut wrapper's manifest)
ROUND = manifest.module_file("ak_ueno_round")


def _gold(dec: int) -> Design:
    return design_of("fv_ueno_round_cut_gold", "ueno_round_cut_gold", Dec=dec)


def _gate(dec: int, round_file: Path = ROUND, demux: int = 1) -> Design:
    """The cut wrapper on ``round_file`` (the real round, or a mutant in its place)."""
    files = [round_file if f == ROUND else f for f in sources_of("fv_ueno_round_cut")]
    assert round_file in files, "the cut wrapper's manifest must bring ak_ueno_round"
    return Design("ueno_round_cut", "fv_ueno_round_cut", tuple(files),
                  parameters={"Dec": dec, "Demux": demux})


@pytest.mark.parametrize("demux", [1, pytest.param(0, marks=pytest.mark.slow)],
                         ids=["demux", "mux"])
# the decryption round's proof (36 s) in make test-full; make test proves the
# encryption round, and the NIST and random tests run both directions
# both rounds' proofs in make test-full (36-46 s each); make test runs the NIST and random
# tests of both directions and the inversion cut's soundness proofs below
@pytest.mark.slow
@pytest.mark.parametrize("dec", [0, 1], ids=["enc", "dec"])
def test_round_equals_fips197_round(dec: int, demux: int) -> None:
    """Both forms of ak_ueno_round: the paper's demultiplexer + bit-parallel XOR
    (Demux = 1, core ueno; normal run) and output multiplexers (Demux = 0, core
    ueno_mux; ``-m slow``, to keep the normal run near a minute)."""
    r = prove_equivalent(_gold(dec), _gate(dec, demux=demux),
                         name=f"ueno-round-cut-{'dec' if dec else 'enc'}-{demux}",
                         linear_width=256)
    assert r.proven, f"ak_ueno_round differs from the FIPS-197 round:\n{r.detail}"


@pytest.mark.parametrize("proof", ["tower-inv", "lutinv-enc", "lutinv-dec"])
def test_inversion_cut_is_sound(proof: str) -> None:
    p = next(p for p in PROOFS if p.name == proof)
    r = run_proof(p)
    assert r.proven, f"{proof}: {r.detail}"


def test_mutated_round_fails() -> None:
    """The proof can fail: ak_ueno_round with the constant delta(05) = bd (which, in
    encryption, cancels the inactive decryption path) changed to bc must be refused."""
    text = ROUND.read_text()
    needle = "localparam logic [7:0] DeltaCi = 8'hbd;"
    assert needle in text
    mdir = BUILD_ROOT / "formal" / "mutants"
    mdir.mkdir(parents=True, exist_ok=True)
    mutant = mdir / ROUND.name
    mutant.write_text(text.replace(needle, "localparam logic [7:0] DeltaCi = 8'hbc;"))
    r = prove_equivalent(_gold(0), _gate(0, mutant), name="ueno-round-cut-mutant",
                         linear_width=256)
    assert not r.proven


@pytest.mark.parametrize("dec", [0, 1], ids=["mix", "inv-mix"])
def test_mix_column_encdec(dec: int) -> None:
    """ak_p002_mix_column_encdec (the MixColumns/InvMixColumns unification of the
    satoh and liu baselines) equals ak_mix_column (dec_i = 0) and ak_inv_mix_column
    (dec_i = 1) for all columns (XOR-only proof)."""
    gold = (design_of("ak_mix_column", "mix_column") if not dec
            else design_of("ak_inv_mix_column", "inv_mix_column"))
    gate = design_of("ak_p002_mix_column_encdec", "p002_mix_column_encdec")
    r = prove_equivalent(gold, gate, name=f"p002-mix-column-encdec-{dec}", fix={"dec_i": dec},
                         linear_width=32)
    assert r.proven, r.detail
