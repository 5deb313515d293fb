"""Memory-based primitives of paper 003 (Chaves et al.): T-box block RAMs and the
round-key stores (register bank for pipelined cores, RAM bank for folded cores); and the
flow primitives every design shares: the pipelines' output buffer, the FIFO and the
register slice."""

from __future__ import annotations

from aeskit.hw.registry import PrimitiveSpec

ORDER = 2

def rk_fill_cycles(key_bits: int) -> int:
    """Edges from the key handshake to the first edge with ak_rk_fill's ready_o high.

    The fill spends one cycle loading the captured key, one cycle per expanded word
    that is written (4(Nr+1) words), one more before each written word that needs
    SubWord (i mod Nk = 0, or i mod 8 = 4 for Nk = 8), and two cycles of write and
    ready: 57/63/76 for 128/192/256-bit keys. A core whose in_ready_o follows the
    store's ready_o has exactly this key setup.
    """
    nk = key_bits // 32
    words = 4 * (nk + 6 + 1)
    subs = sum(1 for i in range(nk, words) if i % nk == 0 or (nk == 8 and i % 8 == 4))
    load, write_and_ready = 1, 2
    return load + words + subs + write_and_ready


#: key setup of a core whose in_ready_o follows its round-key store's ready_o
RK_FILL_SETUP: dict[int, int] = {kb: rk_fill_cycles(kb) for kb in (128, 192, 256)}

PRIMITIVES: tuple[PrimitiveSpec, ...] = (
    PrimitiveSpec("sbox_rom2", "sbox", "ak_sbox_rom2",
                  "S-box ROM, 512 x 8, two synchronous read ports: {dec, byte} -> S(b) "
                  "or S^-1(b) (the compact cores' block-RAM S-boxes, one DP16KD)"),
    PrimitiveSpec("tbox_ram", "tbox", "ak_tbox_ram",
                  "T-box ROM, 512 x 32, two synchronous read ports: {dec, byte} -> "
                  "S(b) x {02,01,01,03} or S^-1(b) x {0e,09,0d,0b}"),
    PrimitiveSpec("rk_fill", "key_schedule", "ak_rk_fill",
                  "Hardware key expansion filling a round-key store: word-serial, "
                  "pipelined, one encryption and one equivalent-inverse-cipher decryption "
                  "key per write, 57/63/76 cycles per key"),
    PrimitiveSpec("rk_store", "key_store", "ak_rk_store",
                  "Register-based round-key store: all encryption and decryption round "
                  "keys in parallel, hardware or software fill"),
    PrimitiveSpec("rk_ram", "key_store", "ak_rk_ram",
                  "Round-key RAM bank addressed by {decrypt, round}, read latency 1, plus "
                  "the two round-0 keys in registers"),
    PrimitiveSpec("pipe_outbuf", "flow", "ak_pipe_outbuf",
                  "Credit-counted output buffer (block or distributed RAM) that lets a deep "
                  "pipeline run without a clock enable; 2 cycles, 1 block/cycle"),
    PrimitiveSpec("fifo", "flow", "ak_fifo",
                  "The one FIFO: a ring of Depth x Width in distributed RAM, registered "
                  "valid/full/count, push to pop in one cycle (docs/primitives/fifo.md)"),
    PrimitiveSpec("reg_slice", "flow", "ak_reg_slice",
                  "The one register slice (skid buffer): valid, ready and data from "
                  "flip-flops, one cycle, one beat per cycle"),
)
