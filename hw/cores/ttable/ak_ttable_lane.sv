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
//   R  edge E+j+1  block RAM word registered (ports 0 .. 3)
//   T  edge E+j+2  word (widened, Packed) rotated right by j bytes (wiring) and
//                  registered (ports 0 .. 2; Packed: ports 0 .. 3)
//   D  edge E+3    port 0 registered again (the paper's DSP input register)
//   P  edge E+4    p   = D0 ^ T1 ^ key_i          (key_i presented before E+4)
//   C  edge E+5    c   = p ^ T2 ^ R3 rotated
//   O  edge E+6    col_o = c, registered
//                  valid from E+6 until E+7 (the user registers it at E+7)
// So the user presents byte j of a column (with its table select) before edge E+j,
// the key word before edge E+4 and takes the column at edge E+7. A new column may
// start every cycle (one column per cycle). Each stage XORs the freshest register
// of every port that has arrived, so the five-input XOR (four lookups and the key)
// is two three-input XORs, one LUT4 per bit each -- half the LUTs of the paper's
// chain of four two-input XORs, with the same eight stages. The XORs are LUTs: the
// DSPs of the ECP5 (MULT18X18D/ALU54B) have no bitwise-XOR mode, unlike the Xilinx
// DSP48 of the paper.
//
// SplitKey: the round key is added alone and the three later lookups in one
// four-input XOR, so that a key chosen from two registers by a direction bit (the
// unrolled core's 2:1 key multiplexer, which synthesis merges into the XOR) costs no
// second LUT per bit. The stages become (same edges, same user timing):
//   P  edge E+4    p   = D0 ^ key_i,  T1 registered again
//   C  edge E+5    c   = p ^ T1 ^ T2 ^ R3 rotated   (Packed: p, T1 and T2 registered
//                  again)
//   O  edge E+6    col_o = c, registered          (Packed: p ^ T1 ^ T2 ^ T3)
// Every XOR is one LUT4 per bit with four inputs (two LUT4 a bit in all instead of
// three with such a key), at 32 (Packed: 64) more flip-flops a lane.
//
// Packed (middle-round lanes only): the ROMs hold 17-bit packed words (ak_ttable_ram,
// Packed = 1), so each ROM is one DP16KD instead of two; ak_ttable_unpack widens each
// R word between R and T (one LUT4 level, after a register: the block RAM's
// clock-to-output time stays alone on its path). Port 3 then gets a T register too,
// and the cascade takes its last lookup one stage later (same eight stages). Packed
// lanes use the split-key cascade (Packed needs SplitKey).
// Packed with last-round tables (LastTables = 1) exists for the encryption tables
// alone: the last-round word T0'[b] = {s, 00, 00, 00} is {P, 00, 00, 00} of the
// packed middle-round word, so the ROMs hold the 256 middle-round words only (one
// DP16KD a ROM instead of two) and each port's last bit, registered beside the ROM
// read and the R register, selects between the widened word and {P, 0, 0, 0} (the
// same LUT level as the unpack). The decryption last-round byte t is not in the
// packed word (P = {09}t), so decryption tables cannot be packed this way.
//
// en_i low freezes every stage (block RAM outputs included): the user's stall.
//
// Reset: every flip-flop except the block RAM output latches and the R registers
// after them (which become the block RAM's output registers: no reset). Their
// contents after a reset are whatever the RAM read last; the user's valid flags
// (reset) say which stages hold a block.
// Byte order: column words FIPS-197 (row 0 in [31:24]); addr_i[j] = {dec, last, b}.
// Parameters: EncTables/DecTables/MidTables/LastTables select the tables of both
//   ROMs (see ak_ttable_ram): a lane of an unrolled pipeline that only ever does a
//   middle round drops the last-round tables and halves its block RAM. Packed (needs
//   MidTables = 1, and LastTables = 0 or encryption tables only) halves it again.
//   SplitKey (default 0) the key alone at stage P, see above; Packed needs it.

`default_nettype none

module ak_ttable_lane #(
  parameter bit EncTables  = 1'b1,
  parameter bit DecTables  = 1'b1,
  parameter bit MidTables  = 1'b1,
  parameter bit LastTables = 1'b1,
  parameter bit Packed     = 1'b0,
  parameter bit SplitKey   = 1'b0
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

  // the packed cascade exists in the split-key form only (its one user's)
  if (Packed && !SplitKey) begin : g_bad_packed
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_lane: Packed = 1 needs SplitKey = 1");
`else
    $fatal(1, "ak_ttable_lane: Packed = 1 needs SplitKey = 1");
`endif
  end

  if (Packed && LastTables && (DecTables || !MidTables)) begin : g_bad_packed_last
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_lane: Packed with LastTables needs EncTables only");
`else
    $fatal(1, "ak_ttable_lane: Packed with LastTables needs EncTables only");
