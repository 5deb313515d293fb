// ak_rk_store: register-based round-key store for pipelined (unfolded) cores: every
// encryption round key and every equivalent-inverse-cipher decryption round key of
// the loaded key, all at once on two wide outputs.
//
//   enc_keys_o[r*128 +: 128] = round key r of FIPS-197 (w[4r .. 4r+3]), r = 0 .. Nr
//   dec_keys_o[r*128 +: 128] = decryption round key r of the equivalent inverse
//                              cipher (FIPS-197 5.3.5): r = 0 -> enc key Nr,
//                              r = 1 .. Nr-1 -> InvMixColumns(enc key Nr-r),
//                              r = Nr -> enc key 0
//   entries r > Nr are zero (cleared in the cycle after a key handshake: the clear
//   enable comes from a flip-flop, so the handshake does not fan out to the 1,024
//   flip-flops of rounds 11 .. 14 across the die; the fill writes no round above 10
//   before its 44th cycle and ready_o is low until then); entries r > NrMax are
//   constant zero (no flip-flops).
//
// Filled by ak_rk_fill (hardware key expansion, word-serial), or in software
// through the sw_* port, which
// writes one round key of one direction per cycle (the paper's co-processor computes
// the expanded key in software and transfers it). A software write in a cycle in
// which the hardware fill writes is ignored; write after ready_o. nr_o/ready_o
// always describe the last key loaded through key_i (load a key of the right length
// first, then overwrite round keys in software).
//
// Timing (K = key handshake edge): ak_rk_fill writes one round key per direction at
//   a time (a middle round's decryption key one cycle after its encryption key, at
//   least three edges before ready_o rises; level-0 entries take the fill's one-hot
//   enables, flip-flops); ready_o rises rk_fill_cycles = 57/63/76 edges after K, the key setup
//   of a core gating in_ready_o with ready_o. key_ready_o is high whenever no fill runs; the
//   core must itself hold key_valid_i back while blocks are in flight. Outputs come
//   straight from flip-flops (read latency 0). Software writes appear after the edge.
// Illegal key_len_i = 3: the handshake completes and ready_o stays low until a legal
//   key is loaded.
// Byte order: key_i as in the core contract; round keys as FIPS-197 (byte 0 in
//   [127:120] of each 128-bit entry).
// Parameters:
//   NrMax  highest round number stored (10, 12 or 14; default 14): a core built for
//          AES-128 only sets 10 and saves the flip-flops of rounds 11 .. 14.
//   Group  0 (default): every entry is written from the fill directly. G >= 1: the
//          writes (and the clear) travel down a chain of registers, one level per
//          cycle, and entry r is written from level r / G, i.e. r / G cycles later
//          (level 0 is the fill itself). An unrolled core whose stage r sits next to
//          entry r then has no net from the fill across the die: each level feeds
//          G neighbouring entries and the next level (a broadcast of the write to
//          all entries was the critical path of ttable_unrolled: one LUT, 12 ns of
//          routing). Level k >= 1 also carries the write enables of its own
//          entries, decoded from level k-1 and registered, so an entry's clock
//          enable comes straight from a flip-flop beside it. The cost is about
//          (NrMax / G) x (267 + 2G) flip-flops. Round key r is final
//          r / G <= r edges after the edge at which ready_o rises; a core whose
//          block reaches its round-r key no earlier than r edges after it was
//          accepted (every pipelined core: one round at least one cycle) never sees
//          a stale key, so its key setup does not change. Software writes land
//          r / G edges later too.
//   Directions  the outputs built (docs/core-contract.md, "Configurations"): 1
//          enc_keys_o only, 2 dec_keys_o only, 3 both (default); the other output is
//          constant zero and its flip-flops are left out.
//   KeySizes  mask of the key sizes accepted (1..7, default 7), passed to
//          ak_rk_fill: a key of another size is refused like key_len_i = 3.

`default_nettype none

module ak_rk_store #(
  parameter int NrMax      = 14,
  parameter int Group      = 0,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              key_valid_i,
  output logic              key_ready_o,
  input  logic [255:0]      key_i,
  input  logic [1:0]        key_len_i,
  output logic              ready_o,
  output logic [3:0]        nr_o,
  // software load port: one round key per cycle
  input  logic              sw_we_i,
  input  logic              sw_dec_i,
  input  logic [3:0]        sw_round_i,
  input  logic [127:0]      sw_key_i,
  // all round keys
  output logic [15*128-1:0] enc_keys_o,
  output logic [15*128-1:0] dec_keys_o
);

  if (Group < 0 || Group > NrMax) begin : g_bad_group
`ifdef __ICARUS__
    initial $fatal(1, "ak_rk_store: Group must be 0 .. NrMax, got %0d", Group);
