// ak_compact32_core: a compact AES core with a 32-bit datapath -- one column per
// clock cycle (4 S-boxes and one MixColumns), 4 cycles per round, encryption and
// decryption, 128/192/256-bit keys, round keys generated one word per cycle on the
// fly (forward for encryption, backward for decryption). It speaks the aeskit core
// contract (docs/core-contract.md); the design is described in docs/cores/compact.md.
//
// Datapath. One 128-bit state register st_q, updated in place: in every cycle each
// row r reads one byte at slot p_r (a 4:1 multiplexer per row), the column of four
// bytes goes through the round, and the four result bytes are written back into
// the same four slots. ShiftRows is not a move of bytes but a change of where each
// row's logical columns sit: after k rounds row r's logical column j is in slot
// (j + r*m) mod 4 with m = k (encryption) or -k (decryption), mod 4. Cycle t of a
// pass processes logical column c = t (encryption) or 3 - t (decryption: the round
// keys come out of the backward schedule last word first); row r reads logical
// column c + r (ShiftRows) or c - r (InvShiftRows) of the previous round, which is
// slot p_r = (c + r*m') mod 4 with m' the offset after this round, and the result
// (logical column c of the new state) goes into that slot, the one just freed.
// After Nr rounds rows 1 and 3 are rotated by two slots when Nr = 10 or 14, not at
// all for Nr = 12; the output multiplexer undoes it (a fixed choice per key size).
//   pass 0 (initial AddRoundKey)   res = x ^ w
//   encryption rounds 1 .. Nr      res = MixColumns(SubBytes(x)) ^ w (no MixColumns in Nr)
//   decryption rounds 1 .. Nr      res = InvMixColumns(InvSubBytes(x) ^ w) (none in Nr)
// x is the column read, w the round-key word of the cycle. One ak_mix_column serves
// both directions: InvMixColumns(y) = MixColumns(ak_inv_mix_pre(y)).
// The column is read a step ahead into a 32-bit register (xr_q), so the S-boxes sit
// on flip-flops and the read multiplexers are not merged into their logic by
// synthesis (4,762 -> 3,918 LUT4 in Yosys). Two consecutive steps touch the same
// byte only at the end of a pass, in row 3 (the step after reads the slot the last
// step of the pass writes: c + 3m' is the same slot for c = 3 and c = 0 with m'
// one on, and likewise going down); that byte is taken from the result.
// In the accepting cycle xr_q takes column 1 (encryption) or 2 of in_data_i.
//
// Key schedule (one word per cycle, no round-key store). A window of the last 8
// emitted words win_q (W[0] oldest .. W[7] newest, a plain shift register) and one
// new word per cycle:
//   the first Nk words of a pass come from a register: the cipher key key_q (words
//   0 .. Nk-1, encryption and the key setup) or last_q (decryption: the last 8 words
//   of the expansion, w[4Nr+3] first);
//   after that, forward  w[e] = w[e-Nk] ^ T(w[e-1])    = W[8-Nk] ^ T(W[7]),
//               backward w[e] = w[e+Nk] ^ T(w[e+Nk-1]) = W[8-Nk] ^ T(W[9-Nk]),
//   with T = RotWord + SubWord + Rcon when e mod Nk = 0, SubWord alone when Nk = 8
//   and e mod 8 = 4, the identity otherwise (ph_q tracks e mod Nk, rcon_q the Rcon
//   of the next RotWord met in the pass's direction: 01 forward; going backward the
//   first one met is w[36], w[42], w[48] with Rcon 36, 80, 40 for 128/192/256).
// T's input is a register too (sub_q): the step before loads it with the word it
// makes (forward) or with W[10-Nk] (backward, W[9-Nk] after that step's shift).
// One SubWord (ak_sub_word, 4 table S-boxes of its own) per cycle: the datapath's
// S-boxes are busy in every round cycle, so sharing them would cost a cycle per
// SubWord. The key setup runs the schedule forward once (4(Nr+1) words) and keeps
// the window it ends with in last_q: the start of every decryption.
//
// Timing (edges are rising clock edges; Nr = 10/12/14):
//   - latency 4(Nr+1) = 44/52/60: the edge A that accepts a block also does column
//     0 (encryption) or 3 (decryption) of the initial AddRoundKey; steps 1 .. 4Nr+3
//     run at edges A+1 .. A+4Nr+3; out_valid_o is high from A+4Nr+3 on, so the first
//     edge at which it is high is A+4(Nr+1).
//   - interval 4(Nr+1): in_ready_o is high while the result is taken, so the next
//     block is accepted at the edge that takes the result.
//   - key setup 4(Nr+1)+1 = 45/53/61: key taken at edge K; the forward pass runs at
//     edges K+1 .. K+4(Nr+1); in_ready_o is high from then on, first high at edge
//     K+4(Nr+1)+1.
//
// Back-pressure: while out_valid_o && !out_ready_i nothing moves; out_data_o is the
// state register through a fixed per-key-size slot choice, out_tag_o a register.
// in_ready_o depends combinationally on out_ready_i and key_valid_i.
// Keys: key_ready_o is high when no key setup runs and no block is in flight (not
// even a finished one waiting). While key_valid_i is high in_ready_o is low (a key
// presented with a block is loaded first). key_len_i = 3 completes the handshake,
// and the core forgets its key: in_ready_o stays low until a legal key is set up.
// Reset: rst_ni (asynchronous, active low) clears every register; a reset in the
// middle of a block or a key setup leaves the core idle without a key.
//
// Byte order: FIPS-197 byte in0 in in_data_i[127:120] (state s[r][c] = byte 4c+r),
//   out0 in out_data_o[127:120]; key byte 0 in key_i[255:248], 128/192-bit keys
//   left-aligned (the unused low bits are ignored).
//
// Parameters:
//   TagWidth  width of in_tag_i/out_tag_o (>= 1, checked at elaboration), carried
//             through unchanged.
//   SboxImpl  the datapath's S-boxes: 0 (default) a SubBytes and an InvSubBytes
//             table per row (ak_sbox_sel / ak_inv_sbox_sel, Impl 0); 1 comp,
//             2 canright, 3 lutinv: one shared S-box per row (ak_sbox_comp_encdec,
//             ak_sbox_canright_encdec, ak_sbox_lutinv_encdec; dec_i the block's
//             direction), 4 S-boxes instead of 8; 4 bram: block RAM, the datapath's
//             4 lookups and the key schedule's SubWord in 4 dual-port ROMs
//             (ak_sbox_rom2, SubBytes and InvSubBytes in each; 4 ECP5 DP16KD, 8
//             iCE40 SB_RAM40_4K), addressed by the reads that load xr_q and sub_q;
//             anything else stops elaboration. Otherwise the key schedule's SubWord
//             stays ak_sub_word (tables). Cycle counts do not depend on it.
//   Directions, KeySizes  the configuration (docs/core-contract.md, "Configurations"):
//             Directions bit 0 builds encryption, bit 1 decryption (3, both, by
//             default); KeySizes bit k builds key_len_i = k (7, all three). Without
//             decryption the InvSubBytes tables, the InvMixColumns pre-step, the
//             backward key schedule and last_q (the decryption's start window) fold
//             away; without 192/256-bit keys the key register's low words and the
//             schedule's longer windows do. A block of a direction left out is not
//             accepted (in_ready_o low while it is offered); a key of a size left out
//             is handled as key_len_i = 3. Cycle counts of a built size do not change.
//
// Tools: lints clean with verilator --lint-only -Wall; Yosys read_slang; Icarus 11.

