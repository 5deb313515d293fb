// ak_round_ctrl: handshakes, round counter and on-the-fly key schedule of the
// round-per-cycle enc/dec cores: the reference core ak_round_core and the cores of
// paper 002 (Ueno et al., CHES 2016) -- ak_ueno_core and the conventional datapaths
// it is compared with (ak_satoh_core, ak_lutz_core, ak_liu_core). The cores keep
// their own state register and datapath; this module is the rest of the core
// contract (docs/core-contract.md), written once: the paper-002 comparison measures
// the datapaths and nothing else, and the reference core shares the same control.
//
// Key schedule. One shared key step (ak_key_step_split) on a window of the last Nk
// expanded words, forward for encryption and backward for decryption (see
// ak_key_step_split); the decryption windows are derived ONCE per key load by running
// the schedule forward Nr steps (the key setup). The registers:
//   key_enc_q  round key 0, key_dec_q round key Nr (the initial AddRoundKey),
//   win1_*_q, win2_*_q, win3_*_q  windows 1, Nr-1, 2, Nr-2, 3 and Nr-3 with phase
//              and Rcon (captured during the setup; which of them a core uses
//              depends on PreRound, synthesis drops the others),
//   rk_key_q   the round key of the round in progress (rk_reg_o),
//   rk_q       the window ONE ROUND AHEAD of it (or the window of the key setup),
//              with rk_phase_q, rk_rcon_q, rk_sub_q and rk_ctl_q.
// One window ahead: each cycle of a block the step turns rk_q into the window after
// it and rk_key_q takes rk_q's oldest four words, a register load without logic, so
// the step's loop rk_q -> step -> rk_q is local to the key schedule and the datapath
// sees only rk_key_q (were rk_q the round key itself, the step's loop would end at
// the register that also feeds 256 bits of AddRoundKey across the die). The setup
// keeps its windows from rk_q a cycle after the step that made them (a register
// load, not behind the step); round key Nr from the last step's output.
// Round keys are AES-field words; a core that works over a tower field maps them.
//
// The step on registers only. rk_sub_q is the SubWord input of the step from rk_q
// (the newest window word, or an XOR of window words for Nk = 6; backward the word
// before the ones recovered), kept beside the window: ak_key_step_split takes it as
// its S-box input and returns the SubWord input of the step after (sub_o), so
// rk_sub_q is loaded with every rk_q load: the last key word at a key load, the
// sub_input() of the stored window at a start (register logic in front of rk_sub_q,
// not of the S-box), the returned one at a step. The schedule loop rk_q/rk_sub_q ->
// step -> rk_q/rk_sub_q is then one S-box straight from a flip-flop, one XOR level
// and the load multiplexer (6.5 LUT levels for this module alone, from 9.5): the key
// step is off the critical path of the cores. Every other input of the step is a
// register too (phase, Rcon, klen_q, rev_q for the direction), and the step's word
// selects come decoded from a register, rk_ctl_q = ak_key_step_ctl(klen_q,
// rk_phase_q, rev_q), set a cycle ahead from the next-state values (not behind a
// decode of klen_q/rk_phase_q/rev_q fanned out to every window bit; checked against
// that decode every cycle in simulation, `ifndef SYNTHESIS): a block never starts
// with a step from a stored window -- the accepting cycle loads rk_q with the window
// such a step would have produced, kept from the setup. No extra cycle: the setup
// runs its Nr steps and captures windows on the way.
// Windows past the schedule. One round ahead, the last round of a block steps rk_q
// to window Nr+2 (encryption) or -2 (decryption); those words follow the same
// recurrence and are never used.
//
// Two schedules, chosen by PreRound:
//   PreRound = 0 (ak_round_core, ak_lutz_core): the cycle that accepts a block does
//     the initial AddRoundKey and round 1 (start_key_o, then rk_next_o = round key 1 or Nr-1);
//     rounds 2 .. Nr follow. Latency Nr, interval Nr. The round key of every round
//     comes from a register, a cycle ahead: windows 1 and Nr-1 are kept from the key
//     setup (win1_enc_q, win1_dec_q) for round 1, rk_key_q holds the round key of
//     the round in progress and rk_q the window after it, so the key step only
//     computes a later round's window (register to register, beside the datapath,
//     not in front of its AddRoundKey).
//     The accepting cycle loads rk_key_q with round key 2 or Nr-2 and rk_q with
//     window 3 or Nr-3 (win2_*_q, win3_*_q, kept from the setup; rk_sub_q with
//     their SubWord inputs) instead of stepping from window 1 or Nr-1 (the windows
//     and the cycles are the same as stepping would give).
//   PreRound = 1 (ak_ueno_core, ak_satoh_core, ak_liu_core): the accepting cycle runs
//     the pre-round datapath only (initial AddRoundKey with start_key_o, field
//     mapping); rounds 1 .. Nr follow, each with its round key in a register
//     (rk_reg_o, computed by the key step in the cycle before). Latency Nr + 1,
//     interval Nr + 1. The accepting cycle loads rk_key_q with round key 1 or Nr-1
//     and rk_q with window 2 or Nr-2 (win1_*_q, win2_*_q; rk_sub_q with their
//     SubWord inputs) instead of stepping from window 0 or Nr, so no S-box input is
//     chosen by in_decrypt_i.
//
// Registers added for the step on registers (cycle counts unchanged: they are loaded
// in cycles that existed before -- key load, setup steps, accepting cycle, rounds):
// rk_sub_q (32 bits) and, for PreRound = 1, windows 1 and Nr-1 with phase and Rcon
// (win1_*_q; PreRound = 0 kept their round keys already). key_enc_q and key_dec_q
// shrank to the round keys they still provide (128 bits); the Rcon of window Nr is
// gone (no step starts from window 0 or Nr any more).
//
// Outputs to the datapath (all valid in the current cycle):
//   start_o      the datapath works on in_data_i (a block may be accepted now);
//   load_o       the state register takes the datapath result at this edge;
//   dec_o        the block of this cycle is decrypted (in_decrypt_i when start_o);
//   blk_dec_o    the block in the state register is decrypted (a register: for the
//                round datapath, whose result is only used when start_o is low);
//   final_o      this cycle is round Nr (no (Inv)MixColumns);
//   start_key_o  round key 0 (encrypt) or Nr (decrypt) for the initial AddRoundKey;
//   rk_reg_o     rk_key_q, a register: PreRound = 1 the round key of this cycle's
//                round; PreRound = 0 of the round in progress (not at a start);
//   rk_next_o    PreRound = 0: the round key of this cycle's round, a 2:1 choice of
//                registers (win1_*_q at a start, else rk_key_q); PreRound = 1: the
//                next round's key while a block runs, rk_q's oldest words (not at a
//                start; unused by those cores);
//   start_key_enc_o, start_key_dec_o  round keys 0 and Nr (registers), for a
//                datapath that applies both and chooses by direction later;
//   rk1_enc_o, rk1_dec_o  PreRound = 0: round keys 1 and Nr-1 (registers; with
//                rk_reg_o, the round key of the round in progress, they give each
//                direction its round key as a 2:1 choice of registers by start_o).
//   start_next_o, final_next_o, blk_dec_next_o  the D inputs of the registers behind
//                start_o, final_o and blk_dec_o (each loads at every edge), so that a
//                core can keep copies of those selects next to the datapath bits
//                they steer instead of one flip-flop fanned out to all of them.
//
// Timing (edge A accepts a block; Nr = 10/12/14):
//   PreRound = 1:  A pre-round, A+1 .. A+Nr rounds 1 .. Nr; out_valid_o high from
//                  A+Nr on, first high at edge A+Nr+1 (latency Nr+1 = 11/13/15);
//                  the next block is taken at the edge that takes the result.
//   PreRound = 0:  A round 1, A+1 .. A+Nr-1 rounds 2 .. Nr (latency Nr).
//   key setup Nr+1 (11/13/15): key taken at edge K, schedule forward at
//   K+1 .. K+Nr, in_ready_o first high at edge K+Nr+1.
//
// Back-pressure, key loads, illegal key_len_i = 3 and reset:
// key_ready_o only when no block is in flight; in_ready_o low while key_valid_i is
// high; key_len_i = 3 (or a size KeySizes does not build) completes the handshake
// and leaves the core keyless; rst_ni
// (asynchronous, active low) resets every register. in_ready_o depends
// combinationally on out_ready_i and key_valid_i.
//
// Byte order: key byte 0 in key_i[255:248], 128/192-bit keys left-aligned; round
//   keys FIPS-197 byte 0 in [127:120].
//
// Parameters:
//   TagWidth  width of the tag (>= 1, checked at elaboration).
//   PreRound  0 or 1 (checked at elaboration), see above.
//   Directions  the directions built (docs/core-contract.md, "Configurations"; 1..3,
//             checked at elaboration): bit 0 encryption, bit 1 decryption; default 3.
//             A block whose in_decrypt_i asks for a direction not built is never
//             accepted: in_ready_o is low while it is offered (ready depends on the
//             offered in_decrypt_i, which AXI-Stream allows). In a one-direction build
//             dec_o, blk_dec_o and the registers behind them are constants (dec_q
//             resets to the built direction), so the windows, round key and step
//             paths of the other direction, and the datapath logic the core selects
//             by them, are removed by synthesis.
//   KeySizes  mask of the key sizes built (1..7, checked at elaboration): bit 0 128,
//             bit 1 192, bit 2 256 (bit k: key_len_i = k); default 7. A key of a
//             size not built is refused as key_len_i = 3 is: the handshake completes
//             and the core is left keyless (in_ready_o low until a built key is
//             loaded). klen_q is read through klen_fix(), a constant with one size
//             built and one bit with two, so the step's paths for the other sizes
//             and (one size) the window words it never uses are removed.
//             Cycle counts of a built size do not change.

