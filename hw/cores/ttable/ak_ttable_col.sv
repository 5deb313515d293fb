// ak_ttable_col: paper 004's iterative "basic" module (Deshpande & Leelavathi, after
// Drimer, Guneysu and Paar): one eight-stage T-table column pipeline (ak_ttable_lane)
// with a feedback loop, one 32-bit column per cycle, two blocks interleaved.
// Encryption and decryption (equivalent inverse cipher), 128/192/256-bit keys (or a
// subset: Directions, KeySizes).
// It speaks the aeskit core contract (docs/core-contract.md).
//
// Schedule. A free-running phase counter ph (0..7) splits the eight-cycle ring into
// two halves: half 0 owns the columns whose byte-0 lookup happens at phases 0..3,
// half 1 those at 4..7; each half holds one block. Column c (c = 0..3, processing
// order) of half h looks up its row-j byte at phase 4h+c+j and leaves the cascade
// at the edge of phase 4h+c+7 (= 4h+c-1 mod 8): one round of a block every eight
// cycles, and the next round's column c needs row j of column c+j of the previous
// round, which is then either the column just finished (c+j < 4) or the one finished
// four cycles before (c+j >= 4, a 4-deep delay line): the paper's feedback shift
// registers. Decryption processes the columns in the order 0, 3, 2, 1: with that
// order InvShiftRows has the same access pattern as ShiftRows, so the one datapath
// serves both directions; only the key words, the input and the output are mapped.
// A new block enters half h at the edge of phase 4h-1 (7 for half 0, 3 for half 1):
// its four columns, XORed with round key 0, are fed into the result register in
// place of the previous round's columns at the edges of phases 4h-1 .. 4h+2, the
// very edges at which a block finishing in that half leaves the cascade.
//
// Round keys come from ak_rk_ram (LUT RAM, Distributed = 1, read into flip-flops; one
// 128-bit read per cycle: the key of the column that reaches stage X0 three edges
// later; round-0 keys in flip-flops). In block RAM the read would leave the RAM's
// output latch (5.6 ns clock to output on ECP5 -6): that was the critical path.
//
// Selects and control from flip-flops. The phase is kept twice (ph_q for the
// datapath, phc_q for the control, so that neither sits between the two). The
// lookups' half and byte selects and the key word select are registers set a cycle
// ahead from ph_q + 1; the key RAM's read address ({direction, round} of the half
// being read) is loaded at the edge before that half's reads begin; "the next edge
// is an open boundary" is a flag per half, so a block's entry enables that half's
// registers through two LUT levels. At every open boundary the result register
// takes the input columns whether or not a block enters (the half is then free, or
// its leaving block is collected from the cascade output).
//
// Timing (Nr = 10/12/14; A = edge accepting a block; "first edge at which X is
// high" samples X just before that edge):
//   - latency 8*Nr+5 (85/101/117): round r of the block runs at edges A+1 .. A+8r;
//     its last column leaves the cascade at edge A+8*Nr+3, where the complete block
//     is written into the output buffer; it is in the buffer's head register after
//     edge A+8*Nr+4, so out_valid_o is first high at edge A+8*Nr+5.
//   - interval: blocks are accepted only at the edges of phases 7 and 3, into a free
//     half (or a half whose block finishes at that edge). A continuous, never-stalled
//     stream is accepted at A, A+4, A+8*Nr, A+8*Nr+4, A+16*Nr, ...: blocks j and j+2
//     are exactly 8*Nr cycles apart, two blocks per 8*Nr cycles, 4*Nr cycles per
//     block on average (40/48/56).
//   - key setup 57/63/76: ak_rk_ram's word-serial fill (ak_rk_fill). While no
//     block is in flight the phase counter waits at 7, so in_ready_o rises as soon as
//     the keys are ready and the first block never waits for its phase.
//
// Back-pressure. Results are collected column by column and the whole block is
// written into an output buffer (ak_pipe_outbuf, 8 entries) with its fourth column.
// The core never stalls (no clock enable: a stall enable would fan out to every
// register and block RAM of the lane and set the clock period); a block is admitted
// only while the buffer has credit for it, so every result finds a free entry and
// out_ready_i low reaches only the buffer and the credit. in_ready_o depends
// combinationally on key_valid_i only: the credit is the buffer's registered
// "fewer than 8 blocks admitted and not taken" (RegisteredSpace), so after the buffer
// was full a block is admitted no earlier than one cycle after the head was taken.
//
// Key loads. key_ready_o is high when no block is in flight (none in the ring, none
// being collected, none in the output buffer) and the key RAM is not filling.
// While key_valid_i is high, in_ready_o is low (a key presented with a block is
// loaded first). key_len_i = 3, or a size KeySizes does not build: the handshake
// completes, the key RAM reports no key and in_ready_o stays low until a legal key
// is loaded.
//
// Reset. rst_ni is asynchronous, active low, and resets every register (the block
// RAM output latches excepted: no valid flag depends on them); a reset in the middle
// of a block or a key setup leaves the core idle without a key.
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120], column 0 in [127:96]; out0 in
//   out_data_o[127:120]; key byte 0 in key_i[255:248], 128/192-bit keys left-aligned.
//
// Parameters:
//   TagWidth    width of in_tag_i/out_tag_o (>= 1, checked at elaboration).
//   Directions  directions built (docs/core-contract.md, "Configurations"; 1..3,
//               checked): 1 encryption only, 2 decryption only, 3 both (default).
//               A block of a direction not built is never accepted (in_ready_o low
//               while it is offered, so ready depends on the offered in_decrypt_i).
//               With one direction the lane's ROMs hold that direction's tables only
//               (ak_ttable_lane EncTables/DecTables), the key RAM that direction's
//               bank only, and an encrypt-only ak_rk_fill leaves out the decryption
//               round keys (InvMixColumns); the direction registers are constants.
//   KeySizes    mask of the key sizes built (1..7, checked; bit 0 128, bit 1 192,
//               bit 2 256; default 7). A key of another size completes the handshake
//               and leaves the core keyless, as key_len_i = 3 does; ak_rk_fill leaves
//               out the key words and schedule steps of the sizes not built. The
//               cycle counts of a built size do not change.

