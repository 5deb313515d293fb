// ak_sbox_comp_encdec: the composite-field S-box of paper 000 (Yang, Wen, Fan),
// GF(((2^2)^2)^2) in polynomial bases, shared by SubBytes and InvSubBytes: substage 1
// (ak_sbox_comp_s1: input map + GF(2^4) inversion part) followed by substage 2
// (ak_sbox_comp_s2: the two GF(2^4) products + output map). dec_i selects the linear
// maps around the shared inversion. The paper's engine puts a pipeline register on
// the 12-bit cut between the two; this module is the unpipelined composition (the
// field, the isomorphism and the maps are documented in the two halves and in
// docs/primitives.md).
//
// Timing    : purely combinational (latency 0, a new input every cycle).
// Byte order: one AES byte in and out, bit 7 the coefficient of x^7 (FIPS-197).
// Parameters: none. dec_i: 0 SubBytes (out = S(in)), 1 InvSubBytes (out = S^-1(in)).

`default_nettype none

module ak_sbox_comp_encdec (
  input  logic [7:0] in_i,
  input  logic       dec_i,
  output logic [7:0] out_o
);

  logic [11:0] cut;  // {a1, a0, d^-1}: the substage boundary

  ak_sbox_comp_s1 u_s1 (
    .in_i (in_i),
    .dec_i(dec_i),
    .out_o(cut)
  );

  ak_sbox_comp_s2 u_s2 (
    .in_i (cut),
    .dec_i(dec_i),
    .out_o(out_o)
  );

endmodule

`default_nettype wire
