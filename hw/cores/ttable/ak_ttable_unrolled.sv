// ak_ttable_unrolled: paper 004's fully unrolled T-table AES: Nr round stages
// (ak_ttable_stage: four eight-stage T-table lanes each) in one pipeline, a new block
// every cycle, encryption and decryption (equivalent inverse cipher) chosen per
// block, or one of them (Directions). The key size is a build parameter (KeyLen); the
// core speaks the aeskit core contract (docs/core-contract.md).
//
// Datapath. Round key 0 is added as a block is accepted (registered, the state in
// processing order: decryption keeps column (4-c) mod 4 in slot c, see
// ak_ttable_stage). Stage r (1 .. Nr) computes round r in eight cycles from its
// predecessor's registered output; its round key is the encryption or decryption
// round key r of ak_rk_store chosen by the block's direction bit (a 2:1 multiplexer
// that the synthesis merges into the lane's key XOR; the bit has a flip-flop copy per
// lane, loaded from the control a cycle ahead). Stages 1 .. Nr-1
// hold only middle-round tables (512 words: encryption and decryption), stage Nr
// only last-round tables (8 data bits). A true-dual-port DP16KD is at most 18 bits
// a port, so a 32-bit middle-round ROM takes two: 16 DP16KD a middle stage. The first
// PackedStages middle stages hold 17-bit packed words instead (ak_ttable_ram Packed,
// widened by ak_ttable_unpack in the lane, 24 LUT4 a lookup): one DP16KD a ROM, 8 a
// stage. Block RAMs: 16 (Nr - 1) - 8 PackedStages + 8 for the stages plus 4 for the
// output buffer. By default AES-128 and AES-192 keep 32-bit words (156 / 188 of the
// 208 DP16KD of an LFE5U-85F) and AES-256 packs two stages (204; all 32-bit would be
// 220): each packed stage costs 384 LUT4 and saves 8 block RAMs.
// Every lane adds the round key alone and the other three lookups in one four-input
// XOR (ak_ttable_lane SplitKey), so with the direction's key multiplexer merged into
// it the cascade is two LUT4 a bit.
// Control (valid, direction, tag) runs beside the data in a shift register.
//
// Timing (Nr = 10/12/14 for KeyLen 0/1/2):
//   - latency 8*Nr+3 (83/99/115): a block accepted at edge A is in the input
//     register from A, round r leaves stage r at edge A+8r; the last stage's output
//     (columns put back in order) is registered at edge A+8*Nr, written into the
//     output buffer (ak_pipe_outbuf) at edge A+8*Nr+1 and in its head register
//     after edge A+8*Nr+2: out_valid_o first high at edge A+8*Nr+3.
//   - interval 1: a block may be accepted at every edge.
//   - key setup 57/63/76: ak_rk_store's word-serial fill (ak_rk_fill); the store's
//     write chain (Group = 2) writes round key r r / 2 edges later, before a block
//     accepted at the first edge with in_ready_o high reaches round r.
//
// Back-pressure. The pipeline never stalls: no clock enable on its registers and
// block RAMs (a stall enable would fan out to every one of them and set the clock
// period). The output buffer holds ObDepth >= 8*Nr+3 blocks and a block is admitted
// only while fewer than ObDepth are in the pipeline or the buffer, so every block
// leaving the last stage finds a free entry. in_ready_o depends combinationally on
// out_ready_i and key_valid_i.
//
// Key loads. key_ready_o (a flip-flop) is high in the cycle after one in which no
// block was in the pipeline or the output buffer, none was accepted and the store
// was not filling (so it rises one cycle after the last block leaves or the fill
// ends); while key_valid_i is high in_ready_o is low.
// A key of another size than KeyLen, or key_len_i = 3, completes the handshake and leaves the core without a
// usable key: in_ready_o stays low until a key of the built size is loaded; it starts
// no fill, so key_ready_o stays high (docs/core-contract.md, "Configurations").
//
// Reset: asynchronous, active low, every register (block RAM output latches
// excepted); a reset mid-stream leaves the core idle without a key.
//
// Byte order: FIPS-197 (docs/core-contract.md).
//
// Parameters:
//   KeyLen        0: AES-128, 1: AES-192, 2: AES-256 (the only key_len_i accepted).
//   TagWidth      width of in_tag_i/out_tag_o (>= 1).
//   Directions    directions built (docs/core-contract.md, "Configurations"): 1
//                 encrypt only, 2 decrypt only, 3 both (default; 1..3 checked). One
//                 direction: the stages hold that direction's tables only, the other
//                 direction's round keys (ak_rk_store's InvMixColumns) and key
//                 multiplexers are removed, and a block of the other direction is
//                 never accepted (in_ready_o low while it is offered). The key size
//                 is KeyLen (a key of another size is refused already), so this core
//                 has no KeySizes parameter.
//   PackedStages  how many middle-round stages (the first ones) hold packed T-table
//                 words (0 .. Nr-1; default: every middle stage (Nr-1) with one
//                 direction, else 2 for AES-256 and 0 for the others): half their
//                 block RAMs; with both directions 384 LUT4 more each, with one only
//                 the XOR {03}s = s ^ {02}s (or the decryption map) per lookup.
//                 Same latency and behaviour either way.

