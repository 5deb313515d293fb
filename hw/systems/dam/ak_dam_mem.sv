// ak_dam_mem: the subsystem SRAM of ADAM/XDAM: MemBytes bytes in NB = DataWidth/8 byte-lane
// banks, lane m holding the bytes whose address mod NB is m. Every lane has its own
// write address and its own read address (one write and one read port per lane, so a
// write and a read proceed in the same cycle: full duplex), which lets a state
// transfer access the four (or 8, 16) bytes of a ShiftRows-scheduled beat in one cycle.
//
// Timing    : write at the clock edge (byte enables we_i); read registered: data of
//             rd_word_i appears on rd_data_o the cycle after re_i (held otherwise).
// Byte order: lane m of wr_data_i / rd_data_o is bits [8m+7:8m].
// Parameters: DataWidth (32/64/128), MemBytes (power of two).
// The storage itself is not reset (an SRAM); the read register is.

`default_nettype none

module ak_dam_mem #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned MemBytes = 256,
  localparam int unsigned NB = DataWidth / 8,
  localparam int unsigned AddrWidth = $clog2(MemBytes / NB)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [NB-1:0]    we_i,
  input  logic [NB*AddrWidth-1:0] wr_word_i,
  input  logic [DataWidth-1:0]     wr_data_i,
  input  logic             re_i,
  input  logic [NB*AddrWidth-1:0] rd_word_i,
  output logic [DataWidth-1:0]     rd_data_o
);

  localparam int unsigned Depth = MemBytes / NB;

  for (genvar m = 0; m < NB; m++) begin : g_lane
    logic [7:0] lane_q [Depth];
    logic [7:0] rd_q;

    always_ff @(posedge clk_i) begin : lane_write
      if (we_i[m]) lane_q[wr_word_i[m*AddrWidth +: AddrWidth]] <= wr_data_i[8*m +: 8];
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : lane_read
      if (!rst_ni)   rd_q <= '0;
      else if (re_i) rd_q <= lane_q[rd_word_i[m*AddrWidth +: AddrWidth]];
    end

    assign rd_data_o[8*m +: 8] = rd_q;
  end

endmodule

`default_nettype wire
