// ak_asbus_addrgen: the ASBUS slave's address generator. For the beat in flight of
// one ASBUS transfer it gives the word address of every byte lane of a byte-lane
// banked memory (NB = DataWidth/8 lanes, one 8-bit bank per lane, each bank with its own
// address) and the lane map bus lane -> memory lane.
//
//   linear (mode 00): beats at word, word+1, ...; every lane at the same word.
//   block  (mode 01): H rows of Wd beats; row i starts at word + i*pitch (pitch in
//                     words); the slave computes every row address.
//   state  (mode 10): N 16-byte states, each B = 128/DataWidth beats. Beat j of a state carries
//                     the P = DataWidth/32 columns c = jP .. jP+P-1, column c in the byte order
//                       Read = 0 (write, InvShiftRows order): s[r][(c - r) mod 4]
//                       Read = 1 (read,  ShiftRows order)  : s[r][(c + r) mod 4]
//                     (paper 000, Fig. 7) with bus byte 4q + r of the beat (q = c - jP)
//                     taken from / sent to memory byte 16k + 4((c -/+ r) mod 4) + r.
//                     Every memory lane is used exactly once per beat, so a beat is
//                     one access of the banked memory.
//
// Timing    : outputs are combinational from the registers (latency 0); start_i loads
//             a command, adv_i steps one beat (both at the clock edge); last_o is high
//             on the last beat, from a flip-flop: its next value is chosen by start_i
//             and adv_i among candidates compared from the command inputs and the
//             registers alone (no compare behind a counter's adder, none behind the
//             late handshakes). A new command may be loaded in the cycle of the last
//             beat (start_i with adv_i), so beats of back-to-back commands stream
//             without a gap.
// Byte order: bus lane b = WDATA/RDATA[8b +: 8] is byte b of the beat (byte 0 at the
//             lowest address in linear and block mode), memory lane m holds the bytes
//             whose address mod NB is m.
// Parameters: DataWidth (32, 64, 128), AddrWidth (word-address bits), Read (0 write, 1 read schedule).

`default_nettype none

module ak_asbus_addrgen #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned AddrWidth = 6,
  parameter bit          Read = 1'b0,
  localparam int unsigned NB  = DataWidth / 8,
  localparam int unsigned LW  = $clog2(NB)
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // command, taken at the edge where start_i is high
  input  logic               start_i,
  input  logic [1:0]         mode_i,     // 00 linear, 01 block, 10 state
  input  logic [AddrWidth-1:0]      word_i,     // first beat's word address
  input  logic [10:0]        count_i,    // linear: beats; state: states (1..1024)
  input  logic [6:0]         height_i,   // block rows (1..64)
  input  logic [4:0]         width_i,    // block beats per row (1..16)
  input  logic [AddrWidth-1:0]      pitch_i,    // block row pitch in words
  // beat stepping
  input  logic               adv_i,
  output logic               active_o,
  output logic               last_o,
  output logic [1:0]         mode_o,
  output logic [AddrWidth-1:0]      state_word_o,  // word of the current state (state mode)
  output logic [1:0]         beat_o,        // beat index within the state
  output logic [NB*AddrWidth-1:0]   lane_word_o,   // memory lane m: [m*AddrWidth +: AddrWidth]
  output logic [NB*LW-1:0]   bus2mem_o      // bus lane b -> memory lane [b*LW +: LW]
);

  localparam int unsigned P  = DataWidth / 32;       // columns per beat
  localparam int unsigned B  = 128 / DataWidth;      // beats per state
  localparam int unsigned BW = 16 / NB;      // words per state (= B)

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_addrgen: DataWidth=%0d not 32/64/128", DataWidth);
`else
    $fatal(1, "ak_asbus_addrgen: DataWidth=%0d not 32/64/128", DataWidth);
