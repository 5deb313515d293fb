// ak_cipher_ahb_bridge: AHB-Lite slave (AMBA 3 AHB-Lite, 32-bit data) in front of a
// peakrdl-regblock "passthrough" CPU interface (req / req_is_wr / addr / wr_data /
// wr_biten, stall, rd_ack / rd_err / rd_data, wr_ack / wr_err).
//
// Transfers. An address phase is taken at an edge where s_ahb_hsel && s_ahb_hready &&
// s_ahb_htrans is NONSEQ or SEQ; IDLE and BUSY get a zero-wait OKAY and do nothing.
// Only 32-bit, word-aligned transfers are legal (s_ahb_hsize = 3'b010,
// s_ahb_haddr[1:0] = 0); any other size or alignment gets the two-cycle ERROR
// response without reaching the register block. A legal transfer becomes one
// request to the register block in its data phase (write data is s_ahb_hwdata,
// which the master holds for the whole data phase). An error from the register
// block (unmapped address, read of a write-only or write of a read-only register)
// also gives the two-cycle ERROR response.
//
// Flow control. While hold_i is high for the transfer in its data phase (the top
// raises it for a FIFO window that is full or empty: xfer_* tell it which transfer
// is waiting), the request is not sent and wait states are inserted; after WaitLimit
// such cycles the transfer ends with an ERROR response instead. Nothing waits
// forever.
//
// Timing. Every legal transfer has one wait state at least (HREADYOUT low in the
// first data-phase cycle, the register block answers in that cycle, the response
// is registered): two cycles per transfer, plus the hold cycles. ERROR: HREADYOUT low
// with HRESP = ERROR for one cycle, then HREADYOUT high with HRESP = ERROR. All AHB
// outputs come from registers. err_o is high in the first cycle of an ERROR
// response (a register). Byte lanes: the AHB little-endian convention, the register block sees
// s_ahb_hwdata/s_ahb_hrdata unchanged.
//
// Parameters:
//   AddrWidth  address bits decoded here (the register block's address width);
//              s_ahb_haddr bits above it are left to the interconnect (HSEL).
//   WaitLimit  hold cycles before a held transfer ends with ERROR (>= 1).

