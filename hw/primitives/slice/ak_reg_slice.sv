// ak_reg_slice: the one register slice of aeskit (a skid buffer): a valid/ready
// handshake cut by registers on every signal, so no combinational path runs through it
// in either direction: data_o and valid_o come from the output register, ready_o from
// the skid register's flag.
//
// Timing: one cycle of latency (a beat taken at edge E is on the output after E), one
// beat per cycle at full rate whatever ready_i does: when the output register is held
// (ready_i low) one more beat is taken into the skid register, and ready_o drops only
// then. Nothing is dropped or duplicated; order is kept.
//
// Reset: asynchronous, active low: both valid flags and the data registers (zero).
// Byte order: none (data pass through unchanged).
//
// Parameters:
//   Width  bits of data per beat (>= 1).

`default_nettype none

module ak_reg_slice #(
  parameter int Width = 128
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // in
  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,
  // out
  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o
);

  if (Width < 1) begin : g_bad_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_reg_slice: Width must be >= 1, got %0d", Width);
`else
    $fatal(1, "ak_reg_slice: Width must be >= 1, got %0d", Width);
`endif
  end

  logic             out_v_q, skid_v_q;
  logic [Width-1:0] out_d_q, skid_d_q;

  assign ready_o = !skid_v_q;
  assign valid_o = out_v_q;
  assign data_o  = out_d_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : slice_regs
    if (!rst_ni) begin
      out_v_q  <= 1'b0;
      out_d_q  <= '0;
      skid_v_q <= 1'b0;
      skid_d_q <= '0;
    end else if (!out_v_q || ready_i) begin
      // the output register is free (or taken now): the skid beat first, else the input
      if (skid_v_q) begin
        out_v_q  <= 1'b1;
        out_d_q  <= skid_d_q;
        skid_v_q <= 1'b0;
      end else begin
        out_v_q  <= valid_i;
        out_d_q  <= data_i;
      end
    end else if (valid_i && !skid_v_q) begin
      // the output register is held: the beat offered now goes to the skid register
      skid_v_q <= 1'b1;
      skid_d_q <= data_i;
    end
  end

endmodule

`default_nettype wire
