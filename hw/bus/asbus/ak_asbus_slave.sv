// ak_asbus_slave: ASBUS slave endpoint for N masters (multi-master, single slave,
// full duplex). It arbitrates the masters' requests (ak_asbus_arbiter, fixed
// priority), checks each command, queues it (QueueDepth entries, in order) and
// multiplexes the data phase: WDATA/WD_VLD of the master that owns the current write,
// RESP[1] to that master when a beat is taken, RDATA to all masters with RESP[0] to
// the owner of the read beat, ERR to the owner of a command answered with an error.
//
// Command phase: a master holds REQ with ADDR, WR, LEN until it sees GNT; the command
// is taken at the edge before GNT is high (REQ in cycle t, GNT in t+1, first data beat
// possible in t+2). Back-to-back commands overlap the data phase of earlier ones.
// LEN[11:10]: 00 linear (LEN[9:0] beats, 0 = 1024), 01 block (LEN[9:6] beats per row,
// 0 = 16; LEN[5:0] rows, 0 = 64; row i at ADDR + i*pitch_i), 10 AES states (LEN[9:0]
// states of 16 bytes, 0 = 1024), 11 reserved.
// Checked (an error command moves no data; ERR[1] (write) / ERR[0] (read) is pulsed
// when it reaches the head of the queue and its path is free): reserved mode; linear
// or block ADDR not aligned to a beat (DataWidth/8 bytes) or pitch not a multiple of DataWidth/8;
// state ADDR not 16-byte aligned; any byte of the transfer at or above MemBytes.
// Commands of one direction are answered in order.
// Each queue entry carries the row pitch of the cycle the command is taken (pitch_i
// >> log2(DataWidth/8), in words: head_pitch_o), the one it was checked against, so
// the consumer (ADAM's data paths) generates exactly the rows that were checked, even
// if pitch_i changes while the command waits in the queue or moves its data.
//
// Timing    : GNT one cycle after REQ; the command is at the queue head (if the queue
//             was empty) in the GNT cycle, so its first data beat can follow in the next.
//             Every master's command is checked in parallel (the arbiter only selects
//             the entry) and the head_* outputs come from a register (the entry at the
//             read pointer), so neither the check nor the consumer's dispatch logic
//             sits behind the other or behind the queue's read multiplexer.
//             The command is checked, and its head_pitch_o taken, with pitch_i of the
//             cycle before the edge that takes it (REQ in t: pitch_i in t; a pitch_i
//             change at that edge applies to later commands only).
// Byte order: WDATA/RDATA byte b (bits 8b+7:8b) is byte lane b, the lowest address
//             of a linear/block beat in lane 0; WD_VLD[b] qualifies byte b.
// Parameters: DataWidth (32/64/128), N masters, MemBytes (power of two), QueueDepth.

