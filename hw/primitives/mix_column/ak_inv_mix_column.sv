// ak_inv_mix_column: InvMixColumns (FIPS-197 5.3.3) on one 32-bit column, i.e.
// multiplication by a^-1(x) = {0b}x^3 + {0d}x^2 + {09}x + {0e} modulo x^4 + 1.
// Since a^-1(x) = a(x) * ({04}x^2 + {05}), it is computed as a cheap pre-map
//   u = {04}*(a0 ^ a2), v = {04}*(a1 ^ a3);  a' = (a0^u, a1^v, a2^u, a3^v)
// followed by the shared forward ak_mix_column (the "Design of Rijndael" 4.1.3
// decomposition) -- four ak_xtime instances more than MixColumns.
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).
// Parameters: none.

`default_nettype none

module ak_inv_mix_column (
  input  logic [31:0] in_i,
  output logic [31:0] out_o
);

  logic [7:0] u2, u4;  // {02}*(a0 ^ a2), {04}*(a0 ^ a2)
  logic [7:0] v2, v4;  // {02}*(a1 ^ a3), {04}*(a1 ^ a3)
  logic [31:0] pre;

  ak_xtime u_xtime_u2 (.in_i(in_i[31:24] ^ in_i[15:8]), .out_o(u2));
  ak_xtime u_xtime_u4 (.in_i(u2),                       .out_o(u4));
  ak_xtime u_xtime_v2 (.in_i(in_i[23:16] ^ in_i[7:0]),  .out_o(v2));
  ak_xtime u_xtime_v4 (.in_i(v2),                       .out_o(v4));

  assign pre = in_i ^ {u4, v4, u4, v4};

  ak_mix_column u_mix_column (
    .in_i (pre),
    .out_o(out_o)
  );

endmodule

`default_nettype wire
