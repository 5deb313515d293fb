// ak_asbus_master_tb: bench top of tests/hw/bus/asbus/test_asbus_master.py -- two RTL ASBUS
// masters (ak_asbus_master, master 0 with the higher priority) in front of one ADAM
// (ak_adam, N = 2), so both sides of the bus are RTL. The user-side ports of master i
// are slice i of the flattened ports below; the ASBUS between them is the bench's
// asbus_* nets (ADAM's s_asbus_* ports). The masters' parameters are bench parameters
// so that each can get a different buffer size (credits, local refusals).

`default_nettype none

module ak_asbus_master_tb #(
  parameter int unsigned DataWidth = 32,
  parameter int unsigned Out0 = 4,
  parameter int unsigned Rd0  = 16,
  parameter int unsigned Wr0  = 64,
  parameter int unsigned Out1 = 2,
  parameter int unsigned Rd1  = 64,
  parameter int unsigned Wr1  = 16,
  localparam int unsigned NB = DataWidth / 8
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  // user side of master i in slice i
  input  logic [1:0]      cmd_valid_i,
  output logic [1:0]      cmd_ready_o,
  input  logic [63:0]     cmd_addr_i,
  input  logic [1:0]      cmd_wr_i,
  input  logic [23:0]     cmd_len_i,
  input  logic [1:0]      wr_valid_i,
  output logic [1:0]      wr_ready_o,
  input  logic [2*DataWidth-1:0]  wr_data_i,
  input  logic [2*NB-1:0] wr_strb_i,
  output logic [1:0]      rd_valid_o,
  input  logic [1:0]      rd_ready_i,
  output logic [2*DataWidth-1:0]  rd_data_o,
  output logic [1:0]      rd_last_o,
  output logic [1:0]      rsp_valid_o,
  input  logic [1:0]      rsp_ready_i,
  output logic [1:0]      rsp_wr_o,
  output logic [1:0]      rsp_err_o,
  // ADAM's MBUS and wait states
  input  logic            s_mbus_sel,
  input  logic            s_mbus_wr,
  input  logic [7:0]      s_mbus_addr,
  input  logic [31:0]     s_mbus_wdata,
  output logic [31:0]     s_mbus_rdata,
  input  logic [1:0]      wait_i
);

  logic [1:0]      asbus_req, asbus_gnt, asbus_wr;
  logic [63:0]     asbus_addr;
  logic [23:0]     asbus_len;
  logic [2*NB-1:0] asbus_wd_vld;
  logic [2*DataWidth-1:0]  asbus_wdata;
  logic [DataWidth-1:0]    asbus_rdata;
  logic [3:0]      asbus_resp, asbus_err;

  for (genvar i = 0; i < 2; i++) begin : g_master
    ak_asbus_master #(
      .DataWidth          (DataWidth),
      .Outstanding(i == 0 ? Out0 : Out1),
      .RdDepth    (i == 0 ? Rd0 : Rd1),
      .WrDepth    (i == 0 ? Wr0 : Wr1)
    ) u_master (
      .clk_i, .rst_ni,
      .cmd_valid_i   (cmd_valid_i[i]),
      .cmd_ready_o   (cmd_ready_o[i]),
      .cmd_addr_i    (cmd_addr_i[32*i +: 32]),
      .cmd_wr_i      (cmd_wr_i[i]),
      .cmd_len_i     (cmd_len_i[12*i +: 12]),
      .wr_valid_i    (wr_valid_i[i]),
      .wr_ready_o    (wr_ready_o[i]),
      .wr_data_i     (wr_data_i[DataWidth*i +: DataWidth]),
      .wr_strb_i     (wr_strb_i[NB*i +: NB]),
      .rd_valid_o    (rd_valid_o[i]),
      .rd_ready_i    (rd_ready_i[i]),
      .rd_data_o     (rd_data_o[DataWidth*i +: DataWidth]),
      .rd_last_o     (rd_last_o[i]),
      .rsp_valid_o   (rsp_valid_o[i]),
      .rsp_ready_i   (rsp_ready_i[i]),
      .rsp_wr_o      (rsp_wr_o[i]),
      .rsp_err_o     (rsp_err_o[i]),
      .m_asbus_req   (asbus_req[i]),
      .m_asbus_gnt   (asbus_gnt[i]),
      .m_asbus_addr  (asbus_addr[32*i +: 32]),
      .m_asbus_wr    (asbus_wr[i]),
      .m_asbus_len   (asbus_len[12*i +: 12]),
      .m_asbus_wd_vld(asbus_wd_vld[NB*i +: NB]),
      .m_asbus_wdata (asbus_wdata[DataWidth*i +: DataWidth]),
      .m_asbus_rdata (asbus_rdata),
      .m_asbus_resp  (asbus_resp[2*i +: 2]),
      .m_asbus_err   (asbus_err[2*i +: 2])
    );
  end

  ak_adam #(.DataWidth(DataWidth), .N(2)) u_adam (
    .clk_i, .rst_ni,
    .s_asbus_req   (asbus_req),
    .s_asbus_gnt   (asbus_gnt),
    .s_asbus_addr  (asbus_addr),
    .s_asbus_wr    (asbus_wr),
    .s_asbus_len   (asbus_len),
    .s_asbus_wd_vld(asbus_wd_vld),
    .s_asbus_wdata (asbus_wdata),
    .s_asbus_rdata (asbus_rdata),
    .s_asbus_resp  (asbus_resp),
    .s_asbus_err   (asbus_err),
    .s_mbus_sel, .s_mbus_wr, .s_mbus_addr, .s_mbus_wdata, .s_mbus_rdata,
    .wait_i
  );

endmodule

`default_nettype wire
