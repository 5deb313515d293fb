// ak_gcm_pipe: AES-GCM and GMAC (NIST SP 800-38D) at one block per cycle, for a core
// that takes a block every cycle (the unrolled cores: ttable_unrolled,
// tbox_unfolded(_pp)), driven through the core contract (docs/core-contract.md).
// The counter blocks go to the core as the payload beats arrive (one per cycle); the
// beats wait in a FIFO of FifoDepth for their keystream (the core's latency); GHASH
// runs at one block per cycle on ak_ghash_pipe (Stages-deep multiplier, aggregated
// over H .. H^Stages).
//
// Scope: the 96-bit IV (J0 = IV || 0^31 || 1), the IV every protocol uses; other IV
// lengths run on the mode engine (ak_mode_engine, mode 6). AAD and payload of any byte
// length (< 2^32), tags of 4..16 bytes, encryption and decryption; the tag is compared
// in hardware.
//
//   key      key_valid_i/key_ready_o, key_i, key_len_i: to the core; then H = E_K(0)
//            through the core and H^2 .. H^Stages in ak_ghash_pipe (cmd_ready_o waits).
//   command  cmd_valid_i/cmd_ready_o: decrypt, iv (96 bits), aad_len, msg_len (bytes),
//            tag_len (4..16; others: an illegal command).
//   input    ceil(aad_len/16) AAD beats, ceil(msg_len/16) payload beats, then
//            (decryption) the tag beat; a short last beat holds its bytes in the high
//            end (byte 0 in [127:120]), the rest is ignored.
//   output   one beat per payload beat (short last beat: low bytes zero), then
//            (encryption) the tag beat (out_tag_o high, t bytes in the high end).
//   status   sts_valid_o/sts_ready_i/sts_pass_o/sts_error_o after the last output beat;
//            decryption's plaintext leaves before the verdict: hold it until
//            sts_pass_o (as with ak_mode_engine).
// An illegal command (tag_len outside 4..16) takes its beats, drops them and reports
// sts_error_o = 1, sts_pass_o = 0.
//
// Timing: one payload block per cycle when the consumer and the core keep up; per
// message, the core's latency L plus one (the core's results pass a register slice,
// which keeps the core's output RAM off the GHASH input path) once (E(J0) first, then
// the counters), and GHASH's Stages + 3 cycles after the last block before the tag (a
// register here and one in ak_ghash_pipe take the blocks to GHASH). Every register is
// reset by rst_ni. Byte order: FIPS-197/GCM everywhere, byte 0 in [127:120].
//
// Parameters: Stages (GHASH pipeline depth, 2..128, a power of two), FifoDepth
//             (payload beats waiting for keystream: >= the core's latency for full
//             rate; a power of two >= 2), CoreTagWidth (the core's tag width).

