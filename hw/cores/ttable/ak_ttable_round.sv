// ak_ttable_round: paper 004's "round" module: four eight-stage T-table lanes (one
// ak_ttable_stage: a full 128-bit round) with a feedback loop, eight blocks in
// flight, one round of one block finished per cycle. Encryption and decryption
// (equivalent inverse cipher) per block, 128/192/256-bit keys (or a subset:
// Directions, KeySizes). It speaks the aeskit core contract (docs/core-contract.md).
//
// Schedule. The stage takes a new state every cycle and returns it eight cycles
// later, so the loop is a ring of eight slots. A control ring ctl_q[0..7] travels
// with the states (valid, direction, round, tag): ctl_q[0] belongs to the state at
// the stage input, ctl_q[7] to the state leaving it. A state that leaves after a
// middle round goes round again; one that leaves after round Nr goes to the output
// register and frees its slot, which a new block (round key 0 added, columns in
// processing order) may take at the same edge. The stage's table selects (direction,
// last round) and the round key follow the slot: the key is read from ak_rk_ram two
// cycles ahead and registered (the stage wants it four cycles after the state).
//
// Timing (Nr = 10/12/14; A = accepting edge):
//   - latency 8*Nr+2 (82/98/114): round r leaves the stage at edge A+8r; the last
//     one is written into the output buffer (ak_pipe_outbuf) at edge A+8*Nr and is in
//     its head register after edge A+8*Nr+1.
//   - interval: a block may be accepted at any edge at which the slot passing the
//     stage input is free (or being freed). A continuous, never-stalled stream is
//     accepted in bursts of eight consecutive edges, 8*Nr cycles apart: blocks j and
//     j+8 are exactly 8*Nr cycles apart, Nr cycles per block on average (10/12/14).
//   - key setup 57/63/76: ak_rk_ram's word-serial fill (ak_rk_fill).
//
// Back-pressure. The ring never stalls (no clock enable: a stall enable would fan
// out to every register and block RAM of the stage and set the clock period).
// Instead a block is admitted only while the output buffer (16 entries) has credit
// for it (ak_pipe_outbuf counts admitted, untaken blocks), so every block leaving
// the ring finds a free entry; out_ready_i low reaches only the buffer and the
// credit. in_ready_o depends combinationally on out_ready_i and key_valid_i.
//
// Fmax. Every select of the ring and the stage comes from a register: the
// "finished", "free", "round Nr-1" flags and the next round number are made one
// cycle ahead (fin_q, free_q, pre_q, inc_q; last_q from them), and a free slot takes
// the new block's state whether or not one is accepted (its busy bit says which), so
// the input handshake selects nothing in the 128-bit datapath. The
// lanes register each T-table word once after the block RAM without reset, which
// the synthesis flow turns into the DP16KD's output register (docs/synthesis.md).
//
// Key loads. key_ready_o is high when no block is in the ring or the output buffer
// and the key RAM is not filling; while key_valid_i is high in_ready_o is low.
// key_len_i = 3 (or a size KeySizes does not build) completes the handshake and
// leaves the core without a key (in_ready_o low).
//
// Reset: asynchronous, active low, every register (block RAM output latches
// excepted); a reset mid-block leaves the core idle without a key.
//
// Byte order: FIPS-197 (docs/core-contract.md).
//
// Parameters:
//   TagWidth    width of in_tag_i/out_tag_o (>= 1).
//   Directions  directions built (docs/core-contract.md, "Configurations"; 1..3,
//               checked): 1 encryption only, 2 decryption only, 3 both (default).
//               A block of a direction not built is never accepted (in_ready_o low
//               while it is offered, so ready depends on the offered in_decrypt_i).
//               With one direction the stage's ROMs hold that direction's tables
//               only (ak_ttable_stage EncTables/DecTables), the key RAM that
//               direction's bank only, an encrypt-only ak_rk_fill leaves out the
//               decryption round keys (InvMixColumns), and the ring's direction bit
//               and column-order multiplexers are constants.
//   KeySizes    mask of the key sizes built (1..7, checked; bit 0 128, bit 1 192,
//               bit 2 256; default 7). A key of another size completes the handshake
//               and leaves the core keyless, as key_len_i = 3 does; ak_rk_fill leaves
//               out the key words and schedule steps of the sizes not built. The
//               cycle counts of a built size do not change.

