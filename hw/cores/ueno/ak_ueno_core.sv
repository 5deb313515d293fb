// ak_ueno_core: the round-based AES encryption/decryption datapath of paper 002
// (Ueno, Morioka, Homma, Aoki, CHES 2016, Sec. 3) -- one round per cycle, no
// pipelining (so CBC encryption runs at full speed), 128/192/256-bit keys,
// on-the-fly key schedule shared by both directions. Core contract:
// docs/core-contract.md; theory and timing: docs/cores/paper002.md.
//
// Datapath (all over the normal-basis tower field of ak_nb_inv; delta = ak_ueno_iso):
//   pre-round   (accepting cycle)  t  = delta(in ^ k)           encryption: d0 = t
//                                  s0 = delta(InvAffine) of t   decryption (retimed
//                                       value: InvAffine already applied, eq. (6))
//   round       inv = ak_nb_inv(state), 16 bytes -- BOTH directions start the round
//               with the inversion (operation reordering: Affine moved past
//               ShiftRows into the unified affine; decryption stores s, so the
//               inversion needs no selector in front of it);
//               1:2 demultiplexer: inv_e = inv & ~dec, inv_d = inv & dec (the
//               inactive path sees zeros);
//               encryption: ShiftRows, unified affine U0..U3 (ak_ueno_enc_column,
//               eq. (4): Affine, MixColumns, delta, delta^-1 merged), + delta(k);
//               decryption: InvShiftRows, + delta(k), unified affine V0..V3
//               (ak_ueno_dec_column, eq. (6): delta^-1, InvMixColumns, InvAffine,
//               delta merged) -> the next s;
//               the two path outputs and the encryption round key are combined by
//               one bit-parallel XOR (the demultiplexer makes the inactive path a
//               constant, cancelled by a direction-dependent constant).
//   final round encryption: tower-field Affine (ak_ueno_affine) after ShiftRows,
//               + delta(k); decryption: InvShiftRows + delta(k); again one
//               bit-parallel XOR.
//   data register input: ONE 128-bit 4:1 multiplexer (pre-round enc, pre-round dec,
//               round, final round).
//   post-round  out_data_o = delta^-1(state): the only inverse isomorphism, on the
//               register output, never inside the round loop.
// Round keys come from ak_round_ctrl in the AES field, one cycle ahead (rk_reg_o), and
// are mapped once per round by 16 ak_ueno_iso (the key input isomorphism), so the
// key path to the round's XOR starts at a register.
//
// Timing (edges are rising clock edges, Nr = 10/12/14):
//   - latency Nr+1 = 11/13/15: edge A accepts the block and stores the pre-round
//     value; rounds 1 .. Nr at edges A+1 .. A+Nr; out_valid_o first high at A+Nr+1.
//   - interval Nr+1, in ECB and CBC, encrypt and decrypt: in_ready_o is high while
//     the result is taken, so the next (chained) block is accepted at A+Nr+1.
//   - key setup Nr+1 = 11/13/15 (decryption start key computed once per key load).
//
//   clk        _/~\_/~\_/~\_ ... _/~\_/~\_/~\_
//   edge          A  A+1 A+2      A+Nr A+Nr+1
//   state      -- |pre| r1 | ... | rNr = result |
//   out_valid  ___________________/~~~~~~~~\___   (taken at A+Nr+1 if out_ready_i)
//
// Back-pressure, key loads, key_len_i = 3, reset: see ak_round_ctrl (as ak_round_core).
// out_data_o holds still while out_valid_o && !out_ready_i (it is a fixed map of the
// state register, which holds).
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r in
//   [127-8(4c+r) -: 8]), out0 in out_data_o[127:120]; key byte 0 in key_i[255:248],
//   128/192-bit keys left-aligned.
//
// Parameters:
//   TagWidth  width of in_tag_i/out_tag_o (>= 1, checked at elaboration).
//   Directions, KeySizes  the build (docs/core-contract.md, "Configurations"), passed
//             to ak_round_ctrl: Directions 1 encrypt only, 2 decrypt only, 3 both
//             (default); KeySizes a mask of the key sizes built (bit 0 128, bit 1 192,
//             bit 2 256; default 7). A block of a direction not built is never
//             accepted, a key of a size not built leaves the core keyless. The
//             datapath's direction selects are then constants and synthesis removes
//             the logic of the other direction and of the sizes not built.
//   Demux     1 (default): the paper's 1:2 demultiplexer after the inversion and
//             bit-parallel XORs; 0: an FPGA variant with output multiplexers instead
//             (registry entry ueno_mux; see ak_ueno_round).
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang; Icarus 11.

