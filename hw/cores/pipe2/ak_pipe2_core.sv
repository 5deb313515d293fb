// ak_pipe2_core: the two-stage pipelined AES round of paper 001 (Lin, Huang):
// one round datapath cut into two pipeline stages at the output of a shared LUT-based
// GF(2^8) inverter, so that two independent blocks are in flight at once.
// Encryption and decryption, 128/192/256-bit keys, pipelined on-the-fly key
// generator. It speaks the aeskit core contract (docs/core-contract.md).
//
// Datapath (one round = two cycles; the two stages always work on different blocks):
//   stage 1  new block: ShiftRows(in ^ rk[0]) | InvShiftRows(InvAffine(in ^ rk[Nr])),
//            else the block in S as it is             -> 16 x ak_gf_inv -> register P
//   stage 2  encryption: ShiftRows(ak_affine_mix_column(P) ^ rk) (Affine merged with
//                        MixColumns), last round 16 x ak_affine ^ rk;
//            decryption: InvShiftRows(ak_inv_mix_column_inv_affine(P ^ rk))
//                        (InvMixColumns merged with the InvAffine of the NEXT round's
//                        InvSubBytes, retimed back into this round),
//                        last round P ^ rk                           -> register S
// The inverter is the only S-box logic of the round and is shared by both
// directions. InvAffine is retimed out of the round: decryption keeps the state in
// the "InvAffine domain" t = InvAffine(s) (byte-wise, so it commutes with
// InvShiftRows); the block-init logic in front of stage 1 applies the first
// InvAffine (t0 = InvAffine(in ^ rk[Nr])), each round's stage 2 the next one, and
// the last round none. The (Inv)ShiftRows of round r+1 is applied at the end of
// round r (wiring in front of S), so a block fed back from S goes to the inverters
// through the new/feedback multiplexer only; a new block's is in its block init.
// Stage 1 takes a new block or the block waiting in S (feedback); stage 2 always
// takes P. The new/feedback selection (start_sel_q, fb_q) and the handshake flags
// (s_done_q, key_ready_q) are flip-flops set from the next state.
//
// Key generator. Each block carries its own 256-bit key window (see
// ak_key_step_split) through P and S, with its phase, Rcon and the SubWord input of
// its next step (p_sub_q, s_sub_q). The one ak_key_step_split sits in stage 1 beside
// the inverters: it turns the window of round r-1 of the block fed back from S into
// that of round r, registered in P beside the inverter outputs, and stage 2 uses its
// oldest four words as round key r. So the key generation is pipelined exactly like
// the data, one step per cycle for the two blocks together. The step runs on
// registers only: its S-box is fed from s_sub_q (the step returns the SubWord input
// of the block's next step in the same direction, carried on with the window), its
// direction from s_rev_q, its word selects from s_ctl_q = ak_key_step_ctl(klen_q,
// s_phase_q, s_rev_q), set a cycle ahead from the next-state values (checked against
// that decode every cycle in simulation); the schedule loop is register -> SubWord ->
// one XOR level -> the P/S multiplexers. A new block needs no step in its first
// stage 1: the key setup (Nr forward steps once per key load, as ak_round_core, in
// the window register of S while no block is in flight) keeps round keys 0 and Nr
// for the block init and the windows of round 1 (encryption, with its forward
// SubWord input) and Nr-1 (decryption, which then steps backwards, with its backward
// SubWord input), each taken from the S window register in the cycle after the step
// that made it (so no setup register is loaded behind the step). So no key step
// hangs behind the new/feedback selection. Stage 1's new/feedback select and stage
// 2's direction and last-round flags have a copy per state byte (keep), each
// steering the 8 bits beside it.
//
// Timing (edges are rising clock edges; Nr = 10/12/14):
//   - latency 2*Nr (20/24/28): a block accepted at edge A is in P after A (round 1,
//     stage 1), in S after A+1 (round 1 done), ..., round Nr is done at edge
//     A+2*Nr-1, so the first edge at which out_valid_o is high is A+2*Nr.
//   - two blocks in flight: a second block is accepted one cycle after the first
//     (stage 1 is free while the first is in stage 2). A never-stalled stream of
//     independent blocks is accepted in pairs at A, A+1, A+2Nr, A+2Nr+1, ...:
//     interval Nr on average (10/12/14 cycles per block), each block taken at the
//     edge its slot's previous result leaves.
//   - one chained stream (CBC encryption, CBC-MAC): 2*Nr cycles per block.
//   - key setup Nr+1 (11/13/15), as ak_round_core.
//
//   edge        A    A+1  A+2  A+3  ...  A+2Nr-1  A+2Nr  A+2Nr+1
//   accept      X    Y                            X'     Y'
//   P           X1   Y1   X2   Y2   ...  YNr      X'1    Y'1
//   S                X1   Y1   X2   ...  XNr      YNr    X'1
//   out_valid                            (X)      (Y)
//
// Back-pressure. While out_valid_o && !out_ready_i the whole pipeline holds (both
// stages, keys, tags); out_data_o/out_tag_o are the S registers themselves. Results
// leave in the order accepted (every block takes the same number of cycles and
// stalls freeze both stages). in_ready_o depends combinationally on out_ready_i and
// key_valid_i (as the contract allows); all other outputs come from registers.
//
// Key loads, illegal key_len_i = 3 and reset behave exactly as in ak_round_core:
// key_ready_o is high when no key setup runs and no block is in either stage;
// in_ready_o is low while key_valid_i is high; an illegal key completes the
// handshake and leaves the core keyless (so does a key of a size KeySizes does not
// build); every register is reset by rst_ni.
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r in
//   [127-8(4c+r) -: 8]), out0 in out_data_o[127:120]; key byte 0 in key_i[255:248],
//   128/192-bit keys left-aligned (key_i[127:0] / key_i[63:0] are ignored for them).
//
// Parameters:
//   TagWidth  width of in_tag_i/out_tag_o (>= 1, checked at elaboration), carried
//             through unchanged.
//   Directions  directions built (docs/core-contract.md, "Configurations"; 1..3,
//             checked): 1 encrypt only, 2 decrypt only, 3 both (default). A block of
//             a direction not built is never accepted (in_ready_o low while it is
//             offered, so ready depends on the offered in_decrypt_i). The direction
//             registers (p_dec_q, s_dec_q and copies) are then constants and synthesis
//             removes the other direction: encrypt only drops the block init's
//             InvAffine/InvShiftRows, ak_inv_mix_column_inv_affine, the decryption
//             round-key windows and the backward key step.
//   KeySizes  mask of the key sizes built (1..7, checked; bit 0 128, bit 1 192, bit 2
//             256; default 7). A key of another size completes the handshake and
//             leaves the core keyless, as key_len_i = 3 does; klen_q is read through
//             klen_fix() (a constant with one size), so the schedule paths and window
//             words of the other sizes are removed.
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang.

