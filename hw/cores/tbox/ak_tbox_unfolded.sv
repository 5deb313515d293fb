// ak_tbox_unfolded: the unfolded memory-based AES core of Chaves et al. (paper 003,
// Figure 6) -- one round unit per round, one block per clock cycle, encryption and
// decryption (equivalent inverse cipher) block by block (or one of them:
// Directions). It speaks the aeskit core
// contract (docs/core-contract.md).
//
// Datapath. NrMax ak_tbox_round units in a row (8 T-box RAMs each). Round 1 takes
// in_data_i ^ round key 0 (of the block's direction), round k > 1 takes
// mix(k-1) ^ round key k-1; the result is last(Nr) ^ round key Nr. The round keys of
// both directions come from ak_rk_store (flip-flops, all rounds in parallel); each
// round unit carries the decrypt bit of its block, which picks the key.
//   IntraPipe = 0 (registry "tbox_unfolded", paper "inter-pp"): the T-box RAM output
//     registers are the only inter-round registers; latency 1 cycle per round.
//   IntraPipe = 1 (registry "tbox_unfolded_pp", paper "intra-pp"): two more registers
//     inside each round -- in front of the RAMs and in the XOR tree (ak_tbox_round
//     Pipe = 1); latency 3 cycles per round, shorter paths.
//
// Key sizes: chosen at run time up to the build's NrMax. A block travels through the
// first Nr round units and leaves from unit Nr (10/12/14): units beyond Nr see the
// stream but their results are dropped. Keys longer than the build supports are
// refused like key_len_i = 3 (the handshake completes, no key, in_ready_o low), and
// so are keys of a size KeySizes does not build.
//
// Timing (edges are rising clock edges; L = Nr (IntraPipe 0) or 3 Nr (IntraPipe 1)):
//   - latency L+2: a block accepted at edge A leaves unit Nr after edge A+L-1, is
//     written into the output buffer (ak_pipe_outbuf) at edge A+L and is in its head
//     register after edge A+L+1; the first edge at which out_valid_o is high is
//     A+L+2 (12/14/16, or 32/38/44).
//   - interval 1: a never-stalled stream moves one block per cycle.
//   - key setup 57 (AES-128; 63/76 for 192/256): ak_rk_store's word-serial fill;
//     in_ready_o is first high 57 edges after the key handshake edge K.
//
// Back-pressure: the pipeline never stalls (no clock enable on its registers and
// RAMs, whose fan-out would set the clock period). The output buffer holds
// ObDepth >= D+2 blocks and the core admits a block only while fewer than ObDepth
// are in the pipeline or the buffer (credits), so every block leaving unit Nr finds
// a free entry. in_ready_o = key ready && !key_valid_i && credit (combinational
// from out_ready_i, as the contract allows). A full-rate stream flows at one block
// per cycle whenever out_ready_i is high; no block is dropped, doubled or reordered.
//
// Keys: key_ready_o is high when the store is not filling and no block is in the
// pipeline or the output buffer. While key_valid_i is high in_ready_o is low.
//
// Reset: asynchronous, active low, every flip-flop (the RAM output latches are not
// reset; the valid bits are).
//
// Byte order: FIPS-197, see docs/core-contract.md.
//
// Parameters:
//   TagWidth   width of in_tag_i/out_tag_o (>= 1).
//   IntraPipe  0 or 1 (see above).
//   NrMax      10, 12 or 14: rounds built, so the largest key size accepted
//              (128/192/256). 16 T-box EBRs per round on ECP5: NrMax = 14 needs 224
//              DP16KD, more than the LFE5U-85F has (208); the registry builds 10.
//   RkGroup    0 .. NrMax: ak_rk_store's Group, the write chain of the round-key
//              store (0: every entry written from the fill; G >= 1: entry r from
//              chain level r / G). The key setup is the same for every value.
//   Directions 1 encryption only, 2 decryption only, 3 both (default; 1..3, checked;
//              docs/core-contract.md, "Configurations"). A block of a direction not
//              built is never accepted (in_ready_o low while it is offered). With one
//              direction every round unit holds only that direction's T-box table
//              (ak_tbox_round: packed words, 8 DP16KD a round instead of 16) and
//              ak_rk_store only that direction's round keys (an encrypt-only build
//              drops the decryption keys' flip-flops and InvMixColumns).
//   KeySizes   mask of the key sizes accepted (1..7, checked; bit 0 128, bit 1 192,
//              bit 2 256; default 7), passed to ak_rk_store; a key of a size not
//              built (or above NrMax) is refused like key_len_i = 3.

