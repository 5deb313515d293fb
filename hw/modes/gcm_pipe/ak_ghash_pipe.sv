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
// blk_i, at most one per cycle, any gaps (no back-pressure: the unit takes every
// block); done_o pulses with y_o = GHASH_H(blocks) Stages + 1 cycles after the last
// block, and y_o holds until the next start. ready_o is low from start to done.
//
// Latency: last block -> done_o: Stages + 1 cycles. Throughput: one block per cycle.
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

  assign powers_ok = (pj_q == SW'(Stages)) && !pbusy_q;
  assign pm_start  = !pbusy_q && !h_valid_i && (pj_q != '0) && (pj_q != SW'(Stages)) && pm_ready;

  ak_gf128_mul #(.DigitBits(16)) u_pow (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .start_i (pm_start),
    .ready_o (pm_ready),
    .a_i     (pow_q[IW'(pj_q - 1'b1)]),
    .b_i     (pow_q[0]),
    .done_o  (pm_done),
    .z_o     (pm_z)
  );

  always_comb begin : powers
    pow_d   = pow_q;
    pj_d    = pj_q;
    pbusy_d = pbusy_q;
    if (h_valid_i) begin
      pow_d[0] = h_i;
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
  end

  // ------------------------------------------------------------------------------
  // Message state
  // ------------------------------------------------------------------------------
  logic          run_q, run_d;       // a hash is under way
  logic [31:0]   left_q, left_d;     // blocks still to enter
  logic [SW-1:0] flush_q, flush_d;   // empty advances still to run after the last block
  logic [127:0]  y_q, y_d;
  logic          done_q, done_d;
  logic          adv;                // the pipeline moves
  // decoded from left/flush a cycle ahead (registers), off the enable's path:
  logic          lz_q, lz_d;         // left == 0: no block to enter
  logic          fnz_q, fnz_d;       // flush != 0
  logic          fin_q, fin_d;       // the next block is among the last Stages
  logic [IW-1:0] psel_q, psel_d;     // its power: H^(psel+1)

  assign ready_o = powers_ok && !run_q && !h_valid_i;
  assign done_o  = done_q;
  assign y_o     = y_q;
  assign adv     = run_q && ((blk_valid_i && !lz_q) || (lz_q && fnz_q));

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
    fnz_d   = fnz_q;
    fin_d   = fin_q;
    psel_d  = psel_q;
    if (start_i && ready_o) begin
      run_d   = 1'b1;
      left_d  = n_i;
      flush_d = SW'(Stages);
      y_d     = '0;
    end else if (adv) begin
      if (sv_q[Stages-1] && sf_q[Stages-1]) y_d = y_q ^ zo[Stages-1];
      if (left_q != 32'd0) begin
        left_d = left_q - 32'd1;
      end else begin
        flush_d = flush_q - 1'b1;
        if (flush_q == SW'(1)) begin
          run_d  = 1'b0;
          done_d = 1'b1;
        end
      end
    end
    if ((start_i && ready_o) || adv) begin
      lz_d   = (left_d == 32'd0);
      fnz_d  = (flush_d != '0);
      fin_d  = (left_d <= 32'(Stages));
      psel_d = (left_d <= 32'(Stages)) ? IW'(left_d - 32'd1) : IW'(Stages - 1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : pipe_regs
    if (!rst_ni) begin
      sz_q <= '{default: '0};
      sa_q <= '{default: '0};
      sb_q <= '{default: '0};
      sv_q <= '{default: 1'b0};
      sf_q <= '{default: 1'b0};
    end else if (adv) begin
      sz_q[0] <= '0;
      sa_q[0] <= blk_i ^ fb;
      sb_q[0] <= pow_q[psel_q];
      sv_q[0] <= !lz_q;
      sf_q[0] <= fin_q;
      for (int s = 1; s < Stages; s++) begin
        sz_q[s] <= zo[s-1];
        sa_q[s] <= sa_q[s-1];
        sb_q[s] <= sb_q[s-1];
        sv_q[s] <= sv_q[s-1];
        sf_q[s] <= sf_q[s-1];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      pow_q   <= '{default: '0};
      pj_q    <= '0;
      pbusy_q <= 1'b0;
      run_q   <= 1'b0;
      left_q  <= 32'd0;
      flush_q <= '0;
      y_q     <= '0;
      done_q  <= 1'b0;
      lz_q    <= 1'b1;
      fnz_q   <= 1'b0;
      fin_q   <= 1'b0;
      psel_q  <= '0;
    end else begin
      pow_q   <= pow_d;
      pj_q    <= pj_d;
      pbusy_q <= pbusy_d;
      run_q   <= run_d;
      left_q  <= left_d;
      flush_q <= flush_d;
      y_q     <= y_d;
      done_q  <= done_d;
      lz_q    <= lz_d;
      fnz_q   <= fnz_d;
      fin_q   <= fin_d;
      psel_q  <= psel_d;
    end
  end

endmodule

`default_nettype wire
