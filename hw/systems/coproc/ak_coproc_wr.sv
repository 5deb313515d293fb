// ak_coproc_wr: the write half of ak_coproc's DMA. Takes 128-bit beats, each with its
// count of valid bytes (1..16, at the high end), and writes exactly len_i bytes as one
// contiguous byte range from addr_i (any alignment) through an AXI4 write master; byte
// strobes make sure no byte outside [addr_i, addr_i + len_i) is written.
//
// Bus. 32-bit data (DataWidth = 32). Words go through a 16-word FIFO; an INCR burst
// (4-byte beats) ends at the next 64-byte boundary or at the range's end, so it is at
// most 16 beats and never crosses 4 KiB. AW is issued only when every word of its burst
// is in the FIFO, and W follows AW, so the master never waits on the slave for data it
// promised. All back-pressure (AWREADY, WREADY, and the beat input) is honoured; BREADY
// is always high. Every BRESP is checked: SLVERR/DECERR sets err_o (sticky until the
// next start); the range is still written to its end.
//
// Latency: a word enters the FIFO the cycle after its last byte is in the unpacker;
// AW the cycle after its burst is complete in the FIFO; W beats back to back after it.
// Byte order: byte 0 of a beat ([127:120]) goes to the lowest address; byte a of a bus
// word is wdata[8a+7:8a].
//
// Parameters: DataWidth (must be 32), IdWidth (AWID width; ID 0 is used), MaxWrites
// (bursts awaiting B, >= 1).

