"""A misbehaving AXI4 memory for fuzzing an AXI4 *master* (ak_coproc's DMA): a
cycle-level slave on ``m_axi_*`` of this file (not cocotbext-axi's AxiRam, which
cannot answer an error on a chosen beat) that also checks the master against AXI4.

The memory (:class:`SparseMemory`) is the whole 32-bit byte space in 4 KiB pages made
on first touch (random content), so buffers may sit anywhere, up to the top of the
address space.

How it misbehaves (:class:`Profile`, chosen per job by the bench): ARREADY, AWREADY
and WREADY low for random stretches; a random latency from the AR handshake to the
first R beat; random gaps between R beats; random B latency and stretches of BVALID
held back; W accepted before its AW; junk on RDATA/RRESP/RLAST/BRESP while VALID is
low. Which beats fail is the bench's: :attr:`AxiMem.read_plan` gives the RRESP of
every beat of a read burst (SLVERR, DECERR on any beat; an error beat carries junk
or the memory's data), :attr:`AxiMem.write_plan` the BRESP of a write burst (a burst
answered with an error is not written to memory). Read bursts are answered strictly
in order (the master uses one ID), while write bursts, their data and their
responses run concurrently with them.

What it checks of the master, every cycle (:class:`ProtocolError` names the bench's
context, e.g. seed and job, and the burst's index):

* ARVALID, AWVALID, WVALID stay high until READY, with their payload unchanged;
* every AR and AW: ID 0, INCR, 4-byte beats (AxSIZE 2 = the 32-bit bus), an aligned
  address, AxLEN <= 15, no burst across a 4 KiB boundary and (the DMA's documented
  rule) none across a 64-byte boundary, AxLOCK 0, AxCACHE 0011, AxPROT 000;
* W beats belong to the AWs in order: WLAST exactly on beat AWLEN, so every burst has
  AWLEN + 1 data beats;
* no more than ``max_reads`` read bursts outstanding (AR handshake to last R beat),
  no more than ``max_writes`` write bursts waiting for B; BREADY high whenever BVALID
  is (docs/coproc.md: BREADY is always 1);
* with ``w_follows_aw`` (the DMA's documented "W never waits for data after AW"):
  from the cycle after an AW handshake until the burst's last W beat, WVALID is high.

Every burst, with its beats' responses and its W data and strobes, is logged
(:attr:`AxiMem.reads`, :attr:`AxiMem.writes`) for the bench's own checks (which
bursts a job issued, which bytes it wrote); :meth:`AxiMem.idle` tells whether every
issued burst has completed.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

OKAY, EXOKAY, SLVERR, DECERR = 0, 1, 2, 3
PAGE = 4096
#: AxCACHE the DMA uses (docs/coproc.md: "AxLOCK 0, AxCACHE 0011, AxPROT 000")
CACHE = 0b0011


class ProtocolError(AssertionError):
    """The master broke an AXI4 rule or a documented property of its bursts."""


class SparseMemory:
    """The 32-bit byte address space in 4 KiB pages, filled at random on first use."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.pages: dict[int, bytearray] = {}

    def _page(self, n: int) -> bytearray:
        p = self.pages.get(n)
        if p is None:
            p = self.pages[n] = bytearray(self.rng.randbytes(PAGE))
        return p

    def read(self, addr: int, n: int) -> bytes:
        out = bytearray()
        while n:
            off = addr % PAGE
            k = min(n, PAGE - off)
            out += self._page(addr // PAGE)[off:off + k]
            addr, n = addr + k, n - k
        return bytes(out)

    def write(self, addr: int, data: bytes) -> None:
        i = 0
        while i < len(data):
            off = addr % PAGE
            k = min(len(data) - i, PAGE - off)
            self._page(addr // PAGE)[off:off + k] = data[i:i + k]
            addr, i = addr + k, i + k

    def forget(self) -> None:
        """Drop every page (they come back with new random content)."""
        self.pages.clear()


class Stall:
    """When one channel side is ready: each cycle, with probability ``p``, a stretch of
    1..``max_len`` cycles of not ready begins."""

    def __init__(self) -> None:
        self.p = 0.0
        self.max_len = 1
        self.left = 0

    def set(self, p: float, max_len: int) -> None:
        self.p, self.max_len, self.left = p, max(1, max_len), 0

    def go(self, rng: random.Random) -> bool:
        if self.left:
            self.left -= 1
            return False
        if self.p and rng.random() < self.p:
            self.left = rng.randint(1, self.max_len) - 1
            return False
        return True


@dataclass
class Profile:
    """How the memory misbehaves (timing only; responses are the plans')."""

    name: str = "fast"
    ar: tuple[float, int] = (0.0, 1)      # READY-low stretches: (probability, max length)
    aw: tuple[float, int] = (0.0, 1)
    w: tuple[float, int] = (0.0, 1)
    r: tuple[float, int] = (0.0, 1)       # RVALID withheld (gaps between R beats)
    b: tuple[float, int] = (0.0, 1)       # BVALID withheld
    r_latency: tuple[int, int] = (0, 0)   # extra cycles AR handshake -> first R beat
    b_latency: tuple[int, int] = (0, 0)   # extra cycles last W beat -> B
    junk: bool = True                     # junk on R/B payload while VALID is low

    @staticmethod
    def random(rng: random.Random) -> Profile:
        """A fast, a jittery or a slow memory."""
        x = rng.random()
        if x < 0.2:
            return Profile("fast", r_latency=(0, 1), junk=rng.random() < 0.5)

        def ch(p: float, n: int) -> tuple[float, int]:
            return (rng.uniform(0, p), rng.randint(1, n))

        if x < 0.75:
            return Profile("jitter", ch(0.4, 6), ch(0.4, 6), ch(0.4, 6), ch(0.4, 6), ch(0.4, 6),
                           (0, rng.randint(0, 12)), (0, rng.randint(0, 12)))
        return Profile("slow", ch(0.3, 40), ch(0.3, 40), ch(0.3, 40), ch(0.3, 40), ch(0.3, 40),
                       (rng.randint(0, 8), rng.randint(8, 64)),
                       (rng.randint(0, 8), rng.randint(8, 64)))


@dataclass(eq=False)
class Burst:
    """One AR or AW and what followed it."""

    idx: int                # index in its log (reads and writes counted apart)
    write: bool
    addr: int
    beats: int              # AxLEN + 1
    cycle: int              # handshake cycle
    resps: list[int] = field(default_factory=list)   # reads: RRESP per beat (planned)
    resp: int = OKAY                                  # writes: BRESP (planned)
    data: list[tuple[int, int]] = field(default_factory=list)  # writes: (WDATA, WSTRB)
    sent: int = 0           # reads: beats taken; writes: B taken (1)
    next_cycle: int = 0     # reads: earliest cycle of the next beat; writes: of B
    done: bool = False

    def words(self) -> range:
        return range(self.addr // 4, self.addr // 4 + self.beats)

    def __str__(self) -> str:
        kind = "AW" if self.write else "AR"
        return f"{kind} #{self.idx} {self.addr:#010x} x{self.beats}"


Plan = Callable[[Burst], Any]


class AxiMem:
    """The AXI4 slave memory on the ``m_axi_*`` ports of ``dut``. Call :meth:`sample`
    right after each rising edge (the signals then show the values the edge sampled),
    then :meth:`drive`."""

    REQ = ("id", "addr", "len", "size", "burst", "lock", "cache", "prot")

    def __init__(self, dut: Any, rng: random.Random, *, max_reads: int, max_writes: int,
                 prefix: str = "m_axi", where: Callable[[], str] = lambda: "",
                 w_follows_aw: bool = False) -> None:
        self.rng = rng
        self.mem = SparseMemory(random.Random(rng.random()))
        self.max_reads = max_reads
        self.max_writes = max_writes
        self.where = where
        self.w_follows_aw = w_follows_aw
        s = {name: getattr(dut, f"{prefix}_{name}") for name in (
            [f"ar{n}" for n in self.REQ] + [f"aw{n}" for n in self.REQ] +
            ["arvalid", "arready", "rid", "rdata", "rresp", "rlast", "rvalid", "rready",
             "awvalid", "awready", "wdata", "wstrb", "wlast", "wvalid", "wready",
             "bid", "bresp", "bvalid", "bready"])}
        self.s = s
        self.ar_req = [s[f"ar{n}"] for n in self.REQ]
        self.aw_req = [s[f"aw{n}"] for n in self.REQ]
        self.st = {k: Stall() for k in ("ar", "aw", "w", "r", "b")}
        self.profile = Profile()
        self.read_plan: Plan = lambda b: [OKAY] * b.beats
        self.write_plan: Plan = lambda b: OKAY
        #: called when the last R beat of a burst has been taken
        self.on_read_done: Callable[[Burst], None] = lambda b: None
        self.reads: list[Burst] = []
        self.writes: list[Burst] = []
        self.rq: deque[Burst] = deque()        # read bursts not answered in full
        self.aw_open: deque[Burst] = deque()   # write bursts waiting for W beats
        self.w_early: deque[tuple[int, int, int]] = deque()  # W beats before their AW
        self.bq: deque[Burst] = deque()        # write bursts waiting for B
        self.reads_out = 0
        self.writes_out = 0
        self.frozen = False                    # AR and AW held not ready (bench's choice)
        self.ar_rdy = self.aw_rdy = self.w_rdy = 0
        self.r_on = self.b_on = False      # a beat / response is offered
        self.r_sig = self.b_sig = False    # RVALID / BVALID as driven
        self.ar_held: tuple[int, ...] | None = None
        self.aw_held: tuple[int, ...] | None = None
        self.w_held: tuple[int, int, int] | None = None
        self.stats = {k: 0 for k in ("AR", "AW", "R beats", "W beats", "B", "R errors",
                                     "B errors", "W before AW", "R held by master",
                                     "AR stalled", "AW stalled", "W stalled")}
        for name in ("arready", "awready", "wready", "rvalid", "bvalid"):
            s[name].value = 0
        for name in ("rid", "bid", "rdata", "rresp", "rlast", "bresp"):
            s[name].value = 0

    # --- configuration ------------------------------------------------------------
    def set_profile(self, p: Profile) -> None:
        self.profile = p
        for k in ("ar", "aw", "w", "r", "b"):
            self.st[k].set(*getattr(p, k))

    def idle(self) -> bool:
        """Every issued burst has completed (last R beat taken, B taken), no W beat
        waits for an AW."""
        return not (self.rq or self.aw_open or self.bq or self.w_early
                    or self.reads_out or self.writes_out)

    def transactions(self) -> int:
        st = self.stats
        return st["AR"] + st["AW"] + st["R beats"] + st["W beats"] + st["B"]

    def fail(self, msg: str) -> None:
        raise ProtocolError(f"{self.where()}: {msg}")

    # --- the cycle ----------------------------------------------------------------
    def sample(self, cycle: int) -> None:
        s = self.s
        w_due = self.aw_open[0] if self.aw_open else None   # W beats due since the last edge
        # AR
        if int(s["arvalid"].value):
            p = tuple(int(x.value) for x in self.ar_req)
            if self.ar_held is not None and p != self.ar_held:
                self.fail(f"AR payload changed while ARVALID waited for ARREADY: "
                          f"{self._req(self.ar_held)} -> {self._req(p)}")
            if self.ar_rdy:
                self.ar_held = None
                self._ar(p, cycle)
            else:
                self.ar_held = p
                self.stats["AR stalled"] += 1
        elif self.ar_held is not None:
            self.fail(f"ARVALID dropped before ARREADY ({self._req(self.ar_held)})")
        # AW
        if int(s["awvalid"].value):
            p = tuple(int(x.value) for x in self.aw_req)
            if self.aw_held is not None and p != self.aw_held:
                self.fail(f"AW payload changed while AWVALID waited for AWREADY: "
                          f"{self._req(self.aw_held)} -> {self._req(p)}")
            if self.aw_rdy:
                self.aw_held = None
                self._aw(p, cycle)
            else:
                self.aw_held = p
                self.stats["AW stalled"] += 1
        elif self.aw_held is not None:
            self.fail(f"AWVALID dropped before AWREADY ({self._req(self.aw_held)})")
        # W
        wvalid = int(s["wvalid"].value)
        if self.w_follows_aw and w_due is not None and not wvalid:
            self.fail(f"{w_due}: WVALID low with the burst's W beats due "
                      f"(documented: W never waits for data after AW)")
        if wvalid:
            w = (int(s["wdata"].value), int(s["wstrb"].value), int(s["wlast"].value))
            if self.w_held is not None and w != self.w_held:
                self.fail(f"W payload changed while WVALID waited for WREADY: "
                          f"{self.w_held} -> {w}")
            if self.w_rdy:
                self.w_held = None
                self.stats["W beats"] += 1
                if not self.aw_open:
                    self.stats["W before AW"] += 1
                self.w_early.append(w)
                self._match_w(cycle)
            else:
                self.w_held = w
                self.stats["W stalled"] += 1
        elif self.w_held is not None:
            self.fail("WVALID dropped before WREADY")
        # R
        if self.r_on:
            if int(s["rready"].value):
                self._r_taken(cycle)
            else:
                self.stats["R held by master"] += 1
        # B
        if self.b_on:
            if not int(s["bready"].value):
                self.fail("BREADY low while BVALID (documented: always 1)")
            b = self.bq.popleft()
            b.sent, b.done = 1, True
            self.b_on = False
            self.writes_out -= 1
            self.stats["B"] += 1

    def drive(self, cycle: int) -> None:
        s, rng = self.s, self.rng
        ar = int(not self.frozen and self.st["ar"].go(rng))
        if ar != self.ar_rdy:
            self.ar_rdy = ar
            s["arready"].value = ar
        aw = int(not self.frozen and self.st["aw"].go(rng))
        if aw != self.aw_rdy:
            self.aw_rdy = aw
            s["awready"].value = aw
        w = int(self.st["w"].go(rng))
        if w != self.w_rdy:
            self.w_rdy = w
            s["wready"].value = w
        # R: the oldest burst, beat by beat
        if not self.r_on:
            b = self.rq[0] if self.rq else None
            if b is not None and cycle >= b.next_cycle and self.st["r"].go(rng):
                i = b.sent
                resp = b.resps[i]
                if resp == OKAY or rng.random() < 0.5:
                    data = int.from_bytes(self.mem.read(b.addr + 4 * i, 4), "little")
                else:
                    data = rng.getrandbits(32)          # an error beat's data is junk
                s["rdata"].value = data
                s["rresp"].value = resp
                s["rlast"].value = int(i == b.beats - 1)
                s["rvalid"].value = 1
                self.r_on = self.r_sig = True
            else:
                if self.r_sig:
                    s["rvalid"].value = 0
                    self.r_sig = False
                if self.profile.junk and rng.random() < 0.3:
                    s["rdata"].value = rng.getrandbits(32)
                    s["rresp"].value = rng.getrandbits(2)
                    s["rlast"].value = rng.getrandbits(1)
        # B: in order
        if not self.b_on:
            b = self.bq[0] if self.bq else None
            if b is not None and cycle >= b.next_cycle and self.st["b"].go(rng):
                s["bresp"].value = b.resp
                s["bvalid"].value = 1
                self.b_on = self.b_sig = True
            else:
                if self.b_sig:
                    s["bvalid"].value = 0
                    self.b_sig = False
                if self.profile.junk and rng.random() < 0.3:
                    s["bresp"].value = rng.getrandbits(2)

    # --- internals ----------------------------------------------------------------
    def _req(self, p: tuple[int, ...]) -> str:
        return ", ".join(f"{n}={v:#x}" for n, v in zip(self.REQ, p))

    def _check_req(self, kind: str, p: tuple[int, ...], idx: int) -> tuple[int, int]:
        aid, addr, alen, size, burst, lock, cache, prot = p
        what = f"{kind} #{idx} ({self._req(p)})"
        if aid != 0:
            self.fail(f"{what}: ID {aid}, the DMA uses ID 0")
        if burst != 1:
            self.fail(f"{what}: AxBURST {burst}, not INCR")
        if size != 2:
            self.fail(f"{what}: AxSIZE {size}, not 2 (4-byte beats of the 32-bit bus)")
        if addr % 4:
            self.fail(f"{what}: address not aligned to the beat size")
        if alen > 15:
            self.fail(f"{what}: AxLEN {alen} > 15 (at most 16 beats, docs/coproc.md)")
        beats = alen + 1
        if addr % 4096 + 4 * beats > 4096:
            self.fail(f"{what}: burst crosses a 4 KiB boundary")
        if addr % 64 + 4 * beats > 64:
            self.fail(f"{what}: burst crosses a 64-byte boundary (docs/coproc.md)")
        if (lock, cache, prot) != (0, CACHE, 0):
            self.fail(f"{what}: AxLOCK/AxCACHE/AxPROT {lock}/{cache:04b}/{prot:03b}, "
                      f"documented 0/0011/000")
        return addr, beats

    def _ar(self, p: tuple[int, ...], cycle: int) -> None:
        addr, beats = self._check_req("AR", p, len(self.reads))
        b = Burst(len(self.reads), False, addr, beats, cycle)
        b.resps = list(self.read_plan(b))
        assert len(b.resps) == beats
        lo, hi = self.profile.r_latency
        b.next_cycle = cycle + 1 + self.rng.randint(lo, hi)
        self.reads.append(b)
        self.rq.append(b)
        self.reads_out += 1
        self.stats["AR"] += 1
        if self.reads_out > self.max_reads:
            self.fail(f"{b}: {self.reads_out} read bursts outstanding, at most "
                      f"{self.max_reads} (MaxReads)")

    def _aw(self, p: tuple[int, ...], cycle: int) -> None:
        addr, beats = self._check_req("AW", p, len(self.writes))
        b = Burst(len(self.writes), True, addr, beats, cycle)
        b.resp = int(self.write_plan(b))
        self.writes.append(b)
        self.aw_open.append(b)
        self.writes_out += 1
        self.stats["AW"] += 1
        if self.writes_out > self.max_writes:
            self.fail(f"{b}: {self.writes_out} write bursts wait for B, at most "
                      f"{self.max_writes} (MaxWrites)")
        self._match_w(cycle)

    def _match_w(self, cycle: int) -> None:
        """W beats to their AW, in order; WLAST exactly on beat AWLEN."""
        while self.w_early and self.aw_open:
            b = self.aw_open[0]
            data, strb, last = self.w_early.popleft()
            i = len(b.data)
            b.data.append((data, strb))
            if last != int(i == b.beats - 1):
                self.fail(f"{b}: W beat {i} has WLAST {last} (AWLEN + 1 = {b.beats} beats)")
            if b.resp == OKAY:
                addr = b.addr + 4 * i
                for k in range(4):
                    if strb >> k & 1:
                        self.mem.write(addr + k, bytes([data >> 8 * k & 0xFF]))
            if i == b.beats - 1:
                self.aw_open.popleft()
                lo, hi = self.profile.b_latency
                b.next_cycle = cycle + 1 + self.rng.randint(lo, hi)
                self.bq.append(b)
                if b.resp != OKAY:
                    self.stats["B errors"] += 1

    def _r_taken(self, cycle: int) -> None:
        b = self.rq[0]
        if b.resps[b.sent] != OKAY:
            self.stats["R errors"] += 1
        b.sent += 1
        self.r_on = False
        self.stats["R beats"] += 1
        b.next_cycle = cycle
        if b.sent == b.beats:
            b.done = True
            self.rq.popleft()
            self.reads_out -= 1
            if self.rq:
                self.rq[0].next_cycle = max(self.rq[0].next_cycle, cycle)
            self.on_read_done(b)
