// ak_adam: ADAM of paper 000 (Sec. 6, Fig. 12): DMA + AES engines + memory
// controller on ASBUS. An ASBUS slave for N masters (ak_asbus_slave: priority
// arbiter, command checks, eight-entry command queue), a write data path (decrypts
// state transfers when CTRL.DEC_EN, else bypass), a read data path (encrypts state
// transfers when CTRL.ENC_EN, else bypass), a byte-lane banked SRAM of MemBytes bytes
// and the MBUS register file (keys, row pitch, configuration).
//
// Dispatch: the queue head starts on its path (write or read) as soon as that path can
// take it (at the edge of the previous command's last beat, so back-to-back commands
// stream without a gap) and its bytes do not overlap the bounding range of a command
// still in flight on the other path (read-after-write and write-after-read order is
// kept; writes and reads of disjoint ranges run at the same time: full duplex). An
// erroneous head is answered (ERR) when its path has finished every earlier command
// (write: last beat taken; read: last beat returned); it moves no data. A block
// command's rows follow the PITCH it was checked against at its grant (carried in the
// queue entry: the slave's head_pitch_o, in words), so MBUS may write PITCH at any time.
//
// Timing    : command REQ in cycle t, GNT in t+1, first write beat taken in t+2 (no
//             wait states), first read beat on RDATA in t+3 (one memory cycle); cipher
//             reads 47 / 29 / 20 cycles later (DataWidth = 32 / 64 / 128).
// Byte order: ASBUS byte lane b = bits [8b+7:8b]; memory byte address a is lane
//             a mod (DataWidth/8); state transfers per paper 000 Fig. 7 (ak_asbus_addrgen).
// Parameters: DataWidth (32/64/128), N masters (1..16, 0 highest priority), MemBytes (power of
//             two, paper: 256), QueueDepth (paper: 8).
// wait_i: wait states requested by the memory side (e.g. a PHY): [1] holds write
// beats (RESP[1] low), [0] holds read beats (RESP[0] low). Tie to 0 if unused.

