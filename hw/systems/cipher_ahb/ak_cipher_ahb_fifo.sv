// ak_cipher_ahb_fifo: block FIFO of ak_cipher_ahb (Depth entries of DataWidth bits) with a
// release gate for CCM decryption.
//
// push_i writes data_i when not full_o; pop_i removes the oldest entry when avail_o.
// An entry pushed while hold_i is high is unreleased: it is stored but not visible
// (avail_o counts released entries only) until release_i releases every entry, or
// drop_i discards every unreleased entry (the FIFO then holds only the released ones).
// The top holds the plaintext of a CCM decryption this way until the tag verdict.
// Unreleased entries are always the youngest (the top starts a held message only
// after the previous message's status).
//
// Timing: data_o is the oldest entry (a register); a push is visible (avail_o) the
// cycle after it; push and pop in the same cycle are allowed (a full FIFO takes
// no push, even with a pop: full_o and avail_o are functions of registers only).
// Every register is reset by rst_ni. Byte order: data is stored as given.
//
// Parameters: DataWidth (bits per entry, >= 1), Depth (entries, >= 1).

`default_nettype none

module ak_cipher_ahb_fifo #(
  parameter int DataWidth = 128,
  parameter int Depth = 2
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  logic [DataWidth-1:0] data_i,
  input  logic             hold_i,
  output logic             full_o,
  input  logic             pop_i,
  output logic             avail_o,
  output logic [DataWidth-1:0] data_o,
  input  logic             release_i,
  input  logic             drop_i
);

  if (DataWidth < 1) begin : g_bad_width
    $fatal(1, "ak_cipher_ahb_fifo: DataWidth must be >= 1, got %0d", DataWidth);
  end
  if (Depth < 1) begin : g_bad_depth
    $fatal(1, "ak_cipher_ahb_fifo: Depth must be >= 1, got %0d", Depth);
  end

  localparam int PtrWidth = (Depth > 1) ? $clog2(Depth) : 1;
  localparam int CntWidth = $clog2(Depth + 1);

  logic [DataWidth-1:0]    mem_q [Depth];
  logic [PtrWidth-1:0] wr_q, wr_d, rd_q, rd_d;
  logic [CntWidth-1:0] cnt_q, cnt_d, rel_q, rel_d;
  logic                do_push, do_pop;

  function automatic logic [PtrWidth-1:0] ptr_add(input logic [PtrWidth-1:0] p,
                                                  input logic [CntWidth-1:0] n);
    int s;
    s = int'(p) + int'(n);
    if (s >= Depth) s -= Depth;
    return PtrWidth'(s);
  endfunction

  // full_o and avail_o come from registers only (no path from pop to push)
  assign do_pop  = pop_i && (rel_q != '0);
  assign full_o  = (int'(cnt_q) >= Depth);
  assign do_push = push_i && !full_o;
  assign avail_o = (rel_q != '0);
  assign data_o  = mem_q[rd_q];

  always_comb begin : fifo_next
    wr_d  = wr_q;
    rd_d  = rd_q;
    cnt_d = cnt_q;
    rel_d = rel_q;
    if (do_pop) begin
      rd_d  = ptr_add(rd_q, CntWidth'(1));
      cnt_d = cnt_d - 1'b1;
      rel_d = rel_d - 1'b1;
    end
    if (do_push) begin
      wr_d  = ptr_add(wr_q, CntWidth'(1));
      cnt_d = cnt_d + 1'b1;
      if (!hold_i) rel_d = rel_d + 1'b1;
    end
    if (release_i) begin
      rel_d = cnt_d;
    end else if (drop_i) begin
      cnt_d = rel_d;
      wr_d  = ptr_add(rd_d, rel_d);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fifo_ptr_regs
    if (!rst_ni) begin
      wr_q  <= '0;
      rd_q  <= '0;
      cnt_q <= '0;
      rel_q <= '0;
    end else begin
      wr_q  <= wr_d;
      rd_q  <= rd_d;
      cnt_q <= cnt_d;
      rel_q <= rel_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : fifo_mem_regs
    if (!rst_ni) begin
      for (int i = 0; i < Depth; i++) mem_q[i] <= '0;
    end else if (do_push) begin
      mem_q[wr_q] <= data_i;
    end
  end

endmodule

`default_nettype wire
