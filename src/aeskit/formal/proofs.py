"""The equivalence proofs of the S-box library: every variant against the table
S-box (``ak_sbox`` / ``ak_inv_sbox``), every merged linear map against the
composition it replaces. Run by tests/aeskit/formal and by ``aeskit primitives``.

Small wrapper modules (compositions such as "four S-boxes then MixColumns") are
written under ``build/formal/wrappers/`` when a proof needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from aeskit import BUILD_ROOT, HW_ROOT
from aeskit.formal.equiv import ProofResult, prove_equivalent
from aeskit.synth import Design

__all__ = ["Proof", "PROOFS", "proofs_for", "run_proof", "WRAPPER_DIR"]

PRIM = HW_ROOT / "primitives"
WRAPPER_DIR = BUILD_ROOT / "formal" / "wrappers"


def prim(*names: str) -> tuple[Path, ...]:
    return tuple(PRIM / f"{n}.sv" for n in names)


SEL = prim("ak_sbox", "ak_inv_sbox", "ak_sbox_comp_s1", "ak_sbox_comp_s2", "ak_sbox_comp_encdec",
           "ak_nb_inv", "ak_sbox_canright_encdec", "ak_gf_inv", "ak_affine", "ak_inv_affine",
           "ak_sbox_lutinv_encdec", "ak_sbox_sel", "ak_inv_sbox_sel")
UENO = prim("ak_ueno_iso", "ak_ueno_iso_inv", "ak_nb_inv", "ak_ueno_affine")

# ------------------------------------------------------------------------------------
# wrappers (test-only compositions; never part of hw/)
# ------------------------------------------------------------------------------------
_WRAPPERS: dict[str, str] = {
    "fv_sbox_reg": """
module fv_sbox_reg (input logic clk_i, input logic [7:0] in_i, output logic [7:0] out_o);
  logic [7:0] s;
  ak_sbox u (.in_i(in_i), .out_o(s));
  always_ff @(posedge clk_i) out_o <= s;
endmodule
""",
    "fv_inv_sbox_reg": """
module fv_inv_sbox_reg (input logic clk_i, input logic [7:0] in_i, output logic [7:0] out_o);
  logic [7:0] s;
  ak_inv_sbox u (.in_i(in_i), .out_o(s));
  always_ff @(posedge clk_i) out_o <= s;
endmodule
""",
    # paper 002 S-box: delta, tower inversion, tower-field (Inv)Affine, delta^-1
    "fv_ueno_sbox": """
