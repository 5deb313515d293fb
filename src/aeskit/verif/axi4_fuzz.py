"""AXI4 slave bus fuzzing: a cycle-level AXI4 master with bursts and IDs
(:class:`Axi4Bus`) and the fuzz loop around it (:class:`Axi4Fuzz`), the engine of
tests/hw/systems/xdam/test_xdam_axi_fuzz.py (``ak_xdam``). The endpoint subclasses
:class:`Axi4Fuzz` with its reference model (:meth:`Axi4Fuzz.arrive`) and its traffic.

The master is this file's, not cocotbext-axi's AxiMaster (which only issues legal
bursts): any AxLEN, AxSIZE, AxBURST (FIXED, INCR, WRAP, the reserved 3), any address
(unaligned, across 4 KiB, past the top of the address space), random IDs; per write
burst AW and its W beats presented independently (W before AW, AW before W, both in
one cycle; W beats in AW order as AXI4 requires, WLAST on the burst's last beat, random
gaps between beats), random WSTRB (partial and zero strobes), random gaps between
bursts and up to the endpoint's window of bursts in flight, junk on every payload while
its VALID is low, and BREADY / RREADY held low for random stretches (the channels of
:mod:`aeskit.verif.busfuzz`).

What is checked of the slave, every cycle: AXI's handshake rules on B and R (VALID
held until READY, the payload unchanged meanwhile); B only after the AW handshake and
every W beat of its burst, R only after its AR, both in a later cycle; BID/RID name an
outstanding burst, and per ID the responses come in issue order (the AXI ordering
rule); exactly AxLEN + 1 R beats per read burst with RLAST on the last one only; every
response (BRESP, each RRESP) and every read beat against the endpoint's model; a hang
(a VALID not taken for :data:`aeskit.verif.busfuzz.HANG` cycles, or no handshake nor
response for as long while bursts are outstanding). Every failure names the seed, the
burst index and the burst.

Bursts are applied to the endpoint's model when their AW or AR handshake happens (in
that order; an AW and an AR in one cycle: the AW first), which is the order a slave
that documents "bursts in arrival order" must honour.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Union

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

from aeskit.verif.busfuzz import HANG, OKAY, ReqChannel, RespChannel, Stats, Watchdog

__all__ = ["FIXED", "INCR", "WRAP", "Axi4Bus", "Axi4Fuzz", "Beat", "Burst"]

FIXED, INCR, WRAP = 0, 1, 2


@dataclass(eq=False)
class Burst:
    """One AXI4 burst and, once it arrived, what it must get."""

    idx: int
    write: bool
    id: int
    addr: int
    len: int                 # AxLEN: beats - 1
    size: int                # AxSIZE
    btype: int               # AxBURST
    data: list[int] = field(default_factory=list)    # write beats
    strb: list[int] = field(default_factory=list)    # their WSTRB
    window: int = 1          # issued while fewer than this many bursts are in flight
    # set by the endpoint when the burst arrives
    want_resp: int = OKAY
    want: list[int] = field(default_factory=list)    # a read's expected beats
    note: str = ""
    # progress
    aw_cycle: int = 0        # the AW / AR handshake (0: not yet)
    w_beats: int = 0
    w_first: int = 0         # cycle of the first W handshake
    w_last: int = 0          # cycle of the last W handshake
    aw_shown: int = 0        # cycle AWVALID / ARVALID went high for it
    w_shown: int = 0         # cycle WVALID went high for its first beat
    resp: int = -1           # BRESP
    beats: list[tuple[int, int]] = field(default_factory=list)   # R: (RRESP, RDATA)
    done: int = 0

    @property
    def n(self) -> int:
        return self.len + 1

    def __str__(self) -> str:
        kind = "write" if self.write else "read"
        what = (f"{kind} id {self.id} addr {self.addr:#010x} len {self.len} size {self.size} "
                f"burst {('FIXED', 'INCR', 'WRAP', 'reserved')[self.btype]}")
        return what + (f" ({self.note})" if self.note else "")


@dataclass(eq=False)
class Beat:
    """One W beat of a burst."""

    burst: Burst
    k: int
    data: int
    strb: int
    last: bool


class Axi4Bus:
    """A cycle-level AXI4 master: call :meth:`sample` right after each rising edge
    (signals then hold their values before the edge), then :meth:`issue` and
    :meth:`drive`."""

    def __init__(self, dut: Any, rng: random.Random, prefix: str = "s_axi_") -> None:
        self.rng = rng
        idw = len(getattr(dut, f"{prefix}awid"))
        dw = len(getattr(dut, f"{prefix}wdata"))
        ctrl = {"id": idw, "addr": 32, "len": 8, "size": 3, "burst": 2}

        def chan(c: str) -> ReqChannel:
            return ReqChannel(
                dut, c, {f"{c}id": lambda b: b.id, f"{c}addr": lambda b: b.addr,
                         f"{c}len": lambda b: b.len, f"{c}size": lambda b: b.size,
                         f"{c}burst": lambda b: b.btype},
                {f"{c}{k}": bits for k, bits in ctrl.items()}, prefix)

        self.aw, self.ar = chan("aw"), chan("ar")
        self.w = ReqChannel(dut, "w", {"wdata": lambda t: t.data, "wstrb": lambda t: t.strb,
                                       "wlast": lambda t: int(t.last)},
                            {"wdata": dw, "wstrb": dw // 8, "wlast": 1}, prefix)
        self.b = RespChannel(dut, "b", ("bid", "bresp"), prefix)
        self.r = RespChannel(dut, "r", ("rid", "rdata", "rresp", "rlast"), prefix)
        self.writes: list[Burst] = []          # outstanding, in issue order
        self.reads: list[Burst] = []
        self.p_hold = 0.15
        self.max_flight = 0
        self.stats = Stats()

    def busy(self) -> int:
        return len(self.writes) + len(self.reads)

    def issue(self, b: Burst, cycle: int) -> None:
        rng = self.rng
        delay = [0, 0, 0, 1, 2, 3]
        if b.write:
            self.aw.q.append((cycle + rng.choice(delay), b))
            t = cycle + rng.choice(delay)
            for k in range(b.n):
                self.w.q.append((t, Beat(b, k, b.data[k], b.strb[k], k == b.len)))
                if rng.random() < 0.15:
                    t += rng.randint(1, 3)
            self.writes.append(b)
        else:
            self.ar.q.append((cycle + rng.choice(delay), b))
            self.reads.append(b)
        self.max_flight = max(self.max_flight, self.busy())

    def sample(self, cycle: int) -> tuple[list[Burst], list[Burst]]:
        """(bursts that arrived at this edge (AW/AR handshake, AW first), bursts whose
        response is complete)."""
        arrived: list[Burst] = []
        progress = False
        for ch in (self.aw, self.ar):
            b = ch.handshake()
            if b is not None:
                b.aw_cycle = cycle
                arrived.append(b)
                progress = True
            assert ch.waited < HANG, f"{ch.name}READY low for {HANG} cycles"
        beat = self.w.handshake()
        assert self.w.waited < HANG, f"WREADY low for {HANG} cycles"
        if beat is not None:
            progress = True
            b = beat.burst
            b.w_beats += 1
            if beat.k == 0:
                b.w_first = cycle
            if beat.last:
                b.w_last = cycle
                self.stats.count("W handshake first" if not b.aw_cycle or b.aw_cycle > b.w_first
                                 else "AW and W handshakes together" if b.aw_cycle == b.w_first
                                 else "AW handshake first")
                self.stats.count("AW shown first" if b.aw_shown < b.w_shown else
                                 "AW and W shown together" if b.aw_shown == b.w_shown
                                 else "W shown first")
        done = []
        got = self.b.sample()
        if got is not None:
            progress = True
            done.append(self._b(cycle, *got))
        got = self.r.sample()
        if got is not None:
            progress = True
            b = self._r(cycle, *got)
            if b is not None:
                done.append(b)
        if progress:
            self.stats.count("cycles with progress")
        self.progress = progress
        return arrived, done

    def _b(self, cycle: int, bid: int, bresp: int) -> Burst:
        b = next((w for w in self.writes if w.id == bid), None)
        assert b is not None, f"B with BID {bid}: no write burst of that ID outstanding"
        assert b.aw_cycle and b.w_beats == b.n and max(b.aw_cycle, b.w_last) < cycle, \
            f"B for burst {b.idx} ({b}) before its AW and all its W beats were taken"
        self.writes.remove(b)
        b.resp, b.done = bresp, cycle
        return b

    def _r(self, cycle: int, rid: int, rdata: int, rresp: int, rlast: int) -> Burst | None:
        b = next((r for r in self.reads if r.id == rid), None)
        assert b is not None, f"R with RID {rid}: no read burst of that ID outstanding"
        assert b.aw_cycle and b.aw_cycle < cycle, f"R for burst {b.idx} ({b}) before its AR"
        b.beats.append((rresp, rdata))
        last = len(b.beats) == b.n
        assert rlast == int(last), (f"burst {b.idx} ({b}): RLAST {rlast} on beat "
                                    f"{len(b.beats) - 1} of {b.n}")
        if not last:
            return None
        self.reads.remove(b)
        b.done = cycle
        return b

    def drive(self, cycle: int) -> None:
        for ch in (self.aw, self.w, self.ar):
            ch.drive(cycle, self.rng)
        a, w = self.aw.cur, self.w.cur
        if a is not None and not a.aw_shown:
            a.aw_shown = cycle
        if w is not None and w.k == 0 and not w.burst.w_shown:
            w.burst.w_shown = cycle
        self.b.drive(self.rng, self.p_hold)
        self.r.drive(self.rng, self.p_hold)


Barrier = Callable[[], Awaitable[None]]
Item = Union[Burst, Barrier]


class Axi4Fuzz:
    """Random AXI4 bursts against the endpoint's model: the endpoint implements
    :meth:`arrive` and may extend :meth:`complete` and :meth:`tick`."""

    def __init__(self, dut: Any, seed: int, *, clk: Any, prefix: str = "s_axi_") -> None:
        self.dut = dut
        self.clk = clk
        self.seed = seed
        self.rng = random.Random(seed)
        self.bus = Axi4Bus(dut, random.Random(seed + 1), prefix)
        self.stats = self.bus.stats
        self.nb = len(getattr(dut, f"{prefix}wdata")) // 8
        self.id_bits = len(getattr(dut, f"{prefix}awid"))
        self.watchdog = Watchdog()
        self.cycle = 0
        self.idx = 0
        cocotb.start_soon(Clock(clk, 10, unit="ns").start())

    # --- hooks --------------------------------------------------------------------
    def arrive(self, b: Burst) -> None:
        """The burst's AW/AR handshake: set ``b.want_resp`` (a read: ``b.want``),
        apply it to the model."""
        raise NotImplementedError

    def complete(self, b: Burst) -> None:
        where = f"burst {b.idx}: {b}"
        if b.write:
            assert b.resp == b.want_resp, f"{where}: BRESP {b.resp}, model says {b.want_resp}"
            return
        for k, (resp, data) in enumerate(b.beats):
            assert resp == b.want_resp, \
                f"{where}: RRESP {resp} on beat {k}, model says {b.want_resp}"
            assert data == b.want[k], \
                f"{where}: beat {k} RDATA {data:#x}, model says {b.want[k]:#x}"

    def tick(self) -> None:
        """Once per cycle, after the edge: drive the bench's other inputs."""

    # --- bursts ---------------------------------------------------------------------
    def burst(self, write: bool, addr: int, beats: int, *, size: int | None = None,
              btype: int = INCR, ident: int | None = None, data: list[int] | None = None,
              strb: list[int] | None = None) -> Burst:
        """A burst of ``beats`` (AxLEN + 1) beats; random ID, data and strobes (full,
        none, or random lanes) unless given; AxSIZE the bus width unless given."""
        rng = self.rng
        self.idx += 1
        full = (1 << self.nb) - 1
        if write:
            if data is None:
                data = [rng.getrandbits(8 * self.nb) for _ in range(beats)]
            if strb is None:
                strb = [full if x < 0.6 else 0 if x < 0.65 else rng.getrandbits(self.nb)
                        for x in (rng.random() for _ in range(beats))]
        return Burst(self.idx, write, rng.getrandbits(self.id_bits) if ident is None else ident,
                     addr & 0xFFFF_FFFF, beats - 1,
                     (self.nb.bit_length() - 1) if size is None else size, btype,
                     data or [], strb or [], window=rng.choice((1, 2, 4, 4, 8, 12)))

    def gap(self) -> int:
        x = self.rng.random()
        return 0 if x < 0.6 else 1 if x < 0.75 else self.rng.randint(2, 12)

    # --- the cycle loop -----------------------------------------------------------
    async def pump(self, items: Iterable[Item]) -> None:
        """Run ``items`` (bursts, and barriers: drain the bus, then await them)."""
        bus = self.bus
        it: Iterator[Item] = iter(items)
        item = next(it, None)
        wait = self.gap()
        while True:
            await RisingEdge(self.clk)
            self.cycle += 1
            try:
                arrived, done = bus.sample(self.cycle)
                for b in arrived:
                    self.arrive(b)
                for b in done:
                    self.complete(b)
                if bus.progress:
                    self.watchdog.progress(self.cycle)
                self.watchdog.check(self.cycle, bool(bus.busy()), lambda: (
                    f"outstanding: {[str(b) for b in bus.writes + bus.reads][:4]}"))
            except AssertionError as e:
                raise AssertionError(f"seed {self.seed}, cycle {self.cycle}, bursts issued "
                                     f"{self.idx}: {e}") from None
            self.tick()
            if wait:
                wait -= 1
            else:
                while isinstance(item, Burst) and not wait and bus.busy() < item.window:
                    bus.issue(item, self.cycle)
                    item, wait = next(it, None), self.gap()
            bus.drive(self.cycle)
            if not bus.busy() and not isinstance(item, Burst):
                if item is None:
                    return
                await item()
                item = next(it, None)

    async def reset(self, rst: Any) -> None:
        assert not self.bus.busy()
        rst.value = 0
        await ClockCycles(self.clk, 3)
        rst.value = 1
        await ClockCycles(self.clk, 2)