`default_nettype none

module ak_coproc_wr #(
  parameter int DataWidth = 32,
  parameter int IdWidth   = 4,
  parameter int MaxWrites = 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // control
  input  logic                   start_i,    // pulse: write len_i bytes from addr_i
  input  logic [31:0]            addr_i,     // held while busy
  input  logic [31:0]            len_i,      // addr_i + len_i <= 2^32
  input  logic                   wipe_i,     // pulse (while idle): zero unpacker and FIFO
  output logic                   busy_o,
  output logic                   err_o,      // a B response had SLVERR/DECERR since start
  // beats from the mode engine
  input  logic                   beat_valid_i,
  output logic                   beat_ready_o,
  input  logic [127:0]           beat_data_i,
  input  logic [4:0]             beat_bytes_i,  // valid bytes 1..16 (byte 0 first)
  // AXI4 write channels
  output logic [IdWidth-1:0]     m_axi_awid,
  output logic [31:0]            m_axi_awaddr,
  output logic [7:0]             m_axi_awlen,
  output logic [2:0]             m_axi_awsize,
  output logic [1:0]             m_axi_awburst,
  output logic                   m_axi_awvalid,
  input  logic                   m_axi_awready,
  output logic [DataWidth-1:0]   m_axi_wdata,
  output logic [DataWidth/8-1:0] m_axi_wstrb,
  output logic                   m_axi_wlast,
  output logic                   m_axi_wvalid,
  input  logic                   m_axi_wready,
  input  logic [IdWidth-1:0]     m_axi_bid,
  input  logic [1:0]             m_axi_bresp,
  input  logic                   m_axi_bvalid,
  output logic                   m_axi_bready
);

  if (DataWidth != 32) begin : g_bad_width
    $fatal(1, "ak_coproc_wr: only DataWidth = 32 is implemented, got %0d", DataWidth);
  end
  if (MaxWrites < 1) begin : g_bad_writes
    $fatal(1, "ak_coproc_wr: MaxWrites must be >= 1, got %0d", MaxWrites);
  end

  localparam int OutW = $clog2(MaxWrites + 1);

  // ------------------------------------------------------------------------------
  // Unpacker: beats -> words with strobes
  // ------------------------------------------------------------------------------
  logic [19:0][7:0] acc_q, acc_d;   // byte k at acc[k]; acc[0] goes to address pos
  logic [4:0]       cnt_q, cnt_d;   // bytes in acc
  logic [1:0]       off_q, off_d;   // address of acc[0], modulo 4
  logic [32:0]      left_q, left_d; // bytes of the range not yet pushed as words
  // kept beside left_q, so the next word's size starts at flip-flops, not at a 33-bit
  // compare: left_q < 8 and left_q == 0
  logic             lsm_q, lz_q;
  logic [2:0]       wn;             // bytes of the next word
  logic             word_ok;        // the next word is complete in acc
  logic             push;           // ... and goes into the FIFO
  logic             fifo_full;
  logic [31:0]      word_data;
  logic [3:0]       word_strb;

  always_comb begin : next_word
    logic [1:0]  off;
    off  = off_q;
    wn   = (lsm_q && (left_q[2:0] < 3'd4 - {1'b0, off})) ? left_q[2:0] : (3'd4 - {1'b0, off});
    word_ok = (wn != '0) && ({2'b00, wn} <= cnt_q);
    word_data = '0;
    word_strb = '0;
    for (int i = 0; i < 4; i++) begin
      if (3'(i) < wn) begin
        word_data[8 * (int'(off) + i) +: 8] = acc_q[i];
        word_strb[int'(off) + i]            = 1'b1;
      end
    end
  end

  assign push         = word_ok && !fifo_full;
  assign beat_ready_o = (cnt_q < 5'd4) && !word_ok;

  // insertion of a beat at acc[cnt_q[1:0]]: the byte each acc position would take,
  // and which positions take one (cnt_q <= k < cnt_q + beat_bytes_i)
  logic [19:0][7:0] ins_byte;
  logic [19:0]      ins_mask;
  always_comb begin : insert
    logic [5:0] hi;
    hi = {4'b0000, cnt_q[1:0]} + {1'b0, beat_bytes_i};
    for (int k = 0; k < 20; k++) begin
      ins_byte[k] = 8'h00;
      for (int s = 0; s < 4; s++) begin
        if (cnt_q[1:0] == 2'(s) && k - s >= 0 && k - s < 16) begin
          ins_byte[k] = beat_data_i[127 - 8*(k - s) -: 8];
        end
      end
      ins_mask[k] = (5'(k) >= {3'b000, cnt_q[1:0]}) && (6'(k) < hi);
    end
  end

  always_comb begin : unpack
    acc_d = acc_q;
    cnt_d = cnt_q;
    off_d  = off_q;
    left_d = left_q;
    if (push) begin
      for (int k = 0; k < 20; k++) begin
        acc_d[k] = (k + int'(wn) < 20) ? acc_q[(k + int'(wn)) % 20] : 8'h00;
      end
      cnt_d = cnt_q - 5'(wn);
      off_d  = off_q + wn[1:0];
      left_d = left_q - 33'(wn);
    end
    if (beat_valid_i && beat_ready_o) begin
      // a beat is taken only while cnt_q < 4: byte i goes to acc[cnt_q[1:0] + i], so
      // acc[k] chooses among four beat bytes by cnt_q[1:0] (a 4:1 multiplexer per
      // bit, not a 16:1); the bytes past the beat's count stay as they were
      for (int k = 0; k < 20; k++) begin
        if (ins_mask[k]) begin
          acc_d[k] = ins_byte[k];
        end
      end
      cnt_d = cnt_q + beat_bytes_i;
    end
    if (start_i) begin
      off_d  = addr_i[1:0];
      left_d = {1'b0, len_i};
    end
    if (wipe_i) begin
      acc_d = '0;
      cnt_d = '0;
      off_d  = '0;
      left_d = '0;
    end
  end

  // ------------------------------------------------------------------------------
  // Word FIFO (16 words, ak_fifo in distributed RAM)
  // ------------------------------------------------------------------------------
  // A sent word stays in its entry until it is overwritten (it is data already written
  // to the destination). A wipe empties the FIFO, then writes a zero word into each of
  // the 16 entries (16 cycles, busy_o high) and empties it again: the RAM holds no word
  // of the last job afterwards.
  logic        pop;
  logic [35:0] fifo_head;
  logic [4:0]  fcnt;
  logic [4:0]  wz_q;     // wipe walk: 17 .. 2 write zeros, 1 empties, 0 idle
  logic        wz_push, fifo_clr;
  logic        fifo_valid, unused_valid;  // count_o != 0 is used instead

  assign unused_valid = fifo_valid;
  assign wz_push  = (wz_q > 5'd1);
  assign fifo_clr = wipe_i || (wz_q == 5'd1);

  ak_fifo #(.Width(36), .Depth(16), .GateEmpty(1'b1)) u_fifo (
    .clk_i,
    .rst_ni,
    .clr_i   (fifo_clr),
    .push_i  (push || wz_push),
    .data_i  (wz_push ? 36'd0 : {word_strb, word_data}),
    .pop_i   (pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (fifo_valid),
    .full_o  (fifo_full),
    .data_o  (fifo_head),
    .count_o (fcnt)
  );

  // ------------------------------------------------------------------------------
  // AW, W, B
  // ------------------------------------------------------------------------------
  logic            aw_act_q, aw_act_d;  // bursts left to issue
  logic [29:0]     aw_wa_q, aw_wa_d;    // next burst's word address
  logic [30:0]     aw_nw_q, aw_nw_d;    // words left to cover
  logic [4:0]      uncov_q, uncov_d;    // words in the FIFO not covered by an AW yet
  logic [4:0]      wcov_q, wcov_d;      // words covered by an AW, not sent on W yet
  logic [29:0]     w_wa_q, w_wa_d;      // word address of the next W beat
  logic [29:0]     last_wa_q, last_wa_d;
  logic [OutW-1:0] bouts_q, bouts_d;    // bursts awaiting B
  logic            err_q, err_d;
  logic [4:0]      blen;
  logic            aw_hs, w_hs, b_hs;

  always_comb begin : aw_burst
    logic [4:0] to_bound;
    to_bound = 5'd16 - {1'b0, aw_wa_q[3:0]};
    blen     = (aw_nw_q < 31'(to_bound)) ? aw_nw_q[4:0] : to_bound;
  end

  assign m_axi_awid    = '0;
  assign m_axi_awaddr  = {aw_wa_q, 2'b00};
  assign m_axi_awlen   = {3'b000, blen - 5'd1};
  assign m_axi_awsize  = 3'd2;
  assign m_axi_awburst = 2'b01;
  assign m_axi_awvalid = aw_act_q && (uncov_q >= blen) && (int'(bouts_q) < MaxWrites);
  assign m_axi_wvalid  = (wcov_q != '0);
  assign m_axi_wdata   = fifo_head[31:0];
  assign m_axi_wstrb   = fifo_head[35:32];
  assign m_axi_wlast   = (w_wa_q[3:0] == 4'hf) || (w_wa_q == last_wa_q);
  assign m_axi_bready  = 1'b1;
  assign aw_hs         = m_axi_awvalid && m_axi_awready;
  assign w_hs          = m_axi_wvalid && m_axi_wready;
  assign b_hs          = m_axi_bvalid && m_axi_bready;
  assign pop           = w_hs;

  always_comb begin : bus_next
    logic [29:0] last_wa;  // word of the last byte of a non-empty range
    aw_act_d  = aw_act_q;
    aw_wa_d   = aw_wa_q;
    aw_nw_d   = aw_nw_q;
    uncov_d   = uncov_q + 5'(push) - (aw_hs ? blen : 5'd0);
    wcov_d    = wcov_q + (aw_hs ? blen : 5'd0) - 5'(w_hs);
    w_wa_d    = w_hs ? w_wa_q + 30'd1 : w_wa_q;
    last_wa_d = last_wa_q;
    bouts_d   = bouts_q + OutW'(aw_hs) - OutW'(b_hs);
    err_d     = err_q || (b_hs && m_axi_bresp[1]);
    last_wa   = 30'((addr_i + len_i - 32'd1) >> 2);
    if (aw_hs) begin
      aw_wa_d = aw_wa_q + 30'(blen);
      aw_nw_d = aw_nw_q - 31'(blen);
      if (aw_nw_q == 31'(blen)) begin
        aw_act_d = 1'b0;
      end
    end
    if (start_i) begin
      aw_act_d  = (len_i != '0);
      aw_wa_d   = addr_i[31:2];
      aw_nw_d   = {1'b0, last_wa} - {1'b0, addr_i[31:2]} + 31'd1;
      w_wa_d    = addr_i[31:2];
      last_wa_d = last_wa;
      err_d     = 1'b0;
    end
  end

  assign err_o  = err_q;
  assign busy_o = aw_act_q || cnt_q != '0 || fcnt != '0 || bouts_q != '0 || wz_q != '0
                  || !lz_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      acc_q     <= '0;
      cnt_q     <= '0;
      off_q     <= '0;
      left_q    <= '0;
      lsm_q     <= 1'b1;
      lz_q      <= 1'b1;
      wz_q      <= '0;
      aw_act_q  <= 1'b0;
      aw_wa_q   <= '0;
      aw_nw_q   <= '0;
      uncov_q   <= '0;
      wcov_q    <= '0;
      w_wa_q    <= '0;
      last_wa_q <= '0;
      bouts_q   <= '0;
      err_q     <= 1'b0;
    end else begin
      acc_q     <= acc_d;
      cnt_q     <= cnt_d;
      off_q     <= off_d;
      left_q    <= left_d;
      lsm_q     <= (left_d[32:3] == '0);
      lz_q      <= (left_d == '0);
      wz_q      <= wipe_i ? 5'd17 : (wz_q != '0 ? wz_q - 5'd1 : '0);
      aw_act_q  <= aw_act_d;
      aw_wa_q   <= aw_wa_d;
      aw_nw_q   <= aw_nw_d;
      uncov_q   <= uncov_d;
      wcov_q    <= wcov_d;
      w_wa_q    <= w_wa_d;
      last_wa_q <= last_wa_d;
      bouts_q   <= bouts_d;
      err_q     <= err_d;
    end
  end

  // BID is not checked: every burst uses ID 0 (responses in order); BRESP[0] only
  // tells OKAY from EXOKAY
  logic unused_bid;
  assign unused_bid = ^{m_axi_bid, m_axi_bresp[0]};

endmodule
`default_nettype wire
