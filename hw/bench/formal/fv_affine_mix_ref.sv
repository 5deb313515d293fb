// fv_affine_mix_ref: formal-proof reference (aeskit.formal.proofs "affine-mix-column"):
// the linear maps ak_affine_mix_column replaces, MixColumns(A v0 + 63, .., A v3 + 63),
// composed from ak_affine and ak_mix_column.
`default_nettype none
module fv_affine_mix_ref (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] a;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_affine u (.in_i(in_i[8*b +: 8]), .out_o(a[8*b +: 8]));
  end
  ak_mix_column u_mc (.in_i(a), .out_o(out_o));
endmodule
`default_nettype wire
