"""AHB-Lite bus fuzzing: a cycle-level AHB-Lite master (:class:`AhbMaster`) and the
fuzz loop around it (:class:`AhbFuzz`), the engine of
tests/hw/systems/cipher_ahb/test_cipher_ahb_ahb_fuzz.py (``ak_cipher_ahb``). The
endpoint subclasses :class:`AhbFuzz` with its decode, its reference model and its
traffic; :class:`AhbRegFuzz` is the part every register slave shares (a register map
from its .rdl, :class:`aeskit.verif.busfuzz.RegModel`).

What the master does (AMBA 3 AHB-Lite, one master): address phases at the edges where
HREADY is high, write data in the data phase only (random junk on HWDATA outside it,
and on HADDR, HWRITE and HSIZE while HTRANS is IDLE), every kind of HTRANS: NONSEQ
singles, bursts of NONSEQ + SEQ beats (incrementing or wrapping addresses) with BUSY
cycles between beats (a BUSY carries the next beat's address), random IDLE gaps and
back-to-back (pipelined) transfers; an IDLE replaced by a NONSEQ while HREADY is low
(the one change of an address phase a wait state allows); and after the first cycle of
an ERROR response it may cancel the transfer waiting in its address phase (drive IDLE
instead, which the slave then samples; the rest of a cancelled burst is dropped), as a
master is allowed to. Any size and alignment: the slave decides what is legal.

What is checked, every cycle: the data phase of each transfer, cycle by cycle, as
(HREADY, HRESP) pairs against the alternatives the endpoint allows for it
(:class:`Alt`: so many wait states, then an exact tail; e.g. OKAY after one wait
state, the two-cycle ERROR response with HREADY low in its first cycle and high in its
second); the data phase of IDLE and BUSY (zero-wait OKAY); HRDATA of reads against the
model. A data phase fails in the cycle it can no longer become any of its alternatives
(so one longer than the longest is a hang, caught at once), and no completed transfer
for :data:`aeskit.verif.busfuzz.HANG` cycles is a hang too. Every failure names the seed,
the transfer index and the transfer.

Transfers are applied to the endpoint's model when their address phase is accepted
(:meth:`AhbFuzz.accept`): AHB-Lite completes them in that order, and the previous
transfer completes at the same edge. A transfer whose outcome the model cannot know in
advance (a FIFO window that may wait) lists several alternatives; which one happened is
given to :meth:`AhbFuzz.complete` before the next transfer is accepted.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from aeskit.verif.busfuzz import MASK32, Reg, RegModel, Stats, Watchdog, load_regs

__all__ = ["BUSY", "IDLE", "NONSEQ", "SEQ", "ZERO_WAIT", "Alt", "AhbFuzz", "AhbMaster",
           "AhbRegFuzz", "Xfer", "error_after", "feasible", "match", "ok_after"]

IDLE, BUSY, NONSEQ, SEQ = 0, 1, 2, 3
TRANS = {IDLE: "IDLE", BUSY: "BUSY", NONSEQ: "NONSEQ", SEQ: "SEQ"}
Phase = tuple[int, int]   # (HREADY, HRESP) in one cycle of a data phase


@dataclass(frozen=True)
class Alt:
    """One allowed data phase: ``lo``..``hi`` wait states (HREADY low, OKAY), then
    exactly ``tail``. ``label`` ("ok", "error") is what the master concludes."""

    label: str
    lo: int
    hi: int
    tail: tuple[Phase, ...]

    def __str__(self) -> str:
        waits = f"{self.lo}" if self.lo == self.hi else f"{self.lo}..{self.hi}"
        return f"{self.label} ({waits} x (0, 0) then {list(self.tail)})"


def ok_after(lo: int, hi: int | None = None) -> Alt:
    """OKAY after ``lo``..``hi`` wait states."""
    return Alt("ok", lo, lo if hi is None else hi, ((1, 0),))


def error_after(lo: int, hi: int | None = None) -> Alt:
    """The two-cycle ERROR response (HREADY low, then high, HRESP ERROR in both) after
    ``lo``..``hi`` wait states."""
    return Alt("error", lo, lo if hi is None else hi, ((0, 1), (1, 1)))


#: the data phase of IDLE and BUSY: one cycle, HREADY high, OKAY
ZERO_WAIT = (ok_after(0),)


def match(trace: list[Phase], alts: Iterable[Alt]) -> Alt | None:
    k = 0
    while k < len(trace) and trace[k] == (0, 0):
        k += 1
    tail = tuple(trace[k:])
    for a in alts:
        if a.lo <= k <= a.hi and tail == a.tail:
            return a
    return None


def feasible(trace: list[Phase], alts: Iterable[Alt]) -> bool:
    """Whether an unfinished data phase can still become one of ``alts``."""
    k = 0
    while k < len(trace) and trace[k] == (0, 0):
        k += 1
    rest = tuple(trace[k:])
    for a in alts:
        if not rest and k <= a.hi:
            return True
        if rest and a.lo <= k <= a.hi and a.tail[:len(rest)] == rest and len(rest) < len(a.tail):
            return True
    return False


@dataclass(eq=False)
class Xfer:
    """One transfer (or a BUSY cycle of a burst) and, once accepted, what it must get."""

    idx: int
    trans: int
    addr: int
    write: bool
    size: int = 2
    data: int = 0           # write data
    burst: int = 0          # the beats of one burst share a nonzero number
    last: bool = True       # the last beat of its burst (singles: True)
    keep: bool = False      # never cancelled (a transfer the software needs)
    # set by the endpoint when the address phase is accepted
    alts: tuple[Alt, ...] = ()
    want: int = 0           # a read's expected HRDATA ...
    mask: int = 0           # ... in these bits
    note: str = ""          # what the endpoint decoded (for messages and coverage)
    tag: Any = None         # the endpoint's own mark (e.g. what the software expects)
    # set by the master
    trace: list[Phase] = field(default_factory=list)
    accepted: int = 0
    rdata: int = 0
    outcome: str = ""       # the label of the alternative that happened
    cancelled: bool = False

    def __str__(self) -> str:
        rw = "write" if self.write else "read"
        what = f"{TRANS[self.trans]} {rw} {self.addr:#010x} HSIZE {self.size}"
        if self.write and self.trans >= NONSEQ:
            what += f" data {self.data:#010x}"
        return what + (f" ({self.note})" if self.note else "")


class AhbMaster:
    """The cycle-level master on the ``<prefix>h*`` signals. Call :meth:`sample` right
    after each rising edge (signals then hold their values before the edge), let the
    caller load the next address phase, then :meth:`drive`."""

    def __init__(self, dut: Any, rng: random.Random, prefix: str = "ahb_") -> None:
        def sig(name: str) -> Any:
            return getattr(dut, f"{prefix}h{name}")

        self.haddr, self.htrans, self.hwrite, self.hsize = map(
            sig, ("addr", "trans", "write", "size"))
        self.hwdata, self.hrdata, self.hready, self.hresp = map(
            sig, ("wdata", "rdata", "ready", "resp"))
        self.rng = rng
        self.addr: Xfer | None = None      # in its address phase (None: IDLE)
        self.data: Xfer | None = None      # in its data phase (None: an IDLE's, or none)
        self.p_cancel = 0.5
        self.stats = Stats()
        self._driven_addr: Xfer | None = None
        self._driven_data: Xfer | None = None
        self._idle_data = False            # the data phase of an IDLE is this cycle
        self.hready_low = False            # HREADY was low at the last edge
        self.htrans.value = IDLE
        self.hwdata.value = 0

    def busy(self) -> bool:
        return self.addr is not None or self.data is not None

    def sample(self, cycle: int) -> tuple[Xfer | None, Xfer | None, Xfer | None]:
        """(transfer completed, transfer accepted, transfer cancelled) at this edge."""
        hready = int(self.hready.value)
        hresp = int(self.hresp.value)
        self.hready_low = not hready
        done = None
        d = self.data
        if d is not None:
            d.trace.append((hready, hresp))
            if hready:
                if not d.write:
                    d.rdata = int(self.hrdata.value)
                done, self.data = d, None
            elif not feasible(d.trace, d.alts):
                raise AssertionError(f"transfer {d.idx}: {d}: data phase (HREADY, HRESP) "
                                     f"{d.trace[-8:]} ({len(d.trace)} cycles, unfinished) "
                                     f"cannot become any allowed: {', '.join(map(str, d.alts))}")
        elif self._idle_data:
            assert (hready, hresp) == (1, 0), \
                f"(HREADY, HRESP) = {(hready, hresp)} in the data phase of an IDLE"
            self.stats.count("IDLE")
        acc = cancelled = None
        if hready:
            acc, self.addr = self.addr, None
            self.data = acc
            self._idle_data = acc is None
            if acc is not None:
                acc.accepted = cycle
                if done is not None and done.trans >= NONSEQ and acc.trans >= NONSEQ:
                    self.stats.count("back to back")
        else:
            self._idle_data = False
            if self.addr is not None:
                self.stats.count("address phase waited (HREADY low)")
                if hresp and d is not None and not self.addr.keep \
                        and self.rng.random() < self.p_cancel:
                    cancelled, self.addr = self.addr, None     # IDLE at the second ERROR cycle
                    cancelled.cancelled = True
                    self.stats.count("cancelled after ERROR")
        return done, acc, cancelled

    def load(self, x: Xfer, hready_low: bool) -> None:
        assert self.addr is None
        if hready_low:
            self.stats.count("IDLE changed to NONSEQ while HREADY low")
        self.addr = x

    def drive(self) -> None:
        rng = self.rng
        a = self.addr
        if a is not self._driven_addr:
            self._driven_addr = a
            if a is None:
                self.htrans.value = IDLE
                if rng.random() < 0.5:                  # address and control: junk
                    self.haddr.value = rng.getrandbits(32)
                    self.hwrite.value = rng.getrandbits(1)
                    self.hsize.value = rng.getrandbits(3)
            else:
                self.htrans.value = a.trans
                self.haddr.value = a.addr
                self.hwrite.value = int(a.write)
                self.hsize.value = a.size
        d = self.data
        if d is not self._driven_data:
            self._driven_data = d
            if d is not None and d.write and d.trans >= NONSEQ:
                self.hwdata.value = d.data
            else:
                self.hwdata.value = rng.getrandbits(32)     # no write data phase: junk


Barrier = Callable[[], Awaitable[None]]
Item = Union[Xfer, Barrier]


class AhbFuzz:
    """The fuzz loop: :meth:`pump` runs transfers and barriers through an
    :class:`AhbMaster`; the endpoint implements :meth:`accept` (expectation, model
    update) and may extend :meth:`complete` and :meth:`tick`."""

    #: probability of BUSY cycles before the next beat of a burst
    p_busy = 0.25

    def __init__(self, dut: Any, seed: int, *, clk: Any, prefix: str = "ahb_") -> None:
        self.dut = dut
        self.clk = clk
        self.seed = seed
        self.rng = random.Random(seed)
        self.master = AhbMaster(dut, random.Random(seed + 1), prefix)
        self.stats = self.master.stats
        self.watchdog = Watchdog()
        self.cycle = 0
        self.idx = 0
        self.bursts = 0
        cocotb.start_soon(Clock(clk, 10, unit="ns").start())

    # --- hooks --------------------------------------------------------------------
    def accept(self, x: Xfer) -> None:
        """A NONSEQ/SEQ transfer's address phase was accepted: set ``x.alts`` (and for
        a read ``x.want``/``x.mask``), apply it to the model."""
        raise NotImplementedError

    def complete(self, x: Xfer) -> None:
        """A transfer completed: check its data phase and read data."""
        a = match(x.trace, x.alts)
        where = f"transfer {x.idx}: {x}"
        assert a is not None, (f"{where}: data phase (HREADY, HRESP) {x.trace}, allowed: "
                               f"{', '.join(map(str, x.alts))}")
        x.outcome = a.label
        if x.trans >= NONSEQ:
            self.stats.count(f"{'write' if x.write else 'read'} {a.label}")
        if not x.write and a.label == "ok":
            assert (x.rdata ^ x.want) & x.mask == 0, \
                f"{where}: HRDATA {x.rdata:#010x}, model says {x.want:#010x} (bits {x.mask:#010x})"

    def tick(self) -> None:
        """Once per cycle, after the edge: drive the bench's other inputs."""

    # --- transfers ------------------------------------------------------------------
    def xfer(self, write: bool, addr: int, data: int = 0, size: int = 2, *,
             keep: bool = False) -> Xfer:
        """A single (NONSEQ) transfer."""
        self.idx += 1
        return Xfer(self.idx, NONSEQ, addr & MASK32, write, size, data & MASK32, keep=keep)

    def burst(self, write: bool, addrs: list[int], data: list[int], size: int = 2, *,
              keep: bool = False) -> list[Xfer]:
        """NONSEQ + SEQ beats at ``addrs``."""
        self.bursts += 1
        out = []
        for i, (a, v) in enumerate(zip(addrs, data, strict=True)):
            self.idx += 1
            out.append(Xfer(self.idx, SEQ if i else NONSEQ, a & MASK32, write, size,
                            v & MASK32, burst=self.bursts, last=i == len(addrs) - 1,
                            keep=keep))
        return out

    @staticmethod
    def burst_addrs(start: int, beats: int, size: int, wrap: bool) -> list[int]:
        """Beat addresses of an incrementing burst, or of a wrapping one (WRAP4/8/16:
        inside a ``beats << size``-byte aligned block)."""
        step = 1 << size
        if not wrap:
            return [(start + i * step) & MASK32 for i in range(beats)]
        span = beats * step
        base = start & ~(span - 1)
        return [(base + ((start - base + i * step) % span)) & MASK32 for i in range(beats)]

    def gap(self) -> int:
        x = self.rng.random()
        return 0 if x < 0.6 else 1 if x < 0.75 else self.rng.randint(2, 6)

    # --- the cycle loop -----------------------------------------------------------
    async def pump(self, items: Iterable[Item]) -> None:
        """Run ``items`` (transfers, the beats of a burst consecutive; barriers: drain
        the bus, then await them)."""
        m = self.master
        it: Iterator[Item] = iter(items)
        item = next(it, None)
        wait = self.gap()
        in_burst = 0                        # the burst whose next beat is due (0: none)
        busy_left = 0
        while True:
            await RisingEdge(self.clk)
            self.cycle += 1
            try:
                done, acc, cancelled = m.sample(self.cycle)
                if done is not None:
                    self.watchdog.progress(self.cycle)
                    self.complete(done)
                if acc is not None:
                    if acc.trans == BUSY:
                        acc.alts = ZERO_WAIT
                        self.stats.count("BUSY")
                    else:
                        self.accept(acc)
                if cancelled is not None and cancelled.burst:
                    while isinstance(item, Xfer) and item.burst == cancelled.burst:
                        item = next(it, None)
                    in_burst = busy_left = 0
                self.watchdog.check(self.cycle, m.busy(), lambda: f"{m.addr} / {m.data}")
            except AssertionError as e:
                raise AssertionError(f"seed {self.seed}, cycle {self.cycle}: {e}") from None
            hready_low = m.hready_low
            self.tick()
            if m.addr is None:
                if in_burst:
                    assert isinstance(item, Xfer) and item.burst == in_burst
                    if busy_left or self.rng.random() < self.p_busy:
                        busy_left = busy_left - 1 if busy_left else self.rng.randint(0, 2)
                        self.idx += 1
                        m.load(Xfer(self.idx, BUSY, item.addr, item.write, item.size,
                                    burst=item.burst, keep=item.keep), False)
                    else:
                        m.load(item, False)
                        if item.last:
                            in_burst = 0
                        item = next(it, None)
                elif wait:
                    wait -= 1
                elif isinstance(item, Xfer):
                    m.load(item, hready_low)
                    if not item.last:
                        in_burst = item.burst
                    item, wait = next(it, None), self.gap()
            m.drive()
            if not isinstance(item, Xfer) and not m.busy() and not in_burst:
                if item is None:
                    return
                await item()
                item = next(it, None)

    async def do(self, xfers: Iterable[Xfer]) -> list[Xfer]:
        """Run transfers; return them (completed, or cancelled)."""
        xs = list(xfers)
        await self.pump(xs)
        return xs

    async def reset(self) -> None:
        """Reset with the bus idle."""
        assert not self.master.busy()
        self.dut.rst_ni.value = 0
        await ClockCycles(self.clk, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.clk, 2)
        self.stats.count("resets")


