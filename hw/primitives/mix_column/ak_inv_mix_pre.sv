// ak_inv_mix_pre: the pre-map of InvMixColumns on one 32-bit column. InvMixColumns
// multiplies by a^-1(x) = a(x) * ({04}x^2 + {05}) (the "Design of Rijndael" 4.1.3
// decomposition), so InvMixColumns(c) = MixColumns(pre(c)) with
//   u = {04}*(a0 ^ a2), v = {04}*(a1 ^ a3);  pre(c) = (a0^u, a1^v, a2^u, a3^v).
// Every output bit is the XOR of at most seven input bits (two LUT4 levels), so a
// design can put a register between the pre-map and ak_mix_column.
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).
// Parameters: none.

`default_nettype none

module ak_inv_mix_pre (
  input  logic [31:0] in_i,
  output logic [31:0] out_o
);

  logic [7:0] u2, u4;  // {02}*(a0 ^ a2), {04}*(a0 ^ a2)
  logic [7:0] v2, v4;  // {02}*(a1 ^ a3), {04}*(a1 ^ a3)

  ak_xtime u_xtime_u2 (.in_i(in_i[31:24] ^ in_i[15:8]), .out_o(u2));
  ak_xtime u_xtime_u4 (.in_i(u2),                       .out_o(u4));
  ak_xtime u_xtime_v2 (.in_i(in_i[23:16] ^ in_i[7:0]),  .out_o(v2));
  ak_xtime u_xtime_v4 (.in_i(v2),                       .out_o(v4));

  assign out_o = in_i ^ {u4, v4, u4, v4};

endmodule

`default_nettype wire
