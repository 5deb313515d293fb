"""ak_coproc (paper 003's co-processor: AXI4-Lite registers, AXI4 DMA, mode engine) on
tbox_folded (``ak_coproc_sys``, rendered by aeskit.sim.coproc), end to end on Verilator
with cocotbext-axi: an AxiLiteMaster on ``s_axil`` is the software, an AxiSlave on
``m_axi`` is main memory (a byte array behind cocotbext-axi's AXI4 slave model, which
also asserts every burst's 4 KiB rule and WLAST; a window of it answers SLVERR), with
random pauses on all five memory channels (AR, R, AW, W, B).

* every mode (ECB CBC CTR CFB OFB CCM), both directions, 128/192/256-bit keys against
  `cryptography` (OpenSSL) on random buffers of random sizes, random alignments, with
  guard bytes around the destination (nothing past the buffer end may change);
* NIST vectors (cryptography-vectors, parsed by aeskit.vectors) through the registers;
* every bad request answered with its error code, DONE and one interrupt; unmapped
  addresses answer SLVERR; ID ("AKCP") and VERSION (1.0) read their constants;
* CCM decryption with a tampered tag on a 1 KiB message: ERR_CODE TAG, the destination
  untouched (verify-first), and with the tag changed in memory between the two passes:
  the written plaintext overwritten with zeros;
* key register reads return 0; CLEAR wipes KEY, IV, the job's copies of them, the DMA
  buffers and the round-key RAM (inspected through the hierarchy); every job parameter
  captured at START (the next job's registers written while a job runs); back-to-back
  jobs, exactly one interrupt per job; the exact cycle count of one job (docs/coproc.md's
  formula).

Register addresses and fields come from coproc.rdl (aeskit.sim.coproc.regmap). The file
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
from aeskit.sim.coproc import ERR, KEY_LEN_CODE, MODE_CODE, regmap
from aeskit.sim.keywipe import key_words, scan

HERE = Path(__file__).resolve().parent
MEM_SIZE = 1 << 20
#: addresses in [BAD, BAD + BAD_LEN) answer SLVERR (reads and writes)
BAD = 0x8_0000
BAD_LEN = 0x1000
RM = regmap()


#: edges from an AR handshake to its first R beat in the AxiSlave model without pauses
MEM_READ_LATENCY = 2


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
                        CTRL__MODE=MODE_CODE[mode] if mode_code is None else mode_code,
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
    await expect("ILLEGAL", mode="ecb", mode_code=Mode.GCM)  # not offered here
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
    assert (RM.get(ver, "VERSION.MAJOR"), RM.get(ver, "VERSION.MINOR")) == (1, 0), hex(ver)
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
    """KEY reads return 0; CLEAR wipes KEY, IV, the DMA buffers and the round keys: no
    word of the old key's schedule is left anywhere in the system's state."""
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
    before = {int(ram.enc_mem[r].value) for r in range(15)}
    assert int.from_bytes(key[:16], "big") in before
    assert int(dut.u_coproc.reg_key.value) != 0 and int(dut.u_coproc.key_q.value) != 0
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
    assert int(c.u_rd.acc_q.value) == 0 and int(c.u_wr.acc_q.value) == 0
    assert int(c.u_wr.mem_q.value) == 0
    after = {int(ram.enc_mem[r].value) for r in range(11)}
    after |= {int(ram.dec_mem[r].value) for r in range(11)}
    assert int(ram.enc_mem[0].value) == 0, "round key 0 of the zero key is 0"
    assert not (after & (before - {0})), "a round key of the old key survived CLEAR"
    assert int(ram.key0_enc_q.value) == 0
    # and nowhere else: all internal state of the system (every signal and memory
    # word) holds no word of the old key's schedule (aeskit.sim.keywipe)
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
    assert int(ram.enc_mem[0].value) == 0


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


async def _timed_job(tb: Bench, length: int) -> int:
    """One ECB AES-128 encryption of ``length`` bytes without memory pauses; returns
    CYCLES after checking it against the edges counted from the START pulse."""
    dut = tb.dut
    tb.set_pauses(0)
    await tb.set_key(bytes(range(16)))
    data = tb.rng.randbytes(length)
    tb.mem.data[0x1_0000:0x1_0000 + length] = data
    edges: dict[str, int] = {}

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
    cocotb.start_soon(read_latency())
    code, cycles = await tb.job(mode="ecb", dec=False, key_len=16, src=0x1_0000,
                                dst=0x4_0000, length=length)
    await w
    assert code == 0
    assert cycles == edges["done"] - edges["start"], (cycles, edges)
    assert bytes(tb.mem.data[0x4_0000:0x4_0000 + length]) == \
        expected("ecb", False, bytes(range(16)), b"", data)
    return cycles


@cocotb.test()
async def cocotb_cycles(dut) -> None:
    """The exact cycle count of ECB AES-128 jobs (docs/coproc.md, ecb_cycles)."""
    tb = await start(dut, seed=17)
    got = {blocks: await _timed_job(tb, 16 * blocks) for blocks in (1, 2, 3, 4, 5, 6, 9, 12)}
    assert got == {b: ecb_cycles(b) for b in got}, got
    assert tb.read_latency == MEM_READ_LATENCY
    assert tb.max_reads >= 2, "never two read bursts outstanding"


@cocotb.test(skip=os.environ.get("AK_COPROC_OUT") is None)
async def cocotb_measure(dut) -> None:
    """aeskit.sim.coproc.measure_cycles: CYCLES per size in AK_COPROC_SIZES."""
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
FAST = ["cocotb_modes", "cocotb_nist", "cocotb_errors", "cocotb_ccm_tamper",
        "cocotb_key_clear", "cocotb_back_to_back", "cocotb_params_captured", "cocotb_cycles"]


def _run(testcase: str | list[str], env: dict | None = None, seed: int = 1) -> None:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.sim.coproc import DEFAULT_CORE, SYS_TOP, system_files

    run_cocotb(toplevel=SYS_TOP, sources=system_files(DEFAULT_CORE),
               test_module="test_coproc", test_dir=HERE, parameters={},
               testcase=testcase, extra_env=env or {}, seed=seed)


def test_coproc() -> None:
    """The fast tests in one simulation (one build, one start-up)."""
    _run(FAST)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [19, 20, 21])
def test_coproc_random_long(seed: int) -> None:
    _run("cocotb_random_long", env={"AK_COPROC_LONG": str(seed)}, seed=seed)


@pytest.mark.slow
def test_measure_cycles() -> None:
    """The three sizes of the report (paper 003's Table 2: 128 bit, 4 Kibit, 128 Kibit),
    each equal to the formula of docs/coproc.md."""
    from aeskit.sim.coproc import measure_cycles

    got = measure_cycles((16, 512, 16384))
    assert got == {n: ecb_cycles(n // 16) for n in (16, 512, 16384)}


def test_verilator_model_of_the_system(tmp_path: Path) -> None:
    """``verilator --cc -Wall`` of ak_coproc_sys on tbox_folded (the manifest's lint
    target covers ak_coproc alone with --lint-only): zero warnings."""
    import subprocess

    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.sim.coproc import DEFAULT_CORE, SYS_TOP, system_files
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
    from aeskit.sim.coproc import coproc_paths
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
