"""What the bus fuzzers of aeskit share: :mod:`aeskit.verif.axil_fuzz` (AXI4-Lite),
:mod:`aeskit.verif.ahb_fuzz` (AHB-Lite) and :mod:`aeskit.verif.axi4_fuzz` (AXI4 bursts).

* the register model built from a map's .rdl (:func:`load_regs`, :class:`RegModel`):
  addresses and field positions from :class:`aeskit.gen.regs.RegLayout`, each field's
  access (RW, RO, WO, RW1C, W1P: the register table's column), reset value and whether
  hardware writes it from the same compiled RDL; what a write does to the software
  view, what a read returns and whether the map answers an access with an error;
* valid/ready channels of the AXI family (:class:`ReqChannel`: VALID held until READY,
  junk on the payload while VALID is low; :class:`RespChannel`: READY held low for
  random stretches, a response held while not accepted must keep VALID and its
  payload), with any port prefix;
* random stretches of a wait or stall input (:class:`Stretch`), the hang detector
  (:class:`Watchdog`: a cycle limit on "no progress"), coverage counters
  (:class:`Stats`), cocotbext-axi pause generators (:func:`pauses`);
* sizes and seeds from the environment (:func:`settings`: ``AK_FUZZ_N``,
  ``AK_FUZZ_SEED``) and the pytest-side runner (:func:`run_fuzz`).
"""

from __future__ import annotations

import os
import random
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: AXI response codes (AXI4-Lite and AXI4)
OKAY, SLVERR = 0, 2
#: cycles a VALID may wait for READY, or a request for its response, before a bench
#: calls it a hang (drivers hold their READY outputs low for at most MAX_HOLD cycles)
HANG = 10_000
MAX_HOLD = 16
#: transactions in make test, in the slow variant (make test-full)
N_FAST, N_SLOW = 3_000, 100_000
MASK32 = 0xFFFF_FFFF


# ----------------------------------------------------------------------------------
# register model, from the .rdl
# ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Field:
    name: str          # "CTRL.START"
    lsb: int
    width: int
    access: str        # the register table's access: RW RO WO RW1C W1P
    reset: int         # RDL reset; a hardware-written field without one: 0 (idle after reset)
    hw_writes: bool    # hardware changes it (hw = w, hwset, hwclr, counter)
    hw_clear: bool     # hwclr: wiped by hardware (CLEAR)

    @property
    def mask(self) -> int:
        return ((1 << self.width) - 1) << self.lsb


@dataclass(frozen=True, eq=False)
class Reg:
    name: str          # "KEY3" for element 3 of an array (RegLayout's names)
    addr: int
    fields: tuple[Field, ...]

    def mask(self, pred: Callable[[Field], bool]) -> int:
        return sum(f.mask for f in self.fields if pred(f))

    @property
    def reset(self) -> int:
        return sum(f.reset << f.lsb for f in self.fields)

    @property
    def name_of_fields(self) -> str:
        """The register part of its fields' names (an array element's is the array's)."""
        return self.fields[0].name.split(".")[0]

    def __repr__(self) -> str:
        return self.name


def _field(node: Any, lsb: int, width: int) -> Field:
    from aeskit.gen.regs import _access

    reset = node.get_property("reset")
    hw = node.is_hw_writable or any(node.get_property(p) for p in ("hwset", "hwclr", "counter"))
    return Field(f"{node.parent.inst_name}.{node.inst_name}", lsb, width, _access(node),
                 int(reset or 0), bool(hw), bool(node.get_property("hwclr")))


def load_regs(rdl: Path) -> tuple[list[Reg], int]:
    """The registers of ``rdl`` in address order (addresses and field positions from
    RegLayout, access/reset/hardware side from the compiled RDL) and the map's address
    width in bits."""
    from systemrdl.node import RegNode

    from aeskit.gen.regs import _compile, layout

    lay = layout(rdl)
    top = _compile(rdl).top
    regs = []
    for node in top.descendants(unroll=True):
        if isinstance(node, RegNode):
            name = node.inst_name + (f"{node.current_idx[0]}" if node.current_idx else "")
            fields = tuple(_field(f, *lay.field[f"{node.inst_name}.{f.inst_name}"])
                           for f in node.fields())
            regs.append(Reg(name, lay.addr[name], fields))
    assert {r.name for r in regs} == set(lay.addr), "RegLayout and the RDL disagree"
    return sorted(regs, key=lambda r: r.addr), (top.size - 1).bit_length()


def strobe_mask(strb: int) -> int:
    return sum(0xFF << (8 * i) for i in range(4) if strb >> i & 1)


