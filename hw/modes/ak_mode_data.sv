// ak_mode_data: the data lane's datapath of a mode-engine stream (ak_mode_stream):
// its 128-bit registers and the named multiplexers around them, and the two FIFOs of
// the lane; every enable and select comes from the stream's control (ak_mode_ctrl),
// the selects typed (ak_mode_pkg).
//   registers: the beat waiting for its request (and its byte count), the chaining
//              value (IV, chaining value, counter block, XTS tweak), S0 (CCM E(Ctr0),
//              GCM E(J0)), H / L (GCM's hash key, CMAC's E(0)), the received tag,
//              GCM's length block, CCM's carried AAD bytes (GCM: len(IV) in bits);
//   muxes:     the input beat masked to its bytes (XTS: bits), the chaining value's
//              next value (chain_sel_e; chain_next_sel_e when a block is sent), the
//              result of a payload block (res_sel_e), lane 0's request (req_sel_e),
//              the XOR operand kept with a block (op_sel_e), the output beat
//              (out_sel_e), the tag MSB_t(y ^ S0) and its compare with the received one;
//   FIFOs:     u_cx (ak_fifo, InFlight entries): the XOR operand, byte count and XTS
//              held / final flags of each payload block in the core, oldest first;
//              u_of (ak_fifo, InFlight + 2 entries): the output beats with their tag
//              flag.
//
// Latency: the request, the result and the output beat are combinational from the
// registers, the core's result (a chained flow's result is bypassed into the next
// request in the cycle it leaves) and the FIFOs' heads; a register takes its value at
// the edge its enable or select is given. Byte order: FIPS-197, byte 0 in [127:120];
// a short beat holds its bytes (XTS: bits) in the high end.
//
// Parameters: InFlight (2, >= 2): entries of u_cx; u_of holds InFlight + 2. Parts (0):
// 1 builds messages in parts: GCM's counter offset (the payload blocks of the earlier
// parts, 32 bits, loaded with a command; inc32 skips them when S0 is sent) and the
// MAC state as an output beat (OutState); 0 leaves the offset out.

