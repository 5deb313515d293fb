"""Fuzzing of ak_coproc's AXI4 DMA master (``ak_coproc_sys`` on tbox_folded, the build
of test_coproc.py) against a memory that misbehaves: :mod:`aeskit.verif.axi4_mem` (its
docstring lists the misbehaviour and the AXI4 rules it checks on every cycle, here with
``MaxReads`` = ``MaxWrites`` = 4 and the DMA's documented "W never waits for data after
AW").

Jobs. A random sequence of jobs, each programmed through the AXI4-Lite registers
(cocotbext-axi's AxiLiteMaster) and started with CTRL.START:

* legal jobs: every mode (ECB CBC CTR CFB OFB CCM two times in three; GCM with a
  12-byte IV, CMAC, XTS the rest), both directions, 128/192/256-bit keys (XTS:
  128/256, K2 in TWEAK_KEY; junk in the unused KEY words), random lengths (1 byte to
  4 KiB; CCM, GCM, CMAC also 0; XTS at least 16; CCM and GCM with random AAD; in the
  slow run now and then an AAD of about 2^16 - 2^8 bytes, where CCM's AAD length field
  grows to 6 bytes), IVs whose CTR counter carries across
  32/64 bits or wraps, buffers anywhere in the 32-bit space: across 4 KiB and 64-byte
  boundaries, at any alignment, up to the very top (a buffer ending at 2^32 is legal),
  in place (DST_ADDR = SRC_ADDR) except for CCM and GCM decryption; for the other modes the
  AAD and CCM registers hold junk, which must not matter;
* the documented illegal ones, each ending in its CHECK cycle without a bus access:
  mode codes 9..15 (CTRL.MODE_HI = 1; the new modes' own illegal requests are in
  test_coproc_aead.py), KEY_LEN 3, CCM NONCE_LEN outside 7..13, TAG_LEN not in 4, 6, .., 16, LEN
  too large for the nonce, LEN 0 (not CCM), ECB/CBC LEN not a multiple of 16, source,
  destination or AAD crossing 2^32 (ADDR_WRAP), a CCM or GCM decryption whose
  destination overlaps its source, tag or AAD other than exactly in place (OVERLAP);
* faults on almost half of the legal jobs: SLVERR/DECERR on random R beats, on a
  chosen read burst (so in either pass of a CCM decryption), on every access of one
  word of a source or of the destination, on random write bursts; CCM and GCM
  decryptions and CMAC verifications with a changed ciphertext or tag (TAG, nothing
  written), CCM and GCM decryptions with the tag changed in memory between the two
  passes (TAG, the written plaintext zeroed);
* a START written while the job runs (the memory holds AR and AW back until that
  write is answered, so it surely lands in the job): REJECTED, code BUSY unless the
  job has an error of its own; a CLEAR written while a job runs (held the same way):
  the job ends as usual, BUSY stays high until the wipe is done, then KEY, IV and the
  job's copies are zero, no second interrupt, no bus access; the next job's registers
  written while a job runs (the job must not change, the next START uses them); now
  and then a CLEAR between jobs (no interrupt, no bus access, KEY/IV and the job's
  copies zero); random STATUS reads while a job runs (BUSY and DONE never both, except
  while a CLEAR waits, nor neither).

Checks per job, with the seed and the job index (and the burst index) in every
failure: the job ends (DONE) within a cycle limit, with every burst completed;
STATUS.ERR_CODE as docs/coproc.md says (priority 8, 2, 1, 3, then 5, 6, 7, 4),
STATUS.DONE/BUSY/REJECTED, INTR_STATE.DONE and .ERROR, exactly one rising edge of
``irq_o`` with IRQ_EN (none without), CYCLES equal to the edges from the START pulse to
DONE; the bursts issued are exactly the documented ones (each range as the words that
cover it, split at 64-byte boundaries; a CCM decryption reads twice, or once when the
first pass fails; nothing for a job that fails its checks); no byte outside the
destination buffer is written (byte strobes), every byte of it exactly once (twice when
a failed CCM second pass zeroes it, the second time with zeros, nothing when its first
pass fails); the result of a successful job equals `cryptography` (OpenSSL) in the
memory. After a job with an error or an illegal request the next job is a good one, so
a following job shows no state left over.

``AK_FUZZ_N`` (jobs) / ``AK_FUZZ_SEED`` size the run: :data:`N_FAST` jobs in
``make test``; the slow variant runs :data:`N_SLOW` and asserts at least
:data:`MIN_SLOW` bus transactions (AR + AW + R beats + W beats + B). The file is both
the pytest module and the cocotb test module.
"""

from __future__ import annotations

import logging
import os
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Event, First, RisingEdge, with_timeout

from aeskit.verif.axi4_mem import DECERR, OKAY, SLVERR, AxiMem, Burst, Profile
from aeskit.hw.codes import Mode
from aeskit.hw.systems.coproc import ERR, mode_fields, regmap

HERE = Path(__file__).resolve().parent
#: jobs in make test, in the slow variant; bus transactions the slow variant must reach
N_FAST, N_SLOW, MIN_SLOW = 200, 1_200, 100_000
#: ak_coproc's parameters in ak_coproc_sys (defaults): read bursts outstanding, write
#: bursts awaiting B
MAX_READS, MAX_WRITES = 4, 4
CCM, GCM, CMAC, XTS, TOP = Mode.CCM, Mode.GCM, Mode.CMAC, Mode.XTS, 1 << 32
KEY_BYTES = {0: 16, 1: 24, 2: 32}
RM = regmap()


