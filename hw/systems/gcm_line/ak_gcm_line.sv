// ak_gcm_line: line-rate AES-GCM (docs/gcm_line.md): ak_gcm_pipe (GCM at one
// block per cycle, messages overlapping) behind an AXI4-Stream slave (packets in), an
// AXI4-Stream master (packets out) and an AXI4-Lite register block (ak_gcm_line_regs,
// generated from gcm_line.rdl: four key slots, counters, the last packet's verdict and
// tag), on a core outside this module (core_* ports, the core contract of
// docs/core-contract.md; ak_gcm_line_sys.sv.tpl wires a registry core).
//
// Framing. s_axis: per packet a header beat (bytes 0..11 the IV, 12..13 the payload
// length p (big-endian), 14 the AAD length a, 15: bit 7 decrypt, bits 6:5 the key slot,
// bits 4:0 the tag length t), then ceil(a/16) AAD beats, ceil(p/16) payload beats and,
// decrypting, the tag beat; each part starts a fresh beat, a short last beat holds its
// bytes in the low lanes. The header's lengths frame the packet: s_axis_tlast and
// s_axis_tkeep are not used. m_axis: one beat per payload beat (tkeep: its bytes), then
// the final beat (tlast): encryption the tag (tkeep: t lanes), decryption and a refused
// packet no data (tkeep 0); tuser[0] = the tag did not match (decryption), tuser[1] =
// refused (t outside 4..16: its beats are taken and dropped). A stream cannot take back
// the plaintext it released: a decryption's payload leaves before its verdict, which
// only the final beat carries; the consumer drops the packet when tuser[0] is set. With
// CTRL.HOLD a decryption whose payload fits the output FIFO (OutDepth - 2 beats) waits
// there for its verdict and is dropped on a failed tag (only its final beat leaves).
// Key slots: a packet whose slot is not the loaded one (or any packet after
// CTRL.RELOAD) waits until every packet before it has left, loads the slot's key (the
// core's key setup, H and its powers: a few hundred cycles), then starts.
//
// Timing: ak_gcm_pipe's (docs/gcm_pipe.md): one block per cycle; per packet one cycle
// for the header, which also sends E(J0) to the core; b payload blocks and no AAD run
// at b / (b + 1) blocks per cycle back to back. No register between the streams and
// ak_gcm_pipe (its output leaves a register slice).
// Byte order: AXI4-Stream's, byte 0 of a block (FIPS-197 in0) in tdata[7:0]; the core
// sees it in [127:120]. Registers: byte 0 of a key or tag in bits [7:0] of word 0.
// Errors: an address outside the 192-byte map answers SLVERR.
// Parameters: Modes (the registry's mode mask: 9'h040, GCM/GMAC with the 96-bit IV, the
// only value), Stages, FifoDepth, OutDepth (ak_gcm_pipe's), AddrWidth (AXI4-Lite address
// bits, >= 8).

