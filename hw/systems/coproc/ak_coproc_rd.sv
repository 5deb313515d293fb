// ak_coproc_rd: the read half of ak_coproc's DMA. An AXI4 read master that reads up to
// three byte ranges ("segments", e.g. CCM's AAD, the payload, the received tag) one
// after the other and packs their bytes into 128-bit beats for the mode engine: every
// segment starts a fresh beat, and its last beat is short when its length is not a
// multiple of 16 (bytes at the high end, the rest zero), as the engine's framing wants.
//
// Bus. 32-bit data (DataWidth = 32). INCR bursts of 4-byte beats covering the words of a
// segment; a burst ends at the next 64-byte boundary (16 beats) or at the segment's end,
// so it is at most 16 beats and never crosses a 4 KiB boundary. Up to MaxReads bursts
// outstanding (AR issued ahead of the data); R is taken when the packer has room (rready
// is the back-pressure). Every RRESP is checked: SLVERR/DECERR sets err_o (sticky until
// the next start); the job still runs to its end (the data of such a beat is used as
// read), the top reports the error.
//
// Latency: AR one cycle after start (a cycle per empty segment skipped); a beat is
// offered the cycle after its 16th byte (or the segment's last byte) arrived on R; at
// most 4 bytes per cycle enter the packer, and R stalls while a full beat waits.
// Byte order: the byte at the lowest address is byte 0 of a beat, in [127:120]; on the
// bus byte a of a word is in rdata[8a+7:8a] (little-endian lanes).
//
// Parameters: DataWidth (must be 32), IdWidth (ARID width; ID 0 is used), MaxReads
// (outstanding bursts, >= 2).

