// ak_round_core: the aeskit reference AES core -- one full round per clock cycle,
// encryption and decryption, 128/192/256-bit keys (or a subset: Directions,
// KeySizes), on-the-fly key schedule.
// It speaks the aeskit core contract (docs/core-contract.md).
//
// Datapath. Two state registers: se_q (encryption; also the output register) and
// sd_q (decryption). 16 S-boxes (ak_sbox_sel: the table ak_sbox by default, see
// SboxImpl) + 4 ak_mix_column work on se_q, 16 inverse S-boxes (ak_inv_sbox_sel) +
// 4 ak_inv_mix_column_direct on sd_q; both run every cycle and both registers load
// together. Encryption applies SubBytes, ShiftRows, MixColumns, AddRoundKey;
// decryption the FIPS-197 straight inverse cipher (InvShiftRows, InvSubBytes,
// AddRoundKey, InvMixColumns) with the round keys generated backwards -- no
// equivalent inverse cipher, no key store. InvMixColumns is linear, so the
// decryption round computes InvMixColumns(isb ^ rk) as InvMixColumns(isb) ^
// InvMixColumns(rk): the round key enters at the last XOR and its InvMixColumns
// runs beside the inverse S-boxes. In the cycle that accepts a block the two
// round inputs are in_data_i ^ round key 0 and in_data_i ^ round key Nr: the
// initial AddRoundKey and round 1 happen in the accepting cycle.
// The final round writes its result (SubBytes + AddRoundKey, or InvSubBytes +
// AddRoundKey, by the direction of the block) into se_q, the output register.
//
// Why this structure (Fmax; the cycle behaviour is that of a one-register design).
// The direction of a block is only known in the cycle that accepts it
// (in_decrypt_i), and round 1 runs in that cycle; a single state register fed by a
// 4:1 result multiplexer would put in_decrypt_i and the key choices into the select
// logic of every round, in front of and behind the S-boxes (16.5 LUT levels). With a state register per direction each datapath reads its own
// register or in_data_i ^ its own round key 0 / Nr (a multiplexer whose select is
// the start flip-flop and whose inputs are all registers or in_data_i), and its
// round key is a choice of two registers by the same flip-flop (rk1_enc_o /
// rk1_dec_o at a start, else rk_reg_o); in_decrypt_i reaches no datapath logic.
// The only direction select left is blk_dec_o, a flip-flop, in the final round.
// The registers this costs: sd_q (128); ak_round_ctrl keeps windows 2 and Nr-2 from
// the key setup and the SubWord input of each window's next step (rk_sub_q beside
// rk_q), so its key step works on registers only, its S-box straight on a
// flip-flop, and is off the critical path (see ak_round_ctrl). No select is one
// flip-flop fanned out across the die either: the key step's controls are decoded a
// cycle ahead (ak_key_step_ctl), the key window runs one round ahead of the round
// key register (ak_round_ctrl), and here each datapath select (start, final,
// blk_dec) has one copy per state byte, 48 flip-flops loaded from the control's
// next values (start_next_o, final_next_o, blk_dec_next_o), instead of one
// flip-flop driving 256-512 LUTs. Latency, interval, key setup and the handshakes
// are those of the control alone: the copies only hold values that a one-register
// design would select by logic.
//
// Control and key schedule: ak_round_ctrl (PreRound = 0), shared with the paper-002
// cores. One key step (ak_key_step_split) works on a window of the last Nk expanded words that moves
// 4 words per cycle, forward for encryption and backward for decryption (see
// ak_key_step_split for why this covers all three key sizes, 192 bits included, with
// one SubWord per step). Round key r is the oldest four words of window r. The windows
// kept:
//   key_enc_q  round key 0 (of the cipher key),
//   key_dec_q  round key Nr, derived ONCE per key load by running the schedule
//              forward (the key setup),
//   win1_*_q   windows 1 and Nr-1, kept from the same key setup (round 1's keys),
//   win2_*_q   windows 2 and Nr-2 (the windows the step continues from after a
//              start, so the step's inputs are registers),
//   rk_q       the window of the round in progress (rk_sub_q: the SubWord input of
//              its step).
// Every round key comes from a register: each cycle the step turns the window of
// round r into that of round r+1 for the next cycle (register to register, beside
// the datapath), so no key logic sits in front of AddRoundKey. The select of the
// round inputs (start) is a flip-flop as well.
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
// key_valid_i; all other outputs come from registers (out_data_o is se_q).
//
// Key loads. key_ready_o is high when no key setup runs and no block is in flight
// (not even a finished one waiting to be taken). While key_valid_i is high,
// in_ready_o is low: a key presented together with a block is loaded first and the
// block is then processed under the new key (and a key waiting for the core to
// drain is never starved by a stream of blocks).
// key_len_i = 3 (illegal) or a size KeySizes does not build: the handshake completes
// (the master does not hang), the core forgets its key and keeps in_ready_o low until a legal key has been loaded;
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
//             schedule's SubWord (ak_key_step_split) keeps its table S-boxes. The
//             block-RAM S-box (latency 1) cannot be used: this core does a round per
//             cycle.
//   Directions  directions built (docs/core-contract.md, "Configurations"): 1
//             encrypt only, 2 decrypt only, 3 both (default); checked in ak_round_ctrl.
//             Encrypt only leaves out the 16 inverse S-boxes, both InvMixColumns
//             (state and round key), the decryption state register sd_q and, in
//             ak_round_ctrl, the decryption windows and the backward key step; decrypt
//             only leaves out the S-boxes and MixColumns of the round (the key
//             schedule's SubWord stays). A block of a direction not built is never
//             accepted (in_ready_o low while it is offered).
//   KeySizes  mask of the key sizes built (bit 0 128, bit 1 192, bit 2 256; default
//             7), checked in ak_round_ctrl. A key of a size not built leaves the core
//             keyless, as key_len_i = 3 does; the schedule paths and window words of
//             the sizes not built are removed (AES-128 only: 128-bit windows).
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang; Icarus 11.

