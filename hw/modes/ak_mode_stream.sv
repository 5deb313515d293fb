// ak_mode_stream: one stream (one message at a time) of the aeskit mode engine:
// ECB, CBC, CTR, CFB-128, OFB, CCM (NIST SP 800-38C), GCM/GMAC (SP 800-38D), CMAC
// (SP 800-38B) and XTS-AES (IEEE 1619), encryption and decryption, over any core of
// the core contract (docs/core-contract.md), reached through two request lanes that
// ak_mode_engine arbitrates onto the core:
//   lane 0, the data lane: the block cipher call of the mode (CCM: the CTR flow,
//           including S0 = E(Ctr0) first; GCM: H = E(0), S0 = E(J0), then CTR with
//           inc32; CMAC: L = E(0); XTS: the tweak E_K2(i) while the engine has K2 in
//           the core (tk_req_o / tk_gnt_i), then E_K1(P ^ T) per block),
//   lane 1, the MAC lane (CCM, CMAC): the CBC-MAC flow, Y_i = E(Y_{i-1} ^ B_i).
// GCM's GHASH runs beside the lanes on ak_gf128_mul (GhashDigitBits, 128/D cycles per
// block) over the MAC FIFO (three blocks: J0's blocks for an IV of other than 12
// bytes, AAD, ciphertext, the length block).
// The MAC lane and the chained flows (CBC/CFB encryption, OFB) have one block in the
// core, the independent flows (ECB, CBC/CFB decryption, CTR) up to two; CCM's CTR lane
// one. So the two CCM flows run interleaved on a core holding two blocks and
// alternate on a one-block core.
// The user interface is documented in docs/modes.md; in short:
//
//   command  cmd_valid_i/cmd_ready_o: mode (0 ECB, 1 CBC, 2 CTR, 3 CFB-128, 4 OFB,
//            5 CCM, 6 GCM, 7 CMAC, 8 XTS; 9..15 illegal), decrypt (CMAC: verify), iv
//            (IV; CTR: the initial counter block; CCM: the nonce, left-aligned, byte
//            N0 in [127:120]; GCM: a 12-byte IV in [127:32]; XTS: the tweak i),
//            iv_len (GCM IV bytes, >= 1), nonce_len (CCM, 7..13), tag_len (CCM 4..16
//            even; GCM, CMAC 4..16), aad_len and msg_len in bytes (aad_len CCM/GCM
//            only; XTS: msg_len in BITS, >= 128); part (0 WHOLE, 1 FIRST, 2 MIDDLE,
//            3 LAST; GCM and CMAC, Parts = 1) and ctx (MIDDLE, LAST: the state and
//            counts the previous part returned / the earlier parts had).
//   input    in_valid_i/in_ready_o/in_data_i: (GCM, iv_len != 12) ceil(iv_len/16) IV
//            beats, ceil(aad_len/16) AAD beats, then the payload beats (XTS:
//            ceil(bits/128)), then (CCM/GCM decryption, CMAC verification) one beat
//            with the received tag; each part starts in a fresh beat, a short last
//            beat holds its bytes (XTS: bits) in the high end (byte 0 in
//            [127:120]); the rest is ignored.
//   output   out_valid_o/out_ready_i/out_data_o/out_tag_o: one beat per payload
//            beat (short last beat: unused low bytes/bits zero; CMAC: none), then
//            (CCM/GCM encryption, CMAC generation) one beat with the tag (out_tag_o
//            high, unused low bytes zero); a FIRST or MIDDLE part ends instead
//            with its MAC state (GHASH Y / CBC-MAC C, 16 bytes) as the tag beat.
//   status   sts_valid_o/sts_ready_i/sts_pass_o/sts_error_o: one per command, after
//            its last output beat: sts_error_o for an illegal command (its beats are
//            still consumed and dropped, nothing is output), sts_pass_o = 1 unless a
//            tag compare failed (CCM/GCM decryption, CMAC verification) or the
//            command was illegal.
// CCM and GCM decryption stream the plaintext out before the verdict; a consumer must
// hold it until sts_pass_o (the drivers never hand out plaintext of a failed message).
//
// Timing: the response of a lane is used in the cycle it leaves the core (chain
// values and the next request are computed combinationally from it), so a chained
// flow issues its next block at the edge its previous result leaves: one chained
// stream takes exactly the core's latency per block (2*Nr on pipe2, Nr on round);
// independent flows max(latency/2, interval) (Nr on both); CCM two blocks (one per
// lane) per 16 payload bytes (ak_mode_engine's CoreInReg = 1 adds a cycle between a
// request and the core). Output FIFO: InFlight + 2 beats (4 by default); a lane sends
// a block only with room reserved for its result, so results are always taken from
// the core. Every
// register is reset by rst_ni. Byte order: FIPS-197 everywhere, byte 0 in [127:120].
//
// XTS ciphertext stealing works to the bit: the last whole block before a partial
// one is held (its result kept here), the partial block is combined with the held
// result's tail, and the held result's head is output last.
//
// Parameters: GhashDigitBits (1, 4, 8, 16, 32, 128): GCM's GHASH multiplier digit;
//             Modes (9'h1ff): bit m builds mode code m; a mode left out folds away
//             and its command is illegal (its beats are still taken);
//             AeadModes (1): 0 leaves GCM, CMAC and XTS out (as Modes without 6..8);
//             InFlight (2, >= 2): blocks of an independent flow (ECB, CTR, CBC and CFB
//             decryption) the data lane keeps in the core; the XOR-operand FIFO holds
//             InFlight entries and the output FIFO InFlight + 2 (4 at the default).
//             GCM and XTS keep two, CCM's CTR lane and the chained flows one. Both
//             FIFOs (and the MAC FIFO) are ak_fifo rings in distributed RAM, so a deep
//             setting (a pipelined core kept full) costs RAM cells, not registers.
//             PlainStream (0): 1 runs ECB, CBC, CTR, CFB and OFB as streams: the next
//             payload beat is taken in the cycle the waiting one is sent (one block
//             per cycle; the input ready then depends on the core's request
//             handshake), and a command while such a message runs and still takes
//             input extends it by its msg_len bytes (ak_mode_ctrl); 0: a beat only
//             while none waits (at most one every two cycles), a command only while
//             idle.
//             Parts (0): 1 builds messages in parts for GCM/GMAC and CMAC
//             (cmd_part_i, cmd_ctx_i; docs/modes.md "Messages in parts": a 32-bit
//             counter offset and a 128-bit GHASH restart value per stream); 0 leaves
//             it out and makes a part other than WHOLE illegal.
//             CoreDirections (2'b11), CoreKeySizes (3'b111): the core's Directions and
//             KeySizes (docs/core-contract.md, "Configurations"); a command the core
//             cannot run (a key length or a cipher direction it leaves out) is
//             illegal (sts_error_o), so it never reaches the core.
//
// Counters and flags: the byte/bit counters of the message's parts keep their
// "not zero" flag and their next beat's size in registers beside them (updated from
// registers only), so the input handshake and the beat's byte mask start at
// flip-flops, not at 32-bit compares.
//
// Structure (this module only connects them; docs/modes.md "Structure"):
//   ak_mode_cmd   the command's check and decode (combinational): legality, mode
//                 one-hot, the counts and values loaded with it;
//   ak_mode_ctrl  the control: message state, counters and flags, handshakes; emits
//                 enables and typed selects (ak_mode_pkg) only;
//   ak_mode_data  the data lane's 128-bit registers and multiplexers, the XOR-operand
//                 FIFO and the output FIFO;
//   ak_mode_mac   the MAC unit: MAC FIFO, CBC-MAC lane (lane 1), GHASH;
//   ak_mode_xts   XTS's tweak steps and ciphertext-stealing registers.

