// ak_uart_demo_sys.sv.tpl: template of ak_uart_demo_sys, the UART demo
// (docs/uart_demo.md): ak_uart_demo (UART, frame parser, command sequencer, AXI4-Lite
// master) driving ak_aes_lite on one core of the registry (compact32_bram_e128 by
// default). Rendered by aeskit.hw.systems.uart_demo (system_sv, system_files) through
// aeskit.hw.templates. Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), ..." (TagWidth(1) included)
//   lite_params  ak_aes_lite's Modes, CoreDirections and CoreKeySizes overrides
//   clk_hz, baud the defaults of the parameters ClkHz and Baud
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/systems/uart_demo/ak_uart_demo_sys.sv.tpl: the UART demo on core ${core}
// Parameters: ClkHz (int): the clock frequency in Hz; Baud (int): the UART bit rate.
// ClkPerBit = ClkHz / Baud rounded (>= 4); the inter-byte timeout is 10 ms (ClkHz / 100
// cycles), at least 20 bit times.
`default_nettype none
module ak_uart_demo_sys #(
  parameter int ClkHz = ${clk_hz},
  parameter int Baud  = ${baud}
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       uart_rx_i,
  output logic       uart_tx_o,
  output logic [1:0] led_o
);
  localparam int ClkPerBit = (ClkHz + Baud / 2) / Baud;
  localparam int TimeoutCycles = ClkHz / 100 > 20 * ClkPerBit ? ClkHz / 100 : 20 * ClkPerBit;

  logic [31:0] awaddr, wdata, araddr, rdata;
  logic [2:0]  awprot, arprot;
  logic [3:0]  wstrb;
  logic [1:0]  bresp, rresp;
  logic awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
  logic irq;
  logic ck_valid, ck_ready, ci_valid, ci_ready, ci_dec, co_valid, co_ready;
  logic [255:0] ck_key;
  logic [1:0] ck_len;
  logic [127:0] ci_data, co_data;
  logic [0:0] ci_tag, co_tag;

  ak_uart_demo #(.ClkPerBit(ClkPerBit), .TimeoutCycles(TimeoutCycles)) u_demo (
    .clk_i, .rst_ni, .uart_rx_i, .uart_tx_o, .led_o,
    .m_axil_awaddr(awaddr), .m_axil_awprot(awprot), .m_axil_awvalid(awvalid),
    .m_axil_awready(awready), .m_axil_wdata(wdata), .m_axil_wstrb(wstrb),
    .m_axil_wvalid(wvalid), .m_axil_wready(wready), .m_axil_bresp(bresp),
    .m_axil_bvalid(bvalid), .m_axil_bready(bready), .m_axil_araddr(araddr),
    .m_axil_arprot(arprot), .m_axil_arvalid(arvalid), .m_axil_arready(arready),
    .m_axil_rdata(rdata), .m_axil_rresp(rresp), .m_axil_rvalid(rvalid),
    .m_axil_rready(rready)
  );

  ak_aes_lite #(${lite_params}) u_lite (
    .clk_i, .rst_ni,
    .s_axil_awaddr(awaddr), .s_axil_awprot(awprot), .s_axil_awvalid(awvalid),
    .s_axil_awready(awready), .s_axil_wdata(wdata), .s_axil_wstrb(wstrb),
    .s_axil_wvalid(wvalid), .s_axil_wready(wready), .s_axil_bresp(bresp),
    .s_axil_bvalid(bvalid), .s_axil_bready(bready), .s_axil_araddr(araddr),
    .s_axil_arprot(arprot), .s_axil_arvalid(arvalid), .s_axil_arready(arready),
    .s_axil_rdata(rdata), .s_axil_rresp(rresp), .s_axil_rvalid(rvalid),
    .s_axil_rready(rready), .irq_o(irq),
    .core_key_valid_o(ck_valid), .core_key_ready_i(ck_ready), .core_key_o(ck_key),
    .core_key_len_o(ck_len), .core_in_valid_o(ci_valid), .core_in_ready_i(ci_ready),
    .core_in_data_o(ci_data), .core_in_decrypt_o(ci_dec), .core_in_tag_o(ci_tag),
    .core_out_valid_i(co_valid), .core_out_ready_o(co_ready), .core_out_data_i(co_data),
    .core_out_tag_i(co_tag)
  );

  ${core_top} #(${core_params}) u_core (
    .clk_i, .rst_ni,
    .key_valid_i(ck_valid), .key_ready_o(ck_ready), .key_i(ck_key), .key_len_i(ck_len),
    .in_valid_i(ci_valid), .in_ready_o(ci_ready), .in_data_i(ci_data), .in_decrypt_i(ci_dec),
    .in_tag_i(ci_tag), .out_valid_o(co_valid), .out_ready_i(co_ready), .out_data_o(co_data),
    .out_tag_o(co_tag)
  );

  logic unused_irq;   // the demo polls STATUS
  assign unused_irq = irq;
endmodule
`default_nettype wire