`endif
  end

  logic          active_q, active_d;
  logic [1:0]    mode_q, mode_d;
  logic [AddrWidth-1:0] word_q, word_d;     // current beat (linear/block), state base (state)
  logic [AddrWidth-1:0] row_q, row_d;       // block: first word of the current row
  logic [AddrWidth-1:0] pitch_q, pitch_d;
  logic [4:0]    col_q, col_d;       // block: beat in row; state: beat in state
  logic [4:0]    width_q, width_d;
  logic [10:0]   rem_q, rem_d;       // linear: beats left; block: rows left; state: states left
  logic          row_end, last;
  logic          last_q, last_d;     // = last, one cycle ahead (see last_next)
  logic          last_adv;           // last of the beat after the current one
  logic          last_cmd;           // last of a command's first beat

  assign row_end = (col_q == width_q - 5'd1);

  always_comb begin : last_beat
    unique case (mode_q)
      2'b01:   last = row_end && (rem_q == 11'd1);
      2'b10:   last = (col_q == 5'(B - 1)) && (rem_q == 11'd1);
      default: last = (rem_q == 11'd1);
    endcase
  end

  // The candidates for last_q, each the "last" expression above applied to the next
  // state of one transition, simplified so that it reads the registers (or the
  // command inputs) directly: col + 1 == width - 1 is col == width - 2, rem - 1 == 1
  // is rem == 2 (all modulo the widths, as the expression above).
  always_comb begin : last_next
    unique case (mode_q)
      2'b01:   last_adv = row_end ? ((width_q == 5'd1) && (rem_q == 11'd2))
                                  : ((col_q == width_q - 5'd2) && (rem_q == 11'd1));
      2'b10:   last_adv = (col_q == 5'(B - 1)) ? ((B == 1) && (rem_q == 11'd2))
                                               : ((col_q == 5'(B - 2)) && (rem_q == 11'd1));
      default: last_adv = (rem_q == 11'd2);
    endcase
    unique case (mode_i)
      2'b01:   last_cmd = (width_i == 5'd1) && (height_i == 7'd1);
      2'b10:   last_cmd = (B == 1) && (count_i == 11'd1);
      default: last_cmd = (count_i == 11'd1);
    endcase
    last_d = last_q;
    if (adv_i && active_q) last_d = last_adv;
    if (start_i)           last_d = last_cmd;
  end

  always_comb begin : next_state
    active_d = active_q;
    mode_d   = mode_q;
    word_d   = word_q;
    row_d    = row_q;
    pitch_d  = pitch_q;
    col_d    = col_q;
    width_d  = width_q;
    rem_d    = rem_q;
    if (adv_i && active_q) begin
      if (last_q) active_d = 1'b0;
      unique case (mode_q)
        2'b01: begin
          if (row_end) begin
            col_d  = '0;
            row_d  = row_q + pitch_q;
            word_d = row_q + pitch_q;
            rem_d  = rem_q - 11'd1;
          end else begin
            col_d  = col_q + 5'd1;
            word_d = word_q + AddrWidth'(1);
          end
        end
        2'b10: begin
          if (col_q == 5'(B - 1)) begin
            col_d  = '0;
            word_d = word_q + AddrWidth'(BW);
            rem_d  = rem_q - 11'd1;
          end else begin
            col_d = col_q + 5'd1;
          end
        end
        default: begin
          word_d = word_q + AddrWidth'(1);
          rem_d  = rem_q - 11'd1;
        end
      endcase
    end
    if (start_i) begin
      active_d = 1'b1;
      mode_d   = mode_i;
      word_d   = word_i;
      row_d    = word_i;
      pitch_d  = pitch_i;
      col_d    = '0;
      width_d  = width_i;
      rem_d    = (mode_i == 2'b01) ? {4'd0, height_i} : count_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      active_q <= 1'b0;
      mode_q   <= '0;
      word_q   <= '0;
      row_q    <= '0;
      pitch_q  <= '0;
      col_q    <= '0;
      width_q  <= '0;
      rem_q    <= '0;
      last_q   <= 1'b0;   // = last of the reset state (mode 00, rem 0)
    end else begin
      active_q <= active_d;
      mode_q   <= mode_d;
      word_q   <= word_d;
      row_q    <= row_d;
      pitch_q  <= pitch_d;
      col_q    <= col_d;
      width_q  <= width_d;
      rem_q    <= rem_d;
      last_q   <= last_d;
    end
  end

  // lane addresses and the bus -> memory lane map of the current beat
  always_comb begin : lanes
    int r, c, cs, o;
    r  = 0;
    c  = 0;
    cs = 0;
    o  = 0;
    for (int m = 0; m < NB; m++) lane_word_o[m*AddrWidth +: AddrWidth] = word_q;
    for (int b = 0; b < NB; b++) bus2mem_o[b*LW +: LW] = LW'(b);
    if (mode_q == 2'b10) begin
      for (int b = 0; b < NB; b++) begin
        r  = b % 4;
        c  = (int'(col_q) * P + b / 4) % 4;
        cs = (Read ? (c + r) : (c + 4 - r)) % 4;
        o  = 4 * cs + r;                    // byte offset in the state
        bus2mem_o[b*LW +: LW] = LW'(o % NB);
        lane_word_o[(o % NB)*AddrWidth +: AddrWidth] = word_q + AddrWidth'(o / NB);
      end
    end
  end

  assign active_o     = active_q;
  assign last_o       = last_q;
  assign mode_o       = mode_q;
  assign state_word_o = word_q;
  assign beat_o       = col_q[1:0];

`ifndef SYNTHESIS
  // last_q is the expression it stands for (from the first reset on); a plain always:
  // Icarus refuses system tasks in always_ff
  logic reset_seen_q = 1'b0;

  always @(posedge clk_i or negedge rst_ni) begin : last_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q && last_q != last) begin
      $error("ak_asbus_addrgen: last_q %b, last %b", last_q, last);
    end
  end
`endif

endmodule

`default_nettype wire