`default_nettype none

module ak_mode_stream #(
  parameter int          GhashDigitBits = 16,
  parameter bit          AeadModes      = 1'b1,
  parameter logic [8:0]  Modes          = 9'h1ff,
  parameter int          InFlight       = 2,
  parameter bit          Parts          = 1'b0,
  parameter logic [1:0]  CoreDirections = 2'b11,
  parameter logic [2:0]  CoreKeySizes   = 3'b111,
  parameter bit          PlainStream       = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // command
  input  logic         cmd_valid_i,
  output logic         cmd_ready_o,
  input  logic [3:0]   cmd_mode_i,
  input  logic         cmd_decrypt_i,
  input  logic [127:0] cmd_iv_i,
  input  logic [31:0]  cmd_iv_len_i,
  input  logic [3:0]   cmd_nonce_len_i,
  input  logic [4:0]   cmd_tag_len_i,
  input  logic [31:0]  cmd_aad_len_i,
  input  logic [31:0]  cmd_msg_len_i,
  input  logic [1:0]   cmd_part_i,
  input  logic [255:0] cmd_ctx_i,
  // data in
  input  logic         in_valid_i,
  output logic         in_ready_o,
  input  logic [127:0] in_data_i,
  // data out
  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,
  output logic         out_tag_o,
  // status
  output logic         sts_valid_o,
  input  logic         sts_ready_i,
  output logic         sts_pass_o,
  output logic         sts_error_o,
  // lanes to the core (0 data / CTR, 1 CBC-MAC)
  output logic [1:0]   req_valid_o,
  input  logic [1:0]   req_ready_i,
  output logic [127:0] req0_data_o,
  output logic         req0_decrypt_o,
  output logic [127:0] req1_data_o,
  input  logic [1:0]   rsp_valid_i,
  input  logic [127:0] rsp_data_i,
  // XTS: the tweak E_K2(i) needs K2 in the core (ak_mode_engine swaps it in); the
  // length code of the loaded keys (XTS-AES has 128- and 256-bit keys only)
  input  logic [1:0]   key_len_i,
  output logic         tk_req_o,
  input  logic         tk_gnt_i,
  output logic         idle_o
);

  import ak_mode_pkg::*;
  // the modes built: bit m for mode code m (AeadModes = 0 also leaves 6..8 out)
  localparam logic [8:0]  Built   = Modes & (AeadModes ? 9'h1ff : 9'h03f);
  localparam bit          HasMac  = Built[5] || Built[7];  // a CBC-MAC lane (CCM, CMAC)
  localparam bit          HasGcm  = Built[6];
  // messages in parts: only with GCM or CMAC built
  localparam bit          HasParts = Parts && (Built[6] || Built[7]);
  // the MAC FIFO: three blocks, so one GCM encryption stream on a two-block core keeps
  // both blocks in flight while GHASH takes the third
  localparam int          MbDepth = 3;

  if (InFlight < 2) begin : g_bad_in_flight
    $fatal(1, "ak_mode_stream: InFlight must be >= 2, got %0d", InFlight);
  end

  // ------------------------------------------------------------------------------
  // Between the units
  // ------------------------------------------------------------------------------
  // the command, checked and decoded (u_cmd)
  logic         c_err;
  logic [8:0]   c_dec;                 // the command's mode, one-hot (not masked)
  logic         c_p6, c_iv12, c_tag_in, c_pay_none, c_k2;
  logic [127:0] c_b0, c_chain, c_glen;
  logic [47:0]  c_carry;
  logic [31:0]  c_iv_bytes, c_aad_bytes, c_msg_left, c_pay_beats, c_mac_blocks;
  logic [31:0]  c_giv_blocks;
  logic         c_mid;                 // a FIRST / MIDDLE part
  logic [127:0] c_y0, c_yc;            // the MAC state it starts from; after GCM's J0
  logic [31:0]  c_ctr;                 // GCM: payload blocks of the earlier parts
  // control -> datapath: enables and typed selects
  logic            load, nxt_we, rtag_we, carry_we, p6, h_we, s0_we;
  chain_sel_e      chain_sel;
  chain_next_sel_e next_sel;
  res_sel_e        res_sel;
  req_sel_e        req_sel;
  op_sel_e         op_sel;
  out_sel_e        out_sel;
  logic            rsp_xor, bypass, op_push, op_hold, op_fin, op_pop, out_push;
  logic [4:0]      in_n, tlen;
  logic [7:0]      in_nb;
  logic            in_bits;
  // datapath -> control and the units
  logic            op_hold_head, op_fin_head, tag_ok;
  logic [$clog2(InFlight + 3)-1:0] out_count;
  logic [127:0]    in_masked, d_out, chain, nxt, h, glen;
  logic [47:0]     carry;
  // MAC unit
  logic            mac_run, mac_active, mac_cbc, mac_cmac, mac_gcm, mac_mid, h_ok, mb_push;
  mac_in_sel_e     mb_sel;
  logic            mb_full, gh_start, j0_valid, mac_busy, mac_z;
  logic [1:0]      mb_cnt;
  logic [127:0]    j0, mac_y;
  // XTS unit
  logic            xts, dec, x_take, x_sent, x_rsp, x_head_out;
  logic [31:0]     x_left;
  logic            x_hold, x_fin, x_held_ok, x_head_due;
  logic [127:0]    x_tw, x_tw_next, x_blk, x_head;

  // ------------------------------------------------------------------------------
  // Command check and decode
  // ------------------------------------------------------------------------------
  ak_mode_cmd #(.Modes(Built), .Parts(Parts), .CoreDirections(CoreDirections),
                .CoreKeySizes(CoreKeySizes)) u_cmd (
    .mode_i       (cmd_mode_i),
    .decrypt_i    (cmd_decrypt_i),
    .iv_i         (cmd_iv_i),
    .iv_len_i     (cmd_iv_len_i),
    .nonce_len_i  (cmd_nonce_len_i),
    .tag_len_i    (cmd_tag_len_i),
    .aad_len_i    (cmd_aad_len_i),
    .msg_len_i    (cmd_msg_len_i),
    .key_len_i    (key_len_i),
    .part_i       (cmd_part_i),
    .ctx_i        (cmd_ctx_i),
    .err_o        (c_err),
    .mode_oh_o    (c_dec),
    .p6_o         (c_p6),
    .b0_o         (c_b0),
    .chain_o      (c_chain),
    .carry_o      (c_carry),
    .glen_o       (c_glen),
    .iv12_o       (c_iv12),
    .iv_bytes_o   (c_iv_bytes),
    .aad_bytes_o  (c_aad_bytes),
    .msg_left_o   (c_msg_left),
    .tag_in_o     (c_tag_in),
    .pay_beats_o  (c_pay_beats),
    .pay_none_o   (c_pay_none),
    .mac_blocks_o (c_mac_blocks),
    .giv_blocks_o (c_giv_blocks),
    .k2_o         (c_k2),
    .mid_o        (c_mid),
    .y0_o         (c_y0),
    .yc_o         (c_yc),
    .ctr_o        (c_ctr)
  );

  // ------------------------------------------------------------------------------
  // Control
  // ------------------------------------------------------------------------------
  ak_mode_ctrl #(
    .Modes    (Built),
    .InFlight (InFlight),
    .MacDepth (MbDepth),
    .Parts    (HasParts),
    .PlainStream (PlainStream)
  ) u_ctrl (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .cmd_valid_i   (cmd_valid_i),
    .cmd_ready_o   (cmd_ready_o),
    .cmd_decrypt_i (cmd_decrypt_i),
    .cmd_tag_len_i (cmd_tag_len_i),
    .cmd_msg_len_i (cmd_msg_len_i),
    .c_err_i       (c_err),
    .c_mode_i      (c_dec),
    .c_p6_i        (c_p6),
    .c_iv12_i      (c_iv12),
    .c_tag_in_i    (c_tag_in),
    .c_pay_none_i  (c_pay_none),
    .c_iv_bytes_i  (c_iv_bytes),
    .c_aad_bytes_i (c_aad_bytes),
    .c_msg_left_i  (c_msg_left),
    .c_pay_beats_i (c_pay_beats),
    .c_mid_i       (c_mid),
    .in_valid_i    (in_valid_i),
    .in_ready_o    (in_ready_o),
    .in_n_o        (in_n),
    .in_nb_o       (in_nb),
    .in_bits_o     (in_bits),
    .sts_valid_o   (sts_valid_o),
    .sts_ready_i   (sts_ready_i),
    .sts_pass_o    (sts_pass_o),
    .sts_error_o   (sts_error_o),
    .idle_o        (idle_o),
    .tk_req_o      (tk_req_o),
    .tk_gnt_i      (tk_gnt_i),
    .req_valid_o   (req_valid_o[0]),
    .req_ready_i   (req_ready_i[0]),
    .req_decrypt_o (req0_decrypt_o),
    .rsp_valid_i   (rsp_valid_i[0]),
    .load_o        (load),
    .nxt_we_o      (nxt_we),
    .rtag_we_o     (rtag_we),
    .carry_we_o    (carry_we),
    .p6_o          (p6),
    .h_we_o        (h_we),
    .s0_we_o       (s0_we),
    .chain_sel_o   (chain_sel),
    .next_sel_o    (next_sel),
    .rsp_xor_o     (rsp_xor),
    .bypass_o      (bypass),
    .res_sel_o     (res_sel),
    .req_sel_o     (req_sel),
    .op_push_o     (op_push),
    .op_sel_o      (op_sel),
    .op_hold_o     (op_hold),
    .op_fin_o      (op_fin),
    .op_pop_o      (op_pop),
    .op_hold_i     (op_hold_head),
    .tlen_o        (tlen),
    .tag_ok_i      (tag_ok),
    .out_push_o    (out_push),
    .out_sel_o     (out_sel),
    .out_pop_i     (out_valid_o && out_ready_i),
    .out_count_i   (out_count),
    .mac_run_o     (mac_run),
    .mac_active_o  (mac_active),
    .mac_cbc_o     (mac_cbc),
    .mac_cmac_o    (mac_cmac),
    .mac_gcm_o     (mac_gcm),
    .mac_mid_o     (mac_mid),
    .h_ok_o        (h_ok),
    .mb_push_o     (mb_push),
    .mb_sel_o      (mb_sel),
    .mb_full_i     (mb_full),
    .mb_count_i    (mb_cnt),
    .gh_start_i    (gh_start),
    .j0_valid_i    (j0_valid),
    .mac_busy_i    (mac_busy),
    .mac_z_i       (mac_z),
    .xts_o         (xts),
    .dec_o         (dec),
    .x_take_o      (x_take),
    .x_left_o      (x_left),
    .x_sent_o      (x_sent),
    .x_rsp_o       (x_rsp),
    .x_head_out_o  (x_head_out),
    .x_hold_i      (x_hold),
    .x_fin_i       (x_fin),
    .x_held_ok_i   (x_held_ok),
    .x_head_due_i  (x_head_due)
  );

  // ------------------------------------------------------------------------------
  // Data lane datapath, XOR-operand FIFO, output FIFO
  // ------------------------------------------------------------------------------
  ak_mode_data #(.InFlight(InFlight), .Parts(HasParts && HasGcm)) u_data (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .in_data_i    (in_data_i),
    .in_n_i       (in_n),
    .in_nb_i      (in_nb),
    .in_bits_i    (in_bits),
    .in_masked_o  (in_masked),
    .load_i       (load),
    .chain_i      (c_chain),
    .glen_i       (c_glen),
    .carry_i      (c_carry),
    .ctr_i        (c_ctr),
    .nxt_we_i     (nxt_we),
    .rtag_we_i    (rtag_we),
    .carry_we_i   (carry_we),
    .p6_i         (p6),
    .h_we_i       (h_we),
    .s0_we_i      (s0_we),
    .chain_sel_i  (chain_sel),
    .next_sel_i   (next_sel),
    .rsp_xor_i    (rsp_xor),
    .bypass_i     (bypass),
    .j0_i         (j0),
    .rsp_data_i   (rsp_data_i),
    .res_sel_i    (res_sel),
    .result_o     (d_out),
    .req_sel_i    (req_sel),
    .req_data_o   (req0_data_o),
    .tweak_i      (x_tw),
    .tweak_next_i (x_tw_next),
    .xts_block_i  (x_blk),
    .head_i       (x_head),
    .op_push_i    (op_push),
    .op_sel_i     (op_sel),
    .op_hold_i    (op_hold),
    .op_fin_i     (op_fin),
    .op_pop_i     (op_pop),
    .op_hold_o    (op_hold_head),
    .op_fin_o     (op_fin_head),
    .mac_i        (mac_y),
    .tlen_i       (tlen),
    .tag_ok_o     (tag_ok),
    .out_push_i   (out_push),
    .out_sel_i    (out_sel),
    .out_valid_o  (out_valid_o),
    .out_ready_i  (out_ready_i),
    .out_data_o   (out_data_o),
    .out_tag_o    (out_tag_o),
    .out_count_o  (out_count),
    .chain_o      (chain),
    .nxt_o        (nxt),
    .h_o          (h),
    .glen_o       (glen),
    .carry_o      (carry)
  );

  // ------------------------------------------------------------------------------
  // MAC unit: CBC-MAC lane (CCM, CMAC), GHASH (GCM), the MAC FIFO
  // ------------------------------------------------------------------------------
  ak_mode_mac #(
    .GhashDigitBits (GhashDigitBits),
    .CbcMac         (HasMac),
    .Ghash          (HasGcm),
    .FifoDepth      (MbDepth),
    .Parts          (HasParts)
  ) u_mac (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .load_i       (load),
    .blocks_i     (c_mac_blocks),
    .giv_blocks_i (c_giv_blocks),
    .k2_i         (c_k2),
    .y0_i         (c_y0),
    .yc_i         (c_yc),
    .mid_i        (mac_mid),
    .run_i        (mac_run),
    .active_i     (mac_active),
    .cbc_i        (mac_cbc),
    .cmac_i       (mac_cmac),
    .gcm_i        (mac_gcm),
    .h_ok_i       (h_ok),
    .h_i          (h),
    .push_i       (mb_push),
    .push_sel_i   (mb_sel),
    .beat_i       (in_masked),
    .beat_n_i     (in_n),
    .b0_i         (c_b0),
    .result_i     (d_out),
    .len_i        (glen),
    .carry_i      (carry),
    .p6_i         (p6),
    .full_o       (mb_full),
    .count_o      (mb_cnt),
    .req_valid_o  (req_valid_o[1]),
    .req_ready_i  (req_ready_i[1]),
    .req_data_o   (req1_data_o),
    .rsp_valid_i  (rsp_valid_i[1]),
    .rsp_data_i   (rsp_data_i),
    .gh_start_o   (gh_start),
    .j0_valid_o   (j0_valid),
    .j0_o         (j0),
    .busy_o       (mac_busy),
    .mac_z_o      (mac_z),
    .y_o          (mac_y)
  );

  // ------------------------------------------------------------------------------
  // XTS tweak and ciphertext stealing
  // ------------------------------------------------------------------------------
  ak_mode_xts u_xts (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .load_i       (load),
    .xts_i        (xts),
    .dec_i        (dec),
    .chain_i      (chain),
    .take_i       (x_take),
    .take_nb_i    (in_nb),
    .take_left_i  (x_left),
    .sent_i       (x_sent),
    .blk_i        (nxt),
    .rsp_i        (x_rsp),
    .rsp_hold_i   (op_hold_head),
    .rsp_fin_i    (op_fin_head),
    .rsp_data_i   (d_out),
    .head_out_i   (x_head_out),
    .hold_o       (x_hold),
    .fin_o        (x_fin),
    .tweak_o      (x_tw),
    .tweak_next_o (x_tw_next),
    .block_o      (x_blk),
    .held_ok_o    (x_held_ok),
    .head_due_o   (x_head_due),
    .head_o       (x_head)
  );

endmodule

`default_nettype wire
