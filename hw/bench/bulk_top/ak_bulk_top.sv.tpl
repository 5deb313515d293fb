// ak_bulk_top.sv.tpl: template of ak_bulk_top, the top of the bulk ECB harness
// (aeskit.harness.core with bulk=True, the file path of aeskit encrypt/decrypt): one
// core of the registry behind an input register stage, with the core contract's ports
// (docs/core-contract.md), so the compiled harness drives it exactly as it drives a
// bare core. The core module is chosen per use, which a SystemVerilog parameter cannot
// do, hence a template (rendered by aeskit.harness.core). Values:
//   core         registry name of the core (for the generated-file comment)
//   core_top     its top module
//   core_params  its parameter overrides, ".Name(value), " each (may be empty)
// This header (up to the first empty line) is not rendered.

// GENERATED from hw/bench/bulk_top/ak_bulk_top.sv.tpl: core ${core} behind an input register
//
// Why the register: a Verilator model evaluates the logic that depends on its top
// inputs in every evaluation call (twice per cycle in the harness), and a core's
// in_data_i reaches its round datapath combinationally (the block is taken into the
// first round in the accepting cycle). With the block in a register here, the
// datapath hangs off registers only and is evaluated once per cycle: 7.8 times as
// many cycles per second on round_comp, 1.4 times on round.
//
// Behaviour: a one-entry input pipeline register. in_ready_o = register empty or the
// core takes its block this cycle, so a core that takes a block per cycle still does;
// each block reaches the core one cycle later (latency + 1, interval unchanged).
// key_ready_o is the core's, low while a block waits in the register, so a key load
// never overtakes a block. The output handshake is the core's own. Every register is
// reset by rst_ni. Byte order: the core's (FIPS-197, byte 0 in [127:120]).
`default_nettype none
module ak_bulk_top #(
  parameter int TagWidth = 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [127:0]        in_data_i,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [127:0]        out_data_o,
  output logic [TagWidth-1:0] out_tag_o
);
  logic                v_q, dec_q;
  logic [127:0]        d_q;
  logic [TagWidth-1:0] t_q;
  logic                core_in_ready, core_key_ready;

  assign in_ready_o  = !v_q || core_in_ready;
  assign key_ready_o = core_key_ready && !v_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : in_regs
    if (!rst_ni) begin
      v_q   <= 1'b0;
      dec_q <= 1'b0;
      d_q   <= '0;
      t_q   <= '0;
    end else if (in_ready_o) begin
      v_q <= in_valid_i;
      if (in_valid_i) begin
        d_q   <= in_data_i;
        dec_q <= in_decrypt_i;
        t_q   <= in_tag_i;
      end
    end
  end

  ${core_top} #(${core_params}.TagWidth(TagWidth)) u_core (
    .clk_i, .rst_ni,
    .key_valid_i, .key_ready_o(core_key_ready), .key_i, .key_len_i,
    .in_valid_i(v_q), .in_ready_o(core_in_ready), .in_data_i(d_q), .in_decrypt_i(dec_q),
    .in_tag_i(t_q), .out_valid_o, .out_ready_i, .out_data_o, .out_tag_o
  );
endmodule
`default_nettype wire
