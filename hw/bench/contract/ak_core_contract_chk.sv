// ak_core_contract_chk: the core contract (docs/core-contract.md) as assertions, bound
// to a core by ak_core_contract_bind.sv (aeskit.hw.contract: the cocotb benches of
// every registry core, the compiled harness and the mode-engine harness) and proven on
// every registry core (aeskit.formal.contract). It only watches: every port is an input.
//
// Checked at every rising edge while rst_ni is high, from the first reset on (the
// rules of the contract):
//   C1 no output without input: out_valid_o only while a block is in flight (accepted
//      and not yet taken);
//   C2 order: the n-th result taken carries the tag of the n-th block accepted
//      (simulation: a shadow FIFO of Depth tags; formal: one block, chosen by the
//      solver, tracked to its result, which covers every position);
//   C3 no loss under stall: out_valid_o && !out_ready_i at an edge keeps out_valid_o,
//      out_tag_o (and with CheckData out_data_o) unchanged to the next edge;
//   C4 key_ready_o only when no block is in flight;
//   C5 key setup: in_ready_o is low for the claimed setup cycles after a key
//      handshake (Setup128/192/256: cycles from the handshake edge until in_ready_o
//      may be high) and low before the first key after reset;
//   C6 no block is accepted in the cycle a key is (a key and a block presented
//      together: the contract's order is key first);
//   C7 refusal (docs/core-contract.md, "Configurations"): no block is accepted after
//      a key handshake with a key_len_i the core does not have (3, or a size outside
//      KeySizes) until the next handshake with one it has, and no block with
//      in_decrypt_i set is accepted by a core that does not decrypt (Decrypt = 0).
//      In formal the master is legal (below), so C7 holds there trivially;
//   and, in simulation, the shadow FIFO's bound: at most Depth blocks in flight.
// Assumed in formal only (a legal master, as the registry claims the core; the
//   refusals are checked in simulation by C7 and tests/hw/bench/contract): key_len_i
//   is a key size the core has (KeySizes mask: bit 0 128, bit 1 192, bit 2 256) and
//   in_decrypt_i is 0 unless the core decrypts; the first cycle is in reset.
// Latency: none (it adds no logic to the core). Byte order: not looked at.
// Parameters: TagWidth, Setup128/192/256, KeySizes, Decrypt, Depth (power of two,
//   at least the blocks the core holds: aeskit.hw.contract takes the registry's
//   in_flight + 1, a result waiting under stall), CheckData (compare out_data_o under
//   stall).

`default_nettype none

module ak_core_contract_chk #(
  parameter int unsigned TagWidth  = 1,
  parameter int unsigned Setup128  = 1,
  parameter int unsigned Setup192  = 1,
  parameter int unsigned Setup256  = 1,
  parameter bit [2:0]    KeySizes  = 3'b111,
  parameter bit          Decrypt   = 1'b1,
  parameter int unsigned Depth     = 256,
  parameter bit          CheckData = 1'b1
) (
  input wire logic                clk_i,
  input wire logic                rst_ni,
  input wire logic                key_valid_i,
  input wire logic                key_ready_o,
  input wire logic [1:0]          key_len_i,
  input wire logic                in_valid_i,
  input wire logic                in_ready_o,
  input wire logic [127:0]        in_data_i,
  input wire logic                in_decrypt_i,
  input wire logic [TagWidth-1:0] in_tag_i,
  input wire logic                out_valid_o,
  input wire logic                out_ready_i,
  input wire logic [127:0]        out_data_o,
  input wire logic [TagWidth-1:0] out_tag_o
);

  // block counters: wide enough that no proof or test wraps them between a block's
  // acceptance and its result; the shadow FIFO is indexed by their low AddrW bits
  localparam int unsigned AddrW = $clog2(Depth);
`ifdef FORMAL
  localparam int unsigned CntW = 8;   // fewer than 256 blocks within any proof depth
