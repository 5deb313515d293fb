"""Text of the generated table RTL: the case-table S-boxes and LUT inverter, the
block-RAM S-boxes and paper 003's T-box RAM.

Every table comes from :mod:`aeskit.model.gf` (the FIPS-197 definition: inversion in
GF(2^8) and the affine map), the one implementation of the field arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

from aeskit.gen.sv import COMB, FOOTER, header
from aeskit.model.gf import INV_SBOX, SBOX, gf_inv, gf_mul

#: (Inv)MixColumns coefficients of the T-box words, lane 0 first
TBOX_ENC_COEF = (0x02, 0x01, 0x01, 0x03)
TBOX_DEC_COEF = (0x0E, 0x09, 0x0D, 0x0B)


def _table_case(table: Sequence[int], target: str, op: str, indent: str,
                note: str = "256 cases are exhaustive") -> list[str]:
    out = [f"{indent}case (in_i)"]
    out += [f"{indent}  8'h{x:02x}: {target} {op} 8'h{table[x]:02x};" for x in range(256)]
    out += [f"{indent}  default: {target} {op} 8'h00;  // unreachable: {note}",
            f"{indent}endcase"]
    return out


def sbox_sv(inverse: bool) -> str:
    """ak_sbox / ak_inv_sbox: the S-box as a combinational 256-entry case table."""
    m = "ak_inv_sbox" if inverse else "ak_sbox"
    what = ("InvSubBytes S-box (FIPS-197 5.3.2): the inverse permutation of ak_sbox,"
            if inverse else
            "SubBytes S-box (FIPS-197 5.1.1): out = Affine(Inverse(in)) in GF(2^8),")
    lines = header(m, [
        what,
        "written as a 256-entry case table (a ROM; synthesis maps it to LUTs or block",
        "RAM as it sees fit).",
        "",
        COMB,
        "Byte order: in_i/out_o are one byte, bit 7 the most significant polynomial",
        "            coefficient (x^7), as in FIPS-197.",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic [7:0] in_i,",
              "  output logic [7:0] out_o", ");", "", "  always_comb begin : table_rom"]
    lines += _table_case(INV_SBOX if inverse else SBOX, "out_o", "=", "    ",
                         note="the 256 cases are exhaustive")
    lines += ["  end"] + FOOTER
    return "\n".join(lines)


def gf_inv_sv() -> str:
    m = "ak_gf_inv"
    lines = header(m, [
        "multiplicative inverse in GF(2^8) modulo x^8+x^4+x^3+x+1 (0 maps to 0),",
        "as a 256-entry case table -- the LUT-based inverter of paper 001 (Lin, Huang),",
        "shared by SubBytes (followed by ak_affine) and InvSubBytes (after ak_inv_affine).",
        "",
        COMB,
        "Byte order: one byte, bit 7 the coefficient of x^7 (FIPS-197).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic [7:0] in_i,", "  output logic [7:0] out_o", ");",
              "", "  always_comb begin : table_rom"]
    lines += _table_case([gf_inv(x) for x in range(256)], "out_o", "=", "    ")
    lines += ["  end"] + FOOTER
    return "\n".join(lines)


def bram_sv(inverse: bool) -> str:
    m = "ak_inv_sbox_bram" if inverse else "ak_sbox_bram"
    what = "InvSubBytes" if inverse else "SubBytes"
    lines = header(m, [
        f"{what} S-box as a ROM with a synchronous (registered) read, the",
        "block-RAM form for FPGAs: rom_style = \"block\" makes Yosys map it to one ECP5",
        "DP16KD (18 kbit EBR), as vendor flows do with a registered table.",
        "",
        "Timing    : latency 1 -- out_o is S(in_i sampled at the previous rising edge);",
        "            a new input every cycle. No reset: a block-RAM output register holds",
        "            whatever it last read (out_o is undefined until the first edge).",
        "            Not usable in the single-cycle round core (see ak_sbox_sel).",
        "Byte order: one byte, bit 7 the coefficient of x^7 (FIPS-197).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic       clk_i,", "  input  logic [7:0] in_i,",
              "  output logic [7:0] out_o", ");", "",
              "  (* rom_style = \"block\" *) logic [7:0] rom_q;", "",
              "  always_ff @(posedge clk_i) begin : table_rom"]
    lines += _table_case(INV_SBOX if inverse else SBOX, "rom_q", "<=", "    ")
    lines += ["  end", "", "  assign out_o = rom_q;"] + FOOTER
    return "\n".join(lines)


def rom_byte_sv() -> str:
    """ak_sbox_rom_byte: SubBytes and InvSubBytes in one 512 x 8 ROM with a synchronous
    read, address {dec_i, in_i} (the byte-serial compact8 core's block-RAM S-box)."""
    m = "ak_sbox_rom_byte"
    lines = header(m, [
        "SubBytes and InvSubBytes in one 512 x 8 ROM with a synchronous",
        "(registered) read: address {dec_i, in_i}, so that one block RAM holds both tables",
        "(iCE40 SB_RAM40_4K 512 x 8, ECP5 DP16KD 2048 x 9): rom_style = \"block\".",
        "  {1'b0, b}: SubBytes(b)    {1'b1, b}: InvSubBytes(b)",
        "",
        "Timing    : latency 1 -- out_o is the table entry of {dec_i, in_i} sampled at the",
        "            previous rising edge; a new address every cycle. No reset: a block-RAM",
        "            output register holds whatever it last read (undefined until the first",
        "            edge); the user keeps its valid flags in reset flip-flops.",
        "Byte order: one byte, bit 7 the coefficient of x^7 (FIPS-197).",
        "Parameters: none.",
    ])
    lines += [f"module {m} (", "  input  logic       clk_i,", "  input  logic       dec_i,",
              "  input  logic [7:0] in_i,", "  output logic [7:0] out_o", ");", "",
              "  (* rom_style = \"block\" *) logic [7:0] rom_q;", "",
              "  always_ff @(posedge clk_i) begin : table_rom",
              "    case ({dec_i, in_i})"]
    for d, table in ((0, SBOX), (1, INV_SBOX)):
        lines += [f"      9'h{(d << 8) | x:03x}: rom_q <= 8'h{table[x]:02x};" for x in range(256)]
    lines += ["      default: rom_q <= 8'h00;  // unreachable: 512 cases are exhaustive",
              "    endcase", "  end", "", "  assign out_o = rom_q;"] + FOOTER
    return "\n".join(lines)


# ------------------------------------------------------------------------------------
# paper 003: the T-box block RAM
# ------------------------------------------------------------------------------------
def tbox_words() -> list[int]:
    """The 512 words of ak_tbox_ram: address {0, b} holds SubBytes(b) x {02, 01, 01, 03},
    {1, b} InvSubBytes(b) x {0e, 09, 0d, 0b}, lane 0 in bits [31:24]."""
    words = []
    for table, coef in ((SBOX, TBOX_ENC_COEF), (INV_SBOX, TBOX_DEC_COEF)):
        for b in range(256):
            words.append(int.from_bytes(bytes(gf_mul(table[b], c) for c in coef), "big"))
    return words


_TBOX_DOC = [
    "one T-box block RAM of the memory-based AES of Chaves et al. (paper",
    "003): a 512 x 32-bit ROM with two synchronous read ports, one per state byte of a",
    "pair (the paper's dual-port BRAM per two state bytes).",
    "",
    "Contents (computed by the generator from the FIPS-197 S-box definition):",
    "  address {1'b0, b}: SubBytes(b) x {02, 01, 01, 03}     (encryption)",
    "  address {1'b1, b}: InvSubBytes(b) x {0e, 09, 0d, 0b}  (decryption)",
    "as a 32-bit column word in FIPS-197 byte order, lane 0 (row 0) in [31:24]: the",
    "contribution of a byte in row 0 of a column to the four rows of (Inv)MixColumns; a",
    "byte in row r contributes the word rotated right by r bytes (routing only). The",
    "last round needs the plain S-box value: encryption takes the x1 lane [23:16];",
    "decryption XORs the four lanes, since 0e ^ 09 ^ 0d ^ 0b = 01.",
    "",
    "Timing    : synchronous read, latency 1: the word of the address presented before",
    "            a rising edge with *_en_i high appears after that edge and holds while",
    "            *_en_i is low (the data output register is the block RAM's own output",
    "            latch, so a core can use it as its round register). Two independent",
    "            ports, a new read per port every cycle.",
    "Mapping   : (* rom_style = \"block\" *). ECP5's DP16KD offers 36-bit ports only in",
    "            pseudo-dual-port mode (one read port; true dual port is at most 18 bits",
    "            wide), so synth_ecp5 builds this RAM from 2 DP16KD (one per port, 512 x",
    "            36) -- 16 EBR per round where the paper's Virtex-II needed 8 BRAMs. The",
    "            data outputs are not reset (block RAM output latches are not); cores",
    "            keep valid flags in reset flip-flops.",
    "Byte order: address {decrypt, byte}; data lane 0 (the x{02}/x{0e} lane) in [31:24].",
    "Parameters: none.",
]

_TBOX_PORTS = """\
module ak_tbox_ram (
  input  logic        clk_i,
  input  logic        a_en_i,    // read enable (clock enable of the output) port A
  input  logic [8:0]  a_addr_i,  // {decrypt, byte}
  output logic [31:0] a_data_o,
  input  logic        b_en_i,    // read enable port B
  input  logic [8:0]  b_addr_i,  // {decrypt, byte}
  output logic [31:0] b_data_o
);

  // word i in [32*i +: 32]
  localparam logic [512*32-1:0] Table = {"""

_TBOX_BODY = """\
  };

  (* rom_style = "block", ram_style = "block" *) logic [31:0] rom [512];

  initial begin : rom_init
    for (int i = 0; i < 512; i++) rom[i] = Table[32*i +: 32];
  end

  logic [31:0] a_q, b_q;

  always_ff @(posedge clk_i) begin : port_a
    if (a_en_i) a_q <= rom[a_addr_i];
  end

  always_ff @(posedge clk_i) begin : port_b
    if (b_en_i) b_q <= rom[b_addr_i];
  end

  assign a_data_o = a_q;
  assign b_data_o = b_q;"""


def tbox_ram_sv() -> str:
    """ak_tbox_ram: the 512 words as one packed localparam (word i at [32i +: 32]) copied
    into the RAM by an initial loop. Verilator keeps it a constant, Yosys read_slang maps
    the initialised array to block RAM, Icarus 11 accepts it (computing the words with SV
    functions in 512 initial blocks per RAM made Verilator need tens of GB for the
    unfolded cores)."""
    words = tbox_words()
    rows = []
    for hi in range(511, -1, -8):  # most significant (word 511) first
        chunk = ", ".join(f"32'h{words[i]:08x}" for i in range(hi, hi - 8, -1))
        end = "," if hi - 8 >= 0 else ""
        rows.append(f"    {chunk}{end}  // {hi:3d} .. {hi - 7:3d}")
    lines = header("ak_tbox_ram", _TBOX_DOC)
    lines += [_TBOX_PORTS, *rows, _TBOX_BODY] + FOOTER
    return "\n".join(lines)
