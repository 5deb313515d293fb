// ak_key_step_split_stub: a one-level stand-in for ak_key_step_split (same module
// name, same ports) for paper 002's "datapath" synthesis (aeskit.report.sections.
// paper002), beside ak_key_step_stub: ak_round_ctrl runs the split step, and the
// report replaces aeskit:prim:key_step (which lists both steps) with this manifest.
// Report only: the outputs are a rotation and a few XORs of the inputs, not a key
// schedule. Like ak_key_step_stub it declares the module it stands in for, so it must
// never be compiled together with hw/primitives/key_schedule/ak_key_step_split.sv.
`default_nettype none
module ak_key_step_split (
  input  logic [255:0] win_i,
  input  logic [1:0]   key_len_i,
  input  logic [2:0]   phase_i,
  input  logic [7:0]   rcon_i,
  input  logic         reverse_i,
  input  logic [31:0]  sub_i,
  output logic [255:0] win_o,
  output logic [2:0]   phase_o,
  output logic [7:0]   rcon_o,
  output logic [31:0]  sub_o
);
  assign win_o     = {win_i[254:0], win_i[255] ^ reverse_i ^ key_len_i[0] ^ key_len_i[1]};
  assign phase_o   = phase_i;
  assign rcon_o    = {rcon_i[6:0], rcon_i[7]};
  assign sub_o     = win_i[31:0] ^ sub_i;
endmodule
`default_nettype wire
