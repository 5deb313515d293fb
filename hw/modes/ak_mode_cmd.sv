// ak_mode_cmd: the command checker and decoder of a mode-engine stream
// (ak_mode_stream): from the command's fields it computes, combinationally, whether
// the command is legal for this build, the mode one-hot, and every value the stream
// loads when it takes the command: the byte/bit counts of the message's input parts,
// the payload beats whose results are output, the MAC flow's block counts (CCM B0 +
// formatted AAD + payload; GCM's GHASH blocks; CMAC's message blocks), CCM's B0 and
// Ctr0 (SP 800-38C A.2, A.3), GCM's J0 for a 12-byte IV and its length block, CMAC's
// subkey choice, the initial chaining value.
//
// Latency: none (purely combinational; the stream registers what it takes at
// cmd_valid_i && cmd_ready_o). Byte order: FIPS-197, byte 0 in [127:120] (the CCM
// nonce left-aligned in iv_i, N0 in [127:120]; GCM's 12-byte IV in [127:32]).
//
// Legality (err_o): ECB/CBC a whole number of blocks; CCM nonce 7..13 bytes, tag
// 4..16 even, the message length fitting q = 15 - nonce_len bytes; GCM an IV of at
// least one byte and a tag of 4..16; CMAC a tag of 4..16; XTS at least 128 bits and
// an AES-128/256 key (key_len_i != 1); codes 9..15 and modes the build leaves out are
// illegal; so is a command the core under the engine cannot run (docs/core-contract.md,
// "Configurations"): a key length it does not build, a direction of the block cipher it
// does not build (ECB, CBC and XTS decryption call the inverse cipher, every other mode
// and direction the forward one).
//
// Messages in parts (docs/modes.md "Messages in parts"; Parts = 1 only): part_i 0
// WHOLE, 1 FIRST, 2 MIDDLE, 3 LAST, for GCM/GMAC and CMAC. A part other than WHOLE is
// illegal in any other mode (and in every mode when Parts = 0); FIRST and MIDDLE need
// AAD and payload lengths that are multiples of 16 and at least one block (CMAC: a
// payload), and take no received tag; CMAC LAST at least one byte; GCM MIDDLE / LAST
// no AAD once the earlier parts had payload (ctx payload bytes > 0), and a context
// whose byte counts are whole blocks and whose payload bytes are 16 x its payload
// blocks. MIDDLE and LAST take ctx_i: [255:128] the chaining state (GHASH Y / CBC-MAC
// C), [127:96] GCM payload blocks before, [95:64] / [63:32] GCM AAD / payload bytes
// before ([31:0] reserved); LAST's length block holds the totals.
//
// Parameters: Modes (9'h1ff): the modes built, bit m for mode code m (the stream
// passes its Modes with AeadModes applied); Parts (0): 1 builds messages in parts;
// CoreDirections (2'b11: bit 0 the core
// encrypts, bit 1 it decrypts) and CoreKeySizes (3'b111: bit k the core takes
// key_len = k), the core's Directions and KeySizes as the registry declares them.

