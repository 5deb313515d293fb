// ak_xdam_fifo: small synchronous FIFO (register based) for XDAM's write-response
// and read-burst bookkeeping.
//
// Timing    : push at the edge, data visible at the head the next cycle (latency 1);
//             push and pop in the same cycle allowed (not when empty); a pop while
//             empty and a push while full (without a pop) are ignored.
// Byte order: not applicable.
// Parameters: DataWidth (data bits), Depth (entries, >= 2).

`default_nettype none

module ak_xdam_fifo #(
  parameter int unsigned DataWidth = 8,
  parameter int unsigned Depth = 8
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          push_i,
  input  logic [DataWidth-1:0] data_i,
  input  logic          pop_i,
  output logic          valid_o,
  output logic [DataWidth-1:0] data_o,
  output logic [$clog2(Depth):0] count_o
);

  localparam int unsigned PW = $clog2(Depth);

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (Depth < 2 || (Depth & (Depth - 1)) != 0) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_xdam_fifo: Depth=%0d not a power of two >= 2", Depth);
`else
    $fatal(1, "ak_xdam_fifo: Depth=%0d not a power of two >= 2", Depth);
`endif
  end

  logic [DataWidth-1:0] mem_q [Depth];
  logic [PW-1:0] wp_q, rp_q;
  logic [PW:0]   cnt_q;
  logic          pop, push;

  assign pop  = pop_i && (cnt_q != '0);
  assign push = push_i && (cnt_q != (PW+1)'(Depth) || pop);

  always_ff @(posedge clk_i or negedge rst_ni) begin : ptr_regs
    if (!rst_ni) begin
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      wp_q  <= wp_q + PW'(push);
      rp_q  <= rp_q + PW'(pop);
      cnt_q <= cnt_q + (PW+1)'(push) - (PW+1)'(pop);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : mem_regs
    if (!rst_ni) begin
      for (int i = 0; i < Depth; i++) mem_q[i] <= '0;
    end else if (push) begin
      mem_q[wp_q] <= data_i;
    end
  end

  assign valid_o = (cnt_q != '0);
  assign data_o  = mem_q[rp_q];
  assign count_o = cnt_q;

endmodule

`default_nettype wire