`default_nettype none

module ak_tbox_unfolded #(
  parameter int TagWidth  = 1,
  parameter int IntraPipe = 0,
  parameter int NrMax     = 10,
  parameter int RkGroup   = 0,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [127:0]        in_data_i,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [127:0]        out_data_o,
  output logic [TagWidth-1:0] out_tag_o
);

  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_unfolded: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_tbox_unfolded: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end
  if (IntraPipe != 0 && IntraPipe != 1) begin : g_bad_intra_pipe
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_unfolded: IntraPipe must be 0 or 1, got %0d", IntraPipe);
`else
    $fatal(1, "ak_tbox_unfolded: IntraPipe must be 0 or 1, got %0d", IntraPipe);
`endif
  end
  if (NrMax != 10 && NrMax != 12 && NrMax != 14) begin : g_bad_nr_max
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_unfolded: NrMax must be 10, 12 or 14, got %0d", NrMax);
`else
    $fatal(1, "ak_tbox_unfolded: NrMax must be 10, 12 or 14, got %0d", NrMax);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_unfolded: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_tbox_unfolded: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_unfolded: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_tbox_unfolded: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  localparam bit Enc = Directions[0];   // encryption built
  localparam bit Dec = Directions[1];   // decryption built
  // key_len_i codes accepted: the sizes built that NrMax rounds can run
  localparam bit [2:0] NrSizes  = (NrMax >= 14) ? 3'b111 : (NrMax >= 12) ? 3'b011 : 3'b001;
  localparam bit [3:0] KeyBuilt = {1'b0, KeySizes[2:0] & NrSizes};

  localparam int S = (IntraPipe == 1) ? 3 : 1;   // cycles per round
  localparam int D = NrMax * S;           // pipeline levels
  // output buffer: one block per cycle needs Depth >= pipeline latency + 2
  localparam int ObDepth = 1 << $clog2(D + 2);

  // levels 1 .. D: valid bit and tag of the block in the last register of each level
  logic [D:1]          vld_q, vld_d;
  logic [D:2]          stop_q, stop_d;            // level j - 1 is a block's last
  logic [TagWidth-1:0] tag_q [D+1];        // index 0 unused
  logic [TagWidth-1:0] tag_d [D+1];

  logic               in_fire;
  logic               ob_space;           // the output buffer admits a block
  logic               ob_empty;           // no block in the pipeline or the buffer
  logic               p_vld;              // a block leaves unit Nr
  logic [127:0]       p_data;
  logic [TagWidth-1:0] p_tag;
  logic               key_fire_ok;        // the store may see the key
  logic [1:0]         ks_len;             // key_len_i, 3 if not built
  logic               dec_in;             // in_decrypt_i as built
  logic               dir_ok;             // the offered block's direction is built
  logic               ks_key_ready, ks_ready;
  logic [3:0]         nr;
  logic [15*128-1:0]  enc_keys, dec_keys;

  logic [127:0] rnd_in  [NrMax+1];        // index 1 .. NrMax used
  logic         rnd_din [NrMax+1];
  logic [127:0] mix     [NrMax+1];
  logic [127:0] last    [NrMax+1];
  logic         rnd_dec [NrMax+1];
  logic [127:0] key_after [NrMax+1];      // round key k in the direction of unit k

  // ------------------------------------------------------------------------------
  // Handshakes
  // ------------------------------------------------------------------------------
  assign key_ready_o = ks_key_ready && ob_empty;
  assign key_fire_ok = key_valid_i && ob_empty;
  assign dec_in      = (Enc && Dec) ? in_decrypt_i : Dec;
  assign dir_ok      = in_decrypt_i ? Dec : Enc;
  assign in_ready_o  = ks_ready && !key_valid_i && dir_ok && ob_space;
  assign in_fire     = in_valid_i && in_ready_o;

  always_comb begin : key_len_check
    ks_len = KeyBuilt[key_len_i] ? key_len_i : 2'd3;
  end

  // RkGroup = 2 (tbox_unfolded_pp): the fill's writes travel down a register chain
  // beside the round units and entry r is written from level r / 2 (ak_rk_store
  // Group), so no net carries a write from the fill to every key register across
  // the die; entry r is final r / 2 <= r edges after ready, before any block
  // reaches its round r
  ak_rk_store #(
    .NrMax     (NrMax),
    .Group     (RkGroup),
    .Directions(Directions),
    .KeySizes  (KeySizes)
  ) u_rk_store (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_fire_ok),
    .key_ready_o(ks_key_ready),
    .key_i      (key_i),
    .key_len_i  (ks_len),
    .ready_o    (ks_ready),
    .nr_o       (nr),
    .sw_we_i    (1'b0),
    .sw_dec_i   (1'b0),
    .sw_round_i (4'd0),
    .sw_key_i   (128'h0),
    .enc_keys_o (enc_keys),
    .dec_keys_o (dec_keys)
  );

  // entries above NrMax are constant zero in the store
  if (NrMax < 14) begin : g_unused_keys
    logic unused_keys;
    assign unused_keys = ^{enc_keys[15*128-1:(NrMax+1)*128], dec_keys[15*128-1:(NrMax+1)*128]};
  end

  // ------------------------------------------------------------------------------
  // Round units
  // ------------------------------------------------------------------------------
  assign rnd_in[0]    = '0;
  assign rnd_din[0]   = 1'b0;
  assign mix[0]       = '0;
  assign last[0]      = '0;
  assign rnd_dec[0]   = 1'b0;
  assign key_after[0] = dec_in ? dec_keys[127:0] : enc_keys[127:0];

  for (genvar k = 1; k <= NrMax; k++) begin : g_round
    if (k == 1) begin : g_first
      assign rnd_in[k]  = in_data_i ^ key_after[0];
      assign rnd_din[k] = dec_in;
    end else begin : g_next
      assign rnd_in[k]  = mix[k-1] ^ key_after[k-1];
      assign rnd_din[k] = rnd_dec[k-1];
    end

    ak_tbox_round #(
      .Pipe      (IntraPipe),
      .Directions(Directions)
    ) u_round (
      .clk_i  (clk_i),
      .rst_ni (rst_ni),
      .en_i   (1'b1),
      .state_i(rnd_in[k]),
      .dec_i  (rnd_din[k]),
      .final_i(nr == 4'(k)),
      .mix_o  (mix[k]),
      .last_o (last[k]),
      .dec_o  (rnd_dec[k])
    );

    assign key_after[k] = rnd_dec[k] ? dec_keys[k*128 +: 128] : enc_keys[k*128 +: 128];
  end

  // ------------------------------------------------------------------------------
  // Output: unit Nr (the last register level of round Nr)
  // ------------------------------------------------------------------------------
  always_comb begin : output_select
    p_vld  = vld_q[NrMax*S];
    p_tag  = tag_q[NrMax*S];
    p_data = last[NrMax] ^ key_after[NrMax];
    for (int k = 10; k < NrMax; k += 2) begin
      if (nr == 4'(k)) begin
        p_vld  = vld_q[k*S];
        p_tag  = tag_q[k*S];
        p_data = last[k] ^ key_after[k];
      end
    end
  end

  ak_pipe_outbuf #(
    .DataWidth(128 + TagWidth),
    .Depth(ObDepth)
  ) u_outbuf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .accept_i   (in_fire),
    .space_o    (ob_space),
    .empty_o    (ob_empty),
    .wvalid_i   (p_vld),
    .wdata_i    ({p_tag, p_data}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o ({out_tag_o, out_data_o})
  );

  // ------------------------------------------------------------------------------
  // Valid bits and tags: move one level per cycle (the pipeline never stalls); the
  // block in the output level leaves into the output buffer
  // ------------------------------------------------------------------------------
  // stop_q[j]: level j - 1 is the last level of a block (j - 1 = S * nr), decoded
  // from nr into flip-flops. nr changes only at a key handshake, which waits for an
  // empty pipeline, and no block is accepted before the store's ready_o, 57 edges
  // later, so the one-cycle lag is never seen; the valid chain then has no path
  // from the key store (the compare behind nr was the critical path of
  // tbox_unfolded_pp with its RAMs pinned: 5.2 ns of logic)
  always_comb begin : stop_next
    for (int j = 2; j <= D; j++) begin
      stop_d[j] = ((j - 1) % S == 0) && (32'(nr) == 32'((j - 1) / S));
    end
  end

  always_comb begin : valid_next
    tag_d[0] = tag_q[0];
    vld_d[1] = in_fire;
    tag_d[1] = in_tag_i;
    for (int j = 2; j <= D; j++) begin
      vld_d[j] = vld_q[j-1] && !stop_q[j];
      tag_d[j] = tag_q[j-1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : valid_regs
    if (!rst_ni) begin
      vld_q  <= '0;
      stop_q <= '0;
      for (int j = 0; j <= D; j++) tag_q[j] <= '0;
    end else begin
      vld_q  <= vld_d;
      stop_q <= stop_d;
      for (int j = 0; j <= D; j++) tag_q[j] <= tag_d[j];
    end
  end

endmodule

`default_nettype wire
