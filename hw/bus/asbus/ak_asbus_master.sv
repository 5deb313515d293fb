// ak_asbus_master: ASBUS master endpoint (paper 000's bus, docs/asbus.md). It turns
// four valid/ready streams on the user side -- commands, write beats, read beats,
// responses -- into one master's slice of the ASBUS signals (m_asbus_*), for a slave
// such as ak_asbus_slave / ak_adam. Full documentation: docs/asbus_master.md.
//
// Command: cmd_addr_i / cmd_wr_i / cmd_len_i (raw ASBUS ADDR, WR, LEN[11:0]; LEN[11:10]
//   00 linear LEN[9:0] beats, 01 block LEN[9:6] x LEN[5:0] beats, 10 LEN[9:0] AES states
//   of 128/DataWidth beats, 11 reserved = 0 beats; a field value of 0 is the maximum 1024 / 16
//   / 64 / 1024). An accepted command is on REQ/ADDR/WR/LEN, held until GNT. It is
//   accepted (cmd_ready_o) only when
//   * fewer than Outstanding commands of its direction are accepted and not yet
//     answered on the response stream;
//   * write: all of its beats are in the write buffer, beyond the beats of earlier
//     writes still to be sent (ASBUS has no master wait state on WDATA, so a write goes
//     out only once it cannot starve: store and forward);
//   * read: the read buffer has room for all of its beats plus the beats of every read
//     already accepted and not yet received (credits: RDATA cannot be held off);
//   * the command register is free (empty, or its command granted in this cycle).
//   A command longer than the buffer of its direction (WrDepth / RdDepth beats) could
//   never go out: it is refused locally, without a bus cycle, as soon as no earlier
//   command of its direction is still on the bus; its response (error) follows in the
//   next cycle, and a refused write's beats are consumed from the write stream and
//   dropped.
// Write beats: wr_data_i / wr_strb_i (WD_VLD) go through the write buffer; the head
//   beat is on WDATA/WD_VLD and held until RESP[1] takes it. On ERR[1] (write refused by
//   the slave) all of that command's beats are dropped from the buffer in that cycle.
// Read beats: RDATA is stored when RESP[0] is high; rd_last_o marks a command's last
//   beat. A read refused by the slave (ERR[0]) delivers no beat.
// Responses: one per command (rsp_wr_o direction, rsp_err_o refused by the slave or
//   locally). Per direction in command order (the slave answers each direction in
//   order); when a write and a read response are both waiting, the write's goes first.
//   A write's response follows its last RESP[1] or its ERR[1], a read's its last RESP[0]
//   or its ERR[0].
//
// Timing (cycle t = the cycle after rising edge t):
//   * command to REQ: 0 cycles -- REQ, ADDR, WR, LEN pass through combinationally in
//     the cycle cmd_valid_i and cmd_ready_o are high with the command register empty;
//     the command register holds them from the next cycle until GNT. With REQ in t and
//     GNT in t+1 the next command is on REQ in t+2 (the slave's back-to-back rate);
//   * write: a beat taken from wr_valid_i at edge e is on WDATA from cycle e (empty
//     buffer); the write command can go out in the cycle after its last beat's edge;
//     one beat per cycle while RESP[1] is high;
//   * read: a beat with RESP[0] in cycle c is on rd_data_o (rd_valid_o) from cycle c+1;
//     one beat per cycle;
//   * response: rsp_valid_o in the cycle after the last beat / ERR (or after a local
//     refusal's acceptance).
// Byte order: unchanged: wr_data_i / rd_data_o byte b (bits 8b+7:8b) is ASBUS byte lane
//   b, wr_strb_i[b] is WD_VLD[b].
// Reset     : rst_ni asynchronous, active low; every register.
// Parameters: DataWidth (32/64/128), Outstanding (1..16 commands per direction), RdDepth and
//   WrDepth (read / write buffer beats, powers of two, 2..4096).

