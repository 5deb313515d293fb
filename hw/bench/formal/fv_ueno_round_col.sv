// fv_ueno_round_col: test-only column slice of a round datapath for the formal proof:
// column COL of round_o and final_o of either ak_ueno_round (Gold = 0) or
// fv_ueno_round_gold (Gold = 1), with the state bytes the column depends on (the
// ShiftRows / InvShiftRows diagonal) and the round-key column as the only inputs.
// (Kept from the first attempt at the round proof, a miter per column, which did not
// finish; the proof in tests/hw/cores/ueno/test_ueno_formal.py cuts at the inversion.)
`default_nettype none

module fv_ueno_round_col #(
  parameter int Gold = 0,
  parameter int Col  = 0
) (
  input  logic [127:0] state_i,
  input  logic [31:0]  rk_i,
  input  logic         dec_i,
  output logic [31:0]  round_o,
  output logic [31:0]  final_o
);
  logic [127:0] rk, r, f;
  assign rk = {4{rk_i}};
  if (Gold != 0) begin : g_gold
    fv_ueno_round_gold u (.state_i, .rk_i(rk), .dec_i, .round_o(r), .final_o(f));
  end else begin : g_gate
    ak_ueno_round u (.state_i, .rk_i(rk), .dec_i, .round_o(r), .final_o(f));
  end
  assign round_o = r[127-32*Col -: 32];
  assign final_o = f[127-32*Col -: 32];
  // the other three columns are not compared (Verilator's *unused* convention)
  logic unused_cols;
  assign unused_cols = ^{r, f};
endmodule

`default_nettype wire
