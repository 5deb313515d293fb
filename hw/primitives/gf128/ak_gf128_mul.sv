// ak_gf128_mul: GF(2^128) multiplier of GCM (GHASH's X * H), one-cycle or digit-serial,
// chosen by parameter -- the primitive the mode engine instantiates.
//
// z = a * b mod P, P = x^128 + x^7 + x^2 + x + 1 (NIST SP 800-38D, section 6.3).
//
//   DigitBits = 128  one product per cycle: ak_gf128_mul_comb (Karatsuba = 0) or
//                    ak_gf128_mul_kara (Karatsuba = 1) between the inputs and z_q.
//   DigitBits = D    (1, 4, 8, 16, 32) digit-serial, Horner's rule over the digits of a,
//                    highest powers of x first:
//                      Z <- Z * x^D + A_k * B mod P,   k = 128/D - 1 down to 0,
//                    A_k the digit holding x^(kD) .. x^(kD+D-1) of a, i.e. the port bits
//                    a[127-kD -: D]; the first step (A_(128/D-1) = a[D-1:0], from Z = 0)
//                    runs at the start edge on a_i/b_i themselves, the others on the
//                    registered rest of a (a_q, shifted right by D per step) and b_q.
//                    One step is ak_gf128_digit_step (Karatsuba = 1: one Karatsuba level
//                    in its D x D partial products when D >= 16, else ignored).
//
// Handshake and timing: start_i is taken in a cycle with ready_o high (ignored
// otherwise); a_i and b_i are sampled then and may change afterwards. done_o is a
// one-cycle pulse exactly 128/DigitBits cycles after the start cycle (DigitBits = 128:
// the next cycle); from then until the cycle after the next start, z_o holds a * b.
// ready_o is low while a product is in progress and high again in the cycle of done_o,
// so a new start may be given with done_o (back-to-back): one product every 128/D
// cycles, every cycle for DigitBits = 128. While a serial product runs, z_o shows the
// partial Horner sum. z_o is a register; every register is reset (rst_ni, asynchronous,
// active low) to zero.
//
// Byte order: GCM's. A port value v[127:0] holds a 16-byte block with byte 0 in
//             v[127:120]; the coefficient of x^i is v[127-i].
// Parameters: DigitBits (1, 4, 8, 16, 32 or 128; checked at elaboration), Karatsuba.

`default_nettype none

module ak_gf128_mul #(
  parameter int DigitBits = 128,
  parameter bit Karatsuba = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         start_i,
  output logic         ready_o,
  input  logic [127:0] a_i,
  input  logic [127:0] b_i,
  output logic         done_o,
  output logic [127:0] z_o
);

  localparam int D     = DigitBits;
  localparam int Steps = 128 / D;

  if (!(D == 1 || D == 4 || D == 8 || D == 16 || D == 32 || D == 128)) begin : g_bad_digit
`ifdef __ICARUS__
    initial $fatal(1, "ak_gf128_mul: DigitBits must be 1, 4, 8, 16, 32 or 128, got %0d", D);
`else
    $fatal(1, "ak_gf128_mul: DigitBits must be 1, 4, 8, 16, 32 or 128, got %0d", D);
`endif
  end

  logic         take;
  logic [127:0] z_d, z_q;
  logic         done_d, done_q;

  assign take    = start_i && ready_o;
  assign z_o     = z_q;
  assign done_o  = done_q;

  if (D == 128) begin : g_parallel
    logic [127:0] prod;

    if (Karatsuba) begin : g_kara
      ak_gf128_mul_kara u_mul (.a_i(a_i), .b_i(b_i), .z_o(prod));
    end else begin : g_comb
      ak_gf128_mul_comb u_mul (.a_i(a_i), .b_i(b_i), .z_o(prod));
    end

    assign ready_o = 1'b1;

    always_comb begin : product_next
      z_d    = take ? prod : z_q;
      done_d = take;
    end

  end else begin : g_serial
    localparam int CntW = $clog2(Steps);

    logic [127-D:0] a_d, a_q;     // the digits of a not yet used, next one in [D-1:0]
    logic [127:0]   b_d, b_q;
    logic [CntW-1:0] cnt_d, cnt_q; // busy: steps left after the one of this cycle
    logic           busy_d, busy_q;
    logic [127:0]   step_z, step_b, step_out;
    logic [D-1:0]   step_d;

    assign ready_o = !busy_q;

    // the first step runs on the inputs, from Z = 0
    always_comb begin : step_in
      step_z = take ? '0 : z_q;
      step_d = take ? a_i[D-1:0] : a_q[D-1:0];
      step_b = take ? b_i : b_q;
    end

    ak_gf128_digit_step #(.DigitBits(D), .Karatsuba(Karatsuba)) u_step (
      .z_i(step_z), .d_i(step_d), .b_i(step_b), .z_o(step_out)
    );

    always_comb begin : serial_next
      z_d    = z_q;
      a_d    = a_q;
      b_d    = b_q;
      cnt_d  = cnt_q;
      busy_d = busy_q;
      done_d = 1'b0;
      if (take) begin
        z_d    = step_out;
        a_d    = a_i[127:D];
        b_d    = b_i;
        cnt_d  = CntW'(Steps - 2);
        busy_d = 1'b1;
      end else if (busy_q) begin
        z_d    = step_out;
        a_d    = a_q >> D;
        cnt_d  = cnt_q - 1'b1;
        if (cnt_q == '0) begin
          busy_d = 1'b0;
          done_d = 1'b1;
        end
      end
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : serial_reg
      if (!rst_ni) begin
        a_q    <= '0;
        b_q    <= '0;
        cnt_q  <= '0;
        busy_q <= 1'b0;
      end else begin
        a_q    <= a_d;
        b_q    <= b_d;
        cnt_q  <= cnt_d;
        busy_q <= busy_d;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : product_reg
    if (!rst_ni) begin
      z_q    <= '0;
      done_q <= 1'b0;
    end else begin
      z_q    <= z_d;
      done_q <= done_d;
    end
  end

endmodule

`default_nettype wire
