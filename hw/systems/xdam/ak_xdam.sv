// ak_xdam: XDAM of paper 000 (Sec. 6): the AXI baseline of ADAM -- the same memory
// (ak_dam_mem), MBUS registers (ak_dam_mbus_regs), data paths (ak_dam_wpath,
// ak_dam_rpath) and AES engines, behind an AXI4 slave with an eight-entry command
// queue. AXI has no block or state transfer: every burst is linear (INCR), at most
// MaxBurst beats (16, the paper's AXI3 model). With CTRL.DEC_EN a write burst is
// ciphertext in natural order: the engine buffers each state, reschedules it and
// decrypts (Fig. 8(a)); with CTRL.ENC_EN a read burst returns the encrypted memory
// contents. Cipher bursts must be whole, 16-byte aligned states.
//
// Refused (SLVERR on B or on every R beat; write beats are consumed and dropped, read
// beats are zeros; memory unchanged): AxLEN + 1 > MaxBurst, AxSIZE not the bus width,
// AxBURST not INCR, address not beat aligned, any byte at or above MemBytes, and, with
// the engine on, a burst that is not whole aligned states.
// Ordering: bursts are dispatched in arrival order (AW before AR in one cycle); a burst
// waits while it overlaps one in flight on the other path (as ADAM); R beats leave in
// dispatch order (a bypass or refused read waits for cipher states still in the engine).
// B is sent once the burst's last W beat is taken (memory is updated then for bypass
// writes; decrypted data land later, and reads of those bytes wait for them).
//
// Known departures from AXI4 (found by the fuzzer, tests/hw/systems/xdam): ARREADY is
// low in a cycle with AWVALID high (one queue push per cycle, AW first), a
// combinational path from AWVALID to ARREADY, which the AXI rule against input-to-output
// paths forbids (a register slice on AR or AW in front removes it); the W beats of a
// burst are counted from AWLEN and WLAST is not looked at; with CTRL.DEC_EN, WSTRB is
// ignored (a state is written whole).
//
// Timing    : AW/AR accepted in the cycle they are valid (queue not full); the burst's
//             W beats are taken from the cycle after its dispatch; read data one cycle
//             after the memory read; cipher data 51 / 31 / 21 cycles later (DataWidth = 32 / 64
//             / 128: the ASBUS engine latency 47 / 29 / 20 plus B = 128/DataWidth cycles of
//             buffering and rescheduling before round 1).
// Byte order: AXI byte lanes (lane b = bits [8b+7:8b] = address mod DataWidth/8 == b); a state
//             is 16 consecutive bytes, FIPS-197 order (byte 4c + r = s[r][c]).
// Parameters: DataWidth (32/64/128), MemBytes, QueueDepth, MaxBurst (1..256), IdWidth.
// wait_i: memory-side wait states: [1] holds write beats (WREADY low); [0] is unused
// (R wait states come from RREADY: RVALID, once high, must stay high). Tie to 0.

`default_nettype none

module ak_xdam #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned MemBytes   = 256,
  parameter int unsigned QueueDepth = 8,
  parameter int unsigned MaxBurst   = 16,
  parameter int unsigned IdWidth = 4,
  localparam int unsigned NB = DataWidth / 8
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  // AXI4 slave
  input  logic [IdWidth-1:0] s_axi_awid,
  input  logic [31:0]    s_axi_awaddr,
  input  logic [7:0]     s_axi_awlen,
  input  logic [2:0]     s_axi_awsize,
  input  logic [1:0]     s_axi_awburst,
  input  logic           s_axi_awvalid,
  output logic           s_axi_awready,
  input  logic [DataWidth-1:0]   s_axi_wdata,
  input  logic [NB-1:0]  s_axi_wstrb,
  input  logic           s_axi_wlast,
  input  logic           s_axi_wvalid,
  output logic           s_axi_wready,
  output logic [IdWidth-1:0] s_axi_bid,
  output logic [1:0]     s_axi_bresp,
  output logic           s_axi_bvalid,
  input  logic           s_axi_bready,
  input  logic [IdWidth-1:0] s_axi_arid,
  input  logic [31:0]    s_axi_araddr,
  input  logic [7:0]     s_axi_arlen,
  input  logic [2:0]     s_axi_arsize,
  input  logic [1:0]     s_axi_arburst,
  input  logic           s_axi_arvalid,
  output logic           s_axi_arready,
  output logic [IdWidth-1:0] s_axi_rid,
  output logic [DataWidth-1:0]   s_axi_rdata,
  output logic [1:0]     s_axi_rresp,
  output logic           s_axi_rlast,
  output logic           s_axi_rvalid,
  input  logic           s_axi_rready,
  // MBUS (processor)
  input  logic           s_mbus_sel,
  input  logic           s_mbus_wr,
  input  logic [7:0]     s_mbus_addr,
  input  logic [31:0]    s_mbus_wdata,
  output logic [31:0]    s_mbus_rdata,
  // memory-side wait states
  input  logic [1:0]     wait_i
);

  localparam int unsigned AB = $clog2(MemBytes);
  localparam int unsigned LB = $clog2(NB);
  localparam int unsigned AddrWidth = AB - LB;
  localparam int unsigned QW = $clog2(QueueDepth);
  // entry: id, wr, err, state-aligned, word, count, lo, hi
  localparam int unsigned EW = IdWidth + 1 + 1 + 1 + AddrWidth + 11 + AB + AB;

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_xdam: DataWidth=%0d not 32/64/128", DataWidth);
`else
    $fatal(1, "ak_xdam: DataWidth=%0d not 32/64/128", DataWidth);
