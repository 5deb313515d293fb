"""ak_coproc (paper 003's co-processor: AXI4-Lite registers, AXI4 DMA, mode engine) on
tbox_folded (``ak_coproc_sys``, rendered by aeskit.hw.systems.coproc), end to end on Verilator
with cocotbext-axi: an AxiLiteMaster on ``s_axil`` is the software, an AxiSlave on
``m_axi`` is main memory (a byte array behind cocotbext-axi's AXI4 slave model, which
also asserts every burst's 4 KiB rule and WLAST; a window of it answers SLVERR), with
random pauses on all five memory channels (AR, R, AW, W, B).

* every mode (ECB CBC CTR CFB OFB CCM), both directions, 128/192/256-bit keys against
  `cryptography` (OpenSSL) on random buffers of random sizes, random alignments, with
  guard bytes around the destination (nothing past the buffer end may change);
* NIST vectors (cryptography-vectors, parsed by aeskit.vectors) through the registers;
* every bad request answered with its error code, DONE and one interrupt; unmapped
  addresses answer SLVERR; ID ("AKCP") and VERSION (1.2) read their constants;
* CCM decryption with a tampered tag on a 1 KiB message: ERR_CODE TAG, the destination
  untouched (verify-first), and with the tag changed in memory between the two passes:
  the written plaintext overwritten with zeros;
* key register reads return 0; CLEAR wipes KEY, IV, the job's copies of them, the DMA
  buffers and the round-key RAM (inspected through the hierarchy); every job parameter
  captured at START (the next job's registers written while a job runs); back-to-back
  jobs, exactly one interrupt per job; the exact cycle count of one job (docs/coproc.md's
  formula).

Register addresses and fields come from coproc.rdl (aeskit.hw.systems.coproc.regmap). The file
is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import json
import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from aeskit.hw.codes import Mode
from aeskit.hw.systems.coproc import ERR, KEY_LEN_CODE, MODE_CODE, mode_fields, regmap
from aeskit.verif.keywipe import key_words, scan

HERE = Path(__file__).resolve().parent
MEM_SIZE = 1 << 20
#: addresses in [BAD, BAD + BAD_LEN) answer SLVERR (reads and writes)
BAD = 0x8_0000
BAD_LEN = 0x1000
RM = regmap()


#: edges from an AR handshake to its first R beat in the AxiSlave model without pauses
MEM_READ_LATENCY = 2


#: cycles more than ecb_cycles(N) for a destination 1..3 bytes past a 64-byte boundary
#: (the unpacker's partial first and last words), by N; the source's alignment costs none
DST_BYTE_EXTRA = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 2, 9: 1}
#: cycles of a CLEAR on tbox_folded, from the edge that samples the CLEAR pulse to the
#: edge after which STATUS.BUSY reads 0 (256-bit zero key: 76 cycles of key setup, one
#: zero block)
CLEAR_CYCLES = 93


def ecb_cycles(blocks: int) -> int:
    """CYCLES of one ECB AES-128 encryption of ``blocks`` blocks on tbox_folded, memory
    = the AxiSlave without pauses (docs/coproc.md, "Latency"): 3 (CHECK, KEY, CMD) + 57
    (key setup) + 10 per block (the core's interval) + 9 (first block to the writer,
    last B response) + the last burst: its 4 words per block, or 10 when it is one
    block behind a full 16-word burst still on W."""
    last = (blocks - 1) % 4 + 1          # blocks in the last 64-byte burst
    tail = 10 if (last == 1 and blocks > 4) else 4 * last
    return 3 + 57 + 10 * blocks + 9 + tail


# ----------------------------------------------------------------------------------
# expected values: cryptography (OpenSSL)
# ----------------------------------------------------------------------------------
def expected(mode: str, dec: bool, key: bytes, iv: bytes, data: bytes, aad: bytes = b"",
             tag_len: int = 16) -> bytes:
    """What the co-processor writes to the destination (CCM encryption: ciphertext
    then tag; CCM decryption: the plaintext, ``data`` = ciphertext + tag)."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    if mode == "ccm":
        ccm = AESCCM(key, tag_length=tag_len)
        return ccm.decrypt(iv, data, aad) if dec else ccm.encrypt(iv, data, aad)
    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
         "ctr": lambda: modes.CTR(iv), "cfb": lambda: modes.CFB(iv),
         "ofb": lambda: modes.OFB(iv)}[mode]()
    c = Cipher(algorithms.AES(key), m)
    ctx = c.decryptor() if dec else c.encryptor()
    return ctx.update(data) + ctx.finalize()


# ----------------------------------------------------------------------------------
# memory: a byte array behind cocotbext-axi's AXI4 slave model
# ----------------------------------------------------------------------------------
class Memory:
    """Target of cocotbext-axi's AxiSlave: MEM_SIZE bytes at 0; a read or write of the
    bad window or beyond MEM_SIZE raises, which the model answers with SLVERR."""

    def __init__(self) -> None:
        self.data = bytearray(MEM_SIZE)
        self.reads = 0
        self.writes = 0

    def _check(self, address: int, length: int) -> None:
        if address + length > MEM_SIZE or (address < BAD + BAD_LEN and address + length > BAD):
            raise ValueError(f"no memory at {address:#x}")

    async def read(self, address: int, length: int) -> bytes:
        self.reads += 1
        self._check(address, length)
        return bytes(self.data[address:address + length])

    async def write(self, address: int, data: bytes) -> None:
        self.writes += 1
        self._check(address, len(data))
        self.data[address:address + len(data)] = data


def _pauses(rng: random.Random, pct: int):
    while True:
        yield int(rng.randrange(100) < pct)


