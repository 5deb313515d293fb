// ak_pipe_outbuf: the output buffer that lets a deep pipeline run without a clock
// enable. The pipeline in front of it never stalls; instead the core admits a new
// block only while fewer than Depth blocks are in the pipeline or in this buffer
// (credit counting), so every block that leaves the pipeline finds a free entry.
// Back-pressure (out_ready_i low) then reaches only this buffer and the credit
// counter -- not the enables of thousands of pipeline registers and block RAMs,
// whose fan-out would otherwise set the clock period.
//
// Storage. A Depth x DataWidth memory written in pipeline order and read with a
// registered read port (the head register, which holds while out_ready_i is low),
// so synthesis maps it to block RAM (DP16KD on ECP5) or distributed RAM by size.
// The read never addresses the entry being written: a read is only issued while
// the memory holds an unread entry, and a write only happens with a free entry.
// "Holds an unread entry" is a flip-flop (with "holds exactly one" beside it, both
// the next state's), so the read enable is one LUT of registers and out_ready_i.
//
// Timing (rising edges):
//   - a block on wvalid_i/wdata_i at edge W is in the memory after W, in the head
//     register after W+1: out_valid_o is first high at edge W+2 (two cycles added to
//     the pipeline's latency);
//   - one block per cycle in and out at full rate as long as out_ready_i is high;
//   - space_o = (count < Depth) || (out_valid_o && out_ready_i), where count is the
//     number of blocks admitted (accept_i) and not yet taken: a pipeline of latency
//     L (accept edge to wvalid_i edge) runs at one block per cycle for Depth >= L+2.
//     space_o depends combinationally on out_ready_i; "count < Depth" is a
//     flip-flop (full_q, the next count compared with Depth), so the admission path
//     (space_o -> the core's in_ready_o -> its control registers and accept_i) starts
//     at a register, not at the counter's compare logic.
//   - empty_o: no admitted block is in the pipeline or in the buffer; a register
//     (the next count compared with zero), so a key load that waits for it starts
//     from a flip-flop, not from the counter's compare logic.
//
// Contract with the core: accept_i only while space_o is high; wvalid_i once for
// every accepted block, in order (the buffer does not check; the core's tests do).
//
// Reset: asynchronous, active low: pointers, counters and valid flag. The memory
// and the head register's data are not reset (block RAM contents and output latch);
// out_valid_o is low after reset.
//
// Byte order: none (data pass through unchanged).
//
// Parameters:
//   DataWidth  bits per entry (>= 1).
//   Depth  entries, a power of two >= 2 (checked at elaboration).
//   RegisteredSpace  1: space_o = count < Depth, a flip-flop, without this cycle's
//     output handshake: the core's in_ready_o then has no path from out_ready_i;
//     after the buffer was full a block is admitted one cycle after the head was
//     taken (a cycle later than with 0).

`default_nettype none

module ak_pipe_outbuf #(
  parameter int DataWidth = 128,
  parameter int Depth = 16,
  parameter bit RegisteredSpace = 1'b0
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // admission (the core's input handshake)
  input  logic             accept_i,
  output logic             space_o,
  output logic             empty_o,
  // from the last pipeline register (never stalls)
  input  logic             wvalid_i,
  input  logic [DataWidth-1:0] wdata_i,
  // to the consumer
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [DataWidth-1:0] out_data_o
);

  if (DataWidth < 1) begin : g_bad_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_pipe_outbuf: DataWidth must be >= 1, got %0d", DataWidth);
`else
    $fatal(1, "ak_pipe_outbuf: DataWidth must be >= 1, got %0d", DataWidth);
`endif
  end
  if (Depth < 2 || (Depth & (Depth - 1)) != 0) begin : g_bad_depth
`ifdef __ICARUS__
    initial $fatal(1, "ak_pipe_outbuf: Depth must be a power of two >= 2, got %0d", Depth);
