"""Cycle-level AXI4-Stream source and sink for fuzzing a stream endpoint
(``ak_axis_core``; tests/hw/systems/axis/test_axis_stream_fuzz.py), with the checks
the stream protocol asks of the other side.

:class:`StreamSource` drives ``s_axis_*``: beats from a queue, TVALID held until
TREADY with the payload unchanged (the source obeys the rules it checks), random
stretches of TVALID low between beats (:class:`aeskit.verif.axi4_mem.Stall`), and junk
on TDATA/TKEEP/TLAST while TVALID is low. :class:`StreamSink` drives TREADY low for
random stretches on ``m_axis_*`` and checks that a beat offered and not taken stays
offered with its payload (TDATA, TKEEP, TLAST, TUSER) unchanged; it logs every beat
taken. Call ``sample`` right after each rising edge (the signals then show the values
the edge sampled), then ``drive``; a broken rule raises :class:`StreamError` with the
bench's context (``where``).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aeskit.verif.axi4_mem import Stall


class StreamError(AssertionError):
    """The stream endpoint broke an AXI4-Stream rule."""


@dataclass(frozen=True)
class Beat:
    data: int          # TDATA: byte lane i in bits [8i+7:8i]
    keep: int          # TKEEP
    last: int          # TLAST
    user: int = 0      # TUSER (output side)

    def __str__(self) -> str:
        return (f"tdata {self.data:032x} tkeep {self.keep:04x} tlast {self.last} "
                f"tuser {self.user}")


class StreamSource:
    """Master of ``<prefix>_t*`` (tdata, tkeep, tlast, tvalid / tready)."""

    def __init__(self, dut: Any, prefix: str, rng: random.Random, lanes: int = 16) -> None:
        self.rng = rng
        self.valid = getattr(dut, f"{prefix}_tvalid")
        self.ready = getattr(dut, f"{prefix}_tready")
        self.data = getattr(dut, f"{prefix}_tdata")
        self.keep = getattr(dut, f"{prefix}_tkeep")
        self.last = getattr(dut, f"{prefix}_tlast")
        # a key-slot build's tdest (ak_axis_core KeySlots > 1): slot 0, held still
        if hasattr(dut, f"{prefix}_tdest"):
            getattr(dut, f"{prefix}_tdest").value = 0
        self.lanes = lanes
        self.q: deque[Beat] = deque()
        self.gap = Stall()
        self.junk = True
        self.on = False            # a beat is offered (TVALID high)
        self.sig = False           # TVALID as driven
        self.sent = 0              # beats taken
        self.last_cycle = 0        # cycle of the last handshake
        self.valid.value = 0

    def sample(self, cycle: int) -> Beat | None:
        """The beat taken at this edge, if any."""
        if self.on and int(self.ready.value):
            self.on = False
            self.sent += 1
            self.last_cycle = cycle
            return self.q.popleft()
        return None

    def drive(self, cycle: int) -> None:
        if self.on:
            return
        if self.q and self.gap.go(self.rng):
            b = self.q[0]
            self.data.value = b.data
            self.keep.value = b.keep
            self.last.value = b.last
            self.valid.value = 1
            self.on = self.sig = True
            return
        if self.sig:
            self.valid.value = 0
            self.sig = False
        if self.junk and self.rng.random() < 0.3:
            self.data.value = self.rng.getrandbits(8 * self.lanes)
            self.keep.value = self.rng.getrandbits(self.lanes)
            self.last.value = self.rng.getrandbits(1)

    def idle(self) -> bool:
        return not self.q and not self.on


class StreamSink:
    """Slave of ``<prefix>_t*`` (tdata, tkeep, tlast, tuser, tvalid / tready)."""

    def __init__(self, dut: Any, prefix: str, rng: random.Random,
                 where: Callable[[], str] = lambda: "") -> None:
        self.rng = rng
        self.where = where
        self.valid = getattr(dut, f"{prefix}_tvalid")
        self.ready = getattr(dut, f"{prefix}_tready")
        self.payload = [getattr(dut, f"{prefix}_t{s}") for s in ("data", "keep", "last", "user")]
        self.stall = Stall()
        self.rdy = 0
        self.held: Beat | None = None
        self.beats: list[Beat] = []
        self.last_cycle = 0
        self.held_cycles = 0
        self.ready.value = 0

    def sample(self, cycle: int) -> Beat | None:
        """The beat taken at this edge, if any; checks a beat held by TREADY low."""
        if not int(self.valid.value):
            if self.held is not None:
                raise StreamError(f"{self.where()}: TVALID dropped before TREADY "
                                  f"(held beat {self.held})")
            return None
        b = Beat(*(int(s.value) for s in self.payload))
        if self.held is not None and b != self.held:
            raise StreamError(f"{self.where()}: beat changed while TREADY was low: "
                              f"{self.held} -> {b}")
        if self.rdy:
            self.held = None
            self.beats.append(b)
            self.last_cycle = cycle
            return b
        self.held = b
        self.held_cycles += 1
        return None

    def drive(self, cycle: int) -> None:
        r = int(self.stall.go(self.rng))
        if r != self.rdy:
            self.rdy = r
            self.ready.value = r
