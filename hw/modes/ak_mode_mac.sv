// ak_mode_mac: the MAC unit of a mode-engine stream (ak_mode_stream): the MAC FIFO
// (ak_fifo u_mb, FifoDepth blocks), the chaining value / hash y, and
//   - CCM's and CMAC's CBC-MAC flow: lane 1's request Y_{i-1} ^ B_i (CMAC's last
//     block also ^ K1 or K2, derived from L = E(0) by doubling), one block in the core;
//   - GCM's GHASH (SP 800-38D): y = (y ^ X) * H on ak_gf128_mul (GhashDigitBits,
//     128/D cycles per block) over J0's blocks (IV not 12 bytes; the product of the
//     last is J0 and the hash restarts at 0), the AAD, the ciphertext, the length block;
//   - the counts of MAC blocks not yet back (mac_z_o: none left) and not yet sent
//     (CMAC's last block), and of J0's GHASH blocks.
// Its control is the stream's: load_i at a command (the counts and CMAC's subkey
// choice), run_i while the message runs (its results are taken), active_i while it
// runs without error (requests and products may start), the mode flags, and one push
// per cycle with a typed select (mac_in_sel_e of ak_mode_pkg) of the block's source.
//
// Latency: lane 1's request is combinational from the FIFO's head, y (or the result
// leaving the core now, bypassed) and the subkey; a GHASH product takes 128/D cycles
// and is combined with the next block in the cycle it finishes. Byte order: FIPS-197
// / GCM, byte 0 in [127:120].
//
// Parameters: GhashDigitBits (16): the multiplier's digit (1, 4, 8, 16, 32, 128);
//             CbcMac (1): a CBC-MAC mode (CCM or CMAC) is built; Ghash (1): GCM is
//             built (0 leaves the multiplier out); with neither, the MAC FIFO is left
//             out too; FifoDepth (3): MAC FIFO blocks; Parts (0): 1 builds messages
//             in parts: y starts from the command's state (y0_i), GHASH restarts from
//             yc_i (a 128-bit register) after J0, and a FIRST / MIDDLE CMAC part
//             (mid_i) sends its last block without a subkey.

