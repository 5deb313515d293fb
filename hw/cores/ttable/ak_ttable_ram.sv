// ak_ttable_ram: the T-table block RAM of the Drimer/Guneysu/Paar AES (paper 004,
// Deshpande & Leelavathi): a ROM of 32-bit T-table words with two synchronous read
// ports, so that two of them serve the four lookups of one AES column per cycle.
//
// Contents (computed at elaboration by the functions below, never typed by hand).
// With s = SubBytes(b) and t = InvSubBytes(b), the word at byte address b is
//                 middle rounds                     last round
//   encryption    T0[b]  = {02s, 01s, 01s, 03s}     T0'[b]  = {s, 00, 00, 00}
//                 T2[b]  = {01s, 03s, 02s, 01s}     T2'[b]  = {00, 00, s, 00}
//   decryption    Td0[b] = {0et, 09t, 0dt, 0bt}     Td0'[b] = {t, 00, 00, 00}
//                 Td2[b] = {0dt, 0bt, 0et, 09t}     Td2'[b] = {00, 00, t, 00}
// in FIPS-197 byte order (row 0 in [31:24]). T1 and T3 (and every Tdj) are these
// words rotated right by one byte, (a,b,c,d) -> (d,a,b,c): routing in the user.
//
// Address (the paper's memory map, Fig. 2, plus a direction bit):
//   addr_i[7:0]  the state byte b
//   addr_i[8]    1: last-round table (T0'/T2'), 0: middle-round table (T0/T2)
//   addr_i[9]    1: T2 family, 0: T0 family
//   addr_i[10]   1: decryption tables, 0: encryption tables
// Parameters drop tables a user does not need, and with them address bits, so the
// ROM shrinks to what the user reads (the ECP5 DP16KD holds 512 x 36 or 1024 x 18,
// so each halving of the depth halves the block RAMs):
//   EncTables / DecTables  hold the encryption / decryption tables (at least one).
//                          With only one of them addr_i[10] is ignored.
//   MidTables / LastTables hold the middle-round / last-round tables (at least one).
//                          With only one of them addr_i[8] is ignored.
//   T2Tables               hold T2 beside T0 (the paper's layout); 0: T0 only,
//                          addr_i[9] ignored (a user that rotates by two bytes in
//                          routing needs no T2).
//   Packed                 store packed 17-bit words {dec, Q, P} instead of 32-bit
//                          words (ak_ttable_unpack widens them; its header gives the
//                          format): P = s, Q = {02}s for encryption, P = {09}t,
//                          Q = {02}t for decryption. Middle-round tables only
//                          (MidTables = 1, LastTables = 0, T2Tables = 0). The data
//                          outputs carry the packed word in [16:0], zeros above.
// Depth = 256 x 2^(used address bits); 32 bits wide (17 packed). Two read ports make
// a true-dual-port DP16KD, at most 18 bits a port: Yosys synth_ecp5 maps a 32-bit ROM
// of up to 1024 words to two DP16KD, 2048 to four; a packed ROM of up to 1024 words
// (the encryption and decryption middle-round tables: 512) to one.
//
// Timing    : synchronous read, latency 1: the word of the address presented before
//             a rising edge with *_en_i high appears after that edge and holds while
//             *_en_i is low. Ports independent; a new read per port every cycle.
// Reset     : none. The read registers are the block RAM's output latches, which
//             have no reset; users keep their valid flags in reset flip-flops.
// Byte order: data lane 0 (row 0 of the column) in [31:24].

`default_nettype none

module ak_ttable_ram #(
  parameter bit EncTables  = 1'b1,
  parameter bit DecTables  = 1'b1,
  parameter bit MidTables  = 1'b1,
  parameter bit LastTables = 1'b1,
  parameter bit T2Tables   = 1'b0,
  parameter bit Packed     = 1'b0
) (
  input  logic        clk_i,
  input  logic        a_en_i,     // read enable (clock enable of the output) port A
  input  logic [10:0] a_addr_i,   // {dec, t2, last, byte}
  output logic [31:0] a_data_o,
  input  logic        b_en_i,     // read enable port B
  input  logic [10:0] b_addr_i,   // {dec, t2, last, byte}
  output logic [31:0] b_data_o
);

  // ------------------------------------------------------------------------------
  // Parameter checks
  // ------------------------------------------------------------------------------
  if (!EncTables && !DecTables) begin : g_bad_dir
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_ram: EncTables and DecTables are both 0");
`else
    $fatal(1, "ak_ttable_ram: EncTables and DecTables are both 0");
