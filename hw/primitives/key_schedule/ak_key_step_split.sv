// ak_key_step_split: one step of the AES key expansion (FIPS-197 5.2), forward or
// backward, on a sliding window of the last Nk expanded words -- the on-the-fly key
// schedule of the cores that do not store their round keys (ak_round_ctrl,
// ak_pipe2_core). The step is split at the input of its one SubWord: the caller
// supplies that input (sub_i) and gets back, besides the new window, the SubWord
// input of the next step in the same direction (sub_o). A caller that registers
// sub_o beside the window feeds the S-box straight from a flip-flop, and the loop of
// a one-step-per-cycle schedule (window register -> step -> window register) is
//   sub/window registers -> SubWord -> one XOR level -> sub/window registers
// (4.5 LUT levels), instead of the multiplexers and XORs that select the S-box input,
// the S-box, and the XOR chain behind it (9.25 LUT levels for the step that selected
// its own S-box input; a table S-box fed by logic maps to about twice the depth of one
// fed by a register).
//
// The window. After s steps the window holds w[4s] .. w[4s+Nk-1] (Nk = 4/6/8 for
// 128/192/256-bit keys), oldest word in [255:224]; for Nk < 8 the low 32*(8-Nk)
// bits are unused (this module drives them to zero and ignores them). Round key s
// is always the oldest four words, win[255:128], for every key size -- 192-bit
// round keys straddle two expansion "rows" and need no special case.
//   Forward  (reverse_i = 0): the window advances by 4 words, w[4s+4 .. 4s+Nk+3].
//   Backward (reverse_i = 1): it goes back by 4 words,        w[4s-4 .. 4s+Nk-5].
// So the initial window is the cipher key and, for decryption, the window after Nr
// forward steps (w[4Nr] .. w[4Nr+Nk-1]; words beyond the FIPS-197 schedule follow the
// same recurrence and are simply unused) runs backwards to round key 0.
//
// One SubWord per step. Four consecutive words hold at most one index i with
// i mod Nk == 0 (SubWord(RotWord()) ^ Rcon) or, for Nk = 8, i mod 8 == 4 (SubWord),
// so one shared ak_sub_word suffices. Its position depends on the phase p = (index
// of the window's oldest word) mod Nk of the window the four new words belong to
// (forward: phase_i; backward: phase_o):
//   Nk=4: p=0 -> RotWord at word 0 of the four.
//   Nk=6: p=0 -> RotWord at word 0;  p=4 -> RotWord at word 2;  p=2 -> none.
//   Nk=8: p=0 -> RotWord at word 0;  p=4 -> SubWord only at word 0.
// phase_i = (4s) mod Nk. rcon_i is Rcon[j] of the first index j*Nk >= 4s+Nk, i.e. the
// next RotWord a forward step will meet: 8'h01 for the cipher key, the value returned
// in rcon_o after the last forward step for the final window. phase_o/rcon_o belong
// to the new window. The cipher key and the final window both have phase 0
// (4*Nr mod Nk = 0 for all three sizes).
//
// The SubWord input. sub_i must be the SubWord input of this step:
//     forward : at2 ? w[0] ^ w[1] ^ w[Nk-1] : w[Nk-1]
//     backward: at2 ? w[Nk-3]               : prev0
//   with at2 = (Nk = 6 and the phase p above is 4) and prev0 = w[3] ^ w[2] (Nk=4),
//   w[1] (Nk=6), w[3] (Nk=8): forward the newest window word or the second new word,
//   backward the same words, known from the newer window words.
// sub_o is that expression for the next step in the same direction (reverse_i) from
// (win_o, phase_o). A schedule that loads a window from elsewhere (the cipher key, a
// stored window) loads its sub input with it (for the cipher key, forward: w[Nk-1]).
//
// Structure: every output word is x ^ (m ? t : 0), t = RotWord(SubWord(sub_i)) ^ Rcon
// or SubWord(sub_i), with x (XORs and selections of window words) and m functions of
// the registered inputs only; written in that form, the logic behind the S-box is
// one LUT level per bit and the rest runs beside the S-box (the sub_o cases are
// written out in window words for the same reason).
//
// Controls. ctl_i is the decode of (key_len_i, phase_i, reverse_i) by ak_key_step_ctl
// (docs/primitives/key_step.md): the callers register it a cycle ahead from their
// next-state values, so the word selects below start at flip-flops instead of behind
// a decode fanned out to every window bit. It must equal that decode; this module
// uses the ports themselves only for phase_o.
//
// Timing    : purely combinational (latency 0, a new input every cycle). Longest
//             path: one S-box (on sub_i) and one XOR/select level behind it.
// Byte order: word w[i] byte 0 in its [31:24]; the window is key_i of the core
//             contract once loaded (key byte 0 in [255:248]).
// Parameters: none. key_len_i = 3 is treated as 256 (callers reject it).

