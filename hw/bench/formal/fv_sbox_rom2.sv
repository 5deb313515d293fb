// fv_sbox_rom2: formal-proof reference (aeskit.formal.proofs "rom2"): per port the table
// S-box (address bit 8 low) or inverse S-box (high) followed by an output register, i.e.
// what ak_sbox_rom2 with both read enables high must equal from the second cycle on.
`default_nettype none
module fv_sbox_rom2 (
  input  logic       clk_i,
  input  logic [8:0] a_addr_i,
  output logic [7:0] a_data_o,
  input  logic [8:0] b_addr_i,
  output logic [7:0] b_data_o
);
  logic [7:0] sa, ia, sb, ib;
  ak_sbox     u_sa (.in_i(a_addr_i[7:0]), .out_o(sa));
  ak_inv_sbox u_ia (.in_i(a_addr_i[7:0]), .out_o(ia));
  ak_sbox     u_sb (.in_i(b_addr_i[7:0]), .out_o(sb));
  ak_inv_sbox u_ib (.in_i(b_addr_i[7:0]), .out_o(ib));
  always_ff @(posedge clk_i) begin
    a_data_o <= a_addr_i[8] ? ia : sa;
    b_data_o <= b_addr_i[8] ? ib : sb;
  end
endmodule
`default_nettype wire
