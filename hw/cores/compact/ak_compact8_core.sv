// ak_compact8_core: a byte-serial AES core for the smallest FPGAs -- one S-box, shared
// by the datapath and the key schedule, one byte through it per clock cycle;
// encryption and decryption, 128/192/256-bit keys, round keys generated one byte per
// cycle on the fly (forward for encryption, backward for decryption), no round-key
// store. It speaks the aeskit core contract (docs/core-contract.md); the design is
// described in docs/cores/compact.md ("compact8").
//
// The S-box has a latency of one cycle in every build: its input byte is a register
// (raw_q) in front of a table (SboxImpl 0..3), or it is a synchronous-read ROM of
// 512 x 8 holding SubBytes and InvSubBytes (SboxImpl 4, one block RAM).
//
// Passes. A block takes Nr + 1 passes of 32 cycles; pass p (0 the initial
// AddRoundKey, 1 .. Nr the rounds) runs at block steps g = 32p .. 32p + 31, s = g mod 32
// (g = 0 is the cycle that accepts the block):
//   s = 1 .. 16   K: the key schedule makes the pass's 16 round-key bytes, one a cycle,
//                 into the key window win_q (the S-box does SubWord bytes);
//   s = 16 .. 31  D: the state bytes, one a cycle, go to the S-box (bypassed in pass 0):
//                 row r = s mod 4 of column t = (s - 16) / 4;
//   s = 20, 24, 28 and s = 0 of the next pass: column t = 0, 1, 2, 3 is complete
//                 (three bytes in sc_q, the fourth leaving the S-box) and is written
//                 back with MixColumns and the round key:
//     pass 0                     res = x ^ w
//     encryption rounds 1 .. Nr  res = MixColumns(SubBytes(x)) ^ w (no MixColumns in Nr)
//     decryption rounds 1 .. Nr  res = InvMixColumns(InvSubBytes(x) ^ w) (none in Nr)
//   with InvMixColumns(y) = MixColumns(ak_inv_mix_pre(y)) (one ak_mix_column).
// The state is updated in place as in ak_compact32_core: logical column c (c = t for
// encryption, 3 - t for decryption) of row r is read from and written back to slot
// (c + r*m') mod 4, m' = p (encryption) or -p (decryption) mod 4: ShiftRows is a change
// of where each row's columns sit, not a move of bytes. A byte of the state is read by
// one 16:1 byte multiplexer; columns written in a pass never overlap the ones read.
//
// Key schedule, one byte a cycle. win_q is a window of the last 32 bytes made (a shift
// register, W[0] the newest). Forward (byte n = 4e + b of word w[e]):
//   k[n] = key byte n                               (n < 4Nk: from key_q)
//   k[n] = k[n-4Nk] ^ S(k[4e-4 + (b+1)%4]) ^ Rcon(b=0)  (e mod Nk = 0)
//   k[n] = k[n-4Nk] ^ S(k[n-4])                     (Nk = 8, e mod 8 = 4)
//   k[n] = k[n-4Nk] ^ k[n-4]                        (otherwise)
// backward (n falling from 16Nr+15, the first 4Nk bytes from last_q):
//   k[n] = k[n+4Nk] ^ (T of word e+Nk-1, the same cases by e mod Nk)
// so every operand is a fixed tap of win_q for a key size: W[4Nk-1], W[3] (forward)
// or W[4Nk-5] (backward); the S-box byte is addressed one cycle ahead from W[1],
// W[2] or W[5] (forward) or W[4Nk-5], W[4Nk-6], W[4Nk-9] (backward). The key setup
// runs the forward schedule once (16(Nr+1) bytes) and keeps the 32 bytes it ends with
// in last_q, the start of every decryption.
// During D the newest 16 bytes of win_q (the pass's round key) rotate one byte a
// cycle (s = 17 .. 31 and s = 0 of the next pass, 16 in all, so the window is back
// in order for the next K), which puts each column's round-key word at the fixed
// taps {W[2], W[1], W[0], W[15]} (encryption) or {W[15], W[0], W[1], W[2]}
// (decryption) when it is written; the rotation also makes the forward S-box taps
// of a pass's first byte (read at s = 0) the same as inside a pass.
//
// Timing (edges are rising clock edges; Nr = 10/12/14):
//   - latency 32(Nr+1) + 1 = 353/417/481: the edge A that accepts a block is step 0;
//     the last column is written at edge A + 32(Nr+1), where out_valid_o rises, so the
//     first edge at which it is high is A + 32(Nr+1) + 1.
//   - interval 32(Nr+1) + 1: in_ready_o is high while the result is taken, so the next
//     block is accepted at the edge that takes the result.
//   - key setup 16(Nr+1) + 1 = 177/209/241: key taken at edge K; one key byte per
//     cycle at edges K+1 .. K+16(Nr+1); in_ready_o is first high at edge
//     K+16(Nr+1)+1.
//
// Back-pressure: while out_valid_o && !out_ready_i nothing moves; out_data_o is the
// state register through a fixed per-key-size slot choice, out_tag_o a register.
// in_ready_o depends combinationally on out_ready_i, key_valid_i and in_decrypt_i.
// Keys: key_ready_o is high when no key setup runs and no block is in flight (not
// even a finished one waiting). While key_valid_i is high in_ready_o is low (a key
// presented with a block is loaded first). key_len_i = 3 completes the handshake,
// and the core forgets its key: in_ready_o stays low until a legal key is set up.
// Reset: rst_ni (asynchronous, active low) clears every register (the block-RAM ROM's
// output latch of SboxImpl 4 excepted, which is read only under reset step flags); a
// reset in the middle of a block or a key setup leaves the core idle without a key.
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r),
//   out0 in out_data_o[127:120]; key byte 0 in key_i[255:248], 128/192-bit keys
//   left-aligned (the unused low bits are ignored).
//
// Parameters:
//   TagWidth  width of in_tag_i/out_tag_o (>= 1, checked at elaboration), carried
//             through unchanged.
//   SboxImpl  the one S-box: 0 (default) a SubBytes and an InvSubBytes table
//             (ak_sbox_sel / ak_inv_sbox_sel, Impl 0) behind the input register;
//             1 comp, 2 canright, 3 lutinv: one shared enc/dec S-box
//             (ak_sbox_comp_encdec, ak_sbox_canright_encdec, ak_sbox_lutinv_encdec);
//             4 a 512 x 8 synchronous-read ROM, address {dec, byte}
//             (port A of ak_sbox_rom2: one block RAM). Anything else stops elaboration.
//             Cycle counts do not depend on it.
//   Directions, KeySizes  the configuration (docs/core-contract.md, "Configurations"):
//             Directions bit 0 builds encryption, bit 1 decryption (3, both, by
//             default); KeySizes bit k builds key_len_i = k (7, all three). Without
//             decryption the InvSubBytes table, the InvMixColumns pre-step, the
//             backward taps and last_q fold away; without 192/256-bit keys the key
//             register's low bytes and the window's bytes 16 .. 31 do. A block of a
//             direction left out is not accepted (in_ready_o low while it is offered);
//             a key of a size left out is handled as key_len_i = 3. Cycle counts of a
//             built size do not change.
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang; Icarus 11.

