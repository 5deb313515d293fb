// ak_rk_fill: the hardware key expansion that fills a round-key store (ak_rk_store,
// ak_rk_ram) -- word-serial and pipelined, so that it never limits the clock of the
// memory-based cores it serves. It emits each round key in both forms, on two write
// ports (encryption: we_o; decryption: dec_we_o):
//   enc round r      : rk_r = w[4r .. 4r+3]
//   dec round Nr - r : rk_r for r = 0 or r = Nr, InvMixColumns(rk_r) otherwise.
//
// Theory. The capture registers (kcap_q, klast_q) follow key_i whenever no fill runs
// (their enable is the flip-flop behind key_ready_o, not the handshake), so the
// handshake edge is the last value they take; the handshake itself reaches only the
// key size and a few flags. The next cycle, the "load" cycle, copies the key into
// the expansion registers. The key words pass through a shift register:
// sr_q[0 .. Nk-2] hold w[i-Nk] .. w[i-2] (the oldest at a fixed position, word 0)
// and last_q holds the newest, w[i-1]. Each "word" cycle computes
// w[i] = w[i-Nk] ^ t (FIPS-197 5.2) into last_q, moves last_q into word Nk-2, shifts
// the rest down and emits w[i-Nk]: the words leave in order w[0], w[1], ... For an
// index that needs SubWord (i mod Nk = 0, or i mod 8 = 4 for Nk = 8) a "sub" cycle
// first registers SubWord(w[i-1]) (sub_q); the word cycle then takes
// t = RotWord(sub_q) ^ Rcon or t = sub_q (RotWord commutes with SubWord and is
// wiring), so the S-boxes and the word XOR never share a path. SubWord itself takes
// two register stages (see g_sub_stage1): w[i-1] is known a cycle before its sub
// cycle, in klast_q. Sub cycles are spent
// only on words that are emitted (i < 4(Nr+1)). last_q's next value is a sum of
// gated terms, each enabled by a flip-flop (w[i-Nk], RotWord(sub_q), sub_q, last_q,
// and in the load cycle key word Nk-1): two LUT levels, no multiplexer chain.
// The cycle kinds follow a fixed schedule per key size: B blocks of one sub cycle
// and P word cycles (B = 10/8/13, P = 4/6/4), then T = 4/4/8 word cycles without
// SubWord. A one-hot ring (ring_q, P + 1 positions) and two down counters (blocks,
// trailing words, each with its "last" flag in a flip-flop) produce it; every cycle
// kind, every term enable, the "fourth word of a round" flag and the Rcon byte of
// the next word are flip-flops, so no compare or adder sits in front of a select or
// a wide clock enable.
// An emitted word is collected in its word cycle as it is (encryption form); the
// fourth word of a round completes the encryption key into its output register.
// The decryption form uses InvMixColumns = MixColumns(pre(.)) (ak_inv_mix_pre):
// pre0_q/pre1_q hold pre() of sr_q[0]/sr_q[1] (shifted in a word cycle, recomputed
// in any other; a word cycle always follows a sub cycle after the load, so they are
// current in every word cycle), ak_mix_column turns pre0_q into the emitted word's
// InvMixColumns, registered (imc_q) and collected one cycle later. So a middle
// round's decryption key is written one cycle after its encryption key; rounds 0
// and Nr need no InvMixColumns and are written with it (dec_key_o then selects the
// encryption register after the output registers: no multiplexer follows the XOR
// tree). Round numbers count up and down in registers, also one-hot.
// Register-to-register paths (LUT levels): klast_q -> six-input S-box tables ->
// mid_q (a LUT4 and its wide-LUT multiplexers); mid_q -> 4:1 select -> sub_q;
// sr_q[0..1]/last_q -> XOR and key select -> klast_q (two); sub_q/last_q/sr_q[0]
// -> gated XOR -> last_q (two); pre0_q -> MixColumns -> imc_q (two); everything
// else one or two.
//
// Timing (K = the key handshake edge, Nr = 10/12/14):
//   the load cycle, 4(Nr+1) word cycles and S = 10/8/13 sub cycles, then the write:
//   encryption round r is written (we_o high) in the cycle after the word cycle of
//   its fourth word; decryption round Nr - r in the same cycle for r = 0 and r = Nr,
//   one cycle later for the others. ready_o rises at the edge that writes round Nr
//   (both forms) and is first sampled high at edge K + 1 + 4(Nr+1) + S + 2 =
//   K + 57/63/76 (aeskit.hw.catalog.memory_primitives.rk_fill_cycles); a core whose
//   in_ready_o follows ready_o has that key setup.
//   key_ready_o (a flip-flop) is high whenever no fill runs (the core adds "nothing
//   in flight"). load_o is high in the handshake cycle (stores clear entries above
//   Nr in the cycle after it).
//   round_o, dec_round_o and the one-hot we_round_o / dec_we_round_o (bit i: a write
//   of round i in this cycle) are flip-flops, so a store's per-entry clock enables
//   start at a register.
// Illegal key_len_i = 3: the handshake completes, ready_o goes low and stays low
// until a legal key has been loaded. So does a key of a size KeySizes does not
// build. After reset: no key, ready_o low; every register is reset.
// Byte order: key_i as in the core contract (key byte 0 in [255:248], 128/192-bit
//   keys left-aligned); round keys as FIPS-197 (byte 0 in [127:120]).
// Parameters:
//   Directions  the round-key forms the store needs (docs/core-contract.md,
//               "Configurations"): 1 encryption only (the decryption form, its
//               InvMixColumns stage and dec_* outputs are constant zero and left
//               out), 2 or 3 both forms (decryption keys are derived from the
//               encryption schedule, so a decrypt-only store still runs it). Default 3.
//   KeySizes    mask of the key sizes accepted (1..7; bit 0 128, bit 1 192, bit 2
//               256; default 7). A key of another size is refused like key_len_i =
//               3; the key length is held as a constant with one size built (one bit
//               with two), so the key words and schedule steps of the sizes not
//               built (words 4 .. 6 of a 128-bit-only build) are left out.

