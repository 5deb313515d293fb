// ak_ttable_stage: one AES round of paper 004's "round" module: four eight-stage
// T-table lanes (ak_ttable_lane), one per column, with the 8/16/24-bit input delay
// registers that feed row j of every lane j cycles late (the lanes' staggered
// cascade). Shared by ak_ttable_round (one stage with feedback) and
// ak_ttable_unrolled (Nr stages in a row); not a core by itself.
//
// Processing order. The stage works on a state in "processing order": slot c in
// [127-32c -: 32]. Lane c computes slot c of the output from row j of input slot
// (c+j) mod 4, j = 0..3 -- ShiftRows for encryption when slot c is column c. For
// decryption the user keeps column (4-c) mod 4 in slot c (the order 0, 3, 2, 1):
// then InvShiftRows has exactly the same pattern, so one wiring serves both.
//
// Timing (t = the cycle in which in_i/dec_i/last_i are presented, i.e. before edge
// t): row 0 is looked up at edge t, row j at edge t+j (from the delay registers);
// key_i (the round key in processing order) must be presented in cycle t+4 (before
// edge t+4); out_o is valid in cycle t+7 (before edge t+7): eight stages. A new
// state may be presented every cycle. en_i low freezes everything.
//
// Reset: every flip-flop except the block RAM output latches.
// Byte order: FIPS-197 within each slot (row 0 in [31:24] of the slot).
// Parameters: EncTables/DecTables/MidTables/LastTables as ak_ttable_ram (a stage
//   that only ever computes middle rounds needs no last-round tables); Packed as
//   ak_ttable_lane (packed 17-bit ROM words: middle-round stages, or encryption
//   tables only with the last round); SplitKey as ak_ttable_lane (the key added
//   alone, then one four-input XOR).

`default_nettype none

module ak_ttable_stage #(
  parameter bit EncTables  = 1'b1,
  parameter bit DecTables  = 1'b1,
  parameter bit MidTables  = 1'b1,
  parameter bit LastTables = 1'b1,
  parameter bit Packed     = 1'b0,
  parameter bit SplitKey   = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,
  input  logic [127:0] in_i,     // state, processing order, cycle t
  input  logic         dec_i,    // decryption tables, cycle t
  input  logic         last_i,   // last-round tables, cycle t
  input  logic [127:0] key_i,    // round key, processing order, cycle t+4
  output logic [127:0] out_o     // new state, processing order, cycle t+7
);

  // table selects delayed by 1..3 cycles for rows 1..3
  logic [1:0] sel_q [3];

  always_ff @(posedge clk_i or negedge rst_ni) begin : sel_regs
    if (!rst_ni) begin
      for (int i = 0; i < 3; i++) sel_q[i] <= 2'b00;
    end else if (en_i) begin
      sel_q[0] <= {dec_i, last_i};
      for (int i = 1; i < 3; i++) sel_q[i] <= sel_q[i - 1];
    end
  end

  // byte (row j, slot m) delayed by j cycles: dly[m][j]
  logic [7:0] dly [4][4];

  for (genvar m = 0; m < 4; m++) begin : g_slot
    assign dly[m][0] = in_i[127 - 32 * m -: 8];
    for (genvar j = 1; j < 4; j++) begin : g_row
      logic [8*j-1:0] sr_q;   // a j-byte shift register
      if (j == 1) begin : g_one
        always_ff @(posedge clk_i or negedge rst_ni) begin : shift
          if (!rst_ni)   sr_q <= '0;
          else if (en_i) sr_q <= in_i[127 - 32 * m - 8 * j -: 8];
        end
      end else begin : g_more
        always_ff @(posedge clk_i or negedge rst_ni) begin : shift
          if (!rst_ni)   sr_q <= '0;
          else if (en_i) sr_q <= {sr_q[8*(j-1)-1:0], in_i[127 - 32 * m - 8 * j -: 8]};
        end
      end
      assign dly[m][j] = sr_q[8*j-1 -: 8];
    end
  end

  for (genvar c = 0; c < 4; c++) begin : g_lane
    ak_ttable_lane #(
      .EncTables (EncTables),
      .DecTables (DecTables),
      .MidTables (MidTables),
      .LastTables(LastTables),
      .Packed    (Packed),
      .SplitKey  (SplitKey)
    ) u_lane (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .en_i   (en_i),
      .addr0_i({dec_i, last_i, dly[c][0]}),
      .addr1_i({sel_q[0], dly[(c + 1) % 4][1]}),
      .addr2_i({sel_q[1], dly[(c + 2) % 4][2]}),
      .addr3_i({sel_q[2], dly[(c + 3) % 4][3]}),
      .key_i  (key_i[127 - 32 * c -: 32]),
      .col_o  (out_o[127 - 32 * c -: 32])
    );
  end

endmodule

`default_nettype wire
