// fv_ueno_round_cut_gold: test-only FIPS-197 reference for the round proof, with
// the GF(2^8) inversion cut out (the same cut as fv_ueno_round_cut): in_i = {v, k},
// v the tower-field inverses of the ueno state, so delta^-1(v) is, byte by byte,
//   encryption  the inverse gf_inv(m) of the state m (d = delta(m)), and SubBytes is
//               Affine(delta^-1(v)) (ak_affine: A x ^ 63);
//   decryption  InvSubBytes(m) = gf_inv(InvAffine(m)) (s = delta(InvAffine(m))).
// Then the FIPS-197 round with the reference primitives ak_mix_column and
// ak_inv_mix_column_direct; results mapped back into ueno's state forms:
//   out_o[255:128] round: enc delta(MixColumns(SubBytes(ShiftRows m)) ^ k),
//                         dec delta(InvAffine(InvMixColumns(InvSubBytes(InvShiftRows m) ^ k)))
//   out_o[127:0]   final: enc delta(SubBytes(ShiftRows m) ^ k),
//                         dec delta(InvSubBytes(InvShiftRows m) ^ k)
`default_nettype none

module fv_ueno_round_cut_gold #(
  parameter bit Dec = 1'b0
) (
  input  logic [255:0] in_i,
  output logic [255:0] out_o
);
  logic [127:0] v, k, g, sb, sr, isr, mc, ark, imc, imc_ia, rnd, fin;

  assign v = in_i[255:128];
  assign k = in_i[127:0];

  for (genvar b = 0; b < 16; b++) begin : g_byte
    ak_ueno_iso_inv u_back (.in_i(v[8*b +: 8]),   .out_o(g[8*b +: 8]));   // gf_inv bytes
    ak_affine       u_aff  (.in_i(g[8*b +: 8]),   .out_o(sb[8*b +: 8]));  // SubBytes
    ak_inv_affine   u_ia   (.in_i(imc[8*b +: 8]), .out_o(imc_ia[8*b +: 8]));
    ak_ueno_iso     u_r    (.in_i(rnd[8*b +: 8]), .out_o(out_o[128+8*b +: 8]));
    ak_ueno_iso     u_f    (.in_i(fin[8*b +: 8]), .out_o(out_o[8*b +: 8]));
  end

  for (genvar c = 0; c < 4; c++) begin : g_col
    for (genvar r = 0; r < 4; r++) begin : g_row
      localparam int Byte    = 4 * c + r;
      localparam int FromEnc = 4 * ((c + r) % 4) + r;
      localparam int FromDec = 4 * ((c + 4 - r) % 4) + r;
      assign sr[127-8*Byte -: 8]  = sb[127-8*FromEnc -: 8];   // ShiftRows(SubBytes(m))
      assign isr[127-8*Byte -: 8] = g[127-8*FromDec -: 8];    // InvShiftRows(InvSubBytes(m))
    end
    ak_mix_column            u_mc  (.in_i(sr[127-32*c -: 32]),  .out_o(mc[127-32*c -: 32]));
    ak_inv_mix_column_direct u_imc (.in_i(ark[127-32*c -: 32]), .out_o(imc[127-32*c -: 32]));
  end

  assign ark = isr ^ k;
  assign rnd = Dec ? imc_ia : (mc ^ k);
  assign fin = Dec ? ark : (sr ^ k);

endmodule

`default_nettype wire