`default_nettype none

module ak_ttable_col #(
  parameter int TagWidth   = 1,
  parameter int Directions = 3,
  parameter int KeySizes   = 7
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // key
  input  logic                key_valid_i,
  output logic                key_ready_o,
  input  logic [255:0]        key_i,
  input  logic [1:0]          key_len_i,
  // input blocks
  input  logic                in_valid_i,
  output logic                in_ready_o,
  input  logic [127:0]        in_data_i,
  input  logic                in_decrypt_i,
  input  logic [TagWidth-1:0] in_tag_i,
  // output blocks, in the order accepted
  output logic                out_valid_o,
  input  logic                out_ready_i,
  output logic [127:0]        out_data_o,
  output logic [TagWidth-1:0] out_tag_o
);

  // ------------------------------------------------------------------------------
  // Parameter checks
  // ------------------------------------------------------------------------------
  if (TagWidth < 1) begin : g_bad_tag_width
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_col: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_ttable_col: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3) begin : g_bad_directions
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_col: Directions must be 1..3, got %0d", Directions);
`else
    $fatal(1, "ak_ttable_col: Directions must be 1..3, got %0d", Directions);
`endif
  end
  if (KeySizes < 1 || KeySizes > 7) begin : g_bad_key_sizes
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_col: KeySizes must be 1..7, got %0d", KeySizes);
`else
    $fatal(1, "ak_ttable_col: KeySizes must be 1..7, got %0d", KeySizes);
