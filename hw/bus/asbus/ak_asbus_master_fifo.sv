// ak_asbus_master_fifo: the data buffer of ak_asbus_master (one for the write beats,
// one for the read beats). A first-in first-out memory of Depth entries with one push
// per cycle and a variable pop: pop_i entries leave at once (the ASBUS master discards
// all beats of a refused write command in one cycle, so the next command's first beat
// is on WDATA in the next cycle).
//
// Timing    : an entry pushed at edge e is at the head (head_o) from edge e on if the
//             buffer was empty (fall-through read of the registered memory); count_o
//             is registered (entries after the last edge). head_o is combinational
//             from the registers only.
// Contract  : push_i only while count_o < Depth or pop_i >= 1; pop_i <= count_o (the
//             master guarantees both through its credits; not checked here).
// Reset     : asynchronous, active low; pointers, count and the memory are all reset.
// Byte order: none (entries pass through unchanged).
// Parameters: DataWidth (bits per entry, >= 1), Depth (entries, a power of two >= 2).

`default_nettype none

module ak_asbus_master_fifo #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned Depth = 64,
  localparam int unsigned Aw = $clog2(Depth)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [DataWidth-1:0] data_i,
  input  logic [Aw:0]      pop_i,     // entries removed this cycle (0 .. count_o)
  output logic [Aw:0]      count_o,
  output logic [DataWidth-1:0] head_o
);

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth < 1) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master_fifo: DataWidth=%0d not >= 1", DataWidth);
`else
    $fatal(1, "ak_asbus_master_fifo: DataWidth=%0d not >= 1", DataWidth);
`endif
  end
  if (Depth < 2 || (Depth & (Depth - 1)) != 0) begin : g_bad_param_1
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master_fifo: Depth=%0d not a power of two >= 2", Depth);
`else
    $fatal(1, "ak_asbus_master_fifo: Depth=%0d not a power of two >= 2", Depth);
`endif
  end

  logic [DataWidth-1:0] mem_q [Depth];
  logic [Aw-1:0]    wp_q, wp_d, rp_q, rp_d;
  logic [Aw:0]      cnt_q, cnt_d;

  always_comb begin : fifo_next
    wp_d  = push_i ? wp_q + Aw'(1) : wp_q;
    rp_d  = rp_q + pop_i[Aw-1:0];          // Depth is a power of two: wraps by itself
    cnt_d = cnt_q + (Aw+1)'(push_i) - pop_i;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fifo_regs
    if (!rst_ni) begin
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      wp_q  <= wp_d;
      rp_q  <= rp_d;
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fifo_mem
    if (!rst_ni) begin
      for (int i = 0; i < Depth; i++) mem_q[i] <= '0;
    end else if (push_i) begin
      mem_q[wp_q] <= data_i;
    end
  end

  assign count_o = cnt_q;
  assign head_o  = mem_q[rp_q];

endmodule

`default_nettype wire
