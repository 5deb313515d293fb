// ak_tbox_folded: the folded memory-based AES core of Chaves et al. (paper 003,
// Figures 7-9) -- one round per clock cycle on eight T-box block RAMs, encryption
// and decryption (equivalent inverse cipher), 128/192/256-bit keys chosen at run time
// (or a subset of them: Directions, KeySizes).
// It speaks the aeskit core contract (docs/core-contract.md).
//
// Datapath. One ak_tbox_round (Pipe = 0): eight ak_tbox_ram addressed by
// {decrypt, byte}, ShiftRows on their output words (a 2:1 multiplexer on the words
// of rows 1 and 3 only -- rows 0 and 2 take the same word for ShiftRows and
// InvShiftRows), the lane XORs.
// The T-box RAM output registers ARE the round register: there is no separate state
// register. The RAM address is
//   in_data_i ^ round key 0          when a block is accepted (the initial
//                                    AddRoundKey, keys from flip-flops),
//   mix ^ round key r                while round r (1 .. Nr-1) sits in the RAMs,
// and the result is last ^ round key Nr, combinational from the RAM outputs and the
// round-key RAM.
//
// Round keys. ak_rk_ram: a block RAM bank of the encryption and the decryption round
// keys addressed by {decrypt, round}, read latency 1, read in step with the T-boxes
// (the key of round r is read at the same edge as the lookups of round r), plus the
// two round-0 keys in registers. Filled by the hardware key expansion of ak_rk_fill
// (word-serial, both directions).
//
// Timing (edges are rising clock edges; Nr = 10/12/14):
//   - latency Nr: a block accepted at edge A has the lookups of round r in the RAM
//     outputs after edge A+r-1; the result (round Nr) is valid after edge A+Nr-1,
//     the first edge at which out_valid_o is high is A+Nr.
//   - interval Nr: in_ready_o is high while the result is being taken (out_valid_o &&
//     out_ready_i); the next block is accepted at the edge that takes the result.
//   - key setup 57/63/76: key handshake at edge K, ak_rk_fill writes the round keys
//     word-serially, in_ready_o first high 57/63/76 edges after K.
//   - CBC encryption at full speed: a mode engine that forms the next input
//     combinationally as P ^ out_data_o in the cycle out_valid_o is high (in_valid_i
//     does not depend on in_ready_o) gets one block every Nr cycles; the test
//     tests/hw/cores/tbox/test_tbox_folded.py measures it.
//
// Back-pressure. While out_valid_o && !out_ready_i every register and both RAMs hold
// (clock enables low); out_data_o is combinational from held registers and holds.
// in_ready_o depends combinationally on out_ready_i and key_valid_i.
//
// Keys. key_ready_o is high when no fill runs and no block is in flight (not even a
// finished one waiting to be taken). While key_valid_i is high in_ready_o is low.
// key_len_i = 3, or a size KeySizes does not build: handshake completes, no key
// (in_ready_o low) until a legal key.
//
// Reset. rst_ni is asynchronous, active low; every flip-flop is reset. The RAM
// output latches are not (block RAM), but nothing reads them without a valid block.
//
// Byte order: FIPS-197, see docs/core-contract.md.
//
// Parameters:
//   TagWidth    width of in_tag_i/out_tag_o (>= 1, checked at elaboration).
//   Directions  directions built (docs/core-contract.md, "Configurations"; 1..3,
//               checked): 1 encryption only, 2 decryption only, 3 both (default).
//               A block of a direction not built is never accepted (in_ready_o low
//               while it is offered, so ready depends on the offered in_decrypt_i).
//               With one direction the T-box RAMs hold that direction's table only
//               (ak_tbox_round: packed words, 8 DP16KD instead of 16), the round-key
//               RAM that direction's bank only, and ak_rk_fill leaves out the
//               decryption form of the round keys (InvMixColumns) in an
//               encrypt-only build.
//   KeySizes    mask of the key sizes built (1..7, checked; bit 0 128, bit 1 192,
//               bit 2 256; default 7). A key of another size completes the handshake
//               and leaves the core keyless, as key_len_i = 3 does; ak_rk_fill holds
//               the key length as a constant with one size built and leaves out the
//               key words and schedule steps of the others. Cycle counts of a built
//               size do not change.

