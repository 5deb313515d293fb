// ak_contract_fault_core: a bench core that speaks the core contract's ports but is
// not AES (out = in ^ key[255:128]), with one contract rule broken on purpose by
// Fault, so that the tests can show that ak_core_contract_chk catches each rule in
// simulation and in the proof:
//   0 none; 1 C1: one spurious result after the first key setup; 2 C2: the tag of the
//   third block comes out inverted; 3 C3: the second result is dropped after one
//   stalled cycle; 4 C4: key_ready_o stays high while a block is in flight;
//   5 C5: in_ready_o ignores the key setup; 6 C6: a key and a block presented
//   together are both taken.
// Latency 3, one block in flight, interval 3 (a new block is taken as the result
// leaves), key setup 2 cycles for every key size, all key sizes, both directions
// (the direction is ignored). Byte order: none (an XOR).

`default_nettype none

module ak_contract_fault_core #(
  parameter int unsigned Fault    = 0,
  parameter int unsigned TagWidth = 1
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [127:0]        in_data_i,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [127:0]        out_data_o,
  output logic [TagWidth-1:0] out_tag_o
);

  logic [127:0]        key_q, data_q;
  logic [TagWidth-1:0] tag_q;
  logic                keyed_q, setup_q, busy_q, done_q, spur_q, spur_done_q, stalled_q;
  logic [1:0]          cnt_q;
  logic [1:0]          nblk_q;   // blocks accepted, saturating at 3

  logic accept, leave, key_hs, idle;
  assign idle   = !busy_q && !done_q && !spur_q;
  assign key_ready_o = !setup_q && (idle || Fault == 4);
  assign key_hs = key_valid_i && key_ready_o;
  assign in_ready_o = keyed_q && (!setup_q || Fault == 5) && (!key_valid_i || Fault == 6)
                      && !busy_q && !spur_q && (!done_q || out_ready_i);
  assign accept = in_valid_i && in_ready_o;
  assign out_valid_o = done_q || spur_q;
  assign leave  = out_valid_o && out_ready_i;
  assign out_data_o = data_q ^ key_q;
  assign out_tag_o  = tag_q ^ TagWidth'(Fault == 2 && nblk_q == 2'd3);

  logic unused_in;
  assign unused_in = ^{key_i[127:0], key_len_i, in_decrypt_i};

  always_ff @(posedge clk_i or negedge rst_ni) begin : p_state
    if (!rst_ni) begin
      key_q <= '0; data_q <= '0; tag_q <= '0;
      keyed_q <= 1'b0; setup_q <= 1'b0; busy_q <= 1'b0; done_q <= 1'b0;
      spur_q <= 1'b0; spur_done_q <= 1'b0; stalled_q <= 1'b0;
      cnt_q <= '0; nblk_q <= '0;
    end else begin
      setup_q <= key_hs;
      if (key_hs) begin
        key_q   <= key_i[255:128];
        keyed_q <= 1'b1;
      end
      // C1 fault: one result out of nothing, the cycle after the first setup
      spur_q <= 1'b0;
      if (Fault == 1 && setup_q && !spur_done_q) begin
        spur_q      <= 1'b1;
        spur_done_q <= 1'b1;
      end
      if (leave) done_q <= 1'b0;
      stalled_q <= done_q && !out_ready_i;
      // C3 fault: the second result vanishes after one stalled cycle
      if (Fault == 3 && nblk_q == 2'd2 && stalled_q && !out_ready_i) done_q <= 1'b0;
      if (busy_q) begin
        if (cnt_q == 2'd0) begin
          busy_q <= 1'b0;
          done_q <= 1'b1;
        end
        cnt_q <= cnt_q - 2'd1;
      end
      if (accept) begin
        busy_q <= 1'b1;
        cnt_q  <= 2'd1;
        data_q <= in_data_i;
        tag_q  <= in_tag_i;
        if (nblk_q != 2'd3) nblk_q <= nblk_q + 2'd1;
      end
    end
  end

endmodule

`default_nettype wire