def words_be(words: Iterable[int]) -> int:
    """Register words (byte 0 in [7:0]) as the RTL's wide vector (byte 0 on top)."""
    return int.from_bytes(b"".join(w.to_bytes(4, "little") for w in words), "big")


class RegModel:
    """Register values as software sees them, and what a write does to them."""

    def __init__(self, regs: list[Reg], bad_rw_error: bool) -> None:
        self.regs = regs
        self.bad_rw_error = bad_rw_error
        self.value = {r.name: r.reset for r in regs}

    def reset(self) -> None:
        self.value = {r.name: r.reset for r in self.regs}

    def write(self, reg: Reg, data: int, strb: int = 0xF) -> None:
        be = strobe_mask(strb)
        v = self.value[reg.name]
        for f in reg.fields:
            m = f.mask & be
            if f.access in ("RW", "WO"):
                v = (v & ~m) | (data & m)
            elif f.access == "RW1C":
                v &= ~(data & m)
            # RO: dropped; W1P: a one-cycle pulse, reads 0 once the write has answered
        self.value[reg.name] = v

    def read(self, reg: Reg) -> int:
        return self.value[reg.name] & reg.mask(lambda f: f.access not in ("WO", "W1P"))

    def allowed(self, reg: Reg | None, write: bool) -> bool:
        """Whether the map answers the access without an error: not for an unmapped
        address, and (in a map with aeskit-bad-rw: error) not for a write of a read-only
        or a read of a write-only register."""
        if reg is None:
            return False
        if not self.bad_rw_error:
            return True
        if write:
            return bool(reg.mask(lambda f: f.access != "RO"))
        return bool(reg.mask(lambda f: f.access != "WO"))

    def response(self, reg: Reg | None, write: bool) -> int:
        """The AXI response of :meth:`allowed`: OKAY or SLVERR."""
        return OKAY if self.allowed(reg, write) else SLVERR

    def hwset(self, name: str) -> None:
        """Hardware sets field ``name`` ("REG.FIELD")."""
        reg = next(r for r in self.regs if r.name_of_fields == name.split(".")[0])
        self.value[reg.name] |= next(f.mask for f in reg.fields if f.name == name)

    def wipe(self) -> None:
        """What hardware's clear (hwclr) does: those fields become 0."""
        for r in self.regs:
            self.value[r.name] &= ~r.mask(lambda f: f.hw_clear)


# ----------------------------------------------------------------------------------
# stretches, hangs, coverage
# ----------------------------------------------------------------------------------
class Stretch:
    """Random stretches of a wait/stall: :meth:`stalled` is True for runs of up to
    ``max_hold - 1`` cycles, a run starting with probability ``p`` in a free cycle."""

    def __init__(self, max_hold: int = MAX_HOLD) -> None:
        self.max_hold = max_hold
        self.hold = 0

    def stalled(self, rng: random.Random, p: float) -> bool:
        if self.hold:
            self.hold -= 1
            return True
        if rng.random() < p:
            self.hold = rng.randrange(self.max_hold)
            return True
        return False


class Watchdog:
    """The hang detector: while something is outstanding, some progress must happen
    every ``limit`` cycles."""

    def __init__(self, limit: int = HANG) -> None:
        self.limit = limit
        self.last = 0

    def progress(self, cycle: int) -> None:
        self.last = cycle

    def check(self, cycle: int, busy: bool, what: Callable[[], str]) -> None:
        if not busy:
            self.last = cycle
        elif cycle - self.last >= self.limit:
            raise AssertionError(f"hang: no progress for {self.limit} cycles ({what()})")


class Stats(dict[str, int]):
    """Coverage counters: kinds of transaction and situations seen."""

    def count(self, what: str, n: int = 1) -> None:
        self[what] = self.get(what, 0) + n

    def missing(self, want: Iterable[str]) -> list[str]:
        return [k for k in want if not self.get(k)]

    def line(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(self.items()))


def pauses(rng: random.Random, pct: int) -> Iterator[int]:
    """A cocotbext-axi pause generator: pause ``pct`` % of the cycles."""
    while True:
        yield int(rng.randrange(100) < pct)