`default_nettype none

module ak_ueno_core #(
  parameter int TagWidth = 1,
  parameter bit Demux    = 1'b1,
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
    initial $fatal(1, "ak_ueno_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_ueno_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  // ------------------------------------------------------------------------------
  // Control and key schedule
  // ------------------------------------------------------------------------------
  logic         start, load, dec, blk_dec, fin;
  logic [127:0] start_key, rk, rk_next;
  logic [127:0] key0, keynr, rk1e, rk1d;  // unused: for the reference core's datapath

  logic         start_next_unused, final_next_unused, blk_dec_next_unused;  // for select copies

  ak_round_ctrl #(
    .TagWidth  (TagWidth),
    .PreRound  (1),
    .Directions(Directions),
    .KeySizes  (KeySizes)
  ) u_ctrl (
    .clk_i,
    .rst_ni,
    .key_valid_i,
    .key_ready_o,
    .key_i,
    .key_len_i,
    .in_valid_i,
    .in_ready_o,
    .in_decrypt_i,
    .in_tag_i,
    .out_valid_o,
    .out_ready_i,
    .out_tag_o,
    .start_o    (start),
    .load_o     (load),
    .dec_o      (dec),
    .blk_dec_o  (blk_dec),
    .final_o    (fin),
    .start_key_o(start_key),
    .rk_reg_o   (rk),
    .rk_next_o  (rk_next),
    .start_key_enc_o(key0),
    .start_key_dec_o(keynr),
    .rk1_enc_o  (rk1e),
    .rk1_dec_o  (rk1d),
    .start_next_o  (start_next_unused),
    .final_next_o  (final_next_unused),
    .blk_dec_next_o(blk_dec_next_unused)
  );

  // ------------------------------------------------------------------------------
  // Datapath
  // ------------------------------------------------------------------------------
  logic [127:0] state_q, state_d;
  logic [127:0] pre_aes;     // in_data_i ^ round key 0 / Nr
  logic [127:0] pre_t;       // delta(pre_aes): encryption pre-round value d0
  logic [127:0] pre_s;       // tower InvAffine(pre_t): decryption pre-round value s0
  logic [127:0] round_out;   // next d (enc) or s (dec)
  logic [127:0] final_out;   // delta(result)
  logic [1:0]   sel;         // data register multiplexer select

  assign pre_aes = in_data_i ^ start_key;

  for (genvar b = 0; b < 16; b++) begin : g_byte
    // pre-round datapath: the isomorphism, then InvAffine for decryption
    ak_ueno_iso u_pre_iso (
      .in_i (pre_aes[8*b +: 8]),
      .out_o(pre_t[8*b +: 8])
    );

    ak_ueno_affine u_pre_inv_aff (
      .in_i (pre_t[8*b +: 8]),
      .dec_i(1'b1),
      .out_o(pre_s[8*b +: 8])
    );

    // post-round datapath: back to the AES field
    ak_ueno_iso_inv u_post (
      .in_i (state_q[8*b +: 8]),
      .out_o(out_data_o[8*b +: 8])
    );
  end

  // round datapath; its direction comes from a register (the block in flight)
  ak_ueno_round #(
    .Demux(Demux)
  ) u_round (
    .state_i(state_q),
    .rk_i   (rk),
    .dec_i  (blk_dec),
    .round_o(round_out),
    .final_o(final_out)
  );

  // the one 4:1 multiplexer in front of the data register
  always_comb begin : reg_select
    if (start)    sel = dec ? 2'd1 : 2'd0;
    else if (fin) sel = 2'd3;
    else          sel = 2'd2;
  end

  always_comb begin : state_next
    state_d = state_q;
    if (load) begin
      unique case (sel)
        2'd0:    state_d = pre_t;
        2'd1:    state_d = pre_s;
        2'd2:    state_d = round_out;
        default: state_d = final_out;
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_reg
    if (!rst_ni) state_q <= '0;
    else         state_q <= state_d;
  end

  // rk_next is for cores without a pre-round cycle
  logic unused;
  assign unused = (^rk_next) ^ (^key0) ^ (^keynr) ^ (^rk1e) ^ (^rk1d);

endmodule

`default_nettype wire
