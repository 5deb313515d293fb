// ak_rk_ram: the round-key RAM bank of a folded core (paper 003, Figure 9): the
// encryption and the equivalent-inverse-cipher decryption round keys of the loaded
// key in one 32 x 128-bit block RAM addressed by {decrypt, round}, plus the two
// round-0 keys in flip-flops (a folded core needs them in the cycle that accepts a
// block, before any RAM read could be issued). Two banks of 16 x 128 bits (one per
// direction, read together, the output selected by the registered rd_dec_i), so
// that the fill's two write ports (encryption, decryption) never wait on each other.
//
//   rd_key_o    = enc round key r (rd_dec_i = 0) or dec round key r (rd_dec_i = 1),
//                 r = rd_round_i, same numbering as ak_rk_store (dec round r key:
//                 r = 0 -> enc key Nr, 1 .. Nr-1 -> InvMixColumns(enc key Nr-r),
//                 r = Nr -> enc key 0); entries r > Nr are not defined.
//   enc_key0_o  = enc round key 0 (the cipher key's first 128 bits)
//   dec_key0_o  = dec round key 0 (= enc round key Nr)
//
// Filled by ak_rk_fill (as ak_rk_store: hardware key expansion) or by software
// through sw_* (one round key of one direction per cycle;
// ignored in a cycle in which the fill writes; write after ready_o; nr_o/ready_o
// describe the last key loaded through key_i).
//
// Timing (K = key handshake edge): ak_rk_fill writes one round key per direction
//   at a time (a middle round's decryption key one cycle after its encryption key;
//   the round-0 registers take the fill's one-hot round-0 enables, flip-flops);
//   ready_o rises rk_fill_cycles = 57/63/76 edges after K
//   (the core key setup if its in_ready_o follows ready_o). Read: synchronous, latency 1 -- the key of the
//   address presented before a rising edge with rd_en_i high appears after that edge
//   and holds while rd_en_i is low. A read of an entry written at the same edge
//   returns undefined data (a core reads only after ready_o). enc_key0_o/dec_key0_o:
//   flip-flops, valid from ready_o.
// Mapping: Distributed = 0: (* ram_style = "block" *): synth_ecp5 maps each bank to 4
//   DP16KD (512 x 36 pseudo dual port, 16 words used) -- the paper used four 32-bit
//   BRAMs for both directions; ECP5's 36-bit ports and the single write port per bank
//   double that. The read then leaves the block RAM's output latch (5.6 ns clock to
//   output on ECP5 -6; the flow cannot give a 36-bit port its output register).
//   Distributed = 1: (* ram_style = "distributed" *): each bank is 32 TRELLIS_DPR16X4
//   (16 x 4 LUT RAM, 64 LUT4) read asynchronously into the read registers, so the
//   read word comes from flip-flops: no block RAM, a short read path.
//   The RAM contents are not reset; ready_o and the read select are.
// Byte order: as ak_rk_store.
// Parameters:
//   Distributed  0: block RAM (paper 003's mapping, the default); 1: LUT RAM.
//   Directions   the banks built (docs/core-contract.md, "Configurations"): 1 the
//                encryption bank only, 2 the decryption bank only, 3 both (default).
//                A bank not built reads as zero (rd_key_o is the built bank's word,
//                whatever rd_dec_i), and so does its round-0 key.
//   KeySizes     mask of the key sizes accepted (1..7, default 7), passed to
//                ak_rk_fill: a key of another size is refused like key_len_i = 3.

