// fv_ueno_sbox: formal-proof wrapper (aeskit.formal.proofs "ueno-sbox-enc/-dec"): the
// paper-002 S-box built from its parts -- delta, the tower-field (Inv)Affine, the
// normal-basis tower inversion ak_nb_inv, delta^-1 -- proven equal to ak_sbox
// (dec_i = 0) and ak_inv_sbox (dec_i = 1).
`default_nettype none
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
`default_nettype wire