`else
  localparam int unsigned CntW = 16;
`endif
  localparam int unsigned SetupMax = (Setup128 > Setup192)
      ? ((Setup128 > Setup256) ? Setup128 : Setup256)
      : ((Setup192 > Setup256) ? Setup192 : Setup256);
  localparam int unsigned SetupW = $clog2(SetupMax + 1) + 1;

  logic in_hs, out_hs, key_hs, stall;
  assign in_hs  = in_valid_i && in_ready_o;
  assign out_hs = out_valid_o && out_ready_i;
  assign key_hs = key_valid_i && key_ready_o;
  assign stall  = out_valid_o && !out_ready_i;

  // blocks in flight: accepted at earlier edges and not yet taken
  logic [CntW-1:0] n_in_q, n_out_q, inflight;
  assign inflight = n_in_q - n_out_q;

  // C7: the last key handshake had a key_len_i the core does not have
  localparam bit [3:0] KeyOk = {1'b0, KeySizes};
  logic refused_q;

  // key setup: cycles since the last key handshake, saturating at SetupMax
  logic [SetupW-1:0] since_key_q, setup_q;
  logic              keyed_q;        // a key handshake since reset

  // the cycle before: for the stall rule
  logic                stall_q;
  logic [TagWidth-1:0] tag_q;
  logic [127:0]        data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_count
    if (!rst_ni) begin
      n_in_q      <= '0;
      n_out_q     <= '0;
      since_key_q <= '0;
      setup_q     <= '0;
      keyed_q     <= 1'b0;
      refused_q   <= 1'b0;
      stall_q     <= 1'b0;
      tag_q       <= '0;
      data_q      <= '0;
    end else begin
      n_in_q  <= n_in_q + CntW'(in_hs);
      n_out_q <= n_out_q + CntW'(out_hs);
      if (key_hs) begin
        since_key_q <= SetupW'(1);
        keyed_q     <= 1'b1;
        refused_q   <= !KeyOk[key_len_i];
        unique case (key_len_i)
          2'd0:    setup_q <= SetupW'(Setup128);
          2'd1:    setup_q <= SetupW'(Setup192);
          default: setup_q <= SetupW'(Setup256);
        endcase
      end else if (since_key_q < SetupW'(SetupMax)) begin
        since_key_q <= since_key_q + SetupW'(1);
      end
      stall_q <= stall;
      tag_q   <= out_tag_o;
      data_q  <= out_data_o;
    end
  end

`ifdef FORMAL
  // C2 in formal: the first block accepted while the free input bit in_data_i[0] is
  // high (the data do not steer the control, so the solver may choose any block) is
  // tracked: its position and its tag; the result at that position must carry it
  logic                               picked_q;
  logic [CntW-1:0]                    pick_q;
  logic [TagWidth-1:0]                pick_tag_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_pick
    if (!rst_ni) begin
      picked_q   <= 1'b0;
      pick_q     <= '0;
      pick_tag_q <= '0;
    end else if (in_hs && in_data_i[0] && !picked_q) begin
      picked_q   <= 1'b1;
      pick_q     <= n_in_q;
      pick_tag_q <= in_tag_i;
    end
  end
  logic order_ok;
  assign order_ok = !(out_hs && picked_q && n_out_q == pick_q) || out_tag_o == pick_tag_q;

  // a legal master, and the first cycle in reset
  logic f_init_q = 1'b1;
  always_ff @(posedge clk_i) f_init_q <= 1'b0;
  always_comb begin : p_assume
    if (f_init_q) assume (!rst_ni);
    if (key_valid_i) assume (key_len_i != 2'd3 && KeySizes[key_len_i]);
    if (!Decrypt) assume (!in_decrypt_i);
  end
`else
  // C2 in simulation: a shadow FIFO of the tags in flight
  logic [TagWidth-1:0] fifo_q [Depth];
  always_ff @(posedge clk_i) begin : p_fifo
    if (in_hs) fifo_q[n_in_q[AddrW-1:0]] <= in_tag_i;
  end
  logic order_ok;
  assign order_ok = !out_hs || inflight == '0 || out_tag_o == fifo_q[n_out_q[AddrW-1:0]];
  // the master's side is assumed in formal only
  logic unused_master;
  assign unused_master = ^{in_data_i};
`endif

  // checks start with the first reset: before it the core's registers (and these)
  // hold whatever they powered up with
  logic armed_q = 1'b0;
  always_ff @(posedge clk_i or negedge rst_ni) begin : p_arm
    if (!rst_ni) armed_q <= 1'b1;
    else         armed_q <= armed_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_check
    if (!rst_ni) begin
      // nothing is checked in reset
    end else if (armed_q) begin
      assert (!out_valid_o || inflight != '0)
        else $error("core contract C1: out_valid_o with no block in flight");
      assert (order_ok)
        else $error("core contract C2: result out of order (tag %0h)", out_tag_o);
      assert (!stall_q || (out_valid_o && out_tag_o == tag_q
                           && (!CheckData || out_data_o == data_q)))
        else $error("core contract C3: output dropped or changed under stall");
      assert (!key_ready_o || inflight == '0)
        else $error("core contract C4: key_ready_o with %0d blocks in flight", inflight);
      assert (!in_ready_o || (keyed_q && since_key_q >= setup_q))
        else $error("core contract C5: in_ready_o during key setup (%0d of %0d cycles)",
                    since_key_q, setup_q);
      assert (!(in_hs && key_hs))
        else $error("core contract C6: a block and a key accepted in one cycle");
      assert (!(in_hs && (refused_q || (in_decrypt_i && !Decrypt))))
        else $error("core contract C7: a block accepted that the core must refuse (%s)",
                    refused_q ? "after a key of a size it lacks" : "decryption");
`ifndef FORMAL
      assert ({1'b0, inflight} <= (CntW + 1)'(Depth))
        else $error("core contract checker: %0d blocks in flight, more than Depth",
                    inflight);
`endif
    end
  end

endmodule

`default_nettype wire