`default_nettype none

module ak_rk_fill #(
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         key_valid_i,
  output logic         key_ready_o,
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  output logic         ready_o,      // a legal key is loaded and completely written
  output logic [3:0]   nr_o,         // rounds of the loaded key (10/12/14)
  output logic         load_o,       // key handshake in this cycle
  output logic         we_o,         // encryption write in this cycle:
  output logic [3:0]   round_o,      //   round r
  output logic [14:0]  we_round_o,   //   one-hot: we_o && round_o == i
  output logic [127:0] enc_key_o,    //   its key
  output logic         dec_we_o,     // decryption write in this cycle:
  output logic [3:0]   dec_round_o,  //   round Nr - r
  output logic [14:0]  dec_we_round_o,  // one-hot: dec_we_o && dec_round_o == i
  output logic [127:0] dec_key_o     //   its key
);

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_rk_fill: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_rk_fill: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_rk_fill: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_rk_fill: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  // the build: the key length as it can be held (a constant with one size, one bit
  // with two), the key_len_i codes accepted, whether decryption keys are emitted
  localparam bit       DecKeys  = Directions[1];
  localparam bit [2:0] Sizes    = KeySizes[2:0];
  localparam bit [3:0] KeyBuilt = {1'b0, Sizes};
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

  // ---- state ----------------------------------------------------------------------
  logic         ready_q, ready_d;    // all round keys of a legal key written
  logic         kr_q, kr_d;          // no fill runs (key_ready_o)
  logic [1:0]   klen_q, klen_d;
  logic         k6_q, k6_d;          // Nk = 6 (klen_q == 1), a flag of its own
  logic         k8_q, k8_d;          // Nk = 8 (klen_q == 2)
  logic [6:0][31:0] kcap_q;          // key words 0 .. 6, captured at the handshake
  logic [31:0]  klast_q;             // key word Nk-1, likewise; during a fill the
                                     // next SubWord input (see sub_stage1)
  logic         pe_q, pe_d;          // this cycle is word position P-1 of a block
  logic [3:0][3:0][7:0] mid_q;       // SubWord stage 1: per byte, S(q, low six bits)
                                     // for the four values q of the top two bits
  logic [3:0][1:0] top_q;            //   and the top two bits
  logic         loadc_q, loadc_d;    // this cycle loads the shift register
  // schedule
  logic         act_q, act_d;        // expansion cycles (sub or word) remain
  logic         blk_q, blk_d;        // in the blocks (not the trailing words)
  logic [6:0]   ring_q, ring_d;      // one-hot position in the block, 0 = sub cycle
  logic [3:0]   nblk_q, nblk_d;      // blocks left, the current one included
  logic         lblk_q, lblk_d;      // nblk_q == 1
  logic [3:0]   ntr_q, ntr_d;        // trailing words left
  logic         ltr_q, ltr_d;        // ntr_q == 1
  logic         par_q, par_d;        // Nk = 8: odd block (SubWord without RotWord)
  logic         subc_q, subc_d;      // this cycle is a sub cycle
  logic         wordc_q, wordc_d;    // this cycle is a word cycle
  // expansion
  logic [6:0][31:0] sr_q, sr_d;      // w[i-Nk] .. w[i-2] in words 0 .. Nk-2
  logic [31:0]  last_q, last_d;      // w[i-1]
  logic [31:0]  sub_q, sub_d;        // SubWord(w[i-1]), loaded in a sub cycle
  logic         tr_q, tr_d;          // this word cycle: t = RotWord(sub_q) ^ Rcon
  logic         tn_q, tn_d;          // this word cycle: t = sub_q
  logic         tl_q, tl_d;          // this word cycle: t = last_q
  logic         lce_q, lce_d;        // last_q and sr_q load in this cycle (load or word)
  logic [7:0]   rcon_q, rcon_d;      // Rcon of the next RotWord block
  logic [7:0]   rcb_q, rcb_d;        // this cycle's Rcon byte (zero but after a
                                     // RotWord sub cycle)
  // collection (from the emitted word sr_q[0], in its word cycle)
  logic [1:0]   wc_q, wc_d;          // the emitted word's position in its round key
  logic         w4_q, w4_d;          // this cycle is a word cycle and wc_q == 3
  logic [95:0]  acc_enc_q, acc_enc_d;  // three older words of the round key
  logic [95:0]  acc_dec_q, acc_dec_d;  // the same in the decryption form
  logic [31:0]  pre0_q, pre0_d;        // InvMixColumns pre-map of sr_q[0] (see imc)
  logic [31:0]  pre1_q, pre1_d;        // the same of sr_q[1]
  logic [31:0]  imc_q, imc_d;          // InvMixColumns of the word emitted last cycle
  logic         imcv_q, imcv_d;        //   it is valid (last cycle was a word cycle)
  logic         imc4_q, imc4_d;        //   it completes a middle round's dec key
  logic [3:0]   dpend_q, dpend_d;      //   that key's decryption round
  logic [14:0]  dpend_oh_q, dpend_oh_d;
  logic [14:0]  nround_oh_q, nround_oh_d;  // one-hot nround_q
  logic [14:0]  ndec_oh_q, ndec_oh_d;      // one-hot ndec_q
  logic [3:0]   nround_q, nround_d;    // round of the next write
  logic [3:0]   ndec_q, ndec_d;        // Nr - that round
  logic         plain_q, plain_d;      // the round collected is round 0 or Nr
  logic         wplain_q, wplain_d;    // the round written is: dec_key_o = enc_key_q
  logic         we_q, we_d;
  logic [14:0]  we_oh_q, we_oh_d;
  logic         dwe_q, dwe_d;
  logic [14:0]  dwe_oh_q, dwe_oh_d;
  logic         lastw_q, lastw_d;      // the write in this cycle is round Nr
  logic [3:0]   round_q, round_d;
  logic [3:0]   dec_round_q, dec_round_d;
  logic [127:0] enc_key_q, enc_key_d;
  logic [127:0] dec_key_q, dec_key_d;

  // ---- combinational ---------------------------------------------------------------
  logic         key_fire, legal;
  logic [1:0]   klen_in;             // key_len_i as the build holds it
  logic         end_blk, rot_blk;
  logic [31:0]  t, w_new, sub_word, imc_word, pre_sr0, pre_sr1, pre_sr2;
  logic [3:0][3:0][7:0] mid_d;
  logic [7:0]   rcon_x;

  assign nr_o        = 4'd10 + {1'b0, klen_q, 1'b0};
  assign key_ready_o = kr_q;
  assign key_fire    = key_valid_i && key_ready_o;
  assign legal       = KeyBuilt[key_len_i];
  assign klen_in     = klen_fix(key_len_i);
  assign ready_o     = ready_q;
  assign load_o      = key_fire;

  // the last word cycle of a block (position P = 4, or 6 for Nk = 6)
  assign end_blk  = blk_q && (k6_q ? ring_q[6] : ring_q[4]);
  // this block's sub cycle applies RotWord and Rcon (all but Nk = 8's odd blocks)
  assign rot_blk  = !par_q;

  // SubWord in two register stages. Its input w[i-1] is known a cycle before the
  // sub cycle: it is key word Nk-1 (klast_q) for the first block, and for the others
  // it is loaded into klast_q in the block's word cycle P-1, which computes w[i-2] =
  // w[i-2-Nk] ^ w[i-3] (t = last_q there), so w[i-1] = w[i-1-Nk] ^ w[i-2] =
  // sr_q[1] ^ sr_q[0] ^ last_q. Stage 1 (every cycle) looks up each byte's S-box
  // value for the four values of its top two bits (ak_sbox with those bits
  // constant: a six-input table); stage 2 (the sub cycle) selects by the top bits.
  for (genvar b = 0; b < 4; b++) begin : g_sub_stage1
    for (genvar q = 0; q < 4; q++) begin : g_quarter
      ak_sbox u_sbox (
        .in_i ({2'(q), klast_q[8*b +: 6]}),
        .out_o(mid_d[b][q])
      );
    end
    assign sub_word[8*b +: 8] = mid_q[b][top_q[b]];
  end

  ak_xtime u_xtime_rcon (
    .in_i (rcon_q),
    .out_o(rcon_x)
  );

  // the next newest word as a sum of gated terms, each enabled by a flip-flop: in a
  // word cycle w[i] = w[i-Nk] ^ t ^ Rcon, in the load cycle key word Nk-1 (the terms
  // are exclusive, rcb_q is zero but in the first word of a RotWord block); two LUT
  // levels, no multiplexer chain
  always_comb begin : temp_word
    t = ({sub_q[23:0], sub_q[31:24]} & {32{tr_q}})
      ^ (sub_q & {32{tn_q}})
      ^ (last_q & {32{tl_q}});
  end

  assign w_new = (sr_q[0] & {32{wordc_q}}) ^ t ^ {rcb_q, 24'h0}
               ^ (klast_q & {32{loadc_q}});

  // InvMixColumns of the emitted word in two register stages: pre() of the words
  // that can be emitted next (pre0_q, pre1_q), then MixColumns (imc_q)
  ak_inv_mix_pre u_pre_sr0 (.in_i(sr_q[0]), .out_o(pre_sr0));
  ak_inv_mix_pre u_pre_sr1 (.in_i(sr_q[1]), .out_o(pre_sr1));
  ak_inv_mix_pre u_pre_sr2 (.in_i(sr_q[2]), .out_o(pre_sr2));

  ak_mix_column u_imc (
    .in_i (pre0_q),
    .out_o(imc_word)
  );

  // the capture registers follow key_i whenever no fill runs (their enable is the
  // flip-flop kr_q, not the handshake); the handshake edge is the last they take
  always_ff @(posedge clk_i or negedge rst_ni) begin : capture_regs
    if (!rst_ni) begin
      kcap_q  <= '0;
      klast_q <= '0;
    end else if (kr_q) begin
      for (int k = 0; k < 7; k++) kcap_q[k] <= key_i[255-32*k -: 32];
      unique case (klen_in)
        2'd1:    klast_q <= key_i[95:64];    // w[5]
        2'd2:    klast_q <= key_i[31:0];     // w[7]
        default: klast_q <= key_i[159:128];  // w[3]
      endcase
    end else if (pe_q) begin
      klast_q <= sr_q[1] ^ sr_q[0] ^ last_q;  // the next block's SubWord input
    end
  end

  // SubWord stage 1 (no enable: its input changes only at the edges above)
  always_ff @(posedge clk_i or negedge rst_ni) begin : sub_stage1
    if (!rst_ni) begin
      mid_q <= '0;
      top_q <= '0;
    end else begin
      mid_q <= mid_d;
      for (int b = 0; b < 4; b++) top_q[b] <= klast_q[8*b+6 +: 2];
    end
  end

  always_comb begin : fill_next
    ready_d     = ready_q;
    kr_d        = kr_q;
    klen_d      = klen_q;
    k6_d        = k6_q;
    k8_d        = k8_q;
    loadc_d     = 1'b0;
    act_d       = act_q;
    blk_d       = blk_q;
    ring_d      = ring_q;
    nblk_d      = nblk_q;
    lblk_d      = lblk_q;
    ntr_d       = ntr_q;
    ltr_d       = ltr_q;
    par_d       = par_q;
    sr_d        = sr_q;
    last_d      = last_q;
    sub_d       = sub_q;
    tr_d        = 1'b0;
    tn_d        = 1'b0;
    tl_d        = 1'b0;
    rcon_d      = rcon_q;
    rcb_d       = 8'h00;
    wc_d        = wc_q;
    acc_enc_d   = acc_enc_q;
    acc_dec_d   = acc_dec_q;
    // the pre-maps follow sr_q[0..1] a cycle late: a word cycle shifts them, any
    // other cycle recomputes them (a word cycle always follows a sub cycle after
    // the load, so they are current in every word cycle)
    pre0_d      = wordc_q ? pre1_q  : pre_sr0;
    pre1_d      = wordc_q ? pre_sr2 : pre_sr1;
    imc_d       = imc_word;
    imcv_d      = wordc_q;
    imc4_d      = 1'b0;
    dpend_d     = dpend_q;
    dpend_oh_d  = dpend_oh_q;
    nround_d    = nround_q;
    ndec_d      = ndec_q;
    nround_oh_d = nround_oh_q;
    ndec_oh_d   = ndec_oh_q;
    plain_d     = plain_q;
    wplain_d    = wplain_q;
    we_d        = 1'b0;
    we_oh_d     = '0;
    dwe_d       = 1'b0;
    dwe_oh_d    = '0;
    lastw_d     = 1'b0;
    round_d     = round_q;
    dec_round_d = dec_round_q;
    enc_key_d   = enc_key_q;
    dec_key_d   = dec_key_q;
    // stage 1: the load cycle starts the schedule in its first sub cycle
    if (loadc_q) begin
      act_d  = 1'b1;
      blk_d  = 1'b1;
      ring_d = 7'b000_0001;
      unique case (klen_q)
        2'd1:    begin nblk_d = 4'd8;  ntr_d = 4'd4; end
        2'd2:    begin nblk_d = 4'd13; ntr_d = 4'd8; end
        default: begin nblk_d = 4'd10; ntr_d = 4'd4; end
      endcase
      lblk_d = 1'b0;   // B >= 8 blocks, T >= 4 trailing words
      ltr_d  = 1'b0;
      par_d  = 1'b0;
      rcon_d = 8'h01;
      wc_d   = 2'd0;
      nround_d = 4'd0;
      ndec_d   = nr_o;
      nround_oh_d = 15'd1;
      ndec_oh_d   = 15'd1 << nr_o;
      plain_d  = 1'b1;
    end
    // stage 1: the schedule
    if (act_q) begin
      if (blk_q) begin
        ring_d = k6_q ? {ring_q[5:0], ring_q[6]}
                                  : {2'b00, ring_q[3:0], ring_q[4]};
        if (end_blk) begin
          nblk_d = nblk_q - 4'd1;
          lblk_d = (nblk_q == 4'd2);
          par_d  = k8_q && !par_q;
          if (lblk_q) blk_d = 1'b0;
        end
      end else begin
        ntr_d = ntr_q - 4'd1;
        ltr_d = (ntr_q == 4'd2);
        if (ltr_q) act_d = 1'b0;
      end
    end
    // stage 1: expansion
    if (subc_q) begin
      sub_d = sub_word;
      tr_d  = rot_blk;
      tn_d  = !rot_blk;
      if (rot_blk) begin
        rcb_d  = rcon_q;
        rcon_d = rcon_x;
      end
    end
    // the shift register: loaded in the load cycle, shifted in a word cycle
    if (lce_q) begin
      last_d = w_new;   // the load cycle: = klast_q (only its term is enabled)
      if (loadc_q) begin
        sr_d = kcap_q;
      end else begin
        for (int k = 0; k < 6; k++) sr_d[k] = sr_q[k+1];
        if (k6_q)      sr_d[4] = last_q;
        else if (k8_q) sr_d[6] = last_q;
        else           sr_d[2] = last_q;
      end
    end
    // stage 1: collect the emitted word w[i-Nk] in its word cycle; the fourth word
    // of a round key completes it into the output registers (encryption form;
    // the decryption form too for rounds 0 and Nr, which need no InvMixColumns)
    if (wordc_q) begin
      acc_enc_d = {acc_enc_q[63:0], sr_q[0]};
      wc_d      = wc_q + 2'd1;
    end
    // the fourth word of a round (w4_q implies a word cycle)
    if (w4_q) begin
      we_d        = 1'b1;
      we_oh_d     = nround_oh_q;
      lastw_d     = (ndec_q == 4'd0);
      round_d     = nround_q;
      nround_d    = nround_q + 4'd1;
      ndec_d      = ndec_q - 4'd1;
      nround_oh_d = nround_oh_q << 1;
      ndec_oh_d   = ndec_oh_q >> 1;
      plain_d     = (ndec_q == 4'd1);
      enc_key_d   = {acc_enc_q, sr_q[0]};
      imc4_d      = !plain_q;
      dpend_d     = ndec_q;
      dpend_oh_d  = ndec_oh_q;
      if (plain_q) begin
        dwe_d       = 1'b1;
        dwe_oh_d    = ndec_oh_q;
        dec_round_d = ndec_q;
        wplain_d    = 1'b1;
      end
    end
    // stage 2: the decryption form of the word emitted last cycle (imc_q); the
    // fourth word of a middle round completes it, written one cycle after the
    // encryption form
    if (imcv_q) acc_dec_d = {acc_dec_q[63:0], imc_q};
    if (imc4_q) begin
      dwe_d       = 1'b1;
      dwe_oh_d    = dpend_oh_q;
      dec_round_d = dpend_q;
      dec_key_d   = {acc_dec_q, imc_q};
      wplain_d    = 1'b0;
    end
    // stage 2: the write (we_q) of round Nr completes the store
    if (we_q && lastw_q) begin
      ready_d = 1'b1;
      kr_d    = 1'b1;
    end
    if (key_fire) begin
      // stage 0: the handshake. key_ready_o is low while a fill runs, so no stage
      // above is active now; the handshake reaches only these registers
      ready_d = 1'b0;
      kr_d    = !legal;
      loadc_d = legal;
      if (legal) begin
        klen_d = klen_in;
        k6_d   = (klen_in == 2'd1);
        k8_d   = (klen_in == 2'd2);
      end
    end
    subc_d  = act_d && blk_d && ring_d[0];
    pe_d    = act_d && blk_d && (k6_q ? ring_d[5] : ring_d[3]);
    wordc_d = act_d && !(blk_d && ring_d[0]);
    tl_d    = wordc_d && !subc_q;
    w4_d    = wordc_d && (wc_d == 2'd3);
    lce_d   = loadc_d || wordc_d;
  end

  assign we_o           = we_q;
  assign round_o        = round_q;
  assign we_round_o     = we_oh_q;
  assign enc_key_o      = enc_key_q;
  if (DecKeys) begin : g_dec_out
    assign dec_we_o       = dwe_q;
    assign dec_round_o    = dec_round_q;
    assign dec_we_round_o = dwe_oh_q;
    assign dec_key_o      = wplain_q ? enc_key_q : dec_key_q;
  end else begin : g_no_dec_out
    // encryption only: no decryption form (its registers have no load and go)
    assign dec_we_o       = 1'b0;
    assign dec_round_o    = 4'd0;
    assign dec_we_round_o = '0;
    assign dec_key_o      = '0;
    logic unused_dec;
    assign unused_dec = ^{dwe_q, dec_round_q, dwe_oh_q, wplain_q, dec_key_q};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fill_regs
    if (!rst_ni) begin
      ready_q     <= 1'b0;
      kr_q        <= 1'b1;
      klen_q      <= KlenReset;
      k6_q        <= (KlenReset == 2'd1);
      k8_q        <= (KlenReset == 2'd2);
      loadc_q     <= 1'b0;
      act_q       <= 1'b0;
      blk_q       <= 1'b0;
      ring_q      <= '0;
      nblk_q      <= '0;
      lblk_q      <= 1'b0;
      ntr_q       <= '0;
      ltr_q       <= 1'b0;
      par_q       <= 1'b0;
      subc_q      <= 1'b0;
      pe_q        <= 1'b0;
      wordc_q     <= 1'b0;
      sr_q        <= '0;
      last_q      <= '0;
      sub_q       <= '0;
      tr_q        <= 1'b0;
      tn_q        <= 1'b0;
      tl_q        <= 1'b0;
      lce_q       <= 1'b0;
      rcon_q      <= 8'h00;
      rcb_q       <= 8'h00;
      wc_q        <= 2'd0;
      w4_q        <= 1'b0;
      acc_enc_q   <= '0;
      acc_dec_q   <= '0;
      pre0_q      <= '0;
      pre1_q      <= '0;
      nround_q    <= 4'd0;
      ndec_q      <= 4'd0;
      plain_q     <= 1'b0;
      wplain_q    <= 1'b0;
      we_q        <= 1'b0;
      imc_q       <= '0;
      imcv_q      <= 1'b0;
      imc4_q      <= 1'b0;
      dpend_q     <= 4'd0;
      dpend_oh_q  <= '0;
      nround_oh_q <= '0;
      ndec_oh_q   <= '0;
      we_oh_q     <= '0;
      dwe_q       <= 1'b0;
      dwe_oh_q    <= '0;
      lastw_q     <= 1'b0;
      round_q     <= 4'd0;
      dec_round_q <= 4'd0;
      enc_key_q   <= '0;
      dec_key_q   <= '0;
    end else begin
      ready_q     <= ready_d;
      kr_q        <= kr_d;
      klen_q      <= klen_d;
      k6_q        <= k6_d;
      k8_q        <= k8_d;
      loadc_q     <= loadc_d;
      act_q       <= act_d;
      blk_q       <= blk_d;
      ring_q      <= ring_d;
      nblk_q      <= nblk_d;
      lblk_q      <= lblk_d;
      ntr_q       <= ntr_d;
      ltr_q       <= ltr_d;
      par_q       <= par_d;
      subc_q      <= subc_d;
      pe_q        <= pe_d;
      wordc_q     <= wordc_d;
      sr_q        <= sr_d;
      last_q      <= last_d;
      sub_q       <= sub_d;
      tr_q        <= tr_d;
      tn_q        <= tn_d;
      tl_q        <= tl_d;
      lce_q       <= lce_d;
      rcon_q      <= rcon_d;
      rcb_q       <= rcb_d;
      wc_q        <= wc_d;
      w4_q        <= w4_d;
      acc_enc_q   <= acc_enc_d;
      acc_dec_q   <= acc_dec_d;
      pre0_q      <= pre0_d;
      pre1_q      <= pre1_d;
      nround_q    <= nround_d;
      ndec_q      <= ndec_d;
      plain_q     <= plain_d;
      wplain_q    <= wplain_d;
      we_q        <= we_d;
      imc_q       <= imc_d;
      imcv_q      <= imcv_d;
      imc4_q      <= imc4_d;
      dpend_q     <= dpend_d;
      dpend_oh_q  <= dpend_oh_d;
      nround_oh_q <= nround_oh_d;
      ndec_oh_q   <= ndec_oh_d;
      we_oh_q     <= we_oh_d;
      dwe_q       <= dwe_d;
      dwe_oh_q    <= dwe_oh_d;
      lastw_q     <= lastw_d;
      round_q     <= round_d;
      dec_round_q <= dec_round_d;
      enc_key_q   <= enc_key_d;
      dec_key_q   <= dec_key_d;
    end
  end

endmodule

`default_nettype wire
