// ak_uart_demo: the UART demo's controller (docs/uart_demo.md): bytes from a
// UART (ak_uart_rx, ak_uart_tx, 8N1) are parsed into request frames
//   0xA5 CMD LEN PAYLOAD[LEN] CRC          (CRC-8, polynomial 0x07, init 0, over CMD..)
// each of which a command sequencer runs as a few AXI4-Lite accesses on the lean AES
// peripheral (ak_aes_lite, m_axil_* master port), answering with one response frame
//   0x5A CMD STATUS LEN PAYLOAD[LEN] CRC   (CRC over CMD..PAYLOAD).
// Commands: 0x01 STATUS, 0x02 SET_KEY, 0x03 SET_IV, 0x04 SET_MODE, 0x05 DATA (1..15
// blocks), 0x06 CMAC_FINAL, 0x07 KEY_CLEAR. Status: 0x00 OK, 0x01 BAD_CHECK, 0x02
// BAD_LEN, 0x03 UNKNOWN_CMD, 0x04 ILLEGAL (ak_aes_lite refused: mode, direction or key
// size left out of the build, or no key), 0x05 TIMEOUT, 0x06 OVERRUN, 0x07 FRAMING,
// 0x08 NO_SYNC, 0x09 BUS. After a receive-side error (BAD_CHECK .. NO_SYNC) the error
// frame is sent, then input is dropped until the line has been quiet for TimeoutCycles;
// ILLEGAL and BUS answer the request and the next frame is taken at once.
// Frame buffer: 64 x 32-bit words without reset (one or two block RAMs), byte k of the
// payload in bits [8*(k%4) +: 8] of word k/4: the register byte order of ak_aes_lite
// (byte 0 of a block or key in bits [7:0] of word 0), so words move unchanged. It is
// zeroed after SET_KEY and KEY_CLEAR (no key bytes stay behind).
// Latency: the response starts about 10 + (28 + core latency) * blocks cycles after
// the CRC byte's stop bit (docs/uart_demo.md, "Timing"); a frame of n bytes takes
// 10 * n * ClkPerBit cycles on the line each way.
// Parameters: ClkPerBit (int, >= 4): cycles per UART bit; TimeoutCycles (int, >=
// 20 * ClkPerBit): inter-byte timeout of a frame and the quiet time that ends the drop
// after an error.
`default_nettype none
module ak_uart_demo #(
  parameter int ClkPerBit     = 104,
  parameter int TimeoutCycles = 120000
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        uart_rx_i,
  output logic        uart_tx_o,
  output logic [1:0]  led_o,          // [0] busy (a frame in progress), [1] error latched
  output logic [31:0] m_axil_awaddr,
  output logic [2:0]  m_axil_awprot,
  output logic        m_axil_awvalid,
  input  logic        m_axil_awready,
  output logic [31:0] m_axil_wdata,
  output logic [3:0]  m_axil_wstrb,
  output logic        m_axil_wvalid,
  input  logic        m_axil_wready,
  input  logic [1:0]  m_axil_bresp,
  input  logic        m_axil_bvalid,
  output logic        m_axil_bready,
  output logic [31:0] m_axil_araddr,
  output logic [2:0]  m_axil_arprot,
  output logic        m_axil_arvalid,
  input  logic        m_axil_arready,
  input  logic [31:0] m_axil_rdata,
  input  logic [1:0]  m_axil_rresp,
  input  logic        m_axil_rvalid,
  output logic        m_axil_rready
);
  if (TimeoutCycles < 20 * ClkPerBit) begin : g_bad_param
    $error("%m: TimeoutCycles must be >= 20 * ClkPerBit (%0d), got %0d", 20 * ClkPerBit,
           TimeoutCycles);
  end

  // ------------------------------------------------------------------------------
  // Protocol constants (docs/uart_demo.md)
  // ------------------------------------------------------------------------------
  localparam logic [7:0] SyncReq = 8'hA5, SyncResp = 8'h5A, Version = 8'h01;
  localparam logic [7:0] CmdStatus = 8'h01, CmdSetKey = 8'h02, CmdSetIv = 8'h03,
                         CmdSetMode = 8'h04, CmdData = 8'h05, CmdCmacFinal = 8'h06,
                         CmdKeyClear = 8'h07;
  localparam logic [7:0] StOk = 8'h00, StBadCheck = 8'h01, StBadLen = 8'h02,
                         StUnknown = 8'h03, StIllegal = 8'h04, StTimeout = 8'h05,
                         StOverrun = 8'h06, StFraming = 8'h07, StNoSync = 8'h08,
                         StBus = 8'h09;
  // ak_aes_lite's register offsets (aes_lite.rdl) and CTRL.MODE's CMAC code
  localparam logic [6:0] RegCtrl = 7'h00, RegStatus = 7'h04, RegKeygo = 7'h08,
                         RegGo = 7'h0c, RegIv = 7'h10, RegKey = 7'h20, RegDin = 7'h40,
                         RegDout = 7'h50;
  localparam logic [2:0] ModeCmac = 3'd7;
  localparam int TW = $clog2(TimeoutCycles + 1);

  function automatic logic [7:0] crc8(input logic [7:0] crc, input logic [7:0] data);
    logic [7:0] x;
    x = crc ^ data;
    for (int i = 0; i < 8; i++) x = x[7] ? {x[6:0], 1'b0} ^ 8'h07 : {x[6:0], 1'b0};
    return x;
  endfunction

  // ------------------------------------------------------------------------------
  // UART
  // ------------------------------------------------------------------------------
  logic [7:0] rx_data, tx_data;
  logic       rx_valid, rx_ferr, tx_valid, tx_ready;

  ak_uart_rx #(.ClkPerBit(ClkPerBit)) u_rx (
    .clk_i, .rst_ni, .rx_i(uart_rx_i), .data_o(rx_data), .valid_o(rx_valid),
    .ferr_o(rx_ferr)
  );
  ak_uart_tx #(.ClkPerBit(ClkPerBit)) u_tx (
    .clk_i, .rst_ni, .data_i(tx_data), .valid_i(tx_valid), .ready_o(tx_ready),
    .tx_o(uart_tx_o)
  );

  // ------------------------------------------------------------------------------
  // Frame buffer: 64 words, byte write enables, registered read
  // ------------------------------------------------------------------------------
  logic [31:0] buf_mem [64];
  logic        buf_we;
  logic [3:0]  buf_be;
  logic [5:0]  buf_waddr, buf_raddr;
  logic [31:0] buf_wdata, buf_rdata;

  always_ff @(posedge clk_i) begin : buf_ram
    if (buf_we) begin
      for (int b = 0; b < 4; b++) begin
        if (buf_be[b]) buf_mem[buf_waddr][8*b +: 8] <= buf_wdata[8*b +: 8];
      end
    end
    buf_rdata <= buf_mem[buf_raddr];
  end

  // ------------------------------------------------------------------------------
  // Control
  // ------------------------------------------------------------------------------
  typedef enum logic [4:0] {
    StHunt, StCmd, StLen, StPay, StChk,             // receive a request
    StOp, StIssue, StWait, StWipe,                  // run it
    StTxSync, StTxCmd, StTxSt, StTxLen, StTxRd, StTxPay, StTxChk,  // answer
    StDrain                                         // drop input until the line is quiet
  } state_e;
  typedef enum logic [2:0] {OpWrBuf, OpWrVal, OpRd, OpPoll, OpNext, OpEnd} op_e;

  state_e      state_q, state_d;
  logic [7:0]  cmd_q, cmd_d, len_q, len_d, idx_q, idx_d, crc_q, crc_d, pay0_q, pay0_d;
  logic [7:0]  status_q, status_d, rlen_q, rlen_d, perr_q, perr_d;
  logic        drain_q, drain_d, led_err_q, led_err_d;
  logic [3:0]  step_q, step_d, blk_q, blk_d;
  logic [2:0]  mode_q, mode_d;
  logic        dec_q, dec_d;
  logic [1:0]  klen_q, klen_d;
  logic [TW-1:0] idle_q;
  logic        quiet, len_ok, cmd_ok, receiving;

  // the current step of a command: one AXI4-Lite access (or loop control)
  op_e         op_kind;
  logic [6:0]  op_addr;
  logic [31:0] op_val;
  logic [5:0]  op_word;
  logic [1:0]  s6;           // steps 6..9 -> word 0..3
  logic [31:0] ctrl_new;   // CTRL with this command's fields

  // the AXI4-Lite master
  typedef enum logic [2:0] {AxIdle, AxWr, AxB, AxAr, AxR} ax_e;
  ax_e  ax_q, ax_d;
  logic aw_done_q, aw_done_d, w_done_q, w_done_d, ax_done, ax_err, ax_req;

  assign quiet = idle_q == TW'(TimeoutCycles);
  assign s6    = step_q[1:0] - 2'd2;

  function automatic logic [31:0] ctrl(input logic [1:0] klen, input logic dec,
                                       input logic [2:0] mode);
    return {26'd0, klen, dec, mode};
  endfunction

  always_comb begin : frame_check
    unique case (cmd_q)
      CmdStatus, CmdKeyClear: begin cmd_ok = 1'b1; len_ok = len_q == 8'd0; end
      CmdSetKey: begin
        cmd_ok = 1'b1;
        len_ok = len_q == 8'd16 || len_q == 8'd24 || len_q == 8'd32;
      end
      CmdSetIv:     begin cmd_ok = 1'b1; len_ok = len_q == 8'd16; end
      CmdSetMode:   begin cmd_ok = 1'b1; len_ok = len_q == 8'd1; end
      CmdData: begin
        cmd_ok = 1'b1;
        len_ok = len_q[3:0] == 4'd0 && len_q != 8'd0 && len_q <= 8'd240;
      end
      CmdCmacFinal: begin cmd_ok = 1'b1; len_ok = len_q <= 8'd16; end
      default:      begin cmd_ok = 1'b0; len_ok = 1'b0; end
    endcase
  end

  // the command programs (docs/uart_demo.md, "Theory of operation")
  always_comb begin : op_decode
    op_kind  = OpEnd;
    op_addr  = RegStatus;      // OpRd of STATUS and OpPoll
    op_val   = '0;
    op_word  = {2'b00, step_q};
    ctrl_new = ctrl(klen_q, dec_q, mode_q);
    unique case (cmd_q)
      CmdStatus: if (step_q == 4'd0) op_kind = OpRd;        // STATUS -> word 0
      CmdSetKey: begin
        ctrl_new = ctrl(len_q[4:3] - 2'd2, dec_q, mode_q);   // 16, 24, 32 -> 0, 1, 2
        if (step_q < 4'd8) begin
          op_kind = step_q < len_q[5:2] ? OpWrBuf : OpWrVal;  // unused words: 0
          op_addr = RegKey + {2'b00, step_q[2:0], 2'b00};
        end else begin
          unique case (step_q)
            4'd8:    begin op_kind = OpWrVal; op_addr = RegCtrl; op_val = ctrl_new; end
            4'd9:    begin op_kind = OpWrVal; op_addr = RegKeygo; op_val = 32'd1; end
            4'd10:   op_kind = OpPoll;
            default: op_kind = OpEnd;
          endcase
        end
      end
      CmdSetIv: if (step_q < 4'd4) begin
        op_kind = OpWrBuf;
        op_addr = RegIv + {3'b000, step_q[1:0], 2'b00};
      end
      CmdSetMode: begin
        ctrl_new = ctrl(klen_q, pay0_q[3], pay0_q[2:0]);
        if (step_q == 4'd0) begin
          op_kind = OpWrVal;
          op_addr = RegCtrl;
          op_val  = ctrl_new;
        end
      end
      CmdData, CmdCmacFinal: begin
        op_word = {(cmd_q == CmdData ? blk_q : 4'd0), step_q < 4'd4 ? step_q[1:0] : s6};
        unique case (step_q)
          4'd0, 4'd1, 4'd2, 4'd3: begin
            op_kind = OpWrBuf;
            op_addr = RegDin + {3'b000, step_q[1:0], 2'b00};
          end
          4'd4: begin
            op_kind = OpWrVal;
            op_addr = RegGo;                                    // START (| LAST, NBYTES)
            op_val  = cmd_q == CmdData ? 32'd1 : {19'd0, len_q[4:0], 8'h03};
          end
          4'd5: op_kind = OpPoll;
          4'd6, 4'd7, 4'd8, 4'd9: begin
            op_kind = OpRd;                                     // the result, or the tag
            op_addr = (cmd_q == CmdData ? RegDout : RegIv) + {3'b000, s6, 2'b00};
            if (cmd_q == CmdData && mode_q == ModeCmac) op_kind = OpNext;  // no output
          end
          4'd10:   op_kind = cmd_q == CmdData ? OpNext : OpEnd;
          default: op_kind = OpEnd;
        endcase
      end
      CmdKeyClear: begin
        // zero key, KEYGO (the core's key storage overwritten), then KEY_LEN 3 and
        // KEYGO: refused, so ak_aes_lite forgets the key (KEY_OK = 0, GO refused)
        ctrl_new = ctrl(step_q < 4'd11 ? 2'd0 : 2'd3, dec_q, mode_q);
        if (step_q < 4'd8) begin
          op_kind = OpWrVal;
          op_addr = RegKey + {2'b00, step_q[2:0], 2'b00};
        end else begin
          unique case (step_q)
            4'd8, 4'd11:  begin op_kind = OpWrVal; op_addr = RegCtrl; op_val = ctrl_new; end
            4'd9, 4'd12:  begin op_kind = OpWrVal; op_addr = RegKeygo; op_val = 32'd1; end
            4'd10, 4'd13: op_kind = OpPoll;
            default:      op_kind = OpEnd;
          endcase
        end
      end
      default: op_kind = OpEnd;
    endcase
    if (step_q == 4'hf) op_kind = OpEnd;    // an abort
  end

  assign receiving = state_q inside {StHunt, StCmd, StLen, StPay, StChk};

  always_comb begin : ctrl_next
    state_d   = state_q;
    cmd_d     = cmd_q;
    len_d     = len_q;
    idx_d     = idx_q;
    crc_d     = crc_q;
    pay0_d    = pay0_q;
    status_d  = status_q;
    rlen_d    = rlen_q;
    perr_d    = perr_q;
    drain_d   = drain_q;
    led_err_d = led_err_q;
    step_d    = step_q;
    blk_d     = blk_q;
    mode_d    = mode_q;
    dec_d     = dec_q;
    klen_d    = klen_q;
    ax_req    = 1'b0;
    tx_valid  = 1'b0;
    tx_data   = 8'h00;
    buf_we    = 1'b0;
    buf_be    = 4'hf;
    buf_waddr = op_word;
    buf_wdata = m_axil_rdata;
    buf_raddr = op_word;

    // a byte or a framing error outside the receive states: remembered, reported after
    // the answer (not while an error frame goes out or input is dropped)
    if (!receiving && !drain_q && state_q != StDrain && perr_q == 8'h00) begin
      if (rx_ferr)       perr_d = StFraming;
      else if (rx_valid) perr_d = StOverrun;
    end

    unique case (state_q)
      StHunt: begin
        cmd_d = 8'h00;
        if (rx_ferr) begin
          {status_d, drain_d, state_d} = {StFraming, 1'b1, StTxSync};
        end else if (rx_valid) begin
          if (rx_data == SyncReq) begin
            state_d = StCmd;
            crc_d   = 8'h00;
          end else begin
            {status_d, drain_d, state_d} = {StNoSync, 1'b1, StTxSync};
          end
        end
      end
      StCmd, StLen, StPay, StChk: begin
        if (rx_ferr) begin
          {cmd_d, status_d, drain_d, state_d} = {8'h00, StFraming, 1'b1, StTxSync};
        end else if (rx_valid) begin
          crc_d = crc8(crc_q, rx_data);
          unique case (state_q)
            StCmd: begin
              cmd_d   = rx_data;
              state_d = StLen;
            end
            StLen: begin
              len_d   = rx_data;
              idx_d   = 8'h00;
              state_d = rx_data == 8'h00 ? StChk : StPay;
            end
            StPay: begin
              buf_we    = 1'b1;
              buf_be    = 4'b0001 << idx_q[1:0];
              buf_waddr = idx_q[7:2];
              buf_wdata = {4{rx_data}};
              if (idx_q == 8'h00) pay0_d = rx_data;
              idx_d = idx_q + 8'd1;
              if (idx_q == len_q - 8'd1) state_d = StChk;
            end
            default: begin   // StChk
              state_d = StTxSync;
              rlen_d  = 8'h00;
              step_d  = 4'h0;
              blk_d   = 4'h0;
              if (rx_data != crc_q) begin
                {status_d, drain_d} = {StBadCheck, 1'b1};
              end else if (!cmd_ok) begin
                {status_d, drain_d} = {StUnknown, 1'b1};
              end else if (!len_ok) begin
                {status_d, drain_d} = {StBadLen, 1'b1};
              end else if (cmd_q == CmdCmacFinal && mode_q != ModeCmac) begin
                status_d = StIllegal;
              end else begin
                status_d = StOk;
                state_d  = StOp;
                unique case (cmd_q)
                  CmdStatus:    rlen_d = 8'd4;
                  CmdData:      rlen_d = mode_q == ModeCmac ? 8'd0 : len_q;
                  CmdCmacFinal: rlen_d = 8'd16;
                  default:      rlen_d = 8'd0;
                endcase
              end
            end
          endcase
        end else if (quiet) begin
          {cmd_d, status_d, drain_d, state_d} = {8'h00, StTimeout, 1'b1, StTxSync};
        end
      end
      StOp: begin
        unique case (op_kind)
          OpNext: begin
            if (blk_q == len_q[7:4] - 4'd1) begin
              step_d = 4'hf;
            end else begin
              blk_d  = blk_q + 4'd1;
              step_d = 4'h0;
            end
          end
          OpEnd: begin
            if (cmd_q == CmdSetMode) {dec_d, mode_d} = pay0_q[3:0];
            if (cmd_q == CmdSetKey) klen_d = ctrl_new[5:4];
            if (cmd_q == CmdKeyClear) klen_d = 2'd3;
            if (status_q != StOk) rlen_d = 8'h00;
            idx_d   = 8'h00;
            state_d = (cmd_q == CmdSetKey || cmd_q == CmdKeyClear) ? StWipe : StTxSync;
          end
          default: state_d = StIssue;        // the buffer word is read on this edge
        endcase
      end
      StIssue: begin
        ax_req  = 1'b1;
        state_d = StWait;
      end
      StWait: begin
        if (ax_done) begin
          state_d = StOp;
          step_d  = step_q + 4'd1;
          if (ax_err) begin
            status_d = StBus;
            step_d   = 4'hf;
          end else if (op_kind == OpRd) begin
            buf_we = 1'b1;
            if (cmd_q == CmdStatus) buf_wdata = {Version, 8'(ctrl_new), m_axil_rdata[15:0]};
          end else if (op_kind == OpPoll) begin
            if (!m_axil_rdata[1]) begin               // STATUS.DONE not yet: read again
              state_d = StIssue;
              step_d  = step_q;
            end else if (m_axil_rdata[5:4] != 2'd0 && cmd_q != CmdKeyClear) begin
              status_d = StIllegal;                   // STATUS.ERR ILLEGAL
              step_d   = 4'hf;
            end
          end
        end
      end
      StWipe: begin
        buf_we    = 1'b1;
        buf_waddr = idx_q[5:0];
        buf_wdata = '0;
        idx_d     = idx_q + 8'd1;
        if (idx_q == 8'd63) state_d = StTxSync;
      end
      StTxSync, StTxCmd, StTxSt, StTxLen, StTxPay, StTxChk: begin
        tx_valid = 1'b1;
        unique case (state_q)
          StTxSync: tx_data = SyncResp;
          StTxCmd:  tx_data = cmd_q;
          StTxSt:   tx_data = status_q;
          StTxLen:  tx_data = rlen_q;
          StTxPay:  tx_data = buf_rdata[8*idx_q[1:0] +: 8];
          default:  tx_data = crc_q;     // StTxChk
        endcase
        buf_raddr = idx_q[7:2];
        if (tx_ready) begin
          if (state_q != StTxSync && state_q != StTxChk) crc_d = crc8(crc_q, tx_data);
          unique case (state_q)
            StTxSync: begin
              state_d = StTxCmd;
              crc_d   = 8'h00;
              idx_d   = 8'h00;
              led_err_d = status_q != StOk;
            end
            StTxCmd: state_d = StTxSt;
            StTxSt:  state_d = StTxLen;
            StTxLen: state_d = rlen_q == 8'h00 ? StTxChk : StTxRd;
            StTxPay: begin
              idx_d   = idx_q + 8'd1;
              state_d = idx_q == rlen_q - 8'd1 ? StTxChk : StTxRd;
            end
            default: begin                 // StTxChk: the frame is out
              if (drain_q) begin
                state_d = StDrain;
              end else if (perr_d != 8'h00) begin
                {cmd_d, status_d, rlen_d, drain_d, perr_d, state_d} =
                  {8'h00, perr_d, 8'h00, 1'b1, 8'h00, StTxSync};
              end else begin
                state_d = StHunt;
              end
            end
          endcase
        end
      end
      StTxRd: begin
        buf_raddr = idx_q[7:2];               // buf_rdata holds the word from the next edge
        state_d   = StTxPay;
      end
      StDrain: begin
        if (quiet) begin
          state_d = StHunt;
          drain_d = 1'b0;
        end
      end
      default: state_d = StHunt;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : ctrl_reg
    if (!rst_ni) begin
      state_q   <= StHunt;
      cmd_q     <= '0;
      len_q     <= '0;
      idx_q     <= '0;
      crc_q     <= '0;
      pay0_q    <= '0;
      status_q  <= '0;
      rlen_q    <= '0;
      perr_q    <= '0;
      drain_q   <= 1'b0;
      led_err_q <= 1'b0;
      step_q    <= '0;
      blk_q     <= '0;
      mode_q    <= '0;
      dec_q     <= 1'b0;
      klen_q    <= '0;
    end else begin
      state_q   <= state_d;
      cmd_q     <= cmd_d;
      len_q     <= len_d;
      idx_q     <= idx_d;
      crc_q     <= crc_d;
      pay0_q    <= pay0_d;
      status_q  <= status_d;
      rlen_q    <= rlen_d;
      perr_q    <= perr_d;
      drain_q   <= drain_d;
      led_err_q <= led_err_d;
      step_q    <= step_d;
      blk_q     <= blk_d;
      mode_q    <= mode_d;
      dec_q     <= dec_d;
      klen_q    <= klen_d;
    end
  end

  // cycles since the last byte (or framing error) on the line, saturating
  always_ff @(posedge clk_i or negedge rst_ni) begin : idle_reg
    if (!rst_ni)                  idle_q <= TW'(TimeoutCycles);
    else if (rx_valid || rx_ferr) idle_q <= '0;
    else if (!quiet)              idle_q <= idle_q + 1'b1;
  end

  assign led_o = {led_err_q, state_q != StHunt};

  // ------------------------------------------------------------------------------
  // AXI4-Lite master: one access at a time; address and write data come straight
  // from the step (op_addr, op_val or the buffer word), stable while it waits
  // ------------------------------------------------------------------------------
  always_comb begin : ax_next
    ax_d      = ax_q;
    aw_done_d = aw_done_q;
    w_done_d  = w_done_q;
    unique case (ax_q)
      AxIdle: begin
        if (ax_req) begin
          ax_d      = (op_kind == OpRd || op_kind == OpPoll) ? AxAr : AxWr;
          aw_done_d = 1'b0;
          w_done_d  = 1'b0;
        end
      end
      AxWr: begin
        aw_done_d = aw_done_q || m_axil_awready;
        w_done_d  = w_done_q || m_axil_wready;
        if (aw_done_d && w_done_d) ax_d = AxB;
      end
      AxB:     if (m_axil_bvalid) ax_d = AxIdle;
      AxAr:    if (m_axil_arready) ax_d = AxR;
      AxR:     if (m_axil_rvalid) ax_d = AxIdle;
      default: ax_d = AxIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : ax_reg
    if (!rst_ni) begin
      ax_q      <= AxIdle;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
    end else begin
      ax_q      <= ax_d;
      aw_done_q <= aw_done_d;
      w_done_q  <= w_done_d;
    end
  end

  assign ax_done = (ax_q == AxB && m_axil_bvalid) || (ax_q == AxR && m_axil_rvalid);
  assign ax_err  = ax_q == AxB ? m_axil_bresp != 2'b00 : m_axil_rresp != 2'b00;

  assign m_axil_awaddr  = {25'd0, op_addr};
  assign m_axil_awprot  = 3'b000;
  assign m_axil_awvalid = ax_q == AxWr && !aw_done_q;
  assign m_axil_wdata   = op_kind == OpWrBuf ? buf_rdata : op_val;
  assign m_axil_wstrb   = 4'hf;
  assign m_axil_wvalid  = ax_q == AxWr && !w_done_q;
  assign m_axil_bready  = ax_q == AxB;
  assign m_axil_araddr  = {25'd0, op_addr};
  assign m_axil_arprot  = 3'b000;
  assign m_axil_arvalid = ax_q == AxAr;
  assign m_axil_rready  = ax_q == AxR;
endmodule
`default_nettype wire
