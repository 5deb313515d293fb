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
//            only; XTS: msg_len in BITS, >= 128).
//   input    in_valid_i/in_ready_o/in_data_i: (GCM, iv_len != 12) ceil(iv_len/16) IV
//            beats, ceil(aad_len/16) AAD beats, then the payload beats (XTS:
//            ceil(bits/128)), then (CCM/GCM decryption, CMAC verification) one beat
//            with the received tag; each part starts in a fresh beat, a short last
//            beat holds its bytes (XTS: bits) in the high end (byte 0 in
//            [127:120]); the rest is ignored.
//   output   out_valid_o/out_ready_i/out_data_o/out_tag_o: one beat per payload
//            beat (short last beat: unused low bytes/bits zero; CMAC: none), then
//            (CCM/GCM encryption, CMAC generation) one beat with the tag (out_tag_o
//            high, unused low bytes zero).
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
//
// Counters and flags: the byte/bit counters of the message's parts keep their
// "not zero" flag and their next beat's size in registers beside them (updated from
// registers only), so the input handshake and the beat's byte mask start at
// flip-flops, not at 32-bit compares.

`default_nettype none

module ak_mode_stream #(
  parameter int          GhashDigitBits = 16,
  parameter bit          AeadModes      = 1'b1,
  parameter logic [8:0]  Modes          = 9'h1ff,
  parameter int          InFlight       = 2
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

  if (InFlight < 2) begin : g_bad_in_flight
    $fatal(1, "ak_mode_stream: InFlight must be >= 2, got %0d", InFlight);
  end
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
  logic [127:0] rtag_q, rtag_d;
  logic [31:0]  pay_left_q, pay_left_d;  // payload beats whose result is not yet out
  logic         flush_q, flush_d;      // CCM: the last formatted AAD block is pending
  logic [47:0]  carry_q, carry_d;      // CCM: AAD bytes carried into the next block;
                                       // GCM: the IV's length in bits
  logic [31:0]  iv_left_q, iv_left_d;  // GCM: IV bytes still to come in (IV not 12 bytes)
  logic         ivlen_need_q, ivlen_need_d;  // GCM: the IV's length block not yet pushed
  logic         glen_need_q, glen_need_d;    // GCM: the final length block not yet pushed
  logic [127:0] glen_q, glen_d;        // GCM: [len(A)]_64 || [len(C)]_64, in bits

  // data lane
  logic         nxt_v_q, nxt_v_d;      // next beat, waiting for its request
  logic [127:0] nxt_q, nxt_d;
  logic [4:0]   nxt_n_q, nxt_n_d;
  // XOR operands of the payload blocks in the core, oldest first (ak_fifo u_cx): the
  // beat, or for CBC decryption the previous ciphertext; at the head: the operand
  // cx_x, the beat's valid bytes cx_n, the XTS held / final flags cx_h / cx_f
  logic [127:0] cx_x;
  logic [4:0]   cx_n;
  logic         cx_h, cx_f, cx_push;
  logic [127:0] chain_q, chain_d;      // IV / chaining value / counter block
  logic [CntW-1:0] d_cnt_q, d_cnt_d;   // data-lane blocks in the core (S0 included)
  logic         s0_need_q, s0_need_d;  // CCM: E(Ctr0), GCM: E(J0) not yet requested
  logic         s0_fly_q, s0_fly_d;    // ... it is the oldest block in the core (after H)
  logic [127:0] s0_q, s0_d;
  logic         h_need_q, h_need_d;    // GCM: H = E(0), CMAC: L = E(0) not yet requested
  logic         h_fly_q, h_fly_d;      // ... it is the oldest block in the core
  logic         h_ok_q, h_ok_d;        // ... it is back, in h_q
  logic [127:0] h_q, h_d;
  logic         j0_ok_q, j0_ok_d;      // GCM: J0 is known (in chain_q until S0 is sent)

  // MAC unit (ak_mode_mac u_mac): the MAC FIFO (three blocks, so one GCM encryption
  // stream on a two-block core keeps both blocks in flight while GHASH takes the
  // third), CBC-MAC chaining value / GHASH hash, GHASH multiplier, MAC block counts
  localparam int MbDepth = 3;
  logic [1:0]   mb_cnt_q;
  logic         mb_full;
  logic         mac_busy, mac_z;       // a MAC block / product under way; none left
  logic [127:0] mac_y;                 // CBC-MAC value / hash
  logic         j0_valid;              // GCM: J0 (IV not 12 bytes) is in j0 now
  logic [127:0] j0;

  // output FIFO (ak_fifo u_of): the beats, and beside each a flag for the tag beat
  logic [CntW-1:0] of_cnt_q;          // entries (ak_fifo u_of, zero-extended)
  logic [$clog2(OfDepth + 1)-1:0] of_cnt;
  logic         cx_valid, cx_full, of_full, unused_flags;
  logic [$clog2(InFlight + 1)-1:0] cx_count;

  logic         cmd_fire, in_fire, sts_fire;
  logic         is_ecb, is_cbc, is_cfb, is_ofb;  // (CTR: none of the others)
  logic         is_ccm, is_gcm, is_cmac, is_xts, has_tag, chained_ok;
  logic         in_iv, in_aad, in_pay, in_tag;  // kind of the next input beat
  logic [4:0]   in_n;
  logic [7:0]   in_nb;                 // XTS: bits of the beat (1..128)
  logic [31:0]  x_left_after;          // XTS: payload bits left after this beat
  // XTS tweak and ciphertext stealing (ak_mode_xts u_xts): the tweak of the block
  // offered now and the chaining value after it; the offered block is the held one
  // (the last whole block before a partial one: its result stays there) or the final
  // (partial) one; the held result's head is output after the final's result
  logic [127:0] x_tw, x_tw_next, x_blk, x_head;
  logic         x_hold, x_fin, x_held_ok, x_head_due;
  logic [127:0] in_masked;
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
  logic [127:0] chain_rsp, chain_req, chain_now, d_out;
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
  mac_in_sel_e  mb_sel;                // the source of the block pushed
  logic         of_push;
  logic [127:0] of_push_data;
  logic         of_push_tag;
  logic [127:0] tag_calc;
  logic         ccm_done;
  logic         gh_start;              // GHASH takes the MAC FIFO's head now
  logic         glen_push, ivlen_push;   // a length block may be pushed
  logic         glen_taken, ivlen_taken; // ... and is pushed now

  // the command, checked and decoded (ak_mode_cmd u_cmd)
  logic         c_err;
  logic [8:0]   c_dec;                 // the command's mode, one-hot (not masked)
  logic         c_p6, c_iv12, c_tag_in, c_pay_none, c_k2;
  logic [127:0] c_b0, c_chain, c_glen;
  logic [47:0]  c_carry;
  logic [31:0]  c_iv_bytes, c_aad_bytes, c_msg_left, c_pay_beats, c_mac_blocks;
  logic [31:0]  c_giv_blocks;

  // ------------------------------------------------------------------------------
  // Command: checks and the values loaded with it
  // ------------------------------------------------------------------------------
  ak_mode_cmd #(.Modes(Built)) u_cmd (
    .mode_i       (cmd_mode_i),
    .decrypt_i    (cmd_decrypt_i),
    .iv_i         (cmd_iv_i),
    .iv_len_i     (cmd_iv_len_i),
    .nonce_len_i  (cmd_nonce_len_i),
    .tag_len_i    (cmd_tag_len_i),
    .aad_len_i    (cmd_aad_len_i),
    .msg_len_i    (cmd_msg_len_i),
    .key_len_i    (key_len_i),
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
    .k2_o         (c_k2)
  );

  // ------------------------------------------------------------------------------
  // Handshakes
  // ------------------------------------------------------------------------------
  // (a mode the build leaves out is constant 0 here: its logic folds away)
  assign is_ecb      = Built[0] && om_q[0];
  assign is_cbc      = Built[1] && om_q[1];
  assign is_cfb      = Built[3] && om_q[3];
  assign is_ofb      = Built[4] && om_q[4];
  assign is_ccm      = Built[5] && om_q[5];
  assign is_gcm      = Built[6] && om_q[6];
  assign is_cmac     = Built[7] && om_q[7];
  assign is_xts      = Built[8] && om_q[8];
  assign has_tag     = is_ccm || is_gcm || is_cmac;
  assign cmd_ready_o = (st_q == StIdle);
  assign cmd_fire    = cmd_valid_i && cmd_ready_o;
  assign idle_o      = (st_q == StIdle);
  assign tk_req_o    = (st_q == StRun) && !err_q && is_xts && h_need_q;

  assign in_iv  = iv_nz_q;
  assign in_aad = !in_iv && aad_nz_q;
  assign in_pay = !in_iv && !in_aad && msg_nz_q;
  assign in_tag = !in_iv && !in_aad && !in_pay && rtag_need_q;
  assign in_n   = in_iv ? iv_n_q : in_aad ? aad_n_q : in_tag ? tlen_q : msg_n_q;
  assign in_nb     = msg_nb_q;
  assign in_masked = is_xts ? keep_bits(in_data_i, in_nb) : keep_bytes(in_data_i, in_n);
  assign x_left_after = msg_left_q - {24'd0, in_nb};
  assign iv_after     = iv_left_q - {27'd0, iv_n_q};
  assign aad_after    = aad_left_q - {27'd0, aad_n_q};
  assign msg_after    = is_xts ? x_left_after : msg_left_q - {27'd0, msg_n_q};

  always_comb begin : input_ready
    in_ready_o = 1'b0;
    if (st_q == StRun) begin
      if (err_q)       in_ready_o = in_iv || in_aad || in_pay || in_tag;  // drop the beats
      else if (in_iv)  in_ready_o = (!mb_full);
      else if (in_aad) in_ready_o = (!mb_full) && !ivlen_need_q;
      else if (in_pay && is_cmac) in_ready_o = (!mb_full);
      else if (in_pay) in_ready_o = !nxt_v_q && !flush_q && !ivlen_need_q &&
                                    (!((is_ccm && !dec_q) || (is_gcm && dec_q)) ||
                                     (!mb_full));
      else if (in_tag) in_ready_o = 1'b1;
    end
  end
  assign in_fire = in_valid_i && in_ready_o;

  // out_valid_o, out_data_o, out_tag_o: the head of ak_fifo u_of (below)

  // the status waits for the last output beat of its message to leave
  assign sts_valid_o = (st_q == StSts) && (of_cnt_q == '0);
  assign sts_pass_o  = pass_q;
  assign sts_error_o = err_q;
  assign sts_fire    = sts_valid_o && sts_ready_i;

  // ------------------------------------------------------------------------------
  // Data lane
  // ------------------------------------------------------------------------------
  assign d_rsp     = rsp_valid_i[0];
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

  // result of the payload block leaving the core now, and (chained flows) the next
  // chaining value
  always_comb begin : data_result
    d_out     = keep_bytes(rsp_data_i ^ cx_x, cx_n);  // CTR, CFB, OFB, CCM, GCM
    chain_rsp = rsp_data_i;                             // CBC encryption, OFB
    if (is_ecb) d_out = rsp_data_i;
    if (is_cbc) d_out = dec_q ? (rsp_data_i ^ cx_x) : rsp_data_i;
    if (is_cfb) chain_rsp = rsp_data_i ^ cx_x;          // the ciphertext
    if (is_xts) d_out = rsp_data_i ^ cx_x;              // whole blocks
  end
  assign chain_now = (chained && d_rsp) ? chain_rsp : chain_q;

  // next chaining value of the other flows, when a block is sent
  always_comb begin : data_chain_on_send
    chain_req = chain_q + 128'd1;                          // CTR, CCM (and S0)
    if (is_cbc || is_cfb) chain_req = nxt_q;               // decryption: this ciphertext
    if (is_ecb)           chain_req = chain_q;
    if (is_gcm)           chain_req = inc32(chain_q);      // S0 = E(J0), then inc32
    if (is_xts)           chain_req = x_tw_next;
  end

  // a new data-lane block: H (GCM) or L (CMAC) first, S0 (CCM; GCM once J0 is
  // known), then one per payload beat; room for its result in the output FIFO (and,
  // CCM decryption / GCM encryption, for it in the MAC FIFO)
  always_comb begin : data_request
    req_valid_o[0] = 1'b0;
    if (st_q == StRun && !err_q && (d_rsp ? lim_ok1_q : lim_ok_q)) begin
      if (h_need_q) begin
        req_valid_o[0] = !is_xts || tk_gnt_i;  // XTS: while K2 is in the core
      end else if (s0_need_q) begin
        req_valid_o[0] = !is_gcm || j0_ok_q;
      end else if (nxt_v_q && is_xts) begin
        // XTS: T_0 is back; the final block waits for the held result and room for
        // its result and the held head
        req_valid_o[0] = h_ok_q && (!x_fin || x_held_ok) &&
                         ({1'b0, of_cnt_q} + {1'b0, d_cnt_q} + (CntW+1)'(x_fin) <
                          (CntW+1)'(OfDepth));
      end else if (nxt_v_q) begin
        // (GCM: a block GHASH takes from the MAC FIFO now frees its place)
        req_valid_o[0] = room_q &&
                         (!((is_ccm && dec_q) || (is_gcm && !dec_q)) ||
                          ((CntW+1)'(mb_cnt_q) - (CntW+1)'(gh_start) + {1'b0, d_cnt_q} <
                           (CntW+1)'(MbDepth)));
      end
    end
  end

  always_comb begin : data_request_data
    req0_decrypt_o = 1'b0;
    req0_data_o    = chain_now;  // CTR, CFB, OFB, CCM, GCM: E(chaining value)
    if (is_ecb) begin
      req0_data_o    = nxt_q;
      req0_decrypt_o = dec_q;
    end
    if (is_cbc) begin
      req0_data_o    = dec_q ? nxt_q : (nxt_q ^ chain_now);
      req0_decrypt_o = dec_q;
    end
    if (is_xts) begin
      // the final block: its bits || the held result's tail
      req0_data_o    = x_blk;
      req0_decrypt_o = dec_q;
    end
    // GCM's H, CMAC's L: E(0^128); XTS's tweak E_K2(i), encrypting with K2
    if (h_need_q) begin
      req0_data_o    = is_xts ? chain_q : '0;
      req0_decrypt_o = 1'b0;
    end
  end
  assign d_fire = req_valid_o[0] && req_ready_i[0];

  // ------------------------------------------------------------------------------
  // MAC unit: CBC-MAC lane (CCM, CMAC), GHASH (GCM), the MAC FIFO
  // ------------------------------------------------------------------------------
  // GCM's length blocks: the IV's after its last beat, the final one after the last
  // ciphertext block (encryption: when its result has left the core)
  assign ivlen_push = ivlen_need_q && !in_iv && (!mb_full);
  assign glen_push  = glen_need_q && !ivlen_need_q && !in_iv && !in_aad &&
                      !msg_nz_q && (dec_q || pay_z_q) &&
                      (!mb_full);

  // at most one MAC block is pushed per cycle (CCM: B0, AAD, the AAD flush, then
  // payload; GCM: IV, its length, AAD, ciphertext, length; CMAC: the message)
  always_comb begin : mac_push
    mb_push      = 1'b0;
    mb_sel       = MacInBeat;
    ivlen_taken  = 1'b0;
    glen_taken   = 1'b0;
    if (cmd_fire && !c_err && Built[5] && c_dec[5]) begin
      mb_push      = 1'b1;
      mb_sel       = MacInB0;
    end else if (cmd_fire && !c_err && Built[7] && c_dec[7] && cmd_msg_len_i == 32'd0) begin
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
      end else if (flush_q && !in_aad && !mb_full) begin
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


  ak_mode_mac #(
    .GhashDigitBits (GhashDigitBits),
    .CbcMac         (HasMac),
    .Ghash          (HasGcm),
    .FifoDepth      (MbDepth)
  ) u_mac (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .load_i       (cmd_fire),
    .blocks_i     (c_mac_blocks),
    .giv_blocks_i (c_giv_blocks),
    .k2_i         (c_k2),
    .run_i        (st_q == StRun),
    .active_i     ((st_q == StRun) && !err_q),
    .cbc_i        (is_ccm || is_cmac),
    .cmac_i       (is_cmac),
    .gcm_i        (is_gcm),
    .h_ok_i       (h_ok_q),
    .h_i          (h_q),
    .push_i       (mb_push),
    .push_sel_i   (mb_sel),
    .beat_i       (in_masked),
    .beat_n_i     (in_n),
    .b0_i         (c_b0),
    .result_i     (d_out),
    .len_i        (glen_q),
    .carry_i      (carry_q),
    .p6_i         (p6_q),
    .full_o       (mb_full),
    .count_o      (mb_cnt_q),
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
    .load_i       (cmd_fire),
    .xts_i        (is_xts),
    .dec_i        (dec_q),
    .chain_i      (chain_q),
    .take_i       ((st_q == StRun) && in_fire && in_pay),
    .take_nb_i    (in_nb),
    .take_left_i  (x_left_after),
    .sent_i       ((st_q == StRun) && d_fire && !h_need_q && !s0_need_q),
    .blk_i        (nxt_q),
    .rsp_i        ((st_q == StRun) && d_rsp_pay),
    .rsp_hold_i   (cx_h),
    .rsp_fin_i    (cx_f),
    .rsp_data_i   (d_out),
    .head_out_i   ((st_q == StRun) && x_head_due && of_push && !d_rsp_pay),
    .hold_o       (x_hold),
    .fin_o        (x_fin),
    .tweak_o      (x_tw),
    .tweak_next_o (x_tw_next),
    .block_o      (x_blk),
    .held_ok_o    (x_held_ok),
    .head_due_o   (x_head_due),
    .head_o       (x_head)
  );

  // ------------------------------------------------------------------------------
  // Output FIFO: payload results, then the CCM tag
  // ------------------------------------------------------------------------------
  // the tag: CCM MSB_t(Y_r ^ S0), GCM MSB_t(GHASH ^ E(J0)), CMAC MSB_t(Y_n) (s0_q = 0)
  assign tag_calc = keep_bytes(mac_y ^ s0_q, tlen_q);
  assign ccm_done = has_tag && mac_z && !mac_busy && pay_z_q &&
                    !s0_need_q && !h_need_q && (d_cnt_q == '0);

  always_comb begin : out_push
    of_push      = 1'b0;
    of_push_data = d_out;
    of_push_tag  = 1'b0;
    if (st_q == StRun && !err_q) begin
      if (d_rsp_pay && !(is_xts && cx_h)) begin
        of_push = 1'b1;  // (XTS: a held result is not output now)
      end else if (x_head_due) begin
        of_push      = 1'b1;  // XTS: the held result's head, the partial last beat
        of_push_data = x_head;
      end else if (chained_ok && ccm_done && !dec_q && of_cnt_q != CntW'(OfDepth)) begin
        of_push      = 1'b1;
        of_push_data = tag_calc;
        of_push_tag  = 1'b1;
      end
    end
  end

  ak_fifo #(.Width(129), .Depth(OfDepth), .GateEmpty(1'b1)) u_of (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (of_push),
    .data_i  ({of_push_tag, of_push_data}),
    .pop_i   (out_ready_i),
    .valid_o (out_valid_o),
    .full_o  (of_full),
    .data_o  ({out_tag_o, out_data_o}),
    .count_o (of_cnt)
  );
  assign of_cnt_q = CntW'(of_cnt);

  // XOR operands of the payload blocks in the core
  // (the lanes' own counts keep the FIFO from overflowing; its flags are not needed)
  assign unused_flags = ^{cx_valid, cx_full, cx_count, of_full};
  assign cx_push = d_fire && !s0_need_q && !h_need_q;
  ak_fifo #(.Width(135), .Depth(InFlight), .GateEmpty(1'b0)) u_cx (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (cx_push),
    .data_i  ({is_cbc ? chain_q : is_xts ? x_tw : nxt_q, nxt_n_q,
               is_xts && x_hold, is_xts && x_fin}),
    .pop_i   (d_rsp_pay),
    .valid_o (cx_valid),
    .full_o  (cx_full),
    .data_o  ({cx_x, cx_n, cx_h, cx_f}),
    .count_o (cx_count)
  );

  // ------------------------------------------------------------------------------
  // Message state
  // ------------------------------------------------------------------------------
  // every beat is in and every result is out (CCM: the tag too, or it was compared)
  assign chained_ok = !iv_nz_q && !aad_nz_q && !msg_nz_q && !rtag_need_q && !x_head_due &&
                      (err_q || (pay_z_q && (d_cnt_q == '0) && !s0_need_q &&
                                 !h_need_q && (!is_ccm || !flush_q)));

  always_comb begin : message
    st_d        = st_q;
    om_d        = om_q;
    dec_d       = dec_q;
    err_d       = err_q;
    pass_d      = pass_q;
    tlen_d      = tlen_q;
    p6_d        = p6_q;
    aad_left_d  = aad_left_q;
    msg_left_d  = msg_left_q;
    rtag_need_d = rtag_need_q;
    rtag_d      = rtag_q;
    pay_left_d  = pay_left_q;
    flush_d     = flush_q;
    carry_d     = carry_q;
    nxt_v_d     = nxt_v_q;
    nxt_d       = nxt_q;
    nxt_n_d     = nxt_n_q;
    chain_d     = chain_q;
    d_cnt_d     = d_cnt_q;
    s0_need_d   = s0_need_q;
    s0_fly_d    = s0_fly_q;
    s0_d        = s0_q;
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
    glen_d       = glen_q;
    h_need_d     = h_need_q;
    h_fly_d      = h_fly_q;
    h_ok_d       = h_ok_q;
    h_d          = h_q;
    j0_ok_d      = j0_ok_q;

    unique case (st_q)
      StIdle: begin
        if (cmd_fire) begin
          st_d        = StRun;
          om_d        = c_dec & Built;
          dec_d       = cmd_decrypt_i;
          err_d       = c_err;
          pass_d      = !c_err;
          tlen_d      = cmd_tag_len_i;
          p6_d        = c_p6;
          aad_left_d  = c_aad_bytes;
          msg_left_d  = c_msg_left;
          rtag_need_d = c_tag_in;
          pay_left_d  = c_pay_beats;
          flush_d     = 1'b0;
          carry_d     = c_carry;
          nxt_v_d     = 1'b0;
          chain_d     = c_chain;
          d_cnt_d     = '0;
          s0_need_d   = (c_dec[5] || c_dec[6]) && !c_err;
          s0_fly_d    = 1'b0;
          s0_d        = '0;
          // GCM and CMAC
          iv_left_d    = c_iv_bytes;
          ivlen_need_d = c_dec[6] && !c_iv12 && !c_err;
          glen_need_d  = c_dec[6] && !c_err;
          glen_d       = c_glen;
          h_need_d     = (c_dec[6] || c_dec[7] || c_dec[8]) && !c_err;
          h_fly_d      = 1'b0;
          h_ok_d       = 1'b0;
          h_d          = '0;
          j0_ok_d      = c_iv12;
          // the counters' flags, from the values loaded
          iv_nz_d      = (iv_left_d != 32'd0);
          aad_nz_d     = (aad_left_d != 32'd0);
          msg_nz_d     = (msg_left_d != 32'd0);
          iv_n_d       = beat_bytes(iv_left_d);
          aad_n_d      = beat_bytes(aad_left_d);
          msg_n_d      = beat_bytes(msg_left_d);
          msg_nb_d     = beat_bits(msg_left_d);
          pay_z_d      = c_pay_none;  // (from the lengths: ak_mode_cmd)
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
            if (is_ccm) begin
              carry_d = p6_q ? in_masked[47:0] : {32'h0, in_masked[15:0]};
              // the last AAD beat: one more block if prefix + its bytes exceed 16
              if (aad_left_q <= 32'd16)
                flush_d = ({1'b0, in_n} + (p6_q ? 6'd6 : 6'd2)) > 6'd16;
            end
          end else if (in_pay) begin
            msg_left_d = msg_after;
            msg_nz_d   = (msg_after != 32'd0);
            msg_n_d    = beat_bytes(msg_after);
            msg_nb_d   = beat_bits(msg_after);
            nxt_v_d    = !err_q && !is_cmac;  // CMAC: the beat goes to the MAC FIFO only
            nxt_d      = in_masked;
            nxt_n_d    = in_n;
          end else begin
            rtag_need_d = 1'b0;
            rtag_d      = in_masked;
          end
        end
        if (mb_push && flush_q && !in_aad) flush_d = 1'b0;
        if (ivlen_taken) ivlen_need_d = 1'b0;
        if (glen_taken)  glen_need_d  = 1'b0;

        // data lane
        if (d_rsp) begin
          if (chained) chain_d = chain_rsp;
          if (h_fly_q) begin
            h_d     = rsp_data_i;
            h_ok_d  = 1'b1;
            h_fly_d = 1'b0;
            if (is_xts) chain_d = rsp_data_i;  // T_0 = E_K2(i)
          end else if (s0_fly_q) begin
            s0_d     = rsp_data_i;
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
            if (!chained) chain_d = chain_req;
            s0_need_d = 1'b0;
            s0_fly_d  = 1'b1;
          end else begin
            if (!chained) chain_d = chain_req;
            nxt_v_d = 1'b0;
          end
        end
        d_cnt_d = d_cnt_q - CntW'(d_rsp) + CntW'(d_fire);

        // GCM, IV not 12 bytes: J0 from GHASH (ak_mode_mac)
        if (j0_valid) begin
          chain_d = j0;
          j0_ok_d = 1'b1;
        end

        // end of the message
        if (chained_ok) begin
          if (err_q || !has_tag) begin
            st_d = StSts;
          end else if (ccm_done) begin
            if (dec_q) begin
              pass_d = (tag_calc == rtag_q);
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
    of_cnt_nx = of_cnt_q + CntW'(of_push) - CntW'(out_valid_o && out_ready_i);
    room_d    = ({1'b0, of_cnt_nx} + {1'b0, d_cnt_d} < (CntW+1)'(OfDepth));
    lim_ok_d  = (d_cnt_d < d_lim);
    lim_ok1_d = (d_cnt_d <= d_lim);
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : ctrl_regs
    if (!rst_ni) begin
      st_q        <= StIdle;
      om_q        <= '0;
      dec_q       <= 1'b0;
      err_q       <= 1'b0;
      pass_q      <= 1'b0;
      tlen_q      <= 5'd0;
      p6_q        <= 1'b0;
      aad_left_q  <= 32'd0;
      msg_left_q  <= 32'd0;
      rtag_need_q <= 1'b0;
      rtag_q      <= '0;
      pay_left_q  <= 32'd0;
      flush_q     <= 1'b0;
      carry_q     <= 48'd0;
      iv_left_q    <= 32'd0;
      ivlen_need_q <= 1'b0;
      glen_need_q  <= 1'b0;
      glen_q       <= '0;
      iv_nz_q      <= 1'b0;
      aad_nz_q     <= 1'b0;
      msg_nz_q     <= 1'b0;
      iv_n_q       <= 5'd0;
      aad_n_q      <= 5'd0;
      msg_n_q      <= 5'd0;
      msg_nb_q     <= 8'd0;
      pay_z_q      <= 1'b1;
    end else begin
      st_q        <= st_d;
      om_q        <= om_d;
      dec_q       <= dec_d;
      err_q       <= err_d;
      pass_q      <= pass_d;
      tlen_q      <= tlen_d;
      p6_q        <= p6_d;
      aad_left_q  <= aad_left_d;
      msg_left_q  <= msg_left_d;
      rtag_need_q <= rtag_need_d;
      rtag_q      <= rtag_d;
      pay_left_q  <= pay_left_d;
      flush_q     <= flush_d;
      carry_q     <= carry_d;
      iv_left_q    <= iv_left_d;
      ivlen_need_q <= ivlen_need_d;
      glen_need_q  <= glen_need_d;
      glen_q       <= glen_d;
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

  always_ff @(posedge clk_i or negedge rst_ni) begin : data_lane_regs
    if (!rst_ni) begin
      nxt_v_q   <= 1'b0;
      nxt_q     <= '0;
      nxt_n_q   <= 5'd0;
      chain_q   <= '0;
      d_cnt_q   <= '0;
      room_q    <= 1'b1;
      lim_ok_q  <= 1'b1;
      lim_ok1_q <= 1'b1;
      s0_need_q <= 1'b0;
      s0_fly_q  <= 1'b0;
      s0_q      <= '0;
      h_need_q  <= 1'b0;
      h_fly_q   <= 1'b0;
      h_ok_q    <= 1'b0;
      h_q       <= '0;
      j0_ok_q   <= 1'b0;
    end else begin
      nxt_v_q   <= nxt_v_d;
      nxt_q     <= nxt_d;
      nxt_n_q   <= nxt_n_d;
      chain_q   <= chain_d;
      d_cnt_q   <= d_cnt_d;
      room_q    <= room_d;
      lim_ok_q  <= lim_ok_d;
      lim_ok1_q <= lim_ok1_d;
      s0_need_q <= s0_need_d;
      s0_fly_q  <= s0_fly_d;
      s0_q      <= s0_d;
      h_need_q  <= h_need_d;
      h_fly_q   <= h_fly_d;
      h_ok_q    <= h_ok_d;
      h_q       <= h_d;
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
        $error("ak_mode_stream: nonzero flags %b, counters %0d %0d %0d",
               {iv_nz_q, aad_nz_q, msg_nz_q}, iv_left_q, aad_left_q, msg_left_q);
      if ({iv_n_q, aad_n_q, msg_n_q} !=
          {beat_bytes(iv_left_q), beat_bytes(aad_left_q), beat_bytes(msg_left_q)})
        $error("ak_mode_stream: beat sizes %0d %0d %0d, counters %0d %0d %0d",
               iv_n_q, aad_n_q, msg_n_q, iv_left_q, aad_left_q, msg_left_q);
      if ({room_q, lim_ok_q, lim_ok1_q} !=
          {({1'b0, of_cnt_q} + {1'b0, d_cnt_q} < (CntW+1)'(OfDepth)),
           (d_cnt_q < d_lim), (d_cnt_q <= d_lim)})
        $error("ak_mode_stream: request flags %b, of_cnt_q %0d, d_cnt_q %0d, d_lim %0d",
               {room_q, lim_ok_q, lim_ok1_q}, of_cnt_q, d_cnt_q, d_lim);
      if (msg_nb_q != beat_bits(msg_left_q))
        $error("ak_mode_stream: msg_nb_q %0d, msg_left_q %0d", msg_nb_q, msg_left_q);
      if (pay_z_q != (pay_left_q == 32'd0))
        $error("ak_mode_stream: pay_z_q %b, pay_left_q %0d", pay_z_q, pay_left_q);
    end
  end
`endif

endmodule

`default_nettype wire
