// ak_ttable_unpack: widens a packed T-table word (ak_ttable_ram with Packed = 1) back
// to the 32-bit T0 / Td0 word of the equivalent inverse cipher. Combinational: one
// LUT4 level (every output bit depends on at most four input bits).
//
// Why packed words. A true-dual-port ECP5 DP16KD has at most 18 bits per port, so a
// 32-bit T-table ROM with two read ports takes two block RAMs. The four bytes of a
// T-table word are GF(2^8) multiples of one byte, so 16 bits determine all four: the
// packed ROM is 17 bits wide and two lookups take one block RAM.
//
// Packed format {dec, Q, P} (17 bits; P in [7:0], Q in [15:8], dec in [16]):
//   encryption  (s = SubBytes(b))    P = s,       Q = {02}s,  dec = 0
//   decryption  (t = InvSubBytes(b)) P = {09}t,   Q = {02}t,  dec = 1
// Widened word (FIPS-197 byte order, row 0 in [31:24]):
//   row  encryption T0         decryption Td0         computed as
//   0    {02}s = Q             {0e}t                  dec ? E(P, Q) : Q
//   1    {01}s = P             {09}t = P              P (wiring)
//   2    {01}s = P             {0d}t = P ^ {02}Q      P ^ (dec ? xtime(Q) : 0)
//   3    {03}s = P ^ Q         {0b}t = P ^ Q          P ^ Q
// E is the GF(2)-linear map that gives {0e}t from P = {09}t and Q = {02}t with the
// fewest inputs per bit: each bit of {0e}t is the XOR of at most three bits of P and
// Q, chosen (by an exhaustive search over all XORs of up to four of the 16 bits) so
// that, together with the encryption bit and dec, every output bit is one LUT4. In
// encryption, bit 0 of row 0 is taken as P[7] (= s[7] = ({02}s)[0]) rather than
// Q[0], for the same reason. tests/hw/cores/ttable/test_ttable_unpack.py checks all
// 512 words against the golden model.
//
// Timing: combinational, no state. Reset: none. Byte order: row 0 in [31:24].

`default_nettype none

module ak_ttable_unpack (
  input  logic [16:0] packed_i,   // {dec, Q, P}
  output logic [31:0] word_o      // T0 (dec = 0) or Td0 (dec = 1) word
);

  logic       dec;
  logic [7:0] p, q, q_x2, row0_enc, row0_dec;

  assign {dec, q, p} = packed_i;

  always_comb begin : widen
    q_x2     = {q[6:0], 1'b0} ^ (q[7] ? 8'h1b : 8'h00);    // {02}Q = {04}t
    row0_enc = {q[7:1], p[7]};                              // {02}s
    row0_dec = {p[4] ^ q[2],                                // {0e}t, bit 7 .. 0
                q[4] ^ q[5] ^ q[6],
                p[2] ^ q[4] ^ q[5],
                p[1] ^ p[2] ^ q[4],
                p[1] ^ q[1] ^ q[3],
                p[0] ^ p[1],
                p[0],
                p[4] ^ p[7] ^ q[2]};
    word_o   = {dec ? row0_dec : row0_enc, p, p ^ (dec ? q_x2 : 8'h00), p ^ q};
  end

endmodule

`default_nettype wire
