// ak_fifo: the one synchronous FIFO of aeskit: a ring of Depth entries of Width bits,
// written at a write pointer and read at a read pointer, so no entry ever moves.
//
// Storage. The entries are a memory without reset, written in one clocked process.
// RegRead = 0 (default): read asynchronously at the read pointer, so synthesis maps
// it to distributed RAM (TRELLIS_DPR16X4 on ECP5, 16 entries x 4 bits per slice) or,
// for Depth <= 2, to flip-flops: a deep FIFO (a stream keeping a deep pipeline full)
// costs RAM, not Width x Depth flip-flops and a Depth-to-1 read multiplexer.
// RegRead = 1: read synchronously into a head register (a prefetch stage loaded
// whenever the head is free or popped and the memory holds an unread entry), so
// synthesis maps a large FIFO to block RAM (DP16KD on ECP5: 1024 x 18 bits each) whose
// output register is the head; the cost is one cycle more from push to the head.
//
// Flags. valid_o (not empty), full_o and count_o are flip-flops (the next count
// compared in the cycle before), so a handshake that waits for them starts at a
// register, not at pointer compare logic.
//
// Timing (rising edges): a push at edge E is at the head after E when the FIFO was
// empty (valid_o high from E on: one cycle from push to pop); RegRead = 1: after E+1
// (two cycles from push to pop), and one entry per cycle in and out at full rate. Push and pop in the
// same cycle are allowed in every state, full included (the entry read is not the
// one written). pop_i is a ready: it takes the head when there is one and is ignored
// while the FIFO is empty. A push while full without a pop is a user error: it is
// ignored, and reported by $error in simulation. clr_i empties the FIFO
// (pointers and flags; the memory keeps its data, which is never read again).
//
// Output. With GateEmpty = 1 data_o is zero while the FIFO is empty, so no value of
// the unreset memory reaches data_o; 0 leaves the gate out (data_o is then the memory
// entry at the read pointer, undefined until it is first written).
//
// Held entries (Hold = 1). An entry pushed while hold_i is high is stored but not
// released: valid_o, data_o and pop_i see released entries only. release_i releases
// every held entry at the edge (pushes of that cycle included); drop_i (without
// release_i) discards every held entry (pushes of that cycle included): the write
// pointer goes back behind the last released entry. Held entries are always the
// youngest, so a user holds a message's output until its verdict and then releases or
// drops it. count_o and full_o count held entries too. With Hold = 0, hold_i,
// release_i and drop_i are ignored (tie them to 0) and their logic is not built.
// Hold = 1 needs RegRead = 0 (checked at elaboration).
//
// Reset: asynchronous, active low: pointers, count and flags (RegRead = 1: the head's
// valid flag too; its data, the block RAM's output, is not reset and is gated by
// GateEmpty). Byte order: none (data pass through unchanged).
//
// Parameters:
//   Width      bits per entry (>= 1).
//   Depth      entries (>= 1, any value).
//   GateEmpty  1 (default): data_o zero while no released entry; 0: ungated.
//   Hold       0 (default): plain FIFO; 1: held entries (hold_i/release_i/drop_i).
//   RegRead    0 (default): asynchronous read (distributed RAM); 1: registered read
//              into a head register (block RAM), push to head in two cycles.

`default_nettype none

module ak_fifo #(
  parameter int Width     = 128,
  parameter int Depth     = 4,
  parameter bit GateEmpty = 1'b1,
  parameter bit Hold      = 1'b0,
  parameter bit RegRead   = 1'b0,
  localparam int CntW     = $clog2(Depth + 1)
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clr_i,
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  input  logic             pop_i,
  input  logic             hold_i,     // Hold = 1: this cycle's push is held
  input  logic             release_i,  // Hold = 1: release every held entry
  input  logic             drop_i,     // Hold = 1: discard every held entry
  output logic             valid_o,
  output logic             full_o,
  output logic [Width-1:0] data_o,
  output logic [CntW-1:0]  count_o
);

  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1;

  if (Depth < 1) begin : g_bad_depth
`ifdef __ICARUS__
    initial $fatal(1, "ak_fifo: Depth must be >= 1, got %0d", Depth);
`else
    $fatal(1, "ak_fifo: Depth must be >= 1, got %0d", Depth);
`endif
  end
  if (Width < 1) begin : g_bad_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_fifo: Width must be >= 1, got %0d", Width);
`else
    $fatal(1, "ak_fifo: Width must be >= 1, got %0d", Width);
`endif
  end

  if (Hold && RegRead) begin : g_bad_hold
`ifdef __ICARUS__
    initial $fatal(1, "ak_fifo: Hold needs RegRead = 0");
`else
    $fatal(1, "ak_fifo: Hold needs RegRead = 0");
