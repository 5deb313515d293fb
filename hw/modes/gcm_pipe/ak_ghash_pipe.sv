// ak_ghash_pipe: GHASH (NIST SP 800-38D 6.4) at one block per cycle. The multiplier is
// a Stages-deep pipeline (one ak_gf128_digit_step of 128/Stages bits per stage), and
// the hash is aggregated over Stages interleaved lanes: block i goes to lane i mod
// Stages, whose accumulator becomes (acc ^ X_i) * P_i with P_i = H^min(Stages, n - i)
// (n blocks in the message, i from 0). Block i's product leaves the pipeline exactly
// when block i + Stages enters, in its lane, so it is fed back there; the last
// min(n, Stages) products (P < H^Stages) are the lanes' results and XOR to
// Y = X_0 H^n ^ X_1 H^(n-1) ^ ... ^ X_(n-1) H.
//
// Use: h_valid_i with H (= E_K(0)); the unit computes H^2 .. H^Stages with a serial
// multiplier (ak_gf128_mul, 16-bit digits: 8 cycles each) and raises ready_o. Then per
// hash: start_i with n_i (blocks, >= 1) while ready_o; n_i blocks on blk_valid_i /
// blk_i from the next cycle on, at most one per cycle, any gaps (no back-pressure: the
// unit takes every block; a block in the start cycle is ignored); done_o pulses with
// y_o = GHASH_H(blocks) Stages + 2 cycles after the last block, and y_o holds until
// the next start. ready_o is low from start to done.
//
// Registers for speed (the cycle behaviour is that of the unit without them, one
// cycle later): the blocks and H enter through input registers (blk_valid_i, blk_i
// and h_i reach no logic but their D inputs; h_valid_i also holds ready_o low), and
// the pipeline's advance is decided a cycle ahead into Stages + 1 flip-flops, one per
// stage and one for the message counters, so no net drives the clock enables of all
// 3 * 128 * Stages pipeline flip-flops. The power multiplier's first operand is a
// register too (pa_q: the power the next product extends, chosen on the D side).
//
// Latency: last block -> done_o: Stages + 2 cycles. Throughput: one block per cycle.
// Byte order: GCM's on h_i, blk_i, y_o (byte 0 in [127:120]; x^i is bit 127 - i).
// Parameters: Stages (2, 4, 8, 16, 32, 64, 128 -- a power of two): pipeline depth
//             and number of lanes; each stage multiplies by a 128/Stages-bit digit.
// Every register is reset by rst_ni.