`endif
  end

  localparam bit Enc = Directions[0];   // encryption built
  localparam bit Dec = Directions[1];   // decryption built

  // ------------------------------------------------------------------------------
  // Declarations
  // ------------------------------------------------------------------------------
  // output buffer entries: the two halves' blocks plus the cycles from a write to the
  // head, so a never-stalled stream never runs out of credit
  localparam int ObDepth = 8;

  logic [2:0]          ph_q, ph_d;          // ring phase (the lookups' addresses)
  logic [2:0]          phc_q;               // the same, for the control (own register)
  logic [1:0]          busy_q, busy_d;      // a block in half h
  logic [1:0][3:0]     rnd_q, rnd_d;        // its round (1 .. Nr) in the current window
  logic [1:0]          lastr_q, lastr_d;    // rnd_q == Nr (a flag: no compare in a path)
  logic [1:0]          plast_q, plast_d;    // rnd_q == Nr - 1
  logic                open_q, open_d;      // this edge is a boundary whose half is free
                                            // or finishing (a block may enter)
  logic [1:0]          openh_q, openh_d;    // the same, per half (the half's own boundary)
  logic [1:0]          dec_q, dec_d;        // it is being decrypted
  logic [1:0][TagWidth-1:0] tag_q, tag_d;   // its tag
  logic                inj_q, inj_d;        // columns 1..3 of a new block still to feed
  logic                injd_q, injd_d;      // the result register takes ib_q (after any
                                            // open boundary, block or not)
  logic [1:0]          inj_k_q, inj_k_d;    // the next one
  logic [95:0]         ib_q, ib_d;          // them (slots 1, 2, 3), round key 0 added
  logic                harv_q, harv_d;      // collecting columns 1..3 of a result
  logic [1:0]          harv_k_q, harv_k_d;  // the next one
  logic [95:0]         coll_q, coll_d;      // slots 0, 1, 2 of the result
  logic                hdec_q, hdec_d;      // the result's direction
  logic [TagWidth-1:0] htag_q, htag_d;      // ... and tag
  logic                done;                // the result is complete (slot 3 arrives)
  logic                dn_q, dn_d;          //   the same as a flip-flop, set a cycle ahead
  logic [127:0]        done_data;           // ... in FIPS order
  logic [31:0]         res_q, res_d;        // the column that left the cascade (or input)
  logic [31:0]         dl_q [4];            // res_q delayed by 1 .. 4 cycles
  logic [31:0]         kcol_q, kcol_d;      // round-key word for stage X0

  logic [3:0]   nr;
  logic         keys_ready;
  logic         keys_key_ready;
  logic [127:0] rd_key;
  logic [127:0] enc_key0, dec_key0;
  logic         rd_dec;
  logic [3:0]   rd_round;
  logic         rdd_q;       // rd_dec and rd_round, from flip-flops (see key_read)
  logic [3:0]   rdr_q;

  logic         ob_space, ob_empty;   // output buffer: credit, nothing admitted
  logic         bnd;         // a window boundary (phase 7: half 0, phase 3: half 1)
  logic         in_ok;       // a block is offered and could enter at an open boundary
  logic         bh;          // the half of that boundary
  logic         fin;         // the block of half bh finishes at this edge
  logic         fin_q, fin_d;  // the same as a flip-flop, set a cycle ahead
  logic         idle;        // no block in the ring
  logic         in_fire;
  logic         key_fire;
  logic         dec_in;      // in_decrypt_i as built (a constant with one direction)
  logic         dir_ok;      // the offered block's direction is built
  logic [127:0] ark;         // in_data_i ^ round key 0
  logic [127:0] ark_slots;   // in processing order (slot 0 in [127:96])
  logic [31:0]  col;         // the cascade output
  logic [9:0]   addr [4];
  logic         rd_half;     // half of the column whose key is read (checks only)
  // the datapath's selects, decided a cycle ahead (see selects_next)
  logic [3:0]   ksel_q, ksel_d;    // one-hot: the key word kcol_d takes
  logic [3:0]   ahj_q, ahj_d;      // the half of lookup port j
  logic [3:1]   asame_q, asame_d;  // port j's byte comes from res_q (else dl_q[3])

  // ------------------------------------------------------------------------------
  // Round keys
  // ------------------------------------------------------------------------------
  ak_rk_ram #(
    .Distributed(1'b1),  // LUT RAM: the key word comes from flip-flops, not a RAM latch
    .Directions (Directions),
    .KeySizes   (KeySizes)
  ) u_keys (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .key_valid_i(key_fire),
    .key_ready_o(keys_key_ready),
    .key_i      (key_i),
    .key_len_i  (key_len_i),
    .ready_o    (keys_ready),
    .nr_o       (nr),
    .sw_we_i    (1'b0),
    .sw_dec_i   (1'b0),
    .sw_round_i (4'd0),
    .sw_key_i   (128'h0),
    .rd_en_i    (1'b1),
    .rd_dec_i   (rd_dec),
    .rd_round_i (rd_round),
    .rd_key_o   (rd_key),
    .enc_key0_o (enc_key0),
    .dec_key0_o (dec_key0)
  );

  // the read issued in the cycle of phase p serves the column that reaches X0 two
  // edges later: byte 0 looked up at phase p-2, half ((p-2) mod 8) / 4
  assign rd_half  = 1'((ph_q - 3'd2) >> 2);
  // The reads of phases 2 .. 5 serve half 0, those of 6, 7, 0, 1 half 1. A half's
  // round and direction change only at its boundary (phase 7 / 3), never while it
  // is read, so the address is loaded at the edge before its first read (the edge
  // of phase 1 for half 0, of 5 for half 1) from registers alone. (An idle ring
  // jumps to phase 7 and then counts on, so it reaches phase 1 before half 0's
  // first read.)
  assign rd_dec   = rdd_q;
  assign rd_round = rdr_q;

  // The selects of the next cycle, from the phase it will have (ph_q + 1; after an
  // idle ring's jump to phase 7 they are wrong for that one cycle, in which both
  // halves are empty and no lookup or key word is used) and from dec_q, which
  // changes only at a half's boundary and never between this cycle and the one
  // that uses it (half 0's words are loaded at phases 3 .. 6, half 1's at 7 .. 2).
  always_comb begin : selects_next
    logic [2:0] pn, p3;
    logic [1:0] slot, lcol;
    logic       kh;
    pn     = ph_q + 3'd1;
    p3     = pn - 3'd3;
    kh     = p3[2];
    slot   = p3[1:0];
    lcol   = dec_q[kh] ? 2'(3'd4 - {1'b0, slot}) : slot;
    ksel_d = 4'b0001 << lcol;
    for (int j = 0; j < 4; j++) ahj_d[j] = 1'((pn - 3'(j)) >> 2);
    for (int j = 1; j < 4; j++) asame_d[j] = (pn[1:0] >= 2'(j));
  end

  // kcol_q is loaded in the cycle of phase p for the column looked up at phase p-3
  always_comb begin : key_word
    kcol_d = '0;
    for (int c = 0; c < 4; c++) kcol_d |= rd_key[127 - 32 * c -: 32] & {32{ksel_q[c]}};
  end

  // ------------------------------------------------------------------------------
  // Handshakes and control
  // ------------------------------------------------------------------------------
  assign bnd      = (phc_q[1:0] == 2'b11);
  assign bh       = !phc_q[2];
  assign fin      = fin_q;   // = bnd && busy_q[bh] && lastr_q[bh]
  assign idle     = (busy_q == 2'b00) && !inj_q && !harv_q;

  assign key_ready_o = keys_key_ready && idle && ob_empty;
  assign key_fire    = key_valid_i && key_ready_o;
  assign dec_in      = (Enc && Dec) ? in_decrypt_i : Dec;
  assign dir_ok      = in_decrypt_i ? Dec : Enc;
  assign in_ready_o  = keys_ready && !key_valid_i && dir_ok && ob_space && open_q;
  assign in_ok       = in_valid_i && keys_ready && !key_valid_i && dir_ok && ob_space;
  assign in_fire     = in_valid_i && in_ready_o;

  // round key 0 and the processing order of the columns (decryption: 0, 3, 2, 1)
  assign ark       = in_data_i ^ (dec_in ? dec_key0 : enc_key0);
  assign ark_slots = dec_in ? {ark[127:96], ark[31:0], ark[63:32], ark[95:64]} : ark;

  always_comb begin : phase_next
    ph_d = phc_q + 3'd1;
    if (idle && !in_fire) ph_d = 3'd7;   // wait for a block at half 0's boundary
  end

  always_comb begin : halves_next
    busy_d  = busy_q;
    rnd_d   = rnd_q;
    lastr_d = lastr_q;
    plast_d = plast_q;
    dec_d   = dec_q;
    tag_d   = tag_q;
    // each half on its own (no multiplexer by bh in front of a compare): half h
    // changes only at its boundary (phase 7 for half 0, 3 for half 1)
    for (int h = 0; h < 2; h++) begin
      if (bnd && (bh == 1'(h))) begin
        if (fin) begin
          busy_d[h] = 1'b0;
        end else if (busy_q[h]) begin
          rnd_d[h]   = rnd_q[h] + 4'd1;
          lastr_d[h] = plast_q[h];
          plast_d[h] = (rnd_q[h] == nr - 4'd2);
        end
      end
      // a block enters half h: openh_q[h] implies the half's boundary and open_q
      if (in_ok && openh_q[h]) begin
        busy_d[h]  = 1'b1;
        rnd_d[h]   = 4'd1;
        lastr_d[h] = 1'b0;   // Nr >= 10
        plast_d[h] = 1'b0;
        dec_d[h]   = dec_in;
        tag_d[h]   = in_tag_i;
      end
    end
    // the next edge is an open boundary: the half of phase 3 or 7 coming up is free
    // or finishing (the halves change only at boundaries, so this edge's values
    // hold), or the ring is idle and waits at phase 7 (both halves free)
    open_d = ((phc_q[1:0] == 2'b10) && (!busy_q[!phc_q[2]] || lastr_q[!phc_q[2]]))
          || (idle && !in_fire);
    // per half: phase 2 leads to half 1's boundary (phase 3) unless the ring is idle
    // (no block enters at phase 2, so it then jumps to 7), phase 6 to half 0's
    // (phase 7), and an idle ring waits at phase 7
    openh_d[1] = (phc_q == 3'd2) && !idle && (!busy_q[1] || lastr_q[1]);
    openh_d[0] = ((phc_q == 3'd6) && (!busy_q[0] || lastr_q[0])) || (idle && !in_fire);
    // likewise: the next edge is a boundary at which that half's block finishes (an
    // idle ring has no block, so its jump to phase 7 needs no term)
    fin_d  = (phc_q[1:0] == 2'b10) && busy_q[!phc_q[2]] && lastr_q[!phc_q[2]];
  end

  // the result register takes the cascade output, or a new block's columns. The
  // selects come from flip-flops: at an open boundary the input columns are taken
  // whether or not a block is accepted (the half is free or its leaving block is
  // collected from the cascade output, so nothing is lost; only busy_q says whether
  // the half holds a block). inj_q (a block is being fed) only keeps the ring awake.
  always_comb begin : feed_next
    res_d   = col;
    injd_d  = injd_q;
    inj_k_d = inj_k_q;
    ib_d    = ib_q;
    inj_d   = inj_q;
    if (open_q) begin
      res_d   = ark_slots[127:96];
      ib_d    = ark_slots[95:0];
      injd_d  = 1'b1;
      inj_k_d = 2'd1;
    end else if (injd_q) begin
      res_d   = ib_q[95:64];
      ib_d    = {ib_q[63:0], 32'h0};
      inj_k_d = inj_k_q + 2'd1;
      if (inj_k_q == 2'd3) begin
        injd_d = 1'b0;
        inj_d  = 1'b0;
      end
    end
    if (in_fire) inj_d = 1'b1;
  end

  // collect a finished block column by column; hand it to the output buffer
  always_comb begin : collect_next
    harv_d    = harv_q;
    harv_k_d  = harv_k_q;
    coll_d    = coll_q;
    hdec_d    = hdec_q;
    htag_d    = htag_q;
    done      = dn_q;   // = harv_q && harv_k_q == 3
    done_data = hdec_q ? {coll_q[95:64], col, coll_q[31:0], coll_q[63:32]}
                       : {coll_q, col};
    if (fin) begin
      harv_d   = 1'b1;
      harv_k_d = 2'd1;
      coll_d   = {col, 64'h0};
      hdec_d   = dec_q[bh];
      htag_d   = tag_q[bh];
    end else if (harv_q) begin
      harv_k_d = harv_k_q + 2'd1;
      unique case (harv_k_q)
        2'd1:    coll_d[63:32] = col;
        2'd2:    coll_d[31:0]  = col;
        default: harv_d = 1'b0;   // slot 3: the block is complete (done)
      endcase
    end
    dn_d = harv_d && (harv_k_d == 2'd3);
  end

  // The output buffer: the core never stalls; a block is admitted only with credit
  ak_pipe_outbuf #(
    .DataWidth(128 + TagWidth),
    .Depth    (ObDepth),
    .RegisteredSpace(1'b1)   // in_ready_o and the admission without out_ready_i
  ) u_outbuf (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .accept_i   (in_fire),
    .space_o    (ob_space),
    .empty_o    (ob_empty),
    .wvalid_i   (done),
    .wdata_i    ({htag_q, done_data}),
    .out_valid_o(out_valid_o),
    .out_ready_i(out_ready_i),
    .out_data_o ({out_tag_o, out_data_o})
  );

  // ------------------------------------------------------------------------------
  // Datapath: the lane and its lookups
  // ------------------------------------------------------------------------------
  // Port j in the cycle of phase p looks up row j of slot (p-j) mod 4 of half
  // ((p-j) mod 8) / 4. Its byte is row j of the previous round's slot (p mod 4):
  // the column in res_q if it belongs to the same half (j <= p mod 4), otherwise
  // the one of four cycles before.
  for (genvar j = 0; j < 4; j++) begin : g_addr
    logic       hj;      // half of the lookup
    logic [7:0] byte_j;  // its byte
    assign hj = ahj_q[j];
    if (j == 0) begin : g_same
      assign byte_j = res_q[31:24];
    end else begin : g_mux
      assign byte_j = asame_q[j] ? res_q[31 - 8 * j -: 8] : dl_q[3][31 - 8 * j -: 8];
    end
    assign addr[j] = {dec_q[hj], lastr_q[hj], byte_j};
  end

  ak_ttable_lane #(
    .EncTables (Enc),
    .DecTables (Dec),
    .MidTables (1'b1),
    .LastTables(1'b1),
    // encryption only: packed ROM words, the last round taken from them (one DP16KD
    // a ROM instead of two; the packed cascade adds the key alone)
    .Packed    (Directions == 1),
    .SplitKey  (Directions == 1)
  ) u_lane (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .en_i   (1'b1),
    .addr0_i(addr[0]),
    .addr1_i(addr[1]),
    .addr2_i(addr[2]),
    .addr3_i(addr[3]),
    .key_i  (kcol_q),
    .col_o  (col)
  );

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      busy_q   <= 2'b00;
      rnd_q    <= '0;
      lastr_q  <= 2'b00;
      plast_q  <= 2'b00;
      open_q   <= 1'b1;   // idle at phase 7 (in_ready_o also needs the keys)
      openh_q  <= 2'b01;
      fin_q    <= 1'b0;
      injd_q   <= 1'b0;
      dec_q    <= {2{!Enc}};   // the built direction with one
      tag_q    <= '0;
      inj_q    <= 1'b0;
      inj_k_q  <= 2'd0;
      harv_q   <= 1'b0;
      harv_k_q <= 2'd0;
      dn_q     <= 1'b0;
      hdec_q   <= !Enc;
      htag_q   <= '0;
    end else begin
      busy_q   <= busy_d;
      rnd_q    <= rnd_d;
      lastr_q  <= lastr_d;
      plast_q  <= plast_d;
      open_q   <= open_d;
      openh_q  <= openh_d;
      fin_q    <= fin_d;
      injd_q   <= injd_d;
      dec_q    <= dec_d;
      tag_q    <= tag_d;
      inj_q    <= inj_d;
      inj_k_q  <= inj_k_d;
      harv_q   <= harv_d;
      harv_k_q <= harv_k_d;
      dn_q     <= dn_d;
      hdec_q   <= hdec_d;
      htag_q   <= htag_d;
    end
  end

  // the phase twice: ph_q for the lookups' addresses and key-word select, phc_q for
  // the control, so that neither is placed between the two (keep, each in a block
  // of its own: otherwise synthesis merges the copies)
  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : phase_reg
    if (!rst_ni) ph_q <= 3'd7;
    else         ph_q <= ph_d;
  end

  (* keep *)
  always_ff @(posedge clk_i or negedge rst_ni) begin : phase_copy
    if (!rst_ni) phc_q <= 3'd7;
    else         phc_q <= ph_d;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : select_regs
    if (!rst_ni) begin
      ksel_q  <= 4'b0001;
      ahj_q   <= '0;
      asame_q <= '0;
    end else begin
      ksel_q  <= ksel_d;
      ahj_q   <= ahj_d;
      asame_q <= asame_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key_read
    if (!rst_ni) begin
      rdd_q <= !Enc;
      rdr_q <= '0;
    end else if (phc_q[1:0] == 2'd1) begin
      rdd_q <= dec_q[phc_q[2]];
      rdr_q <= rnd_q[phc_q[2]];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : data_regs
    if (!rst_ni) begin
      ib_q   <= '0;
      coll_q <= '0;
      res_q  <= '0;
      for (int i = 0; i < 4; i++) dl_q[i] <= '0;
      kcol_q <= '0;
    end else begin
      ib_q   <= ib_d;
      coll_q <= coll_d;
      res_q  <= res_d;
      dl_q[0] <= res_q;
      for (int i = 1; i < 4; i++) dl_q[i] <= dl_q[i - 1];
      kcol_q <= kcol_d;
    end
  end

`ifndef SYNTHESIS
  // Every register set a cycle ahead is the value it stands for (from the first
  // reset on: before it the registers hold whatever they power up with). The
  // datapath's selects and the key read address are checked whenever the ring is
  // not idle (an idle ring may jump to phase 7, after which they are stale for a
  // cycle in which nothing uses them).
  logic reset_seen_q = 1'b0;

  // (a plain always: Icarus refuses system tasks in always_ff)
  always @(posedge clk_i or negedge rst_ni) begin : ahead_check
    if (!rst_ni) begin
      reset_seen_q <= 1'b1;
    end else if (reset_seen_q) begin
      if (phc_q != ph_q)
        $error("ak_ttable_col: phc_q %0d, ph_q %0d", phc_q, ph_q);
      if (openh_q != {open_q && (ph_q == 3'd3), open_q && (ph_q == 3'd7)})
        $error("ak_ttable_col: openh_q %b, open_q %b at phase %0d", openh_q, open_q, ph_q);
      if (!idle) begin
        for (int j = 0; j < 4; j++)
          if (ahj_q[j] != 1'((ph_q - 3'(j)) >> 2))
            $error("ak_ttable_col: ahj_q[%0d] %b at phase %0d", j, ahj_q[j], ph_q);
        for (int j = 1; j < 4; j++)
          if (asame_q[j] != (ph_q[1:0] >= 2'(j)))
            $error("ak_ttable_col: asame_q[%0d] %b at phase %0d", j, asame_q[j], ph_q);
        if (ksel_q != 4'b0001 << (dec_q[1'((ph_q - 3'd3) >> 2)]
                                  ? 2'(3'd4 - {1'b0, 2'(ph_q - 3'd3)})
                                  : 2'(ph_q - 3'd3)))
          $error("ak_ttable_col: ksel_q %b at phase %0d", ksel_q, ph_q);
        if (busy_q[rd_half] && {rdd_q, rdr_q} != {dec_q[rd_half], rnd_q[rd_half]})
          $error("ak_ttable_col: key read %b/%0d, half %0d holds %b/%0d", rdd_q, rdr_q,
                 rd_half, dec_q[rd_half], rnd_q[rd_half]);
      end
    end
  end
`endif

endmodule

`default_nettype wire