class Bench:
    def __init__(self, dut, seed: int = 1, pause_pct: int = 30) -> None:
        from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiSlave

        self.dut = dut
        logging.getLogger(f"cocotb.{dut._name}").setLevel(logging.WARNING)  # BFM chatter
        self.rng = random.Random(seed)
        self.mem = Memory()
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni,
                                  reset_active_level=False)
        self.axi = AxiSlave(AxiBus.from_prefix(dut, "m_axi"), dut.clk_i, dut.rst_ni,
                            target=self.mem, reset_active_level=False)
        self.set_pauses(pause_pct)
        self.irqs = 0
        self.edge = 0
        self.read_latency = -1
        self.max_reads = 0
        self.partial_w = 0
        self.r_held = 0
        cocotb.start_soon(self._count())

    def set_pauses(self, pct: int) -> None:
        chans = [self.axi.read_if.ar_channel, self.axi.read_if.r_channel,
                 self.axi.write_if.aw_channel, self.axi.write_if.w_channel,
                 self.axi.write_if.b_channel]
        for i, ch in enumerate(chans):
            if pct:
                ch.set_pause_generator(_pauses(random.Random(self.rng.random() + i), pct))
            else:
                ch.clear_pause_generator()
                ch.pause = False  # clearing the generator keeps its last value

    async def _count(self) -> None:
        """Counts clock edges and interrupts; coverage: most read bursts outstanding,
        W beats with partial strobes, R beats held back by the co-processor."""
        prev = 0
        d = self.dut
        while True:
            await RisingEdge(d.clk_i)
            self.edge += 1
            irq = int(d.irq_o.value)
            if irq and not prev:
                self.irqs += 1
            prev = irq
            self.max_reads = max(self.max_reads, int(d.u_coproc.u_rd.outs_q.value))
            if int(d.m_axi_wvalid.value) and int(d.m_axi_wstrb.value) != 0xF:
                self.partial_w += 1
            if int(d.m_axi_rvalid.value) and not int(d.m_axi_rready.value):
                self.r_held += 1

    def state(self) -> str:
        """Internal state for a failure message."""
        c = self.dut.u_coproc
        names = {"state": c.state_q, "sts_seen": c.sts_seen_q, "left": c.left_q,
                 "rd.ar_seg": c.u_rd.ar_seg_q, "rd.r_seg": c.u_rd.r_seg_q,
                 "rd.outs": c.u_rd.outs_q, "rd.cnt": c.u_rd.cnt_q, "rd.flush": c.u_rd.flush_q,
                 "rd.pos": c.u_rd.r_pos_q, "rd.r_act": c.u_rd.r_act_q,
                 "rvalid": self.dut.m_axi_rvalid, "rready": self.dut.m_axi_rready,
                 "arvalid": self.dut.m_axi_arvalid, "reads": self.mem.reads, "rd.end": c.u_rd.r_end_q,
                 "wr.cnt": c.u_wr.cnt_q, "wr.pos": c.u_wr.pos_q, "wr.end": c.u_wr.end_q,
                 "wr.fcnt": c.u_wr.fcnt_q, "wr.uncov": c.u_wr.uncov_q,
                 "wr.wcov": c.u_wr.wcov_q, "wr.aw_act": c.u_wr.aw_act_q,
                 "wr.aw_nw": c.u_wr.aw_nw_q, "wr.bouts": c.u_wr.bouts_q,
                 "e.in_v": c.e_in_valid, "e.in_r": c.e_in_ready, "e.out_v": c.e_out_valid,
                 "e.out_r": c.e_out_ready}
        return ", ".join(f"{k}={int(getattr(v, 'value', v)):#x}" for k, v in names.items())

    async def reset(self) -> None:
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.dut.clk_i, 2)

    async def wr(self, reg: str, value: int) -> int:
        r = await self.axil.write(RM.addr[reg], value.to_bytes(4, "little"))
        return int(r.resp)

    async def clear(self, polls: int = 1000) -> None:
        """CTRL.CLEAR, then STATUS polled until BUSY falls (at most ``polls`` reads)."""
        await self.wr("CTRL", RM.value(CTRL__CLEAR=1))
        for _ in range(polls):
            if RM.get(await self.rd("STATUS"), "STATUS.BUSY") == 0:
                return
        raise AssertionError("CLEAR does not end")

    async def rd(self, reg: str) -> int:
        r = await self.axil.read(RM.addr[reg], 4)
        return int.from_bytes(r.data, "little")

    async def set_key(self, key: bytes) -> None:
        k = key.ljust(32, b"\0")
        for i in range(8):
            await self.wr(f"KEY{i}", int.from_bytes(k[4 * i:4 * i + 4], "little"))

    async def set_iv(self, iv: bytes) -> None:
        v = iv.ljust(16, b"\0")
        for i in range(4):
            await self.wr(f"IV{i}", int.from_bytes(v[4 * i:4 * i + 4], "little"))

    async def job(self, *, mode: str, dec: bool, key_len: int, src: int, dst: int,
                  length: int, aad_addr: int = 0, aad_len: int = 0, nonce_len: int = 13,
                  tag_len: int = 16, irq: bool = True, mode_code: int | None = None,
                  key_code: int | None = None, wait: bool = True) -> tuple[int, int]:
        """Program a job and START it; wait for DONE (through the interrupt); return
        (ERR_CODE, CYCLES)."""
        await self.wr("SRC_ADDR", src)
        await self.wr("DST_ADDR", dst)
        await self.wr("LEN", length)
        await self.wr("AAD_ADDR", aad_addr)
        await self.wr("AAD_LEN", aad_len)
        await self.wr("CCM", RM.value(CCM__NONCE_LEN=nonce_len, CCM__TAG_LEN=tag_len))
        irqs = self.irqs
        ctrl = RM.value(CTRL__START=1, CTRL__DECRYPT=int(dec),
                        **mode_fields(MODE_CODE[mode] if mode_code is None else mode_code),
                        CTRL__KEY_LEN=KEY_LEN_CODE[key_len] if key_code is None else key_code,
                        CTRL__IRQ_EN=int(irq))
        await self.wr("CTRL", ctrl)
        if not wait:
            return -1, -1
        return await self.finish(irqs)

    async def finish(self, irqs_before: int, limit: int = 2_000_000,
                     clearing: bool = False) -> tuple[int, int]:
        for _ in range(limit // 10):
            if self.irqs > irqs_before:
                break
            await ClockCycles(self.dut.clk_i, 10)
        else:
            raise AssertionError(f"job hangs: no interrupt; {self.state()}")
        st = await self.rd("STATUS")
        # BUSY stays high after the job only for a CLEAR written while it ran
        assert RM.get(st, "STATUS.DONE") == 1 and RM.get(st, "STATUS.BUSY") == int(clearing), \
            hex(st)
        code = RM.get(st, "STATUS.ERR_CODE")
        intr = await self.rd("INTR_STATE")
        assert RM.get(intr, "INTR_STATE.DONE") == 1
        assert RM.get(intr, "INTR_STATE.ERROR") == int(code != 0)
        await self.wr("INTR_STATE", intr)
        await ClockCycles(self.dut.clk_i, 2)
        assert int(self.dut.irq_o.value) == 0
        assert self.irqs == irqs_before + 1, "more than one interrupt for one job"
        return code, await self.rd("CYCLES")

    async def crypt(self, mode: str, dec: bool, key: bytes, iv: bytes, data: bytes,
                    aad: bytes = b"", tag_len: int = 16, src: int | None = None,
                    dst: int | None = None) -> tuple[int, bytes]:
        """Run one message through the co-processor; return (code, destination bytes)
        and check that the guard bytes around the destination are unchanged."""
        rng = self.rng
        out_len = len(data) + (tag_len if mode == "ccm" and not dec else 0)
        out_len -= tag_len if mode == "ccm" and dec else 0
        src = src if src is not None else 0x1000 + rng.randrange(0, 64)
        aad_addr = 0x3_0000 + rng.randrange(0, 64)
        dst = dst if dst is not None else 0x4_0000 + rng.randrange(0, 64)
        self.mem.data[src:src + len(data)] = data
        self.mem.data[aad_addr:aad_addr + len(aad)] = aad
        guard = bytes(rng.randrange(256) for _ in range(out_len + 64))
        self.mem.data[dst - 32:dst - 32 + len(guard)] = guard
        await self.set_key(key)
        await self.set_iv(iv)
        length = len(data) - (tag_len if mode == "ccm" and dec else 0)
        code, _ = await self.job(mode=mode, dec=dec, key_len=len(key), src=src, dst=dst,
                                 length=length, aad_addr=aad_addr, aad_len=len(aad),
                                 nonce_len=len(iv) if mode == "ccm" else 13, tag_len=tag_len)
        after = bytes(self.mem.data[dst - 32:dst - 32 + len(guard)])
        assert after[:32] == guard[:32], "bytes before the destination changed"
        assert after[32 + out_len:] == guard[32 + out_len:], "bytes past the end changed"
        return code, after[32:32 + out_len]


async def start(dut, seed: int = 1, pause_pct: int = 30) -> Bench:
    tb = Bench(dut, seed, pause_pct)
    await tb.reset()
    return tb


def _rand_msg(rng: random.Random, mode: str, max_len: int) -> tuple[bytes, bytes, bytes, int]:
    """(iv or nonce, data, aad, tag_len) for a random message of ``mode``."""
    if mode in ("ecb", "cbc"):
        n = 16 * rng.randint(1, max(1, max_len // 16))
    else:
        n = rng.randint(1, max_len)
    data = rng.randbytes(n)
    if mode == "ccm":
        nl = rng.randint(7, 13)
        if nl == 13:
            data = data[:0xFFFF]
        return (rng.randbytes(nl), data, rng.randbytes(rng.choice([0, 1, 15, 16, 33])),
                rng.choice([4, 6, 8, 10, 12, 14, 16]))
    return rng.randbytes(16), data, b"", 16


async def _one_random(tb: Bench, mode: str, dec: bool, klen: int, max_len: int) -> None:
    rng = tb.rng
    key = rng.randbytes(klen)
    iv, data, aad, t = _rand_msg(rng, mode, max_len)
    if mode == "ccm" and dec:
        data = expected("ccm", False, key, iv, data, aad, t)  # ciphertext + tag
    want = expected(mode, dec, key, iv, data, aad, t)
    code, got = await tb.crypt(mode, dec, key, iv, data, aad, t)
    assert code == 0, f"{mode} dec={dec} key={klen * 8}: ERR_CODE {code}"
    assert got == want, f"{mode} dec={dec} key={klen * 8} len={len(data)}: wrong output"


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_modes(dut) -> None:
    """Every mode, both directions; the key size rotates (all three per mode over the
    two directions and a third run), random lengths and alignments."""
    tb = await start(dut, seed=11)
    sizes = [16, 24, 32]
    for i, mode in enumerate(MODE_CODE):
        for j, dec in enumerate((False, True, False)):
            await _one_random(tb, mode, dec, sizes[(i + j) % 3], 80)
    assert tb.partial_w > 0 and tb.r_held > 0, (tb.partial_w, tb.r_held)
    # CCM with an empty payload (LEN = 0 is legal there): only the tag is written/read
    key, nonce = tb.rng.randbytes(16), tb.rng.randbytes(11)
    for aad in (b"", tb.rng.randbytes(21)):
        tag = expected("ccm", False, key, nonce, b"", aad, 10)
        code, got = await tb.crypt("ccm", False, key, nonce, b"", aad, 10)
        assert code == 0 and got == tag
        code, got = await tb.crypt("ccm", True, key, nonce, tag, aad, 10)
        assert code == 0 and got == b""


@cocotb.test()
async def cocotb_nist(dut) -> None:
    """NIST vectors through the registers: the first records of the KAT/MMT files of
    ECB, CBC, CFB-128, OFB for each key size, the CTR vectors, CCM DVPT records (the
    invalid ones must fail with TAG)."""
    from aeskit.vectors import block_vectors, ccm_vectors, ctr_vectors

    tb = await start(dut, seed=12, pause_pct=20)
    done = 0
    for mode, nist in (("ecb", "ECB"), ("cbc", "CBC"), ("cfb", "CFB128"), ("ofb", "OFB")):
        for ks in (128, 192, 256):
            vs = [v for v in block_vectors(nist, ks, kinds=("MMT",)) if len(v.plaintext) >= 32]
            for v in vs[:1] + [v for v in vs if v.decrypt][:1]:
                dec = bool(v.decrypt)
                src, want = (v.ciphertext, v.plaintext) if dec else (v.plaintext, v.ciphertext)
                code, got = await tb.crypt(mode, dec, v.key, v.iv or bytes(16), src)
                assert code == 0 and got == want, f"{v.file}:{v.line}"
                done += 1
    for v in list(ctr_vectors())[:3]:
        code, got = await tb.crypt("ctr", bool(v.decrypt), v.key, v.iv or bytes(16),
                                   v.ciphertext if v.decrypt else v.plaintext)
        assert code == 0 and got == (v.plaintext if v.decrypt else v.ciphertext)
        done += 1
    fails = passes = 0
    for v in ccm_vectors("DVPT", 128):
        if (v.expect_pass and passes >= 3) or (not v.expect_pass and fails >= 2):
            continue
        tag_len = v.tag_len
        code, got = await tb.crypt("ccm", True, v.key, v.nonce, v.ct, v.adata, tag_len)
        if not v.expect_pass:
            fails += 1
            assert code == ERR["TAG"], f"{v.file}:{v.line}"
        else:
            passes += 1
            assert code == 0 and got == v.payload, f"{v.file}:{v.line}"
        if fails >= 2 and passes >= 3:
            break
    assert done >= 15 and fails == 2 and passes == 3


@cocotb.test()
async def cocotb_errors(dut) -> None:
    """Every bad request ends in its code, DONE and one interrupt, never a hang."""
    tb = await start(dut, seed=13)
    key = bytes(range(16))
    await tb.set_key(key)
    await tb.set_iv(bytes(16))
    base = {"dec": False, "key_len": 16, "src": 0x1000, "dst": 0x2000, "length": 64}

    async def expect(code: str, **kw) -> None:
        got, _ = await tb.job(**{**base, **kw})
        assert got == ERR[code], f"{kw}: ERR_CODE {got}, want {code}"

    await expect("LEN_ALIGN", mode="ecb", length=20)
    await expect("LEN_ALIGN", mode="cbc", length=15, dec=True)
    await expect("LEN_ZERO", mode="ctr", length=0)
    await expect("ADDR_WRAP", mode="ctr", src=0xFFFF_FFF0, length=17)
    await expect("ADDR_WRAP", mode="ecb", dst=0xFFFF_FFF0, length=32)
    await expect("ADDR_WRAP", mode="ccm", dec=True, src=0xFFFF_FFE8, length=16, tag_len=16,
                 nonce_len=13)
    await expect("ADDR_WRAP", mode="ccm", aad_addr=0xFFFF_FFFF, aad_len=2, nonce_len=13)
    await expect("ILLEGAL", mode="ecb", mode_code=Mode.XTS + 1)  # codes 9..15
    await expect("ILLEGAL", mode="ecb", key_code=3)
    await expect("ILLEGAL", mode="ccm", nonce_len=6)
    await expect("ILLEGAL", mode="ccm", tag_len=5, nonce_len=13)
    await expect("ILLEGAL", mode="ccm", nonce_len=13, length=0x1_0000)
    # DMA errors: a source or a destination in the SLVERR window
    await expect("DMA_READ", mode="ctr", src=BAD + 0x100)
    await expect("DMA_WRITE", mode="ctr", dst=BAD - 32)
    await expect("DMA_READ", mode="ccm", dec=True, src=BAD, nonce_len=13)
    # a start while busy: rejected, the running job finishes intact, code BUSY
    data = tb.rng.randbytes(256)
    tb.mem.data[0x1000:0x1100] = data
    irqs = tb.irqs
    await tb.job(mode="cbc", **{**base, "length": 256}, wait=False)
    await tb.wr("CTRL", RM.value(CTRL__START=1, CTRL__IRQ_EN=1))
    st = await tb.rd("STATUS")
    assert RM.get(st, "STATUS.REJECTED") == 1 and RM.get(st, "STATUS.BUSY") == 1
    code, _ = await tb.finish(irqs)
    assert code == ERR["BUSY"]
    assert bytes(tb.mem.data[0x2000:0x2100]) == expected("cbc", False, key, bytes(16), data)
    # the next job clears REJECTED and runs normally
    await expect("OK", mode="ecb")
    assert RM.get(await tb.rd("STATUS"), "STATUS.REJECTED") == 0
    # unmapped register addresses answer SLVERR, the map keeps working
    for addr in (0x60, 0x68, 0x7C, 0x1000, 0x8000_0000):
        w = await tb.axil.write(addr, b"\1\0\0\0")
        r = await tb.axil.read(addr, 4)
        assert int(w.resp) == 2 and int(r.resp) == 2, hex(addr)
    assert await tb.rd("LEN") == 64
    # ID and VERSION: read-only constants (a write is dropped, OKAY: aeskit-bad-rw ignore)
    for reg in ("ID", "VERSION"):
        assert await tb.wr(reg, 0x1234_5678) == 0
    ident = await tb.rd("ID")
    assert ident.to_bytes(4, "little") == b"AKCP", hex(ident)
    ver = await tb.rd("VERSION")
    assert (RM.get(ver, "VERSION.MAJOR"), RM.get(ver, "VERSION.MINOR")) == (1, 2), hex(ver)
    assert ver >> 16 == 0


@cocotb.test()
async def cocotb_ccm_tamper(dut) -> None:
    """CCM decryption of 1 KiB with a tampered tag or ciphertext: ERR_CODE TAG and not
    one byte of the destination written (verify-first); the tag changed in memory
    during the second pass: the plaintext written is overwritten with zeros."""
    tb = await start(dut, seed=14, pause_pct=10)
    rng = tb.rng
    key, nonce, aad = rng.randbytes(16), rng.randbytes(12), rng.randbytes(20)
    msg = rng.randbytes(1024)
    ct = expected("ccm", False, key, nonce, msg, aad, 8)
    for flip in (len(ct) - 1, 5):       # the tag, then the ciphertext
        bad = bytearray(ct)
        bad[flip] ^= 0x40
        writes = tb.mem.writes
        code, got = await tb.crypt("ccm", True, key, nonce, bytes(bad), aad, 8,
                                   src=0x1000, dst=0x8000)
        assert code == ERR["TAG"]
        assert tb.mem.writes == writes, "a failed CCM decryption wrote to memory"
    # good message, but the tag in memory is changed once pass 2 has started
    code, got = await tb.crypt("ccm", True, key, nonce, ct, aad, 8, src=0x1000, dst=0x8000)
    assert code == 0 and got == msg
    coproc = dut.u_coproc

    async def tamper() -> None:
        while not (int(coproc.wpass_q.value) and int(coproc.state_q.value) == 4):  # SRun
            await RisingEdge(dut.clk_i)
        tb.mem.data[0x1000 + 1024] ^= 1

    cocotb.start_soon(tamper())
    tb.mem.data[0x8000:0x8000 + 1024] = bytes(1024)
    writes = tb.mem.writes
    code, got = await tb.crypt("ccm", True, key, nonce, ct, aad, 8, src=0x1000, dst=0x8000)
    assert code == ERR["TAG"] and tb.mem.writes > writes
    assert got == bytes(1024), "plaintext left in memory after a failed second pass"


@cocotb.test()
async def cocotb_key_clear(dut) -> None:
    """KEY reads return 0; CLEAR wipes KEY, IV, CTX, the DMA buffers and the round keys:
    no word of the old key's schedule is left anywhere in the system's state."""
    tb = await start(dut, seed=15)
    key = bytes(range(0xA0, 0xC0))
    iv = bytes(range(0x50, 0x60))
    words = key_words(key)
    baseline = scan(dut, words)  # chance matches in constant tables
    await _one_random(tb, "cbc", False, 32, 64)
    code, _ = await tb.crypt("ctr", False, key, iv, tb.rng.randbytes(45))
    assert code == 0
    for i in range(8):
        assert await tb.rd(f"KEY{i}") == 0
    assert await tb.rd("IV0") == int.from_bytes(iv[:4], "little")
    ram = dut.u_core.u_rk_ram
    before = {int(ram.g_enc_bank.enc_mem[r].value) for r in range(15)}
    assert int.from_bytes(key[:16], "big") in before
    assert int(dut.u_coproc.reg_key.value) != 0 and int(dut.u_coproc.key_q.value) != 0
    # CTX (messages in parts) holds secrets too: the key's words put there must go as well
    for i in range(8):
        await tb.wr(f"CTX{i}", int.from_bytes(key[4 * i:4 * i + 4], "little"))
    await tb.wr("CTRL", RM.value(CTRL__CLEAR=1))
    assert RM.get(await tb.rd("STATUS"), "STATUS.BUSY") == 1
    for _ in range(1000):
        if RM.get(await tb.rd("STATUS"), "STATUS.BUSY") == 0:
            break
    else:
        raise AssertionError("CLEAR does not end")
    c = dut.u_coproc
    assert int(c.reg_key.value) == 0 and int(c.reg_iv.value) == 0
    assert int(c.key_q.value) == 0 and int(c.iv_q.value) == 0, "job registers not wiped"
    for i in range(4):
        assert await tb.rd(f"IV{i}") == 0
    for i in range(8):
        assert await tb.rd(f"CTX{i}") == 0, f"CTX{i} after CLEAR"
    assert int(c.ctx_q.value) == 0
    assert int(c.u_rd.acc_q.value) == 0 and int(c.u_wr.acc_q.value) == 0
    # the write FIFO's RAM (ak_fifo, no reset): every entry rewritten with zero
    assert [int(c.u_wr.u_fifo.mem_q[i].value) for i in range(16)] == [0] * 16
    after = {int(ram.g_enc_bank.enc_mem[r].value) for r in range(11)}
    after |= {int(ram.g_dec_bank.dec_mem[r].value) for r in range(11)}
    assert int(ram.g_enc_bank.enc_mem[0].value) == 0, "round key 0 of the zero key is 0"
    assert not (after & (before - {0})), "a round key of the old key survived CLEAR"
    assert int(ram.key0_enc_q.value) == 0
    # and nowhere else: all internal state of the system (every signal and memory
    # word) holds no word of the old key's schedule (aeskit.verif.keywipe)
    left = sorted(scan(dut, words) - baseline)
    assert not left, f"words of the old key survived CLEAR: {left[:8]}"
    # no interrupt for CLEAR; a job after it works
    assert tb.irqs == 2
    await _one_random(tb, "ofb", True, 24, 40)
    # CLEAR written while a job runs: the job ends correctly, then the wipe runs
    data = tb.rng.randbytes(160)
    tb.mem.data[0x1000:0x1000 + 160] = data
    await tb.set_key(key)
    await tb.set_iv(iv)
    irqs = tb.irqs
    await tb.job(mode="cbc", dec=False, key_len=32, src=0x1000, dst=0x6000, length=160,
                 wait=False)
    await tb.wr("CTRL", RM.value(CTRL__CLEAR=1, CTRL__IRQ_EN=1))
    code, _ = await tb.finish(irqs, clearing=True)
    assert code == 0
    assert bytes(tb.mem.data[0x6000:0x6000 + 160]) == expected("cbc", False, key, iv, data)
    for _ in range(1000):
        if RM.get(await tb.rd("STATUS"), "STATUS.BUSY") == 0:
            break
    assert int(c.reg_key.value) == 0 and int(c.reg_iv.value) == 0
    assert int(c.key_q.value) == 0 and int(c.iv_q.value) == 0
    assert int(ram.g_enc_bank.enc_mem[0].value) == 0


@cocotb.test()
async def cocotb_clear_keeps(dut) -> None:
    """What CLEAR keeps and how long it takes (docs/coproc.md, "CLEAR"): after a job
    that ended with ERR_CODE 4 (a START rejected while it ran), CLEAR keeps
    STATUS.DONE, ERR_CODE, CYCLES, INTR_STATE (and so irq_o) and every register but
    KEY and IV, clears REJECTED, and is BUSY for CLEAR_CYCLES on tbox_folded. Writes
    to the read-only registers and reads of KEY answer OKAY (aeskit-bad-rw: ignore)."""
    tb = await start(dut, seed=25, pause_pct=0)
    c = dut.u_coproc
    await tb.set_key(bytes(range(32)))
    await tb.set_iv(bytes(range(16)))
    tb.mem.data[0x1000:0x1040] = tb.rng.randbytes(64)
    irqs = tb.irqs
    await tb.job(mode="ctr", dec=False, key_len=32, src=0x1000, dst=0x2000, length=64,
                 wait=False)
    await tb.wr("CTRL", RM.value(CTRL__START=1, CTRL__MODE=MODE_CODE["ctr"],
                                 CTRL__KEY_LEN=KEY_LEN_CODE[32], CTRL__IRQ_EN=1))
    for _ in range(500):
        if tb.irqs > irqs:
            break
        await ClockCycles(dut.clk_i, 4)
    regs = ("STATUS", "CYCLES", "INTR_STATE", "CTRL", "LEN", "SRC_ADDR", "DST_ADDR", "CCM")
    before = {r: await tb.rd(r) for r in regs}
    st = before["STATUS"]
    assert (RM.get(st, "STATUS.DONE"), RM.get(st, "STATUS.REJECTED"),
            RM.get(st, "STATUS.ERR_CODE")) == (1, 1, ERR["BUSY"]), hex(st)
    assert before["INTR_STATE"] == 3 and int(dut.irq_o.value) == 1
    # read-only registers: a write answers OKAY and changes nothing; KEY reads 0, OKAY
    for reg in ("STATUS", "CYCLES", "ID", "VERSION"):
        assert await tb.wr(reg, 0xFFFF_FFFF) == 0, reg
    for i in range(8):
        r = await tb.axil.read(RM.addr[f"KEY{i}"], 4)
        assert int(r.resp) == 0 and int.from_bytes(r.data, "little") == 0, f"KEY{i}"
    assert {r: await tb.rd(r) for r in regs} == before
    # CLEAR: count the cycles BUSY is high after the CLEAR pulse
    busy = []

    async def count() -> None:
        while not int(c.clear_p.value):
            await FallingEdge(dut.clk_i)
        n = 0
        while True:
            await FallingEdge(dut.clk_i)
            if int(c.state_q.value) == 0 and not int(c.clr_pend_q.value):
                busy.append(n)
                return
            n += 1

    cnt = cocotb.start_soon(count())
    await tb.wr("CTRL", before["CTRL"] | RM.value(CTRL__CLEAR=1))
    await cnt
    after = {r: await tb.rd(r) for r in regs}
    want = dict(before, STATUS=before["STATUS"] & ~RM.value(STATUS__REJECTED=1))
    assert after == want, {r: (hex(before[r]), hex(after[r])) for r in regs}
    assert int(dut.irq_o.value) == 1 and tb.irqs == irqs + 1, "CLEAR changed the interrupt"
    assert int(c.reg_key.value) == 0 and int(c.reg_iv.value) == 0
    assert busy == [CLEAR_CYCLES], busy


@cocotb.test()
async def cocotb_back_to_back(dut) -> None:
    """Jobs back to back (START written right after the previous interrupt is
    cleared), exactly one interrupt each; IRQ_EN = 0 keeps irq_o low."""
    tb = await start(dut, seed=16)
    for i in range(6):
        await _one_random(tb, list(MODE_CODE)[i % 6], bool(i % 2), 16, 48)
    assert tb.irqs == 6
    await tb.set_key(bytes(16))
    await tb.job(mode="ecb", dec=False, key_len=16, src=0x1000, dst=0x2000, length=16,
                 irq=False, wait=False)
    for _ in range(200):
        if RM.get(await tb.rd("STATUS"), "STATUS.DONE"):
            break
    assert tb.irqs == 6 and int(dut.irq_o.value) == 0
    assert RM.get(await tb.rd("INTR_STATE"), "INTR_STATE.DONE") == 1


@cocotb.test()
async def cocotb_params_captured(dut) -> None:
    """Every job parameter is captured at the accepted START: the next job's KEY, IV,
    addresses, lengths, CCM parameters and CTRL fields written while a CCM decryption
    (two passes, so the IV is used again after the writes) runs do not change it; the
    next START uses them. The writes are queued right behind the START write, so the
    first KEY words land while the key is being loaded."""
    tb = await start(dut, seed=22, pause_pct=20)
    rng = tb.rng
    key1, nonce1, aad1 = rng.randbytes(32), rng.randbytes(11), rng.randbytes(20)
    msg1 = rng.randbytes(200)
    ct1 = expected("ccm", False, key1, nonce1, msg1, aad1, 12)
    src1, dst1, aad_addr1 = 0x1000, 0x8000, 0x3000
    tb.mem.data[src1:src1 + len(ct1)] = ct1
    tb.mem.data[aad_addr1:aad_addr1 + len(aad1)] = aad1
    key2, iv2, data2 = rng.randbytes(16), rng.randbytes(16), rng.randbytes(100)
    src2, dst2 = 0x2_0000 + 3, 0x2_8000 + 5
    tb.mem.data[src2:src2 + len(data2)] = data2
    guard = rng.randbytes(512)
    tb.mem.data[dst1:dst1 + 512] = guard
    tb.mem.data[dst2 - 16:dst2 + 496] = guard
    await tb.set_key(key1)
    await tb.set_iv(nonce1)
    for reg, v in (("SRC_ADDR", src1), ("DST_ADDR", dst1), ("LEN", len(msg1)),
                   ("AAD_ADDR", aad_addr1), ("AAD_LEN", len(aad1)),
                   ("CCM", RM.value(CCM__NONCE_LEN=11, CCM__TAG_LEN=12))):
        await tb.wr(reg, v)
    irqs = tb.irqs
    # START, and the next job's registers queued right behind it (the AXI4-Lite master
    # pipelines them: KEY0 lands before the key load, the rest during pass 1)
    new = [("CTRL", RM.value(CTRL__START=1, CTRL__DECRYPT=1, CTRL__MODE=MODE_CODE["ccm"],
                             CTRL__KEY_LEN=KEY_LEN_CODE[32], CTRL__IRQ_EN=1))]
    new += [(f"KEY{i}", int.from_bytes(key2.ljust(32, b"\xee")[4 * i:4 * i + 4], "little"))
            for i in range(8)]
    new += [(f"IV{i}", int.from_bytes(iv2[4 * i:4 * i + 4], "little")) for i in range(4)]
    new += [("SRC_ADDR", src2), ("DST_ADDR", dst2), ("LEN", len(data2)), ("AAD_LEN", 7),
            ("AAD_ADDR", 0x5000), ("CCM", RM.value(CCM__NONCE_LEN=7, CCM__TAG_LEN=4)),
            ("CTRL", RM.value(CTRL__MODE=MODE_CODE["ctr"], CTRL__KEY_LEN=0, CTRL__IRQ_EN=1))]
    c = dut.u_coproc
    seen: dict[str, int] = {}

    async def key_watch() -> None:
        # the cycle the key register block changes, the cycle the job loads its key
        old_key = int(c.reg_key.value)
        while len(seen) < 2:
            await FallingEdge(dut.clk_i)
            if "write" not in seen and int(c.reg_key.value) != old_key:
                seen["write"] = tb.edge
            if "load" not in seen and int(c.state_q.value) == 2 and int(c.e_key_ready.value):
                seen["load"] = tb.edge                          # SKey, key handshake

    watch = cocotb.start_soon(key_watch())
    events = [tb.axil.init_write(RM.addr[reg], v.to_bytes(4, "little")) for reg, v in new]
    for ev in events:
        await ev.wait()
    await watch
    assert seen["write"] <= seen["load"], f"KEY written only after the key load: {seen}"
    assert int(c.state_q.value) != 0 and not int(c.wpass_q.value), \
        "the writes must land during the job's first pass"
    code, _ = await tb.finish(irqs)
    assert code == 0, f"ERR_CODE {code}"
    assert bytes(tb.mem.data[dst1:dst1 + len(msg1)]) == msg1, "the running job changed"
    assert bytes(tb.mem.data[dst1 + len(msg1):dst1 + 512]) == guard[len(msg1):]
    assert bytes(tb.mem.data[dst2 - 16:dst2 + 496]) == guard
    assert await tb.rd("LEN") == len(data2) and await tb.rd("IV3") == new[12][1]
    # the next START runs the new parameters: CTR encryption, 128-bit key2, iv2
    irqs = tb.irqs
    await tb.wr("CTRL", RM.value(CTRL__START=1, CTRL__MODE=MODE_CODE["ctr"], CTRL__IRQ_EN=1))
    code, _ = await tb.finish(irqs)
    assert code == 0, f"ERR_CODE {code}"
    assert bytes(tb.mem.data[dst2:dst2 + len(data2)]) == expected("ctr", False, key2, iv2,
                                                                   data2)
    assert bytes(tb.mem.data[dst2 + len(data2):dst2 + 496]) == guard[16 + len(data2):]


async def _timed_job(tb: Bench, length: int, src_off: int = 0, dst_off: int = 0) -> int:
    """One ECB AES-128 encryption of ``length`` bytes (source at 0x10000 + src_off,
    destination at 0x40000 + dst_off) without memory pauses; returns CYCLES after
    checking it against the edges counted from the START pulse, and against the edge
    of the CTRL write's AXI4-Lite handshake (the later of AW and W): CYCLES = the edge
    that sets DONE - that edge - 2."""
    dut = tb.dut
    tb.set_pauses(0)
    await tb.set_key(bytes(range(16)))
    data = tb.rng.randbytes(length)
    src, dst = 0x1_0000 + src_off, 0x4_0000 + dst_off
    tb.mem.data[src:src + length] = data
    edges: dict[str, int] = {}

    async def handshake() -> None:
        # falling edges: a handshake seen there happens on the next rising edge
        n, aw, w, ctrl_aw = 0, -1, -1, False
        while True:
            await FallingEdge(dut.clk_i)
            n += 1
            if int(dut.s_axil_awvalid.value) and int(dut.s_axil_awready.value):
                aw, ctrl_aw = n, int(dut.s_axil_awaddr.value) == RM.addr["CTRL"]
            if int(dut.s_axil_wvalid.value) and int(dut.s_axil_wready.value):
                w = n
            if int(dut.u_coproc.start_p.value) and ctrl_aw and "hs" not in edges:
                edges["hs"] = max(aw, w)
            if int(dut.u_coproc.set_done.value):
                edges["done_fe"] = n
                return

    async def watch() -> None:
        while not int(dut.u_coproc.start_p.value):
            await RisingEdge(dut.clk_i)
        await RisingEdge(dut.clk_i)
        edges["start"] = tb.edge
        while not int(dut.u_coproc.done_q.value):
            await RisingEdge(dut.clk_i)
        edges["done"] = tb.edge

    async def read_latency() -> None:
        # edges from the AR handshake to the first R beat of the job's first burst
        while not (int(dut.m_axi_arvalid.value) and int(dut.m_axi_arready.value)):
            await RisingEdge(dut.clk_i)
        ar = tb.edge
        while not int(dut.m_axi_rvalid.value):
            await RisingEdge(dut.clk_i)
        tb.read_latency = tb.edge - ar

    w = cocotb.start_soon(watch())
    hs = cocotb.start_soon(handshake())
    cocotb.start_soon(read_latency())
    code, cycles = await tb.job(mode="ecb", dec=False, key_len=16, src=src,
                                dst=dst, length=length)
    await w
    await hs
    assert code == 0
    assert cycles == edges["done"] - edges["start"], (cycles, edges)
    assert cycles == edges["done_fe"] - edges["hs"] - 2, (cycles, edges)
    assert bytes(tb.mem.data[dst:dst + length]) == \
        expected("ecb", False, bytes(range(16)), b"", data)
    return cycles


@cocotb.test()
async def cocotb_cycles(dut) -> None:
    """The exact cycle count of ECB AES-128 jobs (docs/coproc.md, ecb_cycles)."""
    tb = await start(dut, seed=17)
    got = {blocks: await _timed_job(tb, 16 * blocks) for blocks in (1, 2, 3, 4, 5, 6, 9, 12)}
    assert got == {b: ecb_cycles(b) for b in got}, got
    # misaligned buffers (docs/coproc.md, "Latency"): a source at any byte offset costs
    # nothing; a destination 1..3 bytes past a 64-byte boundary costs DST_BYTE_EXTRA
    for blocks, extra in DST_BYTE_EXTRA.items():
        for so, do in ((1, 0), (3, 0), (4, 0), (0, 1), (0, 2), (0, 3), (3, 1), (2, 2)):
            got = await _timed_job(tb, 16 * blocks, so, do) - ecb_cycles(blocks)
            assert got == (extra if do else 0), (blocks, so, do, got)
    assert tb.read_latency == MEM_READ_LATENCY
    assert tb.max_reads >= 2, "never two read bursts outstanding"


#: state_q of ak_coproc in the DONE cycle (the FSM's SDone)
S_DONE = 7


class EdgeWrite:
    """A register write placed on an exact cycle relative to a job (issue 47): waits
    for the job's START pulse, runs ``pre`` writes, then issues ``reg`` = ``value``
    ``delay`` falling edges after the pulse. Counts falling edges from the pulse to
    the job's DONE cycle (``done_at``: the cycle before the edge that sets DONE), to
    the write's issue and to the cycle the write reaches the register block
    (``land_at``), and records the job's state ``lag`` cycles after that (``landed``:
    the cycle the write acts in; 0 for a W1C, which acts on the edge that ends its
    request cycle, 1 for START, a pulse of the register block sampled a cycle later)
    and how many DONE cycles followed."""

    def __init__(self, tb: Bench, delay: int, reg: str, value: int,
                 pre: tuple[tuple[str, int], ...] = (), lag: int = 0) -> None:
        self.tb, self.delay, self.reg, self.value, self.pre = tb, delay, reg, value, pre
        self.lag = lag
        self.landed = -1
        self.land_at = -1
        self.issue_at = -1
        self.done_at = -1
        self.dones = 0
        self.task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        dut = self.tb.dut
        c = dut.u_coproc
        rb = c.u_regs
        while True:
            await FallingEdge(dut.clk_i)
            if int(c.start_p.value):
                break
        n = 0
        addr = RM.addr[self.reg]
        write = None

        def watch() -> None:
            if int(c.set_done.value):
                self.dones += 1
                if self.done_at < 0:
                    self.done_at = n
            if (write is not None and self.land_at < 0 and int(rb.cpuif_req_masked.value)
                    and int(rb.cpuif_req_is_wr.value) and int(rb.cpuif_addr.value) == addr):
                self.land_at = n
            if self.land_at >= 0 and n == self.land_at + self.lag:
                self.landed = int(c.state_q.value)

        for reg, v in self.pre:
            pw = cocotb.start_soon(self.tb.axil.write(RM.addr[reg], v.to_bytes(4, "little")))
            while not pw.done():
                await FallingEdge(dut.clk_i)
                n += 1
                watch()
        while n < self.delay:
            await FallingEdge(dut.clk_i)
            n += 1
            watch()
        self.issue_at = n
        write = cocotb.start_soon(self.tb.axil.write(addr, self.value.to_bytes(4, "little")))
        while not write.done() or int(c.state_q.value) != 0:
            await FallingEdge(dut.clk_i)
            n += 1
            watch()
        for _ in range(4):                    # and nothing after it
            await FallingEdge(dut.clk_i)
            n += 1
            watch()
        assert int(c.state_q.value) == 0


async def _edge_sweep(tb: Bench, reg: str, value, check, offsets: range,
                      pre: tuple[tuple[str, int], ...] = (), lag: int = 0, **job) -> None:
    """Run ``job`` once to find the falling edge (after the START pulse) of its DONE
    cycle and the write's latency to the register block, then once per offset k with
    ``reg`` = ``value(k)`` acting k cycles after that DONE cycle (k = 0: on the edge
    that sets DONE); ``check(k, ew, irqs)`` after each. Memory without pauses, so
    every run of the job takes the same cycles; asserts that offset 0 did act in the
    DONE cycle."""
    tb.set_pauses(0)
    await tb.wr("INTR_STATE", 3)
    cal = EdgeWrite(tb, 20, "LEN", job["length"], pre)  # a write that changes nothing
    await tb.job(**job, wait=False)
    await cal.task
    lat = cal.land_at - cal.issue_at
    hit = False
    for k in offsets:
        await tb.wr("INTR_STATE", 3)
        await ClockCycles(tb.dut.clk_i, 2)
        assert int(tb.dut.irq_o.value) == 0
        delay = cal.done_at - lat - lag + k
        assert delay > 4 * len(pre) + 8, "offset window before the START"
        ew = EdgeWrite(tb, delay, reg, value(k), pre, lag)
        irqs = tb.irqs
        await tb.job(**job, wait=False)
        await ew.task
        assert ew.land_at + lag - ew.done_at == k, (k, ew.land_at, ew.done_at)
        hit |= k == 0 and ew.landed == S_DONE
        await check(k, ew, tb.irqs - irqs)
    assert hit, "no write landed on the DONE edge"
    tb.set_pauses(30)


@cocotb.test()
async def cocotb_w1c_on_done(dut) -> None:
    """A write-1-to-clear of INTR_STATE that lands on any cycle around a job's end,
    the edge that sets DONE included, never swallows the job's interrupt: after every
    job irq_o rose or INTR_STATE still holds DONE (and ERROR for a failed job): the
    hardware set wins over the software clear on the same edge (precedence = hw)."""
    tb = await start(dut, seed=23)
    await tb.set_key(bytes(range(16)))
    tb.mem.data[0x1000:0x1040] = tb.rng.randbytes(64)
    for dst, code in ((0x2000, ERR["OK"]), (BAD + 0x40, ERR["DMA_WRITE"])):

        async def check(k: int, ew: EdgeWrite, irqs: int, code: int = code) -> None:
            st = await tb.rd("STATUS")
            intr = await tb.rd("INTR_STATE")
            assert RM.get(st, "STATUS.DONE") == 1 and RM.get(st, "STATUS.ERR_CODE") == code
            assert irqs <= 1, f"offset {k}: {irqs} interrupts for one job"
            want = 3 if code else 1
            assert irqs == 1 or intr == want, \
                f"offset {k} (code {code}): interrupt lost: no irq, INTR_STATE {intr:#x}"

        await _edge_sweep(tb, "INTR_STATE", lambda k: 3, check, range(-4, 5),
                          mode="ecb", dec=False, key_len=16, src=0x1000, dst=dst, length=64)


@cocotb.test()
async def cocotb_start_on_done(dut) -> None:
    """A START written on any cycle around the end of a running job, the DONE edge
    included: either it is rejected (the job ends with REJECTED and ERR_CODE 4 BUSY,
    one job) or it is accepted (a second job runs, with the DST_ADDR written while
    the first ran, and ends OK); never REJECTED with ERR_CODE 0."""
    tb = await start(dut, seed=24)
    key = bytes(range(16))
    await tb.set_key(key)
    await tb.set_iv(bytes(16))
    data = tb.rng.randbytes(48)
    tb.mem.data[0x1000:0x1030] = data
    want = expected("ctr", False, key, bytes(16), data)
    dst1, dst2 = 0x2000, 0x3000
    seen = set()

    async def check(k: int, ew: EdgeWrite, irqs: int) -> None:
        st = await tb.rd("STATUS")
        rej, code = RM.get(st, "STATUS.REJECTED"), RM.get(st, "STATUS.ERR_CODE")
        assert RM.get(st, "STATUS.DONE") == 1 and RM.get(st, "STATUS.BUSY") == 0, hex(st)
        assert bytes(tb.mem.data[dst1:dst1 + 48]) == want, f"offset {k}: first job"
        if ew.dones == 2:
            seen.add("accepted")
            assert (rej, code) == (0, ERR["OK"]), f"offset {k}: accepted, STATUS {st:#x}"
            assert bytes(tb.mem.data[dst2:dst2 + 48]) == want, f"offset {k}: second job"
        else:
            seen.add("rejected")
            assert ew.dones == 1, (k, ew.dones)
            assert (rej, code) == (1, ERR["BUSY"]), \
                f"offset {k}: START rejected with REJECTED {rej}, ERR_CODE {code}"
            assert bytes(tb.mem.data[dst2:dst2 + 48]) == bytes(48), f"offset {k}"
        tb.mem.data[dst1:dst1 + 48] = bytes(48)
        tb.mem.data[dst2:dst2 + 48] = bytes(48)
        await tb.wr("DST_ADDR", dst1)

    ctrl = RM.value(CTRL__START=1, CTRL__MODE=MODE_CODE["ctr"], CTRL__IRQ_EN=1)
    await _edge_sweep(tb, "CTRL", lambda k: ctrl, check, range(-4, 5),
                      pre=(("DST_ADDR", dst2),), lag=1, mode="ctr", dec=False, key_len=16,
                      src=0x1000, dst=dst1, length=48)
    assert seen == {"accepted", "rejected"}, seen


@cocotb.test(skip=os.environ.get("AK_COPROC_OUT") is None)
async def cocotb_measure(dut) -> None:
    """aeskit.hw.systems.coproc.measure_cycles: CYCLES per size in AK_COPROC_SIZES."""
    tb = await start(dut, seed=18)
    sizes = [int(s) for s in os.environ["AK_COPROC_SIZES"].split(",")]
    out = {s: await _timed_job(tb, s) for s in sizes}
    Path(os.environ["AK_COPROC_OUT"]).write_text(json.dumps(out))


@cocotb.test(skip=os.environ.get("AK_COPROC_LONG") is None)
async def cocotb_random_long(dut) -> None:
    """Many random messages: every mode, direction and key size, up to 600 bytes."""
    tb = await start(dut, seed=int(os.environ.get("AK_COPROC_LONG", "19")))
    for _ in range(3):
        for mode in MODE_CODE:
            for dec in (False, True):
                for klen in (16, 24, 32):
                    await _one_random(tb, mode, dec, klen, 600)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
@cocotb.test(skip=os.environ.get("AK_COPROC_CAPS") is None)
async def cocotb_core_caps(dut) -> None:
    """On an encrypt-only AES-128 core (``round_e128``; ak_coproc's CoreDirections /
    CoreKeySizes rendered from the registry): every job that needs only the forward
    cipher runs (ECB/CBC encryption, CTR, CFB, OFB and CCM both ways) against OpenSSL;
    ECB and CBC decryption and 192/256-bit keys end in ILLEGAL with the destination
    untouched; CLEAR (a zero key of the largest built size) leaves no word of the
    key's schedule anywhere, and a job runs after it."""
    tb = await start(dut, seed=48)
    rng = tb.rng
    for mode in MODE_CODE:
        for dec in (False, True):
            if dec and mode in ("ecb", "cbc"):
                continue
            await _one_random(tb, mode, dec, 16, 70)
    for mode, dec, klen in (("ecb", True, 16), ("cbc", True, 16), ("ctr", False, 24),
                            ("ccm", False, 32), ("ecb", False, 24)):
        key = rng.randbytes(klen)
        iv, data, aad, t = _rand_msg(rng, mode, 64)
        code, got = await tb.crypt(mode, dec, key, iv, data, aad, t)
        assert code == ERR["ILLEGAL"], f"{mode} dec={dec} key={8 * klen}: ERR_CODE {code}"
        # (crypt checked the guard bytes; the destination keeps what was there)
        assert got != expected(mode, dec, key, iv, data, aad, t) or not data, mode
    # CLEAR on a core without AES-256: its zero key (AES-128 here) is taken, and no
    # word of the last key's schedule is left in the system
    key = rng.randbytes(16)
    words = key_words(key)
    baseline = scan(dut, words)
    code, _ = await tb.crypt("ctr", False, key, rng.randbytes(16), rng.randbytes(40))
    assert code == 0
    assert scan(dut, words) - baseline, "the key is not in the core (nothing to wipe)"
    await tb.clear()
    left = scan(dut, words) - baseline
    assert not left, f"key material left after CLEAR: {sorted(left)[:5]}"
    await _one_random(tb, "ctr", False, 16, 40)


FAST = ["cocotb_modes", "cocotb_nist", "cocotb_errors", "cocotb_ccm_tamper",
        "cocotb_key_clear", "cocotb_clear_keeps", "cocotb_back_to_back",
        "cocotb_params_captured", "cocotb_cycles"]


def _run(testcase: str | list[str], env: dict | None = None, seed: int = 1,
         core: str | None = None) -> None:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files

    run_cocotb(toplevel=SYS_TOP, sources=system_files(core or DEFAULT_CORE),
               test_module="test_coproc", test_dir=HERE, parameters={},
               testcase=testcase, extra_env=env or {}, seed=seed)


def test_coproc() -> None:
    """The fast tests in one simulation (one build, one start-up)."""
    _run(FAST)


def test_coproc_core_caps() -> None:
    """Issue 48: the co-processor on an encrypt-only AES-128 core refuses what the core
    cannot run (cocotb_core_caps)."""
    _run("cocotb_core_caps", env={"AK_COPROC_CAPS": "1"}, core="round_e128")


def test_coproc_done_edge() -> None:
    """Issue 47: a W1C of INTR_STATE and a START swept over the cycles around a job's
    DONE edge (cocotb_w1c_on_done, cocotb_start_on_done)."""
    _run(["cocotb_w1c_on_done", "cocotb_start_on_done"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", [19, 20, 21])
def test_coproc_random_long(seed: int) -> None:
    _run("cocotb_random_long", env={"AK_COPROC_LONG": str(seed)}, seed=seed)


@pytest.mark.slow
def test_measure_cycles() -> None:
    """The three sizes of the report (paper 003's Table 2: 128 bit, 4 Kibit, 128 Kibit),
    each equal to the formula of docs/coproc.md."""
    from aeskit.hw.systems.coproc import measure_cycles

    got = measure_cycles((16, 512, 16384))
    assert got == {n: ecb_cycles(n // 16) for n in (16, 512, 16384)}


#: issue 47: ECB AES-128 jobs of 16 B, 512 B, 4 KiB and 16 KiB on pipelined cores, START to
#: DONE (memory without pauses), as measured on 29 Nov 2026 with the engine's InFlight
#: from the registry; not derived from a formula, asserted so that a change shows
DEEP_CYCLES = {
    "ttable_round": {16: 155, 512: 443, 4096: 2683, 16384: 10363},
    "ttable_unrolled": {16: 156, 512: 330, 16384: 5538},
}


#: both in make test-full (46 s and more each); make test keeps the engine's InFlight on
#: a deep core through tests/aeskit/crypt/test_bulk.py
@pytest.mark.parametrize("core", [
    pytest.param("ttable_round", marks=pytest.mark.slow),
    pytest.param("ttable_unrolled", marks=pytest.mark.slow),
])
def test_deep_pipeline_cycles(core: str) -> None:
    """A pipelined core is kept full: the engine's InFlight is the core's blocks in
    flight + 2, so 4 KiB and 16 KiB of ECB on ttable_round (interval 10) take at most 11
    cycles a block (about 41 when the engine kept two blocks in the core), and on
    ttable_unrolled (interval 1) the 32-bit DMA sets the rate (at least 4 cycles a
    block: four beats each way)."""
    from aeskit.hw import get_core
    from aeskit.hw.systems.coproc import measure_cycles

    got = measure_cycles(tuple(DEEP_CYCLES[core]), core)
    assert got == DEEP_CYCLES[core], got
    interval = get_core(core).interval[128]
    for size in (4096, 16384):
        if size in got:
            per_block = got[size] / (size // 16)
            assert max(4, interval) <= per_block <= max(4, interval) + 1.5, (size, per_block)


def test_verilator_model_of_the_system(tmp_path: Path) -> None:
    """``verilator --cc -Wall`` of ak_coproc_sys on tbox_folded (the manifest's lint
    target covers ak_coproc alone with --lint-only): zero warnings."""
    import subprocess

    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--cc", "-Wall", "--Mdir", str(tmp_path), "--top-module", SYS_TOP,
           str(WAIVERS), *(str(f) for f in system_files(DEFAULT_CORE, tmp_path / "src"))]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out, out


def test_yosys_slang_check() -> None:
    """Yosys read_slang + hierarchy + proc + check of ak_coproc: no warning."""
    import re
    import subprocess

    from aeskit import BUILD_ROOT
    from aeskit.hw.systems.coproc import coproc_paths
    from aeskit.toolchain.paths import yosys

    files = " ".join(str(f) for f in coproc_paths())
    script = (f"read_slang -j 1 --top ak_coproc {files}; hierarchy -check -top ak_coproc; "
              f"proc; check -assert")
    cwd = BUILD_ROOT / "lint"
    cwd.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(yosys() + ["-p", script], capture_output=True, text=True,
                         cwd=cwd, timeout=600)
    out = res.stdout + res.stderr
    bad = [ln for ln in out.splitlines()
           if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    assert res.returncode == 0 and "Build succeeded: 0 errors, 0 warnings" in out and not bad, \
        "\n".join(bad or out.splitlines()[-30:])
