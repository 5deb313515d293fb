// fv_gf128_step_ref: formal-proof reference (aeskit.formal.proofs "gf128-step-*") of one
// Horner step of the digit-serial multiplier, written with the schoolbook reference
// ak_gf128_mul_comb only: z_o = z_i * x^D + (d_i as a port value) * b_i, where x^D is
// the port value 1 << (127 - D) and the digit d_i sits in the top bits of a port value
// (d_i << (128 - D)) -- GCM's bit order, as ak_gf128_digit_step documents.
`default_nettype none
module fv_gf128_step_ref #(
  parameter int DigitBits = 8
) (
  input  logic [127:0]           z_i,
  input  logic [DigitBits-1:0]   d_i,
  input  logic [127:0]           b_i,
  output logic [127:0]           z_o
);
  logic [127:0] xd, da, zx, db;
  assign xd = 128'd1 << (127 - DigitBits);
  assign da = {d_i, {(128 - DigitBits){1'b0}}};
  ak_gf128_mul_comb u_shift (.a_i(z_i), .b_i(xd), .z_o(zx));
  ak_gf128_mul_comb u_digit (.a_i(da), .b_i(b_i), .z_o(db));
  assign z_o = zx ^ db;
endmodule
`default_nettype wire