`default_nettype none

module ak_asbus_master #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned Outstanding = 4,
  parameter int unsigned RdDepth     = 64,
  parameter int unsigned WrDepth     = 64,
  localparam int unsigned NB = DataWidth / 8
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // user side: commands
  input  logic          cmd_valid_i,
  output logic          cmd_ready_o,
  input  logic [31:0]   cmd_addr_i,
  input  logic          cmd_wr_i,
  input  logic [11:0]   cmd_len_i,
  // user side: write beats
  input  logic          wr_valid_i,
  output logic          wr_ready_o,
  input  logic [DataWidth-1:0]  wr_data_i,
  input  logic [NB-1:0] wr_strb_i,
  // user side: read beats
  output logic          rd_valid_o,
  input  logic          rd_ready_i,
  output logic [DataWidth-1:0]  rd_data_o,
  output logic          rd_last_o,
  // user side: responses
  output logic          rsp_valid_o,
  input  logic          rsp_ready_i,
  output logic          rsp_wr_o,
  output logic          rsp_err_o,
  // ASBUS, one master's slice
  output logic          m_asbus_req,
  input  logic          m_asbus_gnt,
  output logic [31:0]   m_asbus_addr,
  output logic          m_asbus_wr,
  output logic [11:0]   m_asbus_len,
  output logic [NB-1:0] m_asbus_wd_vld,
  output logic [DataWidth-1:0]  m_asbus_wdata,
  input  logic [DataWidth-1:0]  m_asbus_rdata,
  input  logic [1:0]    m_asbus_resp,
  input  logic [1:0]    m_asbus_err
);

  // parameter checks: elaboration-time $fatal (Icarus 11 lacks those: time 0 there)
  if (DataWidth != 32 && DataWidth != 64 && DataWidth != 128) begin : g_bad_param_0
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master: DataWidth=%0d not 32/64/128", DataWidth);
`else
    $fatal(1, "ak_asbus_master: DataWidth=%0d not 32/64/128", DataWidth);
`endif
  end
  if (Outstanding < 1 || Outstanding > 16) begin : g_bad_param_1
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master: Outstanding=%0d not in 1..16", Outstanding);
`else
    $fatal(1, "ak_asbus_master: Outstanding=%0d not in 1..16", Outstanding);
`endif
  end
  if (RdDepth < 2 || RdDepth > 4096 || (RdDepth & (RdDepth - 1)) != 0) begin : g_bad_param_2
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master: RdDepth=%0d not a power of two in 2..4096", RdDepth);
`else
    $fatal(1, "ak_asbus_master: RdDepth=%0d not a power of two in 2..4096", RdDepth);
`endif
  end
  if (WrDepth < 2 || WrDepth > 4096 || (WrDepth & (WrDepth - 1)) != 0) begin : g_bad_param_3
`ifdef __ICARUS__
    initial $fatal(1, "ak_asbus_master: WrDepth=%0d not a power of two in 2..4096", WrDepth);