class AhbRegFuzz(AhbFuzz):
    """A register slave whose map is an .rdl: legal transfers are the map's (size
    ``legal_size``, aligned), others get :attr:`size_error`; a mapped register the map
    allows gets :attr:`reg_ok`, an unmapped address or a refused direction (aeskit-bad-rw)
    :attr:`reg_error`. The endpoint sets the patterns and :meth:`decode`."""

    rdl: Path
    legal_size = 2
    reg_ok: tuple[Alt, ...] = (ok_after(1),)
    reg_error: tuple[Alt, ...] = (error_after(1),)
    size_error: tuple[Alt, ...] = (error_after(0),)

    def __init__(self, dut: Any, seed: int, *, clk: Any, prefix: str = "ahb_") -> None:
        from aeskit.gen.regs import regmap

        super().__init__(dut, seed, clk=clk, prefix=prefix)
        self.regs, self.width = load_regs(self.rdl)
        self.model = RegModel(self.regs, regmap(self.rdl).bad_rw_error)
        self.by_off = {r.addr: r for r in self.regs}
        self.by_name = {r.name: r for r in self.regs}
        self.holes = [a for a in range(0, 1 << self.width, 4) if a not in self.by_off]
        #: fields whose value hardware may change now: not compared
        self.volatile: frozenset[str] = frozenset()

    def decode(self, addr: int) -> int | None:
        """The map offset this slave sees for ``addr`` (None: not this slave)."""
        raise NotImplementedError

    def stable_mask(self, reg: Reg) -> int:
        return MASK32 & ~reg.mask(lambda f: f.name in self.volatile and f.access != "WO")

    def fget(self, value: int, name: str) -> int:
        """Field ``name`` ("REG.FIELD") of a register value."""
        reg = next(r for r in self.regs if r.name_of_fields == name.split(".")[0])
        f = next(f for f in reg.fields if f.name == name)
        return (value >> f.lsb) & ((1 << f.width) - 1)

    def fset(self, name: str, value: int = 1) -> int:
        """A field value shifted into place."""
        reg = next(r for r in self.regs if r.name_of_fields == name.split(".")[0])
        f = next(f for f in reg.fields if f.name == name)
        assert not value >> f.width, (name, value)
        return value << f.lsb

    def readback(self) -> list[Xfer]:
        """A read of every register software may read."""
        return [self.xfer(False, r.addr) for r in self.regs
                if r.mask(lambda f: f.access != "WO")]