# ----------------------------------------------------------------------------------
# valid/ready channels (AXI4-Lite, AXI4)
# ----------------------------------------------------------------------------------
class ReqChannel:
    """A request channel (AW, W, AR): a FIFO of (cycle not before, item); VALID held
    until READY, random junk on the payload while VALID is low."""

    def __init__(self, dut: Any, name: str, payload: Mapping[str, Callable[[Any], int]],
                 junk: Mapping[str, int], prefix: str = "s_axil_") -> None:
        self.name = name.upper()
        self.valid = getattr(dut, f"{prefix}{name}valid")
        self.ready = getattr(dut, f"{prefix}{name}ready")
        self.payload = {getattr(dut, f"{prefix}{s}"): get for s, get in payload.items()}
        self.junk = {getattr(dut, f"{prefix}{s}"): bits for s, bits in junk.items()}
        self.q: deque[tuple[int, Any]] = deque()
        self.cur: Any = None
        self.on = False
        self.waited = 0
        self.valid.value = 0

    def handshake(self) -> Any:
        """The item whose handshake happened at this edge, if any."""
        t = self.cur
        if t is None:
            return None
        if int(self.ready.value):
            self.cur, self.waited = None, 0
            return t
        self.waited += 1
        return None

    def drive(self, cycle: int, rng: random.Random) -> None:
        if self.cur is not None:
            return
        if self.q and self.q[0][0] <= cycle:
            self.cur = self.q.popleft()[1]
            for sig, get in self.payload.items():
                sig.value = get(self.cur)
            self.valid.value = 1
            self.on = True
        elif self.on:
            self.valid.value = 0
            self.on = False
            for sig, bits in self.junk.items():      # payload is don't-care without VALID
                sig.value = rng.getrandbits(bits)


class RespChannel:
    """A response channel (B, R): READY held low for random stretches; the payload of a
    response held while not accepted must not change."""

    def __init__(self, dut: Any, name: str, payload: Sequence[str],
                 prefix: str = "s_axil_") -> None:
        self.name = name.upper()
        self.valid = getattr(dut, f"{prefix}{name}valid")
        self.ready_sig = getattr(dut, f"{prefix}{name}ready")
        self.payload = [getattr(dut, f"{prefix}{s}") for s in payload]
        self.ready = 0
        self.stretch = Stretch()
        self.held: tuple[int, ...] | None = None
        self.held_cycles = 0
        self.ready_sig.value = 0

    @property
    def hold(self) -> int:
        """Cycles READY stays low from now (a bench may set it)."""
        return self.stretch.hold

    @hold.setter
    def hold(self, cycles: int) -> None:
        self.stretch.hold = cycles

    def sample(self) -> tuple[int, ...] | None:
        """The payload accepted at this edge, if any; checks a held response."""
        valid = int(self.valid.value)
        if self.held is not None:
            assert valid, f"{self.name}VALID dropped before {self.name}READY"
        if not valid:
            return None
        got = tuple(int(s.value) for s in self.payload)
        if self.held is not None:
            assert got == self.held, f"{self.name} payload changed while held: {self.held} -> {got}"
        if self.ready:
            self.held = None
            return got
        self.held = got
        self.held_cycles += 1
        return None

    def drive(self, rng: random.Random, p_hold: float) -> None:
        ready = 0 if self.stretch.stalled(rng, p_hold) else 1
        if ready != self.ready:
            self.ready = ready
            self.ready_sig.value = ready


# ----------------------------------------------------------------------------------
# sizes, seeds, the pytest side
# ----------------------------------------------------------------------------------
def settings(default_seed: int, default_n: int = N_FAST) -> tuple[int, int]:
    """(transactions, seed) from AK_FUZZ_N / AK_FUZZ_SEED."""
    return (int(os.environ.get("AK_FUZZ_N", default_n)),
            int(os.environ.get("AK_FUZZ_SEED", default_seed)))


def run_fuzz(*, toplevel: str, sources: list[Path], test_module: str, test_dir: Path,
             testcase: str, n: int, seed: int, includes: Iterable[Path] = (),
             parameters: Mapping[str, object] | None = None,
             build_args: Sequence[str] = (), build_dir: Path | None = None) -> None:
    """Build ``toplevel`` (the same build as the endpoint's other benches when
    ``parameters`` and ``build_args`` are theirs) and run one fuzz cocotb test with
    ``n`` transactions and ``seed``."""
    from aeskit.sim.cocotb_run import run_cocotb

    print(f"{testcase}: seed {seed}, {n} transactions")
    run_cocotb(toplevel=toplevel, sources=sources, test_module=test_module,
               test_dir=test_dir, parameters=dict(parameters or {}), testcase=testcase,
               seed=seed, includes=list(includes), build_args=tuple(build_args),
               build_dir=build_dir, extra_env={"AK_FUZZ_N": n, "AK_FUZZ_SEED": seed})