`default_nettype none

module ak_rk_ram #(
  parameter bit Distributed = 1'b0,
  parameter int Directions  = 3,
  parameter int KeySizes    = 7
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         key_valid_i,
  output logic         key_ready_o,
  input  logic [255:0] key_i,
  input  logic [1:0]   key_len_i,
  output logic         ready_o,
  output logic [3:0]   nr_o,
  // software load port: one round key per cycle
  input  logic         sw_we_i,
  input  logic         sw_dec_i,
  input  logic [3:0]   sw_round_i,
  input  logic [127:0] sw_key_i,
  // read port (latency 1)
  input  logic         rd_en_i,
  input  logic         rd_dec_i,
  input  logic [3:0]   rd_round_i,
  output logic [127:0] rd_key_o,
  // round-0 keys (flip-flops)
  output logic [127:0] enc_key0_o,
  output logic [127:0] dec_key0_o
);

  logic         load;
  logic         clear_q;   // the cycle after a key handshake: clear the round-0 keys
  logic         we;          // the fill's encryption write
  logic [3:0]   round;
  logic [14:0]  we_round;    //   one-hot round (flip-flops)
  logic         dwe;         // the fill's decryption write
  logic [3:0]   dec_round;
  logic [14:0]  dwe_round;   //   one-hot round (flip-flops)
  logic [127:0] enc_key;
  logic [127:0] dec_key;

  logic [127:0] key0_enc_q, key0_enc_d;
  logic [127:0] key0_dec_q, key0_dec_d;
  logic [127:0] rd_enc_q, rd_dec_q;   // the two banks' read registers
  logic         rd_sel_q;             // bank of the last read

  localparam bit Enc = Directions[0];   // encryption bank built
  localparam bit Dec = Directions[1];   // decryption bank built

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

  // Two banks of 16 x 128 bits, one per direction, each with one write and one read
  // port: the fill writes an encryption and a decryption key in the same cycle.
  if (Enc) begin : g_enc_bank
    (* ram_style = Distributed ? "distributed" : "block" *) logic [127:0] enc_mem [16];

    always_ff @(posedge clk_i) begin : enc_bank_write
      if (we)                        enc_mem[round] <= enc_key;
      else if (sw_we_i && !sw_dec_i) enc_mem[sw_round_i] <= sw_key_i;
    end

    always_ff @(posedge clk_i) begin : enc_bank_read
      if (rd_en_i) rd_enc_q <= enc_mem[rd_round_i];
    end
  end else begin : g_no_enc_bank
    assign rd_enc_q = '0;
    logic unused_enc_wr;
    assign unused_enc_wr = ^{we, round, enc_key};
  end

  if (Dec) begin : g_dec_bank
    (* ram_style = Distributed ? "distributed" : "block" *) logic [127:0] dec_mem [16];

    always_ff @(posedge clk_i) begin : dec_bank_write
      if (dwe)                       dec_mem[dec_round] <= dec_key;
      else if (sw_we_i && sw_dec_i)  dec_mem[sw_round_i] <= sw_key_i;
    end

    always_ff @(posedge clk_i) begin : dec_bank_read
      if (rd_en_i) rd_dec_q <= dec_mem[rd_round_i];
    end
  end else begin : g_no_dec_bank
    assign rd_dec_q = '0;
    logic unused_dec_wr;
    assign unused_dec_wr = ^{dwe, dec_round, dec_key};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : read_sel_reg
    if (!rst_ni)      rd_sel_q <= 1'b0;
    else if (rd_en_i) rd_sel_q <= rd_dec_i;
  end

  if (Enc && Dec) begin : g_rd_both
    assign rd_key_o = rd_sel_q ? rd_dec_q : rd_enc_q;
  end else begin : g_rd_one
    assign rd_key_o = Dec ? rd_dec_q : rd_enc_q;
    logic unused_sel;
    assign unused_sel = rd_sel_q;
  end

  // the fill's enables of rounds above 0 address the RAM banks through round/dec_round
  logic unused_round;
  assign unused_round = ^{we_round[14:1], dwe_round[14:1]};

  always_comb begin : key0_next
    key0_enc_d = key0_enc_q;
    key0_dec_d = key0_dec_q;
    if (clear_q) begin
      // no stale round-0 key while a new key is expanded; the clear enable comes
      // from a flip-flop (the cycle after the handshake, ready_o is low then)
      key0_enc_d = '0;
      key0_dec_d = '0;
    end else begin
      // the fill's round-0 writes (their enables are flip-flops) before software's
      if (we_round[0])
        key0_enc_d = enc_key;
      else if (!we && sw_we_i && !sw_dec_i && sw_round_i == 4'd0)
        key0_enc_d = sw_key_i;
      if (dwe_round[0])
        key0_dec_d = dec_key;
      else if (!dwe && sw_we_i && sw_dec_i && sw_round_i == 4'd0)
        key0_dec_d = sw_key_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : clear_reg
    if (!rst_ni) clear_q <= 1'b0;
    else         clear_q <= load;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key0_regs
    if (!rst_ni) begin
      key0_enc_q <= '0;
      key0_dec_q <= '0;
    end else begin
      key0_enc_q <= key0_enc_d;
      key0_dec_q <= key0_dec_d;
    end
  end

  // a round-0 key of a bank not built is zero (its register has no load and goes)
  assign enc_key0_o = Enc ? key0_enc_q : '0;
  assign dec_key0_o = Dec ? key0_dec_q : '0;

endmodule

`default_nettype wire