`default_nettype none

module ak_asbus_slave #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned N          = 2,
  parameter int unsigned MemBytes   = 256,
  parameter int unsigned QueueDepth = 8,
  localparam int unsigned NB = DataWidth / 8,
  localparam int unsigned AB = $clog2(MemBytes),      // byte-address bits
  localparam int unsigned AddrWidth = AB - $clog2(NB),       // word-address bits
  localparam int unsigned IdWidth = (N > 1) ? $clog2(N) : 1,
  localparam int unsigned LB = $clog2(NB)            // beat-offset bits
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  // ASBUS, slave side (one set per master, master i in slice i)
  input  logic [N-1:0]       s_asbus_req,
  output logic [N-1:0]       s_asbus_gnt,
  input  logic [N*32-1:0]    s_asbus_addr,
  input  logic [N-1:0]       s_asbus_wr,
  input  logic [N*12-1:0]    s_asbus_len,
  input  logic [N*NB-1:0]    s_asbus_wd_vld,
  input  logic [N*DataWidth-1:0]     s_asbus_wdata,
  output logic [DataWidth-1:0]       s_asbus_rdata,
  output logic [N*2-1:0]     s_asbus_resp,
  output logic [N*2-1:0]     s_asbus_err,
  // configuration
  input  logic [15:0]        pitch_i,        // block row pitch in bytes
  // queue head
  output logic               head_valid_o,
  output logic [IdWidth-1:0]      head_master_o,
  output logic               head_wr_o,
  output logic               head_err_o,
  output logic [1:0]         head_mode_o,
  output logic [AddrWidth-1:0]      head_word_o,
  output logic [10:0]        head_count_o,
  output logic [6:0]         head_height_o,
  output logic [4:0]         head_width_o,
  output logic [AB-1:0]      head_lo_o,      // first byte touched
  output logic [AB-1:0]      head_hi_o,      // last byte touched (bounding range)
  output logic [AddrWidth-1:0]      head_pitch_o,   // row pitch in words, as checked
  input  logic               head_pop_i,
  // write data phase
  input  logic [IdWidth-1:0]      wr_owner_i,
  input  logic               wr_take_i,      // a beat is taken this cycle (RESP[1])
  output logic [DataWidth-1:0]       wr_data_o,
  output logic [NB-1:0]      wr_vld_o,
  // read data phase
  input  logic               rd_valid_i,     // RESP[0] this cycle
  input  logic [IdWidth-1:0]      rd_owner_i,
  input  logic [DataWidth-1:0]       rd_data_i,
  // error answers
  input  logic               err_i,
  input  logic [IdWidth-1:0]      err_owner_i,
  input  logic               err_wr_i
);

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_slave: DataWidth=%0d not 32/64/128", DataWidth);
`else
    $fatal(1, "ak_asbus_slave: DataWidth=%0d not 32/64/128", DataWidth);
`endif
  end
  if (MemBytes < 32 || (MemBytes & (MemBytes - 1)) != 0) begin : g_bad_param_1
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_slave: MemBytes=%0d not a power of two >= 32", MemBytes);
`else
    $fatal(1, "ak_asbus_slave: MemBytes=%0d not a power of two >= 32", MemBytes);
`endif
  end
  if (QueueDepth < 1 || QueueDepth > 64) begin : g_bad_param_2
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_slave: QueueDepth=%0d not in 1..64", QueueDepth);
`else
    $fatal(1, "ak_asbus_slave: QueueDepth=%0d not in 1..64", QueueDepth);
