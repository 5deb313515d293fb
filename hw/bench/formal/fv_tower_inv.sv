// fv_tower_inv: formal-proof wrapper (aeskit.formal.proofs "tower-inv"):
// delta^-1(ak_nb_inv(delta(x))), the normal-basis tower inversion seen from the AES
// field, proven equal to the LUT inverter ak_gf_inv for every x.
`default_nettype none
module fv_tower_inv (input logic [7:0] in_i, output logic [7:0] out_o);
  logic [7:0] t, i;
  ak_ueno_iso     u_iso (.in_i(in_i), .out_o(t));
  ak_nb_inv       u_inv (.in_i(t), .out_o(i));
  ak_ueno_iso_inv u_back (.in_i(i), .out_o(out_o));
endmodule
`default_nettype wire
