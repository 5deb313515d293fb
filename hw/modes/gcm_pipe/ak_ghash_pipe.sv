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

// ak_ghash_pipe: GHASH (NIST SP 800-38D 6.4) at one block per cycle, for a stream of
// hashes that follow each other without a gap. The multiplier is a Stages-deep pipeline
// (one ak_gf128_digit_step of 128/Stages bits per stage) that advances every cycle, and
// each hash is aggregated over Stages interleaved lanes: block i of a hash of n blocks
// goes to lane i mod Stages, whose accumulator becomes (acc ^ X_i) * P_i with
// P_i = H^min(Stages, n - i). Block i's product leaves the pipeline Stages cycles after
// it entered; block i + Stages of the same hash (which enters then or later) takes it
// from there or, after a gap, from a feedback FIFO (ak_fifo, Stages entries) that holds
// the products whose lane has not moved on yet. The last min(n, Stages) products
// (P < H^Stages) are the lanes' results and XOR to
// Y = X_0 H^n ^ X_1 H^(n-1) ^ ... ^ X_(n-1) H.
//
// Use: h_valid_i with H (= E_K(0)); the unit computes H^2 .. H^Stages with a serial
// multiplier (ak_gf128_mul, 16-bit digits: 8 cycles each) and raises ready_o (low again
// from the next h_valid_i on). Then the blocks of one hash after another on
// blk_valid_i / blk_i, at most one per cycle, any gaps, no back-pressure: the first
// block of a hash with blk_first_i high and blk_n_i = its blocks (>= 1), the others
// with blk_first_i low. done_o pulses with y_o = GHASH_H(blocks) exactly Stages + 2
// cycles after a hash's last block, whatever follows; y_o holds until the next done_o.
// The next hash's first block may follow its last block in the next cycle.
//
// Registers for speed: the blocks and H enter through input registers, the power, lane
// and end flags of a block are decided there from the counters (a register each), the
// pipeline flip-flops have no enable, and the power multiplier's first operand is a
// register (pa_q: the power the next product extends, chosen on the D side).
//
// Latency: a hash's last block -> done_o: Stages + 2 cycles (the input register, the
// Stages pipeline registers, the result register). Throughput: one block per cycle.
// Byte order: GCM's on h_i, blk_i, y_o (byte 0 in [127:120]; x^i is bit 127 - i).
// Parameters: Stages (2, 4, 8, 16, 32, 64, 128 -- a power of two): pipeline depth
//             and number of lanes; each stage multiplies by a 128/Stages-bit digit.
// Every register is reset by rst_ni except the feedback FIFO's memory.

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
  // blocks of consecutive hashes
  input  logic         blk_valid_i,
  input  logic         blk_first_i,
  input  logic [31:0]  blk_n_i,
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
  // Block counters: each block's power, lane flags and end flag, set in the input
  // register from the hash's blocks left (L, this one included) and the blocks before
  // it (saturating at Stages)
  // ------------------------------------------------------------------------------
  logic [31:0]   left_q, left_d;     // blocks of the current hash still to come
  logic [SW-1:0] idx_q, idx_d;       // blocks of the current hash so far, up to Stages
  logic [31:0]   bl;                 // L of the block offered now
  logic [SW-1:0] bi;                 // its index, saturated
  logic          bv_q;               // the input register holds a block
  logic [127:0]  bk_q;               // ... this one
  logic          bfin_q;             // ... it is its lane's last (L <= Stages)
  logic          blast_q;            // ... it is its hash's last (L == 1)
  logic          bfb_q;              // ... its lane has a product before it (i >= Stages)
  logic [IW-1:0] psel_q;             // ... its power: H^(psel+1) = H^min(Stages, L)
  logic [127:0]  y_q, y_d, acc_q, acc_d;
  logic          done_q, done_d;

  assign ready_o = powers_ok && !h_valid_i && !hv_q;
  assign done_o  = done_q;
  assign y_o     = y_q;

  assign bl = blk_first_i ? blk_n_i : left_q;
  assign bi = blk_first_i ? '0 : idx_q;

  always_comb begin : counters
    left_d = left_q;
    idx_d  = idx_q;
    if (blk_valid_i) begin
      left_d = bl - 32'd1;
      idx_d  = (bi == SW'(Stages)) ? bi : bi + 1'b1;
    end
  end

  // ------------------------------------------------------------------------------
  // Pipeline: stage s holds the inputs of Horner step s (z, the rest of a, the power b)
  // ------------------------------------------------------------------------------
  logic [127:0] sz_q [Stages];
  logic [127:0] sa_q [Stages];
  logic [127:0] sb_q [Stages];
  logic         sv_q [Stages];      // a block's product is in this stage
  logic         sf_q [Stages];      // ... it is its lane's last
  logic         sl_q [Stages];      // ... it is its hash's last
  logic [127:0] zo [Stages];        // step outputs

  for (genvar s = 0; s < Stages; s++) begin : g_step
    ak_gf128_digit_step #(.DigitBits(D)) u_step (
      .z_i (sz_q[s]),
      .d_i (sa_q[s][s*D +: D]),
      .b_i (sb_q[s]),
      .z_o (zo[s])
    );
  end

  // the product leaving the pipeline now (ev): a lane's last goes into the hash's
  // result, any other one to the next block of its lane: directly when that block
  // enters now and no older product waits, else through the feedback FIFO
  logic         ev, ef, el;
  logic         fq_valid, fq_full, fq_push, fq_pop, fb_direct;
  logic [127:0] fq_data, fb;
  logic [$clog2(Stages + 1)-1:0] fq_count;

  assign ev        = sv_q[Stages-1];
  assign ef        = sf_q[Stages-1];
  assign el        = sl_q[Stages-1];
  assign fb_direct = bv_q && bfb_q && !fq_valid;
  assign fq_pop    = bv_q && bfb_q && fq_valid;
  assign fq_push   = ev && !ef && !fb_direct;
  assign fb        = !(bv_q && bfb_q) ? '0 : fq_valid ? fq_data : zo[Stages-1];

  ak_fifo #(.Width(128), .Depth(Stages), .GateEmpty(1'b0)) u_fq (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .clr_i     (1'b0),
    .push_i    (fq_push),
    .data_i    (zo[Stages-1]),
    .pop_i     (fq_pop),
    .hold_i    (1'b0),
    .release_i (1'b0),
    .drop_i    (1'b0),
    .valid_o   (fq_valid),
    .full_o    (fq_full),
    .data_o    (fq_data),
    .count_o   (fq_count)
  );
  logic unused_fq;
  assign unused_fq = fq_full ^ (^fq_count);

  always_comb begin : result
    y_d    = y_q;
    acc_d  = acc_q;
    done_d = 1'b0;
    if (ev && ef) begin
      if (el) begin
        y_d    = acc_q ^ zo[Stages-1];
        acc_d  = '0;
        done_d = 1'b1;
      end else begin
        acc_d  = acc_q ^ zo[Stages-1];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : in_regs
    if (!rst_ni) begin
      bv_q    <= 1'b0;
      bk_q    <= '0;
      bfin_q  <= 1'b0;
      blast_q <= 1'b0;
      bfb_q   <= 1'b0;
      psel_q  <= '0;
      hv_q    <= 1'b0;
      h_q     <= '0;
    end else begin
      bv_q    <= blk_valid_i;
      bk_q    <= blk_i;
      bfin_q  <= (bl <= 32'(Stages));
      blast_q <= (bl == 32'd1);
      bfb_q   <= (bi == SW'(Stages));
      psel_q  <= (bl <= 32'(Stages)) ? IW'(bl - 32'd1) : IW'(Stages - 1);
      hv_q    <= h_valid_i;
      h_q     <= h_i;
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
        sl_q[s] <= 1'b0;
      end else if (s == 0) begin
        sz_q[s] <= '0;
        sa_q[s] <= bk_q ^ fb;
        sb_q[s] <= pow_q[psel_q];
        sv_q[s] <= bv_q;
        sf_q[s] <= bfin_q;
        sl_q[s] <= blast_q;
      end else begin
        sz_q[s] <= zo[s-1];
        sa_q[s] <= sa_q[s-1];
        sb_q[s] <= sb_q[s-1];
        sv_q[s] <= sv_q[s-1];
        sf_q[s] <= sf_q[s-1];
        sl_q[s] <= sl_q[s-1];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      pow_q   <= '{default: '0};
      pa_q    <= '0;
      pj_q    <= '0;
      pbusy_q <= 1'b0;
      left_q  <= 32'd0;
      idx_q   <= '0;
      y_q     <= '0;
      acc_q   <= '0;
      done_q  <= 1'b0;
    end else begin
      pow_q   <= pow_d;
      pa_q    <= pa_d;
      pj_q    <= pj_d;
      pbusy_q <= pbusy_d;
      left_q  <= left_d;
      idx_q   <= idx_d;
      y_q     <= y_d;
      acc_q   <= acc_d;
      done_q  <= done_d;
    end
  end

`ifndef SYNTHESIS
  // pa_q is the operand it replaces; a block of a lane that has a product before it
  // finds that product (in the FIFO or leaving the pipeline now)
  // (from the first reset on: before it the registers hold whatever they power up with)
  logic reset_seen_q = 1'b0;

  always_ff @(posedge clk_i or negedge rst_ni) begin : checks
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if (pa_q != pow_q[IW'(pj_q - 1'b1)]) $error("ak_ghash_pipe: pa_q is not the operand");
      if (fb_direct && !(ev && !ef)) $error("ak_ghash_pipe: no product for the lane");
    end
  end
`endif

endmodule

`default_nettype wire