`endif
  end
  if (!MidTables && !LastTables) begin : g_bad_round
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_ram: MidTables and LastTables are both 0");
`else
    $fatal(1, "ak_ttable_ram: MidTables and LastTables are both 0");
`endif
  end

  if (Packed && (!MidTables || LastTables || T2Tables)) begin : g_bad_packed
`ifdef __ICARUS__
    initial $fatal(1, "ak_ttable_ram: Packed needs MidTables = 1, LastTables = 0, T2Tables = 0");
`else
    $fatal(1, "ak_ttable_ram: Packed needs MidTables = 1, LastTables = 0, T2Tables = 0");
`endif
  end

  // ------------------------------------------------------------------------------
  // Address compaction
  // ------------------------------------------------------------------------------
  localparam bit UseLast = MidTables && LastTables;   // addr_i[8] is an address bit
  localparam bit UseT2   = T2Tables;                  // addr_i[9]
  localparam bit UseDec  = EncTables && DecTables;    // addr_i[10]
  localparam int AddrW   = 8 + int'(UseLast) + int'(UseT2) + int'(UseDec);
  localparam int Depth   = 1 << AddrW;
  localparam int DataWidth = Packed ? 17 : 32;

  // Full 11-bit address of compact ROM index i (absent bits take the held value).
  function automatic logic [10:0] full_addr(input int i);
    logic [10:0] a;
    int          k;
    a[7:0] = 8'(i);
    k      = 8;
    if (UseLast) begin a[8] = 1'((i >> k) & 1); k++; end
    else           a[8] = !MidTables;
    if (UseT2)   begin a[9] = 1'((i >> k) & 1); k++; end
    else           a[9] = 1'b0;
    if (UseDec)  a[10] = 1'((i >> k) & 1);
    else         a[10] = !EncTables;
    return a;
  endfunction

  // Compact index of a full address.
  function automatic logic [AddrW-1:0] compact(input logic [10:0] a);
    logic [AddrW-1:0] c;
    int               k;
    c[7:0] = a[7:0];
    k      = 8;
    if (UseLast) begin c[k] = a[8];  k++; end
    if (UseT2)   begin c[k] = a[9];  k++; end
    if (UseDec)  c[k] = a[10];
    return c;
  endfunction

  // ------------------------------------------------------------------------------
  // The contents, computed once at elaboration
  // ------------------------------------------------------------------------------
  // The S-box comes from walking the powers of the generator {03}: p = 03^i and
  // q = 03^-i = p^-1 advance together, so every inverse is known after 255 steps
  // without a search; the inverse S-box is the S-box inverted. Products by the
  // MixColumns coefficients are xtime chains. This keeps the constant-evaluation
  // budget of the tools (Yosys read_slang, Verilator) small.
  function automatic logic [7:0] xt(input logic [7:0] x);
    return {x[6:0], 1'b0} ^ (x[7] ? 8'h1b : 8'h00);
  endfunction

  function automatic logic [7:0] mul(input logic [7:0] a, input logic [7:0] b);
    logic [7:0] p;
    logic [7:0] x;
    p = 8'h00;
    x = a;
    for (int i = 0; i < 8; i++) begin
      if (b[i]) p = p ^ x;
      x = xt(x);
    end
    return p;
  endfunction

  function automatic logic [7:0] rol(input logic [7:0] x, input int n);
    return 8'((x << n) | (x >> (8 - n)));
  endfunction

  // The ROM word of a byte after (Inv)SubBytes: s = S(b) or t = S^-1(b); sel = the
  // table bits {dec, t2, last} of the full address.
  function automatic logic [DataWidth-1:0] word_of(input logic [7:0] s, input logic [2:0] sel);
    logic [7:0]  s2;
    logic [7:0]  s4;
    logic [7:0]  s8;
    logic [31:0] w;
    s2 = xt(s);
    s4 = xt(s2);
    s8 = xt(s4);
    if (sel[0])      w = {s, 24'h000000};
    else if (sel[2]) w = {s8 ^ s4 ^ s2, s8 ^ s, s8 ^ s4 ^ s, s8 ^ s2 ^ s};  // 0e 09 0d 0b
    else             w = {s2, s, s, s2 ^ s};                                // 02 01 01 03
    if (sel[1]) w = {w[15:0], w[31:16]};    // T2 = T0 rotated right by two bytes
    if (Packed) begin
      // {dec, Q, P}: {1, 02t, 09t} or {0, 02s, s}
      w = sel[2] ? {15'h0, 1'b1, s2, s8 ^ s} : {15'h0, 1'b0, s2, s};
    end
    return DataWidth'(w);
  endfunction

`ifndef __ICARUS__
  typedef logic [7:0]  byte_tab_t [256];
  typedef logic [DataWidth-1:0] rom_t [Depth];

  function automatic byte_tab_t make_sbox();
    byte_tab_t  sb;
    logic [7:0] p;
    logic [7:0] q;
    p     = 8'h01;
    q     = 8'h01;
    sb[0] = 8'h63;                       // 0 has no inverse: Affine(0)
    for (int i = 0; i < 255; i++) begin
      sb[p] = q ^ rol(q, 1) ^ rol(q, 2) ^ rol(q, 3) ^ rol(q, 4) ^ 8'h63;
      p = p ^ xt(p);                     // p * {03}
      q = mul(q, 8'hf6);                 // q * {03}^-1
    end
    return sb;
  endfunction

  function automatic rom_t make_rom();
    byte_tab_t   sb;
    byte_tab_t   isb;
    rom_t        rom;
    logic [10:0] a;
    sb = make_sbox();
    for (int i = 0; i < 256; i++) isb[sb[i]] = 8'(i);
    for (int i = 0; i < Depth; i++) begin
      a      = full_addr(i);
      rom[i] = word_of(a[10] ? isb[a[7:0]] : sb[a[7:0]], a[10:8]);
    end
    return rom;
  endfunction

`endif

  // ------------------------------------------------------------------------------
  // The ROM
  // ------------------------------------------------------------------------------
  (* rom_style = "block", ram_style = "block" *) logic [DataWidth-1:0] rom [Depth];

`ifndef __ICARUS__
  localparam rom_t Contents = make_rom();

  initial begin : fill
    for (int i = 0; i < Depth; i++) rom[i] = Contents[i];
  end
`else
  // Icarus 11 has no array-valued parameters: the same table, word by word, at
  // time 0 (S-box by a^254 = a^-1; slower, but Icarus evaluates it at run time).
  function automatic logic [7:0] inv254(input logic [7:0] a);
    logic [7:0] r;
    logic [7:0] p;
    r = 8'h01;
    p = a;
    for (int i = 1; i < 8; i++) begin
      p = mul(p, p);
      r = mul(r, p);
    end
    return r;
  endfunction

  function automatic logic [DataWidth-1:0] word_at(input logic [10:0] a);
    logic [7:0]  s;
    logic [7:0]  v;
    if (a[10]) begin
      s = inv254(rol(a[7:0], 1) ^ rol(a[7:0], 3) ^ rol(a[7:0], 6) ^ 8'h05);
    end else begin
      v = inv254(a[7:0]);
      s = v ^ rol(v, 1) ^ rol(v, 2) ^ rol(v, 3) ^ rol(v, 4) ^ 8'h63;
    end
    return word_of(s, a[10:8]);
  endfunction

  initial begin : fill
    for (int i = 0; i < Depth; i++) rom[i] = word_at(full_addr(i));
  end
`endif

  logic [AddrW-1:0] a_idx, b_idx;
  logic [DataWidth-1:0] a_q, b_q;
  logic [21:0]      unused_addr;   // address bits this configuration ignores

  assign a_idx       = compact(a_addr_i);
  assign b_idx       = compact(b_addr_i);
  assign unused_addr = {a_addr_i, b_addr_i};

  always_ff @(posedge clk_i) begin : port_a
    if (a_en_i) a_q <= rom[a_idx];
  end

  always_ff @(posedge clk_i) begin : port_b
    if (b_en_i) b_q <= rom[b_idx];
  end

  assign a_data_o = 32'(a_q);
  assign b_data_o = 32'(b_q);

endmodule

`default_nettype wire