`default_nettype none

module ak_gcm_line #(
  parameter logic [8:0] Modes = 9'h040,
  parameter int Stages    = 8,
  parameter int FifoDepth = 128,
  parameter int OutDepth  = 32,
  parameter int AddrWidth = 32
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // AXI4-Lite slave: registers
  input  logic [AddrWidth-1:0] s_axil_awaddr,
  input  logic [2:0]           s_axil_awprot,
  input  logic                 s_axil_awvalid,
  output logic                 s_axil_awready,
  input  logic [31:0]          s_axil_wdata,
  input  logic [3:0]           s_axil_wstrb,
  input  logic                 s_axil_wvalid,
  output logic                 s_axil_wready,
  output logic [1:0]           s_axil_bresp,
  output logic                 s_axil_bvalid,
  input  logic                 s_axil_bready,
  input  logic [AddrWidth-1:0] s_axil_araddr,
  input  logic [2:0]           s_axil_arprot,
  input  logic                 s_axil_arvalid,
  output logic                 s_axil_arready,
  output logic [31:0]          s_axil_rdata,
  output logic [1:0]           s_axil_rresp,
  output logic                 s_axil_rvalid,
  input  logic                 s_axil_rready,
  // AXI4-Stream slave: packets in
  input  logic [127:0]         s_axis_tdata,
  input  logic [15:0]          s_axis_tkeep,
  input  logic                 s_axis_tlast,
  input  logic                 s_axis_tvalid,
  output logic                 s_axis_tready,
  // AXI4-Stream master: packets out
  output logic [127:0]         m_axis_tdata,
  output logic [15:0]          m_axis_tkeep,
  output logic                 m_axis_tlast,
  output logic [1:0]           m_axis_tuser,
  output logic                 m_axis_tvalid,
  input  logic                 m_axis_tready,
  // the core (contract ports, seen from the core's master)
  output logic                 core_key_valid_o,
  input  logic                 core_key_ready_i,
  output logic [255:0]         core_key_o,
  output logic [1:0]           core_key_len_o,
  output logic                 core_in_valid_o,
  input  logic                 core_in_ready_i,
  output logic [127:0]         core_in_data_o,
  output logic                 core_in_decrypt_o,
  output logic [0:0]           core_in_tag_o,
  input  logic                 core_out_valid_i,
  output logic                 core_out_ready_o,
  input  logic [127:0]         core_out_data_i,
  input  logic [0:0]           core_out_tag_i
);

  if (Modes != 9'h040) begin : g_bad_modes
    $fatal(1, "ak_gcm_line: Modes must be 9'h040 (GCM, mode code 6), got %0h", Modes);
  end
  if (AddrWidth < 8) begin : g_bad_addr
    $fatal(1, "ak_gcm_line: AddrWidth must be >= 8, got %0d", AddrWidth);
  end

  // AXI4-Stream lane i (tdata[8i+7:8i]) <-> block byte i ([127-8i -: 8])
  import ak_mode_pkg::lanes_swap, ak_mode_pkg::keep_of;

  // ------------------------------------------------------------------------------
  // Register block; an address outside the map goes to the unmapped offset 0xFC
  // ------------------------------------------------------------------------------
  ak_gcm_line_regs_pkg::ak_gcm_line_regs__in_t  hwif_in;
  ak_gcm_line_regs_pkg::ak_gcm_line_regs__out_t hwif_out;
  logic [7:0] rb_awaddr, rb_araddr;

  if (AddrWidth > 8) begin : g_addr
    assign rb_awaddr = (|s_axil_awaddr[AddrWidth-1:8]) ? 8'hfc : s_axil_awaddr[7:0];
    assign rb_araddr = (|s_axil_araddr[AddrWidth-1:8]) ? 8'hfc : s_axil_araddr[7:0];
  end else begin : g_addr8
    assign rb_awaddr = s_axil_awaddr[7:0];
    assign rb_araddr = s_axil_araddr[7:0];
  end

  ak_gcm_line_regs u_regs (
    .clk            (clk_i),
    .arst_n         (rst_ni),
    .s_axil_awready (s_axil_awready),
    .s_axil_awvalid (s_axil_awvalid),
    .s_axil_awaddr  (rb_awaddr),
    .s_axil_awprot  (s_axil_awprot),
    .s_axil_wready  (s_axil_wready),
    .s_axil_wvalid  (s_axil_wvalid),
    .s_axil_wdata   (s_axil_wdata),
    .s_axil_wstrb   (s_axil_wstrb),
    .s_axil_bready  (s_axil_bready),
    .s_axil_bvalid  (s_axil_bvalid),
    .s_axil_bresp   (s_axil_bresp),
    .s_axil_arready (s_axil_arready),
    .s_axil_arvalid (s_axil_arvalid),
    .s_axil_araddr  (rb_araddr),
    .s_axil_arprot  (s_axil_arprot),
    .s_axil_rready  (s_axil_rready),
    .s_axil_rvalid  (s_axil_rvalid),
    .s_axil_rdata   (s_axil_rdata),
    .s_axil_rresp   (s_axil_rresp),
    .hwif_in        (hwif_in),
    .hwif_out       (hwif_out)
  );

  // ------------------------------------------------------------------------------
  // Header beat and key slots
  // ------------------------------------------------------------------------------
  logic [127:0] hdr, in_data;
  logic [95:0]  h_iv;
  logic [15:0]  h_plen;
  logic [7:0]   h_alen;
  logic         h_dec;
  logic [1:0]   h_slot;
  logic [4:0]   h_tlen;
  logic [31:0]  h_beats;
  logic [255:0] slot_key;
  logic [1:0]   slot_len;

  assign hdr     = lanes_swap(s_axis_tdata);
  assign in_data = hdr;
  assign h_iv    = hdr[127:32];
  assign h_plen  = hdr[31:16];
  assign h_alen  = hdr[15:8];
  assign h_dec   = hdr[7];
  assign h_slot  = hdr[6:5];
  assign h_tlen  = hdr[4:0];
  assign h_beats = {28'd0, h_alen[7:4]} + {31'd0, h_alen[3:0] != 4'd0} +
                   {20'd0, h_plen[15:4]} + {31'd0, h_plen[3:0] != 4'd0} + {31'd0, h_dec};

  always_comb begin : slot_sel
    for (int i = 0; i < 8; i++) begin
      for (int b = 0; b < 4; b++) begin
        slot_key[255 - 32*i - 8*b -: 8] = hwif_out.KEY[8*h_slot + i].W.value[8*b +: 8];
      end
    end
    unique case (h_slot)
      2'd0:    slot_len = hwif_out.KEY_LEN.S0.value;
      2'd1:    slot_len = hwif_out.KEY_LEN.S1.value;
      2'd2:    slot_len = hwif_out.KEY_LEN.S2.value;
      default: slot_len = hwif_out.KEY_LEN.S3.value;
    endcase
  end

  // ------------------------------------------------------------------------------
  // Stream in: the header is the command (or, for another slot, the key first), then
  // the packet's beats
  // ------------------------------------------------------------------------------
  logic        data_q, data_d;       // the next beat is a data beat of the packet
  logic [31:0] left_q, left_d;       // its data beats still to come
  logic        key_ok_q, key_ok_d;
  logic [1:0]  slot_q, slot_d;
  logic        reload_q, reload_d;
  logic        need_key;

  logic key_valid, key_ready, cmd_valid, cmd_ready, in_valid, in_ready;
  logic out_valid, out_ready, out_tag, out_pass, out_error;
  logic [127:0] out_data;
  logic [4:0]   out_bytes;

  assign need_key  = !key_ok_q || (h_slot != slot_q) || reload_q;
  assign key_valid = s_axis_tvalid && !data_q && need_key;
  assign cmd_valid = s_axis_tvalid && !data_q && !need_key;
  assign in_valid  = s_axis_tvalid && data_q;
  assign s_axis_tready = data_q ? in_ready : (cmd_ready && !need_key);

  always_comb begin : stream_in
    data_d   = data_q;
    left_d   = left_q;
    key_ok_d = key_ok_q;
    slot_d   = slot_q;
    reload_d = reload_q || hwif_out.CTRL.RELOAD.value;
    if (key_valid && key_ready) begin
      key_ok_d = 1'b1;
      slot_d   = h_slot;
      reload_d = hwif_out.CTRL.RELOAD.value;
    end
    if (cmd_valid && cmd_ready && (h_beats != 32'd0)) begin
      data_d = 1'b1;
      left_d = h_beats;
    end
    if (in_valid && in_ready) begin
      left_d = left_q - 32'd1;
      if (left_q == 32'd1) data_d = 1'b0;
    end
  end

  ak_gcm_pipe #(
    .Stages       (Stages),
    .FifoDepth    (FifoDepth),
    .OutDepth     (OutDepth),
    .CoreTagWidth (1)
  ) u_gcm (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .key_valid_i       (key_valid),
    .key_ready_o       (key_ready),
    .key_i             (slot_key),
    .key_len_i         ((slot_len == 2'd3) ? 2'd2 : slot_len),
    .cmd_valid_i       (cmd_valid),
    .cmd_ready_o       (cmd_ready),
    .cmd_decrypt_i     (h_dec),
    .cmd_iv_i          (h_iv),
    .cmd_aad_len_i     ({24'd0, h_alen}),
    .cmd_msg_len_i     ({16'd0, h_plen}),
    .cmd_tag_len_i     (h_tlen),
    .cmd_hold_i        (hwif_out.CTRL.HOLD.value),
    .in_valid_i        (in_valid),
    .in_ready_o        (in_ready),
    .in_data_i         (in_data),
    .out_valid_o       (out_valid),
    .out_ready_i       (out_ready),
    .out_data_o        (out_data),
    .out_tag_o         (out_tag),
    .out_bytes_o       (out_bytes),
    .out_pass_o        (out_pass),
    .out_error_o       (out_error),
    .core_key_valid_o  (core_key_valid_o),
    .core_key_ready_i  (core_key_ready_i),
    .core_key_o        (core_key_o),
    .core_key_len_o    (core_key_len_o),
    .core_in_valid_o   (core_in_valid_o),
    .core_in_ready_i   (core_in_ready_i),
    .core_in_data_o    (core_in_data_o),
    .core_in_decrypt_o (core_in_decrypt_o),
    .core_in_tag_o     (core_in_tag_o),
    .core_out_valid_i  (core_out_valid_i),
    .core_out_ready_o  (core_out_ready_o),
    .core_out_data_i   (core_out_data_i),
    .core_out_tag_i    (core_out_tag_i)
  );

  // ------------------------------------------------------------------------------
  // Stream out, counters, the last packet's verdict and tag
  // ------------------------------------------------------------------------------
  logic        fin, fail, dec_out;
  logic [15:0] flight_q, flight_d;
  logic [31:0] pkts_q, fails_q, errs_q;
  logic [2:0]  last_q;

  assign m_axis_tdata  = lanes_swap(out_data);
  assign m_axis_tvalid = out_valid;
  assign m_axis_tlast  = out_tag;
  assign fail          = out_tag && !out_pass && !out_error;
  assign m_axis_tuser  = {out_tag && out_error, fail};
  assign out_ready     = m_axis_tready;
  assign m_axis_tkeep  = keep_of(out_bytes);

  assign fin      = out_valid && out_ready && out_tag;
  assign dec_out  = (out_bytes == 5'd0) && !out_error;
  assign flight_d = flight_q + {15'd0, cmd_valid && cmd_ready} - {15'd0, fin};

  always_ff @(posedge clk_i or negedge rst_ni) begin : regs
    if (!rst_ni) begin
      data_q   <= 1'b0;
      left_q   <= 32'd0;
      key_ok_q <= 1'b0;
      slot_q   <= 2'd0;
      reload_q <= 1'b0;
      flight_q <= 16'd0;
      pkts_q   <= 32'd0;
      fails_q  <= 32'd0;
      errs_q   <= 32'd0;
      last_q   <= 3'd0;
    end else begin
      data_q   <= data_d;
      left_q   <= left_d;
      key_ok_q <= key_ok_d;
      slot_q   <= slot_d;
      reload_q <= reload_d;
      flight_q <= flight_d;
      if (fin) begin
        pkts_q  <= pkts_q + 32'd1;
        fails_q <= fails_q + {31'd0, fail};
        errs_q  <= errs_q + {31'd0, out_error};
        last_q  <= {out_error, fail, dec_out};
      end
    end
  end

  always_comb begin : to_regs
    hwif_in.STATUS.KEY_OK.next    = key_ok_q;
    hwif_in.STATUS.SLOT.next      = slot_q;
    hwif_in.STATUS.IN_FLIGHT.next = flight_q;
    hwif_in.PACKETS.N.next        = pkts_q;
    hwif_in.TAG_FAILS.N.next      = fails_q;
    hwif_in.ERRORS.N.next         = errs_q;
    hwif_in.LAST.DECRYPT.next     = last_q[0];
    hwif_in.LAST.TAG_FAIL.next    = last_q[1];
    hwif_in.LAST.ERROR.next       = last_q[2];
    for (int i = 0; i < 4; i++) begin
      hwif_in.TAG[i].W.next = m_axis_tdata[32*i +: 32];
      hwif_in.TAG[i].W.we   = fin && !out_error && !dec_out;
    end
  end

  logic unused_in;
  assign unused_in = s_axis_tlast ^ (^s_axis_tkeep);

endmodule

`default_nettype wire
