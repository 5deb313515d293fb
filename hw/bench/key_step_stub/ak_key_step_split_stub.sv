// ak_key_step_split_stub: a one-level stand-in for ak_key_step_split (same module
// name, same ports) for paper 002's "datapath" synthesis (aeskit.report.sections.
// paper002): with it in place of the on-the-fly key expansion step of ak_round_ctrl,
// the timing and area of the four round datapaths (ueno, satoh, lutz, liu) can be
// compared without the shared key schedule. The report builds a core's sources with
// aeskit:bench:key_step_stub in place of aeskit:prim:key_step.
// Report only: the outputs are a rotation and a few XORs of the inputs, not a key
// schedule. The file is named for what it is and declares the module it stands in
// for, so it must never be compiled together with
// hw/primitives/key_schedule/ak_key_step_split.sv.
`default_nettype none
module ak_key_step_split (
  input  logic [255:0] win_i,
  input  logic [1:0]   key_len_i,
  input  logic [2:0]   phase_i,
  input  logic [7:0]   rcon_i,
  input  logic         reverse_i,
  input  logic [31:0]  sub_i,
  input  logic [8:0]   ctl_i,
  output logic [255:0] win_o,
  output logic [2:0]   phase_o,
  output logic [7:0]   rcon_o,
  output logic [31:0]  sub_o
);
  assign win_o     = {win_i[254:0], win_i[255] ^ reverse_i ^ key_len_i[0] ^ key_len_i[1]};
  assign phase_o   = phase_i;
  assign rcon_o    = {rcon_i[6:0], rcon_i[7]};
  assign sub_o     = win_i[31:0] ^ sub_i ^ {23'h0, ctl_i};
endmodule
`default_nettype wire
