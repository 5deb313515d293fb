"""Text of the generated linear-map and field-arithmetic RTL: the affine maps, paper
001's Affine + MixColumns, paper 000's composite-field substages, the normal-basis
tower inverter and S-box, and paper 002's maps (tables: :mod:`aeskit.gen.tables`)."""

from __future__ import annotations

from aeskit.gen import gf2, maps
from aeskit.gen.fields import CompositeField, NormalField
from aeskit.gen.sv import COMB, FOOTER, header, linear_assigns, linear_function


def _fmt_choice(ch: maps.Choice) -> list[str]:
    f = ch.field
    if isinstance(f, CompositeField):
        return ["  field: GF(2^2) = GF(2)[x]/(x^2+x+1), GF(2^4) = GF(2^2)[y]/(y^2+y+phi),",
                "         GF(2^8) = GF(2^4)[z]/(z^2+z+lambda), phi = {10}_2, lambda = {1100}_2;",
                f"  isomorphism delta: x = {{02}} -> root {{{ch.root:02x}}} of x^8+x^4+x^3+x+1 "
                f"(tower bits: [7:4] coefficient of z)."]
    assert isinstance(f, NormalField)
    return ["  field: normal bases (W^2, W), (Z^4, Z), (Y^16, Y) with W^2+W+1 = 0,",
            f"         Z^2+Z+N = 0, N = {{{f.n:02b}}}_2, and Y^2+Y+nu = 0, nu = {{{f.nu:04b}}}_2;",
            "         bits [7:4] = coefficient of Y, [3:0] of Y^16 (likewise Z, W below);",
            f"  isomorphism T: x = {{02}} -> root {{{ch.root:02x}}} of x^8+x^4+x^3+x+1."]


# ------------------------------------------------------------------------------------
# paper 001: affine maps and the retimed Affine + MixColumns
# ------------------------------------------------------------------------------------
def affine_sv(inverse: bool) -> str:
    m = "ak_inv_affine" if inverse else "ak_affine"
    mat, c = ((maps.INV_AFFINE, maps.INV_AFFINE_C) if inverse
              else (maps.AFFINE, maps.AFFINE_C))
    what = ("InvAffine of InvSubBytes (FIPS-197 5.3.2): out = A^-1 in ^ 8'h05, so that "
            "ak_inv_sbox = ak_gf_inv(ak_inv_affine(x))." if inverse else
            "Affine map of SubBytes (FIPS-197 5.1.1): out = A in ^ 8'h63, so that "
            "ak_sbox = ak_affine(ak_gf_inv(x)).")
    lines = header(m, [what, "", COMB, "Byte order: one byte, bit 7 the coefficient of x^7.",
                       "Parameters: none."])
    lines += [f"module {m} (", "  input  logic [7:0] in_i,", "  output logic [7:0] out_o",
              ");", ""]
    lines += linear_assigns("out_o", "in_i", mat, c)
    lines += FOOTER
    return "\n".join(lines)


