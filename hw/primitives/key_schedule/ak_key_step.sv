// ak_key_step: one step of the AES key expansion (FIPS-197 5.2), forward or
// backward, on a sliding window of the last Nk expanded words -- the on-the-fly key
// schedule of every core that does not store its round keys.
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
// rcon_i is Rcon[j] of the first index j*Nk >= 4s+Nk, i.e. the next RotWord a
// forward step will meet: 8'h01 for the cipher key, the value returned in rcon_o
// after the last forward step for the final window. phase_o/rcon_o belong to the
// new window. The cipher key and the final window both have phase 0
// (4*Nr mod Nk = 0 for all three sizes).
//
// Timing    : purely combinational (latency 0, a new input every cycle). Longest
//             path: an XOR chain of up to three words, one S-box, one XOR.
// Byte order: word w[i] byte 0 in its [31:24]; the window is key_i of the core
//             contract once loaded (key byte 0 in [255:248]).
// Parameters: none. key_len_i = 3 is treated as 256 (callers reject it).

`default_nettype none

module ak_key_step (
  input  logic [255:0] win_i,      // w[4s] .. w[4s+Nk-1], oldest in [255:224]
  input  logic [1:0]   key_len_i,  // 0: 128, 1: 192, 2: 256
  input  logic [2:0]   phase_i,    // (4s) mod Nk: 0, 2 or 4
  input  logic [7:0]   rcon_i,     // Rcon of the next RotWord met going forward
  input  logic         reverse_i,  // 0: forward step, 1: backward step
  output logic [255:0] win_o,      // the new window
  output logic [2:0]   phase_o,    // its phase
  output logic [7:0]   rcon_o      // its Rcon
);

  logic [31:0] w [8];              // the window, w[0] oldest
  logic [31:0] last;               // newest window word w[Nk-1]
  logic [31:0] hi [4];             // the four newest window words w[Nk-4 .. Nk-1]
  logic [31:0] prev0;              // backward: the word before the first recovered one
  logic [2:0]  p;                  // phase of the window the four new words start
  logic        at0, at2;           // SubWord position: word 0 / word 2 of the four
  logic        rot;                // RotWord + Rcon (else SubWord only)
  logic [7:0]  rcon_use;           // Rcon applied in this step
  logic [7:0]  rcon_x;             // xtime(rcon_i)
  logic [7:0]  rcon_ix;            // rcon_i / x
  logic [31:0] sub_in, sub_out;    // the one SubWord of the step
  logic [31:0] t;                  // the transformed temp word
  logic [31:0] n0, n1, n2, n3;     // forward: the four new words
  logic [31:0] o0, o1, o2, o3;     // backward: the four recovered words

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
    unique case (key_len_i)
      2'd0: begin
        last  = w[3];
        hi[0] = w[0];
        hi[1] = w[1];
        hi[2] = w[2];
        hi[3] = w[3];
        prev0 = w[3] ^ w[2];  // = recovered word 3 (see "backward")
      end
      2'd1: begin
        last  = w[5];
        hi[0] = w[2];
        hi[1] = w[3];
        hi[2] = w[4];
        hi[3] = w[5];
        prev0 = w[1];
      end
      default: ;  // 2'd2 (and the illegal 2'd3): the defaults above
    endcase
  end

  always_comb begin : phase_next
    unique case (key_len_i)
      2'd0:    phase_o = 3'd0;
      2'd1: begin
        unique case (phase_i)
          3'd0:    phase_o = reverse_i ? 3'd2 : 3'd4;
          3'd2:    phase_o = reverse_i ? 3'd4 : 3'd0;
          default: phase_o = reverse_i ? 3'd0 : 3'd2;  // 3'd4
        endcase
      end
      default: phase_o = phase_i ^ 3'd4;  // 2'd2 (and the illegal 2'd3)
    endcase
  end

  assign p   = reverse_i ? phase_o : phase_i;
  assign at0 = (key_len_i != 2'd1) || (p == 3'd0);
  assign at2 = (key_len_i == 2'd1) && (p == 3'd4);
  assign rot = (key_len_i == 2'd0) || (key_len_i == 2'd1) || (p == 3'd0);

  // Rcon: forward uses rcon_i and moves on (xtime); backward steps back first
  // (division by x, the inverse of xtime) and uses the result
  ak_xtime u_xtime_rcon (
    .in_i (rcon_i),
    .out_o(rcon_x)
  );

  assign rcon_ix  = rcon_i[0] ? {1'b1, rcon_i[7:1] ^ 7'h0d} : {1'b0, rcon_i[7:1]};
  assign rcon_o   = (rot && (at0 || at2)) ? (reverse_i ? rcon_ix : rcon_x) : rcon_i;
  assign rcon_use = reverse_i ? rcon_o : rcon_i;

  // the one SubWord: its input is the word before the special position -- forward
  // the newest window word or the second new word, backward the same words, now
  // known from the newer window words
  always_comb begin : sub_select
    if (!reverse_i) sub_in = at2 ? (w[0] ^ w[1] ^ last) : last;
    else            sub_in = at2 ? hi[1] : prev0;
  end

  ak_sub_word u_sub_word (
    .in_i (sub_in),
    .out_o(sub_out)
  );

  // SubWord(RotWord(x)) = RotWord(SubWord(x)): rotate after the S-boxes
  assign t = rot ? ({sub_out[23:0], sub_out[31:24]} ^ {rcon_use, 24'h000000}) : sub_out;

  // forward: w[i] = w[i-Nk] ^ temp, temp = w[i-1] or its transform
  assign n0 = w[0] ^ (at0 ? t : last);
  assign n1 = w[1] ^ n0;
  assign n2 = w[2] ^ (at2 ? t : n1);
  assign n3 = w[3] ^ n2;

  // backward: w[i-Nk] = w[i] ^ temp, for the four newest i of the window
  assign o0 = hi[0] ^ (at0 ? t : prev0);
  assign o1 = hi[1] ^ hi[0];
  assign o2 = hi[2] ^ (at2 ? t : hi[1]);
  assign o3 = hi[3] ^ hi[2];

  always_comb begin : window_out
    if (!reverse_i) begin
      unique case (key_len_i)
        2'd0:    win_o = {n0, n1, n2, n3, 128'h0};
        2'd1:    win_o = {w[4], w[5], n0, n1, n2, n3, 64'h0};
        default: win_o = {w[4], w[5], w[6], w[7], n0, n1, n2, n3};
      endcase
    end else begin
      unique case (key_len_i)
        2'd0:    win_o = {o0, o1, o2, o3, 128'h0};
        2'd1:    win_o = {o0, o1, o2, o3, w[0], w[1], 64'h0};
        default: win_o = {o0, o1, o2, o3, w[0], w[1], w[2], w[3]};
      endcase
    end
  end

endmodule

`default_nettype wire
