// ak_mode_engine: the aeskit mode engine -- ECB, CBC, CTR, CFB-128, OFB, CCM, GCM/GMAC,
// CMAC and XTS (NIST SP 800-38A/B/C/D/E, IEEE 1619), encryption and decryption, for
// Streams independent message streams, on top of ANY core of the registry, which it
// drives through the core contract ports (core_*; docs/core-contract.md). See
// docs/modes.md.
//
// Structure. One ak_mode_stream per stream; each has two request lanes (0: the
// mode's cipher calls, CCM's CTR flow; 1: CCM's CBC-MAC flow); the MAC lane has at
// most one block in the core, the data lane one (chained flows, CCM), two (GCM, XTS)
// or InFlight (the independent flows). A round-robin arbiter puts the requests of all lanes on
// the core's input; the core tag is the lane's number 2*stream + lane, so results
// go back to their lane in any interleaving. Every lane reserves room for its result
// before it sends a block, so the engine always takes results (core_out_ready_o is
// high): a stream whose user stalls never blocks the other stream.
// So on a core holding two blocks (pipe2) the two CCM flows of one stream, or two
// streams, keep the pipeline full; on a one-block core (round) they alternate.
// A request offered to the core and not yet taken stays granted (and unchanged)
// until the core takes it; core_in_valid_o never depends on core_in_ready_i.
// With CoreInReg = 1 the offer is the input register's (core_in_* from flip-flops),
// and a lane's request counts as taken when the register takes it.
//
// Key. key_* is passed to the core's key port while every stream is idle (between
// messages); all streams share the key. The core's key setup then delays the
// streams' first blocks (the core holds in_ready low). key_i and key2_i (XTS's tweak
// key) are also kept in registers: for an XTS data unit the engine drains the core,
// loads K2, lets only that stream's tweak block in, and loads K1 back (two key setups
// per data unit; other streams stall meanwhile, nothing is lost).
//
// Per-stream ports are packed arrays indexed by stream: stream s uses
// cmd_iv_i[s], in_data_i[s], ... (bits [128*s +: 128] of the flat vector).
// Protocol of a stream: ak_mode_stream and docs/modes.md.
//
// Timing: see ak_mode_stream (results are used in the cycle they leave the core:
// a chained flow costs exactly the core's latency per block). Byte order: FIPS-197,
// byte 0 in [127:120] of every 128-bit port.
//
// Parameters:
//   Streams       number of independent streams (>= 1, checked at elaboration).
//   CoreTagWidth  width of the core's tag ports (derived; >= log2(2*Streams)).
//   GhashDigitBits  GCM's GHASH multiplier digit per stream (128/D cycles per block).
//   AeadModes     1: GCM/GMAC, CMAC and XTS; 0 leaves their logic (GHASH, the kept
//                 keys, the swap) out and makes their commands illegal.
//   InFlight      blocks of an independent flow (ECB, CTR, CBC/CFB decryption) a
//                 stream keeps in the core (default 2; see ak_mode_stream: deep
//                 settings are for simulation models of deep pipelines).
//   PlainStream   0 (default): a stream takes a payload beat only while none waits for
//                 its request (one block every two cycles at most) and a command only
//                 while idle; 1: ECB, CBC, CTR, CFB and OFB take the next beat in the
//                 cycle the waiting one is sent, so one stream gives a
//                 one-block-per-cycle core one block per cycle (in_ready_o then
//                 depends on the core's ready), and a command offered while such a
//                 message runs and still takes input extends it by its msg_len bytes
//                 (cmd_ready_o high; its other fields ignored): a packet whose length
//                 comes with its data runs as one message (ak_axis_core's deep build).
//   CoreInReg     0 (default): the granted request drives the core's input port
//                 directly, so a chained flow costs exactly the core's latency per
//                 block. 1: the request goes into a register first (valid, data,
//                 direction, tag; it takes a new request whenever it is empty or the
//                 core takes the one it holds, so an independent flow still gives a
//                 one-block-per-cycle core one block per cycle): the path from the
//                 streams' control and the arbiter ends at that register instead of
//                 inside the core, for one cycle more per block (a chained flow:
//                 the core's latency + 1 per block). For a system whose bus, not
//                 the core, sets the block rate (cipher_ahb: >= 16 bus cycles per
//                 block against 2*Nr + 1).
//   Parts         0 (default): every GCM/GMAC and CMAC message whole;
//                 cmd_part_i must be 0 (any other part is an illegal command) and
//                 cmd_ctx_i is not used (tie both to 0). 1: messages in parts
//                 (docs/modes.md "Messages in parts"): per stream a 32-bit counter
//                 offset and a 128-bit GHASH restart register, built only with GCM or
//                 CMAC. The default keeps today's systems as they were built.
//   CoreDirections, CoreKeySizes  the core's Directions (bit 0 encrypts, bit 1
//                 decrypts) and KeySizes (bit k takes key_len = k), as the registry
//                 declares them (docs/core-contract.md, "Configurations"; default: the
//                 full build): a command the core cannot run is illegal (ak_mode_cmd),
//                 so an encrypt-only core still runs CTR, CFB, OFB, CCM, GCM, CMAC and
//                 XTS encryption, and refuses ECB, CBC and XTS decryption.

