// fv_ueno_enc_ref: formal-proof reference (aeskit.formal.proofs "ueno-enc-column"):
// the linear maps paper 002's encryption unified affine ak_ueno_enc_column replaces,
// composed from their parts: delta(MixColumns(Affine(delta^-1 x))) per column (the
// Affine constant included).
`default_nettype none
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
`default_nettype wire
