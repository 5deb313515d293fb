// fv_ueno_dec_ref: formal-proof reference (aeskit.formal.proofs "ueno-dec-column"):
// the linear maps paper 002's decryption unified affine ak_ueno_dec_column replaces,
// composed from their parts: delta(InvAffine(InvMixColumns(delta^-1 y))) per column
// (the InvAffine constant included).
`default_nettype none
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
`default_nettype wire
