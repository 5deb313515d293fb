// ak_gcm_pipe: AES-GCM and GMAC (NIST SP 800-38D) at one block per cycle, for a core
// that takes a block every cycle (the unrolled cores: ttable_unrolled,
// tbox_unfolded(_pp)), driven through the core contract (docs/core-contract.md), with
// messages that overlap: the next message's command and beats are taken while the
// previous ones are still in the core, in GHASH or waiting for their tag.
//
// Structure (docs/gcm_pipe.md):
//   input side   takes the command (E(J0) goes to the core in that cycle) and the
//                beats: a counter block to the core per payload beat; every command and
//                beat becomes an entry of the in-order queue (ak_fifo u_pf, FifoDepth).
//   queue head   the queue's oldest entry through a register slice (ak_reg_slice)
//                takes the core's results in order (E(J0), keystream): the AAD, the
//                ciphertext and, one cycle after the message's end, its length block go
//                to GHASH (ak_ghash_pipe, blocks of consecutive messages back to back);
//                payload beats (keystream ^ beat) and one end marker per message go to
//                the output FIFO (ak_fifo u_of, OutDepth).
//   output       the output FIFO's head; an end marker waits for the message's GHASH
//                result (ak_fifo u_y) and becomes the message's final beat; all through
//                a register slice (ak_reg_slice).
//
// Scope: the 96-bit IV (J0 = IV || 0^31 || 1), the IV every protocol uses; other IV
// lengths run on the mode engine (ak_mode_engine, mode 6). AAD and payload of any byte
// length (< 2^32), tags of 4..16 bytes, encryption and decryption; the tag is compared
// in hardware.
//
//   key      key_valid_i/key_ready_o, key_i, key_len_i: taken when no message is in
//            flight; to the core, then H = E_K(0) through the core and H^2 .. H^Stages
//            in ak_ghash_pipe (cmd_ready_o waits).
//   command  cmd_valid_i/cmd_ready_o: decrypt, iv (96 bits), aad_len, msg_len (bytes),
//            tag_len (4..16; others: an illegal command), hold (decryption: no payload
//            beat leaves before the verdict, and none of a failed one; only for
//            ceil(msg_len/16) <= OutDepth - 2, else ignored). Taken in the cycle after
//            the previous message's last input beat (or its command when it has none).
//   input    ceil(aad_len/16) AAD beats, ceil(msg_len/16) payload beats, then
//            (decryption) the tag beat; a short last beat holds its bytes in the high
//            end (byte 0 in [127:120]), the rest is ignored.
//   output   one beat per payload beat (short last beat: low bytes zero; out_bytes_o
//            its bytes), then one final beat per message (out_tag_o high; out_bytes_o
//            the tag's bytes, 0 for decryption) with out_pass_o / out_error_o: the tag
//            (encryption, t bytes in the high end; pass 1) or zero (decryption: pass =
//            the tag matched; an illegal command: error 1, pass 0). Decryption's
//            plaintext leaves before its verdict (hold it until the final beat), unless
//            the command asked to hold it: then it waits in the output FIFO for the
//            verdict and is dropped on a failed tag (only the final beat leaves); the
//            queue head waits meanwhile (the GHASH tail, about Stages + 4 cycles).
// An illegal command takes its beats, drops them and outputs only its final beat.
//
// Timing: one payload block per cycle when the consumer and the core keep up, and one
// slot of the core per message (E(J0)) plus one input cycle for the command: a stream
// of messages of b payload blocks and no AAD runs at b / (b + 1) blocks per cycle.
// First payload beat in -> its output beat: the core's latency L + 3 (the register
// slice on the core's results, the output FIFO, the output register slice). Encryption:
// the final beat (tag) Stages + 6 cycles after the last payload beat's output when
// nothing stalls (the length block one cycle after the last ciphertext block, GHASH's
// input register, Stages + 1 through the pipeline to its result, the result FIFO, the
// output slice). Every control register is reset by rst_ni. Byte order: FIPS-197/GCM
// everywhere, byte 0 in [127:120].
//
// Parameters: Stages (GHASH pipeline depth, 2..128, a power of two), FifoDepth
//             (in-order queue: >= the core's latency + 2 for one block per cycle; a
//             power of two >= 2), OutDepth (output FIFO: >= Stages + 12 for back-to-back
//             messages at full rate, >= 4), CoreTagWidth (the core's tag width).

