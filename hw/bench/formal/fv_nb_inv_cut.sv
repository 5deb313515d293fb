// fv_nb_inv_cut: test-only replacement of ak_nb_inv by a cut (the identity), read
// INSTEAD of hw/primitives/sbox/ak_nb_inv.sv for the linear part of the round proof:
// with the inversion cut out, ak_ueno_round is an affine map of (inverses, round
// key), which the XOR-only proof of aeskit.formal.equiv handles for all inputs. The
// inversion itself is proven separately (aeskit.formal.proofs "tower-inv":
// delta^-1(ak_nb_inv(delta(x))) == ak_gf_inv(x) for all x).
// The file is named for what it is and declares the module it stands in for, so it
// must never be compiled together with hw/primitives/sbox/ak_nb_inv.sv (its manifest
// aeskit:bench:fv_nb_inv_cut is used instead of aeskit:prim:sbox_canright).
`default_nettype none

module ak_nb_inv (
  input  logic [7:0] in_i,
  output logic [7:0] out_o
);
  assign out_o = in_i;
endmodule

`default_nettype wire