`default_nettype none

module ak_cipher_ahb_bridge #(
  parameter int AddrWidth = 8,
  parameter int WaitLimit = 256
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AHB-Lite slave
  input  logic                 s_ahb_hsel,
  input  logic [31:0]          s_ahb_haddr,
  input  logic [1:0]           s_ahb_htrans,
  input  logic                 s_ahb_hwrite,
  input  logic [2:0]           s_ahb_hsize,
  input  logic [31:0]          s_ahb_hwdata,
  input  logic                 s_ahb_hready,
  output logic                 s_ahb_hreadyout,
  output logic                 s_ahb_hresp,
  output logic [31:0]          s_ahb_hrdata,
  // the transfer in its data phase (for the top's flow control)
  output logic                 xfer_o,
  output logic [AddrWidth-1:0] xfer_addr_o,
  output logic                 xfer_write_o,
  input  logic                 hold_i,
  output logic                 err_o,
  // passthrough CPU interface (master side)
  output logic                 cpuif_req_o,
  output logic                 cpuif_req_is_wr_o,
  output logic [AddrWidth-1:0] cpuif_addr_o,
  output logic [31:0]          cpuif_wr_data_o,
  output logic [31:0]          cpuif_wr_biten_o,
  input  logic                 cpuif_req_stall_wr_i,
  input  logic                 cpuif_req_stall_rd_i,
  input  logic                 cpuif_rd_ack_i,
  input  logic                 cpuif_rd_err_i,
  input  logic [31:0]          cpuif_rd_data_i,
  input  logic                 cpuif_wr_ack_i,
  input  logic                 cpuif_wr_err_i
);

  if (AddrWidth < 3 || AddrWidth > 32) begin : g_bad_addr_width
    $fatal(1, "ak_cipher_ahb_bridge: AddrWidth must be 3..32, got %0d", AddrWidth);
  end
  if (WaitLimit < 1) begin : g_bad_wait_limit
    $fatal(1, "ak_cipher_ahb_bridge: WaitLimit must be >= 1, got %0d", WaitLimit);
  end

  localparam int CntWidth = $clog2(WaitLimit + 1);

  typedef enum logic [1:0] {
    StReady,  // no data phase of ours pending: HREADYOUT high, OKAY
    StWait,   // data phase of a legal transfer: request / hold
    StErr1,   // first ERROR cycle (HREADYOUT low)
    StErr2    // second ERROR cycle (HREADYOUT high)
  } st_e;

  st_e                  st_q, st_d;
  logic [AddrWidth-1:0] addr_q, addr_d;
  logic                 write_q, write_d;
  logic                 pend_q, pend_d;   // request taken by the register block, no ack yet
  logic [CntWidth-1:0]  wait_q, wait_d;
  logic [31:0]          rdata_q, rdata_d;

  logic take, legal, req, stall, ack, ack_err;

  // an address phase for us: sampled only when the previous transfer completes
  assign take  = s_ahb_hsel && s_ahb_hready && s_ahb_htrans[1]
                 && (st_q == StReady || st_q == StErr2);
  assign legal = (s_ahb_hsize == 3'b010) && (s_ahb_haddr[1:0] == 2'b00);

  assign req     = (st_q == StWait) && !pend_q && !hold_i;
  assign stall   = write_q ? cpuif_req_stall_wr_i : cpuif_req_stall_rd_i;
  assign ack     = cpuif_rd_ack_i || cpuif_wr_ack_i;
  assign ack_err = (cpuif_rd_ack_i && cpuif_rd_err_i) || (cpuif_wr_ack_i && cpuif_wr_err_i);

  always_comb begin : bridge_next
    st_d    = st_q;
    addr_d  = addr_q;
    write_d = write_q;
    pend_d  = pend_q;
    wait_d  = wait_q;
    rdata_d = rdata_q;
    unique case (st_q)
      StReady, StErr2: begin
        st_d = StReady;
        if (take) begin
          addr_d  = s_ahb_haddr[AddrWidth-1:0];
          write_d = s_ahb_hwrite;
          pend_d  = 1'b0;
          wait_d  = '0;
          if (legal) begin
            st_d = StWait;
          end else begin
            st_d = StErr1;
          end
        end
      end
      StWait: begin
        if (req && !stall) pend_d = 1'b1;
        if ((req && !stall) || pend_q) begin
          if (ack) begin
            pend_d = 1'b0;
            if (ack_err) begin
              st_d = StErr1;
            end else begin
              st_d = StReady;
              if (!write_q) rdata_d = cpuif_rd_data_i;
            end
          end
        end else if (hold_i) begin
          if (int'(wait_q) >= WaitLimit - 1) begin
            st_d = StErr1;
          end else begin
            wait_d = wait_q + 1'b1;
          end
        end
      end
      StErr1:  st_d = StErr2;
      default: st_d = StReady;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : bridge_regs
    if (!rst_ni) begin
      st_q    <= StReady;
      addr_q  <= '0;
      write_q <= 1'b0;
      pend_q  <= 1'b0;
      wait_q  <= '0;
      rdata_q <= '0;
    end else begin
      st_q    <= st_d;
      addr_q  <= addr_d;
      write_q <= write_d;
      pend_q  <= pend_d;
      wait_q  <= wait_d;
      rdata_q <= rdata_d;
    end
  end

  assign s_ahb_hreadyout = (st_q == StReady) || (st_q == StErr2);
  assign s_ahb_hresp     = (st_q == StErr1) || (st_q == StErr2);
  assign s_ahb_hrdata    = rdata_q;

  assign err_o        = (st_q == StErr1);  // one cycle per ERROR response
  assign xfer_o       = (st_q == StWait);
  assign xfer_addr_o  = addr_q;
  assign xfer_write_o = write_q;

  assign cpuif_req_o       = req;
  assign cpuif_req_is_wr_o = write_q;
  assign cpuif_addr_o      = addr_q;
  assign cpuif_wr_data_o   = s_ahb_hwdata;
  assign cpuif_wr_biten_o  = '1;

  // address bits above AddrWidth are decoded by the interconnect (HSEL)
  // (and HTRANS[0] only tells IDLE from BUSY, NONSEQ from SEQ: both alike here)
  logic unused_haddr;
  if (AddrWidth < 32) begin : g_unused_haddr
    assign unused_haddr = ^{s_ahb_haddr[31:AddrWidth], s_ahb_htrans[0]};
  end else begin : g_no_unused_haddr
    assign unused_haddr = s_ahb_htrans[0];
  end

endmodule

`default_nettype wire
