// ak_mode_ctrl: the control of a mode-engine stream (ak_mode_stream): the message
// state (idle, running, status), the registered mode and direction, the byte/bit
// counters of the message's input parts with their registered flags, the data lane's
// block bookkeeping (H / L, S0, payload blocks in the core, room in the output FIFO)
// and the end-of-message and tag verdict. It holds no 128-bit value: it drives the
// handshakes (command, input, status, lane 0's request, the XTS tweak key), and
// emits only enables, strobes and typed selects (ak_mode_pkg) to the datapath
// (ak_mode_data), the MAC unit (ak_mode_mac) and the XTS unit (ak_mode_xts).
//
// Latency: the handshakes and selects are combinational from the registers, the
// FIFOs' registered flags and the responses leaving the core now; a chained flow's
// next request is offered in the cycle its previous result leaves. The data lane's
// request starts at flip-flops (room_q, lim_ok_q, lim_ok1_q: the output FIFO's room
// and the lane's limit, computed a cycle ahead from the next counts). Byte order: not
// applicable (no data here).
//
// Parameters: Modes (9'h1ff): the modes built (bit m: mode code m; a mode left out
//             is constant 0 in the mode register, so its control folds away);
//             InFlight (2): the independent flows' limit of data-lane blocks in the
//             core (the output FIFO holds InFlight + 2); MacDepth (3): the MAC FIFO's
//             blocks; PlainStream (0): 1 runs ECB, CBC, CTR, CFB and OFB messages as
//             streams: the next payload beat is taken in the cycle the waiting one is
//             sent (in_ready_o then depends on the core's request handshake), so an
//             independent flow reaches one block per cycle, and a command offered
//             while such a message runs and still takes input extends it by its
//             msg_len bytes (cmd_ready_o high then; its other fields are ignored),
//             so a producer that learns the length as the data comes never drains the
//             core between parts; 0: a beat only while none waits (at most one block
//             every two cycles), a command only while idle.
//             Parts (0): 1 builds messages in parts (GCM, CMAC: a FIRST or
//             MIDDLE part ends with the MAC state as its tag beat, takes no tag, and
//             CMAC's skips L; 0 folds it away).