`default_nettype none

module ak_ttable_unrolled #(
  parameter int KeyLen       = 0,
  parameter int TagWidth     = 1,
  parameter int Directions = 3,
  parameter int PackedStages = (Directions != 3) ? 9 + 2 * KeyLen : (KeyLen == 2) ? 2 : 0
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
    initial $fatal(1, "ak_ttable_unrolled: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_ttable_unrolled: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end
  if (KeyLen < 0 || KeyLen > 2) begin : g_bad_key_len
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_unrolled: KeyLen must be 0, 1 or 2, got %0d", KeyLen);
`else
    $fatal(1, "ak_ttable_unrolled: KeyLen must be 0, 1 or 2, got %0d", KeyLen);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_unrolled: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_ttable_unrolled: Directions must be 1..3, got %0d", Directions);
`endif
  end

  if (PackedStages < 0 || PackedStages > 9 + 2 * KeyLen) begin : g_bad_packed
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_unrolled: PackedStages must be 0 .. Nr-1, got %0d",
                   PackedStages);
`else
    $fatal(1, "ak_ttable_unrolled: PackedStages must be 0 .. Nr-1, got %0d", PackedStages);
`endif
  end

  localparam int Nr    = 10 + 2 * KeyLen;
  localparam int Depth = 8 * Nr;            // control shift register length
  localparam int CtlW  = 2 + TagWidth;      // {valid, dec, tag}
  // output buffer: one block per cycle needs ObDepth >= pipeline latency (8 Nr + 1) + 2
  localparam int ObDepth = 1 << $clog2(Depth + 3);
  localparam bit Enc     = Directions[0];   // encryption built
  localparam bit Dec     = Directions[1];   // decryption built

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  logic [15*128-1:0] enc_keys, dec_keys;
  logic              keys_ready, keys_key_ready;
  logic [3:0]        keys_nr;
  logic              key_ok_q, key_ok_d;     // the loaded key has the built size
  logic [CtlW-1:0]   ctl_q [Depth];          // ctl_q[k]: the block accepted k+1 edges ago
  logic [127:0]      st_q [Nr];              // st_q[r]: input of stage r+1
  logic [127:0]      st_d0;
  logic              out_valid_q;
  logic [127:0]      out_q;
  logic [TagWidth-1:0] out_tag_q;

  logic         ob_space, ob_empty, in_fire, key_fire;
  logic         key_rdy_q, key_rdy_d;    // key_ready_o, a flip-flop
  logic [127:0] ark, stage_out [Nr];
  logic [127:0] last_out;
  logic         last_dec;
  logic [3:0]   unused_nr;
  logic         dir_ok, dec_in;
  logic         key_built;   // key_len_i is the built size (KeyLen)

  // ------------------------------------------------------------------------------
  // Round keys
  // ------------------------------------------------------------------------------
  // Group = 2: the fill's writes travel down a register chain beside the stages and
  // entry r is written from level r / 2 (ak_rk_store), so no net carries a write
  // from the fill to every key register across the die; entry r is final r / 2 <= r
  // edges after ready, before any block reaches its round r
  ak_rk_store #(
    .NrMax(Nr),
    .Group(2)
  ) u_keys (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_fire && key_built),  // a refused key starts no fill
    .key_ready_o(keys_key_ready),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .ready_o    (keys_ready),
    .nr_o       (keys_nr),
    .sw_we_i    (1'b0),
    .sw_dec_i   (1'b0),
    .sw_round_i (4'd0),
    .sw_key_i   (128'h0),
    .enc_keys_o (enc_keys),
    .dec_keys_o (dec_keys)
  );
  assign unused_nr = keys_nr;

  // round keys above Nr (constant zero in the store) are not used
  if (Nr < 14) begin : g_unused_keys
    logic [2*(14-Nr)*128-1:0] unused_keys;
    assign unused_keys = {enc_keys[15*128-1:(Nr+1)*128], dec_keys[15*128-1:(Nr+1)*128]};
  end

  // a 128-bit key in processing order (decryption: columns 0, 3, 2, 1)
  function automatic logic [127:0] order(input logic [127:0] k, input logic dec);
    return dec ? {k[127:96], k[31:0], k[63:32], k[95:64]} : k;
  endfunction

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign key_ready_o = key_rdy_q;
  assign key_built   = (key_len_i == 2'(KeyLen));
  assign key_fire    = key_valid_i && key_ready_o;

  // key_ready_o from a flip-flop: the handshake's fan-out (the fill's registers, the
  // store's clear) starts one LUT after a register. High in the cycle after the store
  // is idle and nothing is in flight in that cycle's state; it drops after a legal
  // key's handshake (the fill starts) and after an accepted block.
  always_comb begin : key_rdy_next
    key_rdy_d = keys_key_ready && ob_empty && !in_fire;
    if (key_fire && key_built) key_rdy_d = 1'b0;
  end
  // a block of a direction not built is never accepted (ready depends on the offered
  // in_decrypt_i, as AXI-Stream allows)
  assign dir_ok      = in_decrypt_i ? Dec : Enc;
  assign in_ready_o  = keys_ready && key_ok_q && !key_valid_i && ob_space && dir_ok;
  // the block's direction as the build runs it: a constant with one direction
  assign dec_in      = (Enc && Dec) ? in_decrypt_i : Dec;
  assign in_fire     = in_valid_i && in_ready_o;

  always_comb begin : key_ok_next
    key_ok_d = key_ok_q;
    if (key_fire) key_ok_d = key_built;
  end

  assign ark   = in_data_i ^ (dec_in ? dec_keys[127:0] : enc_keys[127:0]);
  assign st_d0 = order(ark, dec_in);

  // ------------------------------------------------------------------------------
  // The round stages
  // ------------------------------------------------------------------------------
  // Stage r+1 gets its input st_q[r] in cycle t = A+1+8r (A: accepting edge), so the
  // block's control is ctl_q[8r] then, ctl_q[8r+4] when the key is needed (t+4), and
  // the output is valid in cycle t+7 (ctl_q[8r+7]).
  for (genvar r = 0; r < Nr; r++) begin : g_round
    localparam bit IsLast = (r == Nr - 1);
    logic [127:0] key, key_dec;
    logic [3:0]   kdec_q;   // the block's direction at the key stage, one copy a lane

    // one copy of the direction per lane (each steers the 32 key multiplexers of
    // its lane; one flip-flop for all 128 crossed the stage's block RAMs), loaded
    // from the control a cycle ahead; keep, or synthesis merges them again
    for (genvar c = 0; c < 4; c++) begin : g_kdec
      (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : kdec_reg
        if (!rst_ni) kdec_q[c] <= !Enc;
        else         kdec_q[c] <= ctl_q[8 * r + 3][CtlW-2];
      end
      // (one direction built: kdec_q is that direction, a constant)
      assign key[127 - 32 * c -: 32] = kdec_q[c] ? key_dec[127 - 32 * c -: 32]
                                                 : enc_keys[(r + 1) * 128 + 127 - 32 * c -: 32];
    end
    assign key_dec = order(dec_keys[(r + 1) * 128 +: 128], 1'b1);

`ifndef SYNTHESIS
    // the copies are the control's direction bit (from the first reset on)
    logic reset_seen_q = 1'b0;

    always @(posedge clk_i or negedge rst_ni) begin : kdec_check
      if (!rst_ni) begin
        reset_seen_q <= 1'b1;
      end else if (reset_seen_q && kdec_q != {4{ctl_q[8 * r + 4][CtlW-2]}}) begin
        $error("ak_ttable_unrolled: round %0d direction copies %b, control %b", r + 1,
               kdec_q, ctl_q[8 * r + 4][CtlW-2]);
      end
    end
