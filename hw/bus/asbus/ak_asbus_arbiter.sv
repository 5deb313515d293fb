// ak_asbus_arbiter: fixed-priority ASBUS arbiter, master 0 highest. Combinational:
// the winner among the requesting masters that are not masked (a master is masked
// in the cycle its GNT is high, since it still holds the command just taken).
//
// Timing    : combinational (latency 0); the slave registers the grant (GNT one
//             cycle after REQ, the ASBUS two-cycle command phase).
// Byte order: not applicable.
// Parameters: N (number of masters, 1..16).

`default_nettype none

module ak_asbus_arbiter #(
  parameter int unsigned N = 2
) (
  input  logic [N-1:0] req_i,
  input  logic [N-1:0] mask_i,
  input  logic         enable_i,
  output logic [N-1:0] gnt_o,
  output logic         any_o
);

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (N < 1 || N > 16) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_arbiter: N=%0d not in 1..16", N);
`else
    $fatal(1, "ak_asbus_arbiter: N=%0d not in 1..16", N);
`endif
  end

  logic [N-1:0] cand;

  assign cand = req_i & ~mask_i & {N{enable_i}};

  always_comb begin : priority_pick
    gnt_o = '0;
    for (int i = N - 1; i >= 0; i--) begin
      if (cand[i]) gnt_o = N'(1) << i;
    end
  end

  assign any_o = |cand;

endmodule

`default_nettype wire
