// ak_inv_mix_column_direct: InvMixColumns (FIPS-197 5.3.3) on one 32-bit column in
// the direct form: b_i = {0e} a_i ^ {0b} a_(i+1) ^ {0d} a_(i+2) ^ {09} a_(i+3), with
// {02}, {04}, {08} multiples of every byte from three chained ak_xtime instances
// (twelve in all) and {09} = 8+1, {0b} = 8+2+1, {0d} = 8+4+1, {0e} = 8+4+2. Compare
// ak_inv_mix_column (the factored form: a small pre-map + ak_mix_column).
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: row 0 in [31:24], row 3 in [7:0] (as ak_mix_column).
// Parameters: none.

`default_nettype none

module ak_inv_mix_column_direct (
  input  logic [31:0] in_i,
  output logic [31:0] out_o
);

  logic [7:0] a  [4];
  logic [7:0] x2 [4];
  logic [7:0] x4 [4];
  logic [7:0] x8 [4];
  logic [7:0] m9 [4];  // {09} a_i
  logic [7:0] mb [4];  // {0b} a_i
  logic [7:0] md [4];  // {0d} a_i
  logic [7:0] me [4];  // {0e} a_i

  for (genvar i = 0; i < 4; i++) begin : g_byte
    assign a[i] = in_i[31-8*i -: 8];

    ak_xtime u_x2 (.in_i(a[i]),  .out_o(x2[i]));
    ak_xtime u_x4 (.in_i(x2[i]), .out_o(x4[i]));
    ak_xtime u_x8 (.in_i(x4[i]), .out_o(x8[i]));

    assign m9[i] = x8[i] ^ a[i];
    assign mb[i] = x8[i] ^ x2[i] ^ a[i];
    assign md[i] = x8[i] ^ x4[i] ^ a[i];
    assign me[i] = x8[i] ^ x4[i] ^ x2[i];
  end

  for (genvar i = 0; i < 4; i++) begin : g_row
    assign out_o[31-8*i -: 8] = me[i] ^ mb[(i+1)%4] ^ md[(i+2)%4] ^ m9[(i+3)%4];
  end

endmodule

`default_nettype wire
