// ak_sub_word: SubWord() of the key expansion (FIPS-197 5.2) -- four ak_sbox
// table S-boxes applied to the four bytes of a 32-bit word. Also usable as one
// column of SubBytes.
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: byte 0 of the word (a0 in FIPS-197) in [31:24], byte 3 in [7:0].
// Parameters: none.

`default_nettype none

module ak_sub_word (
  input  logic [31:0] in_i,
  output logic [31:0] out_o
);

  for (genvar b = 0; b < 4; b++) begin : g_byte
    ak_sbox u_sbox (
      .in_i (in_i[8*b +: 8]),
      .out_o(out_o[8*b +: 8])
    );
  end

endmodule

`default_nettype wire
