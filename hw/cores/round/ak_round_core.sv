// ak_round_core: the aeskit reference AES core -- one full round per clock cycle,
// encryption and decryption, 128/192/256-bit keys, on-the-fly key schedule.
// It speaks the aeskit core contract (docs/core-contract.md).
//
// Datapath. 16 S-boxes (ak_sbox_sel: the table ak_sbox by default, see SboxImpl)
// + 4 ak_mix_column for encryption and 16 inverse S-boxes (ak_inv_sbox_sel) +
// 4 ak_inv_mix_column for decryption, fed by one
// 128-bit state register that is also the output register. Encryption applies
// SubBytes, ShiftRows, MixColumns, AddRoundKey; decryption the FIPS-197 straight
// inverse cipher (InvShiftRows, InvSubBytes, AddRoundKey, InvMixColumns) with the
// round keys generated backwards -- no equivalent inverse cipher, no key store.
// The round logic takes its input from the state register while a block is being
// computed, and otherwise from in_data_i ^ (round key 0, or Nr when decrypting):
// the initial AddRoundKey and round 1 happen in the cycle that accepts a block.
//
// Key schedule. One shared ak_key_step works on a window of the last Nk expanded
// words that moves 4 words per cycle, forward for encryption and backward for
// decryption (see ak_key_step for why this covers all three key sizes, 192 bits
// included, with one SubWord per step). Round key r is the oldest four words of
// window r. Three 256-bit windows are kept:
//   key_enc_q  window 0 (the cipher key),
//   key_dec_q  window Nr, derived ONCE per key load by running the schedule forward
//              (the key setup),
//   rk_q       the window of the round last computed (or of the key setup).
// Each cycle the step turns the window of round r-1 into that of round r, whose
// round key the round uses at once (the step runs beside the S-boxes, not before).
//
// Timing (edges are rising clock edges; Nr = 10/12/14 for 128/192/256-bit keys;
// "the first edge at which X is high" samples X just before that edge):
//   - latency Nr: a block accepted at edge A (in_valid_i && in_ready_o) goes through
//     AddRoundKey + round 1 at edge A and rounds 2 .. Nr at edges A+1 .. A+Nr-1;
//     out_valid_o is high from edge A+Nr-1 on, so the first edge at which it is high
//     is A+Nr.
//   - interval Nr: in_ready_o is high while the result is being taken
//     (out_valid_o && out_ready_i), so the next block is accepted at edge A+Nr, the
//     edge that takes the result; a continuous, never-stalled ECB stream moves one
//     block every Nr cycles.
//   - key setup Nr+1: a legal key is taken at edge K (key_valid_i && key_ready_o);
//     the schedule runs forward at edges K+1 .. K+Nr; in_ready_o is high from edge
//     K+Nr on, i.e. first high at edge K+Nr+1 (11/13/15 cycles).
//
//   clk          _/~\_/~\_/~\_/ ... \_/~\_/~\_/~\_
//   edge            A  A+1  A+2     A+Nr-1 A+Nr
//   in_valid/rdy  ~~~~\________ ... ______/~~~~~\    (next block taken at A+Nr)
//   state         -- | r1 | r2 | ... | rNr = result |
//   out_valid     ___________________ /~~~~~~\___    (taken at A+Nr if out_ready_i)
//
// Back-pressure. While out_valid_o && !out_ready_i everything holds: state, tag,
// round key and counter; out_data_o/out_tag_o are the registers themselves.
// in_ready_o depends combinationally on out_ready_i (as the contract allows) and on
// key_valid_i; all other outputs come from registers.
//
// Key loads. key_ready_o is high when no key setup runs and no block is in flight
// (not even a finished one waiting to be taken). While key_valid_i is high,
// in_ready_o is low: a key presented together with a block is loaded first and the
// block is then processed under the new key (and a key waiting for the core to
// drain is never starved by a stream of blocks).
// key_len_i = 3 (illegal): the handshake completes (the master does not hang), the
// core forgets its key and keeps in_ready_o low until a legal key has been loaded;
// it never encrypts under a key it does not understand. After reset the core has no
// key either: key_ready_o high, in_ready_o low.
//
// Reset. rst_ni is asynchronous, active low, and resets every register; a reset in
// the middle of a block or of a key setup leaves the core idle, without a key.
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r in
//   [127-8(4c+r) -: 8]), out0 in out_data_o[127:120]; key byte 0 in key_i[255:248],
//   128/192-bit keys left-aligned (key_i[127:0] / key_i[63:0] are ignored for them).
//
// Parameters:
//   TagWidth  width of in_tag_i/out_tag_o (>= 1, checked at elaboration), carried
//             through unchanged.
//   SboxImpl  implementation of the 16 round S-boxes and 16 inverse S-boxes, through
//             ak_sbox_sel / ak_inv_sbox_sel (0..3, checked there):
//               0 table (default), 1 comp (composite field, paper 000),
//               2 canright (normal-basis tower), 3 lutinv (LUT inverter + affine,
//               paper 001).
//             All are combinational, so latency, interval and key setup do not
//             change; only area and the round's critical path do. The key
//             schedule's SubWord (ak_key_step) keeps its table S-boxes. The block-RAM
//             S-box (latency 1) cannot be used: this core does a round per cycle.
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang; Icarus 11.

