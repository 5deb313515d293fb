// tb_cipher_ahb: test bench top for ak_cipher_ahb -- a minimal AHB-Lite interconnect
// with one master port (ahb_*, the names cocotbext-ahb binds) and two slaves:
// ak_cipher_ahb (haddr[12] = 0) and a dummy slave (haddr[12] = 1) whose data phases
// get a wait state in every cycle where tb_wait_i is high. So the cipher sees HREADY
// low while another slave stretches its data phase, as on a real bus.
// HREADY = the HREADYOUT of the slave in its data phase (the dummy after reset).

`default_nettype none

module tb_cipher_ahb #(
  parameter int FifoDepth = 2,
  parameter int WaitLimit = 256,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [31:0] ahb_haddr,
  input  logic [1:0]  ahb_htrans,
  input  logic        ahb_hwrite,
  input  logic [2:0]  ahb_hsize,
  input  logic [31:0] ahb_hwdata,
  output logic [31:0] ahb_hrdata,
  output logic        ahb_hready,
  output logic        ahb_hresp,
  input  logic        tb_wait_i,
  output logic        irq_o
);

  logic        ca_hreadyout, ca_hresp;
  logic [31:0] ca_hrdata;
  logic        dsel_q;     // data phase belongs to the dummy slave
  logic        dact_q;     // ... and is a transfer (not IDLE/BUSY)
  logic [15:0] daddr_q;  // the dummy slave echoes the low half of its address

  ak_cipher_ahb #(
    .FifoDepth(FifoDepth),
    .WaitLimit(WaitLimit),
    .Directions(2'(Directions)),
    .KeySizes(3'(KeySizes))
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .s_ahb_hsel     (!ahb_haddr[12]),
    .s_ahb_haddr    (ahb_haddr),
    .s_ahb_htrans   (ahb_htrans),
    .s_ahb_hwrite   (ahb_hwrite),
    .s_ahb_hsize    (ahb_hsize),
    .s_ahb_hwdata   (ahb_hwdata),
    .s_ahb_hready   (ahb_hready),
    .s_ahb_hreadyout(ca_hreadyout),
    .s_ahb_hresp    (ca_hresp),
    .s_ahb_hrdata   (ca_hrdata),
    .irq_o          (irq_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin : dec_regs
    if (!rst_ni) begin
      dsel_q  <= 1'b1;
      dact_q  <= 1'b0;
      daddr_q <= '0;
    end else if (ahb_hready) begin
      dsel_q  <= ahb_haddr[12];
      dact_q  <= ahb_haddr[12] && ahb_htrans[1];
      daddr_q <= ahb_haddr[15:0];
    end
  end

  assign ahb_hready = dsel_q ? !(dact_q && tb_wait_i) : ca_hreadyout;
  assign ahb_hresp  = dsel_q ? 1'b0 : ca_hresp;
  assign ahb_hrdata = dsel_q ? {16'hd00d, daddr_q} : ca_hrdata;


endmodule

`default_nettype wire
