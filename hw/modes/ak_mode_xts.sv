// ak_mode_xts: the XTS-AES (IEEE 1619) tweak and ciphertext-stealing unit of a
// mode-engine stream (ak_mode_stream).
//
// Tweak: the stream keeps T_j in its chaining register (chain_i; T_0 = E_K2(i));
// this unit gives the tweak of the block offered (tweak_o) and the chaining value
// after it is sent (tweak_next_o): T_j and T_(j+1) = T_j * alpha, except that
// decryption's held block takes T_(j+1) and leaves T_j for the final one.
// Stealing, to the bit: the last whole block before a partial one is "held" (its
// result is kept here, not output), the partial one is "final": its bits || the held
// result's tail make its block (block_o); after the final's result the held result's
// head (head_o, the partial last output beat) is output.
// Its control is the stream's: take_i when a payload beat is taken (its bits, the
// bits left after it), sent_i when the offered payload block goes to the core,
// result_i with the flags of a payload result leaving the core, head_out_i when the
// held head is pushed to the output FIFO, load_i at a command.
//
// Latency: the outputs are combinational from the registers (and chain_i); a flag set
// by a strobe is seen the next cycle. Byte order: FIPS-197, byte 0 in [127:120]; the
// tweak is the little-endian integer of IEEE 1619 (alpha of ak_mode_pkg); a beat's
// bits are in its high end.
//
// No parameters: a stream built without XTS keeps xts_i at 0 and all of this folds
// away.

`default_nettype none

module ak_mode_xts (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         load_i,        // a command is taken: no held / final block
  input  logic         xts_i,         // the message is XTS
  input  logic         dec_i,         // ... decryption
  input  logic [127:0] chain_i,       // T_j, the stream's chaining register
  // a payload beat is taken now: its bits and the payload bits left after it
  input  logic         take_i,
  input  logic [7:0]   take_nb_i,
  input  logic [31:0]  take_left_i,
  // the offered payload block goes to the core now
  input  logic         sent_i,
  input  logic [127:0] blk_i,         // the offered beat (its bits, the rest zero)
  // a payload result leaves the core now, with its block's held / final flags
  input  logic         rsp_i,
  input  logic         rsp_hold_i,
  input  logic         rsp_fin_i,
  input  logic [127:0] rsp_data_i,    // the result (the core's output ^ its tweak)
  input  logic         head_out_i,    // the held head is pushed to the output now
  output logic         hold_o,        // the offered block is the held one
  output logic         fin_o,         // ... the final (partial) one
  output logic [127:0] tweak_o,       // the tweak of the offered block
  output logic [127:0] tweak_next_o,  // the chaining value after it is sent
  output logic [127:0] block_o,       // the offered block to encrypt, ^ its tweak
  output logic         held_ok_o,     // the held block's result is here
  output logic         head_due_o,    // its head is still to be output
  output logic [127:0] head_o         // ... its head (the final block's bits)
);

  import ak_mode_pkg::*;

  logic         hold_q, hold_d, fin_q, fin_d;  // the offered block: held / final
  logic [7:0]   nb_q, nb_d;          // bits of the offered block
  logic [127:0] xh_q, xh_d;          // the held block's result
  logic         xh_ok_q, xh_ok_d, xh_out_q, xh_out_d;
  logic [7:0]   xb_q, xb_d;          // bits of the final (partial) block

  // the tweak of the block offered: T_j; decryption's held block takes T_(j+1)
  // (and the final one T_j after it)
  assign tweak_o      = (hold_q && dec_i) ? alpha(chain_i) : chain_i;
  assign tweak_next_o = (hold_q && dec_i) ? chain_i : alpha(chain_i);
  // the final block: its bits || the held result's tail
  assign block_o      = (fin_q ? (blk_i | (xh_q & ({128{1'b1}} >> nb_q))) : blk_i) ^ tweak_o;
  assign hold_o       = hold_q;
  assign fin_o        = fin_q;
  assign held_ok_o    = xh_ok_q;
  assign head_due_o   = xh_out_q;
  assign head_o       = keep_bits(xh_q, xb_q);

  always_comb begin : xts_state
    hold_d   = hold_q;
    fin_d    = fin_q;
    nb_d     = nb_q;
    xh_d     = xh_q;
    xh_ok_d  = xh_ok_q;
    xh_out_d = xh_out_q;
    xb_d     = xb_q;
    if (load_i) begin
      hold_d   = 1'b0;
      fin_d    = 1'b0;
      xh_ok_d  = 1'b0;
      xh_out_d = 1'b0;
    end else begin
      // a whole beat followed by a partial one is held; a partial one is final
      if (take_i) begin
        hold_d = xts_i && (take_nb_i == 8'd128) && (take_left_i != 32'd0) &&
                 (take_left_i < 32'd128);
        fin_d  = xts_i && (take_nb_i != 8'd128);
        nb_d   = take_nb_i;
      end
      if (rsp_i) begin
        if (xts_i && rsp_hold_i) begin
          xh_d    = rsp_data_i;
          xh_ok_d = 1'b1;
        end
        if (xts_i && rsp_fin_i) xh_out_d = 1'b1;
      end
      if (head_out_i) xh_out_d = 1'b0;
      if (sent_i && fin_q) xb_d = nb_q;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : xts_regs
    if (!rst_ni) begin
      hold_q   <= 1'b0;
      fin_q    <= 1'b0;
      nb_q     <= 8'd0;
      xh_q     <= '0;
      xh_ok_q  <= 1'b0;
      xh_out_q <= 1'b0;
      xb_q     <= 8'd0;
    end else begin
      hold_q   <= hold_d;
      fin_q    <= fin_d;
      nb_q     <= nb_d;
      xh_q     <= xh_d;
      xh_ok_q  <= xh_ok_d;
      xh_out_q <= xh_out_d;
      xb_q     <= xb_d;
    end
  end

endmodule

`default_nettype wire
