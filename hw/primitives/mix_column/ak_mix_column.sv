// ak_mix_column: MixColumns (FIPS-197 5.1.3) on one 32-bit column: the column is
// multiplied by a(x) = {03}x^3 + {01}x^2 + {01}x + {02} modulo x^4 + 1:
//   b0 = 2*a0 ^ 3*a1 ^   a2 ^   a3      b2 =   a0 ^   a1 ^ 2*a2 ^ 3*a3
//   b1 =   a0 ^ 2*a1 ^ 3*a2 ^   a3      b3 = 3*a0 ^   a1 ^   a2 ^ 2*a3
// written as b_i = a_i ^ t ^ xtime(a_i ^ a_(i+1)) with t = a0 ^ a1 ^ a2 ^ a3
// (four ak_xtime instances).
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: row 0 (a0, s[0][c] in FIPS-197) in [31:24], row 3 in [7:0].
// Parameters: none.

`default_nettype none

module ak_mix_column (
  input  logic [31:0] in_i,
  output logic [31:0] out_o
);

  logic [7:0] a [4];
  logic [7:0] x [4];  // xtime(a_i ^ a_(i+1))
  logic [7:0] t;

  assign t = in_i[31:24] ^ in_i[23:16] ^ in_i[15:8] ^ in_i[7:0];

  for (genvar i = 0; i < 4; i++) begin : g_row
    // row i of the column is byte i counted from the top
    assign a[i] = in_i[31-8*i -: 8];

    ak_xtime u_xtime (
      .in_i (a[i] ^ a[(i+1)%4]),
      .out_o(x[i])
    );

    assign out_o[31-8*i -: 8] = a[i] ^ t ^ x[i];
  end

endmodule

`default_nettype wire
