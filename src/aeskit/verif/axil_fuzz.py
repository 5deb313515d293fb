"""AXI4-Lite bus fuzzing of a register block generated from SystemRDL: the engine of
tests/hw/systems/coproc/test_coproc_axil_fuzz.py (ak_coproc) and
tests/hw/systems/axis/test_axis_axil_fuzz.py (ak_axis_core); each endpoint subclasses
:class:`AxilFuzz` with its address decode and its phase 2.

The bus master is a cycle-level AXI4-Lite driver of this file (:class:`AxilBus`), not
cocotbext-axi's AxiLiteMaster: it presents AW and W independently (W before AW, AW
before W, both in one cycle), random idle gaps between transactions and back-to-back
bursts of up to eight transactions in flight, random WSTRB (partial and zero strobes),
random AWPROT/ARPROT, junk on the payload lines while VALID is low, and holds BREADY and
RREADY low for random stretches. Every handshake and every response has a cycle limit
(:data:`HANG`, a hang detector), and the slave side is checked against AXI rules: B only
after both the AW and the W handshake of its write, R only after its AR, a response
held while not accepted keeps VALID and its payload.

The register model (:class:`RegModel`; it, the request/response channels, the
settings and the runner are shared with the other bus fuzzers in
:mod:`aeskit.verif.busfuzz`) comes from the map's .rdl: addresses and field
positions from :class:`aeskit.gen.regs.RegLayout`, the access of each field (RW, RO, WO,
RW1C, W1P: the register table's column), its reset value and whether hardware writes it,
from the same compiled RDL. How the endpoint decodes an address is the endpoint's
(:meth:`AxilFuzz.decode`): the generated register block drops the low two address bits
(an unaligned address is the aligned register, WSTRB applied unshifted); ak_coproc maps
any address with a bit at or above the map's width (bit 7) set to an unmapped offset
(SLVERR); ak_axis_core passes only the low 7 bits (addresses alias every 128 bytes,
docs/axis_core.md "Parameters").

Phase 1 (exact): random reads and writes of every register with random data and
strobes, writes to read-only registers (ID, VERSION, STATUS, CYCLES), reads of the
write-only KEY (0, OKAY), unmapped offsets inside the map and addresses above it,
unaligned addresses. Every response (OKAY; SLVERR for unmapped, with read data 0) and
every read value is compared with the model; every 250 transactions the bus is drained,
the KEY registers are compared with the model through the hierarchy (they cannot be
read on the bus) and every register is read back. Pulse fields (START, CLEAR) are
written 0, so no hardware side effect runs and the model is exact.

Phase 2 (side effects): the same traffic with START and CLEAR fired, job parameters
drawn so that jobs stay short (LEN <= 512) and sometimes fail (bad-window, wrapping
or out-of-memory buffers, illegal modes), cocotbext-axi's AXI4 slave with random pauses
as memory (as in test_coproc.py). Responses are still checked exactly; read values
only for the fields hardware never writes (the job's parameter registers, CTRL, ID,
VERSION); after START/CLEAR the bench often waits for STATUS.BUSY = 0 (bounded), and at
the end: BUSY = 0, a CLEAR wipes KEY and IV (read back 0, KEY through the hierarchy),
every other register as the model says.

Seeds are fixed (printed at the start); a failure names the seed and the transaction
index. ``AK_FUZZ_N`` (phase-1 transactions) and ``AK_FUZZ_SEED`` size the run: 3,000
in ``make test``, 100,000 in the slow variant. The endpoint's file is both its pytest
module and its cocotb test module.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge

# the shared parts (re-exported: the endpoints' tests import them from here)
from aeskit.verif.busfuzz import (HANG, MASK32, MAX_HOLD, N_FAST, N_SLOW, OKAY, SLVERR, Field,
                                Reg, RegModel, ReqChannel, RespChannel, load_regs, pauses,
                                run_fuzz, settings, strobe_mask, words_be)

__all__ = ["HANG", "HANG_IDLE", "MASK32", "MAX_HOLD", "N_FAST", "N_SLOW", "OKAY", "SLVERR",
           "AxilBus", "AxilFuzz", "Field", "Reg", "RegModel", "ReqChannel", "RespChannel",
           "Txn", "load_regs", "pauses", "run_fuzz", "settings", "strobe_mask", "words_be"]

#: cycles a job or a CLEAR may take before "returns to not BUSY" is called a hang
HANG_IDLE = 200_000
#: phase 1: drain, check the hierarchy and read every register every READBACK transactions
READBACK = 250
#: reads issued right behind a pulse-firing write (:meth:`AxilFuzz.probe_pulses`)
PROBES = 6
#: probe rounds per register with pulse fields (the channels' delays vary per round)
PROBE_ROUNDS = 8


# ----------------------------------------------------------------------------------
# the AXI4-Lite driver
# ----------------------------------------------------------------------------------
@dataclass(eq=False)
class Txn:
    idx: int
    write: bool
    addr: int
    reg: Reg | None        # the register the block decodes the address to
    want_resp: int
    data: int = 0          # write data; for a read, the data returned
    strb: int = 0xF
    prot: int = 0
    want: int = 0          # a read's expected value
    mask: int = MASK32     # a read's bits compared with ``want``
    window: int = 1        # issued while fewer than this many transactions are in flight
    resp: int = -1
    hs: int = 0            # request handshakes done (AR: 1; AW and W: 2)
    accepted: int = 0      # cycle of the last request handshake
    aw_cycle: int = 0
    w_cycle: int = 0
    probe: bool = False    # a read that may overlap a write of its register
    done: int = 0          # cycle the response was taken

    def __str__(self) -> str:
        where = f"{self.addr:#010x} ({self.reg or 'unmapped'})"
        if self.write:
            return f"write {where} data {self.data:#010x} wstrb {self.strb:04b}"
        return f"read {where}"


class AxilBus:
    """A cycle-level AXI4-Lite master: call :meth:`sample` right after each rising edge
    (signals then hold their values before the edge), then :meth:`issue` and
    :meth:`drive`."""

    def __init__(self, dut: Any, rng: random.Random) -> None:
        self.rng = rng
        self.aw = ReqChannel(dut, "aw", {"awaddr": lambda t: t.addr, "awprot": lambda t: t.prot},
                             {"awaddr": 32})
        self.w = ReqChannel(dut, "w", {"wdata": lambda t: t.data, "wstrb": lambda t: t.strb},
                            {"wdata": 32, "wstrb": 4})
        self.ar = ReqChannel(dut, "ar", {"araddr": lambda t: t.addr, "arprot": lambda t: t.prot},
                             {"araddr": 32})
        self.b = RespChannel(dut, "b", ("bresp",))
        self.r = RespChannel(dut, "r", ("rresp", "rdata"))
        self.writes: deque[Txn] = deque()
        self.reads: deque[Txn] = deque()
        self.p_hold = 0.15
        self.max_flight = 0
        self.order = {"AW first": 0, "W first": 0, "AW and W together": 0}

    def busy(self) -> int:
        return len(self.writes) + len(self.reads)

    def outstanding(self) -> Iterator[Txn]:
        yield from self.writes
        yield from self.reads

    def issue(self, t: Txn, cycle: int) -> None:
        rng = self.rng
        delay = [0, 0, 0, 1, 2, 3]
        if t.write:
            self.aw.q.append((cycle + rng.choice(delay), t))
            self.w.q.append((cycle + rng.choice(delay), t))
            self.writes.append(t)
        else:
            self.ar.q.append((cycle + rng.choice(delay), t))
            self.reads.append(t)
        self.max_flight = max(self.max_flight, self.busy())

    def sample(self, cycle: int) -> list[Txn]:
        """Handshakes of this edge; returns the transactions whose response came."""
        for ch in (self.aw, self.w, self.ar):
            t = ch.handshake()
            if t is not None:
                self._request_done(ch.name, t, cycle)
            assert ch.waited < HANG, f"{ch.name}READY low for {HANG} cycles"
        done = []
        b = self.b.sample()
        if b is not None:
            done.append(self._response(self.writes, cycle, b[0], 0,
                                       "B without a write whose AW and W"))
        r = self.r.sample()
        if r is not None:
            done.append(self._response(self.reads, cycle, r[0], r[1],
                                       "R without a read whose AR"))
        for q in (self.writes, self.reads):
            if q and q[0].hs == (2 if q[0].write else 1):
                assert cycle - q[0].accepted < HANG, f"no response for {HANG} cycles to {q[0]}"
        return done

    def _request_done(self, ch: str, t: Txn, cycle: int) -> None:
        t.hs += 1
        t.accepted = cycle
        if ch == "AW":
            t.aw_cycle = cycle
        elif ch == "W":
            t.w_cycle = cycle
        if t.write and t.hs == 2:
            key = ("AW first" if t.aw_cycle < t.w_cycle else "W first"
                   if t.w_cycle < t.aw_cycle else "AW and W together")
            self.order[key] += 1

    @staticmethod
    def _response(q: deque[Txn], cycle: int, resp: int, data: int, what: str) -> Txn:
        """The oldest write (B) or read (R): its response, which must come after all
        its request handshakes, in a later cycle."""
        assert q and q[0].hs == (2 if q[0].write else 1) and q[0].accepted < cycle, \
            f"{what} handshakes were done in an earlier cycle"
        t = q.popleft()
        t.resp = resp
        t.done = cycle
        if not t.write:
            t.data = data
        return t

    def drive(self, cycle: int) -> None:
        for ch in (self.aw, self.w, self.ar):
            ch.drive(cycle, self.rng)
        self.b.drive(self.rng, self.p_hold)
        self.r.drive(self.rng, self.p_hold)


# ----------------------------------------------------------------------------------
# the fuzzer: random transactions against the model
# ----------------------------------------------------------------------------------
Barrier = Callable[[], Awaitable[None]]
Item = Union[Txn, Barrier]


class AxilFuzz:
    """Random AXI4-Lite traffic on one register endpoint, checked against
    :class:`RegModel`. An endpoint subclass sets :attr:`rdl` and the hooks (address
    decode, the hierarchy's key vector, phase 2's side effects)."""

    rdl: Path

    def __init__(self, dut: Any, seed: int) -> None:
        from aeskit.gen.regs import regmap

        self.dut = dut
        self.clk = dut.clk_i
        self.seed = seed
        self.rng = random.Random(seed)
        self.regs, self.width = load_regs(self.rdl)
        self.model = RegModel(self.regs, regmap(self.rdl).bad_rw_error)
        self.by_off = {r.addr: r for r in self.regs}
        self.holes = [a for a in range(0, 1 << self.width, 4) if a not in self.by_off]
        self.cycle = 0
        self.idx = 0
        self.phase2 = False
        #: fields whose value hardware may have changed (phase 2): not compared
        self.volatile: frozenset[str] = frozenset()
        self.stats: dict[str, int] = {}
        cocotb.start_soon(Clock(self.clk, 10, unit="ns").start())
        self.bus = AxilBus(dut, random.Random(seed + 1))

    # --- hooks --------------------------------------------------------------------
    def decode(self, addr: int) -> int | None:
        """The register-block offset an address selects (None: outside the map)."""
        raise NotImplementedError

    def key_vector(self) -> int:
        """The hierarchy's vector of the write-only registers (KEY)."""
        raise NotImplementedError

    def phase2_data(self, reg: Reg) -> int:
        """Write data for ``reg`` in phase 2 (pulse fields may be set)."""
        return self.rng.getrandbits(32)

    async def settle(self) -> None:
        """Phase 2: wait until the device is idle again."""
        raise NotImplementedError

    # --- transactions -------------------------------------------------------------
    def reg_at(self, addr: int) -> Reg | None:
        off = self.decode(addr)
        return None if off is None else self.by_off.get(off & ~3)

    def stable_mask(self, reg: Reg) -> int:
        """Bits of a read compared with the model: all but the volatile fields (a
        write-only field reads 0 whatever it holds)."""
        return MASK32 & ~reg.mask(lambda f: f.name in self.volatile and f.access != "WO")

    def txn(self, write: bool, addr: int, data: int = 0, strb: int = 0xF) -> Txn:
        """A transaction with its expected response and value, the model updated."""
        reg = self.reg_at(addr)
        self.idx += 1
        t = Txn(self.idx, write, addr, reg, self.model.response(reg, write), data, strb,
                prot=self.rng.getrandbits(3), window=self.rng.choice((1, 2, 2, 4, 8)))
        self._count(t)
        if reg is not None and t.want_resp == OKAY:
            if write:
                self.model.write(reg, data, strb)
            else:
                t.want, t.mask = self.model.read(reg), self.stable_mask(reg)
        return t

    def _count(self, t: Txn) -> None:
        kinds = ["write" if t.write else "read", "SLVERR" if t.want_resp else "OKAY"]
        if t.addr & 3:
            kinds.append("unaligned")
        if t.addr >> self.width:
            kinds.append("above the map")
        if t.write and t.strb != 0xF:
            kinds.append("partial strobe")
        if t.reg is not None:
            kinds.append(f"{'w' if t.write else 'r'}:{t.reg.name}")
        for k in kinds:
            self.count(k)

    def random_addr(self) -> int:
        rng = self.rng
        x = rng.random()
        reg = rng.choice(self.regs)
        if x < 0.6:
            return reg.addr
        if x < 0.72:
            return reg.addr | rng.randint(1, 3)                        # unaligned
        if x < 0.82 and self.holes:
            return rng.choice(self.holes) | rng.choice((0, 0, 1, 2, 3))  # unmapped offset
        if x < 0.94:                                                    # above the map
            high = rng.getrandbits(32 - self.width) or 1
            return (high << self.width | reg.addr | rng.choice((0, 0, 0, 2))) & MASK32
        return rng.getrandbits(32)

    def random_txn(self) -> Txn:
        rng = self.rng
        addr = self.random_addr()
        if rng.random() < 0.5:
            return self.txn(False, addr)
        reg = self.reg_at(addr)
        strb = 0xF if rng.random() < 0.5 else rng.randrange(16)
        if reg is None:
            return self.txn(True, addr, rng.getrandbits(32), strb)
        if self.phase2:
            return self.txn(True, addr, self.phase2_data(reg), strb)
        pulse = reg.mask(lambda f: f.access == "W1P")     # no side effects in phase 1
        return self.txn(True, addr, rng.getrandbits(32) & ~pulse, strb)

    def readback(self) -> Iterator[Txn]:
        for reg in self.regs:
            yield self.txn(False, reg.addr)

    # --- the cycle loop -----------------------------------------------------------
    def can_issue(self, t: Txn) -> bool:
        """At most ``t.window`` in flight; never a read and a write of the same register
        in flight together (the block may serve them in either order)."""
        if self.bus.busy() >= t.window:
            return False
        return t.reg is None or t.probe or all(o.reg is not t.reg or o.write == t.write
                                               for o in self.bus.outstanding())

    def gap(self) -> int:
        x = self.rng.random()
        return 0 if x < 0.6 else 1 if x < 0.75 else self.rng.randint(2, 12)

    def check(self, t: Txn) -> None:
        where = f"seed {self.seed}, transaction {t.idx}: {t}"
        ch = "BRESP" if t.write else "RRESP"
        assert t.resp == t.want_resp, f"{where}: {ch} {t.resp}, model says {t.want_resp}"
        if not t.write:
            assert (t.data ^ t.want) & t.mask == 0, \
                f"{where}: read {t.data:#010x}, model says {t.want:#010x} (bits {t.mask:#010x})"

    async def pump(self, items: Iterable[Item]) -> None:
        """Run ``items`` (transactions, and barriers: drain the bus, then await them)."""
        it = iter(items)
        item = next(it, None)
        wait = self.gap()
        while True:
            await RisingEdge(self.clk)
            self.cycle += 1
            try:
                done = self.bus.sample(self.cycle)
            except AssertionError as e:
                raise AssertionError(f"seed {self.seed}, cycle {self.cycle}, transactions "
                                     f"issued {self.idx}: {e}") from None
            for t in done:
                self.check(t)
            if wait:
                wait -= 1
            else:
                while isinstance(item, Txn) and not wait and self.can_issue(item):
                    self.bus.issue(item, self.cycle)
                    item, wait = next(it, None), self.gap()
            self.bus.drive(self.cycle)
            if not self.bus.busy() and not isinstance(item, Txn):
                if item is None:
                    return
                await item()
                item = next(it, None)

    async def read(self, addr: int) -> Txn:
        t = self.txn(False, addr)
        await self.pump([t])
        return t

    async def write(self, addr: int, data: int, strb: int = 0xF) -> None:
        await self.pump([self.txn(True, addr, data, strb)])

    async def poll(self, name: str) -> int:
        """Read the register of field ``name`` ("REG.FIELD") until the field is 0
        (HANG_IDLE cycles at most); return the last value read."""
        start = self.cycle
        while True:
            t = await self.read(self.by_name(name.split(".")[0]).addr)
            if not self.fget(t.data, name):
                return t.data
            assert self.cycle - start < HANG_IDLE, \
                f"seed {self.seed}, transaction {t.idx}: {name} still set after {HANG_IDLE} cycles"

    def by_name(self, name: str) -> Reg:
        return next(r for r in self.regs if r.name == name)

    def fget(self, value: int, name: str) -> int:
        """Field ``name`` ("REG.FIELD") of a register value."""
        f = next(f for f in self.by_name(name.split(".")[0]).fields if f.name == name)
        return (value >> f.lsb) & ((1 << f.width) - 1)

    def compose(self, reg: Reg, **fields: int) -> int:
        """A value of ``reg`` with the given fields (short names; the others 0) and
        junk in the bits no field has."""
        v = self.rng.getrandbits(32) & ~reg.mask(lambda f: True)
        for f in reg.fields:
            val = fields.get(f.name.split(".")[1], 0)
            assert not val >> f.width, (f.name, val)
            v |= val << f.lsb
        return v

    def count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    # --- phases -------------------------------------------------------------------
    async def check_keys(self) -> None:
        """The write-only registers, seen through the hierarchy, hold the model's value."""
        wo = [r for r in self.regs if not r.mask(lambda f: f.access != "WO")]
        want = words_be(self.model.value[r.name] for r in wo)
        got = self.key_vector()
        assert got == want, (f"seed {self.seed}, after transaction {self.idx}: "
                             f"{'/'.join(r.name for r in wo)} hold {got:#x}, model {want:#x}")

    def phase1_items(self, n: int) -> Iterator[Item]:
        for i in range(n):
            if i % READBACK == READBACK - 1:
                yield self.check_keys
                yield from self.readback()
            yield self.random_txn()
        yield self.check_keys
        yield from self.readback()

    def phase2_items(self, n: int) -> Iterator[Item]:
        """Random traffic, one in ten an aligned write of a register with pulse fields;
        after half of the writes that fire a pulse, wait for the device to be idle."""
        pulsed = [r for r in self.regs if r.mask(lambda f: f.access == "W1P")]
        for _ in range(n):
            if self.rng.random() < 0.1:
                reg = self.rng.choice(pulsed)
                t = self.txn(True, reg.addr, self.phase2_data(reg))
            else:
                t = self.random_txn()
            yield t
            if self.fires(t):
                self.count("pulses fired")
                if self.rng.random() < 0.5:
                    yield self.settle

    def fires(self, t: Txn) -> bool:
        """Whether a write sets a pulse field."""
        pulse = t.reg.mask(lambda f: f.access == "W1P") if t.reg else 0
        return bool(t.data & pulse & strobe_mask(t.strb))

    async def reset(self) -> None:
        self.dut.rst_ni.value = 0
        await ClockCycles(self.clk, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.clk, 2)

    def report(self, what: str) -> None:
        cov = self.stats
        self.dut._log.info("%s: seed %d, %d transactions, %d cycles; %s; in flight <= %d; "
                           "B held %d, R held %d cycles; %s", what, self.seed, self.idx,
                           self.cycle, self.bus.order, self.bus.max_flight,
                           self.bus.b.held_cycles, self.bus.r.held_cycles,
                           ", ".join(f"{k} {v}" for k, v in sorted(cov.items())))

    def check_coverage(self) -> None:
        """Every register written and read, every kind of access, both W/AW orders,
        responses held by back-pressure."""
        want = [f"{k}:{r.name}" for r in self.regs for k in "wr"]
        want += ["SLVERR", "unaligned", "above the map", "partial strobe"]
        missing = [k for k in want if not self.stats.get(k)]
        missing += [k for k, v in self.bus.order.items() if not v]
        if not (self.bus.b.held_cycles and self.bus.r.held_cycles and self.bus.max_flight > 2):
            missing.append("back-pressure / pipelining")
        assert not missing, f"seed {self.seed}: never exercised: {missing}"

    async def run(self, n: int) -> None:
        """Phase 1 (n transactions, exact), then phase 2 (n // 6, side effects)."""
        self.dut._log.info("AXI4-Lite fuzz of %s: seed %d, %d + %d transactions",
                           self.rdl.name, self.seed, n, n // 6)
        await self.pump(self.phase1_items(n))
        self.check_coverage()
        self.report("phase 1")
        self.phase2 = True
        self.volatile = frozenset(f.name for r in self.regs for f in r.fields if f.hw_writes)
        await self.start_phase2()
        await self.pump(self.phase2_items(n // 6))
        await self.finish_phase2()
        self.report("phases 1 and 2")

    async def start_phase2(self) -> None:
        """Attach what side effects need (memory, streams)."""

    async def probe_pulses(self) -> None:
        """For each register with pulse fields: a write that fires them, and right
        behind it PROBES reads of the same register back to back while the write's B
        is held back, so they are in flight together (one lands in the cycle the
        pulse is stored, whatever the channels' random delays); the pulse bits must read 0 (they are write-only). Before
        they were, such a read returned the pulse bit as 1."""
        for reg in [r for r in self.regs for _ in range(PROBE_ROUNDS)]:
            pulse = reg.mask(lambda f: f.access == "W1P")
            if not pulse:
                continue
            w = self.txn(True, reg.addr, self.model.value[reg.name] | pulse)
            reads = [self.txn(False, reg.addr) for _ in range(PROBES)]
            for r in reads:
                r.want, r.mask, r.probe, r.window = 0, pulse, True, PROBES + 1
            self.bus.b.hold = 4 * MAX_HOLD
            await self.pump([w, *reads])
            assert reads[0].accepted < w.done, \
                f"seed {self.seed}: the probe reads of {reg.name} did not overlap the write"
            self.count("pulse probes")
            await self.settle()

    async def finish_phase2(self) -> None:
        """Idle again; every register as the model says."""
        await self.probe_pulses()
        await self.settle()
        await self.pump(self.readback())
        await self.check_keys()