`default_nettype none

module ak_ghash_pipe #(
  parameter int Stages = 8
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  // hash subkey
  input  logic         h_valid_i,
  input  logic [127:0] h_i,
  output logic         ready_o,
  // one hash
  input  logic         start_i,
  input  logic [31:0]  n_i,
  input  logic         blk_valid_i,
  input  logic [127:0] blk_i,
  output logic         done_o,
  output logic [127:0] y_o
);

  localparam int D   = 128 / Stages;
  localparam int SW  = $clog2(Stages + 1);  // counts 0 .. Stages
  localparam int IW  = $clog2(Stages);      // indexes 0 .. Stages-1

  if (Stages < 2 || Stages > 128 || (Stages & (Stages - 1)) != 0) begin : g_bad_stages
    $fatal(1, "ak_ghash_pipe: Stages must be a power of two in 2..128, got %0d", Stages);
  end

  // ------------------------------------------------------------------------------
  // Powers H^1 .. H^Stages (pow_q[j] = H^(j+1))
  // ------------------------------------------------------------------------------
  logic [127:0] pow_q [Stages];
  logic [127:0] pow_d [Stages];
  logic [SW-1:0] pj_q, pj_d;       // next power to compute (1 .. Stages-1), Stages = done
  logic          pbusy_q, pbusy_d; // a product is under way
  logic          pm_start, pm_ready, pm_done;
  logic [127:0]  pm_z;
  logic          powers_ok;
  logic [127:0]  pa_q, pa_d;       // pow_q[pj_q - 1]: the power the next product extends
  logic          hv_q;             // H, through an input register
  logic [127:0]  h_q;

  assign powers_ok = (pj_q == SW'(Stages)) && !pbusy_q;
  assign pm_start  = !pbusy_q && !hv_q && (pj_q != '0) && (pj_q != SW'(Stages)) && pm_ready;

  ak_gf128_mul #(.DigitBits(16)) u_pow (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (pm_start),
    .ready_o (pm_ready),
    .a_i     (pa_q),
    .b_i     (pow_q[0]),
    .done_o  (pm_done),
    .z_o     (pm_z)
  );

  always_comb begin : powers
    pow_d   = pow_q;
    pj_d    = pj_q;
    pbusy_d = pbusy_q;
    if (hv_q) begin
      pow_d[0] = h_q;
      pj_d     = SW'(1);
      pbusy_d  = 1'b0;
    end else begin
      if (pm_start) pbusy_d = 1'b1;
      if (pm_done && pbusy_q) begin
        pow_d[IW'(pj_q)] = pm_z;
        pj_d        = pj_q + 1'b1;
        pbusy_d     = 1'b0;
      end
    end
    // pow_d[pj_d - 1] by cases, without an indexed read of pow_d:
    // H after a new H, the product just made after a product, else unchanged
    pa_d = pa_q;
    if (hv_q)                     pa_d = h_q;
    else if (pm_done && pbusy_q)  pa_d = pm_z;
  end

  // ------------------------------------------------------------------------------
  // Message state
  // ------------------------------------------------------------------------------
  logic          run_q, run_d;       // a hash is under way
  logic [31:0]   left_q, left_d;     // blocks still to enter
  logic [SW-1:0] flush_q, flush_d;   // empty advances still to run after the last block
  logic [127:0]  y_q, y_d;
  logic          done_q, done_d;
  logic          bv_q;               // the input register holds a block
  logic [127:0]  bk_q;               // ... this one
  logic          adv;                // the pipeline moves (the value of every adv_q)
  logic          adv_nx;             // the pipeline moves in the next cycle
  logic [Stages:0] adv_q;            // adv, one flip-flop per stage (Stages: the counters)
  // decoded from left/flush a cycle ahead (registers), off the enable's path:
  logic          lz_q, lz_d;         // left == 0: no block to enter
  logic          l1_q, l1_d;         // left == 1
  logic          fnz_q, fnz_d;       // flush != 0
  logic          fin_q, fin_d;       // the next block is among the last Stages
  logic [IW-1:0] psel_q, psel_d;     // its power: H^(psel+1)
  logic          take;               // a hash starts

  assign ready_o = powers_ok && !run_q && !h_valid_i && !hv_q;
  assign done_o  = done_q;
  assign y_o     = y_q;
  assign take    = start_i && ready_o;
  assign adv     = run_q && ((bv_q && !lz_q) || (lz_q && fnz_q));

  // ------------------------------------------------------------------------------
  // Pipeline: stage s holds the inputs of Horner step s (z, the rest of a, the power b)
  // ------------------------------------------------------------------------------
  logic [127:0] sz_q [Stages];
  logic [127:0] sa_q [Stages];
  logic [127:0] sb_q [Stages];
  logic         sv_q [Stages];      // a block's product is in this stage
  logic         sf_q [Stages];      // ... and it is a lane's last (fin)
  logic [127:0] zo [Stages];        // step outputs

  for (genvar s = 0; s < Stages; s++) begin : g_step
    ak_gf128_digit_step #(.DigitBits(D)) u_step (
      .z_i (sz_q[s]),
      .d_i (sa_q[s][s*D +: D]),
      .b_i (sb_q[s]),
      .z_o (zo[s])
    );
  end

  // the product leaving the pipeline now: fed back into its lane's next block, or (a
  // lane's last) XORed into the result
  logic [127:0] fb;
  assign fb = (sv_q[Stages-1] && !sf_q[Stages-1]) ? zo[Stages-1] : '0;

  always_comb begin : message
    run_d   = run_q;
    left_d  = left_q;
    flush_d = flush_q;
    y_d     = y_q;
    done_d  = 1'b0;
    lz_d    = lz_q;
    l1_d    = l1_q;
    fnz_d   = fnz_q;
    fin_d   = fin_q;
    psel_d  = psel_q;
    if (take) begin
      run_d   = 1'b1;
      left_d  = n_i;
      flush_d = SW'(Stages);
      y_d     = '0;
      lz_d    = (n_i == 32'd0);
      l1_d    = (n_i == 32'd1);
      fnz_d   = 1'b1;
    end else if (adv_q[Stages]) begin
      if (sv_q[Stages-1] && sf_q[Stages-1]) y_d = y_q ^ zo[Stages-1];
      if (!lz_q) begin
        left_d = left_q - 32'd1;
        lz_d   = l1_q;
        l1_d   = (left_q == 32'd2);
      end else begin
        flush_d = flush_q - 1'b1;
        fnz_d   = (flush_q != SW'(1));
        if (flush_q == SW'(1)) begin
          run_d  = 1'b0;
          done_d = 1'b1;
        end
      end
    end
    if (take || adv_q[Stages]) begin
      fin_d  = (left_d <= 32'(Stages));
      psel_d = (left_d <= 32'(Stages)) ? IW'(left_d - 32'd1) : IW'(Stages - 1);
    end
    // blocks count only while a hash runs (as they reach the input register)
    adv_nx = run_d && ((blk_valid_i && run_q && !lz_d) || (lz_d && fnz_d));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : in_regs
    if (!rst_ni) begin
      bv_q <= 1'b0;
      bk_q <= '0;
      hv_q <= 1'b0;
      h_q  <= '0;
    end else begin
      bv_q <= blk_valid_i && run_q;
      bk_q <= blk_i;
      hv_q <= h_valid_i;
      h_q  <= h_i;
    end
  end

  // the advance, once per stage: each copy has its own always_ff marked keep, or the
  // synthesis merges the equal copies back into one
  for (genvar s = 0; s <= Stages; s++) begin : g_adv
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin : adv_reg
      if (!rst_ni) adv_q[s] <= 1'b0;
      else         adv_q[s] <= adv_nx;
    end
  end

  for (genvar s = 0; s < Stages; s++) begin : g_stage
    always_ff @(posedge clk_i or negedge rst_ni) begin : pipe_regs
      if (!rst_ni) begin
        sz_q[s] <= '0;
        sa_q[s] <= '0;
        sb_q[s] <= '0;
        sv_q[s] <= 1'b0;
        sf_q[s] <= 1'b0;
      end else if (adv_q[s]) begin
        if (s == 0) begin
          sz_q[s] <= '0;
          sa_q[s] <= bk_q ^ fb;
          sb_q[s] <= pow_q[psel_q];
          sv_q[s] <= !lz_q;
          sf_q[s] <= fin_q;
        end else begin
          sz_q[s] <= zo[s-1];
          sa_q[s] <= sa_q[s-1];
          sb_q[s] <= sb_q[s-1];
          sv_q[s] <= sv_q[s-1];
          sf_q[s] <= sf_q[s-1];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      pow_q   <= '{default: '0};
      pa_q    <= '0;
      pj_q    <= '0;
      pbusy_q <= 1'b0;
      run_q   <= 1'b0;
      left_q  <= 32'd0;
      flush_q <= '0;
      y_q     <= '0;
      done_q  <= 1'b0;
      lz_q    <= 1'b1;
      l1_q    <= 1'b0;
      fnz_q   <= 1'b0;
      fin_q   <= 1'b0;
      psel_q  <= '0;
    end else begin
      pow_q   <= pow_d;
      pa_q    <= pa_d;
      pj_q    <= pj_d;
      pbusy_q <= pbusy_d;
      run_q   <= run_d;
      left_q  <= left_d;
      flush_q <= flush_d;
      y_q     <= y_d;
      done_q  <= done_d;
      lz_q    <= lz_d;
      l1_q    <= l1_d;
      fnz_q   <= fnz_d;
      fin_q   <= fin_d;
      psel_q  <= psel_d;
    end
  end

`ifndef SYNTHESIS
  // the copies are the advance, and pa_q the operand it replaces
  // (from the first reset on: before it the registers hold whatever they power up with)
  logic reset_seen_q = 1'b0;

  always_ff @(posedge clk_i or negedge rst_ni) begin : copy_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if (adv_q != {(Stages + 1){adv}}) $error("ak_ghash_pipe: adv_q %b, adv %b", adv_q, adv);
      if (pa_q != pow_q[IW'(pj_q - 1'b1)]) $error("ak_ghash_pipe: pa_q is not the operand");
    end
  end
`endif

endmodule

`default_nettype wire
