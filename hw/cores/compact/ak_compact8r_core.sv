// ak_compact8r_core: a byte-serial AES core whose state, cipher key and round key live
// in one small block RAM: encryption only, AES-128 only (Directions = 1, KeySizes = 1,
// the build the smallest FPGAs' targets name; CTR, GCM, CMAC and the XTS tweak use
// only the forward cipher). One S-box, a 512 x 8 block-RAM ROM (port A of
// ak_sbox_rom2, SubBytes half), serves the datapath and the key schedule. It speaks
// the aeskit core contract (docs/core-contract.md); the design is described in
// docs/cores/compact.md ("compact8r").
//
// Storage. A 64 x 8 simple-dual-port RAM (one write, one synchronous read port;
// ram_style "block": one ECP5 DP16KD or one iCE40 SB_RAM40_4K) holds
//   0x00 .. 0x0f  the state, updated in place (below)
//   0x10 .. 0x1f  the cipher key, byte i at 0x10 + i
//   0x20 .. 0x2f  the round key of the pass, byte i at 0x20 + i (between blocks:
//                 scratch, where a new key is staged)
// The flip-flops are the 128-bit output register out_q (it takes the block at the
// accepting edge, hands its bytes to pass 0 and collects the result), a 4-byte
// column accumulator a_q (the S-box results of a column, for MixColumns) and a
// 4-byte key word q_q (SubWord(RotWord(w3)) ^ Rcon, then the round-key word of the
// column), with the control.
//
// Passes. A block takes 11 passes (0: the initial AddRoundKey, 1 .. 10: the rounds)
// of four columns of 16 cycles: block step g = 64p + 16c + k (g = 0 is the cycle
// after the accepting edge), pass p, column c, k = 0 .. 15:
//   k = 0 .. 3    S: read the state byte of row r = k, logical column c + r (ShiftRows),
//                 into the S-box; its result enters a_q at k = 2 .. 5
//   k = 4 .. 7    K: read byte 4c + r of the previous round key (pass 0: the cipher
//                 key, after: the round-key area); at k = 5 .. 8 the new byte
//                 rk[4c+r] = prev[4c+r] ^ q0 (pass 0: the key byte itself) is
//                 written to the round-key area and q shifts it in, so q holds the
//                 column's round-key word from k = 9
//   k = 9 .. 12   M: byte r of the column, res = MixColumns(a)_0 ^ q0 (pass 10:
//                 a0 ^ q0; pass 0: the input byte ^ q0), written to the state; a_q
//                 and q_q rotate by one byte, so row r is at the fixed tap each cycle
//   k = 12 .. 15  T (column 3 only): read bytes 13, 14, 15, 12 of this pass's round
//                 key (round-key area) into the S-box; q takes their S-box results
//                 at k = 14, 15 and k = 0, 1 of the next pass (Rcon, a function of
//                 the pass, on the first): q = SubWord(RotWord(w3)) ^ Rcon, the key
//                 schedule's T of the next pass
// The state is updated in place: after pass p logical column j of row r sits in slot
// (j + r*p) mod 4 (address 4*slot + r); pass p reads its column c, row r from the
// slot it writes it to, (c + r*p) mod 4: ShiftRows is a change of slot, not a move.
// Pass 0 and pass 10 shift out_q by a byte per M cycle: pass 0 takes the input bytes
// from its top, pass 10 pushes the result bytes in at its bottom, out0 first.
//
// Timing (edges are rising clock edges):
//   - latency 702: the edge A that accepts a block starts step 0; the last result
//     byte is written at the end of step 700 (pass 10, column 3, k = 12), where
//     out_valid_o rises, so the first edge at which it is high is A + 702.
//   - interval 702: in_ready_o is high while the result is taken, so the next block
//     is accepted at the edge that takes the result.
//   - key setup 18: the key is staged before its handshake: while key_valid_i is
//     high with key_len_i = 0 and no block is in flight, key_ready_o is low and the
//     core writes key_i's 16 bytes, one a cycle, into the round-key area (which holds
//     nothing between blocks); key_ready_o rises after them (key_valid_i to the
//     handshake edge: 17 cycles on an idle core). After the handshake edge K the
//     setup copies the round-key area to the key area (reads at K .. K+15, writes one
//     cycle later), in_ready_o is first high at edge K+18. The staging relies on the
//     AXI-Stream rule the contract's masters follow (a presented key stays unchanged
//     until its handshake); a key withdrawn before its handshake leaves the key in
//     force untouched and is staged again from byte 0 when presented again.
//
// Back-pressure: while out_valid_o && !out_ready_i nothing moves; out_data_o is
// out_q, out_tag_o a register. One block at a time: in_ready_o requires the output
// register free (or being taken), so a result is never overwritten. in_ready_o
// depends combinationally on out_ready_i, key_valid_i and in_decrypt_i.
// Keys: key_ready_o is high when no block is in flight (not even a finished one
// waiting), no key setup runs, and key_valid_i is low, or the key is staged, or
// key_len_i is not 0 (key_ready_o depends combinationally on key_valid_i and
// key_len_i, as AXI-Stream allows). While key_valid_i is high in_ready_o is low (a
// key presented with a block is loaded first). key_len_i = 1, 2 or 3 (sizes this
// build lacks, and the illegal code) completes the handshake at once, and the core
// forgets its key: in_ready_o stays low until an AES-128 key is set up. A decryption
// (in_decrypt_i = 1) is never accepted.
// Reset: rst_ni (asynchronous, active low) clears every flip-flop; the RAM and the
// ROM's output latches are not reset (block RAM) and are only read under reset
// flags. A reset in the middle of a block or of a key setup leaves the core idle
// without a key. Wipe (docs/core-contract.md): the all-zero key's staging and setup
// overwrite the key and the round-key areas (the state area holds no key material).
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r),
//   out0 in out_data_o[127:120]; key byte 0 in key_i[255:248], the key in
//   key_i[255:128] (the low 128 bits are ignored).
//
// Parameters:
//   TagWidth    width of in_tag_i/out_tag_o (>= 1, checked at elaboration), carried
//               through unchanged.
//   Directions, KeySizes  the configuration (docs/core-contract.md,
//               "Configurations"): this core is built for encryption and AES-128 only,
//               so both must be 1 (checked at elaboration).
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang.

