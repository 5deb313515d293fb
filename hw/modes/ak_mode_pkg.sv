// ak_mode_pkg: the block-level helper functions of the mode logic, shared by
// ak_mode_stream (the mode engine) and ak_gcm_pipe (GCM at one block per cycle): byte
// and bit masks of partial blocks, CMAC's padding and doubling, XTS's alpha step,
// GCM's inc32. All are combinational; byte order FIPS-197 / GCM, byte 0 of a block in
// [127:120]. Also the typed selects ak_mode_stream's control hands its units.

`default_nettype none

package ak_mode_pkg;

  // keep the first n bytes (1..16) of a block, clear the others
  function automatic logic [127:0] keep_bytes(input logic [127:0] d, input logic [4:0] n);
    logic [127:0] m;
    m = '1;
    for (int i = 0; i < 16; i++) begin
      if (i >= int'(n)) m[127-8*i -: 8] = 8'h00;
    end
    return d & m;
  endfunction

  // CMAC padding (SP 800-38B): a 1 bit after the first n bytes (n < 16), then zeros
  function automatic logic [127:0] pad80(input logic [127:0] d, input logic [4:0] n);
    logic [127:0] r;
    r = d;
    for (int i = 0; i < 16; i++) begin
      if (i == int'(n)) r[127-8*i -: 8] = 8'h80;
    end
    return r;
  endfunction

  // keep the first n bits (1..128) of a block, clear the others
  function automatic logic [127:0] keep_bits(input logic [127:0] d, input logic [7:0] n);
    return d & ~({128{1'b1}} >> n);
  endfunction

  // XTS: multiply a tweak by alpha (IEEE 1619 5.2): the 16 bytes are a little-endian
  // integer (byte 0 in [127:120] the least significant), shifted left by one; a carry
  // out of byte 15 folds 0x87 into byte 0
  function automatic logic [127:0] alpha(input logic [127:0] t);
    logic [127:0] r;
    for (int k = 1; k < 16; k++) r[127-8*k -: 8] = {t[126-8*k -: 7], t[127-8*(k-1)]};
    r[127:120] = {t[126:120], 1'b0} ^ (t[7] ? 8'h87 : 8'h00);
    return r;
  endfunction

  // CMAC subkey step (SP 800-38B 6.1): shift left, fold 0x87 in when the top bit was set
  function automatic logic [127:0] dbl(input logic [127:0] v);
    return {v[126:0], 1'b0} ^ {120'h0, v[127] ? 8'h87 : 8'h00};
  endfunction

  // GCM's inc32 (SP 800-38D 6.2): the last 32 bits count modulo 2^32
  function automatic logic [127:0] inc32(input logic [127:0] v);
    return {v[127:32], v[31:0] + 32'd1};
  endfunction

  // What the stream pushes into the MAC unit's FIFO (ak_mode_mac), chosen by its
  // control: the input beat as it is, CMAC's (padded) message beat, CCM's B0, CMAC's
  // empty message (padded), GCM's IV length block, a payload result (CCM decryption's
  // plaintext, GCM encryption's ciphertext), GCM's final length block, CCM's formatted
  // AAD block of this beat, CCM's last formatted AAD block (the carried bytes)
  typedef enum logic [3:0] {
    MacInBeat,
    MacInCmac,
    MacInB0,
    MacInEmpty,
    MacInIvLen,
    MacInResult,
    MacInLen,
    MacInAad,
    MacInAadFlush
  } mac_in_sel_e;

  // The data lane's typed selects (ak_mode_ctrl -> ak_mode_data):
  // the chaining register's next value: kept, the command's initial value, the result
  // leaving the core (chained flows), XTS's T_0 = E_K2(i), the value after a block is
  // sent (chain_next_sel_e), GCM's J0 from GHASH
  typedef enum logic [2:0] {
    ChainHold,
    ChainLoad,
    ChainRsp,
    ChainT0,
    ChainNext,
    ChainJ0
  } chain_sel_e;

  // the chaining value after a block is sent: +1 (CTR, CCM), the beat (CBC and CFB
  // decryption: this ciphertext), kept (ECB), inc32 (GCM), the next tweak (XTS), inc32
  // past the earlier parts' payload blocks too (GCM, a part's S0: inc32^(1 + n)(J0))
  typedef enum logic [2:0] {
    NextInc,
    NextBeat,
    NextHold,
    NextInc32,
    NextTweak,
    NextInc32Skip
  } chain_next_sel_e;

  // a payload result: (core output ^ operand) to the beat's bytes (CTR, CFB, OFB, CCM,
  // GCM), the core's output (ECB, CBC encryption), core output ^ operand (CBC
  // decryption, XTS)
  typedef enum logic [1:0] {
    ResMasked,
    ResPlain,
    ResXor
  } res_sel_e;

  // lane 0's request: E(chaining value) (bypassed from the result leaving now), the
  // beat (ECB, CBC decryption), beat ^ chaining value (CBC encryption), XTS's block,
  // 0^128 (GCM's H, CMAC's L), XTS's tweak i (E_K2(i))
  typedef enum logic [2:0] {
    ReqChain,
    ReqBeat,
    ReqBeatChain,
    ReqXts,
    ReqZero,
    ReqTweakIn
  } req_sel_e;

  // the XOR operand kept with a payload block in the core: the beat, the chaining
  // value (CBC decryption: the previous ciphertext), the tweak (XTS)
  typedef enum logic [1:0] {
    OpBeat,
    OpChain,
    OpTweak
  } op_sel_e;

  // an output beat: the payload result, XTS's held head, the tag, the MAC state (a
  // FIRST or MIDDLE part's tag beat: GHASH Y or CBC-MAC C, whole)
  typedef enum logic [1:0] {
    OutResult,
    OutHead,
    OutTag,
    OutState
  } out_sel_e;

  // bytes of the next beat of a part with `left` bytes to go: min(16, left)
  function automatic logic [4:0] beat_bytes(input logic [31:0] left);
    return (left >= 32'd16) ? 5'd16 : left[4:0];
  endfunction

  // bits of the next beat of a count in bits (XTS): min(128, left)
  function automatic logic [7:0] beat_bits(input logic [31:0] left);
    return (left >= 32'd128) ? 8'd128 : left[7:0];
  endfunction

  // AXI4-Stream lanes (byte 0 in [7:0]) <-> block order (byte 0 in [127:120])
  function automatic logic [127:0] lanes_swap(input logic [127:0] d);
    logic [127:0] r;
    for (int i = 0; i < 16; i++) r[127-8*i -: 8] = d[8*i +: 8];
    return r;
  endfunction

  // AXI4-Stream tkeep of a beat with its first n bytes (0..16)
  function automatic logic [15:0] keep_of(input logic [4:0] n);
    logic [15:0] k;
    for (int i = 0; i < 16; i++) k[i] = (i < int'(n));
    return k;
  endfunction

endpackage

`default_nettype wire