`default_nettype none

module ak_ttable_round #(
  parameter int TagWidth   = 1,
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
    initial $fatal(1, "ak_ttable_round: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_ttable_round: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_round: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_ttable_round: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_round: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_ttable_round: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  localparam bit Enc = Directions[0];   // encryption built
  localparam bit Dec = Directions[1];   // decryption built

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  localparam int CtlW = 6 + TagWidth;   // {busy, dec, rnd[3:0], tag}
  localparam int BusyB = CtlW - 1;
  localparam int DecB  = CtlW - 2;
  // output buffer: the ring's 8 blocks plus the 2 cycles from a write to the head, so a
  // never-stalled stream never runs out of credit
  localparam int ObDepth = 16;

  logic [CtlW-1:0]     ctl_q [8];
  logic [CtlW-1:0]     ctl_d0;
  logic [127:0]        st_q, st_d;
  logic [127:0]        kq_q, kq_d;
  logic                fin_q, fin_d;      // ctl_q[7] finished its last round (registered)
  logic                last_q, last_d;    // ctl_q[0] is in its last round (registered)
  logic                free_q, free_d;    // ctl_q[7] is free or finished (registered)
  logic                pre_q, pre_d;      // ctl_q[7] is in round Nr-1 (registered)
  logic [3:0]          inc_q, inc_d;      // ctl_q[7]'s round + 1 (registered)

  logic [3:0]   nr;
  logic         keys_ready, keys_key_ready;
  logic [127:0] rd_key, enc_key0, dec_key0;

  logic         in_fire, key_fire, ob_space, ob_empty;
  logic         lv_dec;                    // the slot leaving the stage
  logic         dec_in;                    // in_decrypt_i as built
  logic         dir_ok;                    // the offered block's direction is built
  logic [127:0] ark, stage_out;

  // a direction bit as built: a constant with one direction
  function automatic logic dsel(input logic d);
    return (Enc && Dec) ? d : Dec;
  endfunction

  function automatic logic [127:0] order(input logic [127:0] k, input logic dec);
    return dec ? {k[127:96], k[31:0], k[63:32], k[95:64]} : k;
  endfunction

  // ------------------------------------------------------------------------------
  // Round keys: read in the cycle of ctl_q[2], registered for ctl_q[4]
  // ------------------------------------------------------------------------------
  ak_rk_ram #(
    .Distributed(1'b1),  // LUT RAM: the key word comes from flip-flops, not a RAM latch
    .Directions (Directions),
    .KeySizes   (KeySizes)
  ) u_keys (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_fire),
    .key_ready_o(keys_key_ready),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .ready_o    (keys_ready),
    .nr_o       (nr),
    .sw_we_i    (1'b0),
    .sw_dec_i   (1'b0),
    .sw_round_i (4'd0),
    .sw_key_i   (128'h0),
    .rd_en_i    (1'b1),
    .rd_dec_i   (dsel(ctl_q[2][DecB])),
    .rd_round_i (ctl_q[2][DecB-1 -: 4]),
    .rd_key_o   (rd_key),
    .enc_key0_o (enc_key0),
    .dec_key0_o (dec_key0)
  );

  assign kq_d = order(rd_key, dsel(ctl_q[3][DecB]));

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign lv_dec  = dsel(ctl_q[7][DecB]);

  // the ring moves every cycle, so the slot at ctl_q[7] next cycle is ctl_q[6] now:
  // its "finished", "free" and "in round Nr-1" flags and its next round number are
  // computed one cycle ahead and registered, so the ring's selects (!free_q: the
  // leaving state goes round again) and the stage's "last round" flag come from
  // flip-flops: no compare or adder in front of them, and the handshake selects
  // nothing in the 128-bit datapath (a free slot takes the new block's state
  // whether or not one is accepted; only its busy bit says which)
  always_comb begin : flags_next
    fin_d  = ctl_q[6][BusyB] && (ctl_q[6][DecB-1 -: 4] == nr);
    free_d = !ctl_q[6][BusyB] || fin_d;
    pre_d  = (ctl_q[6][DecB-1 -: 4] == nr - 4'd1);
    inc_d  = ctl_q[6][DecB-1 -: 4] + 4'd1;
    // a new block starts in round 1 (never the last: Nr >= 10)
    last_d = !free_q && pre_q;
  end

  assign key_ready_o = keys_key_ready && ob_empty;
  assign key_fire    = key_valid_i && key_ready_o;
  assign dec_in      = dsel(in_decrypt_i);
  assign dir_ok      = in_decrypt_i ? Dec : Enc;
  assign in_ready_o  = keys_ready && !key_valid_i && dir_ok && ob_space && free_q;
  assign in_fire     = in_valid_i && in_ready_o;

  assign ark = in_data_i ^ (dec_in ? dec_key0 : enc_key0);

  // what enters the stage: the leaving state for another round, or a new block
  always_comb begin : ring_next
    if (!free_q) begin
      st_d   = stage_out;
      ctl_d0 = {ctl_q[7][BusyB], lv_dec, inc_q, ctl_q[7][TagWidth-1:0]};
    end else begin
      st_d   = order(ark, dec_in);
      ctl_d0 = {in_fire, dec_in, 4'd1, in_tag_i};
    end
  end

  // ------------------------------------------------------------------------------
  // The round
  // ------------------------------------------------------------------------------
  ak_ttable_stage #(
    .EncTables (Enc),
    .DecTables (Dec),
    .MidTables (1'b1),
    .LastTables(1'b1),
    // encryption only: packed ROM words, the last round taken from them (one DP16KD
    // a ROM instead of two; the packed cascade adds the key alone)
    .Packed    (Directions == 1),
    .SplitKey  (Directions == 1)
  ) u_stage (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .en_i  (1'b1),
    .in_i  (st_q),
    .dec_i (dsel(ctl_q[0][DecB])),
    .last_i(last_q),
    .key_i (kq_q),
    .out_o (stage_out)
  );

  // ------------------------------------------------------------------------------
  // Output buffer: a finished block is written as it leaves the stage
  // ------------------------------------------------------------------------------
  ak_pipe_outbuf #(
    .DataWidth(128 + TagWidth),
    .Depth    (ObDepth)
  ) u_outbuf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .accept_i   (in_fire),
    .space_o    (ob_space),
    .empty_o    (ob_empty),
    .wvalid_i   (fin_q),
    .wdata_i    ({ctl_q[7][TagWidth-1:0], order(stage_out, lv_dec)}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o ({out_tag_o, out_data_o})
  );

  // ------------------------------------------------------------------------------
  // Registers (no enable: the ring never stalls)
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      for (int i = 0; i < 8; i++) ctl_q[i] <= '0;
      st_q   <= '0;
      kq_q   <= '0;
      fin_q  <= 1'b0;
      last_q <= 1'b0;
      free_q <= 1'b1;
      pre_q  <= 1'b0;
      inc_q  <= 4'd1;
    end else begin
      ctl_q[0] <= ctl_d0;
      for (int i = 1; i < 8; i++) ctl_q[i] <= ctl_q[i - 1];
      st_q   <= st_d;
      kq_q   <= kq_d;
      fin_q  <= fin_d;
      last_q <= last_d;
      free_q <= free_d;
      pre_q  <= pre_d;
      inc_q  <= inc_d;
    end
  end

endmodule

`default_nettype wire
