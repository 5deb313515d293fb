// fv_ueno_round_cut: test-only wrapper for the round proof: ak_ueno_round with one
// input in_i = {v, k} (v the 16 tower-field inverses of the state -- with
// fv_nb_inv_cut in place of ak_nb_inv, state_i IS v -- and k the AES-field round
// key) and one output out_o = {round_o, final_o}; direction and Demux are parameters.
`default_nettype none

module fv_ueno_round_cut #(
  parameter bit Dec   = 1'b0,
  parameter bit Demux = 1'b1
) (
  input  logic [255:0] in_i,
  output logic [255:0] out_o
);
  ak_ueno_round #(
    .Demux(Demux)
  ) u_round (
    .state_i(in_i[255:128]),
    .rk_i   (in_i[127:0]),
    .dec_i  (Dec),
    .round_o(out_o[255:128]),
    .final_o(out_o[127:0])
  );
endmodule

`default_nettype wire