`default_nettype none

module ak_pipe2_core #(
  parameter int TagWidth = 1,
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
    initial $fatal(1, "ak_pipe2_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_pipe2_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_pipe2_core: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_pipe2_core: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_pipe2_core: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_pipe2_core: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  // ------------------------------------------------------------------------------
  // The build (Directions, KeySizes): constants in place of what the build fixes
  // ------------------------------------------------------------------------------
  localparam bit       Enc      = Directions[0];   // encryption built
  localparam bit       Dec      = Directions[1];   // decryption built
  localparam bit [2:0] Sizes    = KeySizes[2:0];
  localparam bit [3:0] KeyBuilt = {1'b0, Sizes};   // key_len_i codes accepted
  // the key length as the build can hold it (as in ak_round_ctrl): a constant with
  // one size built, one bit with two
  function automatic logic [1:0] klen_fix(input logic [1:0] k);
    unique case (Sizes)
      3'b001:  return 2'd0;
      3'b010:  return 2'd1;
      3'b100:  return 2'd2;
      3'b011:  return {1'b0, k[0]};
      3'b101:  return {k[1], 1'b0};
      3'b110:  return {k[1], !k[1]};
      default: return k;
    endcase
  endfunction
  localparam logic [1:0] KlenReset = klen_fix(2'd0);
  // ak_key_step_ctl(KlenReset, 0, 0): the step's controls after reset
  localparam logic [8:0] CtlReset = {5'b01101, KlenReset[1], KlenReset == 2'd1,
                                     KlenReset == 2'd0, 1'b0};

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  typedef enum logic [1:0] {
    StNoKey,   // no usable key (after reset or an illegal key_len_i)
    StSetup,   // running the schedule forward to window Nr
    StReady    // key_enc_q/key_dec_q valid, blocks may be accepted
  } key_st_e;

  key_st_e             key_st_q, key_st_d;
  logic [1:0]          klen_q, klen_d;
  // what a new block needs, kept from the key setup: round keys 0 and Nr (block
  // init) and the windows of rounds 1 and Nr-1 (with phase, Rcon and SubWord input),
  // so that no key step sits behind the new/feedback selection of stage 1
  logic [127:0]        rk0_q, rk0_d;            // round key 0
  logic [127:0]        rknr_q, rknr_d;          // round key Nr
  logic [255:0]        w1_q, w1_d;              // window 1
  logic [2:0]          w1_phase_q, w1_phase_d;
  logic [7:0]          w1_rcon_q, w1_rcon_d;
  logic [31:0]         w1_sub_q, w1_sub_d;      // its forward SubWord input
  logic [255:0]        wd_q, wd_d;              // window Nr-1
  logic [2:0]          wd_phase_q, wd_phase_d;
  logic [7:0]          wd_rcon_q, wd_rcon_d;
  logic [31:0]         wd_sub_q, wd_sub_d;      // its backward SubWord input
  logic [3:0]          setup_cnt_q, setup_cnt_d;

  // stage register P (after the inverters) and S (the state, after stage 2)
  logic                p_vld_q, p_vld_d, s_vld_q, s_vld_d;
  logic                p_dec_q, p_dec_d, s_dec_q, s_dec_d;
  logic [3:0]          p_cnt_q, p_cnt_d, s_cnt_q, s_cnt_d;   // round of the block
  logic                p_last_q, p_last_d, s_last_q, s_last_d;  // ... it is round Nr
  logic [TagWidth-1:0] p_tag_q, p_tag_d, s_tag_q, s_tag_d;
  logic [127:0]        p_data_q, p_data_d, s_data_q, s_data_d;
  logic [255:0]        p_win_q, p_win_d, s_win_q, s_win_d;   // key windows
  logic [2:0]          p_phase_q, p_phase_d, s_phase_q, s_phase_d;
  logic [7:0]          p_rcon_q, p_rcon_d, s_rcon_q, s_rcon_d;
  logic [31:0]         p_sub_q, p_sub_d, s_sub_q, s_sub_d;   // SubWord input of the
                                                             // window's next step
  logic                s_rev_q, s_rev_d;      // s_vld_q && s_dec_q: the step's direction
  logic [8:0]          s_ctl_q, s_ctl_d;      // the step's decoded controls, a cycle ahead
  logic [15:0]         start_rep_q;           // start_sel_q, a copy per state byte
  logic [15:0]         p_dec_rep_q;           // p_dec_q, likewise
  logic [15:0]         p_last_rep_q;          // p_last_q, likewise
  // stage 1's selects as flip-flops, set from the next state (one cycle ahead)
  logic                start_sel_q, start_sel_d;
  logic                fb_q, fb_d;
  // handshake flags as flip-flops, set from the next state
  logic                s_done_q, s_done_d;    // s_vld_q && s_last_q (out_valid_o)
  logic                key_ready_q, key_ready_d;

  logic [3:0]   nr;
  logic         s_done;      // the block in S is finished (out_valid_o)
  logic         advance;     // the pipeline moves at this edge (not stalled)
  logic         start_sel;   // stage 1 works on a new block (block init)
  logic         feedback;    // stage 1 works on the block in S
  logic         key_fire, key_legal, in_fire, setup_step;
  logic [1:0]   klen_r, klen_nx, klen_in;  // klen_q, klen_d, key_len_i as built
  logic         dec_in;    // in_decrypt_i as built (a constant with one direction)
  logic         dir_ok;    // the offered block's direction is built
  logic [255:0] key_masked;
  logic [31:0]  key_sub;     // SubWord input of the first forward step from the key

  logic [255:0] ks_win_o;
  logic [2:0]   ks_phase_o;
  logic [7:0]   ks_rcon_o;
  logic [31:0]  ks_sub;      // SubWord input of the step after ks_win_o
  logic         ks_reverse;
  logic [31:0]  wd_sub_bwd;  // backward SubWord input of window Nr-1 (from s_win_q)

  logic [127:0] init_xor;    // in_data_i ^ round key 0 (encryption) / Nr (decryption)
  logic [127:0] init_ia;     // InvAffine(init_xor): the retimed first InvAffine
  logic [127:0] init_sr;     // ShiftRows(init_xor) / InvShiftRows(init_ia)
  logic [127:0] s1_in;       // stage 1 input
  logic [127:0] s1_inv;      // GF(2^8) inverses

  logic [127:0] rk;          // round key of stage 2
  logic [127:0] s2_amc;      // Affine+MixColumns(P)
  logic [127:0] s2_aff;      // Affine(P)
  logic [127:0] s2_y;        // P ^ rk (decryption)
  logic [127:0] s2_ia;       // InvAffine(InvMixColumns(P ^ rk))
  logic [127:0] s2_out;

  // ShiftRows: s'[r][c] = s[r][(c+r) mod 4]; InvShiftRows: s'[r][c] = s[r][(c-r) mod 4]
  // (byte 4c+r of the state in [127-8(4c+r) -: 8])
  function automatic logic [127:0] shift_rows(input logic [127:0] x);
    logic [127:0] y;
    for (int c = 0; c < 4; c++) begin
      for (int r = 0; r < 4; r++) begin
        y[127-8*(4*c+r) -: 8] = x[127-8*(4*((c+r)%4)+r) -: 8];
      end
    end
    return y;
  endfunction

  function automatic logic [127:0] inv_shift_rows(input logic [127:0] x);
    logic [127:0] y;
    for (int c = 0; c < 4; c++) begin
      for (int r = 0; r < 4; r++) begin
        y[127-8*(4*c+r) -: 8] = x[127-8*(4*((c+4-r)%4)+r) -: 8];
      end
    end
    return y;
  endfunction

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign klen_r     = klen_fix(klen_q);
  assign klen_nx    = klen_fix(klen_d);
  assign klen_in    = klen_fix(key_len_i);
  assign dec_in     = (Enc && Dec) ? in_decrypt_i : Dec;
  assign dir_ok     = in_decrypt_i ? Dec : Enc;
  assign nr         = 4'd10 + {1'b0, klen_r, 1'b0};
  assign s_done     = s_done_q;
  assign advance    = !(s_done && !out_ready_i);
  // start_sel = (key_st_q == StReady) && (!s_vld_q || s_done), feedback = s_vld_q &&
  // !s_done, from flip-flops (the 128-bit stage-1 multiplexers they select start at a
  // register, not behind a LUT); the two are never high together
  assign start_sel  = start_sel_q;
  assign feedback   = fb_q;
  assign key_legal  = KeyBuilt[key_len_i];
  assign setup_step = (key_st_q == StSetup);

  // key_ready_o = (key_st_q != StSetup) && !p_vld_q && !s_vld_q, from a flip-flop;
  // in_ready_o = (key_st_q == StReady) && !key_valid_i && (!s_vld_q || (s_done &&
  // out_ready_i)), written with start_sel (which implies s_done when s_vld_q)
  assign key_ready_o = key_ready_q;
  assign in_ready_o  = start_sel && !key_valid_i && dir_ok && (!s_vld_q || out_ready_i);
  assign out_valid_o = s_done;
  assign out_data_o  = s_data_q;
  assign out_tag_o   = s_tag_q;

  assign key_fire = key_valid_i && key_ready_o;
  assign in_fire  = in_valid_i && in_ready_o;

  always_comb begin : key_mask
    unique case (klen_in)
      2'd0: begin
        key_masked = {key_i[255:128], 128'h0};
        key_sub    = key_i[159:128];  // w[3]
      end
      2'd1: begin
        key_masked = {key_i[255:64], 64'h0};
        key_sub    = key_i[95:64];    // w[5]
      end
      default: begin
        key_masked = key_i;
        key_sub    = key_i[31:0];     // w[7]
      end
    endcase
  end

  // key setup: Nr forward steps of the schedule; step 1 gives window 1 (with the
  // forward SubWord input the step returns), step Nr-1 window Nr-1 and step Nr round
  // key Nr. The backward SubWord input of window Nr-1 is taken from wd_q during step
  // Nr (register logic, not behind the key step).
  always_comb begin : key_fsm
    key_st_d    = key_st_q;
    klen_d      = klen_q;
    rk0_d       = rk0_q;
    rknr_d      = rknr_q;
    w1_d        = w1_q;
    w1_phase_d  = w1_phase_q;
    w1_rcon_d   = w1_rcon_q;
    w1_sub_d    = w1_sub_q;
    wd_d        = wd_q;
    wd_phase_d  = wd_phase_q;
    wd_rcon_d   = wd_rcon_q;
    wd_sub_d    = wd_sub_q;
    setup_cnt_d = setup_cnt_q;
    unique case (key_st_q)
      StNoKey, StReady: begin
        if (key_fire) begin
          if (key_legal) begin
            key_st_d    = StSetup;
            klen_d      = klen_in;
            rk0_d       = key_masked[255:128];
            setup_cnt_d = 4'd1;
          end else begin
            key_st_d    = StNoKey;
          end
        end
      end
      StSetup: begin
        // step setup_cnt_q yields window setup_cnt_q, which s_win_q holds in the next
        // cycle: windows 1 and Nr-1 are kept from there (a register load, not behind
        // the step), round key Nr from the last step's output
        setup_cnt_d = setup_cnt_q + 4'd1;
        if (setup_cnt_q == 4'd2) begin
          w1_d       = s_win_q;
          w1_phase_d = s_phase_q;
          w1_rcon_d  = s_rcon_q;
          w1_sub_d   = s_sub_q;
        end
        if (setup_cnt_q == nr) begin
          key_st_d    = StReady;
          wd_d        = s_win_q;
          wd_phase_d  = s_phase_q;
          wd_rcon_d   = s_rcon_q;
          rknr_d      = ks_win_o[255:128];
          wd_sub_d    = wd_sub_bwd;
          setup_cnt_d = 4'd0;
        end
      end
      default: key_st_d = StNoKey;
    endcase
  end

  // ------------------------------------------------------------------------------
  // Stage 1: block init or feedback, (Inv)ShiftRows, inverters, key step
  // ------------------------------------------------------------------------------
  // Selects depend on registers and in_decrypt_i only; in_valid_i/out_ready_i reach
  // nothing but the register enables (through in_fire/advance). The key step works on
  // registers only: the window in S (the block fed back, or the key setup while S is
  // empty) with its phase, Rcon and SubWord input s_sub_q, which travels with the
  // window (loaded with every window load, the step returns the next one in the same
  // direction); a new block takes the stored window of its round 1 (and its SubWord
  // input) instead.
  assign ks_reverse = s_rev_q;

  ak_key_step_split u_key_step (
    .win_i    (s_win_q),
    .key_len_i(klen_r),
    .phase_i  (s_phase_q),
    .rcon_i   (s_rcon_q),
    .reverse_i(ks_reverse),
    .sub_i    (s_sub_q),
    .ctl_i    (s_ctl_q),
    .win_o    (ks_win_o),
    .phase_o  (ks_phase_o),
    .rcon_o   (ks_rcon_o),
    .sub_o    (ks_sub)
  );

  // The backward SubWord input of window Nr-1, taken with it from s_win_q (phase
  // s_phase_q) in the last setup step: the word before the four a backward step
  // recovers (Nk = 4: w3 ^ w2, Nk = 6: w1, Nk = 8: w3), or for Nk = 6 at phase 2
  // word 3 (see ak_key_step_split)
  always_comb begin : wd_sub_sel
    unique case (klen_r)
      2'd0:    wd_sub_bwd = s_win_q[159:128] ^ s_win_q[191:160];
      2'd1:    wd_sub_bwd = (s_phase_q == 3'd2) ? s_win_q[159:128] : s_win_q[223:192];
      default: wd_sub_bwd = s_win_q[159:128];
    endcase
  end

  assign init_xor = in_data_i ^ (dec_in ? rknr_q : rk0_q);

  for (genvar b = 0; b < 16; b++) begin : g_init_ia
    ak_inv_affine u_inv_affine (
      .in_i (init_xor[127-8*b -: 8]),
      .out_o(init_ia[127-8*b -: 8])
    );
  end

  // a new block's (Inv)ShiftRows; a fed-back block had its own at the end of stage 2
  assign init_sr  = dec_in ? inv_shift_rows(init_ia) : shift_rows(init_xor);
  // byte b (and key word b/2) chosen by its own copy of start_sel
  for (genvar b = 0; b < 16; b++) begin : g_s1_sel
    assign s1_in[127-8*b -: 8] = start_rep_q[b] ? init_sr[127-8*b -: 8] : s_data_q[127-8*b -: 8];
  end

  for (genvar b = 0; b < 16; b++) begin : g_s1_inv
    ak_gf_inv u_gf_inv (
      .in_i (s1_in[127-8*b -: 8]),
      .out_o(s1_inv[127-8*b -: 8])
    );
  end

  // P takes stage 1 at every edge the pipeline advances: its contents matter only
  // with p_vld_q, so the multiplexers choose by start_sel alone (a new block, else the
  // block in S; when neither, p_vld_d is low)
  always_comb begin : stage1_next
    p_vld_d   = p_vld_q;
    p_dec_d   = p_dec_q;
    p_cnt_d   = p_cnt_q;
    p_last_d  = p_last_q;
    p_tag_d   = p_tag_q;
    p_data_d  = p_data_q;
    p_win_d   = p_win_q;
    p_phase_d = p_phase_q;
    p_rcon_d  = p_rcon_q;
    p_sub_d   = p_sub_q;
    if (advance) begin
      p_vld_d  = in_fire || feedback;
      p_data_d = s1_inv;
      if (start_sel) begin
        p_dec_d   = dec_in;
        p_cnt_d   = 4'd1;
        p_last_d  = 1'b0;  // Nr >= 10: never round 1
        p_tag_d   = in_tag_i;
        p_phase_d = dec_in ? wd_phase_q : w1_phase_q;
        p_rcon_d  = dec_in ? wd_rcon_q  : w1_rcon_q;
        p_sub_d   = dec_in ? wd_sub_q   : w1_sub_q;
      end else begin
        p_dec_d   = s_dec_q;
        p_cnt_d   = s_cnt_q + 4'd1;
        p_last_d  = (s_cnt_q + 4'd1 == nr);
        p_tag_d   = s_tag_q;
        p_phase_d = ks_phase_o;
        p_rcon_d  = ks_rcon_o;
        p_sub_d   = ks_sub;
      end
      for (int j = 0; j < 8; j++) begin
        p_win_d[255-32*j -: 32] = !start_rep_q[2*j] ? ks_win_o[255-32*j -: 32] :
                                  dec_in ? wd_q[255-32*j -: 32] : w1_q[255-32*j -: 32];
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Stage 2: Affine+MixColumns / InvMixColumns+InvAffine, AddRoundKey
  // ------------------------------------------------------------------------------
  assign rk       = p_win_q[255:128];
  assign s2_y     = p_data_q ^ rk;

  for (genvar c = 0; c < 4; c++) begin : g_s2_col
    ak_affine_mix_column u_affine_mix_column (
      .in_i (p_data_q[127-32*c -: 32]),
      .out_o(s2_amc[127-32*c -: 32])
    );

    ak_inv_mix_column_inv_affine u_inv_mix_column_inv_affine (
      .in_i (s2_y[127-32*c -: 32]),
      .out_o(s2_ia[127-32*c -: 32])
    );

    for (genvar r = 0; r < 4; r++) begin : g_s2_row
      localparam int Byte = 4 * c + r;

      ak_affine u_affine (
        .in_i (p_data_q[127-8*Byte -: 8]),
        .out_o(s2_aff[127-8*Byte -: 8])
      );
    end
  end

  // a round before the last leaves its result (Inv)ShiftRowed for the next round's
  // stage 1, which then takes S as it is (wiring here, not a multiplexer there)
  // (each byte chosen by its own copies of p_dec_q and p_last_q)
  logic [127:0] s2_enc, s2_enc_last, s2_dec;

  assign s2_enc      = shift_rows(s2_amc ^ rk);
  assign s2_enc_last = s2_aff ^ rk;
  assign s2_dec      = inv_shift_rows(s2_ia);

  always_comb begin : stage2_result
    for (int b = 0; b < 16; b++) begin
      unique case ({p_dec_rep_q[b], p_last_rep_q[b]})
        2'b00:   s2_out[127-8*b -: 8] = s2_enc[127-8*b -: 8];
        2'b01:   s2_out[127-8*b -: 8] = s2_enc_last[127-8*b -: 8];
        2'b10:   s2_out[127-8*b -: 8] = s2_dec[127-8*b -: 8];
        default: s2_out[127-8*b -: 8] = s2_y[127-8*b -: 8];  // last decryption round
      endcase
    end
  end

  // the data fields take stage 2 when the pipeline advances with a block in P; the
  // window fields also serve the key setup (loaded with the cipher key at the key
  // handshake, stepped during the setup), which never overlaps a block in P
  always_comb begin : stage2_next
    s_vld_d   = s_vld_q;
    s_dec_d   = s_dec_q;
    s_cnt_d   = s_cnt_q;
    s_last_d  = s_last_q;
    s_tag_d   = s_tag_q;
    s_data_d  = s_data_q;
    s_win_d   = s_win_q;
    s_phase_d = s_phase_q;
    s_rcon_d  = s_rcon_q;
    s_sub_d   = s_sub_q;
    if (advance) s_vld_d = p_vld_q;
    if (advance && p_vld_q) begin
      s_dec_d  = p_dec_q;
      s_cnt_d  = p_cnt_q;
      s_last_d = p_last_q;
      s_tag_d  = p_tag_q;
      s_data_d = s2_out;
    end
    // the three loads never coincide (no block during the setup, a key handshake
    // only with both stages empty), so the value is chosen by registers alone
    if (setup_step || (advance && p_vld_q) || (key_fire && key_legal)) begin
      if (setup_step) begin
        s_win_d   = ks_win_o;
        s_phase_d = ks_phase_o;
        s_rcon_d  = ks_rcon_o;
        s_sub_d   = ks_sub;
      end else if (p_vld_q) begin
        s_win_d   = p_win_q;
        s_phase_d = p_phase_q;
        s_rcon_d  = p_rcon_q;
        s_sub_d   = p_sub_q;
      end else begin
        // the key setup starts from window 0 in the (idle) S window register
        s_win_d   = key_masked;
        s_phase_d = 3'd0;
        s_rcon_d  = 8'h01;
        s_sub_d   = key_sub;
      end
    end
  end

  always_comb begin : select_next
    start_sel_d = (key_st_d == StReady) && (!s_vld_d || s_last_d);
    fb_d        = s_vld_d && !s_last_d;
    s_rev_d     = s_vld_d && s_dec_d;
    s_done_d    = s_vld_d && s_last_d;
    key_ready_d = (key_st_d != StSetup) && !p_vld_d && !s_vld_d;
  end

  // the step's controls for the window, phase and direction of the next cycle
  logic [2:0] ctl_phase_unused;

  ak_key_step_ctl u_s_ctl (
    .key_len_i   (klen_nx),
    .phase_i     (s_phase_d),
    .reverse_i   (s_rev_d),
    .ctl_o       (s_ctl_d),
    .phase_next_o(ctl_phase_unused)
  );

  // One copy per state byte of stage 1's new/feedback select and of stage 2's
  // direction and last-round flags (each otherwise one flip-flop fanned out to 128
  // or more bits), loaded with the same next values; each copy has its own
  // always_ff marked keep, or synthesis merges the equal registers back into one.
  // Checked against the registers they copy in simulation.
  for (genvar b = 0; b < 16; b++) begin : g_select_copy
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : start_copy_reg
      if (!rst_ni) start_rep_q[b] <= 1'b0;
      else         start_rep_q[b] <= start_sel_d;
    end

    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : dec_copy_reg
      if (!rst_ni) p_dec_rep_q[b] <= !Enc;
      else         p_dec_rep_q[b] <= p_dec_d;
    end

    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : last_copy_reg
      if (!rst_ni) p_last_rep_q[b] <= 1'b0;
      else         p_last_rep_q[b] <= p_last_d;
    end
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      key_st_q    <= StNoKey;
      klen_q      <= 2'd0;
      rk0_q       <= '0;
      rknr_q      <= '0;
      w1_q        <= '0;
      w1_phase_q  <= 3'd0;
      w1_rcon_q   <= 8'h00;
      w1_sub_q    <= '0;
      wd_q        <= '0;
      wd_phase_q  <= 3'd0;
      wd_rcon_q   <= 8'h00;
      wd_sub_q    <= '0;
      setup_cnt_q <= 4'd0;
    end else begin
      key_st_q    <= key_st_d;
      klen_q      <= klen_d;
      rk0_q       <= rk0_d;
      rknr_q      <= rknr_d;
      w1_q        <= w1_d;
      w1_phase_q  <= w1_phase_d;
      w1_rcon_q   <= w1_rcon_d;
      w1_sub_q    <= w1_sub_d;
      wd_q        <= wd_d;
      wd_phase_q  <= wd_phase_d;
      wd_rcon_q   <= wd_rcon_d;
      wd_sub_q    <= wd_sub_d;
      setup_cnt_q <= setup_cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : stage1_regs
    if (!rst_ni) begin
      p_vld_q   <= 1'b0;
      p_dec_q   <= !Enc;  // the built direction with one
      p_cnt_q   <= 4'd0;
      p_last_q  <= 1'b0;
      p_tag_q   <= '0;
      p_data_q  <= '0;
      p_win_q   <= '0;
      p_phase_q <= 3'd0;
      p_rcon_q  <= 8'h00;
      p_sub_q   <= '0;
    end else begin
      p_vld_q   <= p_vld_d;
      p_dec_q   <= p_dec_d;
      p_cnt_q   <= p_cnt_d;
      p_last_q  <= p_last_d;
      p_tag_q   <= p_tag_d;
      p_data_q  <= p_data_d;
      p_win_q   <= p_win_d;
      p_phase_q <= p_phase_d;
      p_rcon_q  <= p_rcon_d;
      p_sub_q   <= p_sub_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : stage2_regs
    if (!rst_ni) begin
      s_vld_q   <= 1'b0;
      s_dec_q   <= !Enc;
      s_cnt_q   <= 4'd0;
      s_last_q  <= 1'b0;
      s_tag_q   <= '0;
      s_data_q  <= '0;
      s_win_q   <= '0;
      s_phase_q <= 3'd0;
      s_rcon_q  <= 8'h00;
      s_sub_q   <= '0;
      s_rev_q   <= 1'b0;
      s_ctl_q   <= CtlReset;  // ak_key_step_ctl(klen_r, 0, 0) after reset
    end else begin
      s_vld_q   <= s_vld_d;
      s_dec_q   <= s_dec_d;
      s_cnt_q   <= s_cnt_d;
      s_last_q  <= s_last_d;
      s_tag_q   <= s_tag_d;
      s_data_q  <= s_data_d;
      s_win_q   <= s_win_d;
      s_phase_q <= s_phase_d;
      s_rcon_q  <= s_rcon_d;
      s_sub_q   <= s_sub_d;
      s_rev_q   <= s_rev_d;
      s_ctl_q   <= s_ctl_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : select_regs
    if (!rst_ni) begin
      start_sel_q <= 1'b0;
      fb_q        <= 1'b0;
      s_done_q    <= 1'b0;
      key_ready_q <= 1'b1;  // as (key_st_q != StSetup) && !p_vld_q && !s_vld_q
    end else begin
      start_sel_q <= start_sel_d;
      fb_q        <= fb_d;
      s_done_q    <= s_done_d;
      key_ready_q <= key_ready_d;
    end
  end

`ifndef SYNTHESIS
  // s_ctl_q is the decode of the registers it stands for, the select copies are the
  // registers they copy (from the first reset on:
  // before it the registers hold whatever they power up with)
  logic       reset_seen_q = 1'b0;
  logic [8:0] ctl_now;
  logic [2:0] ctl_now_phase_unused;

  ak_key_step_ctl u_ctl_check (
    .key_len_i   (klen_r),
    .phase_i     (s_phase_q),
    .reverse_i   (s_rev_q),
    .ctl_o       (ctl_now),
    .phase_next_o(ctl_now_phase_unused)
  );

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : ctl_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if (s_ctl_q != ctl_now) $error("ak_pipe2_core: s_ctl_q %b, decode %b", s_ctl_q, ctl_now);
      if (start_rep_q != {16{start_sel_q}} || p_dec_rep_q != {16{p_dec_q}}
          || p_last_rep_q != {16{p_last_q}})
        $error("ak_pipe2_core: select copies %h %h %h, registers %b %b %b", start_rep_q,
               p_dec_rep_q, p_last_rep_q, start_sel_q, p_dec_q, p_last_q);
    end
  end
`endif

endmodule

`default_nettype wire