`default_nettype none

module ak_mode_ctrl #(
  parameter logic [8:0] Modes    = 9'h1ff,
  parameter int         InFlight = 2,
  parameter int         MacDepth = 3,
  parameter bit         PlainStream = 1'b0,
  parameter bit         Parts    = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // command
  input  logic         cmd_valid_i,
  output logic         cmd_ready_o,
  input  logic         cmd_decrypt_i,
  input  logic [4:0]   cmd_tag_len_i,
  input  logic [31:0]  cmd_msg_len_i,
  // ... checked and decoded (ak_mode_cmd)
  input  logic         c_err_i,
  input  logic [8:0]   c_mode_i,
  input  logic         c_p6_i,
  input  logic         c_iv12_i,
  input  logic         c_tag_in_i,
  input  logic         c_pay_none_i,
  input  logic [31:0]  c_iv_bytes_i,
  input  logic [31:0]  c_aad_bytes_i,
  input  logic [31:0]  c_msg_left_i,
  input  logic [31:0]  c_pay_beats_i,
  input  logic         c_mid_i,        // a FIRST or MIDDLE part (GCM, CMAC)
  // input beats
  input  logic         in_valid_i,
  output logic         in_ready_o,
  output logic [4:0]   in_n_o,         // bytes of the beat
  output logic [7:0]   in_nb_o,        // bits of the beat (XTS)
  output logic         in_bits_o,      // the beat is counted in bits (XTS)
  // status
  output logic         sts_valid_o,
  input  logic         sts_ready_i,
  output logic         sts_pass_o,
  output logic         sts_error_o,
  output logic         idle_o,
  // XTS: the tweak E_K2(i) needs K2 in the core
  output logic         tk_req_o,
  input  logic         tk_gnt_i,
  // lane 0
  output logic         req_valid_o,
  input  logic         req_ready_i,
  output logic         req_decrypt_o,
  input  logic         rsp_valid_i,
  // datapath (ak_mode_data)
  output logic         load_o,         // a command is taken
  output logic         nxt_we_o,
  output logic         rtag_we_o,
  output logic         carry_we_o,
  output logic         p6_o,
  output logic         h_we_o,
  output logic         s0_we_o,
  output ak_mode_pkg::chain_sel_e      chain_sel_o,
  output ak_mode_pkg::chain_next_sel_e next_sel_o,
  output logic         rsp_xor_o,
  output logic         bypass_o,
  output ak_mode_pkg::res_sel_e        res_sel_o,
  output ak_mode_pkg::req_sel_e        req_sel_o,
  output logic         op_push_o,
  output ak_mode_pkg::op_sel_e         op_sel_o,
  output logic         op_hold_o,
  output logic         op_fin_o,
  output logic         op_pop_o,
  input  logic         op_hold_i,      // the oldest block in the core is XTS's held one
  output logic [4:0]   tlen_o,
  input  logic         tag_ok_i,
  output logic         out_push_o,
  output ak_mode_pkg::out_sel_e        out_sel_o,
  input  logic         out_pop_i,      // an output beat leaves now
  input  logic [$clog2(InFlight + 3)-1:0] out_count_i,
  // MAC unit (ak_mode_mac)
  output logic         mac_run_o,
  output logic         mac_active_o,
  output logic         mac_cbc_o,
  output logic         mac_cmac_o,
  output logic         mac_gcm_o,
  output logic         mac_mid_o,      // a FIRST or MIDDLE part: no CMAC subkey
  output logic         h_ok_o,
  output logic         mb_push_o,
  output ak_mode_pkg::mac_in_sel_e     mb_sel_o,
  input  logic         mb_full_i,
  input  logic [$clog2(MacDepth + 1)-1:0] mb_count_i,
  input  logic         gh_start_i,
  input  logic         j0_valid_i,
  input  logic         mac_busy_i,
  input  logic         mac_z_i,
  // XTS unit (ak_mode_xts)
  output logic         xts_o,
  output logic         dec_o,
  output logic         x_take_o,
  output logic [31:0]  x_left_o,       // payload bits left after the beat taken
  output logic         x_sent_o,
  output logic         x_rsp_o,
  output logic         x_head_out_o,
  input  logic         x_hold_i,
  input  logic         x_fin_i,
  input  logic         x_held_ok_i,
  input  logic         x_head_due_i
);

  import ak_mode_pkg::*;

  // output FIFO depth, and the width of every count of blocks in the core or the FIFOs
  localparam int OfDepth = InFlight + 2;
  localparam int CntW    = $clog2(OfDepth + 2);

  typedef enum logic [1:0] {
    StIdle,  // waiting for a command
    StRun,   // taking beats, running the flows
    StSts    // all beats out: present the status
  } st_e;

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  st_e          st_q, st_d;
  logic [8:0]   om_q, om_d;          // the message's mode, one-hot (bit = mode code)
  logic         dec_q, dec_d;
  logic         err_q, err_d;
  logic         pass_q, pass_d;
  logic [4:0]   tlen_q, tlen_d;
  logic         p6_q, p6_d;            // CCM AAD length prefix is 6 bytes (else 2)
  logic [31:0]  aad_left_q, aad_left_d;  // AAD bytes still to come in
  logic [31:0]  msg_left_q, msg_left_d;  // payload bytes still to come in
  logic         rtag_need_q, rtag_need_d;  // CCM decryption: tag beat still to come
  logic [31:0]  pay_left_q, pay_left_d;  // payload beats whose result is not yet out
  logic         flush_q, flush_d;      // CCM: the last formatted AAD block is pending
  logic [31:0]  iv_left_q, iv_left_d;  // GCM: IV bytes still to come in (IV not 12 bytes)
  logic         ivlen_need_q, ivlen_need_d;  // GCM: the IV's length block not yet pushed
  logic         glen_need_q, glen_need_d;    // GCM: the final length block not yet pushed
  logic         mid_q, mid_d;          // a FIRST or MIDDLE part: its state is output
                                       // as the tag beat, no tag compare (Parts only)
  logic         is_mid;

  // data lane
  logic         nxt_v_q, nxt_v_d;      // next beat, waiting for its request
  logic [CntW-1:0] d_cnt_q, d_cnt_d;   // data-lane blocks in the core (S0 included)
  logic         s0_need_q, s0_need_d;  // CCM: E(Ctr0), GCM: E(J0) not yet requested
  logic         s0_fly_q, s0_fly_d;    // ... it is the oldest block in the core (after H)
  logic         h_need_q, h_need_d;    // GCM: H = E(0), CMAC: L = E(0) not yet requested
  logic         h_fly_q, h_fly_d;      // ... it is the oldest block in the core
  logic         h_ok_q, h_ok_d;        // ... it is back, in the datapath's H register
  logic         j0_ok_q, j0_ok_d;      // GCM: J0 is known (in the chaining register
                                       // until S0 is sent)

  logic [CntW-1:0] of_cnt_q;           // output FIFO entries (zero-extended)
  logic         cmd_fire, in_fire, sts_fire;
  logic         is_ecb, is_cbc, is_cfb, is_ofb;  // (CTR: none of the others)
  logic         is_ccm, is_gcm, is_cmac, is_xts, has_tag, chained_ok;
  logic         in_iv, in_aad, in_pay, in_tag;  // kind of the next input beat
  logic [4:0]   in_n;
  logic [7:0]   in_nb;                 // XTS: bits of the beat (1..128)
  logic [31:0]  x_left_after;          // XTS: payload bits left after this beat
  // Kept beside the byte and bit counters, so that no path starts with a 32-bit compare
  // or a beat-size selection; each equals the expression given, every cycle (checked
  // in simulation), and is updated with its counter from values of registers only
  logic         iv_nz_q, iv_nz_d;      // iv_left_q != 0
  logic         aad_nz_q, aad_nz_d;    // aad_left_q != 0
  logic         msg_nz_q, msg_nz_d;    // msg_left_q != 0
  logic [4:0]   iv_n_q, iv_n_d;        // beat_bytes(iv_left_q)
  logic [4:0]   aad_n_q, aad_n_d;      // beat_bytes(aad_left_q)
  logic [4:0]   msg_n_q, msg_n_d;      // beat_bytes(msg_left_q)
  logic [7:0]   msg_nb_q, msg_nb_d;    // beat_bits(msg_left_q) (XTS)
  logic         pay_z_q, pay_z_d;      // pay_left_q == 0
  logic [31:0]  iv_after, aad_after, msg_after;  // a counter after a beat of its part
  logic         d_rsp, d_fire;
  logic         d_rsp_pay;             // a payload result leaves the core now
  logic         chained;               // the next block needs this block's result
  logic [CntW-1:0] d_lim;              // data-lane blocks allowed in the core
  // Kept in registers, so that the data lane's request starts at flip-flops and not at
  // the counters' adders and compares (each equals the expression given, every cycle;
  // checked in simulation): room for one more result in the output FIFO, and room for
  // one more block in the core (without / with a result leaving now)
  logic         room_q, room_d;        // of_cnt_q + d_cnt_q < OfDepth
  logic         lim_ok_q, lim_ok_d;    // d_cnt_q < d_lim
  logic         lim_ok1_q, lim_ok1_d;  // d_cnt_q <= d_lim
  logic [CntW-1:0] of_cnt_nx;          // of_cnt_q after this cycle's push and pop
  logic         mb_push;
  mac_in_sel_e  mb_sel;                // the source of the MAC block pushed
  logic         of_push;
  out_sel_e     of_sel;
  logic         ccm_done;
  logic         glen_push, ivlen_push;   // a length block may be pushed
  logic         glen_taken, ivlen_taken; // ... and is pushed now

  // ------------------------------------------------------------------------------
  // Handshakes
  // ------------------------------------------------------------------------------
  // (a mode the build leaves out is constant 0 here: its logic folds away)
  assign is_ecb      = Modes[0] && om_q[0];
  assign is_cbc      = Modes[1] && om_q[1];
  assign is_cfb      = Modes[3] && om_q[3];
  assign is_ofb      = Modes[4] && om_q[4];
  assign is_ccm      = Modes[5] && om_q[5];
  assign is_gcm      = Modes[6] && om_q[6];
  assign is_cmac     = Modes[7] && om_q[7];
  assign is_xts      = Modes[8] && om_q[8];
  assign has_tag     = is_ccm || is_gcm || is_cmac;
  assign is_mid      = Parts && mid_q;
  // PlainStream: a command while a plain message runs and still takes input extends
  // it (ext_fire); a command while idle starts one (cmd_fire)
  logic ext_ok, ext_fire;
  assign ext_ok      = PlainStream && (st_q == StRun) && !err_q && !has_tag && !is_xts &&
                       msg_nz_q;
  assign cmd_ready_o = (st_q == StIdle) || ext_ok;
  assign cmd_fire    = cmd_valid_i && (st_q == StIdle);
  assign ext_fire    = cmd_valid_i && ext_ok;
  assign idle_o      = (st_q == StIdle);
  assign tk_req_o    = (st_q == StRun) && !err_q && is_xts && h_need_q;

  assign in_iv  = iv_nz_q;
  assign in_aad = !in_iv && aad_nz_q;
  assign in_pay = !in_iv && !in_aad && msg_nz_q;
  assign in_tag = !in_iv && !in_aad && !in_pay && rtag_need_q;
  assign in_n   = in_iv ? iv_n_q : in_aad ? aad_n_q : in_tag ? tlen_q : msg_n_q;
  assign in_nb  = msg_nb_q;
  assign x_left_after = msg_left_q - {24'd0, in_nb};
  assign iv_after     = iv_left_q - {27'd0, iv_n_q};
  assign aad_after    = aad_left_q - {27'd0, aad_n_q};
  assign msg_after    = is_xts ? x_left_after : msg_left_q - {27'd0, msg_n_q};

  // PlainStream: the waiting payload beat of a plain mode (no MAC, no XTS) is sent now,
  // so the next one may take its place (the data lane's request of a plain mode,
  // from its registered flags, and the core's ready)
  logic refill;
  assign refill = PlainStream && !has_tag && !is_xts && (st_q == StRun) && !err_q && nxt_v_q &&
                  room_q && (d_rsp ? lim_ok1_q : lim_ok_q) && req_ready_i;

  always_comb begin : input_ready
    in_ready_o = 1'b0;
    if (st_q == StRun) begin
      if (err_q)       in_ready_o = in_iv || in_aad || in_pay || in_tag;  // drop the beats
      else if (in_iv)  in_ready_o = (!mb_full_i);
      else if (in_aad) in_ready_o = (!mb_full_i) && !ivlen_need_q;
      else if (in_pay && is_cmac) in_ready_o = (!mb_full_i);
      else if (in_pay) in_ready_o = (!nxt_v_q || refill) && !flush_q && !ivlen_need_q &&
                                    (!((is_ccm && !dec_q) || (is_gcm && dec_q)) ||
                                     (!mb_full_i));
      else if (in_tag) in_ready_o = 1'b1;
    end
  end
  assign in_fire = in_valid_i && in_ready_o;

  // the status waits for the last output beat of its message to leave
  assign of_cnt_q    = CntW'(out_count_i);
  assign sts_valid_o = (st_q == StSts) && (of_cnt_q == '0);
  assign sts_pass_o  = pass_q;
  assign sts_error_o = err_q;
  assign sts_fire    = sts_valid_o && sts_ready_i;

  // ------------------------------------------------------------------------------
  // Data lane
  // ------------------------------------------------------------------------------
  assign d_rsp     = rsp_valid_i;
  assign d_rsp_pay = d_rsp && !s0_fly_q && !h_fly_q;

  // Chained flows (CBC and CFB encryption, OFB) need a block's result for the next
  // block: one block in the core, the chaining value is updated when the result
  // leaves and bypassed into the next request in the same cycle. The other flows
  // (ECB, CBC and CFB decryption, CTR) update it when a block is sent and keep up to
  // InFlight blocks in the core (two by default, so one stream fills a two-block
  // core); GCM and XTS two; CCM's CTR lane keeps one (the CBC-MAC lane is the other).
  assign chained = is_ofb || ((is_cbc || is_cfb) && !dec_q);
  assign d_lim   = (chained || is_ccm) ? CntW'(1) : (is_gcm || is_xts) ? CntW'(2) :
                   CntW'(InFlight);

  // the datapath's selects of the message's mode: the result of a payload block, the
  // chained value (CFB: the ciphertext), the chaining value after a block is sent, the
  // XOR operand kept with a block
  always_comb begin : data_selects
    res_sel_o  = ResMasked;   // CTR, CFB, OFB, CCM, GCM
    next_sel_o = NextInc;     // CTR, CCM (and S0)
    op_sel_o   = OpBeat;
    if (is_ecb) begin
      res_sel_o  = ResPlain;
      next_sel_o = NextHold;
    end
    if (is_cbc) begin
      res_sel_o  = dec_q ? ResXor : ResPlain;
      next_sel_o = NextBeat;  // decryption: this ciphertext
      op_sel_o   = OpChain;
    end
    if (is_cfb) next_sel_o = NextBeat;
    // S0 = E(J0), then inc32 (a MIDDLE / LAST part: inc32 past the earlier parts'
    // blocks once, when S0 is sent)
    if (is_gcm) next_sel_o = (Parts && s0_need_q) ? NextInc32Skip : NextInc32;
    if (is_xts) begin
      res_sel_o  = ResXor;    // whole blocks
      next_sel_o = NextTweak;
      op_sel_o   = OpTweak;
    end
  end
  assign rsp_xor_o = is_cfb;
  assign bypass_o  = chained && d_rsp;

  // a new data-lane block: H (GCM) or L (CMAC) first, S0 (CCM; GCM once J0 is
  // known), then one per payload beat; room for its result in the output FIFO (and,
  // CCM decryption / GCM encryption, for it in the MAC FIFO)
  always_comb begin : data_request
    req_valid_o = 1'b0;
    if (st_q == StRun && !err_q && (d_rsp ? lim_ok1_q : lim_ok_q)) begin
      if (h_need_q) begin
        req_valid_o = !is_xts || tk_gnt_i;  // XTS: while K2 is in the core
      end else if (s0_need_q) begin
        req_valid_o = !is_gcm || j0_ok_q;
      end else if (nxt_v_q && is_xts) begin
        // XTS: T_0 is back; the final block waits for the held result and room for
        // its result and the held head
        req_valid_o = h_ok_q && (!x_fin_i || x_held_ok_i) &&
                      ({1'b0, of_cnt_q} + {1'b0, d_cnt_q} + (CntW+1)'(x_fin_i) <
                       (CntW+1)'(OfDepth));
      end else if (nxt_v_q) begin
        // (GCM: a block GHASH takes from the MAC FIFO now frees its place)
        req_valid_o = room_q &&
                      (!((is_ccm && dec_q) || (is_gcm && !dec_q)) ||
                       ((CntW+1)'(mb_count_i) - (CntW+1)'(gh_start_i) + {1'b0, d_cnt_q} <
                        (CntW+1)'(MacDepth)));
      end
    end
  end

  always_comb begin : data_request_sel
    req_decrypt_o = 1'b0;
    req_sel_o     = ReqChain;  // CTR, CFB, OFB, CCM, GCM: E(chaining value)
    if (is_ecb) begin
      req_sel_o     = ReqBeat;
      req_decrypt_o = dec_q;
    end
    if (is_cbc) begin
      req_sel_o     = dec_q ? ReqBeat : ReqBeatChain;
      req_decrypt_o = dec_q;
    end
    if (is_xts) begin
      req_sel_o     = ReqXts;  // (the final block: its bits || the held result's tail)
      req_decrypt_o = dec_q;
    end
    // GCM's H, CMAC's L: E(0^128); XTS's tweak E_K2(i), encrypting with K2
    if (h_need_q) begin
      req_sel_o     = is_xts ? ReqTweakIn : ReqZero;
      req_decrypt_o = 1'b0;
    end
  end
  assign d_fire = req_valid_o && req_ready_i;

  // the XOR operand of a payload block goes with it into the core
  assign op_push_o = d_fire && !s0_need_q && !h_need_q;
  assign op_hold_o = is_xts && x_hold_i;
  assign op_fin_o  = is_xts && x_fin_i;
  assign op_pop_o  = d_rsp_pay;

  // ------------------------------------------------------------------------------
  // MAC unit: its mode, and the blocks pushed into its FIFO
  // ------------------------------------------------------------------------------
  assign mac_run_o    = (st_q == StRun);
  assign mac_active_o = (st_q == StRun) && !err_q;
  assign mac_cbc_o    = is_ccm || is_cmac;
  assign mac_cmac_o   = is_cmac;
  assign mac_gcm_o    = is_gcm;
  assign mac_mid_o    = is_mid;
  assign h_ok_o       = h_ok_q;

  // GCM's length blocks: the IV's after its last beat, the final one after the last
  // ciphertext block (encryption: when its result has left the core)
  assign ivlen_push = ivlen_need_q && !in_iv && (!mb_full_i);
  assign glen_push  = glen_need_q && !ivlen_need_q && !in_iv && !in_aad &&
                      !msg_nz_q && (dec_q || pay_z_q) &&
                      (!mb_full_i);

  // at most one MAC block is pushed per cycle (CCM: B0, AAD, the AAD flush, then
  // payload; GCM: IV, its length, AAD, ciphertext, length; CMAC: the message)
  always_comb begin : mac_push
    mb_push      = 1'b0;
    mb_sel       = MacInBeat;
    ivlen_taken  = 1'b0;
    glen_taken   = 1'b0;
    if (cmd_fire && !c_err_i && Modes[5] && c_mode_i[5]) begin
      mb_push      = 1'b1;
      mb_sel       = MacInB0;
    end else if (cmd_fire && !c_err_i && Modes[7] && c_mode_i[7] &&
                 cmd_msg_len_i == 32'd0) begin
      mb_push      = 1'b1;
      mb_sel       = MacInEmpty;  // the empty message, padded
    end else if (st_q == StRun && !err_q && is_cmac) begin
      if (in_fire && in_pay) begin
        mb_push      = 1'b1;
        mb_sel       = MacInCmac;  // (padded when short)
      end
    end else if (st_q == StRun && !err_q && is_gcm) begin
      if (in_fire && (in_iv || in_aad || (in_pay && dec_q))) begin
        mb_push      = 1'b1;
        mb_sel       = MacInBeat;
      end else if (ivlen_push) begin
        mb_push      = 1'b1;
        mb_sel       = MacInIvLen;
        ivlen_taken  = 1'b1;
      end else if (d_rsp_pay && !dec_q) begin
        mb_push      = 1'b1;
        mb_sel       = MacInResult;
      end else if (glen_push) begin
        mb_push      = 1'b1;
        mb_sel       = MacInLen;
        glen_taken   = 1'b1;
      end
    end else if (st_q == StRun && !err_q && is_ccm) begin
      if (in_fire && in_aad) begin
        mb_push      = 1'b1;
        mb_sel       = MacInAad;
      end else if (flush_q && !in_aad && !mb_full_i) begin
        mb_push      = 1'b1;
        mb_sel       = MacInAadFlush;
      end else if (in_fire && in_pay && !dec_q) begin
        mb_push      = 1'b1;
        mb_sel       = MacInBeat;
      end else if (d_rsp_pay && dec_q) begin
        mb_push      = 1'b1;
        mb_sel       = MacInResult;
      end
    end
  end
  assign mb_push_o = mb_push;
  assign mb_sel_o  = mb_sel;

  // ------------------------------------------------------------------------------
  // XTS unit: its strobes
  // ------------------------------------------------------------------------------
  assign xts_o        = is_xts;
  assign dec_o        = dec_q;
  assign x_take_o     = (st_q == StRun) && in_fire && in_pay;
  assign x_left_o     = x_left_after;
  assign x_sent_o     = (st_q == StRun) && d_fire && !h_need_q && !s0_need_q;
  assign x_rsp_o      = (st_q == StRun) && d_rsp_pay;
  assign x_head_out_o = (st_q == StRun) && x_head_due_i && of_push && !d_rsp_pay;

  // ------------------------------------------------------------------------------
  // Output FIFO: payload results, then the tag
  // ------------------------------------------------------------------------------
  assign ccm_done = has_tag && mac_z_i && !mac_busy_i && pay_z_q &&
                    !s0_need_q && !h_need_q && (d_cnt_q == '0);

  always_comb begin : out_push
    of_push = 1'b0;
    of_sel  = OutResult;
    if (st_q == StRun && !err_q) begin
      if (d_rsp_pay && !(is_xts && op_hold_i)) begin
        of_push = 1'b1;  // (XTS: a held result is not output now)
      end else if (x_head_due_i) begin
        of_push = 1'b1;  // XTS: the held result's head, the partial last beat
        of_sel  = OutHead;
      end else if (chained_ok && ccm_done && (!dec_q || is_mid) &&
                   of_cnt_q != CntW'(OfDepth)) begin
        of_push = 1'b1;
        of_sel  = is_mid ? OutState : OutTag;  // FIRST, MIDDLE: the MAC state
      end
    end
  end
  assign out_push_o = of_push;
  assign out_sel_o  = of_sel;

  // ------------------------------------------------------------------------------
  // Datapath registers: enables and the chaining register's select
  // ------------------------------------------------------------------------------
  assign load_o     = cmd_fire;
  assign nxt_we_o   = (st_q == StRun) && in_fire && in_pay;
  assign rtag_we_o  = (st_q == StRun) && in_fire && !in_iv && !in_aad && !in_pay;
  assign carry_we_o = (st_q == StRun) && in_fire && !in_iv && in_aad && is_ccm;
  assign p6_o       = p6_q;
  assign h_we_o     = (st_q == StRun) && d_rsp && h_fly_q;
  assign s0_we_o    = (st_q == StRun) && d_rsp && !h_fly_q && s0_fly_q;
  assign tlen_o     = tlen_q;
  assign in_n_o     = in_n;
  assign in_nb_o    = in_nb;
  assign in_bits_o  = is_xts;

  // (later assignments take precedence, in the order of the message's updates)
  always_comb begin : chain_select
    chain_sel_o = ChainHold;
    if (cmd_fire) begin
      chain_sel_o = ChainLoad;
    end else if (st_q == StRun) begin
      if (d_rsp && chained) chain_sel_o = ChainRsp;
      if (d_rsp && h_fly_q && is_xts) chain_sel_o = ChainT0;  // T_0 = E_K2(i)
      if (d_fire && !h_need_q && !chained) chain_sel_o = ChainNext;
      if (j0_valid_i) chain_sel_o = ChainJ0;  // GCM, IV not 12 bytes: J0 from GHASH
    end
  end

  // ------------------------------------------------------------------------------
  // Message state
  // ------------------------------------------------------------------------------
  // every beat is in and every result is out (CCM: the tag too, or it was compared)
  assign chained_ok = !iv_nz_q && !aad_nz_q && !msg_nz_q && !rtag_need_q && !x_head_due_i &&
                      (err_q || (pay_z_q && (d_cnt_q == '0) && !s0_need_q &&
                                 !h_need_q && (!is_ccm || !flush_q)));

  always_comb begin : message
    st_d         = st_q;
    om_d         = om_q;
    dec_d        = dec_q;
    err_d        = err_q;
    pass_d       = pass_q;
    tlen_d       = tlen_q;
    p6_d         = p6_q;
    aad_left_d   = aad_left_q;
    msg_left_d   = msg_left_q;
    rtag_need_d  = rtag_need_q;
    pay_left_d   = pay_left_q;
    flush_d      = flush_q;
    nxt_v_d      = nxt_v_q;
    d_cnt_d      = d_cnt_q;
    s0_need_d    = s0_need_q;
    s0_fly_d     = s0_fly_q;
    iv_left_d    = iv_left_q;
    iv_nz_d      = iv_nz_q;
    aad_nz_d     = aad_nz_q;
    msg_nz_d     = msg_nz_q;
    iv_n_d       = iv_n_q;
    aad_n_d      = aad_n_q;
    msg_n_d      = msg_n_q;
    msg_nb_d     = msg_nb_q;
    pay_z_d      = pay_z_q;
    ivlen_need_d = ivlen_need_q;
    glen_need_d  = glen_need_q;
    mid_d        = mid_q;
    h_need_d     = h_need_q;
    h_fly_d      = h_fly_q;
    h_ok_d       = h_ok_q;
    j0_ok_d      = j0_ok_q;

    unique case (st_q)
      StIdle: begin
        if (cmd_fire) begin
          st_d         = StRun;
          om_d         = c_mode_i & Modes;
          dec_d        = cmd_decrypt_i;
          err_d        = c_err_i;
          pass_d       = !c_err_i;
          tlen_d       = cmd_tag_len_i;
          p6_d         = c_p6_i;
          aad_left_d   = c_aad_bytes_i;
          msg_left_d   = c_msg_left_i;
          rtag_need_d  = c_tag_in_i;
          pay_left_d   = c_pay_beats_i;
          flush_d      = 1'b0;
          nxt_v_d      = 1'b0;
          d_cnt_d      = '0;
          s0_need_d    = (c_mode_i[5] || c_mode_i[6]) && !c_err_i;
          s0_fly_d     = 1'b0;
          // GCM and CMAC
          iv_left_d    = c_iv_bytes_i;
          ivlen_need_d = c_mode_i[6] && !c_iv12_i && !c_err_i;
          mid_d        = Parts && c_mid_i && !c_err_i;
          glen_need_d  = c_mode_i[6] && !c_err_i && !mid_d;
          // (CMAC's FIRST and MIDDLE parts use no subkey: no L)
          h_need_d     = (c_mode_i[6] || (c_mode_i[7] && !mid_d) || c_mode_i[8]) &&
                         !c_err_i;
          h_fly_d      = 1'b0;
          h_ok_d       = 1'b0;
          j0_ok_d      = c_iv12_i;
          // the counters' flags, from the values loaded
          iv_nz_d      = (iv_left_d != 32'd0);
          aad_nz_d     = (aad_left_d != 32'd0);
          msg_nz_d     = (msg_left_d != 32'd0);
          iv_n_d       = beat_bytes(iv_left_d);
          aad_n_d      = beat_bytes(aad_left_d);
          msg_n_d      = beat_bytes(msg_left_d);
          msg_nb_d     = beat_bits(msg_left_d);
          pay_z_d      = c_pay_none_i;  // (from the lengths: ak_mode_cmd)
        end
      end

      StRun: begin
        // input beats
        if (in_fire) begin
          if (in_iv) begin
            iv_left_d = iv_after;
            iv_nz_d   = (iv_after != 32'd0);
            iv_n_d    = beat_bytes(iv_after);
          end else if (in_aad) begin
            aad_left_d = aad_after;
            aad_nz_d   = (aad_after != 32'd0);
            aad_n_d    = beat_bytes(aad_after);
            // (CCM: the datapath keeps the beat's last bytes, carry_we_o)
            // the last AAD beat: one more block if prefix + its bytes exceed 16
            if (is_ccm && (aad_left_q <= 32'd16))
              flush_d = ({1'b0, in_n} + (p6_q ? 6'd6 : 6'd2)) > 6'd16;
          end else if (in_pay) begin
            msg_left_d = msg_after;
            msg_nz_d   = (msg_after != 32'd0);
            msg_n_d    = beat_bytes(msg_after);
            msg_nb_d   = beat_bits(msg_after);
            nxt_v_d    = !err_q && !is_cmac;  // CMAC: the beat goes to the MAC FIFO only
          end else begin
            rtag_need_d = 1'b0;  // (the datapath takes the tag, rtag_we_o)
          end
        end
        if (mb_push && flush_q && !in_aad) flush_d = 1'b0;
        if (ivlen_taken) ivlen_need_d = 1'b0;
        if (glen_taken)  glen_need_d  = 1'b0;

        // data lane (the chaining register: chain_select)
        if (d_rsp) begin
          if (h_fly_q) begin
            h_ok_d  = 1'b1;
            h_fly_d = 1'b0;
          end else if (s0_fly_q) begin
            s0_fly_d = 1'b0;
          end else begin
            pay_left_d = pay_left_q - 32'd1;
            pay_z_d    = (pay_left_q == 32'd1);
          end
        end
        if (d_fire) begin
          if (h_need_q) begin
            h_need_d = 1'b0;
            h_fly_d  = 1'b1;
          end else if (s0_need_q) begin
            s0_need_d = 1'b0;
            s0_fly_d  = 1'b1;
          end else if (!(in_fire && in_pay)) begin
            nxt_v_d = 1'b0;  // (PlainStream: a beat taken now waits in its place)
          end
        end
        d_cnt_d = d_cnt_q - CntW'(d_rsp) + CntW'(d_fire);

        // PlainStream: the message extended by cmd_msg_len_i bytes (after this
        // cycle's beat, so the message never ends between its parts)
        if (ext_fire) begin
          msg_left_d = msg_left_d + cmd_msg_len_i;
          msg_nz_d   = (msg_left_d != 32'd0);
          msg_n_d    = beat_bytes(msg_left_d);
          msg_nb_d   = beat_bits(msg_left_d);
          pay_left_d = pay_left_d + ((cmd_msg_len_i + 32'd15) >> 4);
          pay_z_d    = (pay_left_d == 32'd0);
        end

        // GCM, IV not 12 bytes: J0 from GHASH (ak_mode_mac)
        if (j0_valid_i) j0_ok_d = 1'b1;

        // end of the message
        if (chained_ok) begin
          if (err_q || !has_tag) begin
            st_d = StSts;
          end else if (ccm_done) begin
            if (dec_q && !is_mid) begin
              pass_d = tag_ok_i;
              st_d   = StSts;
            end else if (of_push) begin
              st_d = StSts;  // the tag goes into the output FIFO now
            end
          end
        end
      end

      StSts: begin
        if (sts_fire) st_d = StIdle;
      end

      default: st_d = StIdle;
    endcase
  end

  // the request's flags for the next cycle, from the next counts (d_lim changes only
  // at a command, when d_cnt_d is 0 and both limits hold for any d_lim >= 1)
  always_comb begin : request_flags
    of_cnt_nx = of_cnt_q + CntW'(of_push) - CntW'(out_pop_i);
    room_d    = ({1'b0, of_cnt_nx} + {1'b0, d_cnt_d} < (CntW+1)'(OfDepth));
    lim_ok_d  = (d_cnt_d < d_lim);
    lim_ok1_d = (d_cnt_d <= d_lim);
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : ctrl_regs
    if (!rst_ni) begin
      st_q         <= StIdle;
      om_q         <= '0;
      dec_q        <= 1'b0;
      err_q        <= 1'b0;
      pass_q       <= 1'b0;
      tlen_q       <= 5'd0;
      p6_q         <= 1'b0;
      aad_left_q   <= 32'd0;
      msg_left_q   <= 32'd0;
      rtag_need_q  <= 1'b0;
      pay_left_q   <= 32'd0;
      flush_q      <= 1'b0;
      iv_left_q    <= 32'd0;
      ivlen_need_q <= 1'b0;
      glen_need_q  <= 1'b0;
      mid_q        <= 1'b0;
      iv_nz_q      <= 1'b0;
      aad_nz_q     <= 1'b0;
      msg_nz_q     <= 1'b0;
      iv_n_q       <= 5'd0;
      aad_n_q      <= 5'd0;
      msg_n_q      <= 5'd0;
      msg_nb_q     <= 8'd0;
      pay_z_q      <= 1'b1;
    end else begin
      st_q         <= st_d;
      om_q         <= om_d;
      dec_q        <= dec_d;
      err_q        <= err_d;
      pass_q       <= pass_d;
      tlen_q       <= tlen_d;
      p6_q         <= p6_d;
      aad_left_q   <= aad_left_d;
      msg_left_q   <= msg_left_d;
      rtag_need_q  <= rtag_need_d;
      pay_left_q   <= pay_left_d;
      flush_q      <= flush_d;
      iv_left_q    <= iv_left_d;
      ivlen_need_q <= ivlen_need_d;
      glen_need_q  <= glen_need_d;
      mid_q        <= mid_d;
      iv_nz_q      <= iv_nz_d;
      aad_nz_q     <= aad_nz_d;
      msg_nz_q     <= msg_nz_d;
      iv_n_q       <= iv_n_d;
      aad_n_q      <= aad_n_d;
      msg_n_q      <= msg_n_d;
      msg_nb_q     <= msg_nb_d;
      pay_z_q      <= pay_z_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : lane_regs
    if (!rst_ni) begin
      nxt_v_q   <= 1'b0;
      d_cnt_q   <= '0;
      room_q    <= 1'b1;
      lim_ok_q  <= 1'b1;
      lim_ok1_q <= 1'b1;
      s0_need_q <= 1'b0;
      s0_fly_q  <= 1'b0;
      h_need_q  <= 1'b0;
      h_fly_q   <= 1'b0;
      h_ok_q    <= 1'b0;
      j0_ok_q   <= 1'b0;
    end else begin
      nxt_v_q   <= nxt_v_d;
      d_cnt_q   <= d_cnt_d;
      room_q    <= room_d;
      lim_ok_q  <= lim_ok_d;
      lim_ok1_q <= lim_ok1_d;
      s0_need_q <= s0_need_d;
      s0_fly_q  <= s0_fly_d;
      h_need_q  <= h_need_d;
      h_fly_q   <= h_fly_d;
      h_ok_q    <= h_ok_d;
      j0_ok_q   <= j0_ok_d;
    end
  end

`ifndef SYNTHESIS
  // The counters' flags are the expressions they stand for, every cycle from the
  // first reset on (before it the registers hold whatever they power up with).
  logic reset_seen_q = 1'b0;

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : flag_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if ({iv_nz_q, aad_nz_q, msg_nz_q} !=
          {iv_left_q != 32'd0, aad_left_q != 32'd0, msg_left_q != 32'd0})
        $error("ak_mode_ctrl: nonzero flags %b, counters %0d %0d %0d",
               {iv_nz_q, aad_nz_q, msg_nz_q}, iv_left_q, aad_left_q, msg_left_q);
      if ({iv_n_q, aad_n_q, msg_n_q} !=
          {beat_bytes(iv_left_q), beat_bytes(aad_left_q), beat_bytes(msg_left_q)})
        $error("ak_mode_ctrl: beat sizes %0d %0d %0d, counters %0d %0d %0d",
               iv_n_q, aad_n_q, msg_n_q, iv_left_q, aad_left_q, msg_left_q);
      if ({room_q, lim_ok_q, lim_ok1_q} !=
          {({1'b0, of_cnt_q} + {1'b0, d_cnt_q} < (CntW+1)'(OfDepth)),
           (d_cnt_q < d_lim), (d_cnt_q <= d_lim)})
        $error("ak_mode_ctrl: request flags %b, of_cnt_q %0d, d_cnt_q %0d, d_lim %0d",
               {room_q, lim_ok_q, lim_ok1_q}, of_cnt_q, d_cnt_q, d_lim);
      if (msg_nb_q != beat_bits(msg_left_q))
        $error("ak_mode_ctrl: msg_nb_q %0d, msg_left_q %0d", msg_nb_q, msg_left_q);
      if (pay_z_q != (pay_left_q == 32'd0))
        $error("ak_mode_ctrl: pay_z_q %b, pay_left_q %0d", pay_z_q, pay_left_q);
    end
  end
`endif

endmodule

`default_nettype wire
