// ak_rk_fill: the hardware key expansion that fills a round-key store (ak_rk_store,
// ak_rk_ram) -- word-serial and pipelined, so that it never limits the clock of the
// memory-based cores it serves. It emits, one write per round key, the encryption
// key and the equivalent-inverse-cipher decryption key of the same round:
//   enc round r      : rk_r = w[4r .. 4r+3]
//   dec round Nr - r : rk_r for r = 0 or r = Nr, InvMixColumns(rk_r) otherwise.
//
// Theory. The key words pass through an Nk-word shift register whose oldest word,
// w[i-Nk], sits at a fixed position (word 0) and whose newest, w[i-1], at word Nk-1.
// Each "word" cycle computes w[i] = w[i-Nk] ^ t (FIPS-197 5.2), shifts it in and
// emits w[i-Nk]: the words leave in order w[0], w[1], ... For an index that needs
// SubWord (i mod Nk = 0, or i mod 8 = 4 for Nk = 8) a "sub" cycle first registers
// SubWord(w[i-1]) (RotWord commutes with SubWord and is wiring), so neither the
// S-boxes nor the XOR sit on one path with the other. Sub cycles are spent only on
// words that are emitted (i < 4(Nr+1)). A round key's decryption form applies the
// 32-bit ak_inv_mix_column to each emitted word (a round-key word is a column);
// both forms collect four words and are written together from output registers.
// Register-to-register paths: Nk-select -> SubWord; select -> XOR -> shift
// register; InvMixColumns -> select -> output register.
//
// Timing (K = the key handshake edge, Nr = 10/12/14):
//   4(Nr+1) word cycles and S = 10/8/13 sub cycles, then two pipeline registers: the
//   write of round r (we_o high) is in the cycle after its fourth word's output
//   register is loaded. ready_o rises at the edge that writes round Nr and is first
//   sampled high at edge K + 4(Nr+1) + S + 3 = K + 57/63/76
//   (aeskit.hw.catalog.memory_primitives.rk_fill_cycles); a core whose in_ready_o
//   follows ready_o has that key setup.
//   key_ready_o is high whenever no fill runs (the core adds "nothing in flight").
//   load_o is high in the handshake cycle (stores clear entries above Nr then).
//   round_o and dec_round_o (= Nr - round_o) are both flip-flops, so a store's
//   per-entry write decode (and the clock enables it drives across the die) starts
//   at a register, not behind the Nr - round subtraction.
// Illegal key_len_i = 3: the handshake completes, ready_o goes low and stays low
// until a legal key has been loaded. After reset: no key, ready_o low; every
// register is reset.
// Byte order: key_i as in the core contract (key byte 0 in [255:248], 128/192-bit
//   keys left-aligned); round keys as FIPS-197 (byte 0 in [127:120]).
// Parameters: none.

