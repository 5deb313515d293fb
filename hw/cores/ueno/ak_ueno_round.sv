// ak_ueno_round: the round datapath of paper 002 (Ueno et al., CHES 2016, Sec. 3.1,
// eqs. (4) and (6)) -- one full round of encryption or decryption, and the final
// round, on a state held over the normal-basis tower field of ak_nb_inv
// (delta = ak_ueno_iso). Used by ak_ueno_core; proven equal to the FIPS-197 round
// by tests/hw/cores/ueno/test_ueno_formal.py.
//
// State forms (m = the FIPS-197 state after AddRoundKey, AES field):
//   encryption  d = delta(m);
//   decryption  s = delta(InvAffine(m)) = delta(A^-1 m ^ 05) (the retimed value:
//               the register holds the state after InvAffine, so the inversion
//               starts the round in both directions and needs no selector).
// Outputs:
//   round_o  encryption: delta(MixColumns(SubBytes(ShiftRows(m))) ^ k);
//            decryption: delta(InvAffine(InvMixColumns(InvSubBytes(InvShiftRows(m)) ^ k)))
//   final_o  encryption: delta(SubBytes(ShiftRows(m)) ^ k);
//            decryption: delta(InvSubBytes(InvShiftRows(m)) ^ k)
// with k = rk_i, the round key in the AES field.
//
// Structure: 16 ak_nb_inv on the state; a 1:2 demultiplexer (AND with the direction)
// so the inactive path sees zeros; encryption: ShiftRows, unified affine U0..U3
// (ak_ueno_enc_column: Affine, MixColumns and the isomorphisms merged); decryption:
// InvShiftRows, + delta(k), unified affine V0..V3 (ak_ueno_dec_column); final round:
// tower-field Affine (ak_ueno_affine) for encryption. The path outputs and the
// encryption round key meet in one bit-parallel XOR per output (no multiplexer):
// the inactive path yields a constant (U(0) = Affine(0) = delta(63),
// V(0) = delta(05) per byte) that a direction-dependent constant cancels.
// The round key is mapped by 16 ak_ueno_iso (the key input isomorphism).
//
// Demux = 0 (an FPGA variant, not the paper's): no demultiplexer; both paths see the
// inverses and a 2:1 multiplexer per output bit picks the active one. On LUT4 FPGAs the
// AND gating of the demultiplexer widens every leaf of the unified-affine XOR trees,
// while a multiplexer at the end shares a LUT with the last XOR.
//
// Timing    : purely combinational (latency 0). Longest path: ak_nb_inv, the
//             demultiplexer AND, ak_ueno_enc_column (or ak_ueno_dec_column after
//             one XOR), one XOR.
// Byte order: FIPS-197 state order, byte 4c+r (s[r][c]) in [127-8(4c+r) -: 8], for
//             the state (tower-field bytes) and the round key (AES-field bytes).
// Parameters: Demux (1: the paper's 1:2 demultiplexer and bit-parallel XOR, default;
//             0: output multiplexers). dec_i: 0 encryption, 1 decryption.

`default_nettype none

module ak_ueno_round #(
  parameter bit Demux = 1'b1
) (
  input  logic [127:0] state_i,   // d (encryption) or s (decryption), tower field
  input  logic [127:0] rk_i,      // round key, AES field
  input  logic         dec_i,
  output logic [127:0] round_o,   // next d or s
  output logic [127:0] final_o    // delta(result of the final round)
);

  localparam logic [7:0] DeltaC  = 8'hab;  // delta(63), constant of U / Affine
  localparam logic [7:0] DeltaCi = 8'hbd;  // delta(05), constant of V / InvAffine

  logic [127:0] rk_t;        // delta(round key)
  logic [127:0] rk_e;        // delta(round key), encryption only (demultiplexed)
  logic [127:0] inv;         // tower-field inverses of the state
  logic [127:0] inv_e;       // demultiplexer: encryption path
  logic [127:0] inv_d;       // demultiplexer: decryption path
  logic [127:0] enc_sr;      // ShiftRows(inv_e)
  logic [127:0] dec_isr;     // InvShiftRows(inv_d)
  logic [127:0] dec_y;       // dec_isr ^ delta(round key) (decryption AddRoundKey)
  logic [127:0] enc_u;       // unified affine U of enc_sr
  logic [127:0] dec_v;       // unified affine V of dec_y
  logic [127:0] enc_a;       // tower-field Affine of enc_sr (final round)

  if (Demux) begin : g_demux
    assign rk_e  = dec_i ? 128'h0 : rk_t;
    assign inv_e = dec_i ? 128'h0 : inv;
    assign inv_d = dec_i ? inv : 128'h0;
    assign dec_y = dec_isr ^ (dec_i ? rk_t : 128'h0);
  end else begin : g_no_demux
    assign rk_e  = rk_t;
    assign inv_e = inv;
    assign inv_d = inv;
    assign dec_y = dec_isr ^ rk_t;
  end

  for (genvar b = 0; b < 16; b++) begin : g_byte
    ak_ueno_iso u_rk_iso (
      .in_i (rk_i[8*b +: 8]),
      .out_o(rk_t[8*b +: 8])
    );

    ak_nb_inv u_inv (
      .in_i (state_i[8*b +: 8]),
      .out_o(inv[8*b +: 8])
    );

    ak_ueno_affine u_fin_aff (
      .in_i (enc_sr[8*b +: 8]),
      .dec_i(1'b0),
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

      assign enc_sr[127-8*Byte -: 8]  = inv_e[127-8*FromEnc -: 8];
      assign dec_isr[127-8*Byte -: 8] = inv_d[127-8*FromDec -: 8];
    end

    ak_ueno_enc_column u_enc_col (
      .in_i (enc_sr[127-32*c -: 32]),
      .out_o(enc_u[127-32*c -: 32])
    );

    ak_ueno_dec_column u_dec_col (
      .in_i (dec_y[127-32*c -: 32]),
      .out_o(dec_v[127-32*c -: 32])
    );
  end

  if (Demux) begin : g_xor
    logic [127:0] round_c;   // constant that cancels the inactive path (round)
    logic [127:0] final_c;   // ... (final round)
    assign round_c = dec_i ? {16{DeltaC}} : {16{DeltaCi}};
    assign final_c = dec_i ? {16{DeltaC}} : 128'h0;
    assign round_o = enc_u ^ dec_v ^ rk_e ^ round_c;
    assign final_o = enc_a ^ dec_y ^ rk_e ^ final_c;
  end else begin : g_mux
    assign round_o = dec_i ? dec_v : (enc_u ^ rk_e);
    assign final_o = dec_i ? dec_y : (enc_a ^ rk_e);
  end

endmodule

`default_nettype wire
