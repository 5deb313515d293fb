// ak_tbox_round: one AES round of the memory-based cores of Chaves et al. (paper
// 003), encryption or decryption (equivalent inverse cipher), without AddRoundKey:
// (Inv)ShiftRows by routing, eight ak_tbox_ram (one per pair of state bytes, 16
// lookups of {decrypt, byte}), the lanes XORed column by column.
//
//   state_i  the round input s (after the previous AddRoundKey), FIPS byte order
//   mix_o    MixColumns(SubBytes(ShiftRows(s)))      (dec_o = 0), or
//            InvMixColumns(InvSubBytes(InvShiftRows(s)))  (dec_o = 1)
//   last_o   SubBytes(ShiftRows(s)) / InvSubBytes(InvShiftRows(s)) (the last round:
//            encryption takes the x{01} lane of each word, decryption XORs the four
//            lanes, 0e ^ 09 ^ 0d ^ 0b = 01)
// The caller adds the round key: s' = mix_o ^ rk (or last_o ^ rk in round Nr).
//
// Encryption/decryption multiplexing on half the bytes only. Byte (r, c) of the
// round reads s[r][(c + r) mod 4] for ShiftRows and s[r][(c - r) mod 4] for
// InvShiftRows. For rows 0 and 2 both are the same byte (c + 0 = c - 0, c + 2 = c - 2
// mod 4), so only the 8 bytes of rows 1 and 3 need a 2:1 multiplexer; the decrypt
// bit itself goes into the RAM address (one table half per direction). Where that
// multiplexer sits is a parameter, because SubBytes works byte by byte and ShiftRows
// may come before or after the lookup:
//   ShiftAtOutput = 0: on the 8 address bytes of rows 1 and 3 (64 bits), selected by
//     dec_i. In a core with Pipe = 1 it lies between registers, off the RAM paths.
//   ShiftAtOutput = 1: every state byte addresses its own RAM port and the
//     multiplexer picks among the RAM output words of rows 1 and 3 (8 x 32 bits),
//     selected by the registered decrypt bit of the block in the RAMs, where it
//     merges into the lane XORs. In a core whose RAM address is computed from the
//     previous round's RAM outputs in one cycle (the folded core) that path then
//     loses the multiplexer of two XORed columns, a LUT level on rows 1 and 3.
//     Measured on tbox_folded (docs/cores/tbox.md): HeAP, seeds 1-3, 67.8 -> 69.3
//     MHz median and 60 LUT4 fewer; in the unfolded cores the output-side
//     multiplexers cost up to 1,900 LUT4 more for no gain, so they keep 0.
//
// Timing: every register (RAM output latches included) is clock-enabled by en_i;
// with en_i low the round holds (mix_o, last_o, dec_o stay still).
//   Pipe = 0: latency 1 -- the T-box RAM output register is the round register; mix_o
//             and last_o are combinational from it (the XOR of four lanes).
//   Pipe = 1: latency 3 -- a register in front of the RAMs (the routed state, decrypt
//             bit), the RAM output, and a register in the XOR tree (per column the
//             XOR of the lanes of rows 0/1 and of rows 2/3; in the last round, when
//             final_i is high, the last-round bytes instead). mix_o is one XOR of two
//             registers, last_o a register.
//   A new state every cycle in both.
// Byte order: FIPS-197, byte in0 (s[0][0]) in [127:120], s[r][c] = byte 4c + r.
// Parameters:
//   Pipe           0 or 1 (see Timing).
//   ShiftAtOutput  0 or 1: (Inv)ShiftRows on the RAM addresses or on the RAM output
//                  words (see above); the same function and timing either way.
//   Directions     1 encryption only, 2 decryption only, 3 both (default; docs/
//                  core-contract.md, "Configurations"). With one direction dec_i is
//                  ignored (the caller ties it to the built direction) and each RAM
//                  holds only that direction's table as packed 17-bit words
//                  (ak_ttable_ram, Packed = 1: {02}s and s, or {02}t and {09}t): 256
//                  words, one DP16KD a RAM instead of two; ak_ttable_unpack widens
//                  each RAM output word (one LUT4 level after the RAM output latch,
//                  inside the round's path). Same function and timing.
// final_i is only used with Pipe = 1; it must be high while the block in the XOR-tree
// register's input stage is in its last round (a per-key constant in an unfolded core).

