// ak_board_top: the top of a board build (aeskit board): the board's oscillator,
// USB-UART and LEDs around ak_uart_demo_sys (the UART demo on a registry core).
//
// Reset: the board has no reset pin the demo relies on. The FPGA's configuration
// leaves every flip-flop at its initial value, so a power-on counter that starts at 0
// holds the demo's reset low for 2**PorBits clock cycles after configuration and then
// releases it from a flip-flop: the demo's flip-flops see a reset asserted from
// configuration on and released synchronously to clk_i.
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
  logic [PorBits-1:0] por_q;  // counts up to all ones after configuration
  logic rst_nq;               // the demo's reset, released the cycle after
  logic [1:0] demo_led;

  // the configuration's values (FPGA flip-flop initial values; no reset pin)
  initial begin
    por_q = '0;
    rst_nq = 1'b0;
  end

  always_ff @(posedge clk_i) begin
    if (!(&por_q)) por_q <= por_q + 1'b1;
    rst_nq <= &por_q;
  end

  ak_uart_demo_sys #(.ClkHz(ClkHz), .Baud(Baud)) u_demo (
    .clk_i, .rst_ni(rst_nq), .uart_rx_i, .uart_tx_o, .led_o(demo_led)
  );

  // the demo's two LEDs on led_o[1:0], zero-extended to the board's LEDs
  assign led_o = LedActiveLow ? ~Leds'(demo_led) : Leds'(demo_led);

  if (Leds < 2 || Leds > 8) begin : g_bad_leds
    $error("ak_board_top: Leds must be 2..8");
  end
endmodule
`default_nettype wire
