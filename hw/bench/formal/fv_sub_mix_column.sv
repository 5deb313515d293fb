// fv_sub_mix_column: formal-proof composition: MixColumns(SubBytes(column)) with four
// table S-boxes ak_sbox and ak_mix_column (a reference for merged round columns).
`default_nettype none
module fv_sub_mix_column (input logic [31:0] in_i, output logic [31:0] out_o);
  logic [31:0] s;
  for (genvar b = 0; b < 4; b++) begin : g
    ak_sbox u (.in_i(in_i[8*b +: 8]), .out_o(s[8*b +: 8]));
  end
  ak_mix_column u_mc (.in_i(s), .out_o(out_o));
endmodule
`default_nettype wire
