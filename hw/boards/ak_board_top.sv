// ak_board_top: the top of a board build (aeskit board): the board's oscillator,
// USB-UART and LEDs around ak_uart_demo_sys (the UART demo on a registry core).
//
// Reset: the board has no reset pin the demo relies on. The FPGA's configuration
// leaves every flip-flop at its initial value, so a power-on counter that starts at 0
// holds rst_n low for 2**PorBits clock cycles after configuration and then releases
// it (synchronously to clk_i; the demo's flip-flops see an asynchronous assertion
// that lasts from the first edge and a release aligned to the clock).
//
// Parameters:
//   ClkHz         board oscillator frequency, Hz (the clock of the whole design)
//   Baud          UART baud rate
//   Leds          LEDs the board offers (2..8); led_o[1:0] are the demo's, the rest
//                 stay off
//   LedActiveLow  1: the board's LEDs light on a low level (iCEBreaker)
//   PorBits       power-on reset length, 2**PorBits cycles
//
// Latency: none added; uart_rx_i is synchronized inside the demo's receiver.
`default_nettype none
module ak_board_top #(
  parameter int ClkHz = 12_000_000,
  parameter int Baud = 115_200,
  parameter int Leds = 2,
  parameter bit LedActiveLow = 1'b0,
  parameter int PorBits = 8
) (
  input  logic            clk_i,
  input  logic            uart_rx_i,
  output logic            uart_tx_o,
  output logic [Leds-1:0] led_o
);
  logic [PorBits:0] por_q = '0;  // MSB set: reset released
  logic rst_n;
  logic [1:0] demo_led;

  always_ff @(posedge clk_i) begin
    if (!por_q[PorBits]) por_q <= por_q + 1'b1;
  end
  assign rst_n = por_q[PorBits];

  ak_uart_demo_sys #(.ClkHz(ClkHz), .Baud(Baud)) u_demo (
    .clk_i, .rst_ni(rst_n), .uart_rx_i, .uart_tx_o, .led_o(demo_led)
  );

  // the demo's two LEDs on led_o[1:0], zero-extended to the board's LEDs
  assign led_o = LedActiveLow ? ~Leds'(demo_led) : Leds'(demo_led);

  if (Leds < 2 || Leds > 8) begin : g_bad_leds
    $error("ak_board_top: Leds must be 2..8");
  end
endmodule
`default_nettype wire