`endif
  end

  // no_rw_check: the read never addresses the entry being written (RegRead = 1: an
  // entry is read only after the edge that wrote it, and the one written is free)
  (* no_rw_check *)
  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  wr_q, rd_q, wr_d, rd_d;
  logic [CntW-1:0]  cnt_q, cnt_d, rel_d;
  logic             valid_q, full_q;
  logic             do_push, do_pop, rd_adv;

  assign do_pop  = pop_i && valid_q;
  assign do_push = push_i && (!full_q || do_pop);

  function automatic logic [PtrW-1:0] next_ptr(input logic [PtrW-1:0] p);
    return (int'(p) == Depth - 1) ? '0 : p + 1'b1;
  endfunction

  // the read pointer moves on a pop (RegRead = 0) or on a read into the head (1)
  assign rd_d = rd_adv ? next_ptr(rd_q) : rd_q;

  if (Hold) begin : g_hold
    // released entries (the oldest rel_q of the cnt_q held in the memory)
    logic [CntW-1:0] rel_q, rel_n;
    logic [CntW-1:0] cnt_n;
    always_comb begin : hold_next
      int s;
      s     = 0;
      cnt_n = cnt_q + CntW'(do_push) - CntW'(do_pop);
      rel_n = rel_q + CntW'(do_push && !hold_i) - CntW'(do_pop);
      wr_d  = do_push ? next_ptr(wr_q) : wr_q;
      cnt_d = cnt_n;
      rel_d = rel_n;
      if (release_i) begin
        rel_d = cnt_n;
      end else if (drop_i) begin
        cnt_d = rel_n;
        s = int'(rd_d) + int'(rel_n);
        if (s >= Depth) s -= Depth;
        wr_d = PtrW'(s);
      end
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : rel_reg
      if (!rst_ni) begin
        rel_q <= '0;
      end else if (clr_i) begin
        rel_q <= '0;
      end else begin
        rel_q <= rel_d;
      end
    end
  end else begin : g_plain
    logic unused_hold;
    assign unused_hold = ^{hold_i, release_i, drop_i};
    assign wr_d  = do_push ? next_ptr(wr_q) : wr_q;
    assign cnt_d = cnt_q + CntW'(do_push) - CntW'(do_pop);
    if (!RegRead) begin : g_rel
      assign rel_d = cnt_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : ctrl_regs
    if (!rst_ni) begin
      wr_q    <= '0;
      rd_q    <= '0;
      cnt_q   <= '0;
      valid_q <= 1'b0;
      full_q  <= 1'b0;
    end else if (clr_i) begin
      wr_q    <= '0;
      rd_q    <= '0;
      cnt_q   <= '0;
      valid_q <= 1'b0;
      full_q  <= 1'b0;
    end else begin
      wr_q    <= wr_d;
      rd_q    <= rd_d;
      cnt_q   <= cnt_d;
      valid_q <= (rel_d != '0);
      full_q  <= (cnt_d == CntW'(Depth));
    end
  end

  // the memory: no reset, one write port
  always_ff @(posedge clk_i) begin : mem_write
    if (do_push && !clr_i) mem_q[wr_q] <= data_i;
  end

  logic [Width-1:0] head;
  if (RegRead) begin : g_reg_read
    // head register: the oldest entry once read; unread_q entries wait in the memory.
    // valid_q is "the head register holds an entry" (the next state's, below).
    logic [CntW-1:0]  unread_q, unread_d;
    logic [Width-1:0] head_q;
    logic             rd_en;
    assign rd_en    = (unread_q != '0) && (!valid_q || do_pop) && !clr_i;
    assign rd_adv   = rd_en;
    assign unread_d = unread_q + CntW'(do_push) - CntW'(rd_en);
    assign rel_d    = CntW'(rd_en || (valid_q && !do_pop));  // head valid after the edge
    always_ff @(posedge clk_i or negedge rst_ni) begin : unread_reg
      if (!rst_ni) begin
        unread_q <= '0;
      end else if (clr_i) begin
        unread_q <= '0;
      end else begin
        unread_q <= unread_d;
      end
    end
    // the read: no reset (the block RAM's output register)
    always_ff @(posedge clk_i) begin : mem_read
      if (rd_en) head_q <= mem_q[rd_q];
    end
    assign head = head_q;
  end else begin : g_async_read
    assign rd_adv = do_pop;
    assign head   = mem_q[rd_q];
  end

  assign data_o  = (GateEmpty && !valid_q) ? '0 : head;
  assign valid_o = valid_q;
  assign full_o  = full_q;
  assign count_o = cnt_q;

`ifndef SYNTHESIS
  // from the first reset on (before it the flags hold whatever they power up with)
  logic reset_seen_q = 1'b0;
  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : misuse
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q && push_i && full_q && !do_pop && !clr_i) begin
      $error("ak_fifo: push while full (ignored)");
    end
  end
`endif

endmodule

`default_nettype wire
