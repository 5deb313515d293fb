// ak_dam_aes_engine: the word-serial, fully pipelined AES-128 engine of paper 000
// (Sec. 3.1, Fig. 11) for a DataWidth-bit data path: ten round units, each with P = DataWidth/32
// column lanes of four composite-field S-boxes split into substage 1
// (ak_sbox_comp_s1: input map + GF(2^4) inversion part, registered) and substage 2
// (ak_sbox_comp_s2 output map + MixColumns/InvMixColumns + AddRoundKey): 4S+1M per
// round at 32 bits, 8S+2M at 64, 16S+4M at 128. Decrypt = 1 builds the inverse
// cipher (InvSubBytes, AddRoundKey, InvMixColumns per round).
//
// A state is B = 128/DataWidth beats. Beat j carries the columns c = jP .. jP+P-1 of the
// state in the order the first round's MixColumns needs (paper 000 Fig. 7):
//   encryption: column c = s[0][c], s[1][c+1], s[2][c+2], s[3][c+3] (ShiftRows order)
//   decryption: column c = s[0][c], s[1][c-1], s[2][c-2], s[3][c-3] (InvShiftRows)
// With PreScheduled = 1 (ASBUS state transfers) the input beats come in that order and
// round 1 starts on the first beat. With PreScheduled = 0 (AXI) the input is in
// natural column order: the engine buffers the whole state and reschedules it first
// (B cycles more, Fig. 8(a) against 8(b)). Rounds 2..10 always reschedule from a
// per-round state register (ShiftRows needs all four columns). Output beats are in
// natural column order.
//
// Timing    : a round unit takes a new state every B cycles and needs B + 1 cycles per
//             round (5 / 3 / 2 at DataWidth = 32 / 64 / 128), so the engine accepts one beat per
//             cycle (full rate) and beat j of a state leaves 10(B+1) - B + 1 + j cycles
//             after the state's first beat entered (PreScheduled = 1; B more when
//             0): 47 / 29 / 20 (51 / 31 / 21) cycles for the first beat. en_i = 0 freezes every
//             register (back-pressure of the whole pipeline). busy_o (a state is in
//             the engine) comes from a register, kept equal to the OR of the stages.
// Byte order: beats and the round keys in bus-lane order: byte b in bits [8b+7:8b];
//             byte 4c + r of a state or key is s[r][c]. rk_i holds round key k in
//             [128k +: 128] (k = 0..10, FIPS-197 key expansion).
// Parameters: DataWidth (32/64/128), Decrypt, PreScheduled, TagWidth (tag carried per state).

`default_nettype none

module ak_dam_aes_engine #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned Decrypt      = 0,
  parameter int unsigned PreScheduled = 1,
  parameter int unsigned TagWidth = 8
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              en_i,
  input  logic [1407:0]     rk_i,
  input  logic              in_valid_i,
  input  logic [DataWidth-1:0]      in_data_i,
  input  logic [TagWidth-1:0]   in_tag_i,     // sampled with the first beat of a state
  output logic              out_valid_o,
  output logic [DataWidth-1:0]      out_data_o,
  output logic [TagWidth-1:0]   out_tag_o,
  output logic [1:0]        out_beat_o,
  output logic              busy_o
);

  localparam int unsigned P  = DataWidth / 32;
  localparam int unsigned B  = 128 / DataWidth;
  localparam int unsigned NB = DataWidth / 8;
  localparam int unsigned CW = (B > 1) ? (B - 1) * DataWidth : DataWidth;  // collected beats

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_dam_aes_engine: DataWidth=%0d not 32/64/128", DataWidth);
`else
    $fatal(1, "ak_dam_aes_engine: DataWidth=%0d not 32/64/128", DataWidth);
`endif
  end
  if (TagWidth < 1) begin : g_bad_param_1
`ifdef __ICARUS__
    initial $fatal(1, "ak_dam_aes_engine: TagWidth=%0d < 1", TagWidth);
