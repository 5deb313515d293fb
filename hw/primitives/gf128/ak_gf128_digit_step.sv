// ak_gf128_digit_step: one Horner step of the digit-serial GF(2^128) multiplier
// ak_gf128_mul: z_o = z_i * x^D + d * b_i mod P (P = x^128 + x^7 + x^2 + x + 1,
// D = DigitBits), where d is the D-bit digit of a on d_i.
//
// Run over the digits of a from the one holding the highest powers (x^(128-D) ..
// x^127, the port bits a[D-1:0]) to the one holding x^0 .. x^(D-1) (a[127:128-D]),
// starting from z = 0, it computes a * b after 128/D steps (Horner's rule). Proven
// against two ak_gf128_mul_comb (aeskit.formal.proofs "gf128-step-*").
//
// The digit's product d * b (degree <= 126 + D) is built from 128/D products of d with
// a D-bit slice of b: schoolbook, or for Karatsuba = 1 and D >= 16 one Karatsuba level
// each (three (D/2) x (D/2) products instead of four; below 16 bits the split saves
// nothing on LUT4s and Karatsuba is ignored). Added to z * x^D, the D coefficients above
// x^127 are folded back once (ak_gf128_reduce).
//
// Timing    : purely combinational.
// Byte order: GCM's on z_i, b_i, z_o (byte 0 in [127:120], x^i in bit 127-i). d_i is a
//             digit as it sits in a: the digit a[127-kD -: D] holds x^(kD) .. x^(kD+D-1)
//             of a, so d_i[D-1-j] is the coefficient of x^j of the digit polynomial;
//             as a port value the digit is d_i << (128 - D).
// Parameters: DigitBits (1, 2, 4, 8, 16, 32, 64; checked at elaboration), Karatsuba.

`default_nettype none

module ak_gf128_digit_step #(
  parameter int DigitBits = 8,
  parameter bit Karatsuba = 1'b0
) (
  input  logic [127:0]         z_i,
  input  logic [DigitBits-1:0] d_i,
  input  logic [127:0]         b_i,
  output logic [127:0]         z_o
);

  localparam int D      = DigitBits;
  localparam int Slices = 128 / D;
  localparam bit UseKara = Karatsuba && D >= 16;

  if (!(D == 1 || D == 2 || D == 4 || D == 8 || D == 16 || D == 32 || D == 64))
  begin : g_bad_digit
`ifdef __ICARUS__
    initial $fatal(1, "ak_gf128_digit_step: DigitBits must be 1,2,4,8,16,32 or 64, got %0d", D);
`else
    $fatal(1, "ak_gf128_digit_step: DigitBits must be 1,2,4,8,16,32 or 64, got %0d", D);
`endif
  end

  // D x D carry-less product, schoolbook (result 2D-1 bits, in 2D)
  function automatic logic [2*D-1:0] clmul_d(input logic [D-1:0] x, input logic [D-1:0] y);
    logic [2*D-1:0] r;
    r = '0;
    for (int i = 0; i < D; i++) begin
      r = r ^ ({2*D{x[i]}} & ({{D{1'b0}}, y} << i));
    end
    return r;
  endfunction

  logic [127:0]     pz, pb;     // polynomial order: bit i = coefficient of x^i
  logic [D-1:0]     pd;
  logic [127+D:0]   acc;        // z * x^D + d * b, degree <= 127 + D
  logic [127:0]     pr;

  always_comb begin : to_poly
    for (int i = 0; i < 128; i++) begin
      pz[i] = z_i[127-i];
      pb[i] = b_i[127-i];
    end
    for (int j = 0; j < D; j++) begin
      pd[j] = d_i[D-1-j];
    end
  end

  // the 128/D partial products d * b[sD +: D]
  logic [2*D-1:0] parts [Slices];

  if (UseKara) begin : g_kara
    localparam int H = D / 2;
    for (genvar s = 0; s < Slices; s++) begin : g_slice
      logic [H-1:0]   xl, xh, yl, yh;
      logic [2*H-1:0] lo, hi, mid;
      always_comb begin : kara_slice
        xl  = pd[H-1:0];
        xh  = pd[D-1:H];
        yl  = pb[s*D +: H];
        yh  = pb[s*D + H +: H];
        lo  = '0;
        hi  = '0;
        mid = '0;
        for (int i = 0; i < H; i++) begin
          lo  = lo  ^ ({2*H{xl[i]}} & ({{H{1'b0}}, yl} << i));
          hi  = hi  ^ ({2*H{xh[i]}} & ({{H{1'b0}}, yh} << i));
          mid = mid ^ ({2*H{xl[i] ^ xh[i]}} & ({{H{1'b0}}, yl ^ yh} << i));
        end
        mid = mid ^ lo ^ hi;
        parts[s] = {{D{1'b0}}, lo} ^ {{H{1'b0}}, mid, {H{1'b0}}} ^ {hi, {D{1'b0}}};
      end
    end
  end else begin : g_school
    always_comb begin : school
      for (int s = 0; s < Slices; s++) begin
        parts[s] = clmul_d(pd, pb[s*D +: D]);
      end
    end
  end

  always_comb begin : mac
    acc = {pz, {D{1'b0}}};
    for (int s = 0; s < Slices; s++) begin
      acc = acc ^ ({{(128-D){1'b0}}, parts[s]} << (s * D));
    end
  end

  ak_gf128_reduce #(.InBits(128 + D)) u_reduce (.p_i(acc), .r_o(pr));

  always_comb begin : to_port
    for (int i = 0; i < 128; i++) begin
      z_o[127-i] = pr[i];
    end
  end

endmodule

`default_nettype wire