`else
    $fatal(1, "ak_asbus_master: WrDepth=%0d not a power of two in 2..4096", WrDepth);
`endif
  end

  localparam int unsigned RA = $clog2(RdDepth);
  localparam int unsigned WA = $clog2(WrDepth);
  localparam int unsigned OP = (Outstanding > 1) ? $clog2(Outstanding) : 1;  // pointer
  localparam int unsigned OC = $clog2(Outstanding + 1);                       // count
  localparam int unsigned SS = $clog2(16 / NB);   // log2 of beats per AES state

  // beats of a command (13 bits: up to 1024 states x 4 beats at DataWidth = 32)
  function automatic logic [12:0] beats_of(input logic [11:0] len);
    logic [12:0] n, wd, ht;
    n  = (len[9:0] == 10'd0) ? 13'd1024 : {3'b0, len[9:0]};
    wd = (len[9:6] == 4'd0)  ? 13'd16   : {9'b0, len[9:6]};
    ht = (len[5:0] == 6'd0)  ? 13'd64   : {7'b0, len[5:0]};
    unique case (len[11:10])
      2'b00:   beats_of = n;
      2'b01:   beats_of = wd * ht;
      2'b10:   beats_of = n << SS;
      default: beats_of = 13'd0;       // reserved: the slave refuses it, no beat
    endcase
  endfunction

  function automatic logic [OP-1:0] inc(input logic [OP-1:0] p);
    return (p == OP'(Outstanding - 1)) ? '0 : p + OP'(1);
  endfunction

  // ------------------------------------------------------------------------------
  // declarations
  // ------------------------------------------------------------------------------
  // command register (REQ held until GNT)
  logic          slot_q, slot_d;
  logic [31:0]   s_addr_q, s_addr_d;
  logic          s_wr_q, s_wr_d;
  logic [11:0]   s_len_q, s_len_d;
  // command decision
  logic [12:0]   c_beats;
  logic          c_long, c_ok, fire, bus_fire, loc_fire;
  logic          w_bus_fire, w_loc_fire, r_bus_fire, r_loc_fire;
  // per direction: entries [alloc pointer, head pointer) on the bus, [head, rsp) answered
  logic [12:0]   w_beats_q [Outstanding];
  logic [12:0]   r_beats_q [Outstanding];
  logic          w_err_q [Outstanding];
  logic          r_err_q [Outstanding];
  logic [OP-1:0] w_ap_q, w_ap_d, w_hp_q, w_hp_d, w_pp_q, w_pp_d;
  logic [OP-1:0] r_ap_q, r_ap_d, r_hp_q, r_hp_d, r_pp_q, r_pp_d;
  logic [OC-1:0] w_fly_q, w_fly_d, w_done_q, w_done_d;
  logic [OC-1:0] r_fly_q, r_fly_d, r_done_q, r_done_d;
  logic          w_room, r_room;
  // write side
  logic [12:0]   w_cnt_q, w_cnt_d;        // beats of the head write taken
  logic [WA:0]   w_pend_q, w_pend_d;      // beats of accepted writes not yet taken
  logic [12:0]   drop_q, drop_d;          // beats of a locally refused write to drop
  logic [12:0]   w_head_beats;
  logic          w_take, w_refuse, w_last, w_cpl_bus, w_cpl;
  logic [WA:0]   wf_count, wf_pop, drop_n;
  logic [DataWidth+NB-1:0] wf_head;
  // read side
  logic [12:0]   r_cnt_q, r_cnt_d;        // beats of the head read received
  logic [RA:0]   r_pend_q, r_pend_d;      // beats of accepted reads not yet received
  logic [12:0]   r_head_beats;
  logic          r_take, r_refuse, r_last, r_cpl_bus, r_cpl;
  logic [RA:0]   rf_count, rf_pop;
  logic [DataWidth:0]    rf_head;
  // responses
  logic          w_has, r_has, w_rsp_pop, r_rsp_pop;

  // ------------------------------------------------------------------------------
  // command acceptance and the command register
  // ------------------------------------------------------------------------------
  assign w_room = (OC+1)'(w_fly_q) + (OC+1)'(w_done_q) < (OC+1)'(Outstanding);
  assign r_room = (OC+1)'(r_fly_q) + (OC+1)'(r_done_q) < (OC+1)'(Outstanding);

  always_comb begin : command_accept
    c_beats = beats_of(cmd_len_i);
    if (cmd_wr_i) begin
      c_long = 14'(c_beats) > 14'(WrDepth);
      if (c_long) c_ok = w_room && (drop_q == '0) && (w_fly_q == '0);
      else        c_ok = w_room && (drop_q == '0)
                         && (14'(wf_count) >= 14'(w_pend_q) + 14'(c_beats));
    end else begin
      c_long = 14'(c_beats) > 14'(RdDepth);
      if (c_long) c_ok = r_room && (r_fly_q == '0);
      else        c_ok = r_room
                         && (14'(rf_count) + 14'(r_pend_q) + 14'(c_beats) <= 14'(RdDepth));
    end
    cmd_ready_o = (!slot_q || m_asbus_gnt) && c_ok;
    fire        = cmd_valid_i && cmd_ready_o;
    bus_fire    = fire && !c_long;
    loc_fire    = fire && c_long;
    w_bus_fire  = bus_fire && cmd_wr_i;
    r_bus_fire  = bus_fire && !cmd_wr_i;
    w_loc_fire  = loc_fire && cmd_wr_i;
    r_loc_fire  = loc_fire && !cmd_wr_i;
  end

  // REQ: the command register, or the accepted command itself while it is empty
  assign m_asbus_req  = slot_q || (cmd_valid_i && c_ok && !c_long);
  assign m_asbus_addr = slot_q ? s_addr_q : cmd_addr_i;
  assign m_asbus_wr   = slot_q ? s_wr_q : cmd_wr_i;
  assign m_asbus_len  = slot_q ? s_len_q : cmd_len_i;

  always_comb begin : slot_next
    slot_d   = slot_q && !m_asbus_gnt;
    s_addr_d = s_addr_q;
    s_wr_d   = s_wr_q;
    s_len_d  = s_len_q;
    if (bus_fire) begin
      slot_d   = 1'b1;
      s_addr_d = cmd_addr_i;
      s_wr_d   = cmd_wr_i;
      s_len_d  = cmd_len_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : slot_regs
    if (!rst_ni) begin
      slot_q   <= 1'b0;
      s_addr_q <= '0;
      s_wr_q   <= 1'b0;
      s_len_q  <= '0;
    end else begin
      slot_q   <= slot_d;
      s_addr_q <= s_addr_d;
      s_wr_q   <= s_wr_d;
      s_len_q  <= s_len_d;
    end
  end

  // ------------------------------------------------------------------------------
  // write side: buffer, beats on WDATA, completion
  // ------------------------------------------------------------------------------
  ak_asbus_master_fifo #(.DataWidth(DataWidth + NB), .Depth(WrDepth)) u_wbuf (
    .clk_i, .rst_ni,
    .push_i (wr_valid_i && wr_ready_o),
    .data_i ({wr_strb_i, wr_data_i}),
    .pop_i  (wf_pop),
    .count_o(wf_count),
    .head_o (wf_head)
  );

  assign wr_ready_o     = (wf_count != (WA+1)'(WrDepth));
  assign m_asbus_wdata  = wf_head[DataWidth-1:0];
  assign m_asbus_wd_vld = wf_head[DataWidth+NB-1:DataWidth] & {NB{wf_count != '0}};

  always_comb begin : write_track
    w_head_beats = w_beats_q[w_hp_q];
    w_take       = m_asbus_resp[1] && (w_fly_q != '0);
    w_refuse     = m_asbus_err[1] && (w_fly_q != '0);
    w_last       = w_take && (w_cnt_q + 13'd1 == w_head_beats);
    w_cpl_bus    = w_last || w_refuse;
    w_cpl        = w_cpl_bus || w_loc_fire;
    w_cnt_d      = w_cpl_bus ? 13'd0 : (w_take ? w_cnt_q + 13'd1 : w_cnt_q);
    // a locally refused write: drop its beats as they arrive
    drop_n       = (14'(wf_count) < 14'(drop_q)) ? wf_count : (WA+1)'(drop_q);
    drop_d       = w_loc_fire ? c_beats : drop_q - 13'(drop_n);
    if (w_take)        wf_pop = (WA+1)'(1);
    else if (w_refuse) wf_pop = (WA+1)'(w_head_beats);
    else               wf_pop = drop_n;
    w_pend_d     = w_pend_q + (w_bus_fire ? (WA+1)'(c_beats) : '0)
                   - (WA+1)'(w_take) - (w_refuse ? (WA+1)'(w_head_beats) : '0);
    w_ap_d       = (w_bus_fire || w_loc_fire) ? inc(w_ap_q) : w_ap_q;
    w_hp_d       = w_cpl ? inc(w_hp_q) : w_hp_q;
    w_pp_d       = w_rsp_pop ? inc(w_pp_q) : w_pp_q;
    w_fly_d      = w_fly_q + OC'(w_bus_fire) - OC'(w_cpl_bus);
    w_done_d     = w_done_q + OC'(w_cpl) - OC'(w_rsp_pop);
  end

  // ------------------------------------------------------------------------------
  // read side: credits, buffer, completion
  // ------------------------------------------------------------------------------
  ak_asbus_master_fifo #(.DataWidth(DataWidth + 1), .Depth(RdDepth)) u_rbuf (
    .clk_i, .rst_ni,
    .push_i (r_take),
    .data_i ({r_last, m_asbus_rdata}),
    .pop_i  (rf_pop),
    .count_o(rf_count),
    .head_o (rf_head)
  );

  assign rd_valid_o = (rf_count != '0);
  assign rd_data_o  = rf_head[DataWidth-1:0];
  assign rd_last_o  = rf_head[DataWidth];

  always_comb begin : read_track
    r_head_beats = r_beats_q[r_hp_q];
    r_take       = m_asbus_resp[0] && (r_fly_q != '0);
    r_refuse     = m_asbus_err[0] && (r_fly_q != '0);
    r_last       = r_take && (r_cnt_q + 13'd1 == r_head_beats);
    r_cpl_bus    = r_last || r_refuse;
    r_cpl        = r_cpl_bus || r_loc_fire;
    r_cnt_d      = r_cpl_bus ? 13'd0 : (r_take ? r_cnt_q + 13'd1 : r_cnt_q);
    rf_pop       = (RA+1)'(rd_valid_o && rd_ready_i);
    r_pend_d     = r_pend_q + (r_bus_fire ? (RA+1)'(c_beats) : '0)
                   - (RA+1)'(r_take) - (r_refuse ? (RA+1)'(r_head_beats) : '0);
    r_ap_d       = (r_bus_fire || r_loc_fire) ? inc(r_ap_q) : r_ap_q;
    r_hp_d       = r_cpl ? inc(r_hp_q) : r_hp_q;
    r_pp_d       = r_rsp_pop ? inc(r_pp_q) : r_pp_q;
    r_fly_d      = r_fly_q + OC'(r_bus_fire) - OC'(r_cpl_bus);
    r_done_d     = r_done_q + OC'(r_cpl) - OC'(r_rsp_pop);
  end

  // ------------------------------------------------------------------------------
  // responses: in order per direction, writes first
  // ------------------------------------------------------------------------------
  assign w_has       = (w_done_q != '0);
  assign r_has       = (r_done_q != '0);
  assign rsp_valid_o = w_has || r_has;
  assign rsp_wr_o    = w_has;
  assign rsp_err_o   = w_has ? w_err_q[w_pp_q] : r_err_q[r_pp_q];
  assign w_rsp_pop   = rsp_ready_i && w_has;
  assign r_rsp_pop   = rsp_ready_i && !w_has && r_has;

  // ------------------------------------------------------------------------------
  // registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : track_regs
    if (!rst_ni) begin
      w_ap_q   <= '0;
      w_hp_q   <= '0;
      w_pp_q   <= '0;
      w_fly_q  <= '0;
      w_done_q <= '0;
      w_cnt_q  <= '0;
      w_pend_q <= '0;
      drop_q   <= '0;
      r_ap_q   <= '0;
      r_hp_q   <= '0;
      r_pp_q   <= '0;
      r_fly_q  <= '0;
      r_done_q <= '0;
      r_cnt_q  <= '0;
      r_pend_q <= '0;
    end else begin
      w_ap_q   <= w_ap_d;
      w_hp_q   <= w_hp_d;
      w_pp_q   <= w_pp_d;
      w_fly_q  <= w_fly_d;
      w_done_q <= w_done_d;
      w_cnt_q  <= w_cnt_d;
      w_pend_q <= w_pend_d;
      drop_q   <= drop_d;
      r_ap_q   <= r_ap_d;
      r_hp_q   <= r_hp_d;
      r_pp_q   <= r_pp_d;
      r_fly_q  <= r_fly_d;
      r_done_q <= r_done_d;
      r_cnt_q  <= r_cnt_d;
      r_pend_q <= r_pend_d;
    end
  end

  // entries: beats written at acceptance, the error flag at completion
  always_ff @(posedge clk_i or negedge rst_ni) begin : entry_regs
    if (!rst_ni) begin
      for (int i = 0; i < Outstanding; i++) begin
        w_beats_q[i] <= '0;
        r_beats_q[i] <= '0;
        w_err_q[i]   <= 1'b0;
        r_err_q[i]   <= 1'b0;
      end
    end else begin
      if (w_bus_fire) w_beats_q[w_ap_q] <= c_beats;
      if (r_bus_fire) r_beats_q[r_ap_q] <= c_beats;
      if (w_cpl)      w_err_q[w_hp_q]   <= w_refuse || w_loc_fire;
      if (r_cpl)      r_err_q[r_hp_q]   <= r_refuse || r_loc_fire;
    end
  end

endmodule

`default_nettype wire
