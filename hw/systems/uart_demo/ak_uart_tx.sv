// ak_uart_tx: UART transmitter, 8N1 (one start bit, 8 data bits LSB first, one stop
// bit, no parity). A byte is taken when valid_i and ready_o are both high; ready_o is
// high while the transmitter is idle, so one byte is in flight at a time.
// Latency and rate: the start bit is on tx_o from the edge after the handshake; the
// stop bit ends 10 * ClkPerBit cycles after that edge, and ready_o is high again in the
// stop bit's last cycle, so a byte offered at once follows with no idle time: back to
// back bytes go at the full rate of one byte per 10 * ClkPerBit cycles.
// Byte order: data_i[0] is the first data bit on the line (UART LSB first).
// Parameters: ClkPerBit (int, >= 4): clock cycles per bit, clock / baud rate rounded.
`default_nettype none
module ak_uart_tx #(
  parameter int ClkPerBit = 104
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [7:0] data_i,
  input  logic       valid_i,
  output logic       ready_o,
  output logic       tx_o
);
  if (ClkPerBit < 4) begin : g_bad_param
    $error("%m: ClkPerBit must be >= 4, got %0d", ClkPerBit);
  end

  localparam int CntW = $clog2(ClkPerBit + 1);
  localparam logic [CntW-1:0] Full = CntW'(ClkPerBit - 1);

  logic [CntW-1:0] cnt_q, cnt_d;
  logic [3:0]      bits_q, bits_d;   // bits still to send, this one included (0: idle)
  logic [8:0]      sh_q, sh_d;       // {data, start} shifted out LSB first; 1s after
  logic            last;

  assign last    = bits_q == 4'd1 && cnt_q == '0;
  assign ready_o = bits_q == 4'd0 || last;

  always_comb begin : tx_next
    cnt_d  = cnt_q;
    bits_d = bits_q;
    sh_d   = sh_q;
    if (valid_i && ready_o) begin
      sh_d   = {data_i, 1'b0};
      bits_d = 4'd10;
      cnt_d  = Full;
    end else if (bits_q != 4'd0) begin
      if (cnt_q == '0) begin
        sh_d   = {1'b1, sh_q[8:1]};
        bits_d = bits_q - 1'b1;
        cnt_d  = Full;
      end else begin
        cnt_d = cnt_q - 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : tx_reg
    if (!rst_ni) begin
      cnt_q  <= '0;
      bits_q <= '0;
      sh_q   <= '1;
    end else begin
      cnt_q  <= cnt_d;
      bits_q <= bits_d;
      sh_q   <= sh_d;
    end
  end

  // the line: the shift register's LSB (start, data, then the 1s shifted in: the stop
  // bit and idle), straight from a flip-flop
  assign tx_o = sh_q[0];
endmodule
`default_nettype wire