`default_nettype none

module ak_gcm_pipe #(
  parameter int Stages       = 8,
  parameter int FifoDepth    = 128,
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
  // data in
  input  logic                    in_valid_i,
  output logic                    in_ready_o,
  input  logic [127:0]            in_data_i,
  // data out
  output logic                    out_valid_o,
  input  logic                    out_ready_i,
  output logic [127:0]            out_data_o,
  output logic                    out_tag_o,
  // status
  output logic                    sts_valid_o,
  input  logic                    sts_ready_i,
  output logic                    sts_pass_o,
  output logic                    sts_error_o,
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

  localparam int FW = $clog2(FifoDepth);

  if (FifoDepth < 2 || (FifoDepth & (FifoDepth - 1)) != 0) begin : g_bad_depth
    $fatal(1, "ak_gcm_pipe: FifoDepth must be a power of two >= 2, got %0d", FifoDepth);
  end

  import ak_mode_pkg::keep_bytes, ak_mode_pkg::beat_bytes;

  typedef enum logic [2:0] {
    StNoKey,  // no key yet
    StHReq,   // send E(0) for H
    StHWait,  // wait for H, then for the powers
    StIdle,   // ready for a command (or a new key)
    StRun,    // a message
    StSts     // its status
  } st_e;

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  st_e          st_q, st_d;
  logic         dec_q, dec_d, err_q, err_d, pass_q, pass_d;
  logic [4:0]   tlen_q, tlen_d;
  logic [31:0]  aad_left_q, aad_left_d, msg_left_q, msg_left_d;
  logic [31:0]  pay_left_q, pay_left_d;   // payload beats not yet output
  logic         rtag_need_q, rtag_need_d;
  logic [127:0] rtag_q, rtag_d;
  logic [127:0] ctr_q, ctr_d;             // next counter block (J0 first)
  logic         s0_need_q, s0_need_d, s0_fly_q, s0_fly_d;
  logic [127:0] s0_q, s0_d;
  logic         glen_need_q, glen_need_d;
  logic [127:0] glen_q, glen_d;
  logic         hash_ok_q, hash_ok_d;     // GHASH is done, y holds it
  logic         tag_out_q, tag_out_d;     // encryption: the tag beat is offered

  logic         cmd_fire, in_fire, out_fire, sts_fire, key_fire;
  logic         in_aad, in_pay, in_tag;
  logic [4:0]   in_n;
  logic [127:0] in_masked;
  logic         c_err;
  logic [31:0]  c_blocks;                 // GHASH blocks of the command

  // payload FIFO (ak_fifo u_pf): beat and its byte count, waiting for keystream; its
  // pointers and its full / valid flags are registers of their own (set a cycle ahead)
  logic [127:0] pf_data;                  // the head beat
  logic [4:0]   pf_n;                     // ... its bytes
  logic         pf_valid;
  logic [FW:0]  pf_count;
  logic         f_full, f_empty, f_push, f_pop;
  logic [127:0] pay_out;                  // the result beat on the core's output now
  logic         pay_valid;

  // GHASH
  logic         gh_ready, gh_start, gh_blk_valid, gh_done, gh_h_valid, glen_push;
  logic         pay_offer;                // a payload beat is offered to the core
  logic         core_special;             // the core's result is E(0) or E(J0)
  logic [127:0] gh_blk, gh_y;
  logic [127:0] tag_calc;

  // ------------------------------------------------------------------------------
  // Key and H
  // ------------------------------------------------------------------------------
  assign core_key_valid_o = key_valid_i && ((st_q == StNoKey) || (st_q == StIdle));
  assign key_ready_o      = core_key_ready_i && ((st_q == StNoKey) || (st_q == StIdle));
  assign core_key_o       = key_i;
  assign core_key_len_o   = key_len_i;
  assign key_fire         = key_valid_i && key_ready_o;
  assign gh_h_valid       = (st_q == StHWait) && co_valid && core_special;  // H

  // ------------------------------------------------------------------------------
  // Command
  // ------------------------------------------------------------------------------
  assign c_err    = (cmd_tag_len_i < 5'd4) || (cmd_tag_len_i > 5'd16);
  assign c_blocks = {4'd0, cmd_aad_len_i[31:4]} + {31'd0, cmd_aad_len_i[3:0] != 4'd0} +
                    {4'd0, cmd_msg_len_i[31:4]} + {31'd0, cmd_msg_len_i[3:0] != 4'd0} + 32'd1;
  assign cmd_ready_o = (st_q == StIdle) && gh_ready && !key_valid_i;
  assign cmd_fire    = cmd_valid_i && cmd_ready_o;
  assign gh_start    = cmd_fire && !c_err;

  // ------------------------------------------------------------------------------
  // Input beats: AAD (to GHASH), payload (counter to the core, beat to the FIFO; for
  // decryption also to GHASH), tag
  // ------------------------------------------------------------------------------
  assign in_aad    = (aad_left_q != 32'd0);
  assign in_pay    = !in_aad && (msg_left_q != 32'd0);
  assign in_tag    = !in_aad && !in_pay && rtag_need_q;
  assign in_n      = in_aad ? beat_bytes(aad_left_q) : in_tag ? tlen_q : beat_bytes(msg_left_q);
  assign in_masked = keep_bytes(in_data_i, in_n);

  assign f_empty = !pf_valid;

  always_comb begin : input_ready
    in_ready_o = 1'b0;
    if (st_q == StRun) begin
      if (err_q)       in_ready_o = in_aad || in_pay || in_tag;
      else if (in_aad) in_ready_o = 1'b1;
      else if (in_pay) in_ready_o = pay_offer && core_in_ready_i;
      else if (in_tag) in_ready_o = 1'b1;
    end
  end
  assign in_fire   = in_valid_i && in_ready_o;
  // (independent of core_in_ready_i: the beat and its counter stay offered until taken)
  assign pay_offer = (st_q == StRun) && !err_q && !in_aad && in_pay && !s0_need_q && !f_full;
  assign f_push    = in_fire && in_pay && !err_q;

  // the core's input: E(0) for H, E(J0), then one counter per payload beat
  always_comb begin : core_request
    core_in_valid_o = 1'b0;
    core_in_data_o  = ctr_q;
    if (st_q == StHReq) begin
      core_in_valid_o = 1'b1;
      core_in_data_o  = '0;
    end else if (st_q == StRun && !err_q) begin
      core_in_valid_o = s0_need_q || (pay_offer && in_valid_i);
    end
  end
  assign core_in_decrypt_o = 1'b0;
  // tag 1 marks E(0) and E(J0), tag 0 the keystream blocks
  assign core_in_tag_o     = CoreTagWidth'((st_q == StHReq) || s0_need_q);
  assign core_special      = (co_tag != '0);

  // ------------------------------------------------------------------------------
  // Output: keystream ^ the FIFO's head beat, then (encryption) the tag
  // ------------------------------------------------------------------------------
  assign pay_valid = (st_q == StRun) && co_valid && !core_special && !f_empty;
  assign pay_out   = keep_bytes(co_data ^ pf_data, pf_n);
  assign tag_calc  = keep_bytes(gh_y ^ s0_q, tlen_q);

  assign out_valid_o = pay_valid || tag_out_q;
  assign out_data_o  = tag_out_q ? tag_calc : pay_out;
  assign out_tag_o   = tag_out_q;
  assign out_fire    = out_valid_o && out_ready_i;
  assign f_pop       = pay_valid && out_ready_i;

  // the core's results: H (always taken), E(J0) (taken), payload (when the consumer is)
  assign co_ready = (st_q == StHWait) || ((st_q == StRun) && (core_special || out_ready_i));

  // ------------------------------------------------------------------------------
  // GHASH input: AAD beats, ciphertext (decryption: in; encryption: out), length block
  // ------------------------------------------------------------------------------
  // which block goes to GHASH, decided here and taken through registers (gin_*_q) so
  // that the GHASH unit, placed away from this control, sees only flip-flops: its
  // block is the registered AAD/decryption input beat, the registered ciphertext
  // beat, or the length block (a register already)
  logic         gin_v_q;
  logic [1:0]   gin_sel_q, gin_sel;       // 0 input beat, 1 ciphertext, 2 length block
  logic [127:0] gin_in_q, gin_pay_q;

  always_comb begin : ghash_in
    gh_blk_valid = 1'b0;
    gin_sel      = 2'd0;
    glen_push    = 1'b0;
    if (st_q == StRun && !err_q) begin
      if (in_fire && (in_aad || (in_pay && dec_q))) begin
        gh_blk_valid = 1'b1;
      end else if (f_pop && !dec_q) begin
        gh_blk_valid = 1'b1;
        gin_sel      = 2'd1;
      end else if (glen_need_q && !in_aad && (msg_left_q == 32'd0) &&
                   (dec_q || (pay_left_q == 32'd0))) begin
        gh_blk_valid = 1'b1;
        gin_sel      = 2'd2;
        glen_push    = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : ghash_in_regs
    if (!rst_ni) begin
      gin_v_q   <= 1'b0;
      gin_sel_q <= 2'd0;
      gin_in_q  <= '0;
      gin_pay_q <= '0;
    end else begin
      gin_v_q   <= gh_blk_valid;
      gin_sel_q <= gin_sel;
      gin_in_q  <= in_masked;
      gin_pay_q <= pay_out;
    end
  end

  assign gh_blk = (gin_sel_q == 2'd0) ? gin_in_q : (gin_sel_q == 2'd1) ? gin_pay_q : glen_q;

  ak_ghash_pipe #(.Stages(Stages)) u_ghash (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .h_valid_i   (gh_h_valid),
    .h_i         (co_data),
    .ready_o     (gh_ready),
    .start_i     (gh_start),
    .n_i         (c_blocks),
    .blk_valid_i (gin_v_q),
    .blk_i       (gh_blk),
    .done_o      (gh_done),
    .y_o         (gh_y)
  );

  // ------------------------------------------------------------------------------
  // Status
  // ------------------------------------------------------------------------------
  assign sts_valid_o = (st_q == StSts);
  assign sts_pass_o  = pass_q;
  assign sts_error_o = err_q;
  assign sts_fire    = sts_valid_o && sts_ready_i;

  // ------------------------------------------------------------------------------
  // State
  // ------------------------------------------------------------------------------
  always_comb begin : message
    st_d        = st_q;
    dec_d       = dec_q;
    err_d       = err_q;
    pass_d      = pass_q;
    tlen_d      = tlen_q;
    aad_left_d  = aad_left_q;
    msg_left_d  = msg_left_q;
    pay_left_d  = pay_left_q;
    rtag_need_d = rtag_need_q;
    rtag_d      = rtag_q;
    ctr_d       = ctr_q;
    s0_need_d   = s0_need_q;
    s0_fly_d    = s0_fly_q;
    s0_d        = s0_q;
    glen_need_d = glen_need_q;
    glen_d      = glen_q;
    hash_ok_d   = hash_ok_q;
    tag_out_d   = tag_out_q;

    unique case (st_q)
      StNoKey: if (key_fire) st_d = StHReq;
      StHReq:  if (core_in_ready_i) st_d = StHWait;
      StHWait: if (gh_h_valid) st_d = StIdle;  // the powers follow; cmd_ready_o waits
      StIdle: begin
        if (key_fire) begin
          st_d = StHReq;
        end else if (cmd_fire) begin
          st_d        = StRun;
          dec_d       = cmd_decrypt_i;
          err_d       = c_err;
          pass_d      = !c_err;
          tlen_d      = cmd_tag_len_i;
          aad_left_d  = cmd_aad_len_i;
          msg_left_d  = cmd_msg_len_i;
          pay_left_d  = {4'd0, cmd_msg_len_i[31:4]} + {31'd0, cmd_msg_len_i[3:0] != 4'd0};
          rtag_need_d = cmd_decrypt_i;
          ctr_d       = {cmd_iv_i, 32'd1};
          s0_need_d   = !c_err;
          s0_fly_d    = 1'b0;
          glen_need_d = !c_err;
          glen_d      = {29'd0, cmd_aad_len_i, 3'b000, 29'd0, cmd_msg_len_i, 3'b000};
          hash_ok_d   = 1'b0;
          tag_out_d   = 1'b0;
        end
      end
      StRun: begin
        if (in_fire) begin
          if (in_aad)      aad_left_d = aad_left_q - {27'd0, in_n};
          else if (in_pay) msg_left_d = msg_left_q - {27'd0, in_n};
          else begin
            rtag_need_d = 1'b0;
            rtag_d      = in_masked;
          end
        end
        if (core_in_valid_o && core_in_ready_i) begin
          ctr_d = {ctr_q[127:32], ctr_q[31:0] + 32'd1};  // inc32
          if (s0_need_q) begin
            s0_need_d = 1'b0;
            s0_fly_d  = 1'b1;
          end
        end
        if (co_valid && core_special) begin
          s0_d     = co_data;
          s0_fly_d = 1'b0;
        end
        if (f_pop) pay_left_d = pay_left_q - 32'd1;
        if (glen_push) glen_need_d = 1'b0;
        if (gh_done) hash_ok_d = 1'b1;
        // end of the message
        if (err_q) begin
          if (!in_aad && !in_pay && !rtag_need_q) st_d = StSts;
        end else if (hash_ok_q && pay_left_q == 32'd0 && !rtag_need_q && !s0_fly_q) begin
          if (dec_q) begin
            pass_d = (tag_calc == rtag_q);
            st_d   = StSts;
          end else if (!tag_out_q) begin
            tag_out_d = 1'b1;
          end else if (out_fire) begin
            tag_out_d = 1'b0;
            st_d      = StSts;
          end
        end
      end
      StSts: if (sts_fire) st_d = StIdle;
      default: st_d = StNoKey;
    endcase
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  // the payload FIFO: a push only when not full (pay_offer), a pop only when not empty
  // (pay_valid); the memory read ungated (the head is used only while valid)
  ak_fifo #(.Width(133), .Depth(FifoDepth), .GateEmpty(1'b0)) u_pf (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (f_push),
    .data_i  ({in_masked, in_n}),
    .pop_i   (f_pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (pf_valid),
    .full_o  (f_full),
    .data_o  ({pf_data, pf_n}),
    .count_o (pf_count)
  );
  logic unused_pf;
  assign unused_pf = ^pf_count;  // (the flags are used)

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      st_q        <= StNoKey;
      dec_q       <= 1'b0;
      err_q       <= 1'b0;
      pass_q      <= 1'b0;
      tlen_q      <= 5'd0;
      aad_left_q  <= 32'd0;
      msg_left_q  <= 32'd0;
      pay_left_q  <= 32'd0;
      rtag_need_q <= 1'b0;
      rtag_q      <= '0;
      ctr_q       <= '0;
      s0_need_q   <= 1'b0;
      s0_fly_q    <= 1'b0;
      s0_q        <= '0;
      glen_need_q <= 1'b0;
      glen_q      <= '0;
      hash_ok_q   <= 1'b0;
      tag_out_q   <= 1'b0;
    end else begin
      st_q        <= st_d;
      dec_q       <= dec_d;
      err_q       <= err_d;
      pass_q      <= pass_d;
      tlen_q      <= tlen_d;
      aad_left_q  <= aad_left_d;
      msg_left_q  <= msg_left_d;
      pay_left_q  <= pay_left_d;
      rtag_need_q <= rtag_need_d;
      rtag_q      <= rtag_d;
      ctr_q       <= ctr_d;
      s0_need_q   <= s0_need_d;
      s0_fly_q    <= s0_fly_d;
      s0_q        <= s0_d;
      glen_need_q <= glen_need_d;
      glen_q      <= glen_d;
      hash_ok_q   <= hash_ok_d;
      tag_out_q   <= tag_out_d;
    end
  end

endmodule

`default_nettype wire