`endif
  end

  localparam int unsigned QW = (QueueDepth > 1) ? $clog2(QueueDepth) : 1;
  // entry: master, wr, err, mode, word, count, height, width, lo, hi, pitch (words)
  localparam int unsigned EW = IdWidth + 1 + 1 + 2 + AddrWidth + 11 + 7 + 5 + AB + AB
                               + AddrWidth;

  // ------------------------------------------------------------------------------
  // arbitration and command capture
  // ------------------------------------------------------------------------------
  logic [N-1:0]  gnt_q, gnt_d;
  logic          any;
  logic          full;

  ak_asbus_arbiter #(.N(N)) u_arbiter (
    .req_i   (s_asbus_req),
    .mask_i  (gnt_q),
    .enable_i(!full),
    .gnt_o   (gnt_d),
    .any_o   (any)
  );

  // Every master's command is decoded and checked in parallel, from its own ADDR/LEN
  // and pitch_i; the arbiter's grant only selects the finished entry (one AND-OR
  // level), so arbitration and the check's arithmetic are not in series.
  // The check's arithmetic is exact in XB bits: an ADDR at or above MemBytes is refused
  // by its high bits; a block of two or more rows with a pitch at or above MemBytes is
  // refused by the pitch's high bits (its second row starts beyond the memory), so
  // only the pitch's low AB bits enter the extent, and the sum of a lower ADDR and the
  // largest extent (63 (2^AB - 1) + 16 * 16, or 1024 * 16) stays below 2^XB. The last
  // byte (hi, AB bits) is the same as with the whole pitch (arithmetic modulo 2^AB).
  localparam int unsigned XB = ((AB + 7) > 15) ? (AB + 7) : 15;

  logic [EW-1:0] m_entry [N];

  for (genvar i = 0; i < N; i++) begin : g_check
    logic [31:0]   c_addr;
    logic [11:0]   c_len;
    logic [1:0]    c_mode;
    logic [10:0]   c_count;
    logic [6:0]    c_height;
    logic [4:0]    c_width;
    logic [AB-1:0] c_plo;     // pitch modulo MemBytes
    logic          c_phi;     // pitch at or above MemBytes
    logic [XB-1:0] c_last;    // the transfer's extent minus one, rows aside
    logic [XB-1:0] c_hi;      // last byte touched (exact: its high bits show a refusal)
    logic          c_err;

    assign c_addr   = s_asbus_addr[32*i +: 32];
    assign c_len    = s_asbus_len[12*i +: 12];
    assign c_mode   = c_len[11:10];
    assign c_count  = (c_len[9:0] == 10'd0) ? 11'd1024 : {1'b0, c_len[9:0]};
    assign c_height = (c_len[5:0] == 6'd0) ? 7'd64 : {1'b0, c_len[5:0]};
    assign c_width  = (c_len[9:6] == 4'd0) ? 5'd16 : {1'b0, c_len[9:6]};
    assign c_plo    = AB'(pitch_i);
    assign c_phi    = (32'(pitch_i) >> AB) != 32'd0;

    // The last byte is ADDR + extent - 1 with the extent (bytes - 1) made by wiring:
    // linear {count - 1, LB ones}, state {count - 1, 4 ones}, block {width - 1, LB
    // ones} plus (rows - 1) x pitch. The product is a balanced sum of shifted pitches
    // (adders, not a multiplier, so synthesis does not share one multiplier between
    // the masters behind the arbiter), added in parallel with ADDR + the rest: three
    // adder levels. A transfer past the memory has a last byte at or above MemBytes.
    logic [5:0]    c_hm1;     // rows - 1 (0 unless a block)
    logic [XB-1:0] c_pair [3];
    logic [XB-1:0] c_base;    // ADDR + extent - 1 without the rows

    always_comb begin : command_extent
      unique case (c_mode)
        2'b01:   c_last = XB'({4'(c_len[9:6] - 4'd1), {LB{1'b1}}});
        2'b10:   c_last = XB'({10'(c_len[9:0] - 10'd1), 4'hf});
        default: c_last = XB'({10'(c_len[9:0] - 10'd1), {LB{1'b1}}});
      endcase
      c_hm1 = (c_mode == 2'b01) ? 6'(c_len[5:0] - 6'd1) : 6'd0;
      for (int k = 0; k < 3; k++) begin
        c_pair[k] = (c_hm1[2*k]   ? (XB'(c_plo) << (2*k))   : '0)
                  + (c_hm1[2*k+1] ? (XB'(c_plo) << (2*k+1)) : '0);
      end
      c_base = XB'(c_addr[AB-1:0]) + c_last;
      c_hi   = (c_pair[0] + c_pair[1]) + (c_pair[2] + c_base);
    end

    always_comb begin : command_check
      c_err = 1'b0;
      if (c_mode == 2'b11) c_err = 1'b1;
      if (c_mode == 2'b10 && c_addr[3:0] != 4'd0) c_err = 1'b1;
      if (c_mode != 2'b10 && c_addr[LB-1:0] != '0) c_err = 1'b1;
      if (c_mode == 2'b01 && pitch_i[LB-1:0] != '0) c_err = 1'b1;
      if (c_mode == 2'b01 && c_hm1 != 6'd0 && c_phi) c_err = 1'b1;
      if (c_addr[31:AB] != '0 || (c_hi >> AB) != '0) c_err = 1'b1;
    end

    assign m_entry[i] = {IdWidth'(i), s_asbus_wr[i], c_err, c_mode, AddrWidth'(c_addr >> LB),
                         c_count, c_height, c_width, AB'(c_addr), AB'(c_hi),
                         AddrWidth'(pitch_i >> LB)};
  end

  logic [EW-1:0] c_entry;

  always_comb begin : winner
    c_entry = '0;
    for (int i = 0; i < N; i++) begin
      c_entry |= gnt_d[i] ? m_entry[i] : '0;
    end
  end

  // ------------------------------------------------------------------------------
  // command queue
  // ------------------------------------------------------------------------------
  logic [EW-1:0] q_mem_q [QueueDepth];
  logic [QW-1:0] wp_q, wp_d, rp_q, rp_d;
  logic [QW:0]   cnt_q, cnt_d;
  logic          push, pop;

  assign push = any;
  assign pop  = head_pop_i && (cnt_q != '0);
  assign full = (cnt_q == (QW+1)'(QueueDepth));

  function automatic logic [QW-1:0] inc(input logic [QW-1:0] p);
    return (p == QW'(QueueDepth - 1)) ? '0 : p + QW'(1);
  endfunction

  always_comb begin : queue_next
    wp_d  = push ? inc(wp_q) : wp_q;
    rp_d  = pop ? inc(rp_q) : rp_q;
    cnt_d = cnt_q + (QW+1)'(push) - (QW+1)'(pop);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : queue_regs
    if (!rst_ni) begin
      gnt_q <= '0;
      wp_q  <= '0;
      rp_q  <= '0;
      cnt_q <= '0;
    end else begin
      gnt_q <= gnt_d;
      wp_q  <= wp_d;
      rp_q  <= rp_d;
      cnt_q <= cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : queue_mem
    if (!rst_ni) begin
      for (int i = 0; i < QueueDepth; i++) q_mem_q[i] <= '0;
    end else if (push) begin
      q_mem_q[wp_q] <= c_entry;
    end
  end

  // The head entry from its own register, so the consumer's dispatch logic starts at
  // a flip-flop rather than behind the QueueDepth:1 read multiplexer. head_q always
  // equals q_mem_q[rp_q]: the next head is the entry after the head (on a pop) or the
  // head itself, either one replaced by the entry pushed at this edge into its slot;
  // the read multiplexer works on registers only, beside the late pop.
  logic [EW-1:0] head_q, head_d;
  logic [QW-1:0] rp_next;
  logic [EW-1:0] head_cur, head_nxt;

  assign rp_next = inc(rp_q);

  always_comb begin : head_next
    head_cur = (push && wp_q == rp_q)    ? c_entry : head_q;
    head_nxt = (push && wp_q == rp_next) ? c_entry : q_mem_q[rp_next];
    head_d   = pop ? head_nxt : head_cur;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : head_reg
    if (!rst_ni) begin
      head_q <= '0;
    end else begin
      head_q <= head_d;
    end
  end

  assign head_valid_o = (cnt_q != '0);
  assign {head_master_o, head_wr_o, head_err_o, head_mode_o, head_word_o, head_count_o,
          head_height_o, head_width_o, head_lo_o, head_hi_o, head_pitch_o} = head_q;

  assign s_asbus_gnt = gnt_q;

  // ------------------------------------------------------------------------------
  // data phase
  // ------------------------------------------------------------------------------
  assign wr_data_o     = s_asbus_wdata[DataWidth*wr_owner_i +: DataWidth];
  assign wr_vld_o      = s_asbus_wd_vld[NB*wr_owner_i +: NB];
  assign s_asbus_rdata = rd_data_i;

  always_comb begin : responses
    s_asbus_resp = '0;
    s_asbus_err  = '0;
    for (int i = 0; i < N; i++) begin
      s_asbus_resp[2*i+1] = wr_take_i && (wr_owner_i == IdWidth'(i));
      s_asbus_resp[2*i]   = rd_valid_i && (rd_owner_i == IdWidth'(i));
      s_asbus_err[2*i+1]  = err_i && err_wr_i && (err_owner_i == IdWidth'(i));
      s_asbus_err[2*i]    = err_i && !err_wr_i && (err_owner_i == IdWidth'(i));
    end
  end

endmodule

`default_nettype wire