def affine_mix_column_sv() -> str:
    m = "ak_affine_mix_column"
    mat, c = maps.affine_mix_column()
    lines = header(m, [
        "the retimed encryption round of paper 001 -- Affine merged with",
        "MixColumns. Input: a column of GF(2^8) inverses v (ak_gf_inv outputs); output:",
        "MixColumns(Affine(v0), .., Affine(v3)) = MixColumns(SubBytes(column)), one",
        "32x32 GF(2) matrix plus the constant MixColumns(63,63,63,63) = 63636363,",
        f"generated ({gf2.xor_count(mat)} two-input XORs before synthesis shares terms).",
        "",
        COMB,
        "Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic [31:0] in_i,", "  output logic [31:0] out_o",
              ");", ""]
    lines += linear_assigns("out_o", "in_i", mat, c)
    lines += FOOTER
    return "\n".join(lines)


def inv_mix_column_inv_affine_sv() -> str:
    m = "ak_inv_mix_column_inv_affine"
    mat, c = maps.inv_mix_column_inv_affine()
    lines = header(m, [
        "paper 001's retimed decryption round --",
        "InvMixColumns merged with the InvAffine that follows it (the next round's",
        "InvSubBytes, retimed back). Input: a column y (inverses ^ round key); output:",
        "InvAffine of each byte of InvMixColumns(y), one 32x32 GF(2) matrix plus the",
        f"constant 05050505, generated ({gf2.xor_count(mat)} two-input XORs before synthesis",
        "shares terms): one flat XOR per output bit instead of the chain InvMixColumns ->",
        "InvAffine, so that synthesis maps it to the depth of a single matrix.",
        "",
        COMB,
        "Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic [31:0] in_i,", "  output logic [31:0] out_o",
              ");", ""]
    lines += linear_assigns("out_o", "in_i", mat, c)
    lines += FOOTER
    return "\n".join(lines)


# ------------------------------------------------------------------------------------
# paper 000: composite field, two substages
# ------------------------------------------------------------------------------------
_COMP_FUNCS = [
    "  // GF(2^2) = GF(2)[x]/(x^2+x+1): paper 000 eq. (6)",
    "  function automatic logic [1:0] gf4_mul(input logic [1:0] a, input logic [1:0] b);",
    "    return {(b[1] & a[1]) ^ (b[0] & a[1]) ^ (b[1] & a[0]), (b[1] & a[1]) ^ (b[0] & a[0])};",
    "  endfunction",
    "",
    "  function automatic logic [1:0] gf4_sq(input logic [1:0] a);",
    "    return {a[1], a[1] ^ a[0]};",
    "  endfunction",
    "",
    "  // multiplication by phi = {10}: paper 000 eq. (7)",
    "  function automatic logic [1:0] gf4_mul_phi(input logic [1:0] a);",
    "    return {a[1] ^ a[0], a[1]};",
    "  endfunction",
    "",
    "  // GF(2^4) = GF(2^2)[y]/(y^2+y+phi), Karatsuba: three GF(2^2) products",
    "  function automatic logic [3:0] gf16_mul(input logic [3:0] a, input logic [3:0] b);",
    "    logic [1:0] hh, ll, mm;",
    "    hh = gf4_mul(a[3:2], b[3:2]);",
    "    ll = gf4_mul(a[1:0], b[1:0]);",
    "    mm = gf4_mul(a[3:2] ^ a[1:0], b[3:2] ^ b[1:0]);",
    "    return {mm ^ ll, gf4_mul_phi(hh) ^ ll};",
    "  endfunction",
    "",
]

_COMP_S1_FUNCS = [
    "  // lambda * a^2 with lambda = {1100}: paper 000 eq. (4)",
    "  function automatic logic [3:0] gf16_sq_lambda(input logic [3:0] a);",
    "    return {a[2] ^ a[1] ^ a[0], a[3] ^ a[0], a[3], a[3] ^ a[2]};",
    "  endfunction",
    "",
    "  // (a1 y + a0)^-1 = (a1 y + (a1 + a0)) d^-1, d = phi a1^2 + a0 (a1 + a0), d^-1 = d^2",
    "  function automatic logic [3:0] gf16_inv(input logic [3:0] a);",
    "    logic [1:0] d, di;",
    "    d  = gf4_mul_phi(gf4_sq(a[3:2])) ^ gf4_mul(a[1:0], a[3:2] ^ a[1:0]);",
    "    di = gf4_sq(d);",
    "    return {gf4_mul(a[3:2], di), gf4_mul(a[3:2] ^ a[1:0], di)};",
    "  endfunction",
    "",
]


def comp_s1_sv() -> str:
    m = "ak_sbox_comp_s1"
    ch = maps.composite()
    (mf, cf), (mi, ci) = ch.in_fwd, ch.in_inv
    lines = header(m, [
        "substage 1 of the composite-field S-box of paper 000 (Yang, Wen, Fan):",
        "the input map (delta for SubBytes, delta x InvAffine for InvSubBytes, chosen by",
        "dec_i) and the GF(2^4) part of the inversion. For a = a1 z + a0 (after the",
        "map) it computes d = lambda a1^2 + a1 a0 + a0^2 and d^-1 in GF(2^4); substage 2",
        "(ak_sbox_comp_s2) finishes a^-1 = (a1 z + (a1 + a0)) d^-1 and maps back.",
        *_fmt_choice(ch),
        "",
        COMB + " A core may put",
        "            a register on out_o (the 12-bit cut between the substages).",
        "Byte order: in_i one AES byte (bit 7 = x^7); out_o = {a1, a0, d^-1} (4+4+4 bits,",
        "            composite-field coordinates, high half first).",
        "Parameters: none. dec_i: 0 SubBytes, 1 InvSubBytes.",
    ])
    lines += [f"module {m} (", "  input  logic [7:0]  in_i,", "  input  logic        dec_i,",
              "  output logic [11:0] out_o", ");", ""]
    lines += _COMP_FUNCS + _COMP_S1_FUNCS
    lines += ["  logic [7:0] map_enc;  // delta(in_i)",
              "  logic [7:0] map_dec;  // delta(InvAffine(in_i))",
              "  logic [7:0] a;", "  logic [3:0] d;", ""]
    lines += linear_assigns("map_enc", "in_i", mf, cf)
    lines += [""] + linear_assigns("map_dec", "in_i", mi, ci)
    lines += ["",
              "  assign a     = dec_i ? map_dec : map_enc;",
              "  assign d     = gf16_sq_lambda(a[7:4]) ^ gf16_mul(a[3:0], a[7:4] ^ a[3:0]);",
              "  assign out_o = {a, gf16_inv(d)};"]
    lines += FOOTER
    return "\n".join(lines)


def comp_s2_sv() -> str:
    m = "ak_sbox_comp_s2"
    ch = maps.composite()
    (mf, cf), (mi, ci) = ch.out_fwd, ch.out_inv
    lines = header(m, [
        "substage 2 of the composite-field S-box of paper 000: the two GF(2^4)",
        "products that finish the inversion, a^-1 = (a1 z + (a1 + a0)) d^-1, and the",
        "output map (Affine x delta^-1 ^ 8'h63 for SubBytes, delta^-1 for InvSubBytes).",
        *_fmt_choice(ch),
        "",
        COMB,
        "Byte order: in_i = {a1, a0, d^-1} from ak_sbox_comp_s1; out_o one AES byte.",
        "Parameters: none. dec_i: 0 SubBytes, 1 InvSubBytes.",
    ])
    lines += [f"module {m} (", "  input  logic [11:0] in_i,", "  input  logic        dec_i,",
              "  output logic [7:0]  out_o", ");", ""]
    lines += _COMP_FUNCS
    lines += ["  logic [7:0] inv;      // a^-1 in the composite field",
              "  logic [7:0] out_enc;  // Affine(delta^-1(inv)) ^ 63",
              "  logic [7:0] out_dec;  // delta^-1(inv)", "",
              "  assign inv = {gf16_mul(in_i[11:8], in_i[3:0]), "
              "gf16_mul(in_i[11:8] ^ in_i[7:4], in_i[3:0])};", ""]
    lines += linear_assigns("out_enc", "inv", mf, cf)
    lines += [""] + linear_assigns("out_dec", "inv", mi, ci)
    lines += ["", "  assign out_o = dec_i ? out_dec : out_enc;"]
    lines += FOOTER
    return "\n".join(lines)


# ------------------------------------------------------------------------------------
# normal-basis tower (Canright style) and paper 002
# ------------------------------------------------------------------------------------
def nb_inv_sv() -> str:
    m = "ak_nb_inv"
    ch = maps.canright()
    f = ch.field
    assert isinstance(f, NormalField)
    lines = header(m, [
        "inversion in GF(2^8) represented as the normal-basis tower GF(((2^2)^2)^2)",
        "(Canright's compact construction, derived here from the field definitions):",
        "  g = g1 Y + g0 Y^16:  g^-1 = (theta g0) Y + (theta g1) Y^16,",
        "                       theta = (g1 g0 + nu (g1 + g0)^2)^-1 in GF(2^4);",
        "  the same one level down with N in GF(2^2), where inversion is a bit swap.",
        "Shared by ak_sbox_canright_encdec and the paper-002 (Ueno) primitives.",
        *_fmt_choice(ch),
        "",
        COMB,
        "Byte order: in_i/out_o in normal-basis tower coordinates (0 maps to 0).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic [7:0] in_i,", "  output logic [7:0] out_o",
              ");", ""]
    lines += [
        "  // GF(2^2), basis (W^2, W): with e = (a1+a0)(b1+b0), c1 = a1 b1 ^ e, c0 = a0 b0 ^ e",
        "  function automatic logic [1:0] gf4_mul(input logic [1:0] a, input logic [1:0] b);",
        "    logic e;",
        "    e = (a[1] ^ a[0]) & (b[1] ^ b[0]);",
        "    return {(a[1] & b[1]) ^ e, (a[0] & b[0]) ^ e};",
        "  endfunction",
        "",
    ]
    lines += linear_function("gf4_scl_n", f.scl_n_matrix(), 2, f"N * a, N = {{{f.n:02b}}}")
    lines += linear_function("gf4_sq_scl_n", f.sq_scl_n_matrix(), 2, "N * a^2")
    lines += linear_function("gf16_sq_scl_nu", f.sq_scl_nu_matrix(), 4,
                             f"nu * a^2 in GF(2^4), nu = {{{f.nu:04b}}}")
    lines += [
        "  // GF(2^4), basis (Z^4, Z): c1 = a1 b1 ^ N e, c0 = a0 b0 ^ N e",
        "  function automatic logic [3:0] gf16_mul(input logic [3:0] a, input logic [3:0] b);",
        "    logic [1:0] e;",
        "    e = gf4_scl_n(gf4_mul(a[3:2] ^ a[1:0], b[3:2] ^ b[1:0]));",
        "    return {gf4_mul(a[3:2], b[3:2]) ^ e, gf4_mul(a[1:0], b[1:0]) ^ e};",
        "  endfunction",
        "",
        "  // GF(2^4) inverse: theta = (a1 a0 + N (a1+a0)^2)^-1 (a swap), (theta a0, theta a1)",
        "  function automatic logic [3:0] gf16_inv(input logic [3:0] a);",
        "    logic [1:0] n, theta;",
        "    n     = gf4_mul(a[3:2], a[1:0]) ^ gf4_sq_scl_n(a[3:2] ^ a[1:0]);",
        "    theta = {n[0], n[1]};",
        "    return {gf4_mul(theta, a[1:0]), gf4_mul(theta, a[3:2])};",
        "  endfunction",
        "",
        "  logic [3:0] theta;  // (g1 g0 + nu (g1 + g0)^2)^-1",
        "",
        "  assign theta = gf16_inv(gf16_mul(in_i[7:4], in_i[3:0]) ^ "
        "gf16_sq_scl_nu(in_i[7:4] ^ in_i[3:0]));",
        "  assign out_o = {gf16_mul(theta, in_i[3:0]), gf16_mul(theta, in_i[7:4])};",
    ]
    lines += FOOTER
    return "\n".join(lines)


def canright_sv() -> str:
    m = "ak_sbox_canright_encdec"
    ch = maps.canright()
    (m1, c1), (m2, c2), (m3, c3), (m4, c4) = ch.in_fwd, ch.in_inv, ch.out_fwd, ch.out_inv
    lines = header(m, [
        "S-box and inverse S-box sharing one normal-basis tower inversion",
        "(ak_nb_inv), Canright's compact style: dec_i selects the merged input map",
        "(T, or T x InvAffine) and the merged output map (Affine x T^-1 ^ 63, or T^-1).",
        *_fmt_choice(ch),
        "",
        COMB,
        "Byte order: one AES byte in and out, bit 7 the coefficient of x^7.",
        "Parameters: none. dec_i: 0 SubBytes, 1 InvSubBytes.",
    ])
    lines += [f"module {m} (", "  input  logic [7:0] in_i,", "  input  logic       dec_i,",
              "  output logic [7:0] out_o", ");", "",
              "  logic [7:0] map_enc, map_dec, t_in, t_out, out_enc, out_dec;", ""]
    lines += linear_assigns("map_enc", "in_i", m1, c1)
    lines += [""] + linear_assigns("map_dec", "in_i", m2, c2)
    lines += ["", "  assign t_in = dec_i ? map_dec : map_enc;", "",
              "  ak_nb_inv u_nb_inv (", "    .in_i (t_in),", "    .out_o(t_out)", "  );", ""]
    lines += linear_assigns("out_enc", "t_out", m3, c3)
    lines += [""] + linear_assigns("out_dec", "t_out", m4, c4)
    lines += ["", "  assign out_o = dec_i ? out_dec : out_enc;"]
    lines += FOOTER
    return "\n".join(lines)


def _ueno_common() -> list[str]:
    return ["The tower field is that of ak_nb_inv (delta = its isomorphism T):",
            *_fmt_choice(maps.canright())]


def ueno_map_sv(kind: str) -> str:
    u = maps.ueno()
    spec: dict[str, tuple[str, gf2.Matrix, int, int, list[str]]] = {
        "iso": ("ak_ueno_iso", u.delta, 0, 8,
                ["isomorphic mapping delta of paper 002 (Ueno et al.): AES field ->",
                 "normal-basis tower field (the pre-round datapath; also the key input)."]),
        "iso_inv": ("ak_ueno_iso_inv", u.delta_inv, 0, 8,
                    ["inverse isomorphic mapping delta^-1 of paper 002: tower field ->",
                     "AES field (the post-round datapath)."]),
        "enc_column": ("ak_ueno_enc_column", *u.enc_column, 32,
                       ["unified affine of the encryption round of paper 002, eq. (4):",
                        "row i = U0(x_i) ^ U1(x_i+1) ^ U2(x_i+2) ^ U3(x_i+3) ^ delta(63) with",
                        "U_e(x) = delta(u_e * A(delta^-1(x))), u = 02 03 01 01, on a column",
                        "of tower-field inverses (ak_nb_inv outputs); one 32x32 GF(2) matrix.",
                        "AddRoundKey (delta(k)) is the core's."]),
        "dec_column": ("ak_ueno_dec_column", *u.dec_column, 32,
                       ["unified affine of the decryption round of paper 002, eq. (6):",
                        "row i = V0(y_i) ^ V1(y_i+1) ^ V2(y_i+2) ^ V3(y_i+3) ^ delta(05) with",
                        "V_e(x) = delta(A^-1(v_e * delta^-1(x))), v = 0e 0b 0d 09, on a column",
                        "y = inverse(s) ^ delta(round key); the result is the retimed value",
                        "s of the next round (delta(InvAffine(state)))."]),
    }
    name, mat, c, width, what = spec[kind]
    lines = header(name, [*what, *_ueno_common(), "", COMB,
                          ("Byte order: row 0 in [31:24], row 3 in [7:0]; tower-field bytes."
                           if width == 32 else "Byte order: one byte in and out."),
                          "Parameters: none."])
    lines += [f"module {name} (", f"  input  logic [{width - 1}:0] in_i,",
              f"  output logic [{width - 1}:0] out_o", ");", ""]
    lines += linear_assigns("out_o", "in_i", mat, c)
    lines += FOOTER
    return "\n".join(lines)


def ueno_affine_sv() -> str:
    u = maps.ueno()
    name = "ak_ueno_affine"
    (ma, ca), (mi, ci) = u.affine_t, u.inv_affine_t
    lines = header(name, [
        "the S-box affine maps over the tower field, for the pre-/post-round and",
        "final-round datapaths of paper 002: dec_i = 0: delta(A(delta^-1 x)) ^ delta(63)",
        "(Affine); dec_i = 1: delta(A^-1(delta^-1 x)) ^ delta(05) (InvAffine, which",
        "gives the retimed decryption value s from delta(state)).",
        *_ueno_common(), "", COMB, "Byte order: one tower-field byte in and out.",
        "Parameters: none."])
    lines += [f"module {name} (", "  input  logic [7:0] in_i,", "  input  logic       dec_i,",
              "  output logic [7:0] out_o", ");", "", "  logic [7:0] aff, inv_aff;", ""]
    lines += linear_assigns("aff", "in_i", ma, ca)
    lines += [""] + linear_assigns("inv_aff", "in_i", mi, ci)
    lines += ["", "  assign out_o = dec_i ? inv_aff : aff;"]
    lines += FOOTER
    return "\n".join(lines)