`default_nettype none

module ak_tbox_folded #(
  parameter int TagWidth   = 1,
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
    initial $fatal(1, "ak_tbox_folded: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_tbox_folded: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_folded: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_tbox_folded: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_tbox_folded: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_tbox_folded: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  localparam bit Enc = Directions[0];   // encryption built
  localparam bit Dec = Directions[1];   // decryption built

  logic                busy_q, busy_d;   // a block is in the RAM outputs
  logic [3:0]          cnt_q, cnt_d;     // its round (1 .. Nr)
  logic [TagWidth-1:0] tag_q, tag_d;

  logic         ks_key_ready;
  logic         ks_ready;
  logic [3:0]   nr;
  logic [127:0] rk;             // round key of the round in the RAM outputs
  logic [127:0] enc_key0, dec_key0;
  logic         rd_dec;
  logic [3:0]   rd_round;

  logic         done;
  logic         start_sel;      // the round takes a new block from in_data_i
  logic         in_fire;
  logic         step;           // the RAMs read (a new block or the next round)
  logic [127:0] rnd_in;
  logic         rnd_dec_in;
  logic [127:0] mix, last;
  logic         rnd_dec;        // decrypt bit of the block in the RAM outputs
  logic         dec_in;         // in_decrypt_i as built (a constant with one direction)
  logic         dir_ok;         // the offered block's direction is built

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign done        = busy_q && (cnt_q == nr);
  assign start_sel   = !busy_q || done;
  assign key_ready_o = ks_key_ready && !busy_q;
  assign dec_in      = (Enc && Dec) ? in_decrypt_i : Dec;
  assign dir_ok      = in_decrypt_i ? Dec : Enc;
  assign in_ready_o  = ks_ready && !key_valid_i && dir_ok
                    && (!busy_q || (done && out_ready_i));
  assign in_fire     = in_valid_i && in_ready_o;
  assign step        = in_fire || (busy_q && !done);
  assign out_valid_o = done;
  assign out_tag_o   = tag_q;

  always_comb begin : control_next
    busy_d = busy_q;
    cnt_d  = cnt_q;
    tag_d  = tag_q;
    if (in_fire) begin
      busy_d = 1'b1;
      cnt_d  = 4'd1;
      tag_d  = in_tag_i;
    end else if (busy_q && !done) begin
      cnt_d  = cnt_q + 4'd1;
    end else if (done && out_ready_i) begin
      busy_d = 1'b0;
    end
  end

  // ------------------------------------------------------------------------------
  // Round keys: read {decrypt, round} at the edge that reads the T-boxes of the round
  // ------------------------------------------------------------------------------
  // The key RAM is also read while no block is in flight (its output is then unused):
  // its read registers have no reset (block RAM output latches), and reading keeps
  // them on the current key, so the documented key wipe (docs/core-contract.md) leaves
  // no round key of the old key in them. While a result waits (busy_q) they hold.
  assign rd_dec   = start_sel ? dec_in : rnd_dec;
  assign rd_round = start_sel ? 4'd1 : cnt_q + 4'd1;

  ak_rk_ram #(
    .Directions(Directions),
    .KeySizes  (KeySizes)
  ) u_rk_ram (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_valid_i && !busy_q),
    .key_ready_o(ks_key_ready),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .ready_o    (ks_ready),
    .nr_o       (nr),
    .sw_we_i    (1'b0),
    .sw_dec_i   (1'b0),
    .sw_round_i (4'd0),
    .sw_key_i   (128'h0),
    .rd_en_i    (step || !busy_q),
    .rd_dec_i   (rd_dec),
    .rd_round_i (rd_round),
    .rd_key_o   (rk),
    .enc_key0_o (enc_key0),
    .dec_key0_o (dec_key0)
  );

  // ------------------------------------------------------------------------------
  // The round
  // ------------------------------------------------------------------------------
  assign rnd_in     = start_sel ? (in_data_i ^ (dec_in ? dec_key0 : enc_key0))
                                : (mix ^ rk);
  assign rnd_dec_in = start_sel ? dec_in : rnd_dec;

  ak_tbox_round #(
    .Pipe         (0),
    .ShiftAtOutput(1'b1),
    .Directions   (Directions)
  ) u_round (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (step),
    .state_i(rnd_in),
    .dec_i  (rnd_dec_in),
    .final_i(1'b0),
    .mix_o  (mix),
    .last_o (last),
    .dec_o  (rnd_dec)
  );

  assign out_data_o = last ^ rk;

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cnt_q  <= 4'd0;
      tag_q  <= '0;
    end else begin
      busy_q <= busy_d;
      cnt_q  <= cnt_d;
      tag_q  <= tag_d;
    end
  end

endmodule

`default_nettype wire
