// fv_inv_mix_inv_affine_ref: formal-proof reference (aeskit.formal.proofs
// "inv-mix-column-inv-affine"): the linear maps ak_inv_mix_column_inv_affine replaces,
// InvAffine of each byte of InvMixColumns(in), composed from ak_inv_mix_column and
// ak_inv_affine.
`default_nettype none
module fv_inv_mix_inv_affine_ref (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] m;
  ak_inv_mix_column u_imc (.in_i(in_i), .out_o(m));
  for (genvar b = 0; b < 4; b++) begin : g
    ak_inv_affine u (.in_i(m[8*b +: 8]), .out_o(out_o[8*b +: 8]));
  end
endmodule
`default_nettype wire