`else
    $fatal(1, "ak_rk_store: Group must be 0 .. NrMax, got %0d", Group);
`endif
  end
  if (NrMax != 10 && NrMax != 12 && NrMax != 14) begin : g_bad_nr_max
`ifdef __ICARUS__
    initial $fatal(1, "ak_rk_store: NrMax must be 10, 12 or 14, got %0d", NrMax);
`else
    $fatal(1, "ak_rk_store: NrMax must be 10, 12 or 14, got %0d", NrMax);
`endif
  end

  logic         load;
  logic         clear_q;   // the cycle after a key handshake: clear rounds 11 .. 14
  logic         we;          // the fill's encryption write
  logic [3:0]   round;
  logic [14:0]  we_round;    //   one-hot round (flip-flops)
  logic         dwe;         // the fill's decryption write
  logic [3:0]   dec_round;
  logic [14:0]  dwe_round;   //   one-hot round (flip-flops)
  logic [127:0] enc_key;
  logic [127:0] dec_key;

  localparam bit Enc = Directions[0];   // enc_keys_o built
  localparam bit Dec = Directions[1];   // dec_keys_o built

  ak_rk_fill #(
    .Directions(Directions),
    .KeySizes  (KeySizes)
  ) u_fill (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_valid_i),
    .key_ready_o(key_ready_o),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .ready_o    (ready_o),
    .nr_o       (nr_o),
    .load_o     (load),
    .we_o          (we),
    .round_o       (round),
    .we_round_o    (we_round),
    .enc_key_o     (enc_key),
    .dec_we_o      (dwe),
    .dec_round_o   (dec_round),
    .dec_we_round_o(dwe_round),
    .dec_key_o     (dec_key)
  );

  // One write-data multiplexer per direction, shared by all entries (fill before
  // software); each entry only decodes its enable, which maps to the flip-flops' CE.
  logic [127:0] wdata_enc, wdata_dec;
  assign wdata_enc = we ? enc_key : sw_key_i;
  assign wdata_dec = dwe ? dec_key : sw_key_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin : clear_reg
    if (!rst_ni) clear_q <= 1'b0;
    else         clear_q <= load;
  end

  // ------------------------------------------------------------------------------
  // Write chain: level 0 is this cycle's write (fill before software) and clear;
  // level k is level k-1 one cycle later. Entry r takes its writes from level
  // Lvl(r) = r / Group (Group = 0: every entry from level 0).
  // ------------------------------------------------------------------------------
  localparam int Levels = (Group == 0) ? 1 : NrMax / Group + 1;
  localparam int WrW    = 1 + 4 + 128;   // {valid, round, data} of one direction

  logic [WrW-1:0] wr_enc [Levels];
  logic [WrW-1:0] wr_dec [Levels];
  logic           wr_clr [Levels];

  assign wr_enc[0] = {we || (sw_we_i && !sw_dec_i), we ? round : sw_round_i, wdata_enc};
  assign wr_dec[0] = {dwe || (sw_we_i && sw_dec_i), dwe ? dec_round : sw_round_i, wdata_dec};
  assign wr_clr[0] = clear_q;

  // Each level k >= 1 also carries the write enables of its own entries, decoded
  // from level k-1 and registered: an entry's clock enable then comes straight from
  // a flip-flop beside it (no compare behind the chain's long wires).
  logic [3:0][14:0] pre_enc [Levels];  // pre_enc[k][w][r]: level k writes word w of
  logic [3:0][14:0] pre_dec [Levels];  // enc (dec) entry r; one copy per word
  assign pre_enc[0] = '0;
  assign pre_dec[0] = '0;
  if (Group == 0) begin : g_no_chain
    logic unused_pre;
    assign unused_pre = ^{pre_enc[0], pre_dec[0]};
  end

  for (genvar k = 1; k < Levels; k++) begin : g_level
    logic [14:0] en_enc_d, en_dec_d;
    always_comb begin : level_decode
      en_enc_d = '0;
      en_dec_d = '0;
      for (int r = 0; r < 15; r++) begin
        if (Group != 0 && r / (Group == 0 ? 1 : Group) == k) begin
          en_enc_d[r] = wr_enc[k-1][WrW-1] && (wr_enc[k-1][WrW-2 -: 4] == 4'(r));
          en_dec_d[r] = wr_dec[k-1][WrW-1] && (wr_dec[k-1][WrW-2 -: 4] == 4'(r));
        end
      end
    end
    // the level's registers are local; the arrays are only continuously assigned
    logic [WrW-1:0] enc_q, dec_q;
    logic           clr_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin : level_reg
      if (!rst_ni) begin
        enc_q <= '0;
        dec_q <= '0;
        clr_q <= 1'b0;
      end else begin
        enc_q <= wr_enc[k-1];
        dec_q <= wr_dec[k-1];
        clr_q <= wr_clr[k-1];
      end
    end
    assign wr_enc[k] = enc_q;
    assign wr_dec[k] = dec_q;
    assign wr_clr[k] = clr_q;
    // The enables: one register per 32-bit word of an entry (a word sits beside the
    // lane that uses it; one enable for all 128 flip-flops of an entry was a long net
    // across four lanes). Each copy has its own always_ff marked keep, or the
    // synthesis merges the equal copies back into one.
    for (genvar w = 0; w < 4; w++) begin : g_wen
      logic [14:0] pe_q, pd_q;
      (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : wen_reg
        if (!rst_ni) begin
          pe_q <= '0;
          pd_q <= '0;
        end else begin
          pe_q <= en_enc_d;
          pd_q <= en_dec_d;
        end
      end
      assign pre_enc[k][w] = pe_q;
      assign pre_dec[k][w] = pd_q;
    end
  end

  for (genvar r = 0; r < 15; r++) begin : g_entry
    if (r <= NrMax) begin : g_reg
      // rounds 0 .. 10 are written by every key; higher ones are cleared on a load
      localparam bit Clear = (r > 10);
      localparam int Lvl   = (Group == 0) ? 0 : r / Group;
      logic [127:0] enc_q, enc_d;
      logic [127:0] dec_q, dec_d;
      logic [3:0]   enc_we, dec_we;   // per 32-bit word

      if (Lvl == 0) begin : g_direct
        // the fill's one-hot enables are flip-flops; software decodes its round
        assign enc_we = {4{we_round[r]
                            || (!we && sw_we_i && !sw_dec_i && sw_round_i == 4'(r))}};
        assign dec_we = {4{dwe_round[r]
                            || (!dwe && sw_we_i && sw_dec_i && sw_round_i == 4'(r))}};
      end else begin : g_pre
        logic unused_we;   // the chain decodes this entry's enables itself
        assign unused_we = we_round[r] ^ dwe_round[r];
        for (genvar w = 0; w < 4; w++) begin : g_w
          assign enc_we[w] = pre_enc[Lvl][w][r];
          assign dec_we[w] = pre_dec[Lvl][w][r];
        end
      end

      always_comb begin : entry_next
        enc_d = enc_q;
        dec_d = dec_q;
        if (Clear && wr_clr[Lvl]) begin
          enc_d = '0;
          dec_d = '0;
        end else begin
          for (int w = 0; w < 4; w++) begin
            if (enc_we[w]) enc_d[32*w +: 32] = wr_enc[Lvl][32*w +: 32];
            if (dec_we[w]) dec_d[32*w +: 32] = wr_dec[Lvl][32*w +: 32];
          end
        end
      end

      always_ff @(posedge clk_i or negedge rst_ni) begin : entry_reg
        if (!rst_ni) begin
          enc_q <= '0;
          dec_q <= '0;
        end else begin
          enc_q <= enc_d;
          dec_q <= dec_d;
        end
      end

      // an output not built is zero: its flip-flops have no load and go
      assign enc_keys_o[r*128 +: 128] = Enc ? enc_q : '0;
      assign dec_keys_o[r*128 +: 128] = Dec ? dec_q : '0;
    end else begin : g_zero
      logic unused_we;
      assign unused_we = we_round[r] ^ dwe_round[r];
      assign enc_keys_o[r*128 +: 128] = '0;
      assign dec_keys_o[r*128 +: 128] = '0;
    end
  end

endmodule

`default_nettype wire