`default_nettype none

module ak_round_core #(
  parameter int TagWidth = 1,
  parameter int SboxImpl = 0
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
  // An elaboration-time $fatal; Icarus 11 lacks those, so there it fires at time 0.
  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_round_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StNoKey,   // no usable key (after reset or an illegal key_len_i)
    StSetup,   // running the schedule forward to window Nr
    StReady    // key_enc_q/key_dec_q valid, blocks may be accepted
  } key_st_e;

  key_st_e             key_st_q, key_st_d;
  logic [1:0]          klen_q, klen_d;          // key_len_i of the loaded key
  logic [255:0]        key_enc_q, key_enc_d;    // window 0 (the cipher key)
  logic [255:0]        key_dec_q, key_dec_d;    // window Nr
  logic [7:0]          dec_rcon_q, dec_rcon_d;  // Rcon state of window Nr
  logic [255:0]        rk_q, rk_d;              // window of the last round (setup step)
  logic [2:0]          rk_phase_q, rk_phase_d;
  logic [7:0]          rk_rcon_q, rk_rcon_d;
  logic [3:0]          cnt_q, cnt_d;            // rounds done (block) / steps done (setup)
  logic                busy_q, busy_d;          // a block is in the state register
  logic                dec_q, dec_d;            // ... it is being decrypted
  logic [TagWidth-1:0] tag_q, tag_d;            // ... its tag
  logic [127:0]        state_q, state_d;

  logic [3:0]   nr;          // rounds of the loaded key
  logic         done;        // the block in the state register is finished (out_valid_o)
  logic         start_sel;   // the round logic works on in_data_i (a block may start)
  logic         key_fire;    // key handshake at this edge
  logic         key_legal;   // key_len_i is 0, 1 or 2
  logic [255:0] key_masked;  // key_i with the unused low bits cleared
  logic         in_fire;     // block handshake at this edge
  logic         out_fire;    // result handshake at this edge
  logic         setup_step;  // a key-setup step happens at this edge

  logic [255:0] ks_win_i, ks_win_o;
  logic [2:0]   ks_phase_i, ks_phase_o;
  logic [7:0]   ks_rcon_i, ks_rcon_o;
  logic         ks_reverse;

  logic         rnd_dec;     // the round decrypts
  logic         rnd_final;   // the round is round Nr (no (Inv)MixColumns)
  logic [127:0] rnd_in;      // round input
  logic [127:0] rk;          // round key of the round
  logic [127:0] enc_sr;      // ShiftRows(rnd_in)
  logic [127:0] enc_sb;      // SubBytes(ShiftRows(rnd_in))
  logic [127:0] enc_mc;      // MixColumns(...)
  logic [127:0] dec_isr;     // InvShiftRows(rnd_in)
  logic [127:0] dec_isb;     // InvSubBytes(InvShiftRows(rnd_in))
  logic [127:0] dec_ark;     // ... ^ round key
  logic [127:0] dec_imc;     // InvMixColumns(...)
  logic [127:0] rnd_out;     // result of the round

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign nr         = 4'd10 + {1'b0, klen_q, 1'b0};  // 10 / 12 / 14
  assign done       = busy_q && (cnt_q == nr);
  assign start_sel  = (key_st_q == StReady) && (!busy_q || done);
  assign key_legal  = (key_len_i != 2'd3);
  assign setup_step = (key_st_q == StSetup);

  assign key_ready_o = (key_st_q != StSetup) && !busy_q;
  assign in_ready_o  = (key_st_q == StReady) && !key_valid_i &&
                       (!busy_q || (done && out_ready_i));
  assign out_valid_o = done;
  assign out_data_o  = state_q;
  assign out_tag_o   = tag_q;

  assign key_fire = key_valid_i && key_ready_o;
  assign in_fire  = in_valid_i && in_ready_o;
  assign out_fire = done && out_ready_i;

  always_comb begin : key_mask
    unique case (key_len_i)
      2'd0:    key_masked = {key_i[255:128], 128'h0};
      2'd1:    key_masked = {key_i[255:64], 64'h0};
      default: key_masked = key_i;
    endcase
  end

  always_comb begin : key_fsm
    key_st_d   = key_st_q;
    klen_d     = klen_q;
    key_enc_d  = key_enc_q;
    key_dec_d  = key_dec_q;
    dec_rcon_d = dec_rcon_q;
    unique case (key_st_q)
      StNoKey, StReady: begin
        if (key_fire) begin
          if (key_legal) begin
            key_st_d  = StSetup;
            klen_d    = key_len_i;
            key_enc_d = key_masked;
          end else begin
            key_st_d  = StNoKey;
          end
        end
      end
      StSetup: begin
        if (cnt_q == nr) begin
          key_st_d   = StReady;
          key_dec_d  = ks_win_o;
          dec_rcon_d = ks_rcon_o;
        end
      end
      default: key_st_d = StNoKey;
    endcase
  end

  always_comb begin : counter
    cnt_d = cnt_q;
    if (key_fire && key_legal)  cnt_d = 4'd1;
    else if (setup_step)        cnt_d = (cnt_q == nr) ? 4'd0 : cnt_q + 4'd1;
    else if (in_fire)           cnt_d = 4'd1;
    else if (busy_q && !done)   cnt_d = cnt_q + 4'd1;
    else if (out_fire)          cnt_d = 4'd0;
  end

  // ------------------------------------------------------------------------------
  // Key schedule: one step per cycle
  // ------------------------------------------------------------------------------
  // When a block may start, the step begins at the stored window of its direction
  // (phase 0) and yields round key 1 (Nr-1); otherwise it continues the running
  // window (a block in flight, or the key setup, which always runs forward).
  always_comb begin : key_step_in
    if (start_sel) begin
      ks_win_i   = in_decrypt_i ? key_dec_q  : key_enc_q;
      ks_phase_i = 3'd0;
      ks_rcon_i  = in_decrypt_i ? dec_rcon_q : 8'h01;
      ks_reverse = in_decrypt_i;
    end else begin
      ks_win_i   = rk_q;
      ks_phase_i = rk_phase_q;
      ks_rcon_i  = rk_rcon_q;
      ks_reverse = busy_q && dec_q;
    end
  end

  ak_key_step u_key_step (
    .win_i    (ks_win_i),
    .key_len_i(klen_q),
    .phase_i  (ks_phase_i),
    .rcon_i   (ks_rcon_i),
    .reverse_i(ks_reverse),
    .win_o    (ks_win_o),
    .phase_o  (ks_phase_o),
    .rcon_o   (ks_rcon_o)
  );

  always_comb begin : round_key_next
    rk_d       = rk_q;
    rk_phase_d = rk_phase_q;
    rk_rcon_d  = rk_rcon_q;
    if (key_fire && key_legal) begin
      rk_d       = key_masked;
      rk_phase_d = 3'd0;
      rk_rcon_d  = 8'h01;
    end else if (in_fire || setup_step || (busy_q && !done)) begin
      rk_d       = ks_win_o;
      rk_phase_d = ks_phase_o;
      rk_rcon_d  = ks_rcon_o;
    end
  end

  // ------------------------------------------------------------------------------
  // Round datapath
  // ------------------------------------------------------------------------------
  // The multiplexer selects below depend on registers and in_decrypt_i only, so
  // out_ready_i/in_valid_i reach nothing but the register enables.
  assign rnd_dec   = start_sel ? in_decrypt_i : dec_q;
  assign rnd_final = !start_sel && (cnt_q == nr - 4'd1);
  assign rnd_in    = start_sel ? (in_data_i ^ ks_win_i[255:128]) : state_q;
  assign rk        = ks_win_o[255:128];

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      // s[r][c] is byte 4c+r. ShiftRows: s'[r][c] = s[r][(c+r) mod 4];
      // InvShiftRows: s'[r][c] = s[r][(c-r) mod 4]. (Both commute with the S-boxes.)
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;

      assign enc_sr[127-8*Byte -: 8]  = rnd_in[127-8*FromEnc -: 8];
      assign dec_isr[127-8*Byte -: 8] = rnd_in[127-8*FromDec -: 8];

      ak_sbox_sel #(
        .Impl(SboxImpl)
      ) u_sbox (
        .in_i (enc_sr[127-8*Byte -: 8]),
        .out_o(enc_sb[127-8*Byte -: 8])
      );

      ak_inv_sbox_sel #(
        .Impl(SboxImpl)
      ) u_inv_sbox (
        .in_i (dec_isr[127-8*Byte -: 8]),
        .out_o(dec_isb[127-8*Byte -: 8])
      );
    end

    ak_mix_column u_mix_column (
      .in_i (enc_sb[127-32*c -: 32]),
      .out_o(enc_mc[127-32*c -: 32])
    );

    ak_inv_mix_column u_inv_mix_column (
      .in_i (dec_ark[127-32*c -: 32]),
      .out_o(dec_imc[127-32*c -: 32])
    );
  end

  assign dec_ark = dec_isb ^ rk;

  always_comb begin : round_result
    unique case ({rnd_dec, rnd_final})
      2'b00:   rnd_out = enc_mc ^ rk;
      2'b01:   rnd_out = enc_sb ^ rk;
      2'b10:   rnd_out = dec_imc;
      default: rnd_out = dec_ark;  // 2'b11
    endcase
  end

  always_comb begin : datapath
    state_d = state_q;
    busy_d  = busy_q;
    dec_d   = dec_q;
    tag_d   = tag_q;
    if (in_fire) begin
      state_d = rnd_out;
      busy_d  = 1'b1;
      dec_d   = in_decrypt_i;
      tag_d   = in_tag_i;
    end else if (busy_q && !done) begin
      state_d = rnd_out;
    end else if (out_fire) begin
      busy_d  = 1'b0;
    end
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      key_st_q   <= StNoKey;
      klen_q     <= 2'd0;
      key_enc_q  <= '0;
      key_dec_q  <= '0;
      dec_rcon_q <= 8'h00;
    end else begin
      key_st_q   <= key_st_d;
      klen_q     <= klen_d;
      key_enc_q  <= key_enc_d;
      key_dec_q  <= key_dec_d;
      dec_rcon_q <= dec_rcon_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : round_key_regs
    if (!rst_ni) begin
      rk_q       <= '0;
      rk_phase_q <= 3'd0;
      rk_rcon_q  <= 8'h00;
    end else begin
      rk_q       <= rk_d;
      rk_phase_q <= rk_phase_d;
      rk_rcon_q  <= rk_rcon_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      cnt_q  <= 4'd0;
      busy_q <= 1'b0;
      dec_q  <= 1'b0;
      tag_q  <= '0;
    end else begin
      cnt_q  <= cnt_d;
      busy_q <= busy_d;
      dec_q  <= dec_d;
      tag_q  <= tag_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_reg
    if (!rst_ni) state_q <= '0;
    else         state_q <= state_d;
  end

endmodule

`default_nettype wire
