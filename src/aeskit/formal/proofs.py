"""The equivalence proofs of the S-box library: every variant against the table
S-box (``ak_sbox`` / ``ak_inv_sbox``), every merged linear map against the
composition it replaces. Run by tests/aeskit/formal and by ``aeskit primitives``.

Every design is named by its top module; its files come from the FuseSoC manifests
(:func:`aeskit.hw.manifest.sources_of_module`). The compositions a proof needs
("delta, the tower inversion, delta^-1", "Affine then MixColumns" ...) are bench
modules under ``hw/bench/formal/`` (``fv_*.sv``, one manifest each).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aeskit.formal.equiv import ProofResult, prove_equivalent
from aeskit.hw import manifest
from aeskit.synth import Design

__all__ = ["Proof", "PROOFS", "design_of", "proofs_for", "run_proof", "sources_of"]


def sources_of(top: str) -> tuple[Path, ...]:
    """The files that build module ``top`` (its manifest and the dependencies)."""
    return tuple(manifest.sources_of_module(top))


def design_of(top: str, name: str | None = None, **params: int) -> Design:
    """``top`` as a :class:`~aeskit.synth.Design` named ``name`` (default: ``top``)."""
    return Design(name or top, top, sources_of(top), parameters=dict(params))


def _d(name: str, top: str, **params: int) -> Callable[[], Design]:
    return lambda: design_of(top, name, **params)


def _w(top: str) -> Callable[[], Design]:
    """A bench wrapper of hw/bench/formal (design named after its top)."""
    return lambda: design_of(top)


SBOX = _d("sbox", "ak_sbox")
INV_SBOX = _d("inv_sbox", "ak_inv_sbox")


@dataclass(frozen=True)
class Proof:
    """gate == gold; ``covers`` names the primitive rows (aeskit primitives) it proves."""

    name: str
    gold: Callable[[], Design]
    gate: Callable[[], Design]
    covers: tuple[str, ...]
    fix: dict[str, int] = field(default_factory=dict)
    seq: int = 0
    #: > 0: both sides are GF(2)-linear maps of in_i[linear-1:0] (XOR-only proof)
    linear: int = 0
    #: set: a proof by :mod:`aeskit.formal.bilinear` instead of SAT (the GF(2^128)
    #: multipliers); returns (gold schedule, gate schedule, expected control outputs)
    bilinear: Callable[[], tuple] | None = None


def _encdec(fam: str, top: str) -> list[Proof]:
    gate = _d(fam, top)
    extra = EXTRA_COVERS.get(fam, ())
    return [Proof(f"{fam}-enc", SBOX, gate, (f"sbox_{fam}", f"sbox_{fam}_encdec", *extra),
                  {"dec_i": 0}),
            Proof(f"{fam}-dec", INV_SBOX, gate, (f"inv_sbox_{fam}", f"sbox_{fam}_encdec", *extra),
                  {"dec_i": 1})]


#: parts proven through the composite S-box they are built into
EXTRA_COVERS = {"comp": ("sbox_comp_s1", "sbox_comp_s2"), "canright": ("nb_inv",),
                "lutinv": ("gf_inv", "affine", "inv_affine")}


_IMPLS = {"table": 0, "comp": 1, "canright": 2, "lutinv": 3}

PROOFS: tuple[Proof, ...] = (
    *_encdec("comp", "ak_sbox_comp_encdec"),
    *_encdec("canright", "ak_sbox_canright_encdec"),
    *_encdec("lutinv", "ak_sbox_lutinv_encdec"),
    *(Proof(f"sel-{k}", SBOX, _d(f"sbox_sel{v}", "ak_sbox_sel", Impl=v), ("sbox_sel",))
      for k, v in _IMPLS.items()),
    *(Proof(f"inv-sel-{k}", INV_SBOX, _d(f"inv_sbox_sel{v}", "ak_inv_sbox_sel", Impl=v),
            ("inv_sbox_sel",)) for k, v in _IMPLS.items()),
    Proof("bram", _w("fv_sbox_reg"), _d("sbox_bram", "ak_sbox_bram"), ("sbox_bram",), seq=2),
    Proof("inv-bram", _w("fv_inv_sbox_reg"), _d("inv_sbox_bram", "ak_inv_sbox_bram"),
          ("inv_sbox_bram",), seq=2),
    # both read enables high: the enables' hold is simulated (test_sbox_rom2.py)
    Proof("rom2", _w("fv_sbox_rom2"), _d("sbox_rom2", "ak_sbox_rom2"), ("sbox_rom2",),
          {"a_en_i": 1, "b_en_i": 1}, seq=2),
    Proof("tower-inv", _d("gf_inv", "ak_gf_inv"), _w("fv_tower_inv"),
          ("nb_inv", "ueno_iso", "ueno_iso_inv")),
    Proof("ueno-sbox-enc", SBOX, _w("fv_ueno_sbox"),
          ("ueno_iso", "ueno_iso_inv", "ueno_affine", "nb_inv"), {"dec_i": 0}),
    Proof("ueno-sbox-dec", INV_SBOX, _w("fv_ueno_sbox"),
          ("ueno_iso", "ueno_iso_inv", "ueno_affine", "nb_inv"), {"dec_i": 1}),
    Proof("ueno-enc-column", _w("fv_ueno_enc_ref"),
          _d("ueno_enc_column", "ak_ueno_enc_column"), ("ueno_enc_column",), linear=32),
    Proof("ueno-dec-column", _w("fv_ueno_dec_ref"),
          _d("ueno_dec_column", "ak_ueno_dec_column"), ("ueno_dec_column",), linear=32),
    Proof("affine-mix-column", _w("fv_affine_mix_ref"),
          _d("affine_mix_column", "ak_affine_mix_column"), ("affine_mix_column",), linear=32),
    Proof("inv-mix-column-inv-affine", _w("fv_inv_mix_inv_affine_ref"),
          _d("inv_mix_column_inv_affine", "ak_inv_mix_column_inv_affine"),
          ("inv_mix_column_inv_affine",), linear=32),
    Proof("inv-mix-column-direct", _d("inv_mix_column", "ak_inv_mix_column"),
          _d("inv_mix_column_direct", "ak_inv_mix_column_direct"),
          ("inv_mix_column_direct",), linear=32),
)


def _gf128_proofs() -> tuple[tuple[Proof, ...], tuple[Proof, ...]]:
    """The GF(2^128) multipliers (:mod:`aeskit.formal.gf128`): every one against the
    schoolbook ak_gf128_mul_comb. All take 5-15 s; the first tuple runs in make test,
    the second (the remaining digit sizes) in make test-full."""
    from aeskit.formal import gf128 as g

    def mul_proof(d: int, k: bool) -> Proof:
        name = f"gf128_mul_d{d}" + ("_kara" if k else "")
        covers = (name, "gf128_digit_step", "gf128_reduce") if d < 128 else (name,)
        if d == 128 and k:
            covers = (name, "gf128_reduce")
        return Proof(f"gf128-mul-d{d}" + ("-kara" if k else ""), g.comb,
                     lambda: g.mul(d, k), covers, bilinear=lambda: g.mul_schedule(d))

    def step_proof(d: int, k: bool) -> Proof:
        return Proof(f"gf128-step-d{d}" + ("-kara" if k else ""), lambda: g.step_ref(d),
                     lambda: g.step(d, k), ("gf128_digit_step", "gf128_reduce"),
                     bilinear=g.step_schedule)

    fast = (Proof("gf128-kara", g.comb, g.kara, ("gf128_mul_kara", "gf128_reduce"),
                  bilinear=g.comb_schedule),
            step_proof(8, False),
            *(mul_proof(d, k) for d, k in ((128, False), (128, True), (32, True), (8, False),
                                           (1, False))))
    slow = (*(step_proof(d, k) for d, k in ((1, False), (4, False), (16, False), (16, True),
                                            (32, False), (32, True))),
            *(mul_proof(d, k) for d, k in ((32, False), (16, False), (16, True),
                                           (4, False))))
    return fast, slow


#: the GF(2^128) proofs of make test (in PROOFS) and of make test-full only
GF128_PROOFS, GF128_SLOW_PROOFS = _gf128_proofs()
PROOFS = PROOFS + GF128_PROOFS


def proofs_for(variant: str) -> list[Proof]:
    return [p for p in (*PROOFS, *GF128_SLOW_PROOFS) if variant in p.covers]


def run_proof(p: Proof, out_dir: Path | None = None) -> ProofResult:
    if p.bilinear is not None:
        from aeskit.formal.bilinear import prove_bilinear

        gold_s, gate_s, expect = p.bilinear()
        return prove_bilinear(p.gold(), p.gate(), gold_s, gate_s, name=f"proof-{p.name}",
                              out_dir=out_dir, expect=expect)
    return prove_equivalent(p.gold(), p.gate(), name=f"proof-{p.name}", fix=p.fix, seq=p.seq,
                            linear_width=p.linear, out_dir=out_dir)
