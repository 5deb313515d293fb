// ak_gf128_reduce: reduction of a polynomial of degree < InBits modulo GCM's field
// polynomial P = x^128 + x^7 + x^2 + x + 1: every coefficient of degree k >= 128 is
// folded into k-121, k-126, k-127 and k-128, highest first (x^128 = x^7 + x^2 + x + 1).
// Shared by ak_gf128_mul_kara and ak_gf128_digit_step.
//
// Timing    : purely combinational.
// Byte order: POLYNOMIAL order on both ports (p_i[k] and r_o[k] are the coefficients
//             of x^k), not GCM's port order: the callers reverse at their boundaries.
// Parameters: InBits (129..255, checked at elaboration): width of p_i.

`default_nettype none

module ak_gf128_reduce #(
  parameter int InBits = 255
) (
  input  logic [InBits-1:0] p_i,
  output logic [127:0]      r_o
);

  if (InBits < 129 || InBits > 255) begin : g_bad_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_gf128_reduce: InBits must be 129..255, got %0d", InBits);
`else
    $fatal(1, "ak_gf128_reduce: InBits must be 129..255, got %0d", InBits);
`endif
  end

  logic [InBits-1:0] red;

  always_comb begin : fold
    red = p_i;
    for (int k = InBits - 1; k >= 128; k--) begin
      red[k-121] = red[k-121] ^ red[k];
      red[k-126] = red[k-126] ^ red[k];
      red[k-127] = red[k-127] ^ red[k];
      red[k-128] = red[k-128] ^ red[k];
    end
    r_o = red[127:0];
  end

endmodule

`default_nettype wire
