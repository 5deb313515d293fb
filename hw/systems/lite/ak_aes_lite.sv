// ak_aes_lite: the lean AES peripheral (docs/aes_lite.md). An AXI4-Lite slave
// (register block ak_aes_lite_regs, generated from aes_lite.rdl) through which the CPU
// runs one block at a time on a core outside this module (core_* ports, the core
// contract of docs/core-contract.md; ak_aes_lite_sys.sv.tpl wires a registry core):
// ECB, CBC, CTR (128-bit big-endian counter) and CMAC generation (RFC 4493; the subkey
// K1 is computed in hardware at KEYGO from L = E(0^128), K2 from K1). No DMA, no FIFO,
// no mode engine: the core input is formed combinationally from DIN, IV and K1, and the
// result is written to DOUT and IV by the register block's hardware write ports.
// Latency: GO -> STATUS.DONE readable = core latency + 2 cycles after the GO write's
// response edge (core idle, key loaded; docs/aes_lite.md gives the measured counts).
// Byte order: byte 0 of a block (FIPS-197 in0) or of the key is bits [7:0] of word 0
// (DIN[0], IV[0], KEY[0], DOUT[0]); the core sees it in [127:120] / [255:248].
// Parameters: Modes (bit m builds mode code m: 0 ECB, 1 CBC, 2 CTR, 7 CMAC; a mode left
// out ends its GO with ERR ILLEGAL), CoreDirections and CoreKeySizes (what the core
// builds, docs/core-contract.md; a request beyond them ends with ERR ILLEGAL and the
// core untouched).
// Errors: an address outside the 96-byte map answers SLVERR (it is mapped to the
// unmapped offset 0x7C of the register block).
`default_nettype none
module ak_aes_lite #(
  parameter logic [8:0] Modes          = 9'h087,
  parameter logic [1:0] CoreDirections = 2'b11,
  parameter logic [2:0] CoreKeySizes   = 3'b111,
  parameter int         AddrWidth      = 32
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
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
  output logic                 irq_o,
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
  import ak_mode_codes_pkg::*;  // mode codes (ak_mode_e): CTRL.MODE is bits [2:0]
  localparam bit HasCbc = Modes[1], HasCtr = Modes[2], HasCmac = Modes[7];

  // ------------------------------------------------------------------------------
  // Register block; an address outside the map goes to the unmapped offset 0x7C
  // ------------------------------------------------------------------------------
  ak_aes_lite_regs_pkg::ak_aes_lite_regs__in_t  hwif_in;
  ak_aes_lite_regs_pkg::ak_aes_lite_regs__out_t hwif_out;
  logic [6:0] rb_awaddr, rb_araddr;

  assign rb_awaddr = (|s_axil_awaddr[AddrWidth-1:7]) ? 7'h7c : s_axil_awaddr[6:0];
  assign rb_araddr = (|s_axil_araddr[AddrWidth-1:7]) ? 7'h7c : s_axil_araddr[6:0];

  ak_aes_lite_regs u_regs (
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

  // key, IV and DIN in core byte order (byte 0 of word 0 -> the top byte)
  logic [255:0] reg_key;
  logic [127:0] reg_iv, reg_din;
  always_comb begin
    for (int i = 0; i < 8; i++) begin
      for (int b = 0; b < 4; b++) begin
        reg_key[255 - 32*i - 8*b -: 8] = hwif_out.KEY[i].W.value[8*b +: 8];
      end
    end
    for (int i = 0; i < 4; i++) begin
      for (int b = 0; b < 4; b++) begin
        reg_iv[127 - 32*i - 8*b -: 8]  = hwif_out.IV[i].W.value[8*b +: 8];
        reg_din[127 - 32*i - 8*b -: 8] = hwif_out.DIN[i].W.value[8*b +: 8];
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Control
  // ------------------------------------------------------------------------------
  typedef enum logic [1:0] {StIdle, StKey, StIn, StOut} state_e;
  state_e state_q, state_d;
  logic   sub_q, sub_d;          // the block in flight is the CMAC subkey block E(0)
  logic   key_ok_q, key_ok_d;    // a key of a built size is loaded
  logic   err_q, err_d;          // STATUS.ERR: 0 NONE, 1 ILLEGAL
  logic   done_set;
  logic   keygo_p, go_p;
  ak_mode_e   mode;
  logic   dec, last;
  logic [4:0] nbytes;
  logic   mode_ok, dir_ok, len_ok;
  logic [127:0] k1_q, k2, sub_dbl;

  assign keygo_p = hwif_out.KEYGO.GO.value;
  assign go_p    = hwif_out.GO.START.value;
  assign mode    = ak_mode_e'({1'b0, hwif_out.CTRL.MODE.value});
  assign dec     = hwif_out.CTRL.DECRYPT.value;
  assign last    = hwif_out.GO.LAST.value;
  assign nbytes  = hwif_out.GO.NBYTES.value;

  always_comb begin
    unique case (mode)
      ModeEcb:  mode_ok = Modes[0];
      ModeCbc:  mode_ok = HasCbc;
      ModeCtr:  mode_ok = HasCtr;
      ModeCmac: mode_ok = HasCmac;
      default:  mode_ok = 1'b0;
    endcase
  end
  // decryption only for ECB and CBC, and only on a core that decrypts
  assign core_in_decrypt_o = dec && (mode == ModeEcb || mode == ModeCbc) && !sub_q;
  assign dir_ok = !(dec && (mode == ModeEcb || mode == ModeCbc)) || CoreDirections[1];
  assign len_ok = hwif_out.CTRL.KEY_LEN.value != 2'd3 &&
                  CoreKeySizes[hwif_out.CTRL.KEY_LEN.value];

  always_comb begin
    state_d  = state_q;
    sub_d    = sub_q;
    key_ok_d = key_ok_q;
    err_d    = err_q;
    done_set = 1'b0;
    unique case (state_q)
      StIdle: begin
        if (keygo_p) begin
          if (len_ok) begin
            state_d = StKey;
            err_d   = 1'b0;
          end else begin
            key_ok_d = 1'b0;
            err_d    = 1'b1;
            done_set = 1'b1;
          end
        end else if (go_p) begin
          if (mode_ok && dir_ok && key_ok_q) begin
            state_d = StIn;
            err_d   = 1'b0;
          end else begin
            err_d    = 1'b1;
            done_set = 1'b1;
          end
        end
      end
      StKey: begin
        if (core_key_ready_i) begin
          key_ok_d = 1'b1;
          if (HasCmac) begin
            state_d = StIn;
            sub_d   = 1'b1;
          end else begin
            state_d  = StIdle;
            done_set = 1'b1;
          end
        end
      end
      StIn: if (core_in_ready_i) state_d = StOut;
      StOut: begin
        if (core_out_valid_i) begin
          state_d  = StIdle;
          sub_d    = 1'b0;
          done_set = 1'b1;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q  <= StIdle;
      sub_q    <= 1'b0;
      key_ok_q <= 1'b0;
      err_q    <= 1'b0;
    end else begin
      state_q  <= state_d;
      sub_q    <= sub_d;
      key_ok_q <= key_ok_d;
      err_q    <= err_d;
    end
  end

  assign irq_o = hwif_out.CTRL.IRQ_EN.value & hwif_out.STATUS.DONE.value;

  // ------------------------------------------------------------------------------
  // Core
  // ------------------------------------------------------------------------------
  assign core_key_valid_o = state_q == StKey;
  assign core_key_o       = reg_key;
  assign core_key_len_o   = hwif_out.CTRL.KEY_LEN.value;
  assign core_in_valid_o  = state_q == StIn;
  assign core_in_tag_o    = 1'b0;
  assign core_out_ready_o = state_q == StOut;

  // CMAC: K1 = dbl(L), K2 = dbl(K1) (SP 800-38B: shift left, XOR 0x87 on a carry)
  function automatic logic [127:0] dbl(input logic [127:0] x);
    return {x[126:0], 1'b0} ^ {120'd0, {x[127], 4'b0, {3{x[127]}}}};
  endfunction
  assign sub_dbl = dbl(core_out_data_i);
  assign k2      = dbl(k1_q);

  // the last CMAC block: bytes 0..n-1 of DIN, byte n = 0x80, then zeros; XOR K1 or K2
  logic [127:0] pad_blk;
  always_comb begin
    for (int b = 0; b < 16; b++) begin
      if (b < 32'(nbytes)) pad_blk[127 - 8*b -: 8] = reg_din[127 - 8*b -: 8];
      else if (b == 32'(nbytes)) pad_blk[127 - 8*b -: 8] = 8'h80;
      else pad_blk[127 - 8*b -: 8] = 8'h00;
    end
    if (nbytes >= 5'd16) pad_blk = reg_din ^ k1_q;
    else pad_blk = pad_blk ^ k2;
  end

  always_comb begin
    core_in_data_o = reg_din;                                    // ECB
    if (HasCbc && mode == ModeCbc && !dec) core_in_data_o = reg_din ^ reg_iv;
    if (HasCtr && mode == ModeCtr) core_in_data_o = reg_iv;
    if (HasCmac && mode == ModeCmac) core_in_data_o = reg_iv ^ (last ? pad_blk : reg_din);
    if (HasCmac && sub_q) core_in_data_o = '0;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      k1_q <= '0;
    end else if (HasCmac && sub_q && state_q == StOut && core_out_valid_i) begin
      k1_q <= sub_dbl;
    end
  end

  // results: DOUT and IV, written at the output handshake of a block
  logic         blk_end;
  logic [127:0] dout, iv_next;
  logic         iv_we;
  assign blk_end = state_q == StOut && core_out_valid_i && !sub_q;
  always_comb begin
    dout    = core_out_data_i;                                   // ECB, CBC enc, CMAC
    iv_next = core_out_data_i;                                   // CBC enc, CMAC
    iv_we   = 1'b0;
    if (HasCbc && mode == ModeCbc) begin
      iv_we = 1'b1;
      if (dec) begin
        dout    = core_out_data_i ^ reg_iv;
        iv_next = reg_din;
      end
    end
    if (HasCtr && mode == ModeCtr) begin
      iv_we   = 1'b1;
      dout    = core_out_data_i ^ reg_din;
      iv_next = reg_iv + 128'd1;
    end
    if (HasCmac && mode == ModeCmac) iv_we = 1'b1;
  end

  // the register block's hardware inputs (one process: STATUS, DOUT, IV)
  always_comb begin
    hwif_in.STATUS.BUSY.next   = state_q != StIdle;
    hwif_in.STATUS.DONE.hwset  = done_set;
    // a refused GO / KEYGO sets DONE in the cycle it would clear it: the set wins
    hwif_in.STATUS.DONE.hwclr  = state_q == StIdle && (keygo_p || go_p) && !done_set;
    hwif_in.STATUS.ERR.next    = {1'b0, err_q};
    hwif_in.STATUS.KEY_OK.next = key_ok_q;
    for (int i = 0; i < 4; i++) begin
      hwif_in.DOUT[i].W.we = blk_end;
      hwif_in.IV[i].W.we   = blk_end && iv_we;
      for (int b = 0; b < 4; b++) begin
        hwif_in.DOUT[i].W.next[8*b +: 8] = dout[127 - 32*i - 8*b -: 8];
        hwif_in.IV[i].W.next[8*b +: 8]   = iv_next[127 - 32*i - 8*b -: 8];
      end
    end
  end

  logic unused;
  assign unused = ^{core_out_tag_i, Modes[8], Modes[6:3]};
endmodule
`default_nettype wire
