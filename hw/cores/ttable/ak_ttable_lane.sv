// ak_ttable_lane: the "basic construct" of paper 004 (Drimer/Guneysu/Paar, as used by
// Deshpande & Leelavathi): one 32-bit AES column per cycle from four T-table
// lookups in two dual-port block RAMs and an XOR cascade, eight pipeline stages.
// Shared by the three ttable_* cores (hw/cores/ttable); not a core by itself.
//
// One column. The column computed from the bytes b0..b3 (row j of the column comes
// from byte bj) and the round-key word k is
//   col = k ^ T0[b0] ^ T1[b1] ^ T2[b2] ^ T3[b3],   Tj = T0 rotated right by j bytes
// (decryption: the Td tables of the equivalent inverse cipher; last round: T0' =
// {S(b),0,0,0}). Port j of the lane always serves row j, so the rotation of port j is
// fixed wiring: ROM A (ports 0, 1) and ROM B (ports 2, 3) hold T0 only and the
// paper's 2:1 (encryption) or 4:1 (decryption) rotation multiplexer is not needed.
//
// The eight stages, staggered by row like the paper's DSP cascade (port j of a
// column works one cycle after port j-1). Edge numbers are relative to the edge E at
// which byte b0 is looked up:
//   L  edge E+j    addr_i[j] sampled by the block RAM (lookup of byte j)
//   R  edge E+j+1  block RAM word registered
//   T  edge E+j+2  word rotated right by j bytes (wiring) and registered
//   D  edge E+j+3  registered again (the paper's DSP input register)
//   X0 edge E+4    acc0 = D0 ^ key_i               (key_i presented before E+4)
//   X1 edge E+5    acc1 = acc0 ^ D1
//   X2 edge E+6    acc2 = acc1 ^ D2
//   X3 edge E+7    col_o = acc2 ^ D3 is valid before edge E+7 (the user registers it)
// So the user presents byte j of a column (with its table select) before edge E+j,
// the key word before edge E+4 and takes the column at edge E+7. A new column may
// start every cycle (one column per cycle). The XORs are LUTs: the DSPs of the ECP5
// (MULT18X18D/ALU54B) have no bitwise-XOR mode, unlike the Xilinx DSP48 of the paper.
//
// en_i low freezes every stage (block RAM outputs included): the user's stall.
//
// Reset: every flip-flop except the block RAM output latches (which have none).
// Byte order: column words FIPS-197 (row 0 in [31:24]); addr_i[j] = {dec, last, b}.
// Parameters: EncTables/DecTables/MidTables/LastTables select the tables of both
//   ROMs (see ak_ttable_ram): a lane of an unrolled pipeline that only ever does a
//   middle round drops the last-round tables and halves its block RAM.

`default_nettype none

module ak_ttable_lane #(
  parameter bit EncTables  = 1'b1,
  parameter bit DecTables  = 1'b1,
  parameter bit MidTables  = 1'b1,
  parameter bit LastTables = 1'b1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,
  input  logic [9:0]  addr0_i,   // {dec, last, byte} of row 0, before edge E
  input  logic [9:0]  addr1_i,   // row 1, before edge E+1
  input  logic [9:0]  addr2_i,   // row 2, before edge E+2
  input  logic [9:0]  addr3_i,   // row 3, before edge E+3
  input  logic [31:0] key_i,     // round-key word, before edge E+4
  output logic [31:0] col_o      // the column, before edge E+7
);

  logic [31:0] rom_q [4];   // block RAM outputs (stage L)
  logic [31:0] r_q   [4];   // stage R
  logic [31:0] t_q   [4];   // stage T
  logic [31:0] d_q   [4];   // stage D
  logic [31:0] acc0_q, acc1_q, acc2_q;

  // {dec, t2 = 0, last, byte}
  ak_ttable_ram #(
    .EncTables (EncTables),
    .DecTables (DecTables),
    .MidTables (MidTables),
    .LastTables(LastTables),
    .T2Tables  (1'b0)
  ) u_rom_a (
    .clk_i   (clk_i),
    .a_en_i  (en_i),
    .a_addr_i({addr0_i[9], 1'b0, addr0_i[8:0]}),
    .a_data_o(rom_q[0]),
    .b_en_i  (en_i),
    .b_addr_i({addr1_i[9], 1'b0, addr1_i[8:0]}),
    .b_data_o(rom_q[1])
  );

  ak_ttable_ram #(
    .EncTables (EncTables),
    .DecTables (DecTables),
    .MidTables (MidTables),
    .LastTables(LastTables),
    .T2Tables  (1'b0)
  ) u_rom_b (
    .clk_i   (clk_i),
    .a_en_i  (en_i),
    .a_addr_i({addr2_i[9], 1'b0, addr2_i[8:0]}),
    .a_data_o(rom_q[2]),
    .b_en_i  (en_i),
    .b_addr_i({addr3_i[9], 1'b0, addr3_i[8:0]}),
    .b_data_o(rom_q[3])
  );

  for (genvar j = 0; j < 4; j++) begin : g_port
    logic [31:0] rot;   // T0 word rotated right by j bytes: Tj
    if (j == 0) begin : g_rot0
      assign rot = r_q[j];
    end else begin : g_rot
      assign rot = {r_q[j][8*j-1:0], r_q[j][31:8*j]};
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : port_regs
      if (!rst_ni) begin
        r_q[j] <= '0;
        t_q[j] <= '0;
        d_q[j] <= '0;
      end else if (en_i) begin
        r_q[j] <= rom_q[j];
        t_q[j] <= rot;
        d_q[j] <= t_q[j];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : cascade_regs
    if (!rst_ni) begin
      acc0_q <= '0;
      acc1_q <= '0;
      acc2_q <= '0;
    end else if (en_i) begin
      acc0_q <= d_q[0] ^ key_i;
      acc1_q <= acc0_q ^ d_q[1];
      acc2_q <= acc1_q ^ d_q[2];
    end
  end

  assign col_o = acc2_q ^ d_q[3];

endmodule

`default_nettype wire