`default_nettype none

module ak_coproc_rd #(
  parameter int DataWidth = 32,
  parameter int IdWidth   = 4,
  parameter int MaxReads  = 4
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // control
  input  logic                 start_i,     // pulse: read the segments below
  input  logic [2:0][31:0]     seg_addr_i,  // byte address of segment s (held while busy)
  input  logic [2:0][31:0]     seg_len_i,   // bytes of segment s (0: skipped); addr+len <= 2^32
  input  logic                 wipe_i,      // pulse (while idle): zero the packer
  output logic                 busy_o,
  output logic                 err_o,       // an R beat had SLVERR/DECERR since start
  // beats to the mode engine
  output logic                 beat_valid_o,
  input  logic                 beat_ready_i,
  output logic [127:0]         beat_data_o,
  // AXI4 read channels
  output logic [IdWidth-1:0]   m_axi_arid,
  output logic [31:0]          m_axi_araddr,
  output logic [7:0]           m_axi_arlen,
  output logic [2:0]           m_axi_arsize,
  output logic [1:0]           m_axi_arburst,
  output logic                 m_axi_arvalid,
  input  logic                 m_axi_arready,
  input  logic [IdWidth-1:0]   m_axi_rid,
  input  logic [DataWidth-1:0] m_axi_rdata,
  input  logic [1:0]           m_axi_rresp,
  input  logic                 m_axi_rlast,
  input  logic                 m_axi_rvalid,
  output logic                 m_axi_rready
);

  if (DataWidth != 32) begin : g_bad_width
    $fatal(1, "ak_coproc_rd: only DataWidth = 32 is implemented, got %0d", DataWidth);
  end
  if (MaxReads < 2) begin : g_bad_reads
    $fatal(1, "ak_coproc_rd: MaxReads must be >= 2, got %0d", MaxReads);
  end

  localparam int OutW = $clog2(MaxReads + 1);

  // ------------------------------------------------------------------------------
  // AR side: segment by segment, bursts to the next 64-byte boundary
  // ------------------------------------------------------------------------------
  logic [1:0]      ar_seg_q, ar_seg_d;     // segment being issued (3: done)
  logic            ar_act_q, ar_act_d;     // ar_wa/ar_nw hold a segment's words
  logic [29:0]     ar_wa_q, ar_wa_d;       // next word address
  logic [30:0]     ar_nw_q, ar_nw_d;       // words left
  logic [OutW-1:0] outs_q, outs_d;         // bursts issued, last beat not yet taken
  logic [4:0]      blen;                   // beats of the next burst
  logic            r_last_hs;

  always_comb begin : ar_burst
    logic [4:0] to_bound;
    to_bound = 5'd16 - {1'b0, ar_wa_q[3:0]};
    blen     = (ar_nw_q < 31'(to_bound)) ? ar_nw_q[4:0] : to_bound;
  end

  assign m_axi_arid    = '0;
  assign m_axi_araddr  = {ar_wa_q, 2'b00};
  assign m_axi_arlen   = {3'b000, blen - 5'd1};
  assign m_axi_arsize  = 3'd2;
  assign m_axi_arburst = 2'b01;
  assign m_axi_arvalid = ar_act_q && (int'(outs_q) < MaxReads);

  always_comb begin : ar_next
    logic [29:0] last_wa;  // word of the last byte of a non-empty range
    ar_seg_d  = ar_seg_q;
    ar_act_d  = ar_act_q;
    ar_wa_d   = ar_wa_q;
    ar_nw_d   = ar_nw_q;
    last_wa   = 30'((seg_addr_i[ar_seg_q] + seg_len_i[ar_seg_q] - 32'd1) >> 2);
    if (start_i) begin
      ar_seg_d = 2'd0;
      ar_act_d = 1'b0;
    end else if (!ar_act_q && ar_seg_q != 2'd3) begin
      // load the segment's word range, or skip it when empty
      if (seg_len_i[ar_seg_q] == '0) begin
        ar_seg_d = ar_seg_q + 2'd1;
      end else begin
        ar_act_d = 1'b1;
        ar_wa_d  = seg_addr_i[ar_seg_q][31:2];
        ar_nw_d  = {1'b0, last_wa} - {1'b0, seg_addr_i[ar_seg_q][31:2]} + 31'd1;
      end
    end else if (m_axi_arvalid && m_axi_arready) begin
      ar_wa_d = ar_wa_q + 30'(blen);
      ar_nw_d = ar_nw_q - 31'(blen);
      if (ar_nw_q == 31'(blen)) begin
        ar_act_d = 1'b0;
        ar_seg_d = ar_seg_q + 2'd1;
      end
    end
  end

  assign r_last_hs = m_axi_rvalid && m_axi_rready && m_axi_rlast;

  always_comb begin : outstanding
    outs_d = outs_q;
    if (m_axi_arvalid && m_axi_arready && !r_last_hs) begin
      outs_d = outs_q + 1'b1;
    end else if (r_last_hs && !(m_axi_arvalid && m_axi_arready)) begin
      outs_d = outs_q - 1'b1;
    end
  end

  // ------------------------------------------------------------------------------
  // R side: the bytes of each segment into the packer
  // ------------------------------------------------------------------------------
  logic [1:0]       r_seg_q, r_seg_d;     // segment whose data arrives (3: done)
  logic             r_act_q, r_act_d;
  logic [1:0]       r_off_q, r_off_d;     // byte address of the next byte wanted, mod 4
  logic [32:0]      r_left_q, r_left_d;   // bytes of the segment still wanted
  logic             r_lsm_q;              // r_left_q < 8 (so no 33-bit compare is needed)
  logic [19:0][7:0] acc_q, acc_d;         // packer: byte k at acc[k]
  logic [4:0]       cnt_q, cnt_d;         // bytes in acc (<= 19)
  logic             flush_q, flush_d;     // emit the short last beat of a segment
  logic             err_q, err_d;
  logic             full;

  assign full          = (cnt_q >= 5'd16);
  assign m_axi_rready  = r_act_q && !full && !flush_q;
  assign beat_valid_o  = full || (flush_q && cnt_q != '0);
  always_comb begin : beat_out
    for (int k = 0; k < 16; k++) begin
      beat_data_o[127 - 8*k -: 8] = acc_q[k];
    end
  end

  always_comb begin : r_next
    logic [1:0]  off;
    logic [2:0]  n;
    logic [4:0]  c;
    logic [5:0]  hi;
    logic [3:0][7:0] rot;
    logic [1:0]  lane;
    hi      = '0;
    lane    = '0;
    rot     = '0;
    r_seg_d = r_seg_q;
    r_act_d = r_act_q;
    r_off_d  = r_off_q;
    r_left_d = r_left_q;
    acc_d   = acc_q;
    cnt_d   = cnt_q;
    flush_d = flush_q;
    err_d   = err_q;
    off     = r_off_q;
    n       = (r_lsm_q && (r_left_q[2:0] < 3'd4 - {1'b0, off})) ? r_left_q[2:0] :
                                                                 (3'd4 - {1'b0, off});
    c       = cnt_q;
    // 1. a beat leaves: shift the packer by 16 (a short flush beat empties it)
    if (beat_valid_o && beat_ready_i) begin
      if (full) begin
        for (int k = 0; k < 20; k++) begin
          acc_d[k] = (k + 16 < 20) ? acc_q[(k + 16) % 20] : 8'h00;
        end
        c = cnt_q - 5'd16;
      end else begin
        acc_d   = '0;
        c       = '0;
        flush_d = 1'b0;
      end
    end else if (flush_q && cnt_q == '0) begin
      flush_d = 1'b0;
    end
    // 2. an R beat arrives: append its bytes of the segment
    if (m_axi_rvalid && m_axi_rready) begin
      // byte i of the segment's part of this word (bus lane off + i) goes to acc[c + i]:
      // acc[k] takes lane (off + k - c) mod 4, so the word is rotated once by
      // off - c[1:0] and acc[k] takes rotated byte k mod 4 where c <= k < c + n
      // (one 4:1 multiplexer per word bit and a 2:1 per acc bit)
      for (int j = 0; j < 4; j++) begin
        lane   = off - c[1:0] + 2'(j);
        rot[j] = m_axi_rdata[{lane, 3'b000} +: 8];
      end
      hi = {1'b0, c} + {3'b000, n};
      for (int k = 0; k < 20; k++) begin
        if (6'(k) >= {1'b0, c} && 6'(k) < hi) begin
          acc_d[k] = rot[k % 4];
        end
      end
      c = c + 5'(n);
      r_off_d  = r_off_q + n[1:0];
      r_left_d = r_left_q - 33'(n);
      if (m_axi_rresp[1]) begin
        err_d = 1'b1;
      end
      if (r_lsm_q && (r_left_q[2:0] == n)) begin  // the segment's last bytes
        r_act_d = 1'b0;
        r_seg_d = r_seg_q + 2'd1;
        flush_d = 1'b1;
      end
    end else if (!r_act_q && r_seg_q != 2'd3 && !start_i) begin
      if (seg_len_i[r_seg_q] == '0) begin
        r_seg_d = r_seg_q + 2'd1;
      end else begin
        r_act_d = 1'b1;
        r_off_d  = seg_addr_i[r_seg_q][1:0];
        r_left_d = {1'b0, seg_len_i[r_seg_q]};
      end
    end
    cnt_d = c;
    if (start_i) begin
      r_seg_d = 2'd0;
      r_act_d = 1'b0;
      err_d   = 1'b0;
    end
    if (wipe_i) begin
      acc_d   = '0;
      cnt_d   = '0;
      flush_d = 1'b0;
      r_off_d  = '0;
      r_left_d = '0;
    end
  end

  assign err_o  = err_q;
  assign busy_o = ar_seg_q != 2'd3 || r_seg_q != 2'd3 || outs_q != '0 || cnt_q != '0
                  || flush_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      ar_seg_q <= 2'd3;
      ar_act_q <= 1'b0;
      ar_wa_q  <= '0;
      ar_nw_q  <= '0;
      outs_q   <= '0;
      r_seg_q  <= 2'd3;
      r_act_q  <= 1'b0;
      r_off_q  <= '0;
      r_left_q <= '0;
      r_lsm_q  <= 1'b1;
      acc_q    <= '0;
      cnt_q    <= '0;
      flush_q  <= 1'b0;
      err_q    <= 1'b0;
    end else begin
      ar_seg_q <= ar_seg_d;
      ar_act_q <= ar_act_d;
      ar_wa_q  <= ar_wa_d;
      ar_nw_q  <= ar_nw_d;
      outs_q   <= outs_d;
      r_seg_q  <= r_seg_d;
      r_act_q  <= r_act_d;
      r_off_q  <= r_off_d;
      r_left_q <= r_left_d;
      r_lsm_q  <= (r_left_d[32:3] == '0);
      acc_q    <= acc_d;
      cnt_q    <= cnt_d;
      flush_q  <= flush_d;
      err_q    <= err_d;
    end
  end

  // RID is not checked: every burst uses ID 0, so the data returns in order;
  // RRESP[0] only tells OKAY from EXOKAY
  logic unused_rid;
  assign unused_rid = ^{m_axi_rid, m_axi_rresp[0]};

endmodule
`default_nettype wire