`else
    $fatal(1, "ak_pipe_outbuf: Depth must be a power of two >= 2, got %0d", Depth);
`endif
  end

  localparam int Aw = $clog2(Depth);

  // no_rw_check: the read never addresses the entry being written (see above), so
  // synthesis need not add collision bypass logic (132 FF + 137 LUT4 at 128 x 130)
  (* no_rw_check *)
  logic [DataWidth-1:0] mem_q [Depth];
  logic [DataWidth-1:0] head_q;
  logic             head_vld_q, head_vld_d;
  logic [Aw-1:0]    wptr_q, wptr_d, rptr_q, rptr_d;
  logic [Aw:0]      stored_q, stored_d;   // entries in the memory, not yet read
  logic             snz_q, snz_d;         // stored_q != 0
  logic             s1_q, s1_d;           // stored_q == 1
  logic [Aw:0]      count_q, count_d;     // admitted and not yet taken
  logic             empty_q, empty_d;     // count_q == 0
  logic             full_q, full_d;       // count_q == Depth
  logic             rd_en, out_fire;
  // copies of snz_q and head_vld_q for the head register's read enable: the head
  // register (DataWidth flip-flops, or the block RAM's output register) and the
  // pointers sit apart, and one shared read-enable LUT between them put a long hop
  // on the pointer and counter paths (each copy is a flip-flop of its own, see
  // dup_regs)
  logic             snz_dp_q, hv_dp_q;
  logic             rd_en_dp;

  assign out_fire    = head_vld_q && out_ready_i;
  assign rd_en       = snz_q && (!head_vld_q || out_ready_i);
  assign rd_en_dp    = snz_dp_q && (!hv_dp_q || out_ready_i);
  assign out_valid_o = head_vld_q;
  assign out_data_o  = head_q;
  assign space_o     = RegisteredSpace ? !full_q : (!full_q || out_fire);
  assign empty_o     = empty_q;

  // The counters' sums and compares are made from the registers alone, for each way
  // a counter can move (up, down, not at all); the handshakes of this cycle
  // (accept_i, which comes from the core's in_ready_o, and out_fire) only select
  // among them. So the admission path ends in one multiplexer level, not in an
  // adder and a compare.
  always_comb begin : pointers
    logic count_up, count_down;
    count_up   = accept_i && !out_fire;
    count_down = out_fire && !accept_i;
    wptr_d     = wvalid_i ? wptr_q + 1'b1 : wptr_q;
    rptr_d     = rd_en ? rptr_q + 1'b1 : rptr_q;
    stored_d   = stored_q;
    snz_d      = snz_q;
    s1_d       = s1_q;
    // the read enable comes from flip-flops: "stored != 0" and "stored == 1" are
    // the next state's, made from the registers for each way the count can move
    if (wvalid_i && !rd_en) begin
      stored_d = stored_q + 1'b1;
      snz_d    = 1'b1;
      s1_d     = !snz_q;
    end else if (rd_en && !wvalid_i) begin
      stored_d = stored_q - 1'b1;
      snz_d    = !s1_q;
      s1_d     = (stored_q == (Aw+1)'(2));
    end
    count_d = count_q;
    empty_d = empty_q;
    full_d  = full_q;
    if (count_up) begin
      count_d = count_q + 1'b1;
      empty_d = 1'b0;
      full_d  = (count_q == (Aw+1)'(Depth - 1));
    end else if (count_down) begin
      count_d = count_q - 1'b1;
      empty_d = (count_q == (Aw+1)'(1));
      full_d  = 1'b0;
    end
    head_vld_d = rd_en ? 1'b1 : (out_fire ? 1'b0 : head_vld_q);
  end

  always_ff @(posedge clk_i) begin : mem_write
    if (wvalid_i) mem_q[wptr_q] <= wdata_i;
  end

  always_ff @(posedge clk_i) begin : mem_read
    if (rd_en_dp) head_q <= mem_q[rptr_q];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      wptr_q     <= '0;
      rptr_q     <= '0;
      stored_q   <= '0;
      s1_q       <= 1'b0;
      count_q    <= '0;
      empty_q    <= 1'b1;
      full_q     <= 1'b0;
    end else begin
      wptr_q     <= wptr_d;
      rptr_q     <= rptr_d;
      stored_q   <= stored_d;
      s1_q       <= s1_d;
      count_q    <= count_d;
      empty_q    <= empty_d;
      full_q     <= full_d;
    end
  end

  // keep, and one register per block (the originals too): otherwise synthesis
  // merges each copy with its original
  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : snz_reg
    if (!rst_ni) snz_q <= 1'b0;
    else         snz_q <= snz_d;
  end

  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : hv_reg
    if (!rst_ni) head_vld_q <= 1'b0;
    else         head_vld_q <= head_vld_d;
  end

  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : dup_snz
    if (!rst_ni) snz_dp_q <= 1'b0;
    else         snz_dp_q <= snz_d;
  end

  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : dup_hv
    if (!rst_ni) hv_dp_q <= 1'b0;
    else         hv_dp_q <= head_vld_d;
  end

endmodule

`default_nettype wire