`default_nettype none

module ak_compact8_core #(
  parameter int TagWidth   = 1,
  parameter int SboxImpl   = 0,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
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
    initial $fatal(1, "ak_compact8_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_compact8_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3 || KeySizes < 1 || KeySizes > 7) begin : g_bad_config
`ifdef __ICARUS__
    initial $fatal(1, "ak_compact8_core: Directions must be 1..3 and KeySizes 1..7");
`else
    $fatal(1, "ak_compact8_core: Directions must be 1..3 and KeySizes 1..7");
`endif
  end

  localparam bit HasEnc = Directions[0];
  localparam bit HasDec = Directions[1];
  localparam logic [2:0] Ks = 3'(KeySizes);
  // the key lengths built (code 3: none)
  localparam logic [3:0] KeysBuilt = {1'b0, Ks};
  // the cipher key's bits a built size uses (128: the high 16 bytes, 192: 24)
  localparam logic [255:0] KeyMask = Ks[2] ? {256{1'b1}} :
                                     Ks[1] ? {{192{1'b1}}, 64'h0} : {{128{1'b1}}, 128'h0};

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  logic                key_ok_q;     // a legal key is set up
  logic                setup_q;      // the key setup's forward run
  logic                busy_q;       // a block is between its steps 1 and 32(Nr+1)
  logic                out_valid_q;  // the result waits in st_q
  logic                blk_dec_q;    // the block is decrypted
  logic [1:0]          klen_q;       // key_len_i of the key (0/1/2)
  logic [8:0]          g_q;          // block step of this cycle (0 when idle)
  logic [7:0]          kcnt_q;       // key bytes made in this run (setup or block)
  logic [2:0]          kph_q;        // (word index of the next key byte) mod Nk
  logic [7:0]          rcon_q;       // Rcon of the next RotWord in the run's direction
  logic [7:0]          raw_q;        // the byte addressed last cycle (the S-box input)
  logic [23:0]         sc_q;         // the column's S-box results so far, row 0 first
  logic [TagWidth-1:0] tag_q;
  logic [127:0]        st_q;         // the state, slots permuted per row (see header)
  logic [255:0]        key_q;        // the cipher key, byte i in [255-8i -: 8]
  logic [255:0]        last_q;       // the setup's final window, k[16Nr+15-i] in [8i +: 8]
  logic [255:0]        win_q;        // the key window, W[m] in [8m +: 8], W[0] the newest

  // ------------------------------------------------------------------------------
  // Handshakes and step control
  // ------------------------------------------------------------------------------
  logic       key_hs, accept, out_hs;
  logic       k128, k192, k256;
  logic [3:0] pass;         // pass of this cycle's step (pass Nr + 1 at the final write)
  logic [4:0] s;            // step within the pass
  logic [3:0] nr;           // rounds of the key
  logic       last_step;    // the block's final step g = 32(Nr+1)
  logic       kfwd;         // the key schedule runs forward
  logic       prod;         // a key byte is made this cycle
  logic       dact;         // a state byte is addressed this cycle (D)
  logic       wact;         // a column is written this cycle
  logic       rot;          // the window's newest 16 bytes rotate (D)

  assign key_ready_o = !setup_q && !busy_q && !out_valid_q;
  // (a block of a direction the build leaves out is never accepted)
  assign in_ready_o  = key_ok_q && !setup_q && !busy_q && (!out_valid_q || out_ready_i)
                       && !key_valid_i && (in_decrypt_i ? HasDec : HasEnc);
  assign key_hs = key_valid_i && key_ready_o;
  assign accept = in_valid_i && in_ready_o;
  assign out_hs = out_valid_q && out_ready_i;

  // klen_q of a set-up key is a built size, so a size left out is a constant 0 and a
  // build of one size has constant flags
  assign k128 = Ks[0] && ((klen_q == 2'd0) || (Ks[2:1] == 2'b00));
  assign k192 = Ks[1] && ((klen_q == 2'd1) || (!Ks[0] && !Ks[2]));
  assign k256 = !k128 && !k192;
  assign nr   = k128 ? 4'd10 : (k192 ? 4'd12 : 4'd14);

  // the direction of the block (constant in a one-direction build; the key setup
  // always runs forward)
  logic bdec;
  assign bdec = HasDec && (!HasEnc || blk_dec_q);
  assign kfwd = setup_q || !bdec;

  assign pass = g_q[8:5];
  assign s    = g_q[4:0];
  assign last_step = busy_q && (s == 5'd0) && (pass == nr + 4'd1);
  assign prod = setup_q || (busy_q && ((!s[4] && s != 5'd0) || s == 5'd16));
  assign dact = busy_q && s[4];
  assign wact = busy_q && ((s[4] && s[1:0] == 2'b00 && s[3:2] != 2'b00)
                           || (s == 5'd0 && pass != 4'd0));
  assign rot  = busy_q && (s == 5'd0 || (s[4] && s[3:0] != 4'd0));

  // ------------------------------------------------------------------------------
  // Key schedule: one byte a cycle
  // ------------------------------------------------------------------------------
  function automatic logic [7:0] wb(input logic [255:0] v, input int m);
    return v[8 * m +: 8];
  endfunction

  logic [7:0] nkb;          // 4Nk, the window length of the key size
  logic [7:0] kfin;         // the run's last byte count, 16(Nr+1) - 1
  logic [2:0] nk_m1;        // Nk - 1
  // the byte made this cycle: (kcnt_q, kph_q)
  logic [1:0] kb;           // its byte index b in its word
  logic       kload, ktrot, ktsub, kword_end;
  logic [2:0] kph_nx;       // the phase of the next word
  // the byte whose S-box operand is addressed this cycle: the next one when a byte
  // is made this cycle, else the one made next
  logic [7:0] acnt;
  logic [2:0] aph;
  logic [1:0] ab;
  logic       atrot;
  logic [7:0] kaddr;        // the S-box operand of the key schedule
  logic [7:0] kload_b;      // the byte of the load phase
  logic [7:0] kfar;         // k[n -/+ 4Nk]
  logic [7:0] knear;        // k[n - 4] (forward) or k[n + 4Nk - 4] (backward)
  logic [7:0] sb_out;       // the S-box result of raw_q
  logic [7:0] kt;
  logic [7:0] knew;         // the key byte made this cycle
  logic [7:0] rcon_x, rcon_ix, rcon_dec0;

  assign nkb   = k128 ? 8'd16 : (k192 ? 8'd24 : 8'd32);
  assign kfin  = k128 ? 8'd175 : (k192 ? 8'd207 : 8'd239);
  assign nk_m1 = k128 ? 3'd3 : (k192 ? 3'd5 : 3'd7);

  // the forward run makes n = cnt, the backward one n = 16Nr+15-cnt (n mod 4 = 3 - cnt mod 4)
  assign kb        = kfwd ? kcnt_q[1:0] : ~kcnt_q[1:0];
  assign kload     = kcnt_q < nkb;
  assign ktrot     = !kload && (kph_q == 3'd0);
  assign ktsub     = k256 && !kload && (kph_q == 3'd4);
  assign kword_end = kfwd ? (kb == 2'd3) : (kb == 2'd0);
  assign kph_nx    = kfwd ? ((kph_q == nk_m1) ? 3'd0 : kph_q + 3'd1)
                          : ((kph_q == 3'd0) ? nk_m1 : kph_q - 3'd1);

  assign acnt  = prod ? kcnt_q + 8'd1 : kcnt_q;
  assign aph   = (prod && kword_end) ? kph_nx : kph_q;
  assign ab    = kfwd ? acnt[1:0] : ~acnt[1:0];
  assign atrot = !(acnt < nkb) && (aph == 3'd0);

  // (the S-box taps of a pass's first byte, read at s = 0, are the same as inside a
  // pass: the window's newest 16 bytes stand one rotation short of in order then)
  always_comb begin : key_operand
    if (kfwd || !HasDec) begin
      kaddr = atrot ? ((ab == 2'd3) ? wb(win_q, 5) : wb(win_q, 1)) : wb(win_q, 2);
    end else if (atrot) begin
      if (ab == 2'd3) kaddr = k128 ? wb(win_q, 7) : (k192 ? wb(win_q, 15) : wb(win_q, 23));
      else            kaddr = k128 ? wb(win_q, 11) : (k192 ? wb(win_q, 19) : wb(win_q, 27));
    end else begin
      kaddr = wb(win_q, 26);  // SubWord alone: Nk = 8 only
    end
  end

  always_comb begin : key_load
    kload_b = '0;
    for (int i = 0; i < 32; i++) begin
      if (kcnt_q[4:0] == 5'(i)) begin
        kload_b = (HasDec && !kfwd) ? wb(last_q, i) : key_q[255 - 8 * i -: 8];
      end
    end
  end

  assign kfar  = k128 ? wb(win_q, 15) : (k192 ? wb(win_q, 23) : wb(win_q, 31));
  assign knear = (kfwd || !HasDec) ? wb(win_q, 3)
               : (k128 ? wb(win_q, 11) : (k192 ? wb(win_q, 19) : wb(win_q, 27)));
  assign kt    = ktrot ? (sb_out ^ ((kb == 2'd0) ? rcon_q : 8'h00))
               : (ktsub ? sb_out : knear);
  assign knew  = kload ? kload_b : (kfar ^ kt);

  ak_xtime u_xtime_rcon (
    .in_i (rcon_q),
    .out_o(rcon_x)
  );
  assign rcon_ix   = rcon_q[0] ? {1'b1, rcon_q[7:1] ^ 7'h0d} : {1'b0, rcon_q[7:1]};
  // Rcon of the first RotWord a backward run meets (w[36], w[42], w[48] take the Rcon
  // of w[40], w[48], w[56])
  assign rcon_dec0 = k128 ? 8'h36 : (k192 ? 8'h80 : 8'h40);

  // ------------------------------------------------------------------------------
  // Datapath: one byte a cycle through the S-box, one column written every 4
  // ------------------------------------------------------------------------------
  logic [1:0] rnd_r;        // pass mod 4 of the byte read
  logic [1:0] col_r, moff_r, slot_r;
  logic [1:0] row_r;
  logic [7:0] st_rd;        // the state byte read
  logic [7:0] sb_addr;      // the S-box input of this cycle
  logic       sb_dec;       // ... for InvSubBytes
  logic [3:0] pass_w;       // pass of the column written
  logic [1:0] col_w, moff_w;
  logic [1:0] slot_w [4];
  logic       rnd0_w, final_w;
  logic [7:0] cur;          // the byte leaving the S-box (pass 0: bypassed)
  logic [31:0] colx;        // the complete column
  logic [31:0] kw;          // its round-key word
  logic [31:0] dec_y, pre, mc_in, mc_out, res;

  assign rnd_r  = pass[1:0];
  assign row_r  = s[1:0];
  assign col_r  = s[3:2] ^ {bdec, bdec};
  assign moff_r = bdec ? (2'd0 - rnd_r) : rnd_r;
  // col + row * m' (mod 4) written out: row 2 adds 2m', row 3 subtracts m'
  always_comb begin : read_slot
    case (row_r)
      2'd0:    slot_r = col_r;
      2'd1:    slot_r = col_r + moff_r;
      2'd2:    slot_r = col_r + {moff_r[0], 1'b0};
      default: slot_r = col_r - moff_r;
    endcase
  end

  // the 16:1 byte choice written out (a variable part-select maps to a shifter)
  always_comb begin : read_mux
    st_rd = '0;
    for (int i = 0; i < 16; i++) begin
      if ({slot_r, row_r} == 4'(i)) st_rd = st_q[127 - 8 * i -: 8];
    end
  end

  assign sb_addr = dact ? st_rd : kaddr;
  assign sb_dec  = HasDec && dact && bdec;

  if (SboxImpl >= 0 && SboxImpl <= 3) begin : g_sbox_logic
    // the S-box behind the input register raw_q; dsb_q: raw_q is for InvSubBytes
    logic dsb_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin : dir_reg
      if (!rst_ni) dsb_q <= 1'b0;
      else         dsb_q <= sb_dec;
    end

    if (SboxImpl == 0) begin : g_table
      // two tables: SubBytes (the key schedule needs it in every build) and InvSubBytes
      logic [7:0] sb_b, isb_b;

      ak_sbox_sel #(
        .Impl(0)
      ) u_sbox (
        .in_i (raw_q),
        .out_o(sb_b)
      );

      if (HasDec) begin : g_dec
        ak_inv_sbox_sel #(
          .Impl(0)
        ) u_inv_sbox (
          .in_i (raw_q),
          .out_o(isb_b)
        );
      end else begin : g_no_dec
        assign isb_b = 8'h00;
      end

      assign sb_out = dsb_q ? isb_b : sb_b;
    end else if (SboxImpl == 1) begin : g_comp
      ak_sbox_comp_encdec u_sbox (
        .in_i (raw_q),
        .dec_i(dsb_q),
        .out_o(sb_out)
      );
    end else if (SboxImpl == 2) begin : g_canright
      ak_sbox_canright_encdec u_sbox (
        .in_i (raw_q),
        .dec_i(dsb_q),
        .out_o(sb_out)
      );
    end else begin : g_lutinv
      ak_sbox_lutinv_encdec u_sbox (
        .in_i (raw_q),
        .dec_i(dsb_q),
        .out_o(sb_out)
      );
    end
  end else if (SboxImpl == 4) begin : g_rom
    // the ROM's output register is the S-box's pipeline register (raw_q then only
    // serves pass 0's bypass)
    logic [7:0] port_b_unused;

    ak_sbox_rom2 u_sbox (
      .clk_i   (clk_i),
      .a_en_i  (1'b1),
      .a_addr_i({sb_dec, sb_addr}),
      .a_data_o(sb_out),
      .b_en_i  (1'b0),
      .b_addr_i(9'h000),
      .b_data_o(port_b_unused)
    );
  end else begin : g_bad_impl
    assign sb_out = 8'h00;
`ifdef __ICARUS__
    initial $fatal(1, "ak_compact8_core: SboxImpl must be 0..4, got %0d", SboxImpl);
`else
    $fatal(1, "ak_compact8_core: SboxImpl must be 0..4, got %0d", SboxImpl);
`endif
  end

  // the column written: 0, 1, 2 at s = 20, 24, 28 of its pass, 3 at s = 0 of the next
  assign pass_w  = (s == 5'd0) ? pass - 4'd1 : pass;
  assign col_w   = (s[3:2] - 2'd1) ^ {bdec, bdec};
  assign moff_w  = bdec ? (2'd0 - pass_w[1:0]) : pass_w[1:0];
  assign rnd0_w  = (pass_w == 4'd0);
  assign final_w = (pass_w == nr);
  for (genvar r = 0; r < 4; r++) begin : g_slot_w
    assign slot_w[r] = col_w + 2'(r) * moff_w;
  end

  // (the byte collected at s = 17 .. 31 and 0 was addressed in the same pass as the
  // column written next)
  assign cur  = rnd0_w ? raw_q : sb_out;
  assign colx = {sc_q, cur};
  assign kw   = bdec ? {wb(win_q, 15), wb(win_q, 0), wb(win_q, 1), wb(win_q, 2)}
                     : {wb(win_q, 2), wb(win_q, 1), wb(win_q, 0), wb(win_q, 15)};
  assign dec_y = colx ^ kw;

  if (HasDec) begin : g_pre
    ak_inv_mix_pre u_inv_mix_pre (
      .in_i (dec_y),
      .out_o(pre)
    );
  end else begin : g_no_pre
    assign pre = '0;
  end

  assign mc_in = bdec ? pre : colx;

  ak_mix_column u_mix_column (
    .in_i (mc_in),
    .out_o(mc_out)
  );

  always_comb begin : column_result
    if (rnd0_w)     res = dec_y;
    else if (bdec)  res = final_w ? dec_y : mc_out;
    else            res = (final_w ? colx : mc_out) ^ kw;
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      key_ok_q    <= 1'b0;
      setup_q     <= 1'b0;
      busy_q      <= 1'b0;
      out_valid_q <= 1'b0;
      blk_dec_q   <= 1'b0;
      klen_q      <= 2'd0;
      g_q         <= 9'd0;
      kcnt_q      <= 8'd0;
      kph_q       <= 3'd0;
      rcon_q      <= 8'h01;
      tag_q       <= '0;
    end else begin
      if (out_hs) out_valid_q <= 1'b0;
      if (key_hs) begin
        key_ok_q <= 1'b0;
        setup_q  <= KeysBuilt[key_len_i];  // a size left out: no key, as code 3
        klen_q   <= key_len_i;
        kcnt_q   <= 8'd0;
        kph_q    <= 3'd0;
        rcon_q   <= 8'h01;
      end else begin
        if (prod) begin
          kcnt_q <= kcnt_q + 8'd1;
          if (kword_end) kph_q <= kph_nx;
          if (ktrot && kb == 2'd0) rcon_q <= kfwd ? rcon_x : rcon_ix;
          if (setup_q && kcnt_q == kfin) begin
            setup_q  <= 1'b0;
            key_ok_q <= 1'b1;
          end
        end
        if (accept) begin
          busy_q    <= 1'b1;
          blk_dec_q <= in_decrypt_i;
          tag_q     <= in_tag_i;
          g_q       <= 9'd1;
          kcnt_q    <= 8'd0;
          kph_q     <= (HasDec && in_decrypt_i) ? 3'd3 : 3'd0;  // w[4Nr+3] mod Nk = 3
          rcon_q    <= (HasDec && in_decrypt_i) ? rcon_dec0 : 8'h01;
        end else if (last_step) begin
          busy_q      <= 1'b0;
          out_valid_q <= 1'b1;
          g_q         <= 9'd0;
        end else if (busy_q) begin
          g_q <= g_q + 9'd1;
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      key_q  <= '0;
      last_q <= '0;
      win_q  <= '0;
    end else begin
      if (key_hs) key_q <= key_i & KeyMask;
      if (prod && !key_hs) begin
        win_q <= {win_q[247:0], knew};
        // (only a decryption starts from it)
        if (HasDec && setup_q && kcnt_q == kfin) last_q <= {win_q[247:0], knew};
      end else if (rot) begin
        win_q[127:0] <= {win_q[119:0], win_q[127:120]};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : datapath_regs
    if (!rst_ni) begin
      raw_q <= '0;
      sc_q  <= '0;
      st_q  <= '0;
    end else begin
      raw_q <= sb_addr;
      sc_q  <= {sc_q[15:0], cur};
      for (int r = 0; r < 4; r++) begin
        for (int c = 0; c < 4; c++) begin
          if (accept) begin
            st_q[127 - 8 * (4 * c + r) -: 8] <= in_data_i[127 - 8 * (4 * c + r) -: 8];
          end else if (wact && slot_w[r] == 2'(c)) begin
            st_q[127 - 8 * (4 * c + r) -: 8] <= res[31 - 8 * r -: 8];
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Outputs: logical column c of row r sits in slot (c + 2r) mod 4 after 10 or 14
  // rounds (rows 1 and 3 two slots on), in slot c after 12
  // ------------------------------------------------------------------------------
  for (genvar c = 0; c < 4; c++) begin : g_out_col
    for (genvar r = 0; r < 4; r++) begin : g_out_row
      localparam int Rot = 4 * ((c + 2 * r) % 4) + r;
      localparam int Dir = 4 * c + r;
      assign out_data_o[127 - 8 * Dir -: 8] = k192 ? st_q[127 - 8 * Dir -: 8]
                                                   : st_q[127 - 8 * Rot -: 8];
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_tag_o   = tag_q;

endmodule

`default_nettype wire