`default_nettype none

module ak_gcm_pipe #(
  parameter int Stages       = 8,
  parameter int FifoDepth    = 128,
  parameter int OutDepth     = 32,
  parameter int CoreTagWidth = 1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  // key
  input  logic                    key_valid_i,
  output logic                    key_ready_o,
  input  logic [255:0]            key_i,
  input  logic [1:0]              key_len_i,
  // command
  input  logic                    cmd_valid_i,
  output logic                    cmd_ready_o,
  input  logic                    cmd_decrypt_i,
  input  logic [95:0]             cmd_iv_i,
  input  logic [31:0]             cmd_aad_len_i,
  input  logic [31:0]             cmd_msg_len_i,
  input  logic [4:0]              cmd_tag_len_i,
  input  logic                    cmd_hold_i,
  // data in
  input  logic                    in_valid_i,
  output logic                    in_ready_o,
  input  logic [127:0]            in_data_i,
  // data out
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [127:0]            out_data_o,
  output logic                    out_tag_o,
  output logic [4:0]              out_bytes_o,
  output logic                    out_pass_o,
  output logic                    out_error_o,
  // the core (core contract, master side)
  output logic                    core_key_valid_o,
  input  logic                    core_key_ready_i,
  output logic [255:0]            core_key_o,
  output logic [1:0]              core_key_len_o,
  output logic                    core_in_valid_o,
  input  logic                    core_in_ready_i,
  output logic [127:0]            core_in_data_o,
  output logic                    core_in_decrypt_o,
  output logic [CoreTagWidth-1:0] core_in_tag_o,
  input  logic                    core_out_valid_i,
  output logic                    core_out_ready_o,
  input  logic [127:0]            core_out_data_i,
  input  logic [CoreTagWidth-1:0] core_out_tag_i
);

  if (FifoDepth < 2 || (FifoDepth & (FifoDepth - 1)) != 0) begin : g_bad_depth
    $fatal(1, "ak_gcm_pipe: FifoDepth must be a power of two >= 2, got %0d", FifoDepth);
  end
  if (OutDepth < 4) begin : g_bad_out
    $fatal(1, "ak_gcm_pipe: OutDepth must be >= 4, got %0d", OutDepth);
  end

  import ak_mode_pkg::keep_bytes, ak_mode_pkg::beat_bytes;

  // the core's results through a register slice (ak_reg_slice): one result per cycle,
  // one cycle of latency; core_out_ready_o is a register
  logic                    co_valid, co_ready;
  logic [127:0]            co_data;
  logic [CoreTagWidth-1:0] co_tag;
  ak_reg_slice #(.Width(128 + CoreTagWidth)) u_co (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (core_out_valid_i),
    .ready_o (core_out_ready_o),
    .data_i  ({core_out_data_i, core_out_tag_i}),
    .valid_o (co_valid),
    .ready_i (co_ready),
    .data_o  ({co_data, co_tag})
  );

  typedef enum logic [2:0] {
    StNoKey,  // no key yet
    StHReq,   // send E(0) for H
    StHWait,  // wait for H, then for the powers
    StIdle,   // ready for a command (or, with no message in flight, a new key)
    StRun     // the beats of a message
  } st_e;

  // in-order queue entry kinds
  typedef enum logic [2:0] {
    EJ0,   // a message: E(J0) from the core; data = the length block
    EAad,  // an AAD beat
    EPay,  // a payload beat: keystream from the core
    ETag,  // decryption's tag beat
    EErr   // an illegal command
  } ent_e;

  typedef struct packed {
    ent_e         kind;
    logic         last;   // EJ0/EAad/EPay: the message's last GHASH data (encryption)
    logic         dec;    // EJ0: decryption
    logic         hold;   // EJ0: a decryption held until its verdict
    logic [31:0]  n;      // EJ0: GHASH blocks of the message
    logic [4:0]   nb;     // EAad/EPay/ETag: bytes; EJ0/EErr: the tag length
    logic [127:0] data;
  } ent_t;

  // output FIFO entry: a payload beat or a message's end marker
  typedef struct packed {
    logic         mark;   // an end marker
    logic         err;    // ... of an illegal command
    logic         dec;    // ... of a decryption
    logic [4:0]   tlen;   // ... its tag length
    logic [4:0]   nb;     // a beat: its bytes
    logic [127:0] data;   // a beat; a marker: E(J0) (encryption), MSB_t(E(J0)) ^ tag (decryption)
  } oent_t;

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  st_e          st_q, st_d;
  logic         err_q, err_d;
  logic [31:0]  aad_left_q, aad_left_d, msg_left_q, msg_left_d;
  logic         rtag_need_q, rtag_need_d;
  logic [127:0] ctr_q, ctr_d;             // next counter block
  logic [15:0]  nmsg_q, nmsg_d;           // messages taken and not yet output

  logic         cmd_ok, cmd_fire, in_fire, key_fire, key_ok, fin_fire;
  logic         in_aad, in_pay, in_tag;
  logic [4:0]   in_n;
  logic [127:0] in_masked;
  logic         c_err;
  logic [31:0]  c_blocks;                 // GHASH blocks of the command
  logic [127:0] c_glen;                   // its length block
  logic [31:0]  c_pay_beats;              // its payload beats

  // in-order queue
  ent_t         pf_in, pf_head, pq_head;
  logic         pf_valid, pf_full, f_push, f_pop, pq_valid, pq_ready, pq_pop;
  logic [$clog2(FifoDepth + 1)-1:0] pf_count;

  // queue head side: the message being taken from the queue
  logic         cur_dec_q, cur_err_q, cur_first_q, cur_hold_q;
  logic [4:0]   cur_tlen_q;
  logic [31:0]  cur_n_q;
  logic [127:0] cur_s0_q, cur_glen_q, rtag_q;
  logic         end_q, end_d;             // the message's end actions run this cycle
  // a held decryption: after its end the head waits for its verdict (vw_q), releases or
  // drops its payload beats, then pushes its end marker (mk_q)
  logic         vw_q, vw_d, mk_q, verdict, v_pass;
  logic [15:0]  ghn_q, ghn_d;             // messages in GHASH (length block sent, no result)
  logic         room;                     // output FIFO room for a beat and a marker
  logic         h_ok;                     // the head entry can go now
  logic [127:0] pay_out;

  // GHASH
  logic         gh_ready, gh_h_valid, gh_done;
  logic [127:0] gh_y;
  logic         gin_v, gin_first;
  logic [31:0]  gin_n;
  logic [1:0]   gin_sel;                  // 0 queue head, 1 ciphertext out, 2 length block
  logic         gin_v_q, gin_first_q;
  logic [31:0]  gin_n_q;
  logic [1:0]   gin_sel_q;
  logic [127:0] gin_hd_q, gin_pay_q, gin_len_q, gh_blk;

  // output
  oent_t        of_in, of_head;
  logic         of_push, of_pop, of_valid, of_full;
  logic [$clog2(OutDepth + 1)-1:0] of_count;
  logic         y_valid, y_full, y_pop;
  logic [127:0] y_head;
  logic [$clog2(OutDepth + 1)-1:0] y_count;
  logic         os_valid, os_ready, os_tag, os_pass, os_err;
  logic [127:0] os_data, tag_calc;
  logic [4:0]   os_bytes;

  // ------------------------------------------------------------------------------
  // Key and H
  // ------------------------------------------------------------------------------
  assign key_ok           = (st_q == StNoKey) || ((st_q == StIdle) && (nmsg_q == '0));
  assign core_key_valid_o = key_valid_i && key_ok;
  assign key_ready_o      = core_key_ready_i && key_ok;
  assign core_key_o       = key_i;
  assign core_key_len_o   = key_len_i;
  assign key_fire         = key_valid_i && key_ready_o;
  assign gh_h_valid       = (st_q == StHWait) && co_valid && (co_tag != '0);  // H

  // ------------------------------------------------------------------------------
  // Input side: the command (E(J0) to the core in its cycle), then the beats
  // ------------------------------------------------------------------------------
  assign c_err    = (cmd_tag_len_i < 5'd4) || (cmd_tag_len_i > 5'd16);
  assign c_blocks = {4'd0, cmd_aad_len_i[31:4]} + {31'd0, cmd_aad_len_i[3:0] != 4'd0} +
                    {4'd0, cmd_msg_len_i[31:4]} + {31'd0, cmd_msg_len_i[3:0] != 4'd0} + 32'd1;
  assign c_glen   = {29'd0, cmd_aad_len_i, 3'b000, 29'd0, cmd_msg_len_i, 3'b000};
  assign c_pay_beats = {4'd0, cmd_msg_len_i[31:4]} + {31'd0, cmd_msg_len_i[3:0] != 4'd0};
  // (independent of core_in_ready_i: the command's E(J0) stays offered until taken)
  assign cmd_ok      = (st_q == StIdle) && gh_ready && !key_valid_i && !pf_full &&
                       (nmsg_q != '1);
  assign cmd_ready_o = cmd_ok && (core_in_ready_i || c_err);
  assign cmd_fire    = cmd_valid_i && cmd_ready_o;

  assign in_aad    = (aad_left_q != 32'd0);
  assign in_pay    = !in_aad && (msg_left_q != 32'd0);
  assign in_tag    = !in_aad && !in_pay && rtag_need_q;
  assign in_n      = in_aad ? beat_bytes(aad_left_q) : in_tag ? 5'd16 : beat_bytes(msg_left_q);
  assign in_masked = keep_bytes(in_data_i, in_n);

  always_comb begin : input_ready
    in_ready_o = 1'b0;
    if (st_q == StRun) begin
      if (err_q)       in_ready_o = 1'b1;
      else if (in_pay) in_ready_o = !pf_full && core_in_ready_i;
      else             in_ready_o = !pf_full;
    end
  end
  assign in_fire = in_valid_i && in_ready_o;

  // the core's input: E(0) for H, E(J0) with the command, a counter per payload beat
  // (offered independently of core_in_ready_i, held until taken)
  always_comb begin : core_request
    core_in_valid_o = 1'b0;
    core_in_data_o  = ctr_q;
    if (st_q == StHReq) begin
      core_in_valid_o = 1'b1;
      core_in_data_o  = '0;
    end else if (st_q == StIdle) begin
      core_in_valid_o = cmd_valid_i && cmd_ok && !c_err;
      core_in_data_o  = {cmd_iv_i, 32'd1};
    end else if (st_q == StRun) begin
      core_in_valid_o = !err_q && in_pay && in_valid_i && !pf_full;
    end
  end
  assign core_in_decrypt_o = 1'b0;
  // tag 1 marks E(0) and E(J0), tag 0 the keystream blocks
  assign core_in_tag_o     = CoreTagWidth'((st_q == StHReq) || (st_q == StIdle));

  // the queue entry of this cycle: the command or the beat
  always_comb begin : queue_in
    pf_in      = '0;
    pf_in.data = in_masked;
    pf_in.nb   = in_n;
    if (st_q == StIdle) begin
      pf_in.kind = c_err ? EErr : EJ0;
      pf_in.last = (cmd_aad_len_i == 32'd0) && (cmd_msg_len_i == 32'd0);
      pf_in.dec  = cmd_decrypt_i;
      pf_in.hold = cmd_hold_i && cmd_decrypt_i && (c_pay_beats <= 32'(OutDepth - 2));
      pf_in.n    = c_blocks;
      pf_in.nb   = cmd_tag_len_i;
      pf_in.data = c_glen;
    end else if (in_aad) begin
      pf_in.kind = EAad;
      pf_in.last = (aad_left_q == {27'd0, in_n}) && (msg_left_q == 32'd0);
    end else if (in_pay) begin
      pf_in.kind = EPay;
      pf_in.last = (msg_left_q == {27'd0, in_n});
    end else begin
      pf_in.kind = ETag;
    end
  end
  assign f_push = cmd_fire || (in_fire && !err_q);

  always_comb begin : input_state
    st_d        = st_q;
    err_d       = err_q;
    aad_left_d  = aad_left_q;
    msg_left_d  = msg_left_q;
    rtag_need_d = rtag_need_q;
    ctr_d       = ctr_q;
    unique case (st_q)
      StNoKey: if (key_fire) st_d = StHReq;
      StHReq:  if (core_in_ready_i) st_d = StHWait;
      StHWait: if (gh_h_valid) st_d = StIdle;  // the powers follow; cmd_ready_o waits
      StIdle: begin
        if (key_fire) begin
          st_d = StHReq;
        end else if (cmd_fire) begin
          err_d       = c_err;
          aad_left_d  = cmd_aad_len_i;
          msg_left_d  = cmd_msg_len_i;
          rtag_need_d = cmd_decrypt_i;
          ctr_d       = {cmd_iv_i, 32'd2};
          // a message without beats is all in its command
          if ((cmd_aad_len_i != 32'd0) || (cmd_msg_len_i != 32'd0) || cmd_decrypt_i) begin
            st_d = StRun;
          end
        end
      end
      StRun: begin
        if (in_fire) begin
          if (in_aad)      aad_left_d  = aad_left_q - {27'd0, in_n};
          else if (in_pay) msg_left_d  = msg_left_q - {27'd0, in_n};
          else             rtag_need_d = 1'b0;
          if (in_pay && !err_q) ctr_d = {ctr_q[127:32], ctr_q[31:0] + 32'd1};  // inc32
          if ((aad_left_d == 32'd0) && (msg_left_d == 32'd0) && !rtag_need_d) st_d = StIdle;
        end
      end
      default: st_d = StNoKey;
    endcase
  end

  // messages in flight: from the command to the final beat leaving the unit
  assign fin_fire = out_valid_o && out_ready_i && out_tag_o;
  assign nmsg_d   = nmsg_q + {15'd0, cmd_fire} - {15'd0, fin_fire};

  ak_fifo #(.Width($bits(ent_t)), .Depth(FifoDepth), .GateEmpty(1'b0)) u_pf (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clr_i     (1'b0),
    .push_i    (f_push),
    .data_i    (pf_in),
    .pop_i     (pq_pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o   (pq_valid),
    .full_o    (pf_full),
    .data_o    (pq_head),
    .count_o   (pf_count)
  );
  logic unused_pf;
  assign unused_pf = ^pf_count;

  // the queue's head through a register slice: the queue's LUT-RAM read and its bank
  // multiplexer end in flip-flops, and the head logic below (payload mask and XOR,
  // GHASH input, output FIFO) starts from them. An entry waits for its core result
  // (latency + 1 cycles) behind it anyway; only an entry that needs no core result
  // with an empty slice ahead of it (an illegal command's) is one cycle later.
  ak_reg_slice #(.Width($bits(ent_t))) u_ph (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (pq_valid),
    .ready_o (pq_ready),
    .data_i  (pq_head),
    .valid_o (pf_valid),
    .ready_i (f_pop),
    .data_o  (pf_head)
  );
  assign pq_pop = pq_valid && pq_ready;

  // ------------------------------------------------------------------------------
  // Queue head: one entry per cycle, in order. A message's end (the cycle after its
  // last entry: encryption its last AAD/payload entry or its E(J0) when it has none,
  // decryption its tag, an illegal command its entry) sends the length block to GHASH
  // and the end marker to the output FIFO. In the end cycle the head is the next
  // message's E(J0) at the earliest, which uses neither.
  // ------------------------------------------------------------------------------
  // two output entries may follow an entry (a payload beat, then a marker)
  assign room    = (of_count <= ($clog2(OutDepth + 1))'(OutDepth - 2));
  assign pay_out = keep_bytes(co_data ^ pf_head.data, pf_head.nb);

  always_comb begin : head_ok
    h_ok = 1'b0;
    if (pf_valid && room) begin
      unique case (pf_head.kind)
        EJ0:     h_ok = co_valid && (co_tag != '0);
        EPay:    h_ok = co_valid && (co_tag == '0);
        default: h_ok = 1'b1;
      endcase
    end
  end
  // (a held decryption's end and verdict wait keep its cur_* for its marker)
  assign f_pop    = (st_q != StHWait) && h_ok && !vw_q && !(end_q && cur_hold_q);
  assign co_ready = (st_q == StHWait) ||
                    (f_pop && ((pf_head.kind == EJ0) || (pf_head.kind == EPay)));

  always_comb begin : head_end
    end_d = 1'b0;
    if (f_pop) begin
      unique case (pf_head.kind)
        EJ0:       end_d = pf_head.last && !pf_head.dec;
        EAad, EPay: end_d = pf_head.last && !cur_dec_q;
        default:   end_d = 1'b1;
      endcase
    end
  end

  // GHASH's block: the head's AAD or (decryption) payload beat, (encryption) the
  // ciphertext beat, or at a message's end its length block; chosen into registers
  // (gin_*_q) so that the GHASH unit sees only flip-flops
  always_comb begin : ghash_in
    gin_v     = 1'b0;
    gin_sel   = 2'd0;
    gin_first = cur_first_q;
    gin_n     = cur_n_q;
    if (end_q && !cur_err_q) begin
      gin_v   = 1'b1;
      gin_sel = 2'd2;
    end else if (f_pop && (pf_head.kind == EAad)) begin
      gin_v   = 1'b1;
    end else if (f_pop && (pf_head.kind == EPay)) begin
      gin_v   = 1'b1;
      gin_sel = cur_dec_q ? 2'd0 : 2'd1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : head_regs
    if (!rst_ni) begin
      end_q       <= 1'b0;
      cur_dec_q   <= 1'b0;
      cur_err_q   <= 1'b0;
      cur_first_q <= 1'b0;
      cur_hold_q  <= 1'b0;
      vw_q        <= 1'b0;
      mk_q        <= 1'b0;
      ghn_q       <= '0;
      cur_tlen_q  <= 5'd0;
      cur_n_q     <= 32'd0;
      cur_s0_q    <= '0;
      cur_glen_q  <= '0;
      rtag_q      <= '0;
      gin_v_q     <= 1'b0;
      gin_first_q <= 1'b0;
      gin_n_q     <= 32'd0;
      gin_sel_q   <= 2'd0;
      gin_hd_q    <= '0;
      gin_pay_q   <= '0;
      gin_len_q   <= '0;
    end else begin
      end_q <= end_d;
      vw_q  <= vw_d;
      mk_q  <= verdict;
      ghn_q <= ghn_d;
      if (f_pop && (pf_head.kind == EJ0 || pf_head.kind == EErr)) begin
        cur_hold_q  <= pf_head.hold && (pf_head.kind == EJ0);
        cur_dec_q   <= pf_head.dec;
        cur_err_q   <= (pf_head.kind == EErr);
        cur_first_q <= 1'b1;
        cur_tlen_q  <= pf_head.nb;
        cur_n_q     <= pf_head.n;
        cur_glen_q  <= pf_head.data;
        cur_s0_q    <= co_data;
      end else if (gin_v) begin
        cur_first_q <= 1'b0;
      end
      if (f_pop && pf_head.kind == ETag) rtag_q <= keep_bytes(pf_head.data, cur_tlen_q);
      gin_v_q     <= gin_v;
      gin_first_q <= gin_first;
      gin_n_q     <= gin_n;
      gin_sel_q   <= gin_sel;
      gin_hd_q    <= pf_head.data;
      gin_pay_q   <= pay_out;
      gin_len_q   <= cur_glen_q;
    end
  end

  // the verdict of a held decryption: its GHASH result is the next one once it is the
  // only message in GHASH (the head waits, so no other one starts)
  assign ghn_d   = ghn_q + {15'd0, end_q && !cur_err_q} - {15'd0, gh_done};
  assign verdict = vw_q && gh_done && (ghn_q == 16'd1);
  assign v_pass  = (keep_bytes(gh_y, cur_tlen_q) == (keep_bytes(cur_s0_q, cur_tlen_q) ^ rtag_q));
  assign vw_d    = verdict ? 1'b0 : (vw_q || (end_q && cur_hold_q));

  assign gh_blk = (gin_sel_q == 2'd0) ? gin_hd_q : (gin_sel_q == 2'd1) ? gin_pay_q : gin_len_q;

  ak_ghash_pipe #(.Stages(Stages)) u_ghash (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .h_valid_i   (gh_h_valid),
    .h_i         (co_data),
    .ready_o     (gh_ready),
    .blk_valid_i (gin_v_q),
    .blk_first_i (gin_first_q),
    .blk_n_i     (gin_n_q),
    .blk_i       (gh_blk),
    .done_o      (gh_done),
    .y_o         (gh_y)
  );

  // GHASH results, one per message (but the illegal ones), in order; at most one per
  // end marker in the output FIFO, so never more than OutDepth
  ak_fifo #(.Width(128), .Depth(OutDepth), .GateEmpty(1'b0)) u_y (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clr_i     (1'b0),
    .push_i    (gh_done),
    .data_i    (gh_y),
    .pop_i     (y_pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o   (y_valid),
    .full_o    (y_full),
    .data_o    (y_head),
    .count_o   (y_count)
  );

  // ------------------------------------------------------------------------------
  // Output FIFO: payload beats from the head, a marker at each message's end
  // ------------------------------------------------------------------------------
  always_comb begin : out_entry
    of_in      = '0;
    of_in.data = pay_out;
    of_in.nb   = pf_head.nb;
    if (end_q || mk_q) begin
      of_in.mark = 1'b1;
      of_in.err  = cur_err_q;
      of_in.dec  = cur_dec_q;
      of_in.tlen = cur_tlen_q;
      of_in.data = cur_dec_q ? (keep_bytes(cur_s0_q, cur_tlen_q) ^ rtag_q) : cur_s0_q;
    end
  end
  assign of_push = (end_q && !cur_hold_q) || mk_q || (f_pop && (pf_head.kind == EPay));

  // a held decryption's payload beats are held entries, released or dropped at its verdict
  ak_fifo #(.Width($bits(oent_t)), .Depth(OutDepth), .GateEmpty(1'b0), .Hold(1'b1)) u_of (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clr_i     (1'b0),
    .push_i    (of_push),
    .data_i    (of_in),
    .pop_i     (of_pop),
    .hold_i    (f_pop && (pf_head.kind == EPay) && cur_hold_q),
    .release_i (verdict && v_pass),
    .drop_i    (verdict && !v_pass),
    .valid_o   (of_valid),
    .full_o    (of_full),
    .data_o    (of_head),
    .count_o   (of_count)
  );
  logic unused_of;
  assign unused_of = of_full ^ y_full ^ (^y_count);

  // the head: a payload beat, or a marker that becomes the final beat with its GHASH
  // result: encryption T = MSB_t(Y ^ E(J0)); decryption MSB_t(Y) = MSB_t(E(J0)) ^ T'
  assign tag_calc = keep_bytes(y_head ^ of_head.data, of_head.tlen);
  assign os_valid = of_valid && (!of_head.mark || of_head.err || y_valid);
  assign os_tag   = of_head.mark;
  assign os_err   = of_head.mark && of_head.err;
  assign os_pass  = of_head.mark && !of_head.err &&
                    (!of_head.dec || (keep_bytes(y_head, of_head.tlen) == of_head.data));
  assign os_data  = !of_head.mark ? of_head.data : (of_head.dec || of_head.err) ? '0 : tag_calc;
  assign os_bytes = !of_head.mark ? of_head.nb : (of_head.dec || of_head.err) ? 5'd0 :
                    of_head.tlen;
  assign of_pop   = os_valid && os_ready;
  assign y_pop    = of_pop && of_head.mark && !of_head.err;

  ak_reg_slice #(.Width(136)) u_os (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .valid_i (os_valid),
    .ready_o (os_ready),
    .data_i  ({os_data, os_bytes, os_tag, os_pass, os_err}),
    .valid_o (out_valid_o),
    .ready_i (out_ready_i),
    .data_o  ({out_data_o, out_bytes_o, out_tag_o, out_pass_o, out_error_o})
  );

  // ------------------------------------------------------------------------------
  // Input-side registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      st_q        <= StNoKey;
      err_q       <= 1'b0;
      aad_left_q  <= 32'd0;
      msg_left_q  <= 32'd0;
      rtag_need_q <= 1'b0;
      ctr_q       <= '0;
      nmsg_q      <= '0;
    end else begin
      st_q        <= st_d;
      err_q       <= err_d;
      aad_left_q  <= aad_left_d;
      msg_left_q  <= msg_left_d;
      rtag_need_q <= rtag_need_d;
      ctr_q       <= ctr_d;
      nmsg_q      <= nmsg_d;
    end
  end

endmodule

`default_nettype wire