`endif
  end

  localparam int RomW = Packed ? 17 : 32;   // bits of a ROM word
  // Packed with the last round: the ROMs hold the middle-round words only, and the
  // last-round word is taken from the packed word (see above)
  localparam bit PackedLast = Packed && LastTables;

  logic [31:0]     rom_q [4];   // block RAM outputs (stage L)
  logic [RomW-1:0] r_q   [4];   // stage R
  logic [31:0]     word  [4];   // R words widened (Packed) and rotated: Tj
  logic [31:0]     d0_q;        // stage D, port 0
  logic [31:0]     p_q, o_q;

  // {dec, t2 = 0, last, byte}
  ak_ttable_ram #(
    .EncTables (EncTables),
    .DecTables (DecTables),
    .MidTables (MidTables),
    .LastTables(LastTables && !PackedLast),
    .T2Tables  (1'b0),
    .Packed    (Packed)
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
    .LastTables(LastTables && !PackedLast),
    .T2Tables  (1'b0),
    .Packed    (Packed)
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
    logic [31:0] wide;   // the T0 word of the lookup

    // no reset: with the block RAM's read enable as its enable, this is the DP16KD's
    // own output register, and the synthesis flow puts it there (docs/synthesis.md)
    always_ff @(posedge clk_i) begin : r_reg
      if (en_i) r_q[j] <= rom_q[j][RomW-1:0];
    end

    if (Packed) begin : g_packed
      logic [14:0] unused_rom;   // zeros above the packed word
      assign unused_rom = rom_q[j][31:17];
      // with one direction's tables the dec bit is a constant here, so the ROM's
      // bit 16 and the unpacking of the other direction are removed
      logic [16:0] pk;
      logic        unused_dec;   // r_q's dec bit, unused with one direction's tables
      assign unused_dec = r_q[j][16];
      assign pk = {EncTables && DecTables ? r_q[j][16] : DecTables, r_q[j][15:0]};
      logic [31:0] mid;   // the widened middle-round word
      ak_ttable_unpack u_unpack (
        .packed_i(pk),
        .word_o  (mid)
      );
      if (PackedLast) begin : g_last
        // the port's last bit beside the ROM read and the R register
        logic       last_in, last_rom_q, last_r_q;
        assign last_in = (j == 0) ? addr0_i[8] : (j == 1) ? addr1_i[8]
                       : (j == 2) ? addr2_i[8] : addr3_i[8];
        always_ff @(posedge clk_i or negedge rst_ni) begin : last_regs
          if (!rst_ni) begin
            last_rom_q <= 1'b0;
            last_r_q   <= 1'b0;
          end else if (en_i) begin
            last_rom_q <= last_in;
            last_r_q   <= last_rom_q;
          end
        end
        assign wide = last_r_q ? {pk[7:0], 24'h0} : mid;   // T0'[b] = {s, 0, 0, 0}
      end else begin : g_mid
        assign wide = mid;
      end
    end else begin : g_wide
      assign wide = r_q[j];
    end

    // rotated right by j bytes: Tj
    if (j == 0) begin : g_rot0
      assign word[j] = wide;
    end else begin : g_rot
      assign word[j] = {wide[8*j-1:0], wide[31:8*j]};
    end
  end

  if (Packed) begin : g_cascade_packed_split
    logic [31:0] t_q [4];   // stage T, ports 0 .. 3
    logic [31:0] t1_q, t1b_q, p2_q, t2_q;   // T1 twice, p and T2 once, registered again

    for (genvar j = 0; j < 4; j++) begin : g_t
      always_ff @(posedge clk_i or negedge rst_ni) begin : t_reg
        if (!rst_ni)   t_q[j] <= '0;
        else if (en_i) t_q[j] <= word[j];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : cascade_regs
      if (!rst_ni) begin
        d0_q  <= '0;
        p_q   <= '0;
        t1_q  <= '0;
        t1b_q <= '0;
        p2_q  <= '0;
        t2_q  <= '0;
        o_q   <= '0;
      end else if (en_i) begin
        d0_q  <= t_q[0];
        p_q   <= d0_q ^ key_i;
        t1_q  <= t_q[1];
        t1b_q <= t1_q;
        p2_q  <= p_q;
        t2_q  <= t_q[2];
        o_q   <= p2_q ^ t1b_q ^ t2_q ^ t_q[3];
      end
    end
  end else if (SplitKey) begin : g_cascade_split
    logic [31:0] t_q [3];   // stage T, ports 0 .. 2
    logic [31:0] t1_q, c_q;

    for (genvar j = 0; j < 3; j++) begin : g_t
      always_ff @(posedge clk_i or negedge rst_ni) begin : t_reg
        if (!rst_ni)   t_q[j] <= '0;
        else if (en_i) t_q[j] <= word[j];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : cascade_regs
      if (!rst_ni) begin
        d0_q <= '0;
        p_q  <= '0;
        t1_q <= '0;
        c_q  <= '0;
        o_q  <= '0;
      end else if (en_i) begin
        d0_q <= t_q[0];
        p_q  <= d0_q ^ key_i;
        t1_q <= t_q[1];
        c_q  <= p_q ^ t1_q ^ t_q[2] ^ word[3];
        o_q  <= c_q;
      end
    end
  end else begin : g_cascade
    logic [31:0] t_q [3];   // stage T, ports 0 .. 2
    logic [31:0] c_q;

    for (genvar j = 0; j < 3; j++) begin : g_t
      always_ff @(posedge clk_i or negedge rst_ni) begin : t_reg
        if (!rst_ni)   t_q[j] <= '0;
        else if (en_i) t_q[j] <= word[j];
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : cascade_regs
      if (!rst_ni) begin
        d0_q <= '0;
        p_q  <= '0;
        c_q  <= '0;
        o_q  <= '0;
      end else if (en_i) begin
        d0_q <= t_q[0];
        p_q  <= d0_q ^ t_q[1] ^ key_i;
        c_q  <= p_q ^ t_q[2] ^ word[3];
        o_q  <= c_q;
      end
    end
  end

  assign col_o = o_q;

endmodule

`default_nettype wire
