// ak_gf128_mul_syn: synthesis bench of the GF(2^128) multipliers (aeskit primitives):
// ak_gf128_mul (any DigitBits/Karatsuba) with its inputs start_i, a_i and b_i
// registered, so that every path through the multiplier starts and ends at a flip-flop
// (z_o, done_o and ready_o are registers or derived from registers inside it) and
// nextpnr's Fmax is register to register. The bench adds 257 flip-flops (a, b, start);
// aeskit.report.gf128_table subtracts them.
//
// Timing: one cycle more than ak_gf128_mul from the pins. Byte order: as ak_gf128_mul.
// Parameters: DigitBits, Karatsuba (passed through).
`default_nettype none
module ak_gf128_mul_syn #(
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
  logic [127:0] a_q, b_q;
  logic         start_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : in_reg
    if (!rst_ni) begin
      a_q     <= '0;
      b_q     <= '0;
      start_q <= 1'b0;
    end else begin
      a_q     <= a_i;
      b_q     <= b_i;
      start_q <= start_i;
    end
  end

  ak_gf128_mul #(.DigitBits(DigitBits), .Karatsuba(Karatsuba)) u_mul (
    .clk_i, .rst_ni, .start_i(start_q), .ready_o, .a_i(a_q), .b_i(b_q), .done_o, .z_o
  );
endmodule
`default_nettype wire