# ----------------------------------------------------------------------------------
# jobs and what the documentation says they do
# ----------------------------------------------------------------------------------
@dataclass
class Job:
    idx: int
    kind: str               # what the generator aimed at (coverage)
    mode: int               # the mode code: CTRL.MODE, MODE_HI (0..8; illegal: 9..15)
    dec: bool
    key_code: int           # CTRL.KEY_LEN, 0..3
    key: bytes              # the 8 KEY words' bytes
    iv: bytes               # the 4 IV words' bytes (CCM: nonce left-aligned)
    nonce_len: int          # CCM.NONCE_LEN (any 4-bit value)
    tag_len: int            # CCM.TAG_LEN (any 5-bit value)
    length: int             # LEN
    aad_len: int            # AAD_LEN
    src: int
    dst: int
    aad_addr: int
    irq: bool
    msg: bytes = b""        # the source buffer (CCM decryption: ciphertext + tag)
    aad: bytes = b""
    faults: str = ""        # fault plan: r-beats, r-burst, r-word, w-word, b-bursts
    p_r: float = 0.0        # R beat error probability
    p_b: float = 0.0        # write burst error probability
    fault_words: dict[int, int] = field(default_factory=dict)  # word address -> resp
    fault_burst: int = -1   # read burst (job-relative) with one error beat
    tamper: str = ""        # CCM decryption: "msg" (before the job), "pass2"
    reject: bool = False    # a START written while the job runs
    clear: bool = False     # a CLEAR written while the job runs
    prewritten: bool = False  # its registers were written while the previous job ran
    key2: bytes = bytes(32)   # the 8 TWEAK_KEY words' bytes (XTS's K2)

    @property
    def ccm(self) -> bool:
        return self.mode == CCM

    @property
    def aead(self) -> bool:
        """CCM or GCM: AAD read first; decryption verify-first (two passes)."""
        return self.mode in (CCM, GCM)

    @property
    def two_pass(self) -> bool:
        return self.aead and self.dec

    @property
    def t(self) -> int:
        return self.tag_len if self.mode in (CCM, GCM, CMAC) else 0

    @property
    def out_len(self) -> int:
        return (0 if self.mode == CMAC else self.length) + (self.t if not self.dec else 0)

    def read_ranges(self) -> list[tuple[int, int]]:
        """(address, bytes) read in one pass, in order."""
        return [(self.aad_addr, self.aad_len if self.aead else 0), (self.src, self.length),
                (self.src + self.length, self.t if self.dec else 0)]

    def check_code(self) -> int:
        """The code of the CHECK cycle (docs/coproc.md, "Error codes"), 0 if it passes."""
        n, t, ln = self.nonce_len, self.tag_len, self.length
        illegal = self.mode > XTS or self.key_code == 3 or (self.ccm and (
            not 7 <= n <= 13 or not 4 <= t <= 16 or t % 2 or ln >= 1 << min(32, 8 * (15 - n))))
        illegal = illegal or (self.mode in (GCM, CMAC) and not 4 <= t <= 16) or (
            self.mode == XTS and (self.key_code == 1 or 0 < ln < 16 or ln >= 1 << 29))
        if illegal:
            return ERR["ILLEGAL"]
        if self.mode not in (CCM, GCM, CMAC) and ln == 0:
            return ERR["LEN_ZERO"]
        if self.mode in (0, 1) and ln % 16:
            return ERR["LEN_ALIGN"]
        src_end = self.src + ln + (self.t if self.dec else 0)
        dst_end = self.dst + self.out_len
        aad_end = self.aad_addr + self.aad_len if self.aead else 0
        if max(src_end, dst_end, aad_end) > TOP:
            return ERR["ADDR_WRAP"]
        # a two-pass decryption's destination over what it reads, but exactly in place
        if self.two_pass and ln and (
                (self.dst != self.src and self.dst < src_end and self.src < dst_end)
                or (self.aad_len and self.dst < aad_end and self.aad_addr < dst_end)):
            return ERR["OVERLAP"]
        return ERR["OK"]

    def __str__(self) -> str:
        return (f"job {self.idx} ({self.kind}: MODE {self.mode} DECRYPT {int(self.dec)} "
                f"KEY_LEN {self.key_code} LEN {self.length} AAD_LEN {self.aad_len} "
                f"SRC {self.src:#010x} DST {self.dst:#010x} AAD {self.aad_addr:#010x} "
                f"CCM n={self.nonce_len} t={self.tag_len}; faults {self.faults or '-'} "
                f"tamper {self.tamper or '-'} reject {int(self.reject)} "
                f"clear {int(self.clear)})")


