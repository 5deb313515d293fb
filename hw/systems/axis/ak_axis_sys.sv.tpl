// ak_axis_sys.sv.tpl: template of ak_axis_sys, ak_axis_core (the AXI4-Stream wrapper)
// wired to one core of the registry by the core contract ports
// (docs/core-contract.md), so the wrapper runs on ANY core. The core module is chosen
// per use, which a SystemVerilog parameter cannot do, hence a template (rendered by
// aeskit.hw.templates for aeskit.hw.systems.axis; a build compiles the rendered file with the
// core's and the wrapper's sources). Ports: those of ak_axis_core without core_*.
// Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), ..." (TagWidth included)
//   fifo_depth   ak_axis_core FifoDepth: 4, or deep for a deep pipeline (aeskit.hw.systems.axis.input_fifo_depth)
//   in_flight    ak_axis_core InFlight (the engine's: the core's blocks in flight + 2)
//   decrypts     ak_axis_core Decrypts: 1'b1 unless the core is an encrypt-only build
//   key_lens     ak_axis_core KeyLens: the core's key sizes, a 3-bit mask (3'b001: 128 only)
//   modes        ak_axis_core Modes: the modes built, a 9-bit mask (9'h0df: all it offers)
//   hold_beats   ak_axis_core HoldBeats: 0, or the beats of a decryption held until its tag
//   plain_stream ak_axis_core PlainStream: 1'b1 on a deep pipeline (a packet as one message)
//   key_slots    ak_axis_core KeySlots: key slots selected per packet by s_axis_tdest (1, 2, 4, 8)
//   slot_w       the tdest width: clog2(key_slots), 1 with one slot (then ignored, 0 out)
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/systems/axis/ak_axis_sys.sv.tpl: ak_axis_core on core ${core}
`default_nettype none
module ak_axis_sys #(
  parameter int AddrWidth = 32
) (
  input  logic clk_i, input logic rst_ni,
  output logic s_axil_awready, input logic s_axil_awvalid,
  input  logic [AddrWidth-1:0] s_axil_awaddr, input logic [2:0] s_axil_awprot,
  output logic s_axil_wready, input logic s_axil_wvalid, input logic [31:0] s_axil_wdata,
  input  logic [3:0] s_axil_wstrb,
  input  logic s_axil_bready, output logic s_axil_bvalid, output logic [1:0] s_axil_bresp,
  output logic s_axil_arready, input logic s_axil_arvalid,
  input  logic [AddrWidth-1:0] s_axil_araddr, input logic [2:0] s_axil_arprot,
  input  logic s_axil_rready, output logic s_axil_rvalid, output logic [31:0] s_axil_rdata,
  output logic [1:0] s_axil_rresp,
  input  logic s_axis_tvalid, output logic s_axis_tready, input logic [127:0] s_axis_tdata,
  input  logic [15:0] s_axis_tkeep, input logic s_axis_tlast,
  input  logic [${slot_w}-1:0] s_axis_tdest,
  output logic m_axis_tvalid, input logic m_axis_tready, output logic [127:0] m_axis_tdata,
  output logic [15:0] m_axis_tkeep, output logic m_axis_tlast, output logic m_axis_tuser,
  output logic [${slot_w}-1:0] m_axis_tdest
);
  logic ck_valid, ck_ready, ci_valid, ci_ready, ci_dec, co_valid, co_ready;
  logic [255:0] ck_key;
  logic [1:0] ck_len;
  logic [127:0] ci_data, co_data;
  logic ci_tag, co_tag;

  ak_axis_core #(.DataWidth(128), .AddrWidth(AddrWidth), .FifoDepth(${fifo_depth}),
                 .InFlight(${in_flight}),
                 .CoreTagWidth(1), .KeyLens(${key_lens}),
                 .Decrypts(${decrypts}), .Modes(${modes}),
                 .HoldBeats(${hold_beats}), .PlainStream(${plain_stream}),
                 .KeySlots(${key_slots})) u_axis (
    .clk_i, .rst_ni,
    .s_axil_awready, .s_axil_awvalid, .s_axil_awaddr, .s_axil_awprot, .s_axil_wready,
    .s_axil_wvalid, .s_axil_wdata, .s_axil_wstrb, .s_axil_bready, .s_axil_bvalid,
    .s_axil_bresp, .s_axil_arready, .s_axil_arvalid, .s_axil_araddr, .s_axil_arprot,
    .s_axil_rready, .s_axil_rvalid, .s_axil_rdata, .s_axil_rresp,
    .s_axis_tvalid, .s_axis_tready, .s_axis_tdata, .s_axis_tkeep, .s_axis_tlast,
    .s_axis_tdest,
    .m_axis_tvalid, .m_axis_tready, .m_axis_tdata, .m_axis_tkeep, .m_axis_tlast,
    .m_axis_tuser, .m_axis_tdest,
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
