// ak_dam_mbus_regs: the MBUS register file of ADAM/XDAM: the low-cost control bus of
// paper 000 on which the processor writes the expanded key (the engines have no key
// schedule), the block row pitch and the configuration.
//
//   0x00 CTRL   [0] DEC_EN: the write data path decrypts state transfers (else bypass)
//               [1] ENC_EN: the read data path encrypts state transfers (else bypass)
//   0x04 PITCH  [15:0] block row pitch in bytes (a multiple of DataWidth/8)
//   0x08 ERRCNT [15:0] commands answered with an error (read only, wraps)
//   0x40 + 4i   KEY[i], i = 0..43: expanded-key word w[i] (FIPS-197 5.2), byte 0 of the
//               word in [31:24]; round key k = w[4k .. 4k+3]. Write only: a read returns
//               0 (no key word is ever readable on the bus)
// Unmapped addresses read 0 and ignore writes.
//
// MBUS: s_mbus_sel with s_mbus_wr = 1 writes s_mbus_wdata at the edge; with
// s_mbus_wr = 0 the register appears on s_mbus_rdata the next cycle (held until the
// next read). No wait states.
// Timing    : write latency 1 (the new value is used from the next cycle).
// Byte order: rk_o holds round key k in [128k +: 128], byte 4c + r (s[r][c]) in bits
//             [8(4c+r) +: 8] (bus-lane order of the engines).
// Parameters: none.

`default_nettype none

module ak_dam_mbus_regs (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          s_mbus_sel,
  input  logic          s_mbus_wr,
  input  logic [7:0]    s_mbus_addr,
  input  logic [31:0]   s_mbus_wdata,
  output logic [31:0]   s_mbus_rdata,
  input  logic          err_i,          // a command was answered with an error
  output logic          dec_en_o,
  output logic          enc_en_o,
  output logic [15:0]   pitch_o,
  output logic [1407:0] rk_o
);

  logic [1:0]  ctrl_q, ctrl_d;
  logic [15:0] pitch_q, pitch_d;
  logic [15:0] errcnt_q, errcnt_d;
  logic [31:0] key_q [44];
  logic [31:0] rdata_q, rdata_d;
  logic        wr, rd, key_hit;
  logic [5:0]  key_idx;

  assign wr      = s_mbus_sel && s_mbus_wr;
  assign rd      = s_mbus_sel && !s_mbus_wr;
  assign key_idx = s_mbus_addr[7:2] - 6'd16;
  assign key_hit = (s_mbus_addr[7:6] != 2'b00) && (key_idx < 6'd44) && (s_mbus_addr[1:0] == 2'b00);

  always_comb begin : regs_next
    ctrl_d   = ctrl_q;
    pitch_d  = pitch_q;
    errcnt_d = errcnt_q + 16'(err_i);
    rdata_d  = rdata_q;
    if (wr && s_mbus_addr == 8'h00) ctrl_d = s_mbus_wdata[1:0];
    if (wr && s_mbus_addr == 8'h04) pitch_d = s_mbus_wdata[15:0];
    if (rd) begin
      unique case (s_mbus_addr)
        8'h00:   rdata_d = {30'd0, ctrl_q};
        8'h04:   rdata_d = {16'd0, pitch_q};
        8'h08:   rdata_d = {16'd0, errcnt_q};
        default: rdata_d = 32'd0;   // unmapped, and the write-only key words
      endcase
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      ctrl_q   <= '0;
      pitch_q  <= '0;
      errcnt_q <= '0;
      rdata_q  <= '0;
    end else begin
      ctrl_q   <= ctrl_d;
      pitch_q  <= pitch_d;
      errcnt_q <= errcnt_d;
      rdata_q  <= rdata_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      for (int i = 0; i < 44; i++) key_q[i] <= '0;
    end else if (wr && key_hit) begin
      key_q[key_idx] <= s_mbus_wdata;
    end
  end

  // word w[i] = bytes 4i .. 4i+3 of the expanded key, byte 4i in [31:24]
  for (genvar i = 0; i < 44; i++) begin : g_key
    assign rk_o[32*i +: 32] = {key_q[i][7:0], key_q[i][15:8], key_q[i][23:16], key_q[i][31:24]};
  end

  assign s_mbus_rdata = rdata_q;
  assign dec_en_o     = ctrl_q[0];
  assign enc_en_o     = ctrl_q[1];
  assign pitch_o      = pitch_q;

endmodule

`default_nettype wire