`default_nettype none

module ak_mode_cmd #(
  parameter logic [8:0] Modes          = 9'h1ff,
  parameter bit         Parts          = 1'b0,
  parameter logic [1:0] CoreDirections = 2'b11,
  parameter logic [2:0] CoreKeySizes   = 3'b111
) (
  input  logic [3:0]   mode_i,
  input  logic         decrypt_i,
  input  logic [127:0] iv_i,
  input  logic [31:0]  iv_len_i,
  input  logic [3:0]   nonce_len_i,
  input  logic [4:0]   tag_len_i,
  input  logic [31:0]  aad_len_i,
  input  logic [31:0]  msg_len_i,
  input  logic [1:0]   key_len_i,
  input  logic [1:0]   part_i,         // 0 WHOLE, 1 FIRST, 2 MIDDLE, 3 LAST
  input  logic [255:0] ctx_i,          // MIDDLE, LAST: the earlier parts' context
  output logic         err_o,          // illegal command (or a mode not built)
  output logic [8:0]   mode_oh_o,      // the mode, one-hot (bit = code; not masked)
  output logic         p6_o,           // CCM: the AAD length prefix is 6 bytes (else 2)
  output logic [127:0] b0_o,           // CCM: B0
  output logic [127:0] chain_o,        // initial chaining value / counter block
  output logic [47:0]  carry_o,        // CCM: the AAD length prefix; GCM: len(IV) in bits
  output logic [127:0] glen_o,         // GCM: [len(A)]_64 || [len(C)]_64, in bits
  output logic         iv12_o,         // GCM: 12-byte IV, J0 = IV || 0^31 || 1
  output logic [31:0]  iv_bytes_o,     // GCM: IV bytes to come in (IV not 12 bytes)
  output logic [31:0]  aad_bytes_o,    // CCM, GCM: AAD bytes to come in
  output logic [31:0]  msg_left_o,     // payload bytes (XTS: bits) to come in
  output logic         tag_in_o,       // a received tag beat follows the payload
  output logic [31:0]  pay_beats_o,    // payload beats whose result is output
  output logic         pay_none_o,     // pay_beats_o == 0
  output logic [31:0]  mac_blocks_o,   // MAC-flow blocks (CCM, GCM, CMAC; >= 1)
  output logic [31:0]  giv_blocks_o,   // GCM: GHASH blocks of J0 (IV not 12 bytes)
  output logic         k2_o,           // CMAC: the last block is padded (subkey K2)
  output logic         mid_o,          // a FIRST or MIDDLE part: ends with the state
  output logic [127:0] y0_o,           // the MAC state the message starts from
  output logic [127:0] yc_o,           // GCM, IV not 12 bytes: GHASH's state after J0
  output logic [31:0]  ctr_o           // GCM: payload blocks of the earlier parts
);

  import ak_mode_codes_pkg::*;

  localparam logic [15:0] Modes16 = {7'd0, Modes};

  logic [3:0]   c_q;          // q = 15 - nonce_len
  logic [127:0] c_qmask;      // ones in the last q bytes
  logic         c_err;
  logic         c_inverse;    // the command calls the inverse cipher
  logic [3:0]   c_keys;       // the key lengths the core takes (code 3: none)
  logic [8:0]   c_dec;
  logic [7:0]   c_flags0;
  logic         c_p6, c_iv12;
  logic [31:0]  c_aad_blocks, c_pay_blocks, c_iv_blocks, c_mac_blocks;
  logic         c_mid, c_ctx;          // FIRST / MIDDLE; MIDDLE / LAST (Parts only)
  logic         c_empty;               // no AAD, no payload
  logic [32:0]  c_aad_tot, c_msg_tot;  // GCM: bytes of the whole message so far

  assign c_q = 4'd15 - nonce_len_i;
  always_comb begin : cmd_check
    c_qmask = '0;
    for (int i = 0; i < 16; i++) begin
      if (i >= 16 - int'(c_q)) c_qmask[127-8*i -: 8] = 8'hff;
    end
    c_err = 1'b0;
    unique case (mode_i)
      ModeEcb, ModeCbc: c_err = (msg_len_i[3:0] != 4'd0);
      ModeCtr, ModeCfb, ModeOfb: c_err = 1'b0;
      ModeCcm: begin
        c_err = (nonce_len_i < 4'd7) || (nonce_len_i > 4'd13) ||
                (tag_len_i < 5'd4) || (tag_len_i > 5'd16) || tag_len_i[0] ||
                ((c_q == 4'd2) && (msg_len_i[31:16] != 16'h0)) ||
                ((c_q == 4'd3) && (msg_len_i[31:24] != 8'h0));
      end
      // GCM: an IV of at least one byte, a tag of 4..16 bytes; CMAC: a tag of 4..16
      ModeGcm:  c_err = (iv_len_i == 32'd0) || (tag_len_i < 5'd4) || (tag_len_i > 5'd16);
      ModeCmac: c_err = (tag_len_i < 5'd4) || (tag_len_i > 5'd16);
      // XTS: a data unit of at least one block (its length in bits); AES-128/256 keys
      ModeXts:  c_err = (msg_len_i < 32'd128) || (key_len_i == 2'd1);
      default: c_err = 1'b1;
    endcase
    // a mode this build leaves out is illegal, as the codes 9..15 are
    if (!Modes16[mode_i]) c_err = 1'b1;
    // so is a command the core cannot run: a key length or a direction it leaves out
    if (c_inverse ? !CoreDirections[1] : !CoreDirections[0]) c_err = 1'b1;
    if ((key_len_i != 2'd3) && !c_keys[key_len_i]) c_err = 1'b1;
    // messages in parts
    if (part_i != 2'd0) begin
      if (!Parts || !((mode_i == ModeGcm) || (mode_i == ModeCmac))) c_err = 1'b1;
      if (c_mid && ((aad_len_i[3:0] != 4'd0) || (msg_len_i[3:0] != 4'd0))) c_err = 1'b1;
      if ((mode_i == ModeCmac) && (msg_len_i == 32'd0)) c_err = 1'b1;
      if ((mode_i == ModeGcm) && c_mid && c_empty) c_err = 1'b1;
      if ((mode_i == ModeGcm) && c_ctx &&
          (((aad_len_i != 32'd0) && (ctx_i[63:32] != 32'd0)) ||
           (ctx_i[67:64] != 4'd0) || (ctx_i[35:32] != 4'd0) ||
           (ctx_i[127:124] != 4'd0) || (ctx_i[63:36] != ctx_i[123:96])))
        c_err = 1'b1;
    end
  end
  assign c_mid = Parts && ((part_i == 2'd1) || (part_i == 2'd2));
  assign c_ctx = Parts && part_i[1];  // MIDDLE, LAST
  assign c_empty = (aad_len_i == 32'd0) && (msg_len_i == 32'd0);
  assign c_aad_tot = {1'b0, aad_len_i} + ((c_ctx && c_dec[6]) ? {1'b0, ctx_i[95:64]} : 33'd0);
  assign c_msg_tot = {1'b0, msg_len_i} + ((c_ctx && c_dec[6]) ? {1'b0, ctx_i[63:32]} : 33'd0);
  assign c_inverse = decrypt_i && ((mode_i == ModeEcb) || (mode_i == ModeCbc) ||
                                   (mode_i == ModeXts));
  assign c_keys    = {1'b0, CoreKeySizes};
  always_comb begin : cmd_decode
    c_dec = '0;
    for (int m = 0; m < 9; m++) c_dec[m] = (mode_i == 4'(m));
  end
  assign c_p6     = (aad_len_i >= 32'hff00);
  assign c_flags0 = {1'b0, (aad_len_i != 32'd0), tag_len_i[3:1] - 3'd1, c_q[2:0] - 3'd1};
  // formatted AAD blocks: ceil((prefix + aad_len) / 16) = aad_len / 16 plus 1, or 2
  // when (aad_len mod 16) + prefix exceeds 16; none without AAD
  assign c_aad_blocks = (aad_len_i == 32'd0) ? 32'd0 :
                        {4'd0, aad_len_i[31:4]} +
                        ((({1'b0, aad_len_i[3:0]} + (c_p6 ? 5'd6 : 5'd2)) > 5'd16) ?
                         32'd2 : 32'd1);
  assign c_pay_blocks = {4'd0, msg_len_i[31:4]} + {31'd0, msg_len_i[3:0] != 4'd0};
  assign c_iv12       = (iv_len_i == 32'd12);
  // GCM, IV not 12 bytes: its blocks and one length block give J0
  assign c_iv_blocks  = c_iv12 ? 32'd0 :
                        {4'd0, iv_len_i[31:4]} + {31'd0, iv_len_i[3:0] != 4'd0} + 32'd1;
  // blocks of the MAC flow: CCM B0, formatted AAD, payload; GCM the GHASH blocks (J0's,
  // AAD, ciphertext, the length block); CMAC the message, at least one block
  always_comb begin : cmd_mac_blocks
    unique case (mode_i)
      // (FIRST, MIDDLE: no length block; an empty one, illegal, still counts one,
      // so the count is never 0)
      ModeGcm:  c_mac_blocks = c_iv_blocks + {4'd0, aad_len_i[31:4]} +
                               {31'd0, aad_len_i[3:0] != 4'd0} + c_pay_blocks +
                               {31'd0, !c_mid || c_empty};
      ModeCmac: c_mac_blocks = (msg_len_i == 32'd0) ? 32'd1 : c_pay_blocks;
      default:  c_mac_blocks = 32'd1 + c_aad_blocks + c_pay_blocks;
    endcase
  end

  // payload beats whose result is output: none for CMAC, ceil(bits / 128) for XTS
  always_comb begin : cmd_pay_beats
    unique case (mode_i)
      ModeCmac: pay_beats_o = 32'd0;
      ModeXts:  pay_beats_o = {7'd0, msg_len_i[31:7]} + {31'd0, msg_len_i[6:0] != 7'd0};
      default:  pay_beats_o = c_pay_blocks;
    endcase
  end

  // the initial chaining value: CCM Ctr0, GCM J0 (12-byte IV; else 0 until GHASH gives
  // it), the others the IV (CTR: the counter block; XTS: the tweak i)
  always_comb begin : cmd_chain
    unique case (mode_i)
      ModeCcm: chain_o = {5'd0, c_q[2:0] - 3'd1, iv_i[127:8]} & ~c_qmask;
      ModeGcm: chain_o = c_iv12 ? {iv_i[127:32], 32'd1} : '0;
      default: chain_o = iv_i;
    endcase
  end

  assign err_o        = c_err;
  assign mode_oh_o    = c_dec;
  assign p6_o         = c_p6;
  assign b0_o         = ({c_flags0, iv_i[127:8]} & ~c_qmask) | {96'h0, msg_len_i};
  assign carry_o      = c_dec[6] ? {13'h0, iv_len_i, 3'b000} :
                        c_p6 ? {16'hfffe, aad_len_i} : {32'h0, aad_len_i[15:0]};
  assign glen_o       = {28'd0, c_aad_tot, 3'b000, 28'd0, c_msg_tot, 3'b000};
  assign iv12_o       = c_iv12;
  assign iv_bytes_o   = (c_dec[6] && !c_iv12) ? iv_len_i : 32'd0;
  assign aad_bytes_o  = (c_dec[5] || c_dec[6]) ? aad_len_i : 32'd0;
  // (XTS counts bits; a build without XTS counts its refused command's bits as
  // ceil(bits / 8) bytes: the same ceil(bits / 128) beats are taken)
  assign msg_left_o   = (c_dec[8] && !Modes[8]) ? ((msg_len_i + 32'd7) >> 3) : msg_len_i;
  // (a FIRST or MIDDLE part announces no tag beat, in any mode)
  assign tag_in_o     = (c_dec[5] || c_dec[6] || c_dec[7]) && decrypt_i &&
                        !((part_i == 2'd1) || (part_i == 2'd2));
  // from the command's lengths, not from the block-count sums: the payload count is 0
  // exactly for CMAC or an empty message; the MAC count is at least 1 (three counts
  // below 2^29, plus one) and never wraps
  assign pay_none_o   = c_dec[7] || (msg_len_i == 32'd0);
  assign mac_blocks_o = c_mac_blocks;
  assign giv_blocks_o = (c_dec[6] && !c_iv12) ? c_iv_blocks : 32'd0;
  assign k2_o         = (msg_len_i[3:0] != 4'd0) || (msg_len_i == 32'd0);
  assign mid_o        = c_mid;
  logic unused_ctx;
  assign unused_ctx = ^ctx_i[31:0];  // (reserved)
  // the state a MIDDLE / LAST part starts from; GCM with an IV of other than 12 bytes
  // hashes J0 from 0 first and takes it after J0 (yc_o)
  assign y0_o         = (c_ctx && !(c_dec[6] && !c_iv12)) ? ctx_i[255:128] : '0;
  assign yc_o         = c_ctx ? ctx_i[255:128] : '0;
  assign ctr_o        = (c_ctx && c_dec[6]) ? ctx_i[127:96] : 32'd0;

endmodule

`default_nettype wire
