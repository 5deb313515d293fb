// fv_inv_affine_mix: formal-proof composition of paper 001's retimed round column:
// four LUT inverters ak_gf_inv, then the merged Affine + MixColumns
// ak_affine_mix_column.
`default_nettype none
module fv_inv_affine_mix (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] v;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_gf_inv u (.in_i(in_i[8*b +: 8]), .out_o(v[8*b +: 8]));
  end
  ak_affine_mix_column u_amc (.in_i(v), .out_o(out_o));
endmodule
`default_nettype wire
