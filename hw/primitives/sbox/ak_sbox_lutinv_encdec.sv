// ak_sbox_lutinv_encdec: S-box and inverse S-box around ONE LUT-based GF(2^8)
// inverter, as in paper 001 (Lin, Huang): SubBytes = Affine(Inverse(x)),
// InvSubBytes = Inverse(InvAffine(x)); dec_i chooses the order with two 8-bit
// multiplexers. (The retimed round of paper 001 instead keeps InvAffine outside the
// round and merges Affine with MixColumns: ak_affine_mix_column.)
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: one AES byte in and out, bit 7 the coefficient of x^7 (FIPS-197).
// Parameters: none. dec_i: 0 SubBytes, 1 InvSubBytes.

`default_nettype none

module ak_sbox_lutinv_encdec (
  input  logic [7:0] in_i,
  input  logic       dec_i,
  output logic [7:0] out_o
);

  logic [7:0] pre;      // InvAffine(in_i)
  logic [7:0] inv_in;   // inverter input
  logic [7:0] inv_out;  // inverter output
  logic [7:0] post;     // Affine(inv_out)

  ak_inv_affine u_inv_affine (
    .in_i (in_i),
    .out_o(pre)
  );

  assign inv_in = dec_i ? pre : in_i;

  ak_gf_inv u_gf_inv (
    .in_i (inv_in),
    .out_o(inv_out)
  );

  ak_affine u_affine (
    .in_i (inv_out),
    .out_o(post)
  );

  assign out_o = dec_i ? inv_out : post;

endmodule

`default_nettype wire
