// ak_sbox_sel: one SubBytes S-box, implementation chosen by a parameter, so that a core
// switches its S-box without code changes. Every implementation is combinational
// and proven equal to the table (ak_sbox) by tests/aeskit/formal.
//
//   Impl 0  table      ak_sbox (a 256-entry case ROM)                        -- default
//   Impl 1  comp       ak_sbox_comp_encdec, composite field of paper 000, dec_i = 1'b0
//   Impl 2  canright   ak_sbox_canright_encdec, normal-basis tower,       dec_i = 1'b0
//   Impl 3  lutinv     ak_sbox_lutinv_encdec, LUT inverter + affine (paper 001)
//
// The block-RAM form (ak_sbox_bram / ak_inv_sbox_bram) has a latency of one cycle
// and therefore is not selectable here: a core that uses it must schedule around
// the registered read.
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: one AES byte in and out, bit 7 the coefficient of x^7 (FIPS-197).
// Parameters: Impl (0..3, checked at elaboration).

`default_nettype none

module ak_sbox_sel #(
  parameter int Impl = 0
) (
  input  logic [7:0] in_i,
  output logic [7:0] out_o
);

  if (Impl == 0) begin : g_table
    ak_sbox u_sbox (.in_i(in_i), .out_o(out_o));
  end else if (Impl == 1) begin : g_comp
    ak_sbox_comp_encdec u_sbox (.in_i(in_i), .dec_i(1'b0), .out_o(out_o));
  end else if (Impl == 2) begin : g_canright
    ak_sbox_canright_encdec u_sbox (.in_i(in_i), .dec_i(1'b0), .out_o(out_o));
  end else if (Impl == 3) begin : g_lutinv
    ak_sbox_lutinv_encdec u_sbox (.in_i(in_i), .dec_i(1'b0), .out_o(out_o));
  end else begin : g_bad_impl
    assign out_o = 8'h00;
`ifdef __ICARUS__
    initial $fatal(1, "ak_sbox_sel: Impl must be 0..3, got %0d", Impl);
`else
    $fatal(1, "ak_sbox_sel: Impl must be 0..3, got %0d", Impl);
`endif
  end

endmodule

`default_nettype wire