`default_nettype none

module ak_key_step_split (
  input  logic [255:0] win_i,      // w[4s] .. w[4s+Nk-1], oldest in [255:224]
  input  logic [1:0]   key_len_i,  // 0: 128, 1: 192, 2: 256
  input  logic [2:0]   phase_i,    // (4s) mod Nk: 0, 2 or 4
  input  logic [7:0]   rcon_i,     // Rcon of the next RotWord met going forward
  input  logic         reverse_i,  // 0: forward step, 1: backward step
  input  logic [31:0]  sub_i,      // SubWord input of this step (see above)
  input  logic [8:0]   ctl_i,      // ak_key_step_ctl(key_len_i, phase_i, reverse_i)
  output logic [255:0] win_o,      // the new window
  output logic [2:0]   phase_o,    // its phase
  output logic [7:0]   rcon_o,     // its Rcon
  output logic [31:0]  sub_o       // SubWord input of the next step (same direction)
);

  logic [31:0] w [8];              // the window, w[0] oldest
  logic [31:0] last;               // newest window word w[Nk-1]
  logic [31:0] hi [4];             // the four newest window words w[Nk-4 .. Nk-1]
  logic [31:0] prev0;              // backward: the word before the first recovered one
  logic        rev;                // backward step (ctl_i)
  logic        k128, k192;         // key length (ctl_i; else 256)
  logic        ph0, ph4;           // phase_i = 0 / 4 (ctl_i)
  logic        at0, at2;           // SubWord position: word 0 / word 2 of the four
  logic        rot;                // RotWord + Rcon (else SubWord only)
  logic [7:0]  rcon_use;           // Rcon applied in this step
  logic [7:0]  rcon_x;             // xtime(rcon_i)
  logic [7:0]  rcon_ix;            // rcon_i / x
  logic [31:0] sub_out;            // the one SubWord of the step
  logic [31:0] sub_rot;            // RotWord(sub_out)
  logic [31:0] x_last;             // forward temp word without its S-box part
  logic [31:0] fx [4];             // forward new words, S-box part left out ...
  logic        fm [4];             // ... and whether it is in
  logic [31:0] bx [4];             // backward recovered words, likewise
  logic        bm [4];
  logic [31:0] vx [8];             // the new window, likewise (v[0] oldest)
  logic        vm [8];
  logic [31:0] snx;                // next SubWord input, likewise
  logic        snm;
  logic [31:0] w03;                // w[0] ^ w[1] ^ w[2] ^ w[3]
  logic [8:0]  ctl_here;           // unused: the decode of the ports (ctl_i is it)
  logic        unused;

  // Note for Icarus: no always_comb here reads a variable it also writes, so a
  // default assignment cannot retrigger its own block.

  for (genvar i = 0; i < 8; i++) begin : g_word
    assign w[i] = win_i[255-32*i -: 32];
  end

  always_comb begin : window_select
    last  = w[7];
    hi[0] = w[4];
    hi[1] = w[5];
    hi[2] = w[6];
    hi[3] = w[7];
    prev0 = w[3];
    if (k128) begin
      last  = w[3];
      hi[0] = w[0];
      hi[1] = w[1];
      hi[2] = w[2];
      hi[3] = w[3];
      prev0 = w[3] ^ w[2];  // = recovered word 3 (w[i-Nk] = w[i] ^ w[i-1])
    end else if (k192) begin
      last  = w[5];
      hi[0] = w[2];
      hi[1] = w[3];
      hi[2] = w[4];
      hi[3] = w[5];
      prev0 = w[1];
    end  // else Nk = 8 (and the illegal key_len_i = 3): the defaults above
  end

  // the controls come decoded (ctl_i, a register in the callers); the phase of the
  // new window from the same decode
  ak_key_step_ctl u_phase_next (
    .key_len_i,
    .phase_i,
    .reverse_i,
    .ctl_o       (ctl_here),
    .phase_next_o(phase_o)
  );

  assign rev  = ctl_i[0];
  assign k128 = ctl_i[1];
  assign k192 = ctl_i[2];
  assign at0  = ctl_i[4];
  assign at2  = ctl_i[5];
  assign rot  = ctl_i[6];
  assign ph0  = ctl_i[7];
  assign ph4  = ctl_i[8];

  // Rcon: forward uses rcon_i and moves on (xtime); backward steps back first
  // (division by x, the inverse of xtime) and uses the result
  ak_xtime u_xtime_rcon (
    .in_i (rcon_i),
    .out_o(rcon_x)
  );

  assign rcon_ix  = rcon_i[0] ? {1'b1, rcon_i[7:1] ^ 7'h0d} : {1'b0, rcon_i[7:1]};
  assign rcon_o   = (rot && (at0 || at2)) ? (rev ? rcon_ix : rcon_x) : rcon_i;
  assign rcon_use = rev ? rcon_o : rcon_i;

  // the one SubWord, straight on the supplied input
  ak_sub_word u_sub_word (
    .in_i (sub_i),
    .out_o(sub_out)
  );

  // Every output word is linear in the S-box output: x ^ (m ? t : 0), with x and the
  // flag m functions of the registered inputs only, and
  //   t = rot ? RotWord(SubWord) ^ {Rcon, 0, 0, 0} : SubWord
  // (SubWord(RotWord(x)) = RotWord(SubWord(x)): the rotation after the S-boxes). The
  // words are written in that form -- x and m first, the S-box output last -- so that
  // the logic behind the S-box is one small function per bit (x ^ Rcon term, two
  // gated S-box bits) and everything else runs beside the S-box.
  assign sub_rot = {sub_out[23:0], sub_out[31:24]};

  // x/m of the four new words: forward w[i] = w[i-Nk] ^ temp, temp = w[i-1] or t
  assign x_last = at0 ? 32'h0 : last;
  assign fx[0]  = w[0] ^ x_last;
  assign fx[1]  = w[0] ^ w[1] ^ x_last;
  assign fx[2]  = at2 ? w[2] : (w[0] ^ w[1] ^ w[2] ^ x_last);
  assign fx[3]  = w[3] ^ (at2 ? w[2] : (w[0] ^ w[1] ^ w[2] ^ x_last));  // w[3] ^ fx[2]
  assign fm[0]  = at0;
  assign fm[1]  = at0;
  assign fm[2]  = at0 || at2;
  assign fm[3]  = at0 || at2;
  // backward w[i-Nk] = w[i] ^ temp, for the four newest i of the window
  assign bx[0]  = hi[0] ^ (at0 ? 32'h0 : prev0);
  assign bx[1]  = hi[1] ^ hi[0];
  assign bx[2]  = hi[2] ^ (at2 ? 32'h0 : hi[1]);
  assign bx[3]  = hi[3] ^ hi[2];
  assign bm[0]  = at0;
  assign bm[1]  = 1'b0;
  assign bm[2]  = at2;
  assign bm[3]  = 1'b0;

  always_comb begin : window_out
    for (int j = 0; j < 8; j++) begin
      vx[j] = 32'h0;
      vm[j] = 1'b0;
    end
    if (!rev) begin
      if (k128) begin
        for (int j = 0; j < 4; j++) begin
          vx[j] = fx[j];
          vm[j] = fm[j];
        end
      end else if (k192) begin
        vx[0] = w[4];
        vx[1] = w[5];
        for (int j = 0; j < 4; j++) begin
          vx[j+2] = fx[j];
          vm[j+2] = fm[j];
        end
      end else begin
        for (int j = 0; j < 4; j++) begin
          vx[j]   = w[j+4];
          vx[j+4] = fx[j];
          vm[j+4] = fm[j];
        end
      end
    end else begin
      for (int j = 0; j < 4; j++) begin
        vx[j] = bx[j];
        vm[j] = bm[j];
      end
      if (k192) begin
        vx[4] = w[0];
        vx[5] = w[1];
      end else if (!k128) begin
        for (int j = 0; j < 4; j++) vx[j+4] = w[j];
      end
    end
  end

  // The SubWord input of the next step in the same direction from (win_o, phase_o),
  // as the header defines it (forward: the newest word, or for Nk = 6 at
  // phase_o = 4 the XOR of words 0, 1 and 5; backward: the word before the ones it
  // recovers, or for Nk = 6 at phase_o = 2 word 3), written out per case in the
  // words of win_i so that it is a few XORs beside the S-box:
  //   forward  Nk=4, Nk=8:          w0^w1^w2^w3 ^ t
  //            Nk=6 phase_i = 0:    w0^w1^w2^w3^w4^w5 ^ t   (phase_o = 4)
  //            Nk=6 phase_i = 4:    w2^w3 ^ t               (at2 this step)
  //            Nk=6 phase_i = 2:    w0^w1^w2^w3^w5          (no S-box this step)
  //   backward Nk=4: w1^w3;  Nk=6: w4^w5 (phase_i = 0) else w2^w3;  Nk=8: w6^w7
  //            (the recovered words XOR t away).
  assign w03 = w[0] ^ w[1] ^ w[2] ^ w[3];

  always_comb begin : sub_next
    snx = w03;
    snm = 1'b1;
    if (!rev) begin
      if (k192) begin
        if (ph0) begin
          snx = w03 ^ w[4] ^ w[5];
        end else if (ph4) begin
          snx = w[2] ^ w[3];
        end else begin  // phase 2
          snx = w03 ^ w[5];
          snm = 1'b0;
        end
      end
    end else begin
      snm = 1'b0;
      if (k128)      snx = w[1] ^ w[3];
      else if (k192) snx = ph0 ? (w[4] ^ w[5]) : (w[2] ^ w[3]);
      else           snx = w[6] ^ w[7];
    end
  end

  // x ^ (m ? t : 0), the S-box output last
  function automatic logic [31:0] lin(input logic [31:0] x, input logic m, input logic r,
                                      input logic [7:0] rc, input logic [31:0] sb,
                                      input logic [31:0] sbr);
    logic [31:0] xr;
    xr = x ^ ({32{m && r}} & {rc, 24'h000000});
    return xr ^ (({32{m && r}} & sbr) | ({32{m && !r}} & sb));
  endfunction

  for (genvar j = 0; j < 8; j++) begin : g_out
    assign win_o[255-32*j -: 32] = lin(vx[j], vm[j], rot, rcon_use, sub_out, sub_rot);
  end
  assign sub_o = lin(snx, snm, rot, rcon_use, sub_out, sub_rot);

  assign unused = ^{ctl_i[3], ctl_here};

endmodule

`default_nettype wire
