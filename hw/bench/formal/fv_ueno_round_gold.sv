// fv_ueno_round_gold: test-only reference for the formal proof of ak_ueno_round --
// the FIPS-197 round (table S-boxes, ak_mix_column, direct InvMixColumns) on the
// AES-field state, with the state forms of ak_ueno_round mapped in and out:
//   encryption  m = delta^-1(d);           result delta(...)
//   decryption  m = Affine(delta^-1(s));   result delta(InvAffine(...)) (round),
//                                          delta(...) (final round)
// Same ports as ak_ueno_round, so a miter can compare them.

`default_nettype none

module fv_ueno_round_gold (
  input  logic [127:0] state_i,
  input  logic [127:0] rk_i,
  input  logic         dec_i,
  output logic [127:0] round_o,
  output logic [127:0] final_o
);

  logic [127:0] a, af, m, sr, isr, sb, isb, mc, ark, imc, imc_ia, rnd, fin;

  for (genvar b = 0; b < 16; b++) begin : g_byte
    ak_ueno_iso_inv u_back (.in_i(state_i[8*b +: 8]), .out_o(a[8*b +: 8]));
    ak_affine       u_aff  (.in_i(a[8*b +: 8]),       .out_o(af[8*b +: 8]));
    ak_sbox         u_sb   (.in_i(sr[8*b +: 8]),      .out_o(sb[8*b +: 8]));
    ak_inv_sbox     u_isb  (.in_i(isr[8*b +: 8]),     .out_o(isb[8*b +: 8]));
    ak_inv_affine   u_ia   (.in_i(imc[8*b +: 8]),     .out_o(imc_ia[8*b +: 8]));
    ak_ueno_iso     u_r    (.in_i(rnd[8*b +: 8]),     .out_o(round_o[8*b +: 8]));
    ak_ueno_iso     u_f    (.in_i(fin[8*b +: 8]),     .out_o(final_o[8*b +: 8]));
  end

  assign m = dec_i ? af : a;

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;
      assign sr[127-8*Byte -: 8]  = m[127-8*FromEnc -: 8];
      assign isr[127-8*Byte -: 8] = m[127-8*FromDec -: 8];
    end
    ak_mix_column            u_mc  (.in_i(sb[127-32*c -: 32]),  .out_o(mc[127-32*c -: 32]));
    ak_inv_mix_column_direct u_imc (.in_i(ark[127-32*c -: 32]), .out_o(imc[127-32*c -: 32]));
  end

  assign ark = isb ^ rk_i;
  assign rnd = dec_i ? imc_ia : (mc ^ rk_i);
  assign fin = dec_i ? ark : (sb ^ rk_i);

endmodule

`default_nettype wire