`endif
  end
  if (MaxBurst < 1 || MaxBurst > 256) begin : g_bad_param_1
`ifdef __ICARUS__
    initial $fatal(1, "ak_xdam: MaxBurst=%0d not in 1..256", MaxBurst);
`else
    $fatal(1, "ak_xdam: MaxBurst=%0d not in 1..256", MaxBurst);
`endif
  end
  if (QueueDepth < 2 || (QueueDepth & (QueueDepth - 1)) != 0) begin : g_bad_param_2
`ifdef __ICARUS__
    initial $fatal(1, "ak_xdam: QueueDepth=%0d not a power of two >= 2", QueueDepth);
`else
    $fatal(1, "ak_xdam: QueueDepth=%0d not a power of two >= 2", QueueDepth);
`endif
  end

  // configuration
  logic          dec_en, enc_en, err_cnt;
  logic [15:0]   pitch;
  logic [1407:0] rk;

  ak_dam_mbus_regs u_regs (
    .clk_i, .rst_ni,
    .s_mbus_sel, .s_mbus_wr, .s_mbus_addr, .s_mbus_wdata, .s_mbus_rdata,
    .err_i   (err_cnt),
    .dec_en_o(dec_en),
    .enc_en_o(enc_en),
    .pitch_o (pitch),
    .rk_o    (rk)
  );

  // ------------------------------------------------------------------------------
  // address channels -> command queue
  // ------------------------------------------------------------------------------
  logic           q_full, take_aw, take_ar, c_wr, c_err, c_st;
  logic [IdWidth-1:0] c_id;
  logic [31:0]    c_addr;
  logic [7:0]     c_len;
  logic [2:0]     c_size;
  logic [1:0]     c_burst;
  logic [35:0]    c_end;
  logic [EW-1:0]  c_entry;
  logic           h_valid, h_pop;
  logic [EW-1:0]  h_entry;
  logic [QW:0]    q_count;

  assign q_full        = (q_count == (QW+1)'(QueueDepth));
  assign s_axi_awready = !q_full;
  assign s_axi_arready = !q_full && !s_axi_awvalid;
  assign take_aw       = s_axi_awvalid && !q_full;
  assign take_ar       = s_axi_arvalid && !q_full && !s_axi_awvalid;

  assign c_wr    = s_axi_awvalid;
  assign c_id    = c_wr ? s_axi_awid : s_axi_arid;
  assign c_addr  = c_wr ? s_axi_awaddr : s_axi_araddr;
  assign c_len   = c_wr ? s_axi_awlen : s_axi_arlen;
  assign c_size  = c_wr ? s_axi_awsize : s_axi_arsize;
  assign c_burst = c_wr ? s_axi_awburst : s_axi_arburst;
  assign c_end   = 36'(c_addr) + (36'(c_len) + 36'd1) * 36'(NB);
  assign c_err   = (32'(c_len) + 32'd1 > 32'(MaxBurst)) || (c_size != 3'(LB))
                   || (c_burst != 2'b01) || (c_addr[LB-1:0] != '0) || (c_end > 36'(MemBytes));
  assign c_st    = (c_addr[3:0] == 4'd0) && (c_end[3:0] == 4'd0);
  assign c_entry = {c_id, c_wr, c_err, c_st, AddrWidth'(c_addr >> LB), 11'(c_len) + 11'd1, AB'(c_addr),
                    AB'(c_end - 36'd1)};

  ak_xdam_fifo #(.DataWidth(EW), .Depth(QueueDepth)) u_queue (
    .clk_i, .rst_ni,
    .push_i (take_aw || take_ar),
    .data_i (c_entry),
    .pop_i  (h_pop),
    .valid_o(h_valid),
    .data_o (h_entry),
    .count_o(q_count)
  );

  logic [IdWidth-1:0] h_id;
  logic           h_wr, h_err0, h_st, h_cipher, h_err;
  logic [AddrWidth-1:0]  h_word;
  logic [10:0]    h_count;
  logic [AB-1:0]  h_lo, h_hi;

  assign {h_id, h_wr, h_err0, h_st, h_word, h_count, h_lo, h_hi} = h_entry;
  assign h_cipher = h_wr ? dec_en : enc_en;
  assign h_err    = h_err0 || (h_cipher && !h_st);

  // ------------------------------------------------------------------------------
  // dispatch (as ak_adam)
  // ------------------------------------------------------------------------------
  logic          w_idle, w_fin, w_eng_busy, r_idle, r_fin, r_eng_busy, r_empty;
  logic          w_start, r_start, w_can, r_can, w_rng_v, w_ovl, r_ovl;
  logic [AB-1:0] w_lo_q, w_lo_d, w_hi_q, w_hi_d, r_lo_q, r_lo_d, r_hi_q, r_hi_d;
  logic          r_rng_q, r_rng_d;
  logic [QW:0]   b_count, ri_count;

  assign w_can   = (w_idle || w_fin) && (h_cipher || !w_eng_busy)
                   && (b_count < (QW+1)'(QueueDepth - 1));
  // a refused read goes through the read path like a bypass burst (zero beats, no
  // memory read), so it too waits until the cipher states ahead of it have left the
  // engine: else its zeros overtake their ciphertext and go out under their RID
  assign r_can   = (r_idle || r_fin) && ((h_cipher && !h_err) || !r_eng_busy)
                   && (ri_count < (QW+1)'(QueueDepth - 1));
  assign w_rng_v = !w_idle || w_eng_busy;
  assign w_ovl   = w_rng_v && !(h_hi < w_lo_q || h_lo > w_hi_q);
  assign r_ovl   = r_rng_q && !r_fin && !(h_hi < r_lo_q || h_lo > r_hi_q);
  assign w_start = h_valid && h_wr && w_can && (h_err || !r_ovl);
  assign r_start = h_valid && !h_wr && r_can && (h_err || !w_ovl);
  assign h_pop   = w_start || r_start;
  assign err_cnt = h_pop && h_err;

  always_comb begin : ranges_next
    w_lo_d  = w_lo_q;
    w_hi_d  = w_hi_q;
    r_lo_d  = r_lo_q;
    r_hi_d  = r_hi_q;
    r_rng_d = r_rng_q && !r_fin;
    if (w_start && !h_err) begin
      w_lo_d = (w_rng_v && w_lo_q < h_lo) ? w_lo_q : h_lo;
      w_hi_d = (w_rng_v && w_hi_q > h_hi) ? w_hi_q : h_hi;
    end
    if (r_start && !h_err) begin
      r_rng_d = 1'b1;
      r_lo_d  = h_lo;
      r_hi_d  = h_hi;
    end
  end

  // the active write burst's id and status, for its B response
  logic [IdWidth-1:0] w_id_q, w_id_d;
  logic           w_err_q, w_err_d;

  always_comb begin : wcmd_next
    w_id_d  = w_id_q;
    w_err_d = w_err_q;
    if (w_start) begin
      w_id_d  = h_id;
      w_err_d = h_err;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      w_lo_q  <= '0;
      w_hi_q  <= '0;
      r_lo_q  <= '0;
      r_hi_q  <= '0;
      r_rng_q <= 1'b0;
      w_id_q  <= '0;
      w_err_q <= 1'b0;
    end else begin
      w_lo_q  <= w_lo_d;
      w_hi_q  <= w_hi_d;
      r_lo_q  <= r_lo_d;
      r_hi_q  <= r_hi_d;
      r_rng_q <= r_rng_d;
      w_id_q  <= w_id_d;
      w_err_q <= w_err_d;
    end
  end

  // ------------------------------------------------------------------------------
  // data paths, memory
  // ------------------------------------------------------------------------------
  logic [NB-1:0]    m_we;
  logic [NB*AddrWidth-1:0] m_wword, m_rword;
  logic [DataWidth-1:0]     m_wdata, m_rdata, r_data;
  logic             m_re, w_take, r_valid, r_pending;
  logic             w_owner, r_owner;

  ak_dam_wpath #(.DataWidth(DataWidth), .MemBytes(MemBytes), .IdWidth(1), .PreScheduled(0)) u_wpath (
    .clk_i, .rst_ni,
    .rk_i       (rk),
    .start_i    (w_start),
    .cipher_i   (h_cipher),
    .discard_i  (h_err),
    .master_i   (1'b0),
    .mode_i     (2'b00),
    .word_i     (h_word),
    .count_i    (h_count),
    .height_i   (7'd1),
    .width_i    (5'd1),
    .pitch_i    ('0),
    .idle_o     (w_idle),
    .finishing_o(w_fin),
    .eng_busy_o (w_eng_busy),
    .wait_i     (!s_axi_wvalid || wait_i[1]),
    .owner_o    (w_owner),
    .take_o     (w_take),
    .data_i     (s_axi_wdata),
    .vld_i      (s_axi_wstrb),
    .we_o       (m_we),
    .word_o     (m_wword),
    .data_o     (m_wdata)
  );

  assign s_axi_wready = !w_idle && !wait_i[1];

  ak_dam_rpath #(.DataWidth(DataWidth), .MemBytes(MemBytes), .IdWidth(1), .PreScheduled(0)) u_rpath (
    .clk_i, .rst_ni,
    .rk_i       (rk),
    .start_i    (r_start),
    .cipher_i   (h_cipher),
    .discard_i  (h_err),
    .master_i   (1'b0),
    .mode_i     (2'b00),
    .word_i     (h_word),
    .count_i    (h_count),
    .height_i   (7'd1),
    .width_i    (5'd1),
    .pitch_i    ('0),
    .idle_o     (r_idle),
    .finishing_o(r_fin),
    .eng_busy_o (r_eng_busy),
    .empty_o    (r_empty),
    .re_o       (m_re),
    .word_o     (m_rword),
    .data_i     (m_rdata),
    .wait_i     (!s_axi_rready),
    .valid_o    (r_valid),
    .pending_o  (r_pending),
    .owner_o    (r_owner),
    .data_o     (r_data)
  );

  ak_dam_mem #(.DataWidth(DataWidth), .MemBytes(MemBytes)) u_mem (
    .clk_i, .rst_ni,
    .we_i     (m_we),
    .wr_word_i(m_wword),
    .wr_data_i(m_wdata),
    .re_i     (m_re),
    .rd_word_i(m_rword),
    .rd_data_o(m_rdata)
  );

  // ------------------------------------------------------------------------------
  // B and R channels
  // ------------------------------------------------------------------------------
  logic [IdWidth:0] b_head;

  ak_xdam_fifo #(.DataWidth(IdWidth + 1), .Depth(QueueDepth)) u_bq (
    .clk_i, .rst_ni,
    .push_i (w_fin),
    .data_i ({w_id_q, w_err_q}),
    .pop_i  (s_axi_bvalid && s_axi_bready),
    .valid_o(s_axi_bvalid),
    .data_o (b_head),
    .count_o(b_count)
  );

  assign s_axi_bid   = b_head[IdWidth:1];
  assign s_axi_bresp = b_head[0] ? 2'b10 : 2'b00;

  // read bursts in dispatch order: id, beats, error
  logic [IdWidth+11:0] ri_head;
  logic            ri_valid, r_beat, r_last;
  logic [10:0]     r_cnt_q, r_cnt_d;

  ak_xdam_fifo #(.DataWidth(IdWidth + 12), .Depth(QueueDepth)) u_rq (
    .clk_i, .rst_ni,
    .push_i (r_start),
    .data_i ({h_id, h_count, h_err}),
    .pop_i  (r_beat && r_last),
    .valid_o(ri_valid),
    .data_o (ri_head),
    .count_o(ri_count)
  );

  assign r_beat = r_pending && s_axi_rready;
  assign r_last = (r_cnt_q == ri_head[11:1] - 11'd1);

  always_comb begin : rcount_next
    r_cnt_d = r_cnt_q;
    if (r_beat) r_cnt_d = r_last ? 11'd0 : r_cnt_q + 11'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : rcount_reg
    if (!rst_ni) r_cnt_q <= '0;
    else         r_cnt_q <= r_cnt_d;
  end

  assign s_axi_rvalid = r_pending;
  assign s_axi_rdata  = r_data;
  assign s_axi_rid    = ri_head[IdWidth+11:12];
  assign s_axi_rresp  = ri_head[0] ? 2'b10 : 2'b00;
  assign s_axi_rlast  = r_last;

  logic unused;
  assign unused = ^pitch ^ s_axi_wlast ^ w_take ^ w_owner ^ r_owner ^ r_valid ^ ri_valid
                  ^ r_empty ^ take_ar ^ wait_i[0];

endmodule

`default_nettype wire