`default_nettype none

module ak_adam #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned N          = 2,
  parameter int unsigned MemBytes   = 256,
  parameter int unsigned QueueDepth = 8,
  localparam int unsigned NB = DataWidth / 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // ASBUS (slave side), master i in slice i
  input  logic [N-1:0]    s_asbus_req,
  output logic [N-1:0]    s_asbus_gnt,
  input  logic [N*32-1:0] s_asbus_addr,
  input  logic [N-1:0]    s_asbus_wr,
  input  logic [N*12-1:0] s_asbus_len,
  input  logic [N*NB-1:0] s_asbus_wd_vld,
  input  logic [N*DataWidth-1:0]  s_asbus_wdata,
  output logic [DataWidth-1:0]    s_asbus_rdata,
  output logic [N*2-1:0]  s_asbus_resp,
  output logic [N*2-1:0]  s_asbus_err,
  // MBUS (processor)
  input  logic            s_mbus_sel,
  input  logic            s_mbus_wr,
  input  logic [7:0]      s_mbus_addr,
  input  logic [31:0]     s_mbus_wdata,
  output logic [31:0]     s_mbus_rdata,
  // memory-side wait states
  input  logic [1:0]      wait_i
);

  localparam int unsigned AB = $clog2(MemBytes);
  localparam int unsigned AddrWidth = AB - $clog2(NB);
  localparam int unsigned IdWidth = (N > 1) ? $clog2(N) : 1;

  // configuration
  logic          dec_en, enc_en;
  logic [15:0]   pitch;
  logic [1407:0] rk;
  logic          err;

  ak_dam_mbus_regs u_regs (
    .clk_i, .rst_ni,
    .s_mbus_sel, .s_mbus_wr, .s_mbus_addr, .s_mbus_wdata, .s_mbus_rdata,
    .err_i   (err),
    .dec_en_o(dec_en),
    .enc_en_o(enc_en),
    .pitch_o (pitch),
    .rk_o    (rk)
  );

  // slave endpoint
  logic          h_valid, h_wr, h_err, h_pop;
  logic [IdWidth-1:0] h_master;
  logic [1:0]    h_mode;
  logic [AddrWidth-1:0] h_word;
  logic [10:0]   h_count;
  logic [6:0]    h_height;
  logic [4:0]    h_width;
  logic [AB-1:0] h_lo, h_hi;
  logic [AddrWidth-1:0] h_pitch;   // row pitch in words of the head's grant cycle
  logic [IdWidth-1:0] w_owner, r_owner;
  logic          w_take, r_valid;
  logic [DataWidth-1:0]  w_data, r_data;
  logic [NB-1:0] w_vld;

  ak_asbus_slave #(.DataWidth(DataWidth), .N(N), .MemBytes(MemBytes), .QueueDepth(QueueDepth)) u_slave (
    .clk_i, .rst_ni,
    .s_asbus_req, .s_asbus_gnt, .s_asbus_addr, .s_asbus_wr, .s_asbus_len,
    .s_asbus_wd_vld, .s_asbus_wdata, .s_asbus_rdata, .s_asbus_resp, .s_asbus_err,
    .pitch_i      (pitch),
    .head_valid_o (h_valid),
    .head_master_o(h_master),
    .head_wr_o    (h_wr),
    .head_err_o   (h_err),
    .head_mode_o  (h_mode),
    .head_word_o  (h_word),
    .head_count_o (h_count),
    .head_height_o(h_height),
    .head_width_o (h_width),
    .head_lo_o    (h_lo),
    .head_hi_o    (h_hi),
    .head_pitch_o (h_pitch),
    .head_pop_i   (h_pop),
    .wr_owner_i   (w_owner),
    .wr_take_i    (w_take),
    .wr_data_o    (w_data),
    .wr_vld_o     (w_vld),
    .rd_valid_i   (r_valid),
    .rd_owner_i   (r_owner),
    .rd_data_i    (r_data),
    .err_i        (err),
    .err_owner_i  (h_master),
    .err_wr_i     (h_wr)
  );

  // ------------------------------------------------------------------------------
  // dispatch
  // ------------------------------------------------------------------------------
  logic          w_idle, w_fin, w_eng_busy, r_idle, r_fin, r_eng_busy, r_empty;
  logic          w_start, r_start, h_cipher, w_can, r_can;
  // bounding byte ranges still in flight on each path
  logic          w_rng_v;
  logic [AB-1:0] w_lo_q, w_lo_d, w_hi_q, w_hi_d, r_lo_q, r_lo_d, r_hi_q, r_hi_d;
  logic          r_rng_q, r_rng_d;
  logic          w_ovl, r_ovl;

  assign h_cipher    = (h_mode == 2'b10) && (h_wr ? dec_en : enc_en);
  assign w_can       = (w_idle || w_fin) && (h_cipher || !w_eng_busy);
  assign r_can       = (r_idle || r_fin) && (h_cipher || !r_eng_busy);
  assign w_rng_v     = !w_idle || w_eng_busy;
  assign w_ovl       = w_rng_v && !(h_hi < w_lo_q || h_lo > w_hi_q);
  assign r_ovl       = r_rng_q && !r_fin && !(h_hi < r_lo_q || h_lo > r_hi_q);

  always_comb begin : dispatch
    w_start = 1'b0;
    r_start = 1'b0;
    err     = 1'b0;
    if (h_valid) begin
      if (h_err)     err     = h_wr ? w_idle : r_empty;
      else if (h_wr) w_start = w_can && !r_ovl;
      else           r_start = r_can && !w_ovl;
    end
  end

  assign h_pop = w_start || r_start || err;

  always_comb begin : ranges_next
    w_lo_d  = w_lo_q;
    w_hi_d  = w_hi_q;
    r_lo_d  = r_lo_q;
    r_hi_d  = r_hi_q;
    r_rng_d = r_rng_q && !r_fin;
    if (w_start) begin
      w_lo_d = (w_rng_v && w_lo_q < h_lo) ? w_lo_q : h_lo;
      w_hi_d = (w_rng_v && w_hi_q > h_hi) ? w_hi_q : h_hi;
    end
    if (r_start) begin
      r_rng_d = 1'b1;
      r_lo_d  = h_lo;
      r_hi_d  = h_hi;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : range_regs
    if (!rst_ni) begin
      w_lo_q  <= '0;
      w_hi_q  <= '0;
      r_lo_q  <= '0;
      r_hi_q  <= '0;
      r_rng_q <= 1'b0;
    end else begin
      w_lo_q  <= w_lo_d;
      w_hi_q  <= w_hi_d;
      r_lo_q  <= r_lo_d;
      r_hi_q  <= r_hi_d;
      r_rng_q <= r_rng_d;
    end
  end

  // ------------------------------------------------------------------------------
  // data paths and memory
  // ------------------------------------------------------------------------------
  logic [NB-1:0]    m_we;
  logic [NB*AddrWidth-1:0] m_wword, m_rword;
  logic [DataWidth-1:0]     m_wdata, m_rdata;
  logic             m_re;
  logic             r_pending;  // unused on ASBUS: RESP[0] may follow the wait state

  ak_dam_wpath #(.DataWidth(DataWidth), .MemBytes(MemBytes), .IdWidth(IdWidth)) u_wpath (
    .clk_i, .rst_ni,
    .rk_i       (rk),
    .start_i    (w_start),
    .cipher_i   (h_cipher),
    .discard_i  (1'b0),
    .master_i   (h_master),
    .mode_i     (h_mode),
    .word_i     (h_word),
    .count_i    (h_count),
    .height_i   (h_height),
    .width_i    (h_width),
    .pitch_i    (h_pitch),
    .idle_o     (w_idle),
    .finishing_o(w_fin),
    .eng_busy_o (w_eng_busy),
    .wait_i     (wait_i[1]),
    .owner_o    (w_owner),
    .take_o     (w_take),
    .data_i     (w_data),
    .vld_i      (w_vld),
    .we_o       (m_we),
    .word_o     (m_wword),
    .data_o     (m_wdata)
  );

  ak_dam_rpath #(.DataWidth(DataWidth), .MemBytes(MemBytes), .IdWidth(IdWidth)) u_rpath (
    .clk_i, .rst_ni,
    .rk_i       (rk),
    .start_i    (r_start),
    .cipher_i   (h_cipher),
    .discard_i  (1'b0),
    .master_i   (h_master),
    .mode_i     (h_mode),
    .word_i     (h_word),
    .count_i    (h_count),
    .height_i   (h_height),
    .width_i    (h_width),
    .pitch_i    (h_pitch),
    .idle_o     (r_idle),
    .finishing_o(r_fin),
    .eng_busy_o (r_eng_busy),
    .empty_o    (r_empty),
    .re_o       (m_re),
    .word_o     (m_rword),
    .data_i     (m_rdata),
    .wait_i     (wait_i[0]),
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

  logic unused;
  assign unused = r_pending;

endmodule

`default_nettype wire
