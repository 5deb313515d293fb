// ak_lutz_core: the conventional enc/dec datapath of Lutz et al. [15] as paper 002
// (Ueno et al., CHES 2016) describes and re-implements it for its comparison
// (Sec. 2.1, Fig. 1-2, Tables 1-2), adjusted, as the paper did, to a round-based
// non-pipelined core: one round per cycle, 128/192/256-bit keys, the shared
// on-the-fly key schedule of ak_round_ctrl (the paper also gave [15] its own key
// schedule, "because there is no description"). Core contract:
// docs/core-contract.md; comparison: docs/cores/paper002.md.
//
// What it follows from paper 002, Sec. 2:
//   - two distinct datapaths, one for encryption and one for decryption, around ONE
//     shared inversion, with multiplexers at the input and output of the paths
//     (Fig. 1): (1) the round input (new block ^ key, or the state register),
//     (2) the inversion input (encryption: the state; decryption: InvAffine of
//     InvShiftRows of it), (3) the round output (encryption or decryption path);
//   - the reordered decryption of Fig. 2: the register holds the value after
//     InvMixColumns, so a decryption round is InvShiftRows, InvAffine, inversion,
//     AddRoundKey, InvMixColumns;
//   - a table-lookup (direct-mapping) inversion, as the paper's evaluation of [15]
//     ("Lutz's one with table-lookup-based inversion", Sec. 4): ak_gf_inv, with
//     ak_affine / ak_inv_affine around it, no isomorphism (the paper removed it for
//     [15]);
//   - 10 cycles per AES-128 block: the initial AddRoundKey and round 1 share the
//     cycle that accepts the block (Sec. 4: "[15] requires 10 clock cycles").
// The false path of Fig. 1 (decryption path -> inversion -> encryption path) is a
// real path to synthesis and static timing, as in the paper.
//
// Timing: latency Nr = 10/12/14 (edge A accepts the block and computes
//   AddRoundKey + round 1; rounds 2 .. Nr at A+1 .. A+Nr-1; out_valid_o first high at
//   A+Nr), interval Nr in ECB and CBC, key setup Nr+1; out_data_o is the state
//   register.
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

module ak_lutz_core #(
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
    initial $fatal(1, "ak_lutz_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_lutz_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  // ------------------------------------------------------------------------------
  // Control and key schedule
  // ------------------------------------------------------------------------------
  logic         start, load, dec, blk_dec, fin;
  logic [127:0] start_key, rk_reg, rk;
  logic [127:0] key0, keynr, rk1e, rk1d;  // unused: for the reference core's datapath

  logic         start_next_unused, final_next_unused, blk_dec_next_unused;  // for select copies

  ak_round_ctrl #(
    .TagWidth  (TagWidth),
    .PreRound  (0),
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
    .rk_reg_o   (rk_reg),
    .rk_next_o  (rk),          // the round key of this cycle's round
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
  logic [127:0] rnd_in;      // mux 1: in_data_i ^ key, or the state register
  logic [127:0] dec_isr;     // decryption path: InvShiftRows(rnd_in)
  logic [127:0] dec_ia;      // ... InvAffine
  logic [127:0] inv_in;      // mux 2: inversion input
  logic [127:0] inv;         // the shared inversion
  logic [127:0] enc_a;       // encryption path: Affine
  logic [127:0] enc_sr;      // ... ShiftRows
  logic [127:0] enc_mc;      // ... MixColumns
  logic [127:0] enc_out;     // ... AddRoundKey
  logic [127:0] dec_ark;     // decryption path: AddRoundKey
  logic [127:0] dec_imc;     // ... InvMixColumns
  logic [127:0] dec_out;
  logic [127:0] round_out;   // mux 3: the active path

  assign rnd_in = start ? (in_data_i ^ start_key) : state_q;

  for (genvar b = 0; b < 16; b++) begin : g_byte
    ak_inv_affine u_inv_aff (
      .in_i (dec_isr[8*b +: 8]),
      .out_o(dec_ia[8*b +: 8])
    );

    ak_gf_inv u_inv (
      .in_i (inv_in[8*b +: 8]),
      .out_o(inv[8*b +: 8])
    );

    ak_affine u_aff (
      .in_i (inv[8*b +: 8]),
      .out_o(enc_a[8*b +: 8])
    );
  end

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      // s[r][c] is byte 4c+r. ShiftRows: s'[r][c] = s[r][(c+r) mod 4];
      // InvShiftRows: s'[r][c] = s[r][(c-r) mod 4].
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;

      assign dec_isr[127-8*Byte -: 8] = rnd_in[127-8*FromDec -: 8];
      assign enc_sr[127-8*Byte -: 8]  = enc_a[127-8*FromEnc -: 8];
    end

    ak_mix_column u_mix (
      .in_i (enc_sr[127-32*c -: 32]),
      .out_o(enc_mc[127-32*c -: 32])
    );

    ak_inv_mix_column u_inv_mix (
      .in_i (dec_ark[127-32*c -: 32]),
      .out_o(dec_imc[127-32*c -: 32])
    );
  end

  assign inv_in    = dec ? dec_ia : rnd_in;
  assign enc_out   = (fin ? enc_sr : enc_mc) ^ rk;
  assign dec_ark   = inv ^ rk;
  assign dec_out   = fin ? dec_ark : dec_imc;
  assign round_out = dec ? dec_out : enc_out;

  always_comb begin : state_next
    state_d = state_q;
    if (load) state_d = round_out;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_reg
    if (!rst_ni) state_q <= '0;
    else         state_q <= state_d;
  end

  assign out_data_o = state_q;

  // blk_dec equals dec whenever the state register loads; rk_reg serves pre-round cores
  logic unused;
  assign unused = blk_dec ^ (^rk_reg) ^ (^key0) ^ (^keynr) ^ (^rk1e) ^ (^rk1d);

endmodule

`default_nettype wire