`default_nettype none

module ak_round_ctrl #(
  parameter int TagWidth = 1,
  parameter int PreRound = 1,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // contract ports (no data)
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [TagWidth-1:0] out_tag_o,
  // to the datapath
  output logic                start_o,
  output logic                load_o,
  output logic                dec_o,
  output logic                blk_dec_o,
  output logic                final_o,
  output logic [127:0]        start_key_o,
  output logic [127:0]        rk_reg_o,
  output logic [127:0]        rk_next_o,
  output logic [127:0]        start_key_enc_o,
  output logic [127:0]        start_key_dec_o,
  output logic [127:0]        rk1_enc_o,
  output logic [127:0]        rk1_dec_o,
  // the values start_o, final_o and blk_dec_o take after the next edge (their
  // registers' D inputs), for a core that keeps copies of them beside its datapath
  output logic                start_next_o,
  output logic                final_next_o,
  output logic                blk_dec_next_o
);

  // ------------------------------------------------------------------------------
  // Parameter checks
  // ------------------------------------------------------------------------------
  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_ctrl: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_round_ctrl: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end
  if (PreRound != 0 && PreRound != 1) begin : g_bad_pre_round
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_ctrl: PreRound must be 0 or 1, got %0d", PreRound);
`else
    $fatal(1, "ak_round_ctrl: PreRound must be 0 or 1, got %0d", PreRound);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_ctrl: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_round_ctrl: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_round_ctrl: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_round_ctrl: KeySizes must be 1..7, got %0d", KeySizes);
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

  localparam logic [3:0] CntStart = (PreRound != 0) ? 4'd0 : 4'd1;

  key_st_e             key_st_q, key_st_d;
  logic [1:0]          klen_q, klen_d;
  logic [127:0]        key_enc_q, key_enc_d;    // round key 0 (of window 0)
  logic [127:0]        key_dec_q, key_dec_d;    // round key Nr (of window Nr)
  logic [255:0]        rk_q, rk_d;              // window one round ahead of rk_key_q
                                                // (during the setup: the setup's)
  logic [31:0]         rk_sub_q, rk_sub_d;      // SubWord input of the step from rk_q
  logic [255:0]        win1_enc_q, win1_enc_d;  // window 1 ...
  logic [255:0]        win1_dec_q, win1_dec_d;  // ... and window Nr-1, from the setup
  logic [2:0]          ph1_enc_q, ph1_enc_d, ph1_dec_q, ph1_dec_d;
  logic [7:0]          rc1_enc_q, rc1_enc_d, rc1_dec_q, rc1_dec_d;
  logic [255:0]        win2_enc_q, win2_enc_d;  // window 2 ...
  logic [255:0]        win2_dec_q, win2_dec_d;  // ... and window Nr-2, from the setup
  logic [2:0]          ph2_enc_q, ph2_enc_d, ph2_dec_q, ph2_dec_d;
  logic [7:0]          rc2_enc_q, rc2_enc_d, rc2_dec_q, rc2_dec_d;
  logic [255:0]        win3_enc_q, win3_enc_d;  // PreRound = 0: window 3 ...
  logic [255:0]        win3_dec_q, win3_dec_d;  // ... and window Nr-3, from the setup
  logic [2:0]          ph3_enc_q, ph3_enc_d, ph3_dec_q, ph3_dec_d;
  logic [7:0]          rc3_enc_q, rc3_enc_d, rc3_dec_q, rc3_dec_d;
  logic [127:0]        rk_key_q, rk_key_d;      // round key of the round in progress
  logic                rev_q, rev_d;            // busy_q && dec_q, as a flip-flop
  logic [6:0]          cap_q, cap_d;            // setup step cnt_q is 2, 3, Nr-1, Nr, Nr,
                                                // 4, Nr-2 (rk_q holds window cnt_q - 1)
  logic                start_sel_q, start_sel_d;  // start_sel, one cycle ahead
  logic [2:0]          rk_phase_q, rk_phase_d;
  logic [8:0]          rk_ctl_q, rk_ctl_d;      // the step's decoded controls, a cycle ahead
  logic [7:0]          rk_rcon_q, rk_rcon_d;
  logic [3:0]          cnt_q, cnt_d;            // rounds done (block) / steps (setup)
  logic                done_q, done_d;          // busy_q && cnt_q == Nr, registered
  logic                fin_q, fin_d;            // busy_q && cnt_q == Nr-1, registered
  logic                busy_q, busy_d;
  logic                dec_q, dec_d;
  logic [TagWidth-1:0] tag_q, tag_d;

  // ------------------------------------------------------------------------------
  // The build (Directions, KeySizes): constants in place of what the build fixes
  // ------------------------------------------------------------------------------
  // key_len_i codes the build accepts (code 3 never)
  localparam bit [1:0] Dirs     = Directions[1:0];
  localparam bit [2:0] Sizes    = KeySizes[2:0];
  localparam bit [3:0] KeyBuilt = {1'b0, Sizes};
  // the key length as the build can hold it: a code the build lacks never reaches a
  // register (its key is refused), so with one size built the length is a constant
  // and with two one bit, and synthesis drops the schedule paths of the others
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
  // the direction as the build can run it: constant in a one-direction build
  function automatic logic dec_fix(input logic d);
    unique case (Dirs)
      2'b01:   return 1'b0;
      2'b10:   return 1'b1;
      default: return d;
    endcase
  endfunction
  localparam logic [1:0] KlenReset = klen_fix(2'd0);
  // ak_key_step_ctl(KlenReset, 0, 0): the step's controls after reset
  localparam logic [8:0] CtlReset = {5'b01101, KlenReset[1], KlenReset == 2'd1,
                                     KlenReset == 2'd0, 1'b0};

  logic [1:0] klen_r, klen_nx, klen_in;  // klen_q, klen_d, key_len_i as built
  logic       dec_in, dec_blk, dec_nx; // in_decrypt_i, dec_q, dec_d as built
  logic       dir_ok;                  // the offered block's direction is built
  assign klen_r    = klen_fix(klen_q);
  assign klen_nx = klen_fix(klen_d);
  assign klen_in = klen_fix(key_len_i);
  assign dec_in  = dec_fix(in_decrypt_i);
  assign dec_blk = dec_fix(dec_q);
  assign dec_nx  = dec_fix(dec_d);
  assign dir_ok  = in_decrypt_i ? Dirs[1] : Dirs[0];

  logic [3:0]   nr;
  logic         done;
  logic         start_sel;
  logic         key_fire, key_legal, in_fire, out_fire, setup_step;
  logic [255:0] key_masked;
  logic [31:0]  key_sub;     // SubWord input of the first forward step from the key

  logic [255:0] ks_win_o;
  logic [2:0]   ks_phase_o;
  logic [7:0]   ks_rcon_o;
  logic [31:0]  ks_sub;      // SubWord input of the step after ks_win_o
  logic [31:0]  start_sub;   // SubWord input of the step from the window of a start

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign nr         = 4'd10 + {1'b0, klen_r, 1'b0};  // 10 / 12 / 14
  // done and final come from registers (set one cycle ahead from cnt_d), so the
  // comparisons with Nr are not in front of the key step and the datapath selects
  assign done       = done_q;
  // start_sel from a register (computed from the next state), so the 128-bit datapath
  // and round-key multiplexers it selects start at a flip-flop, not behind a LUT
  assign start_sel   = start_sel_q;
  assign start_sel_d = (key_st_d == StReady) && (!busy_d || done_d);
  assign key_legal  = KeyBuilt[key_len_i];  // 3 and the sizes not built: refused
  assign setup_step = (key_st_q == StSetup);

  assign key_ready_o = (key_st_q != StSetup) && !busy_q;
  assign in_ready_o  = (key_st_q == StReady) && !key_valid_i && dir_ok &&
                       (!busy_q || (done && out_ready_i));
  assign out_valid_o = done;
  assign out_tag_o   = tag_q;

  assign key_fire = key_valid_i && key_ready_o;
  assign in_fire  = in_valid_i && in_ready_o;
  assign out_fire = done && out_ready_i;

  assign start_o = start_sel;
  assign load_o  = in_fire || (busy_q && !done);
  assign dec_o     = start_sel ? dec_in : dec_blk;
  assign blk_dec_o = dec_blk;
  assign final_o = fin_q;  // never while start_sel (a block in round Nr is not done)
  assign start_next_o   = start_sel_d;
  assign final_next_o   = fin_d;
  assign blk_dec_next_o = dec_nx;

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

  always_comb begin : key_fsm
    key_st_d   = key_st_q;
    klen_d     = klen_q;
    key_enc_d  = key_enc_q;
    key_dec_d  = key_dec_q;
    win1_enc_d = win1_enc_q;
    win1_dec_d = win1_dec_q;
    ph1_enc_d  = ph1_enc_q;
    ph1_dec_d  = ph1_dec_q;
    rc1_enc_d  = rc1_enc_q;
    rc1_dec_d  = rc1_dec_q;
    win2_enc_d = win2_enc_q;
    win2_dec_d = win2_dec_q;
    ph2_enc_d  = ph2_enc_q;
    ph2_dec_d  = ph2_dec_q;
    rc2_enc_d  = rc2_enc_q;
    rc2_dec_d  = rc2_dec_q;
    win3_enc_d = win3_enc_q;
    win3_dec_d = win3_dec_q;
    ph3_enc_d  = ph3_enc_q;
    ph3_dec_d  = ph3_dec_q;
    rc3_enc_d  = rc3_enc_q;
    rc3_dec_d  = rc3_dec_q;
    unique case (key_st_q)
      StNoKey, StReady: begin
        if (key_fire) begin
          if (key_legal) begin
            key_st_d  = StSetup;
            klen_d    = klen_in;
            key_enc_d = key_masked[255:128];
          end else begin
            key_st_d  = StNoKey;
          end
        end
      end
      StSetup: begin
        // the setup steps forward from window 0: step cnt_q yields window cnt_q, which
        // rk_q holds in the next cycle; the windows kept are taken from rk_q then
        // (cnt_q = window + 1: a register load, not behind the step), round key Nr
        // from the step's last output; the state (window, phase, Rcon) of a window
        // does not depend on the direction it was reached from, so windows Nr-1 ..
        // Nr-3 serve the backward schedule as they are
        if (cap_q[0]) begin
          win1_enc_d = rk_q;
          ph1_enc_d  = rk_phase_q;
          rc1_enc_d  = rk_rcon_q;
        end
        if (cap_q[3]) begin
          win1_dec_d = rk_q;
          ph1_dec_d  = rk_phase_q;
          rc1_dec_d  = rk_rcon_q;
        end
        if (cap_q[1]) begin
          win2_enc_d = rk_q;
          ph2_enc_d  = rk_phase_q;
          rc2_enc_d  = rk_rcon_q;
        end
        if (cap_q[2]) begin
          win2_dec_d = rk_q;
          ph2_dec_d  = rk_phase_q;
          rc2_dec_d  = rk_rcon_q;
        end
        if (cap_q[5]) begin
          win3_enc_d = rk_q;
          ph3_enc_d  = rk_phase_q;
          rc3_enc_d  = rk_rcon_q;
        end
        if (cap_q[6]) begin
          win3_dec_d = rk_q;
          ph3_dec_d  = rk_phase_q;
          rc3_dec_d  = rk_rcon_q;
        end
        if (cap_q[4]) begin
          key_st_d   = StReady;
          key_dec_d  = ks_win_o[255:128];
        end
      end
      default: key_st_d = StNoKey;
    endcase
  end

  always_comb begin : counter
    cnt_d = cnt_q;
    if (key_fire && key_legal)  cnt_d = 4'd1;
    else if (setup_step)        cnt_d = (cnt_q == nr) ? 4'd0 : cnt_q + 4'd1;
    else if (in_fire)           cnt_d = CntStart;
    else if (busy_q && !done)   cnt_d = cnt_q + 4'd1;
    else if (out_fire)          cnt_d = 4'd0;
  end

  always_comb begin : round_flags
    done_d = busy_d && (cnt_d == nr);
    fin_d  = busy_d && (cnt_d == nr - 4'd1);
    rev_d  = busy_d && dec_nx;
    cap_d  = {cnt_d == nr - 4'd2, cnt_d == 4'd4, cnt_d == nr, cnt_d == nr, cnt_d == nr - 4'd1,
              cnt_d == 4'd3, cnt_d == 4'd2};
  end

  always_comb begin : block_state
    busy_d = busy_q;
    dec_d  = dec_q;
    tag_d  = tag_q;
    if (in_fire) begin
      busy_d = 1'b1;
      dec_d  = dec_in;
      tag_d  = in_tag_i;
    end else if (out_fire) begin
      busy_d = 1'b0;
    end
  end

  // ------------------------------------------------------------------------------
  // Key schedule: one step per cycle
  // ------------------------------------------------------------------------------
  // The step always runs on registers: the window of rk_q, its phase and Rcon, the
  // direction rev_q, and rk_sub_q, the SubWord input of the step from rk_q, kept
  // with the window (ak_key_step_split returns the next one, forward and backward).
  // A block never starts with a step from a stored window: the accepting cycle
  // loads rk_q with the window the step would have produced, kept from the setup --
  // PreRound = 1 window 1 (Nr-1), the round key of the cycle after; PreRound = 0
  // window 2 (Nr-2), as round 1 uses window 1 (Nr-1) from win1_*_q.
  // The SubWord input of a step from window w (phase ph), as ak_key_step_split's
  // header defines it: forward the newest word, or for Nk = 6 at phase 4 the XOR of
  // words 0, 1 and 5; backward the word before the four it recovers (Nk = 4: w3 ^ w2,
  // Nk = 6: w1, Nk = 8: w3), or for Nk = 6 at phase 2 word 3. Used on the windows a start
  // loads into rk_q; it is register logic in front of rk_sub_q, not of the S-box.
  // (w03: words 0 .. 3 of the window, w5, w7: words 5 and 7)
  function automatic logic [31:0] sub_input(input logic [127:0] w03, input logic [31:0] w5,
                                            input logic [31:0] w7, input logic [1:0] klen,
                                            input logic [2:0] ph, input logic rev);
    logic [31:0] w0, w1, w2, w3;
    w0 = w03[127:96];
    w1 = w03[95:64];
    w2 = w03[63:32];
    w3 = w03[31:0];
    if (!rev) begin
      unique case (klen)
        2'd0:    return w3;
        2'd1:    return (ph == 3'd4) ? (w0 ^ w1 ^ w5) : w5;
        default: return w7;
      endcase
    end else begin
      unique case (klen)
        2'd0:    return w3 ^ w2;
        2'd1:    return (ph == 3'd2) ? w3 : w1;
        default: return w3;
      endcase
    end
  endfunction

  always_comb begin : start_sub_sel
    if (PreRound != 0) begin
      if (dec_in) start_sub = sub_input(win2_dec_q[255:128], win2_dec_q[95:64],
                                              win2_dec_q[31:0], klen_r, ph2_dec_q, 1'b1);
      else              start_sub = sub_input(win2_enc_q[255:128], win2_enc_q[95:64],
                                              win2_enc_q[31:0], klen_r, ph2_enc_q, 1'b0);
    end else begin
      if (dec_in) start_sub = sub_input(win3_dec_q[255:128], win3_dec_q[95:64],
                                              win3_dec_q[31:0], klen_r, ph3_dec_q, 1'b1);
      else              start_sub = sub_input(win3_enc_q[255:128], win3_enc_q[95:64],
                                              win3_enc_q[31:0], klen_r, ph3_enc_q, 1'b0);
    end
  end

  ak_key_step_split u_key_step (
    .win_i    (rk_q),
    .key_len_i(klen_r),
    .phase_i  (rk_phase_q),
    .rcon_i   (rk_rcon_q),
    .reverse_i(rev_q),
    .sub_i    (rk_sub_q),
    .ctl_i    (rk_ctl_q),
    .win_o    (ks_win_o),
    .phase_o  (ks_phase_o),
    .rcon_o   (ks_rcon_o),
    .sub_o    (ks_sub)
  );

  assign start_key_o = dec_in ? key_dec_q : key_enc_q;
  assign rk_reg_o    = rk_key_q;
  assign rk_next_o   = (PreRound != 0) ? rk_q[255:128] :
                       !start_sel ? rk_key_q :
                       dec_in ? win1_dec_q[255:128] : win1_enc_q[255:128];
  assign start_key_enc_o = key_enc_q;
  assign start_key_dec_o = key_dec_q;
  assign rk1_enc_o       = win1_enc_q[255:128];
  assign rk1_dec_o       = win1_dec_q[255:128];

  always_comb begin : round_key_next
    rk_d       = rk_q;
    rk_phase_d = rk_phase_q;
    rk_rcon_d  = rk_rcon_q;
    rk_sub_d   = rk_sub_q;
    if (key_fire && key_legal) begin
      rk_d       = key_masked;
      rk_phase_d = 3'd0;
      rk_rcon_d  = 8'h01;
      rk_sub_d   = key_sub;
    end else if (in_fire && PreRound != 0) begin
      rk_d       = dec_in ? win2_dec_q : win2_enc_q;
      rk_phase_d = dec_in ? ph2_dec_q  : ph2_enc_q;
      rk_rcon_d  = dec_in ? rc2_dec_q  : rc2_enc_q;
      rk_sub_d   = start_sub;
    end else if (in_fire) begin
      rk_d       = dec_in ? win3_dec_q : win3_enc_q;
      rk_phase_d = dec_in ? ph3_dec_q  : ph3_enc_q;
      rk_rcon_d  = dec_in ? rc3_dec_q  : rc3_enc_q;
      rk_sub_d   = start_sub;
    end else if (setup_step || (busy_q && !done)) begin
      rk_d       = ks_win_o;
      rk_phase_d = ks_phase_o;
      rk_rcon_d  = ks_rcon_o;
      rk_sub_d   = ks_sub;
    end
  end

  // the round key of the next cycle's round: at a start the one after the start's
  // (PreRound = 1 round 1, PreRound = 0 round 2: windows 1 / 2 or Nr-1 / Nr-2 from the
  // setup), while a block runs the oldest words of rk_q, one window ahead; a register
  // load without logic, so the step's loop (rk_q -> step -> rk_q) never reaches the
  // datapath's AddRoundKey
  always_comb begin : round_key_of_round
    rk_key_d = rk_key_q;
    if (in_fire && PreRound != 0) begin
      rk_key_d = dec_in ? win1_dec_q[255:128] : win1_enc_q[255:128];
    end else if (in_fire) begin
      rk_key_d = dec_in ? win2_dec_q[255:128] : win2_enc_q[255:128];
    end else if (busy_q && !done) begin
      rk_key_d = rk_q[255:128];
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
      win1_enc_q <= '0;
      win1_dec_q <= '0;
      ph1_enc_q  <= 3'd0;
      ph1_dec_q  <= 3'd0;
      rc1_enc_q  <= 8'h00;
      rc1_dec_q  <= 8'h00;
      win2_enc_q <= '0;
      win2_dec_q <= '0;
      ph2_enc_q  <= 3'd0;
      ph2_dec_q  <= 3'd0;
      rc2_enc_q  <= 8'h00;
      rc2_dec_q  <= 8'h00;
      win3_enc_q <= '0;
      win3_dec_q <= '0;
      ph3_enc_q  <= 3'd0;
      ph3_dec_q  <= 3'd0;
      rc3_enc_q  <= 8'h00;
      rc3_dec_q  <= 8'h00;
    end else begin
      key_st_q   <= key_st_d;
      klen_q     <= klen_d;
      key_enc_q  <= key_enc_d;
      key_dec_q  <= key_dec_d;
      win1_enc_q <= win1_enc_d;
      win1_dec_q <= win1_dec_d;
      ph1_enc_q  <= ph1_enc_d;
      ph1_dec_q  <= ph1_dec_d;
      rc1_enc_q  <= rc1_enc_d;
      rc1_dec_q  <= rc1_dec_d;
      win2_enc_q <= win2_enc_d;
      win2_dec_q <= win2_dec_d;
      ph2_enc_q  <= ph2_enc_d;
      ph2_dec_q  <= ph2_dec_d;
      rc2_enc_q  <= rc2_enc_d;
      rc2_dec_q  <= rc2_dec_d;
      win3_enc_q <= win3_enc_d;
      win3_dec_q <= win3_dec_d;
      ph3_enc_q  <= ph3_enc_d;
      ph3_dec_q  <= ph3_dec_d;
      rc3_enc_q  <= rc3_enc_d;
      rc3_dec_q  <= rc3_dec_d;
    end
  end

  // the step's controls for the window, phase and direction of the next cycle
  logic [2:0] ctl_phase_unused;

  ak_key_step_ctl u_rk_ctl (
    .key_len_i   (klen_nx),
    .phase_i     (rk_phase_d),
    .reverse_i   (rev_d),
    .ctl_o       (rk_ctl_d),
    .phase_next_o(ctl_phase_unused)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : round_key_regs
    if (!rst_ni) begin
      rk_q       <= '0;
      rk_phase_q <= 3'd0;
      rk_rcon_q  <= 8'h00;
      rk_sub_q   <= '0;
      rk_ctl_q   <= CtlReset;  // ak_key_step_ctl(klen_r, 0, 0) after reset
      rk_key_q   <= '0;
    end else begin
      rk_q       <= rk_d;
      rk_phase_q <= rk_phase_d;
      rk_rcon_q  <= rk_rcon_d;
      rk_sub_q   <= rk_sub_d;
      rk_ctl_q   <= rk_ctl_d;
      rk_key_q   <= rk_key_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      cnt_q  <= 4'd0;
      start_sel_q <= 1'b0;
      done_q <= 1'b0;
      fin_q  <= 1'b0;
      busy_q <= 1'b0;
      dec_q  <= dec_fix(1'b0);  // the built direction in a one-direction build
      rev_q  <= 1'b0;
      cap_q  <= '0;
      tag_q  <= '0;
    end else begin
      cnt_q  <= cnt_d;
      start_sel_q <= start_sel_d;
      done_q <= done_d;
      fin_q  <= fin_d;
      busy_q <= busy_d;
      dec_q  <= dec_d;
      rev_q  <= rev_d;
      cap_q  <= cap_d;
      tag_q  <= tag_d;
    end
  end

`ifndef SYNTHESIS
  // rk_ctl_q is the decode of the registers it stands for (from the first reset on:
  // before it the registers hold whatever they power up with)
  logic       reset_seen_q = 1'b0;
  logic [8:0] ctl_now;
  logic [2:0] ctl_now_phase_unused;

  ak_key_step_ctl u_ctl_check (
    .key_len_i   (klen_r),
    .phase_i     (rk_phase_q),
    .reverse_i   (rev_q),
    .ctl_o       (ctl_now),
    .phase_next_o(ctl_now_phase_unused)
  );

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : ctl_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q && rk_ctl_q != ctl_now) begin
      $error("ak_round_ctrl: rk_ctl_q %b, decode %b", rk_ctl_q, ctl_now);
    end
  end
`endif

endmodule

`default_nettype wire