`endif

    ak_ttable_stage #(
      .EncTables (Enc),
      .DecTables (Dec),
      .MidTables (!IsLast),
      .LastTables(IsLast),
      .Packed    (r < PackedStages),
      .SplitKey  (1'b1)
    ) u_stage (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .en_i  (1'b1),
      .in_i  (st_q[r]),
      .dec_i (ctl_q[8 * r][CtlW-2]),
      .last_i(IsLast),
      .key_i (key),
      .out_o (stage_out[r])
    );

    if (!IsLast) begin : g_reg
      always_ff @(posedge clk_i or negedge rst_ni) begin : state_reg
        if (!rst_ni)   st_q[r + 1] <= '0;
        else           st_q[r + 1] <= stage_out[r];
      end
    end
  end

  assign last_out = stage_out[Nr - 1];
  assign last_dec = ctl_q[Depth - 1][CtlW-2];

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : input_reg
    if (!rst_ni)   st_q[0] <= '0;
    else           st_q[0] <= st_d0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      // the direction bit resets to the built direction (a constant with one)
      for (int k = 0; k < Depth; k++) ctl_q[k] <= {1'b0, !Enc, {TagWidth{1'b0}}};
      key_ok_q <= 1'b0;
      key_rdy_q <= 1'b1;
    end else begin
      key_ok_q <= key_ok_d;
      key_rdy_q <= key_rdy_d;
      ctl_q[0] <= {in_fire, dec_in, in_tag_i};
      for (int k = 1; k < Depth; k++) ctl_q[k] <= ctl_q[k - 1];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : out_regs
    if (!rst_ni) begin
      out_valid_q <= 1'b0;
      out_q       <= '0;
      out_tag_q   <= '0;
    end else begin
      out_valid_q <= ctl_q[Depth - 1][CtlW-1];
      out_q       <= order(last_out, last_dec);
      out_tag_q   <= ctl_q[Depth - 1][TagWidth-1:0];
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
    .wvalid_i   (out_valid_q),
    .wdata_i    ({out_tag_q, out_q}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o ({out_tag_o, out_data_o})
  );

endmodule

`default_nettype wire
