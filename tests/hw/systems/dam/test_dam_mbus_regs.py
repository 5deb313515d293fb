"""ak_dam_mbus_regs (the MBUS register file of ADAM/XDAM) on Verilator.

A Python model of the register map in the RTL header and docs/asbus.md (CTRL 0x00,
PITCH 0x04, ERRCNT 0x08 read only, KEY[i] at 0x40 + 4i for i = 0..43, everything
else unmapped: reads 0, writes ignored) is compared with the module every cycle:

* reset values: CTRL, PITCH, ERRCNT and the 44 key words 0 (read back over MBUS),
  ``dec_en_o`` / ``enc_en_o`` / ``pitch_o`` / ``rk_o`` 0, ``s_mbus_rdata`` 0;
* random MBUS traffic on every address 0x00..0xff (mapped, unmapped, key words
  misaligned, the read-only ERRCNT) with random data and idle cycles, and random
  ``err_i`` pulses: a read's data on ``s_mbus_rdata`` the cycle after and held until the
  next read; a write takes effect at its edge (``dec_en_o`` = CTRL[0], ``enc_en_o`` =
  CTRL[1], ``pitch_o`` = PITCH[15:0] the next cycle); ERRCNT counts the ``err_i`` cycles
  (a read in a cycle with ``err_i`` returns the count before it);
* the expanded key of random AES-128 keys written as the FIPS-197 words w[i]
  (:func:`aeskit.model.key_schedule_words`, byte 0 of the word in bits 31:24) appears
  on ``rk_o`` in the engines' order, round key k in ``[128k +: 128]`` with its byte i in
  ``[128k + 8i +: 8]`` (:func:`aeskit.model.expand_key`);
* ERRCNT wraps from 0xffff to 0 (65,536 cycles of ``err_i``).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from aeskit.model import expand_key, key_schedule_words
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_dam_mbus_regs")


class Regs:
    """The documented register map."""

    def __init__(self) -> None:
        self.ctrl = 0
        self.pitch = 0
        self.errcnt = 0
        self.key = [0] * 44
        self.rdata = 0

    @staticmethod
    def key_index(addr: int) -> int | None:
        if addr % 4 == 0 and 0x40 <= addr < 0x40 + 4 * 44:
            return (addr - 0x40) // 4
        return None

    def read(self, addr: int) -> int:
        if addr == 0x00:
            return self.ctrl
        if addr == 0x04:
            return self.pitch
        if addr == 0x08:
            return self.errcnt
        return 0  # unmapped, and the key words: write only

    def edge(self, sel: bool, wr: bool, addr: int, data: int, err: bool) -> None:
        if sel and not wr:
            self.rdata = self.read(addr)
        if sel and wr:
            if addr == 0x00:
                self.ctrl = data & 3
            elif addr == 0x04:
                self.pitch = data & 0xFFFF
            elif (i := self.key_index(addr)) is not None:
                self.key[i] = data
        self.errcnt = (self.errcnt + int(err)) & 0xFFFF

    def rk(self) -> int:
        """rk_o: word w[i] in [32i +: 32] with its byte 0 in bits [32i +: 8]."""
        return sum(int.from_bytes(self.key[i].to_bytes(4, "big"), "little") << (32 * i)
                   for i in range(44))


async def _check(dut, m: Regs, where: str) -> None:
    assert int(dut.s_mbus_rdata.value) == m.rdata, (
        f"{where}: s_mbus_rdata {int(dut.s_mbus_rdata.value):#x}, expected {m.rdata:#x}")
    assert int(dut.dec_en_o.value) == m.ctrl & 1, f"{where}: dec_en_o"
    assert int(dut.enc_en_o.value) == m.ctrl >> 1, f"{where}: enc_en_o"
    assert int(dut.pitch_o.value) == m.pitch, f"{where}: pitch_o"
    assert int(dut.rk_o.value) == m.rk(), f"{where}: rk_o"


async def _cycle(dut, m: Regs, sel: bool, wr: bool, addr: int, data: int, err: bool,
                 where: str) -> None:
    """Drive one cycle's inputs (the bench is at a falling edge), then check the state
    after the edge at the next falling edge."""
    dut.s_mbus_sel.value = int(sel)
    dut.s_mbus_wr.value = int(wr)
    dut.s_mbus_addr.value = addr
    dut.s_mbus_wdata.value = data
    dut.err_i.value = int(err)
    m.edge(sel, wr, addr, data, err)
    await FallingEdge(dut.clk_i)
    await _check(dut, m, where)


async def _start(dut) -> Regs:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.s_mbus_sel.value = 0
    dut.s_mbus_wr.value = 0
    dut.s_mbus_addr.value = 0
    dut.s_mbus_wdata.value = 0
    dut.err_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    m = Regs()
    await _check(dut, m, "reset")
    dut.rst_ni.value = 1
    return m


@cocotb.test()
async def cocotb_reset_values(dut) -> None:
    """Every address read back after reset: 0."""
    m = await _start(dut)
    for addr in range(256):
        await _cycle(dut, m, True, False, addr, 0, False, f"reset read {addr:#04x}")
        assert m.rdata == 0


@cocotb.test()
async def cocotb_random_traffic(dut) -> None:
    m = await _start(dut)
    rng = random.Random(int(os.environ.get("AK_SEED", "1")))
    mapped = [0x00, 0x04, 0x08] + [0x40 + 4 * i for i in range(44)]
    reads = {0: 0, 4: 0, 8: 0, "key": 0, "unmapped": 0}
    for cycle in range(int(os.environ.get("AK_CYCLES", "4000"))):
        sel = rng.random() < 0.7
        wr = rng.random() < 0.5
        addr = rng.choice(mapped) if rng.random() < 0.6 else rng.getrandbits(8)
        data = rng.getrandbits(32)
        err = rng.random() < 0.3
        if sel and not wr:
            kind = addr if addr in (0, 4, 8) else (
                "key" if Regs.key_index(addr) is not None else "unmapped")
            reads[kind] += 1 if (m.read(addr) != 0 or kind in ("key", "unmapped")) else 0
        await _cycle(dut, m, sel, wr, addr, data, err,
                     f"cycle {cycle} sel={int(sel)} wr={int(wr)} addr={addr:#04x}")
    assert all(reads.values()), reads


@cocotb.test()
async def cocotb_expanded_key(dut) -> None:
    """Random AES-128 keys: the 44 words written in random order, rk_o = the round keys."""
    m = await _start(dut)
    rng = random.Random(int(os.environ.get("AK_SEED", "1")) + 1)
    for n in range(4):
        key = rng.randbytes(16)
        words = key_schedule_words(key)
        for i in rng.sample(range(44), 44):
            await _cycle(dut, m, True, True, 0x40 + 4 * i, words[i], False, f"key {n} w[{i}]")
        want = int.from_bytes(b"".join(expand_key(key)), "little")
        assert int(dut.rk_o.value) == want, f"key {n}: rk_o is not the expanded key"
        i = rng.randrange(44)
        await _cycle(dut, m, True, False, 0x40 + 4 * i, 0, False, f"key {n} read w[{i}]")
        assert m.rdata == 0 and words[i] != 0, "a key word read back on MBUS"


@cocotb.test()
async def cocotb_errcnt_wraps(dut) -> None:
    m = await _start(dut)
    dut.err_i.value = 1
    await ClockCycles(dut.clk_i, 0xFFFF)
    dut.err_i.value = 0
    await FallingEdge(dut.clk_i)
    m.errcnt = 0xFFFF
    await _cycle(dut, m, True, False, 0x08, 0, True, "ERRCNT at 0xffff")
    assert m.rdata == 0xFFFF
    await _cycle(dut, m, True, False, 0x08, 0, False, "ERRCNT wrapped")
    assert m.rdata == 0


def test_dam_mbus_regs() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_dam_mbus_regs", sources=SOURCES, test_module="test_dam_mbus_regs",
               test_dir=HERE, parameters={}, build_args=("-CFLAGS", "-O0"),
               extra_env={"AK_SEED": 3})