def bursts(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(address, beats) of the documented bursts: the words covering each non-empty
    range, INCR bursts ending at the next 64-byte boundary."""
    out = []
    for addr, n in ranges:
        if not n:
            continue
        w, last = addr // 4, (addr + n - 1) // 4
        while w <= last:
            k = min(last - w + 1, 16 - w % 16)
            out.append((4 * w, k))
            w += k
    return out


def crypt(job: Job, msg: bytes) -> bytes | None:
    """What a correct job writes to the destination (None: CCM/GCM/CMAC tag mismatch;
    CMAC verification: b"" when the tag matches)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM
    from cryptography.hazmat.primitives.cmac import CMAC as Cmac
    from test_coproc import expected

    key = job.key[:KEY_BYTES[job.key_code]]
    if job.mode == GCM:
        iv = job.iv[:12]
        if not job.dec:
            enc = Cipher(algorithms.AES(key), modes.GCM(iv)).encryptor()
            enc.authenticate_additional_data(job.aad)
            ct = enc.update(msg) + enc.finalize()
            return ct + enc.tag[:job.t]
        ct, tag = msg[:len(msg) - job.t], msg[len(msg) - job.t:]
        dec = Cipher(algorithms.AES(key), modes.GCM(iv, tag, min_tag_length=4)).decryptor()
        dec.authenticate_additional_data(job.aad)
        pt = dec.update(ct)
        try:
            dec.finalize()
        except InvalidTag:
            return None
        return pt
    if job.mode == CMAC:
        c = Cmac(algorithms.AES(key))
        c.update(msg[:job.length])
        tag = c.finalize()[:job.t]
        if not job.dec:
            return tag
        return b"" if msg[job.length:] == tag else None
    if job.mode == XTS:
        x = Cipher(algorithms.AES(key + job.key2[:len(key)]), modes.XTS(job.iv))
        ctx = x.decryptor() if job.dec else x.encryptor()
        return ctx.update(msg) + ctx.finalize()
    if job.ccm:
        ccm = AESCCM(key, tag_length=job.t)
        nonce = job.iv[:job.nonce_len]
        if not job.dec:
            return ccm.encrypt(nonce, msg, job.aad)
        try:
            return ccm.decrypt(nonce, msg, job.aad)
        except InvalidTag:
            return None
    name = ("ecb", "cbc", "ctr", "cfb", "ofb")[job.mode]
    return expected(name, job.dec, key, job.iv, msg)


# ----------------------------------------------------------------------------------
# the generator
# ----------------------------------------------------------------------------------
ILLEGAL_KINDS = ("mode9_15", "keylen3", "nonce", "tag", "qlen", "zero", "align", "wrap-src",
                 "wrap-dst", "wrap-aad", "wrap-huge", "overlap")
FAULT_KINDS = ("r-beats", "r-burst", "r-word", "w-word", "b-bursts", "r+b")


def edge_iv(rng: random.Random) -> bytes:
    """A random IV; about a third of them end in 0xFF bytes, so that a CTR counter (the
    128-bit big-endian increment) carries across 8, 32, 64 bits or wraps around 2^128
    within the message."""
    iv = rng.randbytes(16)
    if rng.random() < 0.3:
        k = rng.choice((1, 4, 8, 8, 12, 16, rng.randint(1, 16)))
        low = 0x100 - rng.randint(1, 6) if rng.random() < 0.7 else rng.randrange(0xC0, 0x100)
        iv = iv[:16 - k] + b"\xff" * (k - 1) + bytes([low])
    return iv


class Gen:
    def __init__(self, rng: random.Random, slow: bool) -> None:
        self.rng = rng
        self.slow = slow

    def length(self, mode: int) -> int:
        rng = self.rng
        x = rng.random()
        n = (rng.randint(1, 48) if x < 0.45 else rng.randint(49, 256) if x < 0.85 else
             rng.randint(257, 1100) if x < 0.97 else rng.randint(1101, 4200))
        if mode in (0, 1):
            return max(16, n // 16 * 16)
        if mode == XTS:
            return max(16, n)
        if mode in (CCM, GCM, CMAC) and rng.random() < 0.1:
            return 0
        return n

    def place(self, size: int, taken: list[tuple[int, int]]) -> int:
        """A buffer of ``size`` bytes anywhere in the 32-bit space (across 4 KiB, near 0,
        at the very top), not overlapping ``taken``."""
        rng = self.rng
        size = max(size, 1)
        for _ in range(100):
            x = rng.random()
            if x < 0.45:
                a = rng.randrange(TOP - size + 1)
            elif x < 0.7:       # across (or at) a 4 KiB boundary
                a = rng.randrange(1, 1 << 20) * 4096 - rng.randrange(min(size, 80) + 1)
            elif x < 0.82:      # ending at, or just below, 2^32
                a = TOP - size - rng.choice((0, 0, 1, 2, 3, rng.randrange(64)))
            elif x < 0.9:
                a = rng.randrange(64)
            else:               # inside one 64-byte line, any offset
                a = rng.randrange(TOP // 64) * 64 + rng.randrange(64)
            a = min(max(a, 0), TOP - size)
            if all(a + size <= lo or hi <= a for lo, hi in taken):
                return a
        raise AssertionError("no room")     # pragma: no cover - 4 GiB, a few KiB taken

    def job(self, idx: int, good: bool) -> Job:
        rng = self.rng
        if not good and rng.random() < 0.3:
            return self.illegal(idx)
        j = self.legal(idx, "good" if good else "legal")
        if good:
            return j
        if rng.random() < 0.45:
            self.add_faults(j)
        if (j.two_pass or (j.mode == CMAC and j.dec)) and rng.random() < 0.3:
            j.tamper = rng.choice(("msg", "pass2")) if j.two_pass else "msg"
            if j.tamper == "msg":
                b = bytearray(j.msg)
                b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
                j.msg = bytes(b)
        j.reject = rng.random() < 0.08
        j.clear = not j.reject and rng.random() < 0.04
        return j

    def legal(self, idx: int, kind: str) -> Job:
        rng = self.rng
        # the modes of map 1.0 two times in three, GCM, CMAC, XTS the rest
        mode = rng.randrange(6) if rng.random() < 0.67 else rng.choice((GCM, CMAC, XTS))
        dec = rng.random() < 0.5
        key_code = rng.choice((0, 2)) if mode == XTS else rng.randrange(3)
        if mode == CCM:
            n, t = rng.randint(7, 13), rng.choice(range(4, 17, 2))
        elif mode in (GCM, CMAC):
            n, t = rng.randrange(16), rng.randint(4, 16)
        else:
            n, t = rng.randrange(16), rng.randrange(32)      # ignored outside CCM
        j = Job(idx, kind, mode, dec, key_code, rng.randbytes(32), edge_iv(rng), n, t,
                self.length(mode), 0, 0, 0, rng.getrandbits(32), rng.random() < 0.8,
                key2=rng.randbytes(32))
        if j.aead:
            j.aad_len = rng.choice((0, 0, rng.randint(1, 40), rng.randint(1, 300)))
            if self.slow and rng.random() < 0.01:
                # around 2^16 - 2^8, where CCM's AAD length encoding grows to 6 bytes
                j.aad_len = rng.choice((0xFEFF, 0xFF00, 0xFF01))
            j.aad = rng.randbytes(j.aad_len)
        else:
            j.aad_len = rng.getrandbits(32)     # junk: must not matter (nor wrap)
        plain = rng.randbytes(j.length)
        if j.two_pass:
            j.msg = crypt(Job(**{**j.__dict__, "dec": False}), plain) or b""
        elif j.mode == CMAC and j.dec:
            j.msg = plain + (crypt(Job(**{**j.__dict__, "dec": False}), plain) or b"")
        else:
            j.msg = plain
        taken: list[tuple[int, int]] = []
        j.src = self.place(len(j.msg), taken)
        taken.append((j.src, j.src + len(j.msg)))
        if not j.two_pass and rng.random() < 0.1:
            j.dst = j.src                           # in place
            if j.dst + j.out_len > TOP:
                j.dst = j.src = TOP - j.out_len
                taken[0] = (j.src, j.src + len(j.msg))
        else:
            j.dst = self.place(j.out_len, taken)
        taken.append((j.dst, j.dst + max(j.out_len, 1)))
        if j.aead:
            j.aad_addr = self.place(j.aad_len, taken)
        return j

    def illegal(self, idx: int) -> Job:
        """A legal job with one documented illegal thing (buffers never written)."""
        rng = self.rng
        j = self.legal(idx, rng.choice(ILLEGAL_KINDS))
        k = j.kind
        if k == "mode9_15":
            j.mode = rng.randint(9, 15)
        elif k == "keylen3":
            j.key_code = 3
        elif k in ("nonce", "tag", "qlen", "wrap-aad"):
            j.mode = CCM
            j.nonce_len, j.tag_len = rng.randint(7, 13), rng.choice(range(4, 17, 2))
            j.aad_len = rng.randint(1, 64)
            j.aad_addr = rng.randrange(TOP - 64)
            if k == "nonce":
                j.nonce_len = rng.choice((0, 1, 2, 3, 4, 5, 6, 14, 15))
            elif k == "tag":
                j.tag_len = rng.choice([v for v in range(32) if v not in range(4, 17, 2)])
            elif k == "qlen":
                j.nonce_len = rng.choice((12, 13))
                j.length = rng.randrange(1 << 8 * (15 - j.nonce_len), TOP)
            else:
                j.aad_len = rng.randint(2, 64)
                j.aad_addr = rng.randint(TOP - j.aad_len + 1, TOP - 1)
        elif k == "zero":
            j.mode = rng.randrange(5)
            j.length = 0
        elif k == "align":
            j.mode = rng.randrange(2)
            j.length = rng.randrange(1, 2000)
            j.length += j.length % 16 == 0
        elif k == "wrap-src":
            j.length = j.length or 16
            need = j.length + (j.t if j.dec else 0)
            j.src = rng.randint(TOP - need + 1, TOP - 1)
        elif k == "wrap-dst":
            j.length = j.length or 16
            j.dec = j.dec and j.mode != CMAC        # CMAC verification writes nothing
            j.dst = rng.randint(TOP - j.out_len + 1, TOP - 1)
        elif k == "overlap":
            # CCM/GCM decryption whose destination overlaps its source (the tag
            # included) or its AAD, not exactly in place
            j.mode, j.dec = rng.choice((CCM, GCM)), True
            j.nonce_len, j.tag_len = 13, 16
            j.length = rng.randint(1, 200)
            j.aad_len = rng.randint(0, 32)
            j.src = rng.randrange(1 << 16, TOP - (1 << 16))
            j.aad_addr = j.src + j.length + 16 + rng.randrange(1024)
            if j.aad_len and rng.random() < 0.3:
                j.dst = j.aad_addr + rng.randint(-j.length + 1, j.aad_len - 1)
            else:
                j.dst = j.src + rng.choice([d for d in range(-j.length + 1, j.length + 16)
                                            if d != 0])
        else:                                   # wrap-huge
            j.length = TOP - 16 * rng.randrange(1, 64)
            j.src = rng.randrange(1024, TOP)
        j.msg, j.aad = b"", b""
        return j

    def add_faults(self, j: Job) -> None:
        rng = self.rng
        j.faults = rng.choice(FAULT_KINDS)
        err = rng.choice((SLVERR, DECERR))
        reads = [r for r in j.read_ranges() if r[1]]
        if j.faults in ("r-beats", "r+b"):
            j.p_r = rng.choice((0.01, 0.05, 0.3))
        if j.faults in ("b-bursts", "r+b"):
            j.p_b = rng.choice((0.1, 0.5))
        if j.faults == "r-burst":
            n = len(bursts(j.read_ranges())) * (2 if j.two_pass else 1)
            j.fault_burst = rng.randrange(max(n, 1))
        if j.faults == "r-word" and reads:
            a, n = rng.choice(reads)
            j.fault_words[(a + rng.randrange(n)) // 4] = err
        if j.faults == "w-word" and j.out_len:
            j.fault_words[(j.dst + rng.randrange(j.out_len)) // 4] = err


# ----------------------------------------------------------------------------------
# the bench
# ----------------------------------------------------------------------------------
class DmaFuzz:
    def __init__(self, dut: Any, seed: int, n: int) -> None:
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster

        self.dut = dut
        self.seed = seed
        self.n = n
        self.rng = random.Random(seed)
        self.gen = Gen(random.Random(seed + 1), n > N_FAST)
        logging.getLogger(f"cocotb.{dut._name}.s_axil").setLevel(logging.WARNING)
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i,
                                  dut.rst_ni, reset_active_level=False)
        self.job: Job | None = None
        self.mem = AxiMem(dut, random.Random(seed + 2), max_reads=MAX_READS,
                          max_writes=MAX_WRITES, where=self.where, w_follows_aw=True)
        self.cycle = 0
        self.irq_rises = 0           # rising edges of irq_o
        self.irq_before = 0          # ... when the running job started
        self.running = False         # a job was started and has not set DONE yet
        self.want_start = False
        self.start_edge = self.done_edge = 0
        self.limit = 0
        self.done_ev = Event()
        self.error: BaseException | None = None
        self.stats: Counter[str] = Counter()

    def where(self) -> str:
        return f"seed {self.seed}, {self.job or 'between jobs'}"

    # --- the cycle loop: memory, interrupt, START pulse, DONE, cycle limit ---------
    async def loop(self) -> None:
        d, c = self.dut, self.dut.u_coproc
        prev_irq = prev_done = 0
        try:
            while True:
                await RisingEdge(d.clk_i)
                self.cycle += 1
                self.mem.sample(self.cycle)
                irq = int(d.irq_o.value)
                self.irq_rises += int(irq and not prev_irq)
                prev_irq = irq
                if self.want_start and int(c.start_p.value):
                    self.start_edge, self.want_start = self.cycle + 1, False
                done = int(c.done_q.value)
                if done and not prev_done and self.running:
                    if not self.mem.idle():
                        raise AssertionError(f"{self.where()}: DONE with bursts not "
                                             f"completed (R/W/B outstanding)")
                    self.done_edge, self.running = self.cycle, False
                    self.done_ev.set()
                prev_done = done
                if self.running and self.cycle > self.limit:
                    raise AssertionError(f"{self.where()}: no DONE by cycle {self.limit} "
                                         f"(hang)")
                self.mem.drive(self.cycle)
        except AssertionError as e:
            self.error = e
            self.done_ev.set()

    def check_alive(self) -> None:
        if self.error is not None:
            raise self.error

    # --- registers ----------------------------------------------------------------
    async def wr(self, reg: str, value: int) -> None:
        r = await with_timeout(self.axil.write(RM.addr[reg], value.to_bytes(4, "little")),
                               100, "us")
        assert int(r.resp) == 0, f"{self.where()}: write {reg}: resp {int(r.resp)}"

    async def rd(self, reg: str) -> int:
        r = await with_timeout(self.axil.read(RM.addr[reg], 4), 100, "us")
        assert int(r.resp) == 0, f"{self.where()}: read {reg}: resp {int(r.resp)}"
        return int.from_bytes(r.data, "little")

    async def write_params(self, j: Job) -> None:
        """Every parameter register but CTRL, in random order."""
        regs = [(f"KEY{i}", j.key[4 * i:4 * i + 4]) for i in range(8)]
        regs += [(f"IV{i}", j.iv[4 * i:4 * i + 4]) for i in range(4)]
        regs += [(f"TWEAK_KEY{i}", j.key2[4 * i:4 * i + 4]) for i in range(8)]
        vals = [(r, int.from_bytes(b, "little")) for r, b in regs]
        vals += [("SRC_ADDR", j.src), ("DST_ADDR", j.dst), ("LEN", j.length),
                 ("AAD_ADDR", j.aad_addr), ("AAD_LEN", j.aad_len),
                 ("CCM", RM.value(CCM__NONCE_LEN=j.nonce_len, CCM__TAG_LEN=j.tag_len))]
        self.rng.shuffle(vals)
        for reg, v in vals:
            await self.wr(reg, v)

    def ctrl(self, j: Job, start: int = 1) -> int:
        return RM.value(CTRL__START=start, CTRL__DECRYPT=int(j.dec), **mode_fields(j.mode),
                        CTRL__KEY_LEN=j.key_code, CTRL__IRQ_EN=int(j.irq))

    # --- one job ------------------------------------------------------------------
    def arm(self, j: Job) -> None:
        """Memory content, fault plans and the pass-2 tamper hook of ``j``."""
        mem, rng = self.mem, self.mem.rng
        mem.mem.write(j.src, j.msg)
        mem.mem.write(j.aad_addr, j.aad)
        mem.set_profile(Profile.random(rng))
        self.stats[f"memory {mem.profile.name}"] += 1
        mem.reads, mem.writes = [], []

        def read_plan(b: Burst) -> list[int]:
            resps = []
            for i in range(b.beats):
                r = j.fault_words.get(b.addr // 4 + i, OKAY)
                if r == OKAY and j.p_r and rng.random() < j.p_r:
                    r = rng.choice((SLVERR, DECERR))
                resps.append(r)
            if b.idx == j.fault_burst:
                resps[rng.randrange(b.beats)] = rng.choice((SLVERR, DECERR))
            return resps

        def write_plan(b: Burst) -> int:
            for w in b.words():
                if w in j.fault_words:
                    return j.fault_words[w]
            return rng.choice((SLVERR, DECERR)) if j.p_b and rng.random() < j.p_b else OKAY

        n1 = len(bursts(j.read_ranges())) if j.tamper == "pass2" else 0

        def read_done(b: Burst) -> None:
            if j.tamper == "pass2" and b.idx == n1 - 1:     # pass 1 read in full
                a = j.src + j.length + rng.randrange(j.t)
                mem.mem.write(a, bytes([mem.mem.read(a, 1)[0] ^ 0x80]))

        mem.read_plan, mem.write_plan, mem.on_read_done = read_plan, write_plan, read_done

    async def start(self, j: Job) -> None:
        self.job = j
        self.arm(j)
        self.done_ev.clear()
        self.irq_before = self.irq_rises
        blocks = sum(n for _, n in j.read_ranges()) // 16 + j.out_len // 16 + 4
        self.limit = self.cycle + 20_000 + 800 * blocks * (2 if j.two_pass else 1)
        self.running = self.want_start = True
        if j.reject or j.clear:
            self.mem.frozen = True
        await self.wr("CTRL", self.ctrl(j))
        if j.reject:
            # a second START while the job surely runs (AR and AW are held back);
            # IRQ_EN kept, the other fields are the next job's business
            await self.wr("CTRL", RM.value(CTRL__START=1, CTRL__IRQ_EN=int(j.irq),
                                           CTRL__MODE=self.rng.randrange(8),
                                           CTRL__DECRYPT=self.rng.getrandbits(1)))
            st = await self.rd("STATUS")
            self.mem.frozen = False
            assert RM.get(st, "STATUS.REJECTED") and RM.get(st, "STATUS.BUSY"), \
                f"{self.where()}: STATUS {st:#x} after a START while busy"
        if j.clear:
            # a CLEAR while the job surely runs: it waits for the job's end (which
            # raises its interrupt as usual), then wipes (no interrupt)
            await self.wr("CTRL", RM.value(CTRL__CLEAR=1, CTRL__IRQ_EN=int(j.irq)))
            self.mem.frozen = False

    async def wait_done(self) -> None:
        """Until DONE (the loop's cycle limit is the hang detector), with random
        STATUS reads on the way: while the job runs BUSY = 1 and DONE = 0 (with a CLEAR
        pending, BUSY stays 1 after DONE)."""
        clearing = self.job is not None and self.job.clear
        while not self.done_ev.is_set():
            if self.rng.random() < 0.3:
                st = await self.rd("STATUS")
                busy, done = RM.get(st, "STATUS.BUSY"), RM.get(st, "STATUS.DONE")
                assert busy != done or (clearing and busy), \
                    f"{self.where()}: STATUS {st:#x} during the job"
                self.stats["STATUS reads during a job"] += 1
            else:
                await First(self.done_ev.wait(), ClockCycles(self.dut.clk_i,
                                                             self.rng.randint(1, 300)))
        self.check_alive()

    async def finish(self, j: Job) -> None:
        await self.wait_done()
        reads, writes = self.mem.reads, self.mem.writes
        self.mem.reads, self.mem.writes = [], []
        if j.clear:
            await self.wait_cleared(j)
        st = await self.rd("STATUS")
        intr = await self.rd("INTR_STATE")
        cycles = await self.rd("CYCLES")
        code, content = self.expect(j, reads, writes)
        w = self.where()
        got = RM.get(st, "STATUS.ERR_CODE")
        assert got == code, f"{w}: ERR_CODE {got}, documented {code}"
        assert (RM.get(st, "STATUS.BUSY"), RM.get(st, "STATUS.DONE"),
                RM.get(st, "STATUS.REJECTED")) == (0, 1, int(j.reject)), f"{w}: STATUS {st:#x}"
        if j.clear:
            c = self.dut.u_coproc
            assert int(c.reg_key.value) == 0 and int(c.reg_iv.value) == 0 and \
                int(c.key_q.value) == 0 and int(c.iv_q.value) == 0, \
                f"{w}: CLEAR during the job left key/IV"
            assert not self.mem.reads and not self.mem.writes, f"{w}: bus access in CLEAR"
            self.stats["CLEAR during a job"] += 1
        assert (RM.get(intr, "INTR_STATE.DONE"), RM.get(intr, "INTR_STATE.ERROR")) == \
            (1, int(code != 0)), f"{w}: INTR_STATE {intr:#x} for code {code}"
        assert int(self.dut.irq_o.value) == int(j.irq), f"{w}: irq_o with IRQ_EN {int(j.irq)}"
        assert self.irq_rises - self.irq_before == int(j.irq), \
            f"{w}: {self.irq_rises - self.irq_before} interrupts (IRQ_EN {int(j.irq)})"
        assert cycles == self.done_edge - self.start_edge, \
            f"{w}: CYCLES {cycles}, edges START -> DONE {self.done_edge - self.start_edge}"
        await self.wr("INTR_STATE", intr)
        await ClockCycles(self.dut.clk_i, 2)
        assert int(self.dut.irq_o.value) == 0, f"{w}: irq_o after INTR_STATE cleared"
        if content is not None:
            mem = self.mem.mem.read(j.dst, j.out_len)
            assert mem == content, f"{w}: destination in memory differs from the result"
        self.stats[f"code {code}"] += 1
        mode = (("ecb", "cbc", "ctr", "cfb", "ofb", "ccm", "gcm", "cmac", "xts")[j.mode]
                if j.mode <= XTS else j.mode)
        self.stats[j.kind if j.kind in ILLEGAL_KINDS else f"legal {mode}"] += 1
        if j.faults:
            self.stats[f"faults {j.faults}"] += 1

    def expect(self, j: Job, reads: list[Burst], writes: list[Burst]) -> tuple[int, bytes | None]:
        """The documented ERR_CODE and destination content (None: undefined) of ``j``,
        after checking the bursts and the bytes written against the documentation."""
        w = self.where()
        got_r = [(b.addr, b.beats) for b in reads]
        got_w = [(b.addr, b.beats) for b in writes]
        code = j.check_code()
        if code:
            assert not got_r and not got_w, \
                f"{w}: ERR_CODE {code} ends the job without a bus access; bursts {got_r} {got_w}"
            return code, None
        one = bursts(j.read_ranges())
        wr = bursts([(j.dst, j.out_len)])
        rd_err = [b for b in reads if any(r != OKAY for r in b.resps)]
        wr_err = [b for b in writes if b.resp != OKAY]
        want = crypt(j, j.msg)
        zeroed = False
        if j.two_pass:
            assert got_r[:len(one)] == one, f"{w}: pass 1 read {got_r}, documented {one}"
            p1_err = any(b.idx < len(one) for b in rd_err)
            if p1_err or want is None:           # verify pass failed: nothing written
                want_r, want_w = one, []
                code = ERR["DMA_READ"] if p1_err else ERR["TAG"]
                content = None
            else:
                want_r, want_w = one + one, wr
                p2_wr_err = any(b.idx < len(wr) for b in wr_err)
                if rd_err or j.tamper == "pass2":   # pass 2 failed: plaintext zeroed
                    want_w = wr + wr
                    code = (ERR["DMA_READ"] if rd_err else ERR["DMA_WRITE"] if p2_wr_err
                            else ERR["TAG"])
                    content = None if wr_err else bytes(j.out_len)
                    zeroed = True
                    self.stats["CCM pass 2 failed, zeroed"] += 1
                else:
                    code = ERR["DMA_WRITE"] if wr_err else 0
                    content = want if not wr_err else None
        else:
            want_r, want_w = one, wr
            code = (ERR["DMA_READ"] if rd_err else ERR["DMA_WRITE"] if wr_err else
                    ERR["TAG"] if want is None else 0)       # TAG: CMAC verification
            content = want if code == 0 else None
        if code == 0 and j.reject:
            code = ERR["BUSY"]
        assert got_r == want_r, f"{w}: read bursts {got_r}, documented {want_r}"
        assert got_w == want_w, f"{w}: write bursts {got_w}, documented {want_w}"
        # the bytes the strobes wrote, in order
        seen: dict[int, list[int]] = {}
        for b in writes:
            for i, (data, strb) in enumerate(b.data):
                for k in range(4):
                    if strb >> k & 1:
                        seen.setdefault(b.addr + 4 * i + k, []).append(data >> 8 * k & 0xFF)
        outside = sorted(a for a in seen if not j.dst <= a < j.dst + j.out_len)
        assert not outside, f"{w}: bytes written outside the destination, first {outside[0]:#x}"
        times = len(want_w) // max(len(wr), 1)
        short = [a for a in range(j.dst, j.dst + j.out_len) if len(seen.get(a, ())) != times]
        assert not short, (f"{w}: destination byte {short[0]:#x} written "
                           f"{len(seen.get(short[0], ()))} times, documented {times}")
        if zeroed:
            assert all(v[-1] == 0 for v in seen.values()), f"{w}: failed pass 2 not zeroed"
        if content is not None and not zeroed:
            data = bytes(seen[a][-1] for a in range(j.dst, j.dst + j.out_len))
            assert data == content, f"{w}: written data differ from cryptography's result"
        if code in (ERR["DMA_READ"], ERR["DMA_WRITE"]):
            self.stats["bus error reported"] += 1
        return code, content

    async def wait_cleared(self, j: Job) -> None:
        """After the DONE of a job with a CLEAR pending: BUSY until the wipe is done."""
        for _ in range(200):
            st = await self.rd("STATUS")
            if not RM.get(st, "STATUS.BUSY"):
                return
            assert RM.get(st, "STATUS.DONE"), f"{self.where()}: STATUS {st:#x} in CLEAR"
        raise AssertionError(f"{self.where()}: CLEAR after the job does not end")

    async def clear(self) -> None:
        """CLEAR between jobs: no interrupt, no bus access; KEY, IV and the job's copies
        are zero after it."""
        self.job = None
        before = self.irq_rises
        self.mem.reads, self.mem.writes = [], []
        await self.wr("CTRL", RM.value(CTRL__CLEAR=1, CTRL__IRQ_EN=self.rng.getrandbits(1)))
        for _ in range(200):
            if not RM.get(await self.rd("STATUS"), "STATUS.BUSY"):
                break
        else:
            raise AssertionError(f"seed {self.seed}: CLEAR does not end")
        c = self.dut.u_coproc
        assert self.irq_rises == before, f"seed {self.seed}: an interrupt for CLEAR"
        assert not self.mem.reads and not self.mem.writes, \
            f"seed {self.seed}: bus access in CLEAR"
        assert int(c.reg_key.value) == 0 and int(c.reg_iv.value) == 0 and \
            int(c.key_q.value) == 0 and int(c.iv_q.value) == 0, \
            f"seed {self.seed}: CLEAR left key/IV"
        self.stats["CLEAR"] += 1
        self.check_alive()

    # --- the run ------------------------------------------------------------------
    async def run(self) -> None:
        d = self.dut
        d.rst_ni.value = 0
        await ClockCycles(d.clk_i, 3)
        d.rst_ni.value = 1
        await ClockCycles(d.clk_i, 2)
        cocotb.start_soon(self.loop())
        rng = self.rng
        job = self.gen.job(0, good=True)
        await self.write_params(job)
        for idx in range(self.n):
            await self.start(job)
            # after an illegal job or one with faults, a good one
            bad = job.kind in ILLEGAL_KINDS or bool(job.faults or job.tamper)
            nxt = self.gen.job(idx + 1, good=bad)
            if rng.random() < 0.25 and not job.clear:
                await self.write_params(nxt)        # while this job runs
                nxt.prewritten = True
                self.stats["next job's registers written while busy"] += 1
            await self.finish(job)
            if not nxt.prewritten:
                if rng.random() < 0.05:
                    await self.clear()
                await self.write_params(nxt)
            job = nxt
            if idx % 200 == 199:
                self.mem.mem.forget()           # keep the sparse memory small
        self.check_alive()
        self.report()

    def report(self) -> None:
        st = self.mem.stats
        self.dut._log.info(
            "DMA fuzz: seed %d, %d jobs, %d cycles, %d bus transactions (%s); %s", self.seed,
            self.n, self.cycle, self.mem.transactions(),
            ", ".join(f"{k} {v}" for k, v in st.items()),
            ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items())))
        out = os.environ.get("AK_FUZZ_STATS")
        if out:
            Path(out).write_text(f"{self.n} {self.mem.transactions()} {self.cycle}\n")
        if self.n >= 100:
            want = [f"code {v}" for v in ERR.values()] + ["CCM pass 2 failed, zeroed", "CLEAR",
                                                          "CLEAR during a job"]
            want += [f"faults {k}" for k in FAULT_KINDS] + ["memory fast", "memory slow"]
            missing = [k for k in want if not self.stats[k]]
            missing += [k for k in ("R errors", "B errors", "AR stalled", "AW stalled",
                                    "W stalled", "R held by master") if not st[k]]
            assert not missing, f"seed {self.seed}: never exercised: {missing}"
        floor = int(os.environ.get("AK_FUZZ_MIN", "0"))
        assert self.mem.transactions() >= floor, \
            f"seed {self.seed}: {self.mem.transactions()} bus transactions, wanted {floor}"


@cocotb.test()
async def cocotb_coproc_dma_fuzz(dut: Any) -> None:
    """Random jobs against a misbehaving memory (see the module docstring)."""
    n = int(os.environ.get("AK_FUZZ_N", N_FAST))
    seed = int(os.environ.get("AK_FUZZ_SEED", 1))
    dut._log.info("ak_coproc DMA fuzz: seed %d, %d jobs", seed, n)
    await DmaFuzz(dut, seed, n).run()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(n: int, seed: int, floor: int = 0) -> None:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files

    print(f"cocotb_coproc_dma_fuzz: seed {seed}, {n} jobs")
    run_cocotb(toplevel=SYS_TOP, sources=system_files(DEFAULT_CORE),
               test_module="test_coproc_dma_fuzz", test_dir=HERE, parameters={},
               testcase="cocotb_coproc_dma_fuzz", seed=seed,
               extra_env={"AK_FUZZ_N": n, "AK_FUZZ_SEED": seed, "AK_FUZZ_MIN": floor})


def test_coproc_dma_fuzz() -> None:
    """N_FAST random jobs against the misbehaving memory (same build as test_coproc.py)."""
    _run(N_FAST, seed=1)


@pytest.mark.slow
def test_coproc_dma_fuzz_long() -> None:
    """N_SLOW jobs, at least MIN_SLOW bus transactions (make test-full)."""
    _run(N_SLOW, seed=2, floor=MIN_SLOW)
