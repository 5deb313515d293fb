// fv_sbox_reg: formal-proof reference (aeskit.formal.proofs "bram"): the table S-box
// ak_sbox followed by an output register, i.e. what ak_sbox_bram (a block-RAM ROM with
// a registered read) must equal from the second cycle on.
`default_nettype none
module fv_sbox_reg (input logic clk_i, input logic [7:0] in_i, output logic [7:0] out_o);
  logic [7:0] s;
  ak_sbox u (.in_i(in_i), .out_o(s));
  always_ff @(posedge clk_i) out_o <= s;
endmodule
`default_nettype wire