module fv_ueno_sbox (input logic [7:0] in_i, input logic dec_i, output logic [7:0] out_o);
  logic [7:0] t, a_pre, i_in, i_out, a_post, r;
  ak_ueno_iso     u_iso (.in_i(in_i), .out_o(t));
  ak_ueno_affine  u_pre (.in_i(t), .dec_i(1'b1), .out_o(a_pre));
  assign i_in = dec_i ? a_pre : t;
  ak_nb_inv       u_inv (.in_i(i_in), .out_o(i_out));
  ak_ueno_affine  u_post (.in_i(i_out), .dec_i(1'b0), .out_o(a_post));
  assign r = dec_i ? i_out : a_post;
  ak_ueno_iso_inv u_back (.in_i(r), .out_o(out_o));
endmodule
""",
    "fv_tower_inv": """
module fv_tower_inv (input logic [7:0] in_i, output logic [7:0] out_o);
  logic [7:0] t, i;
  ak_ueno_iso     u_iso (.in_i(in_i), .out_o(t));
  ak_nb_inv       u_inv (.in_i(t), .out_o(i));
  ak_ueno_iso_inv u_back (.in_i(i), .out_o(out_o));
endmodule
""",
    # MixColumns(SubBytes(column)) with table S-boxes
    "fv_sub_mix_column": """
module fv_sub_mix_column (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] s;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_sbox u (.in_i(in_i[8*b +: 8]), .out_o(s[8*b +: 8]));
  end
  ak_mix_column u_mc (.in_i(s), .out_o(out_o));
endmodule
""",
    # paper 001 retimed: inverters, then the merged Affine + MixColumns
    "fv_inv_affine_mix": """
module fv_inv_affine_mix (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] v;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_gf_inv u (.in_i(in_i[8*b +: 8]), .out_o(v[8*b +: 8]));
  end
  ak_affine_mix_column u_amc (.in_i(v), .out_o(out_o));
endmodule
""",
    # the linear maps the encryption unified affine replaces: delta(MC(A(delta^-1 x)) + c)
    "fv_ueno_enc_ref": """
module fv_ueno_enc_ref (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] a, b, m;
  for (genvar i = 0; i < 4; i++) begin : g_in
    ak_ueno_iso_inv u_back (.in_i(in_i[8*i +: 8]), .out_o(a[8*i +: 8]));
    ak_affine       u_aff  (.in_i(a[8*i +: 8]), .out_o(b[8*i +: 8]));
  end
  ak_mix_column u_mc (.in_i(b), .out_o(m));
  for (genvar i = 0; i < 4; i++) begin : g_out
    ak_ueno_iso u_iso (.in_i(m[8*i +: 8]), .out_o(out_o[8*i +: 8]));
  end
endmodule
""",
    # ... and the decryption one: delta(A^-1(IMC(delta^-1 y)) + c')
    "fv_ueno_dec_ref": """
module fv_ueno_dec_ref (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] a, m, b;
  for (genvar i = 0; i < 4; i++) begin : g_in
    ak_ueno_iso_inv u_back (.in_i(in_i[8*i +: 8]), .out_o(a[8*i +: 8]));
  end
  ak_inv_mix_column u_imc (.in_i(a), .out_o(m));
  for (genvar i = 0; i < 4; i++) begin : g_out
    ak_inv_affine u_iaff (.in_i(m[8*i +: 8]), .out_o(b[8*i +: 8]));
    ak_ueno_iso   u_iso  (.in_i(b[8*i +: 8]), .out_o(out_o[8*i +: 8]));
  end
endmodule
""",
    # the linear maps ak_affine_mix_column replaces: MC(A v0 + 63, .., A v3 + 63)
    "fv_affine_mix_ref": """
module fv_affine_mix_ref (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] a;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_affine u (.in_i(in_i[8*b +: 8]), .out_o(a[8*b +: 8]));
  end
  ak_mix_column u_mc (.in_i(a), .out_o(out_o));
endmodule
""",
    # a whole paper-002 encryption round column (no key): delta^-1(U(inv(delta x)))
    "fv_ueno_enc_round": """
module fv_ueno_enc_round (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] t, v, u;
  for (genvar i = 0; i < 4; i++) begin : g_in
    ak_ueno_iso u_iso (.in_i(in_i[8*i +: 8]), .out_o(t[8*i +: 8]));
    ak_nb_inv   u_inv (.in_i(t[8*i +: 8]), .out_o(v[8*i +: 8]));
  end
  ak_ueno_enc_column u_col (.in_i(v), .out_o(u));
  for (genvar i = 0; i < 4; i++) begin : g_out
    ak_ueno_iso_inv u_back (.in_i(u[8*i +: 8]), .out_o(out_o[8*i +: 8]));
  end
endmodule
""",
}


def wrapper(name: str) -> Path:
    """Write the wrapper ``name`` (if changed) and return its path."""
    WRAPPER_DIR.mkdir(parents=True, exist_ok=True)
    p = WRAPPER_DIR / f"{name}.sv"
    text = "`default_nettype none\n" + _WRAPPERS[name].lstrip() + "`default_nettype wire\n"
    if not p.is_file() or p.read_text() != text:
        p.write_text(text)
    return p


def _d(name: str, top: str, files: tuple[Path, ...], **params: int) -> Callable[[], Design]:
    return lambda: Design(name, top, files, parameters=dict(params))


def _w(top: str, files: tuple[Path, ...]) -> Callable[[], Design]:
    return lambda: Design(top, top, (*files, wrapper(top)))


SBOX = _d("sbox", "ak_sbox", prim("ak_sbox"))
INV_SBOX = _d("inv_sbox", "ak_inv_sbox", prim("ak_inv_sbox"))


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


def _encdec(fam: str, top: str, files: tuple[Path, ...]) -> list[Proof]:
    gate = _d(fam, top, files)
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
    *_encdec("comp", "ak_sbox_comp_encdec",
             prim("ak_sbox_comp_s1", "ak_sbox_comp_s2", "ak_sbox_comp_encdec")),
    *_encdec("canright", "ak_sbox_canright_encdec", prim("ak_nb_inv", "ak_sbox_canright_encdec")),
    *_encdec("lutinv", "ak_sbox_lutinv_encdec",
             prim("ak_gf_inv", "ak_affine", "ak_inv_affine", "ak_sbox_lutinv_encdec")),
    *(Proof(f"sel-{k}", SBOX, _d(f"sbox_sel{v}", "ak_sbox_sel", SEL, Impl=v), ("sbox_sel",))
      for k, v in _IMPLS.items()),
    *(Proof(f"inv-sel-{k}", INV_SBOX, _d(f"inv_sbox_sel{v}", "ak_inv_sbox_sel", SEL, Impl=v),
            ("inv_sbox_sel",)) for k, v in _IMPLS.items()),
    Proof("bram", _w("fv_sbox_reg", prim("ak_sbox")),
          _d("sbox_bram", "ak_sbox_bram", prim("ak_sbox_bram")), ("sbox_bram",), seq=2),
    Proof("inv-bram", _w("fv_inv_sbox_reg", prim("ak_inv_sbox")),
          _d("inv_sbox_bram", "ak_inv_sbox_bram", prim("ak_inv_sbox_bram")), ("inv_sbox_bram",),
          seq=2),
    Proof("tower-inv", _d("gf_inv", "ak_gf_inv", prim("ak_gf_inv")), _w("fv_tower_inv", UENO),
          ("nb_inv", "ueno_iso", "ueno_iso_inv")),
    Proof("ueno-sbox-enc", SBOX, _w("fv_ueno_sbox", UENO),
          ("ueno_iso", "ueno_iso_inv", "ueno_affine", "nb_inv"), {"dec_i": 0}),
    Proof("ueno-sbox-dec", INV_SBOX, _w("fv_ueno_sbox", UENO),
          ("ueno_iso", "ueno_iso_inv", "ueno_affine", "nb_inv"), {"dec_i": 1}),
    Proof("ueno-enc-column", _w("fv_ueno_enc_ref", prim("ak_ueno_iso", "ak_ueno_iso_inv",
                                                       "ak_affine", "ak_xtime", "ak_mix_column")),
          _d("ueno_enc_column", "ak_ueno_enc_column", prim("ak_ueno_enc_column")),
          ("ueno_enc_column",), linear=32),
    Proof("ueno-dec-column",
          _w("fv_ueno_dec_ref", prim("ak_ueno_iso", "ak_ueno_iso_inv", "ak_inv_affine",
                                     "ak_xtime", "ak_mix_column", "ak_inv_mix_column")),
          _d("ueno_dec_column", "ak_ueno_dec_column", prim("ak_ueno_dec_column")),
          ("ueno_dec_column",), linear=32),
    Proof("affine-mix-column",
          _w("fv_affine_mix_ref", prim("ak_affine", "ak_xtime", "ak_mix_column")),
          _d("affine_mix_column", "ak_affine_mix_column", prim("ak_affine_mix_column")),
          ("affine_mix_column",), linear=32),
    Proof("inv-mix-column-direct",
          _d("inv_mix_column", "ak_inv_mix_column", prim("ak_xtime", "ak_mix_column",
                                                         "ak_inv_mix_column")),
          _d("inv_mix_column_direct", "ak_inv_mix_column_direct",
             prim("ak_xtime", "ak_inv_mix_column_direct")),
          ("inv_mix_column_direct",), linear=32),
)


def proofs_for(variant: str) -> list[Proof]:
    return [p for p in PROOFS if variant in p.covers]


def run_proof(p: Proof, out_dir: Path | None = None) -> ProofResult:
    return prove_equivalent(p.gold(), p.gate(), name=f"proof-{p.name}", fix=p.fix, seq=p.seq,
                            linear_width=p.linear, out_dir=out_dir)