`default_nettype none

module ak_round_core #(
  parameter int TagWidth = 1,
  parameter int SboxImpl = 0,
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
  // An elaboration-time $fatal; Icarus 11 lacks those, so there it fires at time 0.
  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_round_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  // ------------------------------------------------------------------------------
  // Control and key schedule (shared with the paper-002 cores)
  // ------------------------------------------------------------------------------
  logic         start;       // the round works on in_data_i (a block may be accepted)
  logic         load;        // the state registers take the round results
  logic         rnd_dec;     // unused: the direction of the round (in_decrypt_i at a start)
  logic         blk_dec;     // the block in the state registers is decrypted
  logic         rnd_final;   // the round is round Nr (no (Inv)MixColumns)
  logic [127:0] start_key;   // unused: round key 0 or Nr selected by in_decrypt_i
  logic [127:0] key0, keynr; // round key 0 and round key Nr (registers)
  logic [127:0] rk1e, rk1d;  // round key 1 and round key Nr-1 (registers)
  logic [127:0] rk_reg;      // the round key of the round in progress (a register)
  logic [127:0] rk_next;     // unused: the round key of this cycle's round (a mux)
  logic [127:0] se_q, se_d;  // encryption state; the result of either direction
  logic         start_next, final_next, blk_dec_next;  // the selects' next values
  logic [127:0] sd_q, sd_d;  // decryption state

  ak_round_ctrl #(
    .TagWidth  (TagWidth),
    .PreRound  (0),
    .Directions(Directions),
    .KeySizes  (KeySizes)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .key_valid_i,
    .key_ready_o,
    .key_i,
    .key_len_i,
    .in_valid_i,
    .in_ready_o,
    .in_decrypt_i,
    .in_tag_i,
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .start_o        (start),
    .load_o         (load),
    .dec_o          (rnd_dec),
    .blk_dec_o      (blk_dec),
    .final_o        (rnd_final),
    .start_key_o    (start_key),
    .rk_reg_o       (rk_reg),
    .rk_next_o      (rk_next),
    .start_key_enc_o(key0),
    .start_key_dec_o(keynr),
    .rk1_enc_o      (rk1e),
    .rk1_dec_o      (rk1d),
    .start_next_o   (start_next),
    .final_next_o   (final_next),
    .blk_dec_next_o (blk_dec_next)
  );

  // One copy of each datapath select per state byte (start, final, blk_dec: a
  // flip-flop each fanned out to 128 bits of two datapaths and their key
  // multiplexers), loaded from the control's next values at every edge, so each
  // steers the 8 bits beside it. Each copy has its own always_ff marked keep, or
  // synthesis merges the equal registers back into one. Checked against the
  // control's registers in simulation.
  logic [15:0] start_rep_q, fin_rep_q, bdec_rep_q;
  localparam bit DecOnly = (Directions == 2);

  for (genvar b = 0; b < 16; b++) begin : g_select_copy
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : start_copy_reg
      if (!rst_ni) start_rep_q[b] <= 1'b0;
      else         start_rep_q[b] <= start_next;
    end

    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : final_copy_reg
      if (!rst_ni) fin_rep_q[b] <= 1'b0;
      else         fin_rep_q[b] <= final_next;
    end

    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : dec_copy_reg
      if (!rst_ni) bdec_rep_q[b] <= DecOnly;  // as ak_round_ctrl's dec_q
      else         bdec_rep_q[b] <= blk_dec_next;
    end
  end

  // ------------------------------------------------------------------------------
  // Round datapath
  // ------------------------------------------------------------------------------
  logic [127:0] enc_in, dec_in;  // round inputs
  logic [127:0] rk_enc, rk_dec;  // round keys of the two directions
  logic [127:0] enc_sr;      // ShiftRows(enc_in)
  logic [127:0] enc_sb;      // SubBytes(ShiftRows(enc_in))
  logic [127:0] enc_mc;      // MixColumns(...)
  logic [127:0] dec_isr;     // InvShiftRows(dec_in)
  logic [127:0] dec_isb;     // InvSubBytes(InvShiftRows(dec_in))
  logic [127:0] dec_imc;     // InvMixColumns(dec_isb)
  logic [127:0] rk_imc;      // InvMixColumns(rk_dec)

  // byte b of each 128-bit choice by its own copy of start
  for (genvar b = 0; b < 16; b++) begin : g_start_sel
    localparam int Hi = 127 - 8 * b;

    assign enc_in[Hi -: 8] = start_rep_q[b] ? (in_data_i[Hi -: 8] ^ key0[Hi -: 8])  : se_q[Hi -: 8];
    assign dec_in[Hi -: 8] = start_rep_q[b] ? (in_data_i[Hi -: 8] ^ keynr[Hi -: 8]) : sd_q[Hi -: 8];
    assign rk_enc[Hi -: 8] = start_rep_q[b] ? rk1e[Hi -: 8] : rk_reg[Hi -: 8];
    assign rk_dec[Hi -: 8] = start_rep_q[b] ? rk1d[Hi -: 8] : rk_reg[Hi -: 8];
  end

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;

      assign enc_sr[127-8*Byte -: 8]  = enc_in[127-8*FromEnc -: 8];
      assign dec_isr[127-8*Byte -: 8] = dec_in[127-8*FromDec -: 8];

      if (Directions[0]) begin : g_enc
        ak_sbox_sel #(
          .Impl(SboxImpl)
        ) u_sbox (
          .in_i (enc_sr[127-8*Byte -: 8]),
          .out_o(enc_sb[127-8*Byte -: 8])
        );
      end else begin : g_no_enc
        assign enc_sb[127-8*Byte -: 8] = 8'h00;
      end

      if (Directions[1]) begin : g_dec
        ak_inv_sbox_sel #(
          .Impl(SboxImpl)
        ) u_inv_sbox (
          .in_i (dec_isr[127-8*Byte -: 8]),
          .out_o(dec_isb[127-8*Byte -: 8])
        );
      end else begin : g_no_dec
        assign dec_isb[127-8*Byte -: 8] = 8'h00;
      end
    end

    if (Directions[0]) begin : g_enc_mix
      ak_mix_column u_mix_column (
        .in_i (enc_sb[127-32*c -: 32]),
        .out_o(enc_mc[127-32*c -: 32])
      );
    end else begin : g_no_enc_mix
      assign enc_mc[127-32*c -: 32] = 32'h0;
    end

    if (Directions[1]) begin : g_dec_mix
      ak_inv_mix_column_direct u_inv_mix_column (
        .in_i (dec_isb[127-32*c -: 32]),
        .out_o(dec_imc[127-32*c -: 32])
      );

      ak_inv_mix_column_direct u_inv_mix_column_rk (
        .in_i (rk_dec[127-32*c -: 32]),
        .out_o(rk_imc[127-32*c -: 32])
      );
    end else begin : g_no_dec_mix
      assign dec_imc[127-32*c -: 32] = 32'h0;
      assign rk_imc[127-32*c -: 32]  = 32'h0;
    end
  end

  always_comb begin : state_next
    se_d = se_q;
    sd_d = sd_q;
    if (load) begin
      sd_d = dec_imc ^ rk_imc;
      for (int b = 0; b < 16; b++) begin
        // (a decrypt-only build loads se_q in the final round only)
        if (!fin_rep_q[b]) begin
          if (Directions[0]) se_d[127-8*b -: 8] = enc_mc[127-8*b -: 8] ^ rk_enc[127-8*b -: 8];
        end else if (bdec_rep_q[b]) begin
          se_d[127-8*b -: 8] = dec_isb[127-8*b -: 8] ^ rk_dec[127-8*b -: 8];
        end else begin
          se_d[127-8*b -: 8] = enc_sb[127-8*b -: 8] ^ rk_enc[127-8*b -: 8];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      se_q <= '0;
      sd_q <= '0;
    end else begin
      se_q <= se_d;
      sd_q <= sd_d;
    end
  end

  assign out_data_o = se_q;

  logic unused;
  assign unused = rnd_dec ^ (^start_key) ^ (^rk_next) ^ start ^ rnd_final ^ blk_dec ^
                  (^enc_sr) ^ (^dec_isr);  // (unused in a one-direction build)

`ifndef SYNTHESIS
  // the copies are the control's selects (from the first reset on: before it the
  // registers hold whatever they power up with)
  logic reset_seen_q = 1'b0;

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : copy_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q && (start_rep_q != {16{start}} || fin_rep_q != {16{rnd_final}}
                                  || bdec_rep_q != {16{blk_dec}})) begin
      $error("ak_round_core: select copies %h %h %h, control %b %b %b", start_rep_q,
             fin_rep_q, bdec_rep_q, start, rnd_final, blk_dec);
    end
  end
`endif

endmodule

`default_nettype wire