`default_nettype none

module ak_rk_fill (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         key_valid_i,
  output logic         key_ready_o,
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  output logic         ready_o,      // a legal key is loaded and completely written
  output logic [3:0]   nr_o,         // rounds of the loaded key (10/12/14)
  output logic         load_o,       // key handshake in this cycle
  output logic         we_o,         // write in this cycle:
  output logic [3:0]   round_o,      //   encryption round r
  output logic [127:0] enc_key_o,    //   its key
  output logic [3:0]   dec_round_o,  //   decryption round Nr - r
  output logic [127:0] dec_key_o     //   its key
);

  typedef enum logic [1:0] {
    StNoKey,  // no usable key (after reset or an illegal key_len_i)
    StFill,   // expanding and writing rounds 0 .. Nr
    StReady   // all round keys written
  } fill_st_e;

  fill_st_e     st_q, st_d;
  logic [1:0]   klen_q, klen_d;
  logic [7:0][31:0] sr_q, sr_d;      // w[i-Nk] .. w[i-1] in words 0 .. Nk-1
  logic [31:0]  sub_q, sub_d;        // SubWord(w[i-1])
  logic         sub_ok_q, sub_ok_d;  // sub_q belongs to the current i
  logic [7:0]   rcon_q, rcon_d;      // Rcon of the next i with i mod Nk = 0
  logic [2:0]   ph_q, ph_d;          // i mod Nk
  logic [5:0]   n_q, n_d;            // words emitted so far (= i - Nk)
  logic         more_q, more_d;      // n_q != 4(Nr+1): words remain
  logic         room_q, room_d;      // n_q + Nk < 4(Nr+1): the word computed next
                                     // is emitted itself (both flags from the next
                                     // state, so the cycle decision starts at
                                     // flip-flops, not behind an adder on klen_q)
  logic         emit_q, emit_d;      // word stage valid
  logic [31:0]  ew_q, ew_d;          // the emitted word
  logic [5:0]   en_q, en_d;          // its index
  logic [95:0]  acc_enc_q, acc_enc_d;  // three older words of the round key
  logic [95:0]  acc_dec_q, acc_dec_d;  // the same after InvMixColumns
  logic         we_q, we_d;
  logic [3:0]   round_q, round_d;
  logic [3:0]   dec_round_q, dec_round_d;  // Nr - round, registered: the stores'
                                           // write decode starts at a flip-flop
  logic [127:0] enc_key_q, enc_key_d;
  logic [127:0] dec_key_q, dec_key_d;

  logic         key_fire;
  logic [31:0]  newest;              // w[i-1] = word Nk-1
  logic         need_sub;            // w[i] needs SubWord
  logic         word_cyc, sub_cyc;
  logic [31:0]  t;
  logic [31:0]  w_new;
  logic [31:0]  sub_word;
  logic [31:0]  imc_word;
  logic [2:0]   nk_last;             // Nk - 1
  logic [3:0]   en_round;            // round of the word in the word stage
  logic         plain_dec;           // dec key of this round without InvMixColumns
  logic [7:0]   rcon_x;

  assign nr_o        = 4'd10 + {1'b0, klen_q, 1'b0};
  assign nk_last     = {klen_q, 1'b1} + 3'd2;   // 3/5/7
  assign key_ready_o = (st_q != StFill);
  assign key_fire    = key_valid_i && key_ready_o;
  assign ready_o     = (st_q == StReady);
  assign load_o      = key_fire;

  always_comb begin : newest_select
    unique case (klen_q)
      2'd0:    newest = sr_q[3];
      2'd1:    newest = sr_q[5];
      default: newest = sr_q[7];
    endcase
  end

  assign need_sub = (ph_q == 3'd0) || ((klen_q == 2'd2) && (ph_q == 3'd4));
  // a word cycle while words remain; a sub cycle first when the computed word needs
  // SubWord and will be emitted itself (i = n + Nk < 4(Nr+1))
  always_comb begin : cycle_kind
    word_cyc = 1'b0;
    sub_cyc  = 1'b0;
    if (st_q == StFill && more_q) begin
      if (need_sub && !sub_ok_q && room_q)
        sub_cyc = 1'b1;
      else
        word_cyc = 1'b1;
    end
  end

  ak_sub_word u_sub_word (
    .in_i (newest),
    .out_o(sub_word)
  );

  ak_xtime u_xtime_rcon (
    .in_i (rcon_q),
    .out_o(rcon_x)
  );

  always_comb begin : temp_word
    if (ph_q == 3'd0)  t = {sub_q[23:0], sub_q[31:24]} ^ {rcon_q, 24'h0};
    else if (need_sub) t = sub_q;
    else               t = newest;
  end

  assign w_new = sr_q[0] ^ t;

  ak_inv_mix_column u_imc (
    .in_i (ew_q),
    .out_o(imc_word)
  );

  assign en_round  = en_q[5:2];
  assign plain_dec = (en_round == 4'd0) || (en_round == nr_o);

  always_comb begin : fill_next
    st_d      = st_q;
    klen_d    = klen_q;
    sr_d      = sr_q;
    sub_d     = sub_q;
    sub_ok_d  = sub_ok_q;
    rcon_d    = rcon_q;
    ph_d      = ph_q;
    n_d       = n_q;
    emit_d    = 1'b0;
    ew_d      = ew_q;
    en_d      = en_q;
    acc_enc_d = acc_enc_q;
    acc_dec_d = acc_dec_q;
    we_d      = 1'b0;
    round_d   = round_q;
    dec_round_d = dec_round_q;
    enc_key_d = enc_key_q;
    dec_key_d = dec_key_q;
    if (key_fire) begin
      if (key_len_i != 2'd3) begin
        st_d     = StFill;
        klen_d   = key_len_i;
        for (int k = 0; k < 8; k++) sr_d[k] = key_i[255-32*k -: 32];
        sub_ok_d = 1'b0;
        rcon_d   = 8'h01;
        ph_d     = 3'd0;
        n_d      = 6'd0;
      end else begin
        st_d     = StNoKey;
      end
    end else begin
      // stage 1: expansion
      if (sub_cyc) begin
        sub_d    = sub_word;
        sub_ok_d = 1'b1;
      end
      if (word_cyc) begin
        for (int k = 0; k < 7; k++) sr_d[k] = sr_q[k+1];
        sr_d[nk_last] = w_new;
        sub_ok_d = 1'b0;
        if (ph_q == 3'd0) rcon_d = rcon_x;
        ph_d     = (ph_q == nk_last) ? 3'd0 : ph_q + 3'd1;
        n_d      = n_q + 6'd1;
        emit_d   = 1'b1;
        ew_d     = sr_q[0];
        en_d     = n_q;
      end
      // stage 2: collect four words, encryption and decryption form
      if (emit_q) begin
        acc_enc_d = {acc_enc_q[63:0], ew_q};
        acc_dec_d = {acc_dec_q[63:0], imc_word};
        if (en_q[1:0] == 2'd3) begin
          we_d      = 1'b1;
          round_d   = en_round;
          dec_round_d = nr_o - en_round;
          enc_key_d = {acc_enc_q, ew_q};
          dec_key_d = plain_dec ? {acc_enc_q, ew_q} : {acc_dec_q, imc_word};
        end
      end
      // stage 3: the write (we_q) of round Nr completes the store
      if (st_q == StFill && we_q && round_q == nr_o) st_d = StReady;
    end
  end

  // the flags of the next state: 4(Nr+1) = 44/52/60 words, Nk = 4/6/8. Both
  // compares are made for the two values n_d can take without a new key (n_q, and
  // n_q + 1 after a word cycle) under klen_q; the key handshake only selects among
  // them (a legal new key starts at n = 0: words remain and there is room, for every
  // key size). So the handshake, whose ready comes from the core's control, reaches
  // these flags through one multiplexer, not through the adders and compares.
  always_comb begin : fill_flags
    // with W = 4(Nr+1) = 44 + 8k and Nk = 4 + 2k (k = klen_q):
    //   more(n) = n != W,  room(n) = n + Nk < W  <=>  n < W - Nk = 40 + 6k,
    // compared with constants chosen by klen_q (no adder in front of a compare)
    logic [5:0] w_last, room_lim;   // W, W - Nk
    logic       more_now, room_now, more_next, room_next;
    unique case (klen_q)
      2'd1:    begin w_last = 6'd52; room_lim = 6'd46; end
      2'd2:    begin w_last = 6'd60; room_lim = 6'd52; end
      default: begin w_last = 6'd44; room_lim = 6'd40; end
    endcase
    more_now  = (n_q != w_last);
    room_now  = (n_q < room_lim);
    more_next = (n_q != w_last - 6'd1);
    room_next = (n_q < room_lim - 6'd1);
    if (key_fire && key_len_i != 2'd3) begin
      more_d = 1'b1;
      room_d = 1'b1;
    end else if (!key_fire && word_cyc) begin
      more_d = more_next;
      room_d = room_next;
    end else begin
      more_d = more_now;
      room_d = room_now;
    end
  end

  assign we_o        = we_q;
  assign round_o     = round_q;
  assign dec_round_o = dec_round_q;
  assign enc_key_o   = enc_key_q;
  assign dec_key_o   = dec_key_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : fill_regs
    if (!rst_ni) begin
      st_q      <= StNoKey;
      klen_q    <= 2'd0;
      sr_q      <= '0;
      sub_q     <= '0;
      sub_ok_q  <= 1'b0;
      rcon_q    <= 8'h00;
      ph_q      <= 3'd0;
      n_q       <= 6'd0;
      more_q    <= 1'b1;
      room_q    <= 1'b1;
      emit_q    <= 1'b0;
      ew_q      <= '0;
      en_q      <= 6'd0;
      acc_enc_q <= '0;
      acc_dec_q <= '0;
      we_q      <= 1'b0;
      round_q   <= 4'd0;
      dec_round_q <= 4'd0;
      enc_key_q <= '0;
      dec_key_q <= '0;
    end else begin
      st_q      <= st_d;
      klen_q    <= klen_d;
      sr_q      <= sr_d;
      sub_q     <= sub_d;
      sub_ok_q  <= sub_ok_d;
      rcon_q    <= rcon_d;
      ph_q      <= ph_d;
      n_q       <= n_d;
      more_q    <= more_d;
      room_q    <= room_d;
      emit_q    <= emit_d;
      ew_q      <= ew_d;
      en_q      <= en_d;
      acc_enc_q <= acc_enc_d;
      acc_dec_q <= acc_dec_d;
      we_q      <= we_d;
      round_q   <= round_d;
      dec_round_q <= dec_round_d;
      enc_key_q <= enc_key_d;
      dec_key_q <= dec_key_d;
    end
  end

endmodule

`default_nettype wire
