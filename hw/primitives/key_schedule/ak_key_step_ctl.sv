// ak_key_step_ctl: the decoded controls of one ak_key_step_split step, from the
// window's key length, phase and the step's direction -- so that a caller can decide
// them a cycle ahead into a register (ctl_o from its next-state values) and the
// step's word selects start at flip-flops instead of behind this decode.
//
// ctl_o bits (CtlWidth = 9; ak_key_step_split's ctl_i takes exactly this vector):
//   [0] rev   backward step (reverse_i)
//   [1] k128  key_len_i = 0 (Nk = 4)
//   [2] k192  key_len_i = 1 (Nk = 6)
//   [3] k256  key_len_i = 2 or the illegal 3 (Nk = 8)
//   [4] at0   the step's SubWord lands on word 0 of its four new words
//   [5] at2   ... on word 2 (Nk = 6 only)
//   [6] rot   RotWord + Rcon with it (else SubWord only: Nk = 8 at phase 4)
//   [7] ph0   phase_i = 0
//   [8] ph4   phase_i = 4
// at0/at2/rot belong to the phase p of the window the four new words start
// (forward: phase_i; backward: the new window's, phase_next_o), as ak_key_step_split's
// header defines them. phase_next_o is the phase of the window after the step
// (ak_key_step_split's phase_o).
//
// Timing    : combinational (about two LUT levels).
// Byte order: not applicable (control only).
// Parameters: none.

`default_nettype none

module ak_key_step_ctl (
  input  logic [1:0] key_len_i,     // 0: 128, 1: 192, 2: 256
  input  logic [2:0] phase_i,       // (4s) mod Nk of the window: 0, 2 or 4
  input  logic       reverse_i,     // 0: forward step, 1: backward step
  output logic [8:0] ctl_o,         // the decoded controls (above)
  output logic [2:0] phase_next_o   // the phase after the step
);

  logic [2:0] p;
  logic       k128, k192;

  always_comb begin : phase_next
    unique case (key_len_i)
      2'd0:    phase_next_o = 3'd0;
      2'd1: begin
        unique case (phase_i)
          3'd0:    phase_next_o = reverse_i ? 3'd2 : 3'd4;
          3'd2:    phase_next_o = reverse_i ? 3'd4 : 3'd0;
          default: phase_next_o = reverse_i ? 3'd0 : 3'd2;  // 3'd4
        endcase
      end
      default: phase_next_o = phase_i ^ 3'd4;  // 2'd2 (and the illegal 2'd3)
    endcase
  end

  assign p    = reverse_i ? phase_next_o : phase_i;
  assign k128 = (key_len_i == 2'd0);
  assign k192 = (key_len_i == 2'd1);

  assign ctl_o[0] = reverse_i;
  assign ctl_o[1] = k128;
  assign ctl_o[2] = k192;
  assign ctl_o[3] = key_len_i[1];
  assign ctl_o[4] = !k192 || (p == 3'd0);
  assign ctl_o[5] = k192 && (p == 3'd4);
  assign ctl_o[6] = k128 || k192 || (p == 3'd0);
  assign ctl_o[7] = (phase_i == 3'd0);
  assign ctl_o[8] = (phase_i == 3'd4);

endmodule

`default_nettype wire