`default_nettype none

module ak_compact8r_core #(
  parameter int TagWidth   = 1,
  parameter int Directions = 1,
  parameter int KeySizes   = 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // key
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  // input blocks
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [127:0]        in_data_i,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  // output blocks, in the order accepted
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [127:0]        out_data_o,
  output logic [TagWidth-1:0] out_tag_o
);

  // ------------------------------------------------------------------------------
  // Parameter checks
  // ------------------------------------------------------------------------------
  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_compact8r_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_compact8r_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions != 1 || KeySizes != 1) begin : g_bad_config
`ifdef __ICARUS__
    initial $fatal(1, "ak_compact8r_core: encryption, AES-128 only: Directions, KeySizes must be 1");
`else
    $fatal(1, "ak_compact8r_core: encryption, AES-128 only: Directions, KeySizes must be 1");
`endif
  end

  // RAM areas (address bits [5:4])
  localparam logic [1:0] AreaState = 2'd0;
  localparam logic [1:0] AreaKey   = 2'd1;
  localparam logic [1:0] AreaRk    = 2'd2;
  localparam logic [3:0] LastPass  = 4'd10;

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  logic                key_ok_q;     // an AES-128 key is in the RAM
  logic                busy_q;       // a block is between its steps 0 and 700
  logic                out_valid_q;  // the result waits in out_q
  logic [9:0]          g_q;          // block step
  logic                setup_q;      // the key setup: round-key area to key area
  logic [4:0]          kcp_q;        // key byte counter of the staging and the setup
  logic                kdone_q;      // key staged, handshake pending
  logic [TagWidth-1:0] tag_q;
  logic [31:0]         a_q;          // column accumulator, a0 in [31:24]
  logic [31:0]         q_q;          // key word, q0 in [31:24]
  logic [127:0]        out_q;        // the block in, the result out

  // ------------------------------------------------------------------------------
  // Control: handshakes and the enables of the step
  // ------------------------------------------------------------------------------
  logic       idle;         // no block in flight, no result waiting
  logic       key_hs, accept, out_hs;
  logic       kcopy;        // a key byte of key_i is staged this cycle
  logic       kset_we;      // the setup writes a key byte this cycle
  logic [3:0] pass;
  logic [1:0] col;
  logic [3:0] k;
  logic       last_step;
  logic       a_sh, kprod, m_ph, t_sh, t_first;
  logic       out_sh;       // out_q shifts (passes 0 and 10, M)

  assign idle        = !busy_q && !out_valid_q;
  // (low while a presented AES-128 key is staged)
  assign key_ready_o = idle && !setup_q && (!key_valid_i || key_len_i != 2'd0 || kdone_q);
  assign in_ready_o  = key_ok_q && !setup_q && !busy_q && (!out_valid_q || out_ready_i)
                       && !key_valid_i && !in_decrypt_i;
  assign key_hs = key_valid_i && key_ready_o;
  assign accept = in_valid_i && in_ready_o;
  assign out_hs = out_valid_q && out_ready_i;
  assign kcopy   = key_valid_i && key_len_i == 2'd0 && idle && !setup_q && !kdone_q;
  assign kset_we = setup_q && kcp_q != 5'd0;

  assign pass = g_q[9:6];
  assign col  = g_q[5:4];
  assign k    = g_q[3:0];
  assign last_step = busy_q && pass == LastPass && col == 2'd3 && k == 4'd12;

  assign a_sh    = busy_q && k >= 4'd2 && k <= 4'd5;
  assign kprod   = busy_q && k >= 4'd5 && k <= 4'd8;
  assign m_ph    = busy_q && k >= 4'd9 && k <= 4'd12;
  assign t_sh    = busy_q && ((col == 2'd3 && k[3:1] == 3'b111)
                              || (col == 2'd0 && k[3:1] == 3'b000 && pass != 4'd0));
  assign t_first = busy_q && col == 2'd3 && k == 4'd14;
  assign out_sh  = m_ph && (pass == 4'd0 || pass == LastPass);

  // ------------------------------------------------------------------------------
  // RAM addresses
  // ------------------------------------------------------------------------------
  // slot of row r of column c in pass p: (c + r*p) mod 4
  function automatic logic [1:0] slot(input logic [1:0] c, input logic [1:0] r,
                                      input logic [1:0] p);
    case (r)
      2'd0:    return c;
      2'd1:    return c + p;
      2'd2:    return c + {p[0], 1'b0};
      default: return c - p;
    endcase
  endfunction

  logic [1:0] r_w;          // row written at k = 5 .. 8 (K) and 9 .. 12 (M)
  logic [5:0] raddr, waddr;
  logic       we;

  assign r_w = k[1:0] + 2'd3;

  always_comb begin : read_addr
    if (setup_q) begin
      raddr = {AreaRk, kcp_q[3:0]};
    end else if (k[3:2] == 2'd0) begin
      raddr = {AreaState, slot(col, k[1:0], pass[1:0]), k[1:0]};
    end else if (k[3:2] == 2'd1) begin
      raddr = {(pass == 4'd0) ? AreaKey : AreaRk, col, k[1:0]};
    end else begin
      // T: bytes 13, 14, 15, 12 at k = 12 .. 15
      raddr = {AreaRk, 2'b11, k[1:0] + 2'd1};
    end
  end

  always_comb begin : write_addr
    if (setup_q) begin
      waddr = {AreaKey, kcp_q[3:0] - 4'd1};
    end else if (!busy_q) begin
      waddr = {AreaRk, kcp_q[3:0]};
    end else if (!k[3] || k == 4'd8) begin
      waddr = {AreaRk, col, r_w};
    end else begin
      waddr = {AreaState, slot(col, r_w, pass[1:0]), r_w};
    end
  end

  assign we = kcopy || kset_we || kprod || m_ph;

  // ------------------------------------------------------------------------------
  // Datapath
  // ------------------------------------------------------------------------------
  logic [7:0]  rd_q;        // RAM read data (block-RAM output latch)
  logic [7:0]  sout;        // S-box result of rd_q (ROM output latch)
  logic [7:0]  key_b;       // key byte kcp_q[3:0] of key_i
  logic [7:0]  qd;          // the byte q_q shifts in
  logic [7:0]  res;         // the state byte written at M
  logic [7:0]  wdata;
  logic [7:0]  a0, q0;
  logic [7:0]  mc0;         // row 0 of MixColumns(a_q)
  logic [23:0] mc_rows_unused;
  logic [7:0]  rcon;        // Rcon of the T made in this pass (of round key p+1)
  logic [7:0]  port_b_unused;

  // no_rw_check: no cycle reads the address it writes (the schedule above), so Yosys
  // need not emulate read-first behaviour around the block RAM
  (* ram_style = "block", no_rw_check *) logic [7:0] mem [64];

  always_ff @(posedge clk_i) begin : ram
    if (we) mem[waddr] <= wdata;
    rd_q <= mem[raddr];
  end

  ak_sbox_rom2 u_sbox (
    .clk_i   (clk_i),
    .a_en_i  (1'b1),
    .a_addr_i({1'b0, rd_q}),
    .a_data_o(sout),
    .b_en_i  (1'b0),
    .b_addr_i(9'h000),
    .b_data_o(port_b_unused)
  );

  // (an indexed part-select: Yosys maps it as a shifter, 168 LUT4 on the ECP5 against
  // 268 for the same 16:1 multiplexer written as a compare chain)
  assign key_b = key_i[8 * (5'd31 - {1'b0, kcp_q[3:0]}) +: 8];

  assign a0 = a_q[31:24];
  assign q0 = q_q[31:24];

  // K: prev ^ q0 (pass 0: the key byte alone); M: rotate; T: S-box result ^ Rcon;
  // the key setup: the staged byte read
  assign qd = (rd_q & {8{kprod || setup_q}}) ^ (q0 & {8{(kprod && pass != 4'd0) || m_ph}})
            ^ (sout & {8{t_sh}}) ^ (rcon & {8{t_first}});

  ak_mix_column u_mix_column (
    .in_i (a_q),
    .out_o({mc0, mc_rows_unused})
  );

  assign res   = ((pass == 4'd0) ? out_q[127:120] : ((pass == LastPass) ? a0 : mc0)) ^ q0;
  assign wdata = kcopy ? key_b : (m_ph ? res : qd);

  // (a function of the pass: no register, no xtime)
  always_comb begin : rcon_of_pass
    case (pass)
      4'd0:    rcon = 8'h01;
      4'd1:    rcon = 8'h02;
      4'd2:    rcon = 8'h04;
      4'd3:    rcon = 8'h08;
      4'd4:    rcon = 8'h10;
      4'd5:    rcon = 8'h20;
      4'd6:    rcon = 8'h40;
      4'd7:    rcon = 8'h80;
      4'd8:    rcon = 8'h1b;
      default: rcon = 8'h36;
    endcase
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      key_ok_q    <= 1'b0;
      busy_q      <= 1'b0;
      out_valid_q <= 1'b0;
      g_q         <= '0;
      setup_q     <= 1'b0;
      kcp_q       <= '0;
      kdone_q     <= 1'b0;
      tag_q       <= '0;
    end else begin
      if (out_hs) out_valid_q <= 1'b0;
      // key staging (restarts whenever the key is withdrawn), handshake, setup
      if (key_hs) begin
        key_ok_q <= 1'b0;
        setup_q  <= key_len_i == 2'd0;  // (staged: kdone_q)
        kdone_q  <= 1'b0;
        kcp_q    <= '0;
      end else if (setup_q) begin
        kcp_q <= kcp_q + 5'd1;
        if (kcp_q == 5'd16) begin
          setup_q  <= 1'b0;
          key_ok_q <= 1'b1;
          kcp_q    <= '0;
        end
      end else if (kcopy) begin
        kcp_q <= kcp_q + 5'd1;
        if (kcp_q == 5'd15) begin
          kdone_q <= 1'b1;
          kcp_q   <= '0;
        end
      end else if (!key_valid_i) begin
        kdone_q <= 1'b0;
        kcp_q   <= '0;
      end
      if (accept) begin
        busy_q <= 1'b1;
        tag_q  <= in_tag_i;
        g_q    <= '0;
      end else if (last_step) begin
        busy_q      <= 1'b0;
        out_valid_q <= 1'b1;
        g_q         <= '0;
      end else if (busy_q) begin
        g_q <= g_q + 10'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : datapath_regs
    if (!rst_ni) begin
      a_q   <= '0;
      q_q   <= '0;
      out_q <= '0;
    end else begin
      if (a_sh || m_ph)                 a_q <= {a_q[23:0], m_ph ? a0 : sout};
      if (kprod || m_ph || t_sh)        q_q <= {q_q[23:0], qd};
      if (accept)                       out_q <= in_data_i;
      else if (out_sh)                  out_q <= {out_q[119:0], res};
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_data_o  = out_q;
  assign out_tag_o   = tag_q;

endmodule

`default_nettype wire