`default_nettype none

module ak_compact32_core #(
  parameter int TagWidth   = 1,
  parameter int SboxImpl   = 0,
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
    initial $fatal(1, "ak_compact32_core: TagWidth must be >= 1, got %0d", TagWidth);
`else
    $fatal(1, "ak_compact32_core: TagWidth must be >= 1, got %0d", TagWidth);
`endif
  end

  if (Directions < 1 || Directions > 3 || KeySizes < 1 || KeySizes > 7) begin : g_bad_config
`ifdef __ICARUS__
    initial $fatal(1, "ak_compact32_core: Directions must be 1..3 and KeySizes 1..7");
`else
    $fatal(1, "ak_compact32_core: Directions must be 1..3 and KeySizes 1..7");
`endif
  end

  localparam bit HasEnc = Directions[0];
  localparam bit HasDec = Directions[1];
  localparam logic [2:0] Ks = 3'(KeySizes);
  // the key lengths built (code 3: none)
  localparam logic [3:0] KeysBuilt = {1'b0, Ks};
  // the cipher key's bits a built size uses (128: the high four words, 192: six)
  localparam logic [255:0] KeyMask = Ks[2] ? {256{1'b1}} :
                                     Ks[1] ? {{192{1'b1}}, 64'h0} : {{128{1'b1}}, 128'h0};

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  logic                key_ok_q;     // a legal key is set up
  logic                setup_q;      // the key setup's forward pass runs
  logic                busy_q;       // a block is between its steps 1 and 4Nr+3
  logic                out_valid_q;  // the result waits in st_q
  logic                blk_dec_q;    // the block is decrypted
  logic [1:0]          klen_q;       // key_len_i of the key (0/1/2)
  logic [5:0]          cnt_q;        // step index of this cycle (0 when idle)
  logic [2:0]          ph_q;         // (index of this step's key word) mod Nk
  logic [7:0]          rcon_q;       // Rcon of the next RotWord in the pass's direction
  logic [TagWidth-1:0] tag_q;
  logic [127:0]        st_q;         // the state, slots permuted per row (see header)
  logic [255:0]        key_q;        // the cipher key, word k in [255-32k -: 32]
  logic [255:0]        last_q;       // the last 8 words of the expansion, w[4Nr+3] in [31:0]
  logic [255:0]        win_q;        // the last 8 emitted words, the newest in [31:0]

  // ------------------------------------------------------------------------------
  // Handshakes and step control
  // ------------------------------------------------------------------------------
  logic       key_hs, accept, out_hs;
  logic       k128, k192, k256;
  logic       step;         // the key schedule takes a step (setup, accept, block)
  logic       dec;          // direction of the step (0 during the key setup)
  logic       last_step;    // step 4Nr+3
  logic       load_phase;   // step < Nk: the key word comes from key_q / last_q
  logic [3:0] rnd;          // pass of the step: 0 initial AddRoundKey, 1 .. Nr rounds
  logic       rnd0, rnd_final;

  assign key_ready_o = !setup_q && !busy_q && !out_valid_q;
  // (a block of a direction the build leaves out is never accepted)
  assign in_ready_o  = key_ok_q && !setup_q && !busy_q && (!out_valid_q || out_ready_i)
                       && !key_valid_i && (in_decrypt_i ? HasDec : HasEnc);
  assign key_hs = key_valid_i && key_ready_o;
  assign accept = in_valid_i && in_ready_o;
  assign out_hs = out_valid_q && out_ready_i;

  // klen_q of a set-up key is a built size, so a size left out is a constant 0 and a
  // build of one size has constant flags
  assign k128 = Ks[0] && ((klen_q == 2'd0) || (Ks[2:1] == 2'b00));
  assign k192 = Ks[1] && ((klen_q == 2'd1) || (!Ks[0] && !Ks[2]));
  assign k256 = !k128 && !k192;

  assign step = setup_q || busy_q || accept;
  // cnt_q is 0 whenever the core is idle, so the accepting cycle is step 0
  // (constant in a one-direction build; the key setup always runs forward)
  assign dec  = HasDec && (HasEnc ? (busy_q ? blk_dec_q : (in_decrypt_i && !setup_q))
                                  : !setup_q);
  assign rnd  = cnt_q[5:2];
  assign rnd0 = (rnd == 4'd0);
  assign rnd_final = k128 ? (rnd == 4'd10) : (k192 ? (rnd == 4'd12) : (rnd == 4'd14));
  assign last_step = rnd_final && (cnt_q[1:0] == 2'd3);
  // step < Nk written as bit tests, not as a compare: Yosys maps a less-than to a
  // carry chain (iCE40 SB_CARRY), which put 4 carry cells at the head of the S-box
  // address paths
  assign load_phase = (cnt_q[5:3] == 3'd0) && (k128 ? !cnt_q[2]
                                                    : (k192 ? !(cnt_q[2] && cnt_q[1]) : 1'b1));

  // ------------------------------------------------------------------------------
  // Key schedule: one word per step
  // ------------------------------------------------------------------------------
  logic [31:0] kw_src;      // the word of the load phase
  logic [31:0] kw_base;     // W[8-Nk]
  logic [31:0] sub_q;       // T's input: W[7] forward, W[9-Nk] backward (a register)
  logic [31:0] sub_d;       // T's input of the next step
  logic [31:0] kw_sub;      // SubWord(sub_q)
  logic [31:0] kw_t;        // T(sub_q)
  logic [31:0] kw;          // the round-key word of this step
  logic        kw_rot, kw_subonly;
  logic [7:0]  rcon_x, rcon_ix, rcon_dec0;
  logic [2:0]  ph_next;

  function automatic logic [31:0] win_word(input logic [255:0] v, input int k);
    return v[255 - 32 * k -: 32];
  endfunction

  always_comb begin : key_source
    kw_src = '0;
    for (int k = 0; k < 8; k++) begin
      if (cnt_q[2:0] == 3'(k)) begin
        kw_src = dec ? last_q[32 * k +: 32] : win_word(key_q, k);
      end
    end
  end

  assign kw_base = k128 ? win_word(win_q, 4) : (k192 ? win_word(win_q, 2) : win_word(win_q, 0));
  // T's input is a register loaded by the step before: forward the word that step
  // makes (W[7] after it), backward W[10-Nk] before the shift (W[9-Nk] after it)
  assign sub_d = !dec ? kw
               : (k128 ? win_word(win_q, 6) : (k192 ? win_word(win_q, 4) : win_word(win_q, 2)));

  if (SboxImpl == 4) begin : g_sub_bram
    // SubWord from two more dual-port ROMs (their SubBytes half), addressed with the
    // word sub_q takes, enabled with it: kw_sub = SubWord(sub_q) as below
    ak_sbox_rom2 u_rom_k01 (
      .clk_i   (clk_i),
      .a_en_i  (step && !key_hs),
      .a_addr_i({1'b0, sub_d[31:24]}),
      .a_data_o(kw_sub[31:24]),
      .b_en_i  (step && !key_hs),
      .b_addr_i({1'b0, sub_d[23:16]}),
      .b_data_o(kw_sub[23:16])
    );
    ak_sbox_rom2 u_rom_k23 (
      .clk_i   (clk_i),
      .a_en_i  (step && !key_hs),
      .a_addr_i({1'b0, sub_d[15:8]}),
      .a_data_o(kw_sub[15:8]),
      .b_en_i  (step && !key_hs),
      .b_addr_i({1'b0, sub_d[7:0]}),
      .b_data_o(kw_sub[7:0])
    );
  end else begin : g_sub_word
    ak_sub_word u_sub_word (
      .in_i (sub_q),
      .out_o(kw_sub)
    );
  end

  assign kw_rot     = (ph_q == 3'd0);
  assign kw_subonly = k256 && (ph_q == 3'd4);
  assign kw_t = kw_rot ? ({kw_sub[23:0], kw_sub[31:24]} ^ {rcon_q, 24'h000000})
              : (kw_subonly ? kw_sub : sub_q);
  assign kw   = load_phase ? kw_src : (kw_base ^ kw_t);

  ak_xtime u_xtime_rcon (
    .in_i (rcon_q),
    .out_o(rcon_x)
  );
  assign rcon_ix   = rcon_q[0] ? {1'b1, rcon_q[7:1] ^ 7'h0d} : {1'b0, rcon_q[7:1]};
  // Rcon of the first RotWord a backward pass meets (w[36], w[42], w[48])
  assign rcon_dec0 = k128 ? 8'h36 : (k192 ? 8'h80 : 8'h40);

  always_comb begin : phase_next
    if (dec) begin
      if (ph_q == 3'd0) ph_next = k128 ? 3'd3 : (k192 ? 3'd5 : 3'd7);
      else              ph_next = ph_q - 3'd1;
    end else begin
      if ((k128 && ph_q == 3'd3) || (k192 && ph_q == 3'd5) || ph_q == 3'd7) ph_next = 3'd0;
      else ph_next = ph_q + 3'd1;
    end
  end

  // ------------------------------------------------------------------------------
  // Datapath: one column per step
  // ------------------------------------------------------------------------------
  logic [1:0]  slot [4];     // slot of row r this step writes (and read)
  logic [1:0]  slot_nx [4];  // slot of row r the next step reads
  logic [31:0] rd;           // the next step's column, read from st_q
  logic [31:0] xr_d;
  logic [31:0] xr_q;         // this step's column (a register: the S-boxes' input)
  logic [31:0] x_ark;        // the column of the initial AddRoundKey (in_data_i at accept)
  logic [31:0] sbx;          // SubBytes (encryption) or InvSubBytes (decryption) of x
  logic [31:0] dec_y;        // InvSubBytes(x) ^ w
  logic [31:0] pre;          // ak_inv_mix_pre(dec_y)
  logic [31:0] mc_in, mc_out;
  logic [31:0] res;          // the new column

  // The slots as constant tables indexed by {direction, step mod 16}: the step's
  // logical column c = n mod 4 (decryption 3 - n mod 4), its pass's offset m' =
  // (n / 4) mod 4 (decryption its negative), row r's slot c + r m' (mod 4); the next
  // step's slot is the same function of n + 1 (mod 16). Written as tables, synthesis
  // maps them to LUTs; as the additions and products they are, Yosys maps carry
  // chains (iCE40 SB_CARRY) and small multipliers onto the read-address paths.
  function automatic logic [63:0] slot_table(input int r, input int ahead);
    logic [63:0] t;
    for (int i = 0; i < 32; i++) begin
      int n, c, m;
      n = (i + ahead) % 16;
      c = (i >= 16) ? 3 - (n % 4) : n % 4;
      m = (i >= 16) ? (4 - (n / 4)) % 4 : n / 4;
      t[2 * i +: 2] = 2'((c + r * m) % 4);
    end
    return t;
  endfunction

  for (genvar r = 0; r < 4; r++) begin : g_row
    localparam logic [63:0] SlotTab   = slot_table(r, 0);
    localparam logic [63:0] SlotNxTab = slot_table(r, 1);

    always_comb begin : slot_pick
      slot[r]    = 2'd0;
      slot_nx[r] = 2'd0;
      for (int i = 0; i < 32; i++) begin
        if ({dec, cnt_q[3:0]} == 5'(i)) begin
          slot[r]    = SlotTab[2 * i +: 2];
          slot_nx[r] = SlotNxTab[2 * i +: 2];
        end
      end
    end

    // the 4:1 byte choice written out (a variable part-select maps to a shifter)
    always_comb begin : read_mux
      case (slot_nx[r])
        2'd0:    rd[31-8*r -: 8] = st_q[127 - 8 * r -: 8];
        2'd1:    rd[31-8*r -: 8] = st_q[127 - 8 * (4 + r) -: 8];
        2'd2:    rd[31-8*r -: 8] = st_q[127 - 8 * (8 + r) -: 8];
        default: rd[31-8*r -: 8] = st_q[127 - 8 * (12 + r) -: 8];
      endcase
    end

    if (SboxImpl == 0) begin : g_table
      // two tables: SubBytes and InvSubBytes (the one of a direction left out is not
      // built)
      logic [7:0] sb_b, isb_b;

      if (HasEnc) begin : g_enc
        ak_sbox_sel #(
          .Impl(0)
        ) u_sbox (
          .in_i (xr_q[31-8*r -: 8]),
          .out_o(sb_b)
        );
      end else begin : g_no_enc
        assign sb_b = 8'h00;
      end

      if (HasDec) begin : g_dec
        ak_inv_sbox_sel #(
          .Impl(0)
        ) u_inv_sbox (
          .in_i (xr_q[31-8*r -: 8]),
          .out_o(isb_b)
        );
      end else begin : g_no_dec
        assign isb_b = 8'h00;
      end

      assign sbx[31-8*r -: 8] = dec ? isb_b : sb_b;
    end else if (SboxImpl == 1) begin : g_comp
      ak_sbox_comp_encdec u_sbox (
        .in_i (xr_q[31-8*r -: 8]),
        .dec_i(dec),
        .out_o(sbx[31-8*r -: 8])
      );
    end else if (SboxImpl == 2) begin : g_canright
      ak_sbox_canright_encdec u_sbox (
        .in_i (xr_q[31-8*r -: 8]),
        .dec_i(dec),
        .out_o(sbx[31-8*r -: 8])
      );
    end else if (SboxImpl == 3) begin : g_lutinv
      ak_sbox_lutinv_encdec u_sbox (
        .in_i (xr_q[31-8*r -: 8]),
        .dec_i(dec),
        .out_o(sbx[31-8*r -: 8])
      );
    end else if (SboxImpl != 4) begin : g_bad_impl
      assign sbx[31-8*r -: 8] = 8'h00;
`ifdef __ICARUS__
      initial $fatal(1, "ak_compact32_core: SboxImpl must be 0..4, got %0d", SboxImpl);
`else
      $fatal(1, "ak_compact32_core: SboxImpl must be 0..4, got %0d", SboxImpl);
`endif
    end
  end

  if (SboxImpl == 4) begin : g_bram
    // Block RAM: the read that loads xr_q also addresses the ROMs, so their output
    // latches hold S(xr_q) exactly when the table form computes it; rows 0/1 share
    // one dual-port ROM, rows 2/3 the other, address {direction of the next step,
    // byte} (the next step belongs to the same block as this one, or is step 0 of
    // the next, which does not use sbx)
    ak_sbox_rom2 u_rom_01 (
      .clk_i   (clk_i),
      .a_en_i  (busy_q || accept),
      .a_addr_i({dec, xr_d[31:24]}),
      .a_data_o(sbx[31:24]),
      .b_en_i  (busy_q || accept),
      .b_addr_i({dec, xr_d[23:16]}),
      .b_data_o(sbx[23:16])
    );
    ak_sbox_rom2 u_rom_23 (
      .clk_i   (clk_i),
      .a_en_i  (busy_q || accept),
      .a_addr_i({dec, xr_d[15:8]}),
      .a_data_o(sbx[15:8]),
      .b_en_i  (busy_q || accept),
      .b_addr_i({dec, xr_d[7:0]}),
      .b_data_o(sbx[7:0])
    );
  end

  // at the accepting cycle the column is column 0 (encryption) or 3 of in_data_i
  assign x_ark = busy_q ? xr_q : (dec ? in_data_i[31:0] : in_data_i[127:96]);

  // The next step's column. In the accepting cycle: column 1 (encryption) or 2 of
  // in_data_i. At the end of a pass the next step reads, in row 3, the byte this
  // step writes (the only overlap of two consecutive steps): it is taken from res.
  // The forwarded byte is the one path from the S-box outputs back to the S-box
  // inputs (in the block-RAM build, from the RAM outputs to its address): it is taken
  // at the end of passes 0 .. Nr-1 only (after the last step no step follows), so the
  // final round's choice is left out of it, and the rest of the choice (xr_rest, kept
  // apart for synthesis) is settled from registers and in_data_i, so the result only
  // meets the last 2:1 choice.
  logic [31:0] xr_rest;
  logic       fwd;           // the next step reads row 3 from this step's result
  logic [7:0] fwd_byte;      // row 3 of the result of a step 3 of passes 0 .. Nr-1

  assign fwd = busy_q && (cnt_q[1:0] == 2'd3);
  if (SboxImpl == 4) begin : g_rest_kept
    // kept apart in the block-RAM build only (Yosys, AES-128 encryption only: 858
    // LUT4 kept, 996 merged; the table build is smaller merged)
    (* keep *) logic [31:0] rest;
    assign rest    = !busy_q ? (dec ? in_data_i[63:32] : in_data_i[95:64]) : rd;
    assign xr_rest = rest;
  end else begin : g_rest
    assign xr_rest = !busy_q ? (dec ? in_data_i[63:32] : in_data_i[95:64]) : rd;
  end
  assign fwd_byte = rnd0 ? (xr_q[7:0] ^ kw[7:0])
                  : (dec ? mc_out[7:0] : (mc_out[7:0] ^ kw[7:0]));
  assign xr_d = {xr_rest[31:8], fwd ? fwd_byte : xr_rest[7:0]};
  assign dec_y = sbx ^ kw;

  ak_inv_mix_pre u_inv_mix_pre (
    .in_i (dec_y),
    .out_o(pre)
  );

  assign mc_in = dec ? pre : sbx;

  ak_mix_column u_mix_column (
    .in_i (mc_in),
    .out_o(mc_out)
  );

  always_comb begin : column_result
    if (rnd0)           res = x_ark ^ kw;
    else if (dec)       res = rnd_final ? dec_y : mc_out;
    else                res = (rnd_final ? sbx : mc_out) ^ kw;
  end

  // ------------------------------------------------------------------------------
  // Registers
  // ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin : control_regs
    if (!rst_ni) begin
      key_ok_q    <= 1'b0;
      setup_q     <= 1'b0;
      busy_q      <= 1'b0;
      out_valid_q <= 1'b0;
      blk_dec_q   <= 1'b0;
      klen_q      <= 2'd0;
      cnt_q       <= 6'd0;
      ph_q        <= 3'd0;
      rcon_q      <= 8'h01;
      tag_q       <= '0;
    end else begin
      if (out_hs) out_valid_q <= 1'b0;
      if (key_hs) begin
        key_ok_q <= 1'b0;
        setup_q  <= KeysBuilt[key_len_i];  // a size left out: no key, as code 3
        klen_q   <= key_len_i;
        cnt_q    <= 6'd0;
        ph_q     <= 3'd0;
        rcon_q   <= 8'h01;
      end else if (step) begin
        cnt_q <= last_step ? 6'd0 : cnt_q + 6'd1;
        ph_q  <= ph_next;
        if (!load_phase && kw_rot) rcon_q <= dec ? rcon_ix : rcon_x;
        if (accept) begin
          busy_q    <= 1'b1;
          blk_dec_q <= in_decrypt_i;
          tag_q     <= in_tag_i;
          ph_q      <= in_decrypt_i ? 3'd2 : 3'd1;  // the phase of step 1
          rcon_q    <= in_decrypt_i ? rcon_dec0 : 8'h01;
        end
        if (last_step) begin
          if (setup_q) begin
            setup_q  <= 1'b0;
            key_ok_q <= 1'b1;
          end
          if (busy_q) begin
            busy_q      <= 1'b0;
            out_valid_q <= 1'b1;
          end
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : key_regs
    if (!rst_ni) begin
      key_q  <= '0;
      last_q <= '0;
      win_q  <= '0;
      sub_q  <= '0;
    end else begin
      if (key_hs) key_q <= key_i & KeyMask;
      if (step && !key_hs) begin
        win_q <= {win_q[223:0], kw};
        sub_q <= sub_d;
        // (only a decryption starts from it)
        if (HasDec && setup_q && last_step) last_q <= {win_q[223:0], kw};
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin : state_regs
    if (!rst_ni) begin
      st_q <= '0;
      xr_q <= '0;
    end else begin
      if (busy_q || accept) xr_q <= xr_d;
      for (int r = 0; r < 4; r++) begin
        for (int s = 0; s < 4; s++) begin
          if ((busy_q || accept) && slot[r] == 2'(s)) begin
            st_q[127 - 8 * (4 * s + r) -: 8] <= res[31 - 8 * r -: 8];
          end else if (accept) begin
            st_q[127 - 8 * (4 * s + r) -: 8] <= in_data_i[127 - 8 * (4 * s + r) -: 8];
          end
        end
      end
    end
  end

  // ------------------------------------------------------------------------------
  // Outputs: logical column c of row r sits in slot (c + 2r) mod 4 after 10 or 14
  // rounds (rows 1 and 3 two slots on), in slot c after 12
  // ------------------------------------------------------------------------------
  for (genvar c = 0; c < 4; c++) begin : g_out_col
    for (genvar r = 0; r < 4; r++) begin : g_out_row
      localparam int Rot = 4 * ((c + 2 * r) % 4) + r;
      localparam int Dir = 4 * c + r;
      assign out_data_o[127 - 8 * Dir -: 8] = k192 ? st_q[127 - 8 * Dir -: 8]
                                                   : st_q[127 - 8 * Rot -: 8];
    end
  end

  assign out_valid_o = out_valid_q;
  assign out_tag_o   = tag_q;

endmodule

`default_nettype wire