`default_nettype none

module ak_mode_engine #(
  parameter int Streams      = 2,
  parameter int GhashDigitBits = 16,
  parameter bit AeadModes    = 1'b1,
  parameter logic [8:0] Modes = 9'h1ff,
  parameter int InFlight     = 2,
  parameter int CoreInReg    = 0,
  parameter bit Parts        = 1'b0,
  parameter logic [1:0] CoreDirections = 2'b11,
  parameter logic [2:0] CoreKeySizes   = 3'b111,
  parameter bit PlainStream     = 1'b0,
  parameter int CoreTagWidth = (Streams > 1) ? $clog2(2 * Streams) : 1
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  // key (shared by all streams)
  input  logic                            key_valid_i,
  output logic                            key_ready_o,
  input  logic [255:0]                    key_i,
  input  logic [255:0]                    key2_i,
  input  logic [1:0]                      key_len_i,
  // per stream: command
  input  logic [Streams-1:0]              cmd_valid_i,
  output logic [Streams-1:0]              cmd_ready_o,
  input  logic [Streams-1:0][3:0]         cmd_mode_i,
  input  logic [Streams-1:0]              cmd_decrypt_i,
  input  logic [Streams-1:0][127:0]       cmd_iv_i,
  input  logic [Streams-1:0][31:0]        cmd_iv_len_i,
  input  logic [Streams-1:0][3:0]         cmd_nonce_len_i,
  input  logic [Streams-1:0][4:0]         cmd_tag_len_i,
  input  logic [Streams-1:0][31:0]        cmd_aad_len_i,
  input  logic [Streams-1:0][31:0]        cmd_msg_len_i,
  input  logic [Streams-1:0][1:0]         cmd_part_i,   // 0 WHOLE, 1 FIRST, 2 MIDDLE, 3 LAST
  input  logic [Streams-1:0][255:0]       cmd_ctx_i,    // MIDDLE, LAST: the context
  // per stream: data in
  input  logic [Streams-1:0]              in_valid_i,
  output logic [Streams-1:0]              in_ready_o,
  input  logic [Streams-1:0][127:0]       in_data_i,
  // per stream: data out
  output logic [Streams-1:0]              out_valid_o,
  input  logic [Streams-1:0]              out_ready_i,
  output logic [Streams-1:0][127:0]       out_data_o,
  output logic [Streams-1:0]              out_tag_o,
  // per stream: status
  output logic [Streams-1:0]              sts_valid_o,
  input  logic [Streams-1:0]              sts_ready_i,
  output logic [Streams-1:0]              sts_pass_o,
  output logic [Streams-1:0]              sts_error_o,
  // the core (core contract, master side)
  output logic                            core_key_valid_o,
  input  logic                            core_key_ready_i,
  output logic [255:0]                    core_key_o,
  output logic [1:0]                      core_key_len_o,
  output logic                            core_in_valid_o,
  input  logic                            core_in_ready_i,
  output logic [127:0]                    core_in_data_o,
  output logic                            core_in_decrypt_o,
  output logic [CoreTagWidth-1:0]         core_in_tag_o,
  input  logic                            core_out_valid_i,
  output logic                            core_out_ready_o,
  input  logic [127:0]                    core_out_data_i,
  input  logic [CoreTagWidth-1:0]         core_out_tag_i
);

  localparam int Lanes = 2 * Streams;
  // XTS is built: the keys are kept for its K2 / K1 swap
  localparam bit HasXts = AeadModes && Modes[8];
  // blocks a stream can have in the core: InFlight on its data lane, one on its MAC lane
  localparam int FlyW  = $clog2((InFlight + 1) * Streams + 1);

  if (Streams < 1) begin : g_bad_streams
    $fatal(1, "ak_mode_engine: Streams must be >= 1, got %0d", Streams);
  end
  if ((1 << CoreTagWidth) < Lanes) begin : g_bad_tag_width
    $fatal(1, "ak_mode_engine: CoreTagWidth %0d cannot number %0d lanes", CoreTagWidth, Lanes);
  end

  logic [Lanes-1:0]        req_valid, req_ready, rsp_valid, req_dec;
  logic [Lanes-1:0][127:0] req_data;
  logic [Streams-1:0]      idle;
  logic [Streams-1:0]      tk_req, tk_gnt;
  logic [1:0]              klen_q;    // length code of the loaded keys
  logic [Lanes-1:0]        lane_ok;   // lanes the arbiter may grant now

  // ------------------------------------------------------------------------------
  // Streams
  // ------------------------------------------------------------------------------
  for (genvar s = 0; s < Streams; s++) begin : g_stream
    ak_mode_stream #(.GhashDigitBits(GhashDigitBits), .AeadModes(AeadModes),
                     .Modes(Modes), .InFlight(InFlight), .Parts(Parts),
                     .CoreDirections(CoreDirections), .CoreKeySizes(CoreKeySizes),
                     .PlainStream(PlainStream)) u_stream (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .cmd_valid_i    (cmd_valid_i[s]),
      .cmd_ready_o    (cmd_ready_o[s]),
      .cmd_mode_i     (cmd_mode_i[s]),
      .cmd_decrypt_i  (cmd_decrypt_i[s]),
      .cmd_iv_i       (cmd_iv_i[s]),
      .cmd_iv_len_i   (cmd_iv_len_i[s]),
      .cmd_nonce_len_i(cmd_nonce_len_i[s]),
      .cmd_tag_len_i  (cmd_tag_len_i[s]),
      .cmd_aad_len_i  (cmd_aad_len_i[s]),
      .cmd_msg_len_i  (cmd_msg_len_i[s]),
      .cmd_part_i     (cmd_part_i[s]),
      .cmd_ctx_i      (cmd_ctx_i[s]),
      .in_valid_i     (in_valid_i[s]),
      .in_ready_o     (in_ready_o[s]),
      .in_data_i      (in_data_i[s]),
      .out_valid_o    (out_valid_o[s]),
      .out_ready_i    (out_ready_i[s]),
      .out_data_o     (out_data_o[s]),
      .out_tag_o      (out_tag_o[s]),
      .sts_valid_o    (sts_valid_o[s]),
      .sts_ready_i    (sts_ready_i[s]),
      .sts_pass_o     (sts_pass_o[s]),
      .sts_error_o    (sts_error_o[s]),
      .req_valid_o    (req_valid[2*s +: 2]),
      .req_ready_i    (req_ready[2*s +: 2]),
      .req0_data_o    (req_data[2*s]),
      .req0_decrypt_o (req_dec[2*s]),
      .req1_data_o    (req_data[2*s+1]),
      .rsp_valid_i    (rsp_valid[2*s +: 2]),
      .rsp_data_i     (core_out_data_i),
      .key_len_i      (klen_q),
      .tk_req_o       (tk_req[s]),
      .tk_gnt_i       (tk_gnt[s]),
      .idle_o         (idle[s])
    );
    assign req_dec[2*s+1] = 1'b0;  // CBC-MAC: always the forward cipher
  end

  // ------------------------------------------------------------------------------
  // Arbiter: round robin over the lanes; an offered request stays granted until taken
  // ------------------------------------------------------------------------------
  logic [CoreTagWidth-1:0] rr_q, rr_d;       // lane with the highest priority
  logic [CoreTagWidth-1:0] grant_q, grant_d; // lane offered last cycle
  logic                    lock_q, lock_d;   // ... and not taken
  logic [CoreTagWidth-1:0] grant;
  logic                    any;

  always_comb begin : arbiter
    grant = rr_q;
    any   = 1'b0;
    if (lock_q) begin
      grant = grant_q;
      any   = 1'b1;
    end else begin
      for (int k = Lanes - 1; k >= 0; k--) begin
        // lane (rr + k) mod Lanes; the loop runs down so the nearest valid lane wins
        if (req_valid[(int'(rr_q) + k) % Lanes] && lane_ok[(int'(rr_q) + k) % Lanes]) begin
          grant = CoreTagWidth'((int'(rr_q) + k) % Lanes);
          any   = 1'b1;
        end
      end
    end
  end

  logic arb_ready;  // the arbiter's request may go now
  if (CoreInReg >= 2) begin : g_in_slice
    // a register slice: its ready is a flip-flop, so no path runs from the core's
    // in_ready into the arbiter and the streams, and the core's input comes from
    // flip-flops
    ak_reg_slice #(.Width(129 + CoreTagWidth)) u_in (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .valid_i (any),
      .ready_o (arb_ready),
      .data_i  ({req_data[grant], req_dec[grant], grant}),
      .valid_o (core_in_valid_o),
      .ready_i (core_in_ready_i),
      .data_o  ({core_in_data_o, core_in_decrypt_o, core_in_tag_o})
    );
  end else if (CoreInReg == 1) begin : g_in_reg
    logic                    ir_v_q;
    logic [127:0]            ir_data_q;
    logic                    ir_dec_q;
    logic [CoreTagWidth-1:0] ir_tag_q;
    assign arb_ready = !ir_v_q || core_in_ready_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin : in_reg_v
      if (!rst_ni) ir_v_q <= 1'b0;
      else if (arb_ready) ir_v_q <= any;
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin : in_reg_data
      if (!rst_ni) begin
        ir_data_q <= '0;
        ir_dec_q  <= 1'b0;
        ir_tag_q  <= '0;
      end else if (arb_ready) begin
        ir_data_q <= req_data[grant];
        ir_dec_q  <= req_dec[grant];
        ir_tag_q  <= grant;
      end
    end
    assign core_in_valid_o   = ir_v_q;
    assign core_in_data_o    = ir_data_q;
    assign core_in_decrypt_o = ir_dec_q;
    assign core_in_tag_o     = ir_tag_q;
  end else begin : g_no_in_reg
    assign arb_ready         = core_in_ready_i;
    assign core_in_valid_o   = any;
    assign core_in_data_o    = req_data[grant];
    assign core_in_decrypt_o = req_dec[grant];
    assign core_in_tag_o     = grant;
  end

  always_comb begin : grant_ready
    req_ready = '0;
    req_ready[grant] = any && arb_ready;
  end

  always_comb begin : arbiter_next
    rr_d    = rr_q;
    grant_d = grant_q;
    lock_d  = 1'b0;
    if (any && arb_ready) begin
      rr_d = (int'(grant) == Lanes - 1) ? '0 : grant + 1'b1;
    end else if (any) begin
      grant_d = grant;
      lock_d  = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : arbiter_regs
    if (!rst_ni) begin
      rr_q    <= '0;
      grant_q <= '0;
      lock_q  <= 1'b0;
    end else begin
      rr_q    <= rr_d;
      grant_q <= grant_d;
      lock_q  <= lock_d;
    end
  end

  // ------------------------------------------------------------------------------
  // Keys: loaded by the user only between messages; kept (key_i, key2_i) for XTS,
  // whose tweak E_K2(i) is made by swapping K2 into the core and K1 back:
  //   KIdle  -> KDrain (a stream asks; no new block enters the core until it is
  //   empty) -> KLoad2 (K2 into the core) -> KTweak (only that stream's data lane:
  //   its tweak block, until the result is back) -> KLoad1 (K1 back) -> KIdle.
  // Other streams stall meanwhile (their blocks in flight drain first); nothing is lost.
  // ------------------------------------------------------------------------------
  typedef enum logic [2:0] {KIdle, KDrain, KLoad2, KTweak, KLoad1} kst_e;
  kst_e                   kst_q, kst_d;
  logic [Streams-1:0]     ksel_q, ksel_d;     // the stream served (one-hot)
  logic [255:0]           key1_q, key1_d, key2_q, key2_d;
  logic [1:0]             klen_d;
  logic                   ksent_q, ksent_d;   // the tweak block has entered the core
  logic [FlyW-1:0]        fly_q, fly_d;       // blocks in the core
  logic                   all_idle, user_key_fire, core_in_fire, core_out_fire;

  assign all_idle         = &idle;
  assign key_ready_o      = core_key_ready_i && all_idle;
  assign user_key_fire    = key_valid_i && key_ready_o;
  assign core_key_valid_o = (key_valid_i && all_idle) || (kst_q == KLoad2) || (kst_q == KLoad1);
  assign core_key_o       = (kst_q == KLoad2) ? key2_q : (kst_q == KLoad1) ? key1_q : key_i;
  assign core_key_len_o   = ((kst_q == KLoad2) || (kst_q == KLoad1)) ? klen_q : key_len_i;
  assign core_in_fire     = any && arb_ready;  // into the core or its input register
  assign core_out_fire    = core_out_valid_i;  // core_out_ready_o is 1

  for (genvar s = 0; s < Streams; s++) begin : g_tk_gnt
    assign tk_gnt[s] = (kst_q == KTweak) && ksel_q[s];
  end

  always_comb begin : key_fsm
    kst_d   = kst_q;
    ksel_d  = ksel_q;
    key1_d  = key1_q;
    key2_d  = key2_q;
    klen_d  = klen_q;
    ksent_d = ksent_q;
    fly_d   = fly_q + FlyW'(core_in_fire) - FlyW'(core_out_fire);
    if (user_key_fire && HasXts) begin  // kept for XTS's swap only
      key1_d = key_i;
      key2_d = key2_i;
    end
    // the length code of the loaded key: XTS's swap, and every stream's check of a
    // key size the core leaves out (CoreKeySizes)
    if (user_key_fire) klen_d = key_len_i;
    unique case (kst_q)
      KIdle: begin
        if (HasXts && |tk_req) begin
          kst_d  = KDrain;
          ksel_d = tk_req & ~(tk_req - 1'b1);  // the lowest stream asking
        end
      end
      KDrain:  if (!lock_q && fly_q == '0) kst_d = KLoad2;
      KLoad2: begin
        if (core_key_ready_i) begin
          kst_d   = KTweak;
          ksent_d = 1'b0;
        end
      end
      KTweak: begin
        if (core_in_fire) ksent_d = 1'b1;
        if (ksent_q && fly_q == '0) kst_d = KLoad1;
      end
      KLoad1:  if (core_key_ready_i) kst_d = KIdle;
      default: kst_d = KIdle;
    endcase
  end

  // lanes the arbiter may grant: all, except while a tweak is made (then only the
  // served stream's data lane, in KTweak until its tweak block is taken)
  always_comb begin : lane_mask
    lane_ok = '1;
    if (kst_q != KIdle) begin
      lane_ok = '0;
      for (int s = 0; s < Streams; s++) begin
        // the tweak block only: nothing after it until K1 is back
        if (kst_q == KTweak && ksel_q[s] && !ksent_q) lane_ok[2*s] = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      kst_q   <= KIdle;
      ksel_q  <= '0;
      key1_q  <= '0;
      key2_q  <= '0;
      klen_q  <= 2'd0;
      ksent_q <= 1'b0;
      fly_q   <= '0;
    end else begin
      kst_q   <= kst_d;
      ksel_q  <= ksel_d;
      key1_q  <= key1_d;
      key2_q  <= key2_d;
      klen_q  <= klen_d;
      ksent_q <= ksent_d;
      fly_q   <= fly_d;
    end
  end

  // ------------------------------------------------------------------------------
  // Results back to their lane; lanes always have room for them
  // ------------------------------------------------------------------------------
  assign core_out_ready_o = 1'b1;
  always_comb begin : results
    rsp_valid = '0;
    rsp_valid[core_out_tag_i] = core_out_valid_i;
  end

endmodule

`default_nettype wire
