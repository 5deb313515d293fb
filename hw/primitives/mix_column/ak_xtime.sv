// ak_xtime: multiplication by {02} (the polynomial x) in GF(2^8) modulo
// x^8 + x^4 + x^3 + x + 1 -- FIPS-197 "xtime()" (section 4.2.1):
// out = (in << 1) ^ (in[7] ? 8'h1b : 8'h00).
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: one byte, bit 7 the coefficient of x^7, as in FIPS-197.
// Parameters: none.

`default_nettype none

module ak_xtime (
  input  logic [7:0] in_i,
  output logic [7:0] out_o
);

  assign out_o = {in_i[6:0], 1'b0} ^ (in_i[7] ? 8'h1b : 8'h00);

endmodule

`default_nettype wire
