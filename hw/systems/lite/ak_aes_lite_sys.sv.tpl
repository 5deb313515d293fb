// ak_aes_lite_sys.sv.tpl: template of ak_aes_lite_sys, the lean AES peripheral with a
// core: one ak_aes_lite wired to one core of the registry by the core contract ports
// (docs/core-contract.md), so the peripheral runs on ANY core (compact32_bram_e128 by
// default). Rendered by aeskit.hw.systems.lite (system_sv, system_files) through
// aeskit.hw.templates. Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), ..." (TagWidth(1) included)
//   lite_params  ak_aes_lite's Modes, CoreDirections and CoreKeySizes overrides
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/systems/lite/ak_aes_lite_sys.sv.tpl: ak_aes_lite on core ${core}
`default_nettype none
module ak_aes_lite_sys (
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
  output logic irq_o
);
  logic ck_valid, ck_ready, ci_valid, ci_ready, ci_dec, co_valid, co_ready;
  logic [255:0] ck_key;
  logic [1:0] ck_len;
  logic [127:0] ci_data, co_data;
  logic [0:0] ci_tag, co_tag;

  ak_aes_lite #(${lite_params}) u_lite (
    .clk_i, .rst_ni,
    .s_axil_awaddr, .s_axil_awprot, .s_axil_awvalid, .s_axil_awready, .s_axil_wdata,
    .s_axil_wstrb, .s_axil_wvalid, .s_axil_wready, .s_axil_bresp, .s_axil_bvalid,
    .s_axil_bready, .s_axil_araddr, .s_axil_arprot, .s_axil_arvalid, .s_axil_arready,
    .s_axil_rdata, .s_axil_rresp, .s_axil_rvalid, .s_axil_rready,
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
