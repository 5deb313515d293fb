// fv_ueno_enc_round: formal-proof composition of a whole paper-002 encryption round
// column without the key: delta^-1(U(inv(delta x))) -- delta, the tower inversion
// ak_nb_inv, the unified affine ak_ueno_enc_column, delta^-1.
`default_nettype none
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
`default_nettype wire
