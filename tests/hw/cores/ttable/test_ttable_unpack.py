"""ak_ttable_unpack (widens a packed T-table word) against the golden model.

All 512 packed words the packed ROM holds (ak_ttable_ram ``Packed=1``: encryption
{0, 02 s, s} and decryption {1, 02 t, 09 t}) must widen to the model's T0 / Td0
word, computed here from ``aeskit.model`` (S-box, inverse S-box, GF(2^8) products),
not from the RTL's formulas. The file is both the pytest module and the cocotb test
module.
"""

from __future__ import annotations

from pathlib import Path

import cocotb
from cocotb.triggers import Timer

from aeskit.hw import PRIMITIVES
from aeskit.model import INV_SBOX, SBOX, gf_mul

ENC_COEF = (0x02, 0x01, 0x01, 0x03)
DEC_COEF = (0x0E, 0x09, 0x0D, 0x0B)


def expected(dec: int, b: int) -> tuple[int, int]:
    """(packed word, T0/Td0 word) of byte ``b`` from the model."""
    if dec:
        t = INV_SBOX[b]
        packed = (1 << 16) | (gf_mul(t, 0x02) << 8) | gf_mul(t, 0x09)
        word = bytes(gf_mul(t, c) for c in DEC_COEF)
    else:
        s = SBOX[b]
        packed = (gf_mul(s, 0x02) << 8) | s
        word = bytes(gf_mul(s, c) for c in ENC_COEF)
    return packed, int.from_bytes(word, "big")


@cocotb.test()
async def cocotb_unpack_all(dut) -> None:
    seen = set()
    for dec in (0, 1):
        for b in range(256):
            packed, want = expected(dec, b)
            seen.add(packed)
            dut.packed_i.value = packed
            await Timer(1, unit="ns")
            got = int(dut.word_o.value)
            assert got == want, f"dec={dec} b={b:02x} packed={packed:05x}: {got:08x} != {want:08x}"
    assert len(seen) == 512   # every table word distinct: the packing loses nothing


def test_packing_is_injective() -> None:
    """16 bits determine the four bytes: no two table words share a packed word."""
    words = {expected(d, b)[0]: expected(d, b)[1] for d in (0, 1) for b in range(256)}
    assert len(words) == 512


HERE = Path(__file__).resolve().parent


def test_ttable_unpack() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    prim = next(p for p in PRIMITIVES if p.top == "ak_ttable_unpack")
    run_cocotb(toplevel=prim.top, sources=prim.file_paths(), test_module="test_ttable_unpack",
               test_dir=HERE, parameters={}, testcase="cocotb_unpack_all")
