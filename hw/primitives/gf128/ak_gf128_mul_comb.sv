// ak_gf128_mul_comb: product of two elements of GCM's field GF(2^128), schoolbook form
// -- the reference every other GF(2^128) multiplier of aeskit is proven equal to
// (aeskit.formal.proofs, "gf128-*").
//
// z = a * b mod P, P = x^128 + x^7 + x^2 + x + 1 (NIST SP 800-38D, section 6.3).
// Written as plainly as possible: the 255-bit carry-less product of the two
// polynomials (128 shifted, AND-gated copies of b), then the reduction folding every
// coefficient of degree k >= 128 into k-121, k-126, k-127 and k-128, highest first.
//
// Timing    : purely combinational (latency 0, a new product every cycle).
// Byte order: GCM's. A port value v[127:0] holds a 16-byte block with byte 0 in
//             v[127:120] (aeskit.model.gf128.block_int); GCM numbers the bits from the
//             left, so the coefficient of x^i is v[127-i] (x^0 = bit 7 of byte 0,
//             x^127 = bit 0 of byte 15). Inside, the module works on the bit-reversed
//             polynomial p[i] = v[127-i] (plain wiring).
// Parameters: none.

`default_nettype none

module ak_gf128_mul_comb (
  input  logic [127:0] a_i,
  input  logic [127:0] b_i,
  output logic [127:0] z_o
);

  logic [127:0] pa, pb;     // polynomial order: bit i = coefficient of x^i
  logic [254:0] prod;       // carry-less product, degree <= 254
  logic [254:0] red;        // prod while it is being reduced
  logic [127:0] pz;

  always_comb begin : to_poly
    for (int i = 0; i < 128; i++) begin
      pa[i] = a_i[127-i];
      pb[i] = b_i[127-i];
    end
  end

  always_comb begin : schoolbook
    prod = '0;
    for (int i = 0; i < 128; i++) begin
      prod = prod ^ ({255{pa[i]}} & ({127'b0, pb} << i));
    end
  end

  always_comb begin : reduction
    red = prod;
    for (int k = 254; k >= 128; k--) begin
      // x^k = x^(k-128) * (x^7 + x^2 + x + 1) mod P
      red[k-121] = red[k-121] ^ red[k];
      red[k-126] = red[k-126] ^ red[k];
      red[k-127] = red[k-127] ^ red[k];
      red[k-128] = red[k-128] ^ red[k];
    end
    pz = red[127:0];
  end

  always_comb begin : to_port
    for (int i = 0; i < 128; i++) begin
      z_o[127-i] = pz[i];
    end
  end

endmodule

`default_nettype wire
