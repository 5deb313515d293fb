// ak_gf128_mul_kara: product of two elements of GCM's field GF(2^128), Karatsuba form.
//
// z = a * b mod P, P = x^128 + x^7 + x^2 + x + 1, proven equal to ak_gf128_mul_comb
// (aeskit.formal.proofs "gf128-kara"). The 255-bit carry-less product is built by two
// levels of Karatsuba: with a = a1 x^64 + a0 (and b alike),
//   a b = a1 b1 x^128 + ((a0 + a1)(b0 + b1) + a0 b0 + a1 b1) x^64 + a0 b0,
// three 64 x 64 products instead of four, each again split into three 32 x 32
// schoolbook products: 9 x 1024 = 9,216 AND gates instead of 16,384, for more XOR
// levels after them. The reduction is ak_gf128_reduce.
//
// Timing    : purely combinational (latency 0, a new product every cycle).
// Byte order: GCM's, as ak_gf128_mul_comb: byte 0 of a block in v[127:120], the
//             coefficient of x^i in v[127-i].
// Parameters: none.

`default_nettype none

module ak_gf128_mul_kara (
  input  logic [127:0] a_i,
  input  logic [127:0] b_i,
  output logic [127:0] z_o
);

  // 32 x 32 carry-less product, schoolbook
  function automatic logic [62:0] clmul32(input logic [31:0] x, input logic [31:0] y);
    logic [62:0] r;
    r = '0;
    for (int i = 0; i < 32; i++) begin
      r = r ^ ({63{x[i]}} & ({31'b0, y} << i));
    end
    return r;
  endfunction

  // 64 x 64 carry-less product, one Karatsuba level over clmul32
  function automatic logic [126:0] kara64(input logic [63:0] x, input logic [63:0] y);
    logic [62:0] lo, hi, mid;
    lo  = clmul32(x[31:0], y[31:0]);
    hi  = clmul32(x[63:32], y[63:32]);
    mid = clmul32(x[31:0] ^ x[63:32], y[31:0] ^ y[63:32]) ^ lo ^ hi;
    return {64'b0, lo} ^ {32'b0, mid, 32'b0} ^ {hi, 64'b0};
  endfunction

  logic [127:0] pa, pb;      // polynomial order: bit i = coefficient of x^i
  logic [126:0] lo, hi, mid;
  logic [254:0] prod;
  logic [127:0] pz;

  always_comb begin : to_poly
    for (int i = 0; i < 128; i++) begin
      pa[i] = a_i[127-i];
      pb[i] = b_i[127-i];
    end
  end

  always_comb begin : karatsuba
    lo   = kara64(pa[63:0], pb[63:0]);
    hi   = kara64(pa[127:64], pb[127:64]);
    mid  = kara64(pa[63:0] ^ pa[127:64], pb[63:0] ^ pb[127:64]) ^ lo ^ hi;
    prod = {128'b0, lo} ^ {64'b0, mid, 64'b0} ^ {hi, 128'b0};
  end

  ak_gf128_reduce #(.InBits(255)) u_reduce (.p_i(prod), .r_o(pz));

  always_comb begin : to_port
    for (int i = 0; i < 128; i++) begin
      z_o[127-i] = pz[i];
    end
  end

endmodule

`default_nettype wire