`default_nettype none

module ak_tbox_round #(
  parameter int Pipe          = 0,
  parameter bit ShiftAtOutput = 1'b0,
  parameter int Directions    = 3
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         en_i,
  input  logic [127:0] state_i,
  input  logic         dec_i,
  input  logic         final_i,
  output logic [127:0] mix_o,
  output logic [127:0] last_o,
  output logic         dec_o
);

  if (Pipe != 0 && Pipe != 1) begin : g_bad_pipe
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_round: Pipe must be 0 or 1, got %0d", Pipe);
`else
    $fatal(1, "ak_tbox_round: Pipe must be 0 or 1, got %0d", Pipe);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_round: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_tbox_round: Directions must be 1..3, got %0d", Directions);
`endif
  end

  localparam bit Enc = Directions[0];
  localparam bit Dec = Directions[1];

  logic [127:0] routed;      // (Inv)ShiftRows(state_i) with ShiftAtOutput = 0, else state_i
  logic [127:0] addr_bytes;  // the bytes that address the RAMs
  logic         addr_dec;    // the decrypt bit of the RAM addresses
  logic         ram_dec;     // decrypt bit of the block in the RAM output
  logic [31:0]  lookup [16]; // RAM output per source byte position (4c + r)
  logic [31:0]  word [16];   // RAM output per round byte position (4c + r), routed
  logic [127:0] pair01;      // per column: lanes of rows 0 and 1 XORed
  logic [127:0] pair23;      // per column: lanes of rows 2 and 3 XORed
  logic [127:0] last;        // last-round bytes from the RAM outputs

  // ------------------------------------------------------------------------------
  // ShiftAtOutput = 0: ShiftRows / InvShiftRows on the addresses, a multiplexer on
  // rows 1 and 3 only
  // ------------------------------------------------------------------------------
  for (genvar c = 0; c < 4; c++) begin : g_route_in_col
    for (genvar r = 0; r < 4; r++) begin : g_route_in_row
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;
      if (ShiftAtOutput || FromEnc == FromDec) begin : g_same
        assign routed[127-8*Byte -: 8] = state_i[127-8*(ShiftAtOutput ? Byte : FromEnc) -: 8];
      end else begin : g_mux
        assign routed[127-8*Byte -: 8] = dec_i ? state_i[127-8*FromDec -: 8]
                                               : state_i[127-8*FromEnc -: 8];
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Optional register in front of the RAMs
  // ------------------------------------------------------------------------------
  if (Pipe == 1) begin : g_addr_reg
    logic [127:0] addr_q;
    logic         addr_dec_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin : addr_regs
      if (!rst_ni) begin
        addr_q     <= '0;
        addr_dec_q <= 1'b0;
      end else if (en_i) begin
        addr_q     <= routed;
        addr_dec_q <= dec_i;
      end
    end
    assign addr_bytes = addr_q;
    assign addr_dec   = addr_dec_q;
  end else begin : g_addr_direct
    assign addr_bytes = routed;
    assign addr_dec   = dec_i;
  end

  // ------------------------------------------------------------------------------
  // Eight T-box RAMs, one per pair of byte positions (2j, 2j+1)
  // ------------------------------------------------------------------------------
  if (Enc && Dec) begin : g_both
    for (genvar j = 0; j < 8; j++) begin : g_ram
      ak_tbox_ram u_tbox_ram (
        .clk_i   (clk_i),
        .a_en_i  (en_i),
        .a_addr_i({addr_dec, addr_bytes[127-16*j -: 8]}),
        .a_data_o(lookup[2*j]),
        .b_en_i  (en_i),
        .b_addr_i({addr_dec, addr_bytes[119-16*j -: 8]}),
        .b_data_o(lookup[2*j+1])
      );
    end
  end else begin : g_one
    // one direction: packed words of that direction's table, widened after the RAM
    for (genvar j = 0; j < 8; j++) begin : g_ram
      logic [31:0] a_pk, b_pk;   // packed word in [16:0]
      ak_ttable_ram #(
        .EncTables (Enc),
        .DecTables (Dec),
        .MidTables (1'b1),
        .LastTables(1'b0),
        .T2Tables  (1'b0),
        .Packed    (1'b1)
      ) u_tbox_ram (
        .clk_i   (clk_i),
        .a_en_i  (en_i),
        .a_addr_i({3'b000, addr_bytes[127-16*j -: 8]}),
        .a_data_o(a_pk),
        .b_en_i  (en_i),
        .b_addr_i({3'b000, addr_bytes[119-16*j -: 8]}),
        .b_data_o(b_pk)
      );
      ak_ttable_unpack u_unpack_a (
        .packed_i({Dec, a_pk[15:0]}),
        .word_o  (lookup[2*j])
      );
      ak_ttable_unpack u_unpack_b (
        .packed_i({Dec, b_pk[15:0]}),
        .word_o  (lookup[2*j+1])
      );
      logic unused_pk;
      assign unused_pk = ^{a_pk[31:16], b_pk[31:16]};
    end
  end

  if (Enc && Dec) begin : g_ram_dec
    always_ff @(posedge clk_i or negedge rst_ni) begin : ram_dec_reg
      if (!rst_ni)   ram_dec <= 1'b0;
      else if (en_i) ram_dec <= addr_dec;
    end
  end else begin : g_ram_dec_fixed
    assign ram_dec = Dec;   // the built direction
    logic unused_addr_dec;   // (and rst_ni, which Pipe = 0 then does not use)
    assign unused_addr_dec = addr_dec ^ rst_ni;
  end

  // ------------------------------------------------------------------------------
  // ShiftAtOutput = 1: ShiftRows / InvShiftRows on the RAM output words, a
  // multiplexer on rows 1 and 3 only
  // ------------------------------------------------------------------------------
  for (genvar c = 0; c < 4; c++) begin : g_route_out_col
    for (genvar r = 0; r < 4; r++) begin : g_route_out_row
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;
      if (!ShiftAtOutput) begin : g_none
        assign word[Byte] = lookup[Byte];
      end else if (FromEnc == FromDec) begin : g_same
        assign word[Byte] = lookup[FromEnc];
      end else begin : g_mux
        assign word[Byte] = ram_dec ? lookup[FromDec] : lookup[FromEnc];
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Lane XORs: a byte in row r contributes its word rotated right by r bytes
  // ------------------------------------------------------------------------------
  for (genvar c = 0; c < 4; c++) begin : g_col
    assign pair01[127-32*c -: 32] = word[4*c] ^ {word[4*c+1][7:0], word[4*c+1][31:8]};
    assign pair23[127-32*c -: 32] = {word[4*c+2][15:0], word[4*c+2][31:16]} ^
                                    {word[4*c+3][23:0], word[4*c+3][31:24]};
    for (genvar r = 0; r < 4; r++) begin : g_last
      localparam int Byte = 4 * c + r;
      assign last[127-8*Byte -: 8] =
          ram_dec ? (word[Byte][31:24] ^ word[Byte][23:16] ^ word[Byte][15:8] ^
                     word[Byte][7:0])
                  : word[Byte][23:16];
    end
  end

  // ------------------------------------------------------------------------------
  // Optional register in the XOR tree
  // ------------------------------------------------------------------------------
  if (Pipe == 1) begin : g_xor_reg
    logic [127:0] hi_q, lo_q;
    logic         dec_q;
    logic [127:0] hi_d, lo_d;
    always_comb begin : xor_next
      hi_d = final_i ? last : pair01;
      lo_d = final_i ? '0 : pair23;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : xor_regs
      if (!rst_ni) begin
        hi_q  <= '0;
        lo_q  <= '0;
        dec_q <= 1'b0;
      end else if (en_i) begin
        hi_q  <= hi_d;
        lo_q  <= lo_d;
        dec_q <= ram_dec;
      end
    end
    assign mix_o  = hi_q ^ lo_q;
    assign last_o = hi_q;
    assign dec_o  = dec_q;
  end else begin : g_xor_direct
    assign mix_o  = pair01 ^ pair23;
    assign last_o = last;
    assign dec_o  = ram_dec;
    // final_i is only used with Pipe = 1
    logic unused_final;
    assign unused_final = final_i;
  end

endmodule

`default_nettype wire
