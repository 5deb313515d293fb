"""Fuzzing of ak_axis_core's AXI4-Stream ports (``ak_axis_sys`` on pipe2, the build of
test_axis_core.py) with the cycle-level source and sink of :mod:`aeskit.verif.axis_fuzz`:
random TVALID gaps (none, short, long) with junk on the lines while TVALID is low,
random TREADY stalls on the output (short and long stretches), TLAST and TKEEP in
legal and illegal places (the ports have TKEEP; there is no TSTRB).

Traffic. Batches of 1..6 packets (back to back, or with gaps) in the configuration of
the moment; between batches, while the stream is idle, the registers are changed over
AXI4-Lite (cocotbext-axi's AxiLiteMaster): MODE (0..4, and now and then the refused
codes 9, 11, 15 with CTRL.MODE_HI; CCM, GCM, CMAC, XTS: test_axis_aead.py),
DECRYPT, the IV, a new key with LOAD_KEY (random KEY_LEN: 128/192/256 and the refused
3; junk in the KEY words a shorter key does not use), often sent without waiting for
STATUS.KEY_BUSY. The first packets run before any key is loaded. Packets:

* legal: 1..~40 beats (ECB/CBC whole blocks; CTR/CFB/OFB any length, the TLAST beat
  partial with TKEEP contiguous from lane 0 and junk in the other lanes);
* illegal framing (docs/axis_core.md "Packet errors"): a beat with TKEEP not
  contiguous from lane 0, TKEEP all zero, a partial beat without TLAST (ERROR.KEEP),
  a partial TLAST beat in ECB/CBC (ERROR.PARTIAL), anywhere in the packet, followed
  by random beats (good or bad) up to TLAST; a packet in mode 9, 11 or 15 (ERROR.MODE) or
  before any key (ERROR.NO_KEY);
* now and then a long packet P during which (after its first output beat) CTRL, the
  IV and the KEY words are rewritten, half the time with LOAD_KEY, sometimes followed by
  a second CTRL write (another KEY_LEN, with or without LOAD_KEY), while a random packet
  Q waits right behind P: P keeps the configuration of its first beat, Q gets the new
  one, with the key taken at the boundary (the KEY words of that moment, the KEY_LEN
  of the last LOAD_KEY write; refused: ERROR.KEY_LEN and the old key).

Checks, with the seed, batch and packet index in every failure: every input packet
gives exactly one output packet; a legal packet's output beats are exactly
`cryptography`'s (OpenSSL) result of the packet as one message from the IV, one beat
per input beat, the same TKEEP, zero in the lanes not kept, TLAST on the last beat
only, TUSER 0 (so no beat is lost, duplicated or reordered); an illegal packet gives
the processed beats before the bad one, then one closing beat of zeros with TKEEP all
ones, TLAST and TUSER 1; the ERROR register holds exactly the documented bits (sticky,
write 1 to clear; KEY_LEN for a refused LOAD_KEY, whose previous key stays in use);
STATUS after a batch: KEY_VALID as the model says, KEY_BUSY and IN_PACKET 0; the sink
checks every held output beat (TVALID and the payload stay until TREADY); nothing
hangs (no progress for :data:`HANG` cycles while output is due fails), and the stream
recovers for the next packet.

``AK_FUZZ_N`` (packets) / ``AK_FUZZ_SEED`` size the run: :data:`N_FAST` packets in
``make test``; the slow variant runs :data:`N_SLOW` and asserts at least
:data:`MIN_SLOW` stream beats (in + out).

Streamed builds (issue 47, "deep pipelines fed"): the same fuzzing where the input FIFO
is deep (a registered-read ``ak_fifo``, block RAM, and the segment bookkeeping that forms
the chunks) and PlainStream runs a packet as one engine message, extended while its
beats come: ``round`` with FifoDepth = :data:`DEEP_FAST_DEPTH` and PlainStream in
``make test``, ``ttable_unrolled`` as the registry builds it (PlainStream, FifoDepth
128) in the slow tier. There, one packet in :data:`LONG_SHARE` is long
(``AK_FUZZ_LONG``: up to that many beats, more than the FIFO holds, so the ring's
pointers wrap, the message is extended many times and broken wherever the FIFO runs
dry), legal or with a bad beat anywhere; the register-rewrite packet P is
``AK_FUZZ_SCRIBBLE`` beats long (on ``ttable_unrolled`` the output of 16 beats is over
before the writes are). The file
is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import logging
import os
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Event, RisingEdge, with_timeout

from aeskit.verif.axis_fuzz import Beat, StreamSink, StreamSource

HERE = Path(__file__).resolve().parent
RDL = HERE.parents[3] / "hw" / "systems" / "axis" / "axis_core.rdl"
#: the core under the wrapper: the one test_axis_core.py builds in make test
CORE = os.environ.get("AK_FUZZ_CORE", "pipe2")
#: the streamed build of make test: round with PlainStream and this FifoDepth (> 64:
#: the registered-read FIFO, block RAM)
DEEP_FAST_DEPTH = 128
#: with AK_FUZZ_LONG, the share of long packets
LONG_SHARE = 0.08
#: packets in make test, in the slow variant; stream beats the slow variant must reach
N_FAST, N_SLOW, MIN_SLOW = 800, 11_000, 100_000
#: cycles without a beat in or out, while output is due, that count as a hang
HANG = 20_000
#: beats of the packet during which the registers are rewritten
SCRIBBLE = int(os.environ.get("AK_FUZZ_SCRIBBLE", "16"))
#: the longest long packet (0: none), beats
LONG = int(os.environ.get("AK_FUZZ_LONG", "0"))
MODES = ("ecb", "cbc", "ctr", "cfb", "ofb")
KEY_BYTES = {0: 16, 1: 24, 2: 32}
FULL = 0xFFFF
CLOSE = Beat(0, FULL, 1, 1)


def layout() -> Any:
    from aeskit.gen.regs import layout as lay

    return lay(RDL)


def edge_iv(rng: random.Random) -> bytes:
    """A random IV; about a third of them end in 0xFF bytes, so that a CTR counter (the
    128-bit big-endian increment, carried from chunk to chunk by the wrapper) carries
    across 8, 32, 64 bits or wraps around 2^128 within the packet."""
    iv = rng.randbytes(16)
    if rng.random() < 0.3:
        k = rng.choice((1, 4, 8, 8, 12, 16, rng.randint(1, 16)))
        low = 0x100 - rng.randint(1, 6) if rng.random() < 0.7 else rng.randrange(0xC0, 0x100)
        iv = iv[:16 - k] + b"\xff" * (k - 1) + bytes([low])
    return iv


def contiguous(keep: int) -> bool:
    return keep != 0 and keep & (keep + 1) == 0


@dataclass
class Packet:
    idx: int
    kind: str
    beats: list[Beat]
    want: list[Beat]
    err: str            # ERROR field set by the packet ("" for none)

    def __str__(self) -> str:
        return f"packet {self.idx} ({self.kind}, {len(self.beats)} beats)"


class Config:
    """The registers as software wrote them, and the key the core holds."""

    def __init__(self) -> None:
        self.mode = 0
        self.dec = False
        self.key_len = 0
        self.iv = bytes(16)
        self.key_regs = bytes(32)
        self.key: bytes | None = None      # loaded in the core


def model(cfg: Config, beats: list[Beat]) -> tuple[list[Beat], str]:
    """The documented output of a packet and the ERROR field it sets."""
    from test_axis_core import expected

    if cfg.mode > 4:
        return [CLOSE], "MODE"
    if cfg.key is None:
        return [CLOSE], "NO_KEY"
    good, err = beats, ""
    for j, b in enumerate(beats):
        n = bin(b.keep).count("1")
        if not contiguous(b.keep) or (n != 16 and not b.last):
            good, err = beats[:j], "KEEP"
            break
        if cfg.mode in (0, 1) and n != 16:
            good, err = beats[:j], "PARTIAL"
            break
    sizes = [bin(b.keep).count("1") for b in good]
    data = b"".join(b.data.to_bytes(16, "little")[:n] for b, n in zip(good, sizes))
    res = expected(cfg.key, MODES[cfg.mode], cfg.dec, cfg.iv, data) if data else b""
    out, pos = [], 0
    for b, n in zip(good, sizes):
        out.append(Beat(int.from_bytes(res[pos:pos + n].ljust(16, b"\0"), "little"), b.keep,
                        b.last if not err else 0))
        pos += n
    return (out + [CLOSE] if err else out), err


class StreamFuzz:
    def __init__(self, dut: Any, seed: int, n: int) -> None:
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster

        from aeskit.hw import get_core

        self.dut = dut
        self.seed = seed
        self.n = n
        self.rng = random.Random(seed)
        self.lay = layout()
        self.key_sizes = {16 * s // 128 for s in get_core(CORE).key_sizes}
        logging.getLogger(f"cocotb.{dut._name}.s_axil").setLevel(logging.WARNING)
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i,
                                  dut.rst_ni, reset_active_level=False)
        self.src = StreamSource(dut, "s_axis", random.Random(seed + 1))
        self.sink = StreamSink(dut, "m_axis", random.Random(seed + 2), where=self.where)
        self.cfg = Config()
        self.pending: int | None = None     # KEY_LEN of the last LOAD_KEY not yet taken
        self.errors = 0                      # ERROR bits expected (sticky)
        self.cycle = 0
        self.due = 0                         # output packets expected
        self.got_pkts = 0
        self.progress = 0
        self.batch = 0
        self.pkt_idx = 0
        self.ev = Event()
        self.error: BaseException | None = None
        self.stats: Counter[str] = Counter()

    def where(self) -> str:
        return f"seed {self.seed}, batch {self.batch}, packets up to {self.pkt_idx}"

    # --- cycle loop -----------------------------------------------------------------
    async def loop(self) -> None:
        try:
            while True:
                await RisingEdge(self.dut.clk_i)
                self.cycle += 1
                if self.src.sample(self.cycle) is not None:
                    self.progress = self.cycle
                b = self.sink.sample(self.cycle)
                if b is not None:
                    self.progress = self.cycle
                    if b.last:
                        self.got_pkts += 1
                        if self.got_pkts > self.due:
                            raise AssertionError(f"{self.where()}: more output packets "
                                                 f"than input packets")
                        self.ev.set()
                if self.got_pkts < self.due and self.cycle - self.progress > HANG:
                    raise AssertionError(f"{self.where()}: no beat in or out for {HANG} "
                                         f"cycles, {self.due - self.got_pkts} output "
                                         f"packets due (hang)")
                self.src.drive(self.cycle)
                self.sink.drive(self.cycle)
        except AssertionError as e:
            self.error = e
            self.ev.set()

    def alive(self) -> None:
        if self.error is not None:
            raise self.error

    # --- registers ------------------------------------------------------------------
    def f(self, name: str, value: int) -> int:
        return self.lay.value(**{name.replace(".", "__"): value})

    async def wr(self, reg: str, value: int) -> None:
        r = await with_timeout(self.axil.write(self.lay.addr[reg], value.to_bytes(4, "little")),
                               100, "us")
        assert int(r.resp) == 0, f"{self.where()}: write {reg}: resp {int(r.resp)}"

    async def rd(self, reg: str) -> int:
        r = await with_timeout(self.axil.read(self.lay.addr[reg], 4), 100, "us")
        assert int(r.resp) == 0, f"{self.where()}: read {reg}: resp {int(r.resp)}"
        return int.from_bytes(r.data, "little")

    async def write_ctrl(self, load: bool) -> None:
        c = self.cfg
        await self.wr("CTRL", self.f("CTRL.MODE", c.mode & 7)
                      | self.f("CTRL.MODE_HI", c.mode >> 3) | self.f("CTRL.DECRYPT", int(c.dec))
                      | self.f("CTRL.KEY_LEN", c.key_len) | self.f("CTRL.LOAD_KEY", int(load)))
        if load:
            self.pending = c.key_len        # KEY_LEN goes with the LOAD_KEY write

    async def write_iv(self) -> None:
        for i in range(4):
            await self.wr(f"IV{i}", int.from_bytes(self.cfg.iv[4 * i:4 * i + 4], "little"))

    async def write_key(self) -> None:
        for i in range(8):
            await self.wr(f"KEY{i}", int.from_bytes(self.cfg.key_regs[4 * i:4 * i + 4], "little"))

    def take_key(self) -> None:
        """A pending LOAD_KEY is taken at the packet boundary: the KEY words of that
        moment with the KEY_LEN of the (last) LOAD_KEY write, or refused (ERROR.KEY_LEN,
        the previous key stays)."""
        if self.pending is None:
            return
        size = KEY_BYTES.get(self.pending)
        if size in self.key_sizes:
            self.cfg.key = self.cfg.key_regs[:size]
            self.stats[f"LOAD_KEY {8 * size}"] += 1
        else:
            self.stats["LOAD_KEY refused"] += 1
            self.errors |= self.f("ERROR.KEY_LEN", 1)
        self.pending = None

    async def reconfigure(self) -> None:
        """While the stream is idle: a random subset of key, mode, direction and IV."""
        rng, c = self.rng, self.cfg
        load = rng.random() < (0.9 if c.key is None and self.batch > 2 else 0.2)
        if load:
            c.key_regs = rng.randbytes(32)
            await self.write_key()
            c.key_len = rng.choice((0, 1, 2, 0, 1, 2, 3))
        if rng.random() < 0.6 or load:
            c.mode = rng.choice((0, 1, 2, 3, 4) * 6 + (9, 11, 15))
            c.dec = rng.random() < 0.5
            await self.write_ctrl(load)
        if rng.random() < 0.6:
            c.iv = edge_iv(rng)
            await self.write_iv()
        if load and rng.random() < 0.5:
            for _ in range(100):
                st = await self.rd("STATUS")
                if not self.lay.get(st, "STATUS.KEY_BUSY"):
                    break
            else:
                raise AssertionError(f"{self.where()}: KEY_BUSY stays set while idle")
        self.take_key()

    # --- packets --------------------------------------------------------------------
    def beat(self, keep: int, last: bool) -> Beat:
        return Beat(self.rng.getrandbits(128), keep, int(last))

    def packet(self, mode: int) -> tuple[str, list[Beat]]:
        """Beats of a random packet for ``mode`` (legal or with a bad beat somewhere)."""
        rng = self.rng
        nb = rng.choice((1, 1, 2, 3, 4, 5, rng.randint(1, 12), rng.randint(1, 40)))
        if LONG and rng.random() < LONG_SHARE:
            nb = rng.randint(LONG // 3, LONG)
        whole = mode in (0, 1)
        kind = "legal" if rng.random() < 0.75 else rng.choice(
            ("holes", "empty", "partial-mid", "partial-ecb"))
        if kind == "partial-ecb" and not whole:
            kind = "legal"
        if kind == "partial-mid" and nb == 1:
            nb = 2
        beats = [self.beat(FULL, i == nb - 1) for i in range(nb)]
        if kind == "legal" and not whole and rng.random() < 0.7:
            beats[-1] = self.beat((1 << rng.randint(1, 16)) - 1, True)
        bad = rng.randrange(nb)
        if kind == "holes":
            keep = rng.randrange(1, FULL)
            while contiguous(keep):
                keep = rng.randrange(1, FULL)
            beats[bad] = self.beat(keep, bad == nb - 1)
        elif kind == "empty":
            beats[bad] = self.beat(0, bad == nb - 1)
        elif kind == "partial-mid":
            bad = rng.randrange(nb - 1)
            beats[bad] = self.beat((1 << rng.randint(1, 15)) - 1, False)
        elif kind == "partial-ecb":
            bad = nb - 1
            beats[bad] = self.beat((1 << rng.randint(1, 15)) - 1, True)
        if kind != "legal":
            for i in range(bad + 1, nb):        # whatever follows the bad beat
                if rng.random() < 0.3:
                    beats[i] = self.beat(rng.getrandbits(16), i == nb - 1)
        return kind, beats

    def profile(self) -> None:
        """Timing of the batch: TVALID gaps and TREADY stalls."""
        rng = self.rng
        gap = rng.choice(((0.0, 1), (0.0, 1), (0.3, 3), (0.6, 8), (0.1, 60)))
        stall = rng.choice(((0.0, 1), (0.3, 3), (0.5, 10), (0.05, 80), (0.8, 4)))
        self.src.gap.set(*gap)
        self.sink.stall.set(*stall)
        self.src.junk = rng.random() < 0.8
        self.stats["back to back" if gap[0] == 0 else "TVALID gaps"] += 1
        self.stats["never stalled" if stall[0] == 0 else "TREADY stalls"] += 1

    def make_packet(self, kind: str, beats: list[Beat]) -> Packet:
        """A packet with its documented output in the configuration of the moment."""
        want, err = model(self.cfg, beats)
        self.pkt_idx += 1
        if err:
            self.errors |= self.f(f"ERROR.{err}", 1)
        if LONG and len(beats) >= LONG // 3:
            self.stats["long packet " + ("legal" if not err else
                                         "bad beat" if err in ("KEEP", "PARTIAL") else
                                         "refused")] += 1
        self.stats[f"packet {kind}" + (f" -> {err}" if err else "")] += 1
        return Packet(self.pkt_idx, kind, beats, want, err)

    async def run_batch(self, scribble: bool) -> None:
        """Packets out and back, compared beat by beat with the model. A scribble
        batch is a long legal packet P during which the registers are rewritten and a
        random packet Q queued right behind it (in the FIFO while the configuration
        changes): P keeps its configuration, Q gets the new one."""
        rng = self.rng
        self.profile()
        first = len(self.sink.beats)
        if scribble:
            new = (rng.choice((0, 1, 2, 3, 4, 9, 11, 15)), rng.random() < 0.5)
            p = self.make_packet("legal", [self.beat(FULL, i == SCRIBBLE - 1)
                                           for i in range(SCRIBBLE)])
            q_kind, q_beats = self.packet(new[0])
            pkts = [p]
            self.src.q.extend(p.beats + q_beats)
            self.due += 2
            self.progress = self.cycle
            await self.scribble(first, *new)
            self.take_key()                 # at the boundary between P and Q
            pkts.append(self.make_packet(q_kind, q_beats))
        else:
            pkts = [self.make_packet(*self.packet(self.cfg.mode))
                    for _ in range(rng.choice((1, 1, 2, 3, 6)))]
            self.due += len(pkts)
            self.progress = self.cycle
            for p in pkts:
                self.src.q.extend(p.beats)
        while self.got_pkts < self.due and self.error is None:
            self.ev.clear()
            await self.ev.wait()
        self.alive()
        got = self.sink.beats[first:]
        for p in pkts:
            n = len(p.want)
            out, got = got[:n], got[n:]
            if out != p.want:
                bad = next((i for i, (a, b) in enumerate(zip(out, p.want)) if a != b),
                           min(len(out), n))
                raise AssertionError(
                    f"{self.where()}: {p}: output beat {bad} of {len(out)}: "
                    f"{out[bad] if bad < len(out) else 'missing'}, documented "
                    f"{p.want[bad] if bad < n else 'none'} (error {p.err or '-'})")
        assert not got, f"{self.where()}: {len(got)} output beats beyond the packets"
        assert self.src.idle(), f"{self.where()}: input beats left"

    async def scribble(self, first: int, mode: int, dec: bool) -> None:
        """After P's first output beat: CTRL (MODE, DECRYPT, KEY_LEN, half the time
        LOAD_KEY), the IV and the KEY words rewritten, sometimes a second CTRL write
        (another KEY_LEN, with or without LOAD_KEY); all of it lands before P ends."""
        rng, c = self.rng, self.cfg
        for _ in range(HANG):
            if len(self.sink.beats) > first or self.error is not None:
                break
            await ClockCycles(self.dut.clk_i, 1)
        self.alive()
        c.mode, c.dec, c.key_len = mode, dec, rng.randrange(4)
        await self.write_ctrl(rng.random() < 0.5)
        c.iv, c.key_regs = edge_iv(rng), rng.randbytes(32)
        await self.write_iv()
        await self.write_key()
        if rng.random() < 0.3:
            c.key_len = rng.randrange(4)
            await self.write_ctrl(rng.random() < 0.5)
            self.stats["second CTRL write mid-packet"] += 1
        assert len(self.sink.beats) - first < SCRIBBLE, \
            f"{self.where()}: the register writes took longer than the packet"
        self.stats["registers rewritten mid-packet"] += 1

    async def check_status(self) -> None:
        """After a batch: ERROR exactly the documented bits (then cleared, all or some);
        STATUS KEY_VALID as the model, KEY_BUSY and IN_PACKET 0."""
        w = self.where()
        self.take_key()                     # a pending key was loaded at the last boundary
        busy = self.f("STATUS.KEY_BUSY", 1) | self.f("STATUS.IN_PACKET", 1)
        for _ in range(50):                 # the packet's end reaches the control a few
            st = await self.rd("STATUS")    # cycles after its last output beat
            if not st & busy:
                break
        want = self.f("STATUS.KEY_VALID", int(self.cfg.key is not None))
        assert st == want, f"{w}: STATUS {st:#x}, documented {want:#x}"
        err = await self.rd("ERROR")
        assert err == self.errors, f"{w}: ERROR {err:#x}, documented {self.errors:#x}"
        if err:
            clr = err if self.rng.random() < 0.7 else self.rng.getrandbits(32)
            await self.wr("ERROR", clr)
            self.errors &= ~clr

    async def run(self) -> None:
        d = self.dut
        d.rst_ni.value = 0
        await ClockCycles(d.clk_i, 3)
        d.rst_ni.value = 1
        await ClockCycles(d.clk_i, 2)
        cocotb.start_soon(self.loop())
        while self.pkt_idx < self.n:
            self.batch += 1
            if self.batch > 1:
                await self.reconfigure()
            scribble = (self.cfg.key is not None and self.cfg.mode <= 4
                        and self.rng.random() < 0.04)
            await self.run_batch(scribble)
            await self.check_status()
        self.alive()
        self.report()

    def report(self) -> None:
        beats = self.src.sent + len(self.sink.beats)
        self.dut._log.info("stream fuzz: seed %d, %d packets in %d batches, %d cycles, %d beats "
                           "(%d in, %d out), output held %d cycles; %s", self.seed,
                           self.pkt_idx, self.batch, self.cycle, beats, self.src.sent,
                           len(self.sink.beats), self.sink.held_cycles,
                           ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items())))
        if self.n >= N_FAST:
            want = ["packet legal", "LOAD_KEY refused", "registers rewritten mid-packet",
                    "second CTRL write mid-packet",
                    "TVALID gaps", "TREADY stalls", "back to back"]
            want += [f"packet {k} -> {e}" for k, e in (
                ("holes", "KEEP"), ("empty", "KEEP"), ("partial-mid", "KEEP"),
                ("partial-ecb", "PARTIAL"), ("legal", "MODE"), ("legal", "NO_KEY"))]
            want += [f"LOAD_KEY {b}" for b in (128, 192, 256)]
            missing = [k for k in want if not self.stats[k]]
            assert not missing, f"seed {self.seed}: never exercised: {missing}"
        if LONG:
            missing = [k for k in ("long packet legal", "long packet bad beat", "TREADY stalls",
                                   "TVALID gaps", "back to back") if not self.stats[k]]
            assert not missing, f"seed {self.seed}: never exercised: {missing}"
        floor = int(os.environ.get("AK_FUZZ_MIN", "0"))
        assert beats >= floor, f"seed {self.seed}: {beats} stream beats, wanted {floor}"


@cocotb.test()
async def cocotb_axis_stream_fuzz(dut: Any) -> None:
    """Random packets through ak_axis_core (see the module docstring)."""
    n = int(os.environ.get("AK_FUZZ_N", N_FAST))
    seed = int(os.environ.get("AK_FUZZ_SEED", 5))
    dut._log.info("ak_axis_core stream fuzz: seed %d, %d packets", seed, n)
    await StreamFuzz(dut, seed, n).run()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(n: int, seed: int, floor: int = 0, core: str = CORE, fifo_depth: int | None = None,
         stream: bool | None = None, env: dict | None = None) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.hw.systems.axis import SYS_TOP, system_files
    from aeskit.sim.cocotb_run import run_cocotb

    spec = get_core(core)
    sub = core if fifo_depth is None else f"{core}_d{fifo_depth}" + ("_s" if stream else "")
    print(f"cocotb_axis_stream_fuzz: {sub}, seed {seed}, {n} packets")
    run_cocotb(toplevel=SYS_TOP,
               sources=system_files(spec, BUILD_ROOT / "axis_sys_src" / sub,
                                    fifo_depth=fifo_depth, stream=stream),
               test_module="test_axis_stream_fuzz", test_dir=HERE, parameters={},
               testcase="cocotb_axis_stream_fuzz", seed=seed, includes=spec.include_paths(),
               extra_env={"AK_FUZZ_N": n, "AK_FUZZ_SEED": seed, "AK_FUZZ_MIN": floor,
                          "AK_FUZZ_CORE": core, **(env or {})})


def test_axis_stream_fuzz() -> None:
    """N_FAST random packets on ak_axis_core (same build as test_axis_core.py)."""
    _run(N_FAST, seed=5)


@pytest.mark.slow
def test_axis_stream_fuzz_long() -> None:
    """N_SLOW packets, at least MIN_SLOW stream beats (make test-full)."""
    _run(N_SLOW, seed=6, floor=MIN_SLOW)


def test_axis_stream_fuzz_deep() -> None:
    """The streamed build's RTL on a small core: round with PlainStream (a packet as one
    engine message, extended as it comes) and FifoDepth = DEEP_FAST_DEPTH (block RAM,
    segment bookkeeping); long packets of up to 2.5 FIFOs among the short ones, every
    error rule, back-pressure on both streams (make test's one deep-FIFO build)."""
    _run(300, seed=8, core="round", fifo_depth=DEEP_FAST_DEPTH, stream=True,
         env={"AK_FUZZ_LONG": 5 * DEEP_FAST_DEPTH // 2})


@pytest.mark.slow
def test_axis_stream_fuzz_deep_ttable() -> None:
    """ttable_unrolled as the registry builds it (PlainStream, FifoDepth 128 in block RAM):
    long packets of up to 2,600 beats among the short ones, errors, back-pressure (make
    test-full)."""
    _run(400, seed=9, core="ttable_unrolled",
         env={"AK_FUZZ_LONG": 2600, "AK_FUZZ_SCRIBBLE": 300})
