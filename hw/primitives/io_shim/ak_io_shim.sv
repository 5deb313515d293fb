// ak_io_shim: the stand-in for a design's I/O pins when it is placed and routed on a
// device whose nextpnr has no out-of-context mode (iCE40, Nexus; see
// docs/synthesis.md). The synthesis flow wraps the design in a generated top that
// keeps only clk_i as a pin and connects every other input bit to par_o and every
// output bit to par_i of this module, so a core with hundreds of ports needs four
// pins (clk_i, sclk_i, sin_i, sout_o) instead of one per bit.
//
// What it must guarantee: no input of the design is a constant or a copy of another
// (Yosys would simplify the design's logic), and every output bit is observed (Yosys
// would remove the logic that drives it). Its own cells are counted separately and
// subtracted (the flow keeps this module as its own hierarchy level, so no logic
// crosses the boundary in either direction).
//
//   - inputs: par_o is an InWidth-bit shift register loaded one bit per sclk_i edge
//     from sin_i (bit 0 first in, bit InWidth-1 the oldest); InWidth flip-flops, no
//     logic;
//   - outputs: sout_o is the XOR of all OutWidth bits of par_i (combinational; every
//     bit changes it): about OutWidth/3 LUT4s, no flip-flops.
//
// The shift register runs on its own clock, sclk_i, so that the paths from it into
// the design are not clk_i paths and the design's clk_i Fmax is that of its own
// register-to-register paths, as it is out of context (where input ports are not
// timed), and the XOR cone ends at a pin, which nextpnr does not time either.
//
// Latency: a bit on sin_i reaches par_o[0] one sclk_i edge later and moves one place
// per edge. sout_o follows par_i combinationally.
//
// Reset: none (the register's contents do not matter to a measurement).
//
// Byte order: none (bits are only shifted and XORed).
//
// Parameters:
//   InWidth  -- bits of the design's inputs other than clk_i (>= 1)
//   OutWidth -- bits of the design's outputs (>= 1)
`default_nettype none

module ak_io_shim #(
  parameter int InWidth  = 8,
  parameter int OutWidth = 8
) (
  input  logic                sclk_i,
  input  logic                sin_i,
  output logic [InWidth-1:0]  par_o,
  input  logic [OutWidth-1:0] par_i,
  output logic                sout_o
);
  logic [InWidth-1:0] shift_q;

  if (InWidth == 1) begin : g_one
    always_ff @(posedge sclk_i) begin : shift_reg
      shift_q <= sin_i;
    end
  end else begin : g_many
    always_ff @(posedge sclk_i) begin : shift_reg
      shift_q <= {shift_q[InWidth-2:0], sin_i};
    end
  end

  assign par_o  = shift_q;
  assign sout_o = ^par_i;
endmodule

`default_nettype wire
