// ak_mode_sys.sv.tpl: template of ak_mode_sys, the mode-engine harness top: one
// ak_mode_engine (Streams streams) wired to one core of the registry by the core
// contract ports (docs/core-contract.md), so that the engine runs on ANY core. The core
// module is chosen per use, which a SystemVerilog parameter cannot do, hence a template
// (rendered by aeskit.hw.templates for aeskit.harness.modes; the build and the
// paper-001 synthesis compile the rendered file with the core's and the engine's
// sources). Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), ..." (TagWidth included)
//   streams      engine streams; s_msb = streams - 1
//   tag_msb      msb of the core tag (TagWidth - 1; TagWidth = clog2(2 * streams))
//   part_ports   the ports cmd_part_i / cmd_ctx_i (a build with the engine's Parts = 1)
//                or nothing
//   part_conn    the engine's cmd_part_i / cmd_ctx_i: those ports, or tied to 0
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/bench/mode_sys/ak_mode_sys.sv.tpl: ak_mode_engine on core ${core}
`default_nettype none
module ak_mode_sys (
  input  logic clk_i, input logic rst_ni,
  input  logic key_valid_i, output logic key_ready_o, input logic [255:0] key_i,
  input  logic [255:0] key2_i,
  input  logic [1:0] key_len_i,
  input  logic [${s_msb}:0] cmd_valid_i, output logic [${s_msb}:0] cmd_ready_o,
  input  logic [${s_msb}:0][3:0] cmd_mode_i, input logic [${s_msb}:0] cmd_decrypt_i,
  input  logic [${s_msb}:0][127:0] cmd_iv_i, input logic [${s_msb}:0][31:0] cmd_iv_len_i,
  input  logic [${s_msb}:0][3:0] cmd_nonce_len_i,
  input  logic [${s_msb}:0][4:0] cmd_tag_len_i,
  input  logic [${s_msb}:0][31:0] cmd_aad_len_i,
  input  logic [${s_msb}:0][31:0] cmd_msg_len_i,
${part_ports}  input  logic [${s_msb}:0] in_valid_i, output logic [${s_msb}:0] in_ready_o,
  input  logic [${s_msb}:0][127:0] in_data_i,
  output logic [${s_msb}:0] out_valid_o, input logic [${s_msb}:0] out_ready_i,
  output logic [${s_msb}:0][127:0] out_data_o, output logic [${s_msb}:0] out_tag_o,
  output logic [${s_msb}:0] sts_valid_o, input logic [${s_msb}:0] sts_ready_i,
  output logic [${s_msb}:0] sts_pass_o, output logic [${s_msb}:0] sts_error_o
);
  logic ck_valid, ck_ready, ci_valid, ci_ready, ci_dec, co_valid, co_ready;
  logic [255:0] ck_key;
  logic [1:0] ck_len;
  logic [127:0] ci_data, co_data;
  logic [${tag_msb}:0] ci_tag, co_tag;

  ak_mode_engine #(.Streams(${streams})) u_engine (
    .clk_i, .rst_ni, .key_valid_i, .key_ready_o, .key_i, .key2_i, .key_len_i,
    .cmd_valid_i, .cmd_ready_o, .cmd_mode_i, .cmd_decrypt_i, .cmd_iv_i, .cmd_iv_len_i,
    .cmd_nonce_len_i,
    .cmd_tag_len_i, .cmd_aad_len_i, .cmd_msg_len_i, ${part_conn}, .in_valid_i, .in_ready_o, .in_data_i,
    .out_valid_o, .out_ready_i, .out_data_o, .out_tag_o,
    .sts_valid_o, .sts_ready_i, .sts_pass_o, .sts_error_o,
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