`default_nettype none

module ak_mode_mac #(
  parameter int GhashDigitBits = 16,
  parameter bit CbcMac         = 1'b1,
  parameter bit Ghash          = 1'b1,
  parameter int FifoDepth      = 3,
  parameter bit Parts          = 1'b0
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // control
  input  logic            load_i,        // a command is taken: load the counts
  input  logic [31:0]     blocks_i,      // ... MAC blocks of the message
  input  logic [31:0]     giv_blocks_i,  // ... GCM: GHASH blocks of J0
  input  logic            k2_i,          // ... CMAC: the last block is padded
  input  logic [127:0]    y0_i,          // ... the state y starts from (parts)
  input  logic [127:0]    yc_i,          // ... GCM: GHASH's state after J0 (parts)
  input  logic            mid_i,         // a FIRST / MIDDLE part: no CMAC subkey
  input  logic            run_i,         // the message runs
  input  logic            active_i,      // ... without error
  input  logic            cbc_i,         // the message is CCM or CMAC (lane 1)
  input  logic            cmac_i,        // ... CMAC
  input  logic            gcm_i,         // ... GCM (GHASH)
  input  logic            h_ok_i,        // H (GCM) / L (CMAC) is in h_i
  input  logic [127:0]    h_i,
  // MAC FIFO push: one block per cycle, its source chosen by push_sel_i
  input  logic            push_i,
  input  ak_mode_pkg::mac_in_sel_e push_sel_i,
  input  logic [127:0]    beat_i,        // the input beat (masked to its bytes)
  input  logic [4:0]      beat_n_i,      // ... its bytes
  input  logic [127:0]    b0_i,          // CCM: B0
  input  logic [127:0]    result_i,      // the payload result leaving the core now
  input  logic [127:0]    len_i,         // GCM: the final length block
  input  logic [47:0]     carry_i,       // CCM: AAD bytes carried; GCM: len(IV) in bits
  input  logic            p6_i,          // CCM: 6-byte AAD length prefix (else 2)
  output logic            full_o,
  output logic [$clog2(FifoDepth + 1)-1:0] count_o,
  // lane 1 (CBC-MAC) to the core
  output logic            req_valid_o,
  input  logic            req_ready_i,
  output logic [127:0]    req_data_o,
  input  logic            rsp_valid_i,
  input  logic [127:0]    rsp_data_i,
  // state
  output logic            gh_start_o,    // GHASH takes the FIFO's head now
  output logic            j0_valid_o,    // GCM: J0 is in j0_o now
  output logic [127:0]    j0_o,
  output logic            busy_o,        // a MAC block or product is under way
  output logic            mac_z_o,       // no MAC block left to come back
  output logic [127:0]    y_o            // CBC-MAC value / hash
);

  import ak_mode_pkg::*;

  localparam int CntW = $clog2(FifoDepth + 1);

  logic [127:0] y_q, y_d;
  logic         m_busy_q, m_busy_d;
  logic [31:0]  mac_left_q, mac_left_d;    // MAC blocks whose result is not yet back
  logic         mac_z_q, mac_z_d;          // mac_left_q == 0
  logic [31:0]  mreq_left_q, mreq_left_d;  // CMAC: MAC blocks not yet sent to the core
  logic         k2_q, k2_d;                // CMAC: the last block is padded (subkey K2)
  logic [31:0]  giv_left_q, giv_left_d;    // GHASH blocks of J0 not yet started
  logic         gj0_q, gj0_d;              // the product under way is J0

  logic [127:0]    mb_head, mb_push_data;
  logic [CntW-1:0] mb_cnt;
  logic            mb_full, mb_pop;
  logic            m_rsp, m_fire, m_last;
  logic [127:0]    subkey;
  logic            gh_start, gh_ready, gh_done;
  logic [127:0]    gh_z, gh_y, y_j0;

  assign m_rsp = rsp_valid_i;

  // the block pushed: its source
  always_comb begin : push_mux
    unique case (push_sel_i)
      MacInCmac:     mb_push_data = (beat_n_i == 5'd16) ? beat_i : pad80(beat_i, beat_n_i);
      MacInB0:       mb_push_data = b0_i;
      MacInEmpty:    mb_push_data = {8'h80, 120'h0};  // the empty message, padded
      MacInIvLen:    mb_push_data = {80'h0, carry_i};
      MacInResult:   mb_push_data = result_i;
      MacInLen:      mb_push_data = len_i;
      // formatted AAD block of this beat: carry || the first 16-p bytes of the beat
      MacInAad:      mb_push_data = p6_i ? {carry_i, beat_i[127:48]} :
                                           {carry_i[15:0], beat_i[127:16]};
      MacInAadFlush: mb_push_data = p6_i ? {carry_i, 80'h0} : {carry_i[15:0], 112'h0};
      default:       mb_push_data = beat_i;  // MacInBeat
    endcase
  end

  // ------------------------------------------------------------------------------
  // CBC-MAC lane (CCM, CMAC)
  // ------------------------------------------------------------------------------
  // CMAC: the last block takes subkey K1 (complete) or K2 (padded), so it waits for L
  assign m_last      = cmac_i && !(Parts && mid_i) && (mreq_left_q == 32'd1);
  assign subkey      = k2_q ? dbl(dbl(h_i)) : dbl(h_i);
  assign req_valid_o = active_i && cbc_i && (mb_cnt != '0) && (!m_busy_q || m_rsp) &&
                       (!m_last || h_ok_i);
  assign req_data_o  = (m_rsp ? rsp_data_i : y_q) ^ mb_head ^ (m_last ? subkey : '0);
  assign m_fire      = req_valid_o && req_ready_i;

  // ------------------------------------------------------------------------------
  // GHASH (GCM)
  // ------------------------------------------------------------------------------
  // the hash the next block is combined with: the product finishing now, or y_q; a
  // finishing J0 product restarts the hash at 0 (a MIDDLE / LAST part: at its state)
  assign gh_y     = gh_done ? (gj0_q ? y_j0 : gh_z) : y_q;

  // the hash after J0: 0, or (a MIDDLE / LAST part) the earlier parts' state
  if (Parts) begin : g_parts
    logic [127:0] yc_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin : yc_reg
      if (!rst_ni)     yc_q <= '0;
      else if (load_i) yc_q <= yc_i;
    end
    assign y_j0 = yc_q;
  end else begin : g_no_parts
    logic unused_parts;
    assign unused_parts = ^{yc_i, y0_i, mid_i};
    assign y_j0 = '0;
  end
  assign gh_start = active_i && gcm_i && h_ok_i && (mb_cnt != '0) && gh_ready;

  if (Ghash) begin : g_ghash
    ak_gf128_mul #(.DigitBits(GhashDigitBits)) u_ghash (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .start_i (gh_start),
      .ready_o (gh_ready),
      .a_i     (gh_y ^ mb_head),
      .b_i     (h_i),
      .done_o  (gh_done),
      .z_o     (gh_z)
    );
  end else begin : g_no_ghash
    assign gh_ready = 1'b0;
    assign gh_done  = 1'b0;
    assign gh_z     = '0;
  end

  // ------------------------------------------------------------------------------
  // MAC FIFO
  // ------------------------------------------------------------------------------
  assign mb_pop = m_fire || gh_start;
  if (CbcMac || Ghash) begin : g_mb
    logic mb_valid;
    ak_fifo #(.Width(128), .Depth(FifoDepth), .GateEmpty(1'b0)) u_mb (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .clr_i   (1'b0),
      .push_i  (push_i),
      .data_i  (mb_push_data),
      .pop_i   (mb_pop),
      .hold_i    (1'b0),
      .release_i (1'b0),
      .drop_i    (1'b0),
      .valid_o (mb_valid),
      .full_o  (mb_full),
      .data_o  (mb_head),
      .count_o (mb_cnt)
    );
    logic unused_mb;
    assign unused_mb = mb_valid;  // (mb_cnt != 0 is used instead)
  end else begin : g_no_mb
    assign mb_full = 1'b0;
    assign mb_head = '0;
    assign mb_cnt  = '0;
    logic unused_mb;
    assign unused_mb = ^{mb_pop, push_i, mb_push_data};  // no MAC flow is built
  end

  assign full_o     = mb_full;
  assign count_o    = mb_cnt;
  assign gh_start_o = gh_start;
  assign j0_valid_o = gh_done && gj0_q;
  assign j0_o       = gh_z;
  assign busy_o     = m_busy_q;
  assign mac_z_o    = mac_z_q;
  assign y_o        = y_q;

  // ------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------
  always_comb begin : mac_state
    y_d         = y_q;
    m_busy_d    = m_busy_q;
    mac_left_d  = mac_left_q;
    mac_z_d     = mac_z_q;
    mreq_left_d = mreq_left_q;
    k2_d        = k2_q;
    giv_left_d  = giv_left_q;
    gj0_d       = gj0_q;
    if (load_i) begin
      y_d         = Parts ? y0_i : '0;
      m_busy_d    = 1'b0;
      mac_left_d  = blocks_i;
      mac_z_d     = 1'b0;  // (blocks_i >= 1)
      mreq_left_d = blocks_i;
      k2_d        = k2_i;
      giv_left_d  = giv_blocks_i;
      gj0_d       = 1'b0;
    end else if (run_i) begin
      // CBC-MAC lane
      if (m_rsp) begin
        y_d        = rsp_data_i;
        m_busy_d   = 1'b0;
        mac_left_d = mac_left_q - 32'd1;
        mac_z_d    = (mac_left_q == 32'd1);
      end
      if (m_fire) begin
        m_busy_d    = 1'b1;
        mreq_left_d = mreq_left_q - 32'd1;
      end
      // GHASH
      if (gh_done) begin
        mac_left_d = mac_left_q - 32'd1;
        mac_z_d    = (mac_left_q == 32'd1);
        m_busy_d   = 1'b0;
        y_d        = gh_y;
      end
      if (gh_start) begin
        m_busy_d = 1'b1;
        gj0_d    = (giv_left_q == 32'd1);
        if (giv_left_q != 32'd0) giv_left_d = giv_left_q - 32'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : mac_regs
    if (!rst_ni) begin
      y_q         <= '0;
      m_busy_q    <= 1'b0;
      mac_left_q  <= 32'd0;
      mac_z_q     <= 1'b1;
      mreq_left_q <= 32'd0;
      k2_q        <= 1'b0;
      giv_left_q  <= 32'd0;
      gj0_q       <= 1'b0;
    end else begin
      y_q         <= y_d;
      m_busy_q    <= m_busy_d;
      mac_left_q  <= mac_left_d;
      mac_z_q     <= mac_z_d;
      mreq_left_q <= mreq_left_d;
      k2_q        <= k2_d;
      giv_left_q  <= giv_left_d;
      gj0_q       <= gj0_d;
    end
  end

`ifndef SYNTHESIS
  // mac_z_q is mac_left_q == 0, every cycle from the first reset on
  logic reset_seen_q = 1'b0;

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : flag_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if (mac_z_q != (mac_left_q == 32'd0))
        $error("ak_mode_mac: mac_z_q %b, mac_left_q %0d", mac_z_q, mac_left_q);
    end
  end
`endif

endmodule

`default_nettype wire
