// ak_p002_mix_column_encdec: MixColumns and InvMixColumns on one 32-bit column sharing
// one ak_mix_column -- the unification of the conventional enc/dec datapaths of
// paper 002, Sec. 2 (Satoh et al. [29], Liu et al. [14]): InvMixColumns =
// MixColumns(pre-map), a^-1(x) = a(x) * ({04}x^2 + {05}), the decomposition that
// ak_inv_mix_column uses; here the pre-map is switched on by dec_i:
//   u = {04}*(a0 ^ a2), v = {04}*(a1 ^ a3);  a' = (a0^u, a1^v, a2^u, a3^v) if dec_i.
// Proven equal to ak_mix_column (dec_i = 0) and ak_inv_mix_column (dec_i = 1) by
// tests/hw/cores/ueno/test_ueno_formal.py.
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).
// Parameters: none. dec_i: 0 MixColumns, 1 InvMixColumns.

`default_nettype none

module ak_p002_mix_column_encdec (
  input  logic [31:0] in_i,
  input  logic        dec_i,
  output logic [31:0] out_o
);

  logic [7:0]  u2, u4;  // {02}*(a0 ^ a2), {04}*(a0 ^ a2)
  logic [7:0]  v2, v4;  // {02}*(a1 ^ a3), {04}*(a1 ^ a3)
  logic [31:0] pre;

  ak_xtime u_xtime_u2 (.in_i(in_i[31:24] ^ in_i[15:8]), .out_o(u2));
  ak_xtime u_xtime_u4 (.in_i(u2),                       .out_o(u4));
  ak_xtime u_xtime_v2 (.in_i(in_i[23:16] ^ in_i[7:0]),  .out_o(v2));
  ak_xtime u_xtime_v4 (.in_i(v2),                       .out_o(v4));

  assign pre = in_i ^ (dec_i ? {u4, v4, u4, v4} : 32'h0);

  ak_mix_column u_mix_column (
    .in_i (pre),
    .out_o(out_o)
  );

endmodule

`default_nettype wire