`else
    $fatal(1, "ak_dam_aes_engine: TagWidth=%0d < 1", TagWidth);
`endif
  end

  // round key k (bus-lane byte order)
  function automatic logic [127:0] rk(input logic [1407:0] all, input int k);
    return all[128*k +: 128];
  endfunction

  // beat j of state s in the first-round order (ShiftRows for encryption,
  // InvShiftRows for decryption)
  function automatic logic [DataWidth-1:0] sched(input logic [127:0] s, input logic [1:0] j);
    logic [DataWidth-1:0] v;
    logic [1:0] c, cs, r;
    for (int b = 0; b < NB; b++) begin
      r  = 2'(b % 4);
      c  = 2'(int'(j) * P + b / 4);
      cs = (Decrypt != 0) ? (c - r) : (c + r);
      v[8*b +: 8] = s[8*{cs, r} +: 8];
    end
    return v;
  endfunction

  // byte-reverse a column: bus order (row 0 in [7:0]) <-> primitive order (row 0 in [31:24])
  function automatic logic [31:0] swap(input logic [31:0] x);
    return {x[7:0], x[15:8], x[23:16], x[31:24]};
  endfunction

  // ------------------------------------------------------------------------------
  // input stage: beat counter, tag, (PreScheduled = 0) the reschedule buffer
  // ------------------------------------------------------------------------------
  logic [1:0]      in_beat_q, in_beat_d;
  logic [TagWidth-1:0] in_tag_q, in_tag_d;
  logic [CW-1:0]   in_col_q, in_col_d;
  logic            in_last;

  assign in_last = (in_beat_q == 2'(B - 1));

  // Operand isolation: the round logic sees the input beat only while it is valid,
  // so bypass traffic on the same data wires (ADAM feeds the bus or memory data
  // straight in) does not switch the S-boxes. Measured: without it ADAM's linear and
  // block transfers toggled 1.4-1.9x the nets of XDAM's (docs/asbus.md).
  logic [DataWidth-1:0] in_data;
  assign in_data = in_data_i & {DataWidth{in_valid_i}};

  always_comb begin : input_next
    in_beat_d = in_beat_q;
    in_tag_d  = in_tag_q;
    in_col_d  = in_col_q;
    if (in_valid_i) begin
      in_beat_d = in_last ? 2'd0 : in_beat_q + 2'd1;
      if (in_beat_q == 2'd0) in_tag_d = in_tag_i;
      if (B > 1) in_col_d[DataWidth*in_beat_q +: DataWidth] = in_data;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : input_regs
    if (!rst_ni) begin
      in_beat_q <= '0;
      in_tag_q  <= '0;
      in_col_q  <= '0;
    end else if (en_i) begin
      in_beat_q <= in_beat_d;
      in_tag_q  <= in_tag_d;
      in_col_q  <= in_col_d;
    end
  end

  // ------------------------------------------------------------------------------
  // round units 1..10
  // ------------------------------------------------------------------------------
  // done_* of round r: its last beat of a state leaves substage 2 this cycle
  logic [9:0]           done_v;
  logic [127:0]         done_state [10];
  logic [TagWidth-1:0]      done_tag [10];
  logic [10:0]          busy;
  logic [10:0]          busy_next;   // busy of the next cycle (from the _d values)

  // round 0 "done": a whole natural-order input state (PreScheduled = 0 only)
  logic [127:0] in_state;
  if (B > 1) begin : g_in_state_n
    assign in_state = {in_data, in_col_q[CW-1:0]};
  end else begin : g_in_state_1
    assign in_state = 128'(in_data);
  end

  assign done_v[0]     = in_valid_i && in_last && (PreScheduled == 0);
  assign done_state[0] = in_state ^ rk(rk_i, (Decrypt != 0) ? 10 : 0);
  assign done_tag[0]   = (B > 1) ? in_tag_q : in_tag_i;
  assign busy[0]       = (in_beat_q != 2'd0);
  assign busy_next[0]  = (in_beat_d != 2'd0);

  logic            out_v_q, out_v_d;
  logic [DataWidth-1:0]    out_q, out_d;
  logic [TagWidth-1:0] out_tag_q, out_tag_d;
  logic [1:0]      out_beat_q, out_beat_d;

  for (genvar rr = 1; rr <= 10; rr++) begin : g_round
    localparam bit Last = (rr == 10);
    localparam int Key  = (Decrypt != 0) ? 10 - rr : rr;
    localparam bit Hold = (rr > 1) || (PreScheduled == 0);

    // hold register: the whole state of the previous round, issued beat by beat in
    // the first-round order
    logic [127:0]    hold_q, hold_d;
    logic [TagWidth-1:0] hold_tag_q, hold_tag_d;
    logic [2:0]      hold_cnt_q, hold_cnt_d;   // beats still to issue
    logic [1:0]      hold_beat;

    // substage 1 register
    logic [DataWidth*3/2-1:0] s1_q, s1_d;
    logic             s1_v_q, s1_v_d;
    logic [1:0]       s1_beat_q, s1_beat_d;
    logic [TagWidth-1:0]  s1_tag_q, s1_tag_d;

    // collected output beats of the state
    logic [CW-1:0]    col_q, col_d;

    logic             iss_v;
    logic [DataWidth-1:0]     iss_data;
    logic [1:0]       iss_beat;
    logic [TagWidth-1:0]  iss_tag;
    logic [DataWidth*3/2-1:0] s1_out;
    logic [DataWidth-1:0]     s2_out;       // S-box outputs, bus-lane order
    logic [DataWidth-1:0]     res;          // round result beat, natural order

    assign hold_beat = 2'(B) - hold_cnt_q[1:0];

    always_comb begin : hold_next
      hold_d     = hold_q;
      hold_tag_d = hold_tag_q;
      hold_cnt_d = hold_cnt_q;
      if (Hold) begin
        if (hold_cnt_q != 3'd0) hold_cnt_d = hold_cnt_q - 3'd1;
        if (done_v[rr-1]) begin
          hold_d     = done_state[rr-1];
          hold_tag_d = done_tag[rr-1];
          hold_cnt_d = 3'(B);
        end
      end
    end

    always_comb begin : issue
      if (Hold) begin
        iss_v    = (hold_cnt_q != 3'd0);
        iss_data = sched(hold_q, hold_beat);
        iss_beat = hold_beat;
        iss_tag  = hold_tag_q;
      end else begin
        // round 1 on pre-scheduled input beats, whitened with the scheduled key
        iss_v    = in_valid_i;
        iss_data = in_data ^ sched(rk(rk_i, (Decrypt != 0) ? 10 : 0), in_beat_q);
        iss_beat = in_beat_q;
        iss_tag  = (in_beat_q == 2'd0) ? in_tag_i : in_tag_q;
      end
    end

    for (genvar b = 0; b < NB; b++) begin : g_s1
      ak_sbox_comp_s1 u_s1 (
        .in_i (iss_data[8*b +: 8]),
        .dec_i(Decrypt != 0),
        .out_o(s1_out[12*b +: 12])
      );
      ak_sbox_comp_s2 u_s2 (
        .in_i (s1_q[12*b +: 12]),
        .dec_i(Decrypt != 0),
        .out_o(s2_out[8*b +: 8])
      );
    end

    // substage 2: (Inv)MixColumns and AddRoundKey per column of the beat
    for (genvar q = 0; q < P; q++) begin : g_col
      logic [31:0] key_col, mixed;
      assign key_col = rk_i[128*Key + 32*(int'(s1_beat_q) * P + q) +: 32];
      if (Last) begin : g_last
        assign mixed = s2_out[32*q +: 32];
        assign res[32*q +: 32] = mixed ^ key_col;
      end else if (Decrypt != 0) begin : g_dec
        logic [31:0] pre;
        assign pre = s2_out[32*q +: 32] ^ key_col;
        ak_inv_mix_column u_imc (
          .in_i (swap(pre)),
          .out_o(mixed)
        );
        assign res[32*q +: 32] = swap(mixed);
      end else begin : g_enc
        ak_mix_column u_mc (
          .in_i (swap(s2_out[32*q +: 32])),
          .out_o(mixed)
        );
        assign res[32*q +: 32] = swap(mixed) ^ key_col;
      end
    end

    always_comb begin : stage_next
      s1_d      = s1_q;
      s1_v_d    = iss_v;
      s1_beat_d = s1_beat_q;
      s1_tag_d  = s1_tag_q;
      col_d     = col_q;
      if (iss_v) begin
        s1_d      = s1_out;
        s1_beat_d = iss_beat;
        s1_tag_d  = iss_tag;
      end
      if (s1_v_q && B > 1 && s1_beat_q != 2'(B - 1)) col_d[DataWidth*s1_beat_q +: DataWidth] = res;
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin : stage_regs
      if (!rst_ni) begin
        hold_q     <= '0;
        hold_tag_q <= '0;
        hold_cnt_q <= '0;
        s1_q       <= '0;
        s1_v_q     <= 1'b0;
        s1_beat_q  <= '0;
        s1_tag_q   <= '0;
        col_q      <= '0;
      end else if (en_i) begin
        hold_q     <= hold_d;
        hold_tag_q <= hold_tag_d;
        hold_cnt_q <= hold_cnt_d;
        s1_q       <= s1_d;
        s1_v_q     <= s1_v_d;
        s1_beat_q  <= s1_beat_d;
        s1_tag_q   <= s1_tag_d;
        col_q      <= col_d;
      end
    end

    if (!Last) begin : g_done
      assign done_v[rr]     = s1_v_q && (s1_beat_q == 2'(B - 1));
      if (B > 1) begin : g_n
        assign done_state[rr] = {res, col_q[CW-1:0]};
      end else begin : g_1
        assign done_state[rr] = 128'(res);
      end
      assign done_tag[rr]   = s1_tag_q;
    end
    assign busy[rr]       = (hold_cnt_q != 3'd0) || s1_v_q;
    assign busy_next[rr]  = (hold_cnt_d != 3'd0) || s1_v_d;

    if (Last) begin : g_out
      always_comb begin : out_next
        out_v_d    = s1_v_q;
        out_d      = s1_v_q ? res : out_q;
        out_tag_d  = s1_v_q ? s1_tag_q : out_tag_q;
        out_beat_d = s1_v_q ? s1_beat_q : out_beat_q;
      end
    end
  end

  // busy_o from a register: the OR of every stage's next state, taken with the same
  // enable as the stages, equals the OR of their state in every cycle (all reset to
  // 0), so the dispatch logic that waits on it does not see the OR tree spread over
  // the ten round units.
  logic busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : busy_reg
    if (!rst_ni) begin
      busy_q <= 1'b0;
    end else if (en_i) begin
      busy_q <= (|busy_next) || out_v_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : out_regs
    if (!rst_ni) begin
      out_v_q    <= 1'b0;
      out_q      <= '0;
      out_tag_q  <= '0;
      out_beat_q <= '0;
    end else if (en_i) begin
      out_v_q    <= out_v_d;
      out_q      <= out_d;
      out_tag_q  <= out_tag_d;
      out_beat_q <= out_beat_d;
    end
  end

  assign out_valid_o = out_v_q;
  assign out_data_o  = out_q;
  assign out_tag_o   = out_tag_q;
  assign out_beat_o  = out_beat_q;
  assign busy_o      = busy_q;

`ifndef SYNTHESIS
  // the register is the OR it stands for
  // (from the first reset on: before it the registers hold whatever they power up with)
  logic reset_seen_q = 1'b0;

  always_ff @(posedge clk_i or negedge rst_ni) begin : busy_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q && busy_q != ((|busy) || out_v_q)) begin
      $error("ak_dam_aes_engine: busy_q %0b, stages %0b", busy_q, (|busy) || out_v_q);
    end
  end
`endif

endmodule

`default_nettype wire