`default_nettype none

module ak_mode_data #(
  parameter int InFlight = 2,
  parameter bit Parts    = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // the input beat
  input  logic [127:0] in_data_i,
  input  logic [4:0]   in_n_i,         // its bytes
  input  logic [7:0]   in_nb_i,        // its bits (XTS)
  input  logic         in_bits_i,      // mask to bits (XTS), not bytes
  output logic [127:0] in_masked_o,
  // a command is taken: its initial values
  input  logic         load_i,
  input  logic [127:0] chain_i,
  input  logic [127:0] glen_i,
  input  logic [47:0]  carry_i,
  input  logic [31:0]  ctr_i,          // GCM: payload blocks of the earlier parts
  // register enables
  input  logic         nxt_we_i,       // a payload beat is taken
  input  logic         rtag_we_i,      // the received tag is taken
  input  logic         carry_we_i,     // a CCM AAD beat is taken: keep its last bytes
  input  logic         p6_i,           // ... 6 of them (else 2)
  input  logic         h_we_i,         // H / L leaves the core
  input  logic         s0_we_i,        // S0 leaves the core
  // the chaining register
  input  ak_mode_pkg::chain_sel_e   chain_sel_i,
  input  ak_mode_pkg::chain_next_sel_e next_sel_i,
  input  logic         rsp_xor_i,      // a chained result is output ^ operand (CFB)
  input  logic         bypass_i,       // a chained result leaves now: requests use it
  input  logic [127:0] j0_i,           // GCM: J0 from GHASH
  // lane 0
  input  logic [127:0] rsp_data_i,
  input  ak_mode_pkg::res_sel_e     res_sel_i,
  output logic [127:0] result_o,       // the payload result leaving the core now
  input  ak_mode_pkg::req_sel_e     req_sel_i,
  output logic [127:0] req_data_o,
  // XTS (ak_mode_xts)
  input  logic [127:0] tweak_i,        // the offered block's tweak
  input  logic [127:0] tweak_next_i,   // the chaining value after it is sent
  input  logic [127:0] xts_block_i,    // the offered block ^ its tweak
  input  logic [127:0] head_i,         // the held result's head
  // the XOR operands of the blocks in the core
  input  logic         op_push_i,
  input  ak_mode_pkg::op_sel_e      op_sel_i,
  input  logic         op_hold_i,      // XTS: the block pushed is the held one
  input  logic         op_fin_i,       // ... the final one
  input  logic         op_pop_i,       // a payload result leaves the core now
  output logic         op_hold_o,      // the oldest block is XTS's held one
  output logic         op_fin_o,       // ... the final one
  // the tag
  input  logic [127:0] mac_i,          // CBC-MAC value / GHASH (ak_mode_mac)
  input  logic [4:0]   tlen_i,
  output logic         tag_ok_o,       // the tag equals the received one
  // the output FIFO
  input  logic         out_push_i,
  input  ak_mode_pkg::out_sel_e     out_sel_i,
  output logic         out_valid_o,
  input  logic         out_ready_i,
  output logic [127:0] out_data_o,
  output logic         out_tag_o,
  output logic [$clog2(InFlight + 3)-1:0] out_count_o,
  // registers read by the units
  output logic [127:0] chain_o,
  output logic [127:0] nxt_o,
  output logic [127:0] h_o,
  output logic [127:0] glen_o,
  output logic [47:0]  carry_o
);

  import ak_mode_pkg::*;

  localparam int OfDepth = InFlight + 2;

  logic [127:0] nxt_q, chain_q, chain_d, s0_q, h_q, rtag_q, glen_q;
  logic [4:0]   nxt_n_q;
  logic [47:0]  carry_q;
  logic [127:0] chain_rsp, chain_now, chain_next, chain_inc, chain_inc32, tag_calc;
  logic [127:0] chain_skip;            // GCM, a part's S0 sent: inc32^(1 + ctr)(J0)
  logic [127:0] op_x, op_push_x, out_push_data;
  logic [4:0]   op_n;
  logic         op_valid, op_full, of_full, unused_flags;
  logic [$clog2(InFlight + 1)-1:0] op_count;

  assign in_masked_o = in_bits_i ? keep_bits(in_data_i, in_nb_i) : keep_bytes(in_data_i, in_n_i);

  // ------------------------------------------------------------------------------
  // Results and requests
  // ------------------------------------------------------------------------------
  always_comb begin : result_mux
    unique case (res_sel_i)
      ResPlain: result_o = rsp_data_i;
      ResXor:   result_o = rsp_data_i ^ op_x;
      default:  result_o = keep_bytes(rsp_data_i ^ op_x, op_n);  // ResMasked
    endcase
  end

  // a chained flow's result (CFB: the ciphertext) and the value its request uses
  assign chain_rsp = rsp_xor_i ? (rsp_data_i ^ op_x) : rsp_data_i;
  assign chain_now = bypass_i ? chain_rsp : chain_q;

  // (the counter steps as wires of their own: Verilator 5.048 fails an internal check
  // with the function call inside the case when only XTS is built)
  assign chain_inc   = chain_q + 128'd1;
  assign chain_inc32 = inc32(chain_q);
  if (Parts) begin : g_parts
    logic [31:0] ctr_q;  // GCM: payload blocks of the earlier parts
    always_ff @(posedge clk_i or negedge rst_ni) begin : ctr_reg
      if (!rst_ni)     ctr_q <= 32'd0;
      else if (load_i) ctr_q <= ctr_i;
    end
    assign chain_skip = {chain_q[127:32], chain_q[31:0] + 32'd1 + ctr_q};
  end else begin : g_no_parts
    logic unused_ctr;
    assign unused_ctr = ^ctr_i;
    assign chain_skip = chain_inc32;
  end
  always_comb begin : chain_next_mux
    unique case (next_sel_i)
      NextBeat:  chain_next = nxt_q;
      NextHold:  chain_next = chain_q;
      NextInc32: chain_next = chain_inc32;
      NextTweak: chain_next = tweak_next_i;
      NextInc32Skip: chain_next = chain_skip;
      default:   chain_next = chain_inc;  // NextInc
    endcase
  end

  always_comb begin : chain_mux
    unique case (chain_sel_i)
      ChainLoad: chain_d = chain_i;
      ChainRsp:  chain_d = chain_rsp;
      ChainT0:   chain_d = rsp_data_i;
      ChainNext: chain_d = chain_next;
      ChainJ0:   chain_d = j0_i;
      default:   chain_d = chain_q;  // ChainHold
    endcase
  end

  always_comb begin : req_mux
    unique case (req_sel_i)
      ReqBeat:      req_data_o = nxt_q;
      ReqBeatChain: req_data_o = nxt_q ^ chain_now;
      ReqXts:       req_data_o = xts_block_i;
      ReqZero:      req_data_o = '0;
      ReqTweakIn:   req_data_o = chain_q;
      default:      req_data_o = chain_now;  // ReqChain
    endcase
  end

  // ------------------------------------------------------------------------------
  // XOR operands of the payload blocks in the core
  // ------------------------------------------------------------------------------
  always_comb begin : op_mux
    unique case (op_sel_i)
      OpChain: op_push_x = chain_q;
      OpTweak: op_push_x = tweak_i;
      default: op_push_x = nxt_q;  // OpBeat
    endcase
  end

  // (the lanes' own counts keep the FIFO from overflowing; its flags are not needed)
  ak_fifo #(.Width(135), .Depth(InFlight), .GateEmpty(1'b0)) u_cx (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (op_push_i),
    .data_i  ({op_push_x, nxt_n_q, op_hold_i, op_fin_i}),
    .pop_i   (op_pop_i),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (op_valid),
    .full_o  (op_full),
    .data_o  ({op_x, op_n, op_hold_o, op_fin_o}),
    .count_o (op_count)
  );

  // ------------------------------------------------------------------------------
  // The tag and the output FIFO
  // ------------------------------------------------------------------------------
  // CCM MSB_t(Y_r ^ S0), GCM MSB_t(GHASH ^ E(J0)), CMAC MSB_t(Y_n) (S0 = 0)
  assign tag_calc = keep_bytes(mac_i ^ s0_q, tlen_i);
  assign tag_ok_o = (tag_calc == rtag_q);

  always_comb begin : out_mux
    unique case (out_sel_i)
      OutHead: out_push_data = head_i;
      OutTag:  out_push_data = tag_calc;
      OutState: out_push_data = mac_i;  // (selected with Parts only)
      default: out_push_data = result_o;  // OutResult
    endcase
  end

  ak_fifo #(.Width(129), .Depth(OfDepth), .GateEmpty(1'b1)) u_of (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .clr_i   (1'b0),
    .push_i  (out_push_i),
    .data_i  ({(out_sel_i == OutTag) || (out_sel_i == OutState), out_push_data}),
    .pop_i   (out_ready_i),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o (out_valid_o),
    .full_o  (of_full),
    .data_o  ({out_tag_o, out_data_o}),
    .count_o (out_count_o)
  );
  assign unused_flags = ^{op_valid, op_full, op_count, of_full};

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : data_regs
    if (!rst_ni) begin
      nxt_q   <= '0;
      nxt_n_q <= 5'd0;
      chain_q <= '0;
      s0_q    <= '0;
      h_q     <= '0;
      rtag_q  <= '0;
      glen_q  <= '0;
      carry_q <= 48'd0;
    end else begin
      chain_q <= chain_d;
      if (nxt_we_i) begin
        nxt_q   <= in_masked_o;
        nxt_n_q <= in_n_i;
      end
      if (rtag_we_i) rtag_q <= in_masked_o;
      if (load_i) begin
        s0_q    <= '0;
        h_q     <= '0;
        glen_q  <= glen_i;
        carry_q <= carry_i;
      end else begin
        if (s0_we_i)    s0_q    <= rsp_data_i;
        if (h_we_i)     h_q     <= rsp_data_i;
        if (carry_we_i) carry_q <= p6_i ? in_masked_o[47:0] : {32'h0, in_masked_o[15:0]};
      end
    end
  end

  assign chain_o = chain_q;
  assign nxt_o   = nxt_q;
  assign h_o     = h_q;
  assign glen_o  = glen_q;
  assign carry_o = carry_q;

endmodule

`default_nettype wire
