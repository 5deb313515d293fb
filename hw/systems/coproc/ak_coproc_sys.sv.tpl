// ak_coproc_sys.sv.tpl: template of ak_coproc_sys, the co-processor with a core: one
// ak_coproc wired to one core of the registry by the core contract ports
// (docs/core-contract.md), so the co-processor runs on ANY core (tbox_folded, as in
// paper 003, by default). SystemVerilog cannot take a module name as a parameter, hence
// a template, rendered by aeskit.hw.systems.coproc (system_sv, system_files) through
// aeskit.hw.templates. Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), ..." (TagWidth(1) included)
//   in_flight    the engine's InFlight: the blocks the core holds at once, plus two
//   core_caps    ak_coproc's CoreDirections / CoreKeySizes overrides (", .Name(v)" each;
//                empty for a core of both directions and every key size), and its Modes
//                override when a bench builds it with fewer modes
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/systems/coproc/ak_coproc_sys.sv.tpl: ak_coproc on core ${core}
`default_nettype none
module ak_coproc_sys #(
  parameter int IdWidth = 4
) (
  input  logic clk_i, input logic rst_ni,
  input  logic [31:0] s_axil_awaddr, input logic [2:0] s_axil_awprot,
  input  logic s_axil_awvalid, output logic s_axil_awready,
  input  logic [31:0] s_axil_wdata, input logic [3:0] s_axil_wstrb,
  input  logic s_axil_wvalid, output logic s_axil_wready,
  output logic [1:0] s_axil_bresp, output logic s_axil_bvalid, input logic s_axil_bready,
  input  logic [31:0] s_axil_araddr, input logic [2:0] s_axil_arprot,
  input  logic s_axil_arvalid, output logic s_axil_arready,
  output logic [31:0] s_axil_rdata, output logic [1:0] s_axil_rresp,
  output logic s_axil_rvalid, input logic s_axil_rready,
  output logic [IdWidth-1:0] m_axi_awid, output logic [31:0] m_axi_awaddr,
  output logic [7:0] m_axi_awlen, output logic [2:0] m_axi_awsize,
  output logic [1:0] m_axi_awburst, output logic m_axi_awlock,
  output logic [3:0] m_axi_awcache, output logic [2:0] m_axi_awprot,
  output logic m_axi_awvalid, input logic m_axi_awready,
  output logic [31:0] m_axi_wdata, output logic [3:0] m_axi_wstrb,
  output logic m_axi_wlast, output logic m_axi_wvalid, input logic m_axi_wready,
  input  logic [IdWidth-1:0] m_axi_bid, input logic [1:0] m_axi_bresp,
  input  logic m_axi_bvalid, output logic m_axi_bready,
  output logic [IdWidth-1:0] m_axi_arid, output logic [31:0] m_axi_araddr,
  output logic [7:0] m_axi_arlen, output logic [2:0] m_axi_arsize,
  output logic [1:0] m_axi_arburst, output logic m_axi_arlock,
  output logic [3:0] m_axi_arcache, output logic [2:0] m_axi_arprot,
  output logic m_axi_arvalid, input logic m_axi_arready,
  input  logic [IdWidth-1:0] m_axi_rid, input logic [31:0] m_axi_rdata,
  input  logic [1:0] m_axi_rresp, input logic m_axi_rlast,
  input  logic m_axi_rvalid, output logic m_axi_rready,
  output logic irq_o
);
  logic ck_valid, ck_ready, ci_valid, ci_ready, ci_dec, co_valid, co_ready;
  logic [255:0] ck_key;
  logic [1:0] ck_len;
  logic [127:0] ci_data, co_data;
  logic [0:0] ci_tag, co_tag;

  ak_coproc #(.IdWidth(IdWidth), .InFlight(${in_flight})${core_caps}) u_coproc (
    .clk_i, .rst_ni,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata,
    .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid,
    .s_axil_bready, .s_axil_araddr, .s_axil_arprot, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
    .m_axi_awid, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize, .m_axi_awburst,
    .m_axi_awlock, .m_axi_awcache, .m_axi_awprot, .m_axi_awvalid, .m_axi_awready,
    .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid, .m_axi_wready,
    .m_axi_bid, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready,
    .m_axi_arid, .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst,
    .m_axi_arlock, .m_axi_arcache, .m_axi_arprot, .m_axi_arvalid, .m_axi_arready,
    .m_axi_rid, .m_axi_rdata, .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready,
    .irq_o,
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
endmodule
`default_nettype wire
