// ak_satoh_core: the conventional unified round-based AES enc/dec datapath of
// Satoh et al. [29] as paper 002 (Ueno et al., CHES 2016) describes and re-implements
// it for its comparison (Sec. 2.1, Fig. 3-4, Tables 1-2) -- one round per cycle,
// 128/192/256-bit keys, the shared on-the-fly key schedule of ak_round_ctrl.
// Core contract: docs/core-contract.md; comparison: docs/cores/paper002.md.
//
// What it follows from paper 002, Sec. 2:
//   - each function is unified with its inverse: (Inv)ShiftRows by a multiplexer,
//     (Inv)SubBytes by one S-box whose inversion is shared and whose input and output
//     linear maps are selected (ak_sbox_canright_encdec: merged T / T x InvAffine in,
//     inversion over the normal-basis tower, merged Affine x T^-1 / T^-1 out, two
//     multiplexers -- "Affine, Inversion, InvAffine and an additional multiplexer" on
//     the critical path), MixColumns and InvMixColumns by one MixColumns with the
//     InvMixColumns pre-map switched in (ak_p002_mix_column_encdec);
//   - decryption is reordered to the order of encryption (Fig. 4): InvSubBytes,
//     InvShiftRows, InvMixColumns, then AddRoundKey with InvMixColumns(K_r) (the
//     linearity of InvMixColumns), so an ADDITIONAL InvMixColumns works on the round
//     key (4 ak_inv_mix_column); the encryption round is ShiftRows first, then
//     SubBytes, MixColumns, AddRoundKey;
//   - the initial AddRoundKey has its own cycle (11 cycles per AES-128 block, as the
//     paper counts for every datapath but Lutz's).
// Same S-box library as ak_ueno_core (ak_nb_inv); AES-field state, no isomorphism
// outside the S-box.
//
// Datapath: state register -> (Inv)ShiftRows mux -> 16 ak_sbox_canright_encdec ->
//   4 ak_p002_mix_column_encdec (bypassed in the final round) -> XOR with the round
//   key (or InvMixColumns of it) -> state register (2:1 with in_data_i ^ key).
//
// Timing (as ak_ueno_core): latency Nr+1 = 11/13/15, interval Nr+1 in ECB and CBC,
//   key setup Nr+1; out_data_o is the state register.
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

`default_nettype none

module ak_satoh_core #(
  parameter int TagWidth = 1,
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
    initial $fatal(1, "ak_satoh_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_satoh_core: TagWidth must be >= 1, got %0d", TagWidth);
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
  // Round datapath
  // ------------------------------------------------------------------------------
  logic [127:0] state_q, state_d;
  logic [127:0] sr;          // ShiftRows / InvShiftRows of the state
  logic [127:0] sb;          // SubBytes / InvSubBytes
  logic [127:0] mc;          // MixColumns / InvMixColumns
  logic [127:0] rk_imc;      // InvMixColumns(round key)
  logic [127:0] rk_use;      // the key added this round
  logic [127:0] round_out;

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      // s[r][c] is byte 4c+r. ShiftRows: s'[r][c] = s[r][(c+r) mod 4];
      // InvShiftRows: s'[r][c] = s[r][(c-r) mod 4].
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;

      assign sr[127-8*Byte -: 8] = blk_dec ? state_q[127-8*FromDec -: 8]
                                           : state_q[127-8*FromEnc -: 8];

      ak_sbox_canright_encdec u_sbox (
        .in_i (sr[127-8*Byte -: 8]),
        .dec_i(blk_dec),
        .out_o(sb[127-8*Byte -: 8])
      );
    end

    ak_p002_mix_column_encdec u_mix (
      .in_i (sb[127-32*c -: 32]),
      .dec_i(blk_dec),
      .out_o(mc[127-32*c -: 32])
    );

    // the additional InvMixColumns on the round key (reordered decryption)
    ak_inv_mix_column u_key_imc (
      .in_i (rk[127-32*c -: 32]),
      .out_o(rk_imc[127-32*c -: 32])
    );
  end

  assign rk_use    = (blk_dec && !fin) ? rk_imc : rk;
  assign round_out = (fin ? sb : mc) ^ rk_use;

  always_comb begin : state_next
    state_d = state_q;
    if (load) state_d = start ? (in_data_i ^ start_key) : round_out;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_reg
    if (!rst_ni) state_q <= '0;
    else         state_q <= state_d;
  end

  assign out_data_o = state_q;

  // dec (in_decrypt_i when a block starts) is only needed by cores whose first cycle
  // runs a direction-dependent datapath; rk_next by cores without a pre-round cycle
  logic unused;
  assign unused = dec ^ (^rk_next) ^ (^key0) ^ (^keynr) ^ (^rk1e) ^ (^rk1d);

endmodule

`default_nettype wire
