// ak_uart_rx: UART receiver, 8N1 (one start bit, 8 data bits LSB first, one stop bit,
// no parity). The line goes through a 2-flip-flop synchronizer; a falling edge starts a
// byte, the start bit is checked at its middle (a glitch shorter than half a bit is
// ignored), every data bit and the stop bit are sampled at their middles.
// Latency: valid_o (or ferr_o) pulses for one cycle at the middle of the stop bit,
// 2 + 9.5 * ClkPerBit cycles after the start edge reaches rx_i. A new start bit is
// looked for from the next cycle on, so back-to-back bytes at full rate are received.
// Errors: a stop bit read as 0 pulses ferr_o instead of valid_o (data_o holds the
// bits read); the receiver then waits for the line to be high again (a break, the line
// held low, gives one framing error, not one per byte time).
// Byte order: data_o[0] is the first data bit on the line (UART LSB first).
// Parameters: ClkPerBit (int, >= 4): clock cycles per bit, clock / baud rate rounded.
`default_nettype none
module ak_uart_rx #(
  parameter int ClkPerBit = 104
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       rx_i,
  output logic [7:0] data_o,
  output logic       valid_o,
  output logic       ferr_o
);
  if (ClkPerBit < 4) begin : g_bad_param
    $error("%m: ClkPerBit must be >= 4, got %0d", ClkPerBit);
  end

  localparam int CntW = $clog2(ClkPerBit + 1);
  localparam logic [CntW-1:0] Half = CntW'(ClkPerBit / 2 - 1);
  localparam logic [CntW-1:0] Full = CntW'(ClkPerBit - 1);

  typedef enum logic [2:0] {StIdle, StStart, StData, StStop, StBreak} state_e;
  state_e          state_q, state_d;
  logic [1:0]      sync_q;
  logic            rx;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [2:0]      bit_q, bit_d;
  logic [7:0]      sh_q, sh_d;
  logic            valid_d, ferr_d;

  assign rx = sync_q[1];

  always_comb begin : rx_next
    state_d = state_q;
    cnt_d   = cnt_q == '0 ? '0 : cnt_q - 1'b1;
    bit_d   = bit_q;
    sh_d    = sh_q;
    valid_d = 1'b0;
    ferr_d  = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (!rx) begin
          state_d = StStart;
          cnt_d   = Half;
        end
      end
      StStart: begin
        if (cnt_q == '0) begin
          if (rx) begin
            state_d = StIdle;          // a glitch, not a start bit
          end else begin
            state_d = StData;
            cnt_d   = Full;
            bit_d   = '0;
          end
        end
      end
      StData: begin
        if (cnt_q == '0) begin
          sh_d  = {rx, sh_q[7:1]};
          cnt_d = Full;
          bit_d = bit_q + 1'b1;
          if (bit_q == 3'd7) state_d = StStop;
        end
      end
      StStop: begin
        if (cnt_q == '0) begin
          if (rx) begin
            valid_d = 1'b1;
            state_d = StIdle;
          end else begin
            ferr_d  = 1'b1;
            state_d = StBreak;
          end
        end
      end
      StBreak: if (rx) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : rx_reg
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      state_q <= StIdle;
      cnt_q   <= '0;
      bit_q   <= '0;
      sh_q    <= '0;
      valid_o <= 1'b0;
      ferr_o  <= 1'b0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      state_q <= state_d;
      cnt_q   <= cnt_d;
      bit_q   <= bit_d;
      sh_q    <= sh_d;
      valid_o <= valid_d;
      ferr_o  <= ferr_d;
    end
  end

  assign data_o = sh_q;
endmodule
`default_nettype wire
