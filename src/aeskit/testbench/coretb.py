"""A reusable cocotb test bench for every core that speaks the core contract.

``CoreTB(dut)`` drives and checks any ``ak_*`` core with the ports of
``docs/core-contract.md``::

    tb = CoreTB(dut, gap_prob=0.3, stall_prob=0.5, seed=1)
    tb.start_clock()
    await tb.reset()
    key = await tb.load_key(bytes(16))          # waits for the handshake and the setup
    recs = [tb.send(b, decrypt=False) for b in blocks]
    await tb.drain()                            # every result arrived and was checked
    assert all(r.latency == 10 for r in recs)

One clocked loop owns every input of the core. Each cycle it drives the inputs right
after the rising edge and samples everything at the falling edge (values settled),
so a handshake seen at the falling edge after edge ``n`` happens at edge ``n + 1``.
Cycle numbers are rising-edge numbers counted since :meth:`start_clock`.

* Input driver: keys and blocks are sent in program order from one queue. A block
  is presented after a random gap (``gap_prob`` per cycle) and then held, unchanged,
  until accepted (AXI-Stream rule). A key is presented once every earlier block has
  been accepted; blocks sent after it wait until the key handshake.
* Output monitor: ``out_ready_i`` is low with probability ``stall_prob`` each cycle.
  It asserts the contract: ``out_data_o``/``out_tag_o`` stable and ``out_valid_o``
  held while ``out_valid_o && !out_ready_i``; no ``out_valid_o`` with nothing in
  flight; ``key_ready_o`` low while a block is in flight; ``in_ready_o`` low while
  the key setup runs.
* Scoreboard: expected results come from :class:`aeskit.model.AES` with the key in
  force when the block was sent; results must come in order with their tags.
* Cycle counters: every :class:`BlockRecord` holds the edges at which the block was
  accepted, at which ``out_valid_o`` was first high for it, and at which it left, so
  latency and initiation interval are exact; :class:`KeyRecord` holds the key setup.
  The terms are those of ``docs/core-contract.md`` and give the same numbers as the
  compiled harness (:mod:`aeskit.harness.core`): latency = first edge at which
  ``out_valid_o`` is high - accepting edge; interval = difference of accepting
  edges (:func:`intervals`); key setup = first edge at which ``in_ready_o`` is
  high - key handshake edge.

A violation raises :class:`ContractError` from the loop (failing the cocotb test)
and again from the next :meth:`drain`/:meth:`load_key`/:meth:`cycles`.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Event, FallingEdge, First, RisingEdge

from aeskit.model import AES

__all__ = ["BlockRecord", "ContractError", "CoreTB", "KeyLoad", "KeyRecord", "KEY_LEN_CODE",
           "intervals"]

#: key_len_i code per key length in bytes
KEY_LEN_CODE = {16: 0, 24: 1, 32: 2}


class ContractError(AssertionError):
    """The core broke the core contract or produced a wrong result."""


@dataclass
class BlockRecord:
    """One block sent through the core, with its cycle stamps (rising-edge numbers)."""

    index: int
    data: bytes
    decrypt: bool
    tag: int
    key: bytes
    expected: bytes
    accept_cycle: int | None = None   # edge of the in handshake
    valid_cycle: int | None = None    # first edge at which out_valid_o was high for it
    out_cycle: int | None = None      # edge of the out handshake
    result: bytes | None = None

    @property
    def latency(self) -> int:
        """Contract latency: from the accepting edge to the first edge at which
        out_valid_o is high for the block."""
        assert self.accept_cycle is not None and self.valid_cycle is not None
        return self.valid_cycle - self.accept_cycle

    @property
    def done(self) -> bool:
        return self.out_cycle is not None


@dataclass
class KeyRecord:
    """One key load: handshake edge and (if measured) the key setup cycles."""

    key: bytes
    key_len: int
    accept_cycle: int | None = None
    ready_cycle: int | None = None    # first edge at which in_ready_o was high

    @property
    def setup_cycles(self) -> int | None:
        """Cycles from the key handshake edge until in_ready_o is high."""
        if self.accept_cycle is None or self.ready_cycle is None:
            return None
        return self.ready_cycle - self.accept_cycle


def intervals(records: list[BlockRecord]) -> list[int]:
    """Cycles between the accepting edges of consecutive records."""
    acc = [r.accept_cycle for r in records]
    if any(a is None for a in acc):
        raise ValueError("a record was never accepted")
    return [b - a for a, b in zip(acc, acc[1:])]  # type: ignore[operator]


class KeyLoad:
    """A queued key load: its record and the events ``accepted`` (handshake done) and
    ``ready`` (key setup measured, or nothing to wait for)."""

    def __init__(self, rec: KeyRecord, refused: bool = False) -> None:
        self.rec = rec
        #: the core must refuse the key (a size its build lacks): no setup follows
        self.refused = refused
        self.accepted = Event()
        self.ready = Event()


class CoreTB:
    """Test bench for one core instance ``dut`` (the cocotb top-level handle).

    Args:
        dut: the core.
        gap_prob: probability of an idle cycle before each block is presented.
        stall_prob: probability of ``out_ready_i`` low in a cycle.
        seed: seed of the TB's random generator (gaps, stalls, tags).
        period_ns: clock period.
    """

    def __init__(self, dut: Any, *, gap_prob: float = 0.0, stall_prob: float = 0.0,
                 seed: int | None = None, period_ns: int = 10) -> None:
        self.dut = dut
        self.gap_prob = gap_prob
        self.stall_prob = stall_prob
        self.rng = random.Random(seed)
        self.period_ns = period_ns
        self.tag_width = len(dut.in_tag_i)
        self.log = dut._log
        #: rising edges since start_clock()
        self.cycle = 0
        self.blocks: list[BlockRecord] = []     # every block ever sent
        self.keys: list[KeyRecord] = []         # every key ever loaded
        self._queue: deque[BlockRecord | KeyLoad] = deque()
        self._cur: BlockRecord | KeyLoad | None = None   # presented, not yet accepted
        self._in_flight: deque[BlockRecord] = deque()     # accepted, not yet out
        self._setup: KeyLoad | None = None               # key accepted, in_ready_o awaited
        self._model: AES | None = None                    # key in force for send()
        self._model_key: bytes | None = None
        self._in_reset = False
        self._reset_cycle: int | None = None             # cycle the last reset began in
        self._paused = False
        self._idle = Event()
        self._idle.set()
        self._error: ContractError | None = None
        self._prev_stalled = False
        self._prev_out: tuple[int, int] | None = None
        self._loop_task: Any = None
        self._clock_started = False
        self._tag_next = 0
        self._last_progress = 0
        # what is on the pins now (writes are skipped when unchanged)
        self._pins: dict[str, int] = {}
        for name in ("key_valid_i", "in_valid_i", "out_ready_i", "key_len_i",
                     "in_decrypt_i", "in_tag_i", "key_i", "in_data_i"):
            self._set(name, 0)
        self.dut.rst_ni.value = 1

    # ------------------------------------------------------------------ public API
    def start_clock(self) -> None:
        """Start the clock and the TB's cycle loop (once)."""
        if self._clock_started:
            return
        self._clock_started = True
        cocotb.start_soon(Clock(self.dut.clk_i, self.period_ns, unit="ns").start())
        self._loop_task = cocotb.start_soon(self._loop())

    async def reset(self, cycles: int = 3) -> None:
        """Assert rst_ni (asynchronously) for ``cycles`` edges. Everything queued or in
        flight is discarded and the core is taken to have no key."""
        self.start_clock()
        self.dut.rst_ni.value = 0
        self._in_reset = True
        self._reset_cycle = self.cycle
        self._flush()
        await ClockCycles(self.dut.clk_i, cycles)
        await FallingEdge(self.dut.clk_i)
        self.dut.rst_ni.value = 1
        self._in_reset = False
        await RisingEdge(self.dut.clk_i)

    async def load_key(self, key: bytes, *, key_len: int | None = None,
                       wait_setup: bool = True, refused: bool = False) -> KeyRecord:
        """Load ``key`` (16/24/32 bytes, sent left-aligned). Waits for the handshake
        and, if ``wait_setup``, until ``in_ready_o`` rises (the setup is measured).
        ``key_len`` overrides the ``key_len_i`` code (e.g. 3 to test an illegal one).
        Blocks sent later use this key in the scoreboard (none if the code is illegal).
        ``refused``: the core's build lacks the key's size, so it must refuse it as an
        illegal code (no setup, no blocks under it).
        """
        item = self.queue_key(key, key_len=key_len, refused=refused)
        await item.accepted.wait()
        self._raise_if_error()
        if wait_setup:
            await item.ready.wait()
            self._raise_if_error()
        return item.rec

    def queue_key(self, key: bytes, *, key_len: int | None = None,
                  refused: bool = False) -> KeyLoad:
        """Queue a key load without waiting (see :meth:`load_key`)."""
        if len(key) not in KEY_LEN_CODE and key_len is None:
            raise ValueError(f"key must be 16, 24 or 32 bytes, got {len(key)}")
        code = KEY_LEN_CODE.get(len(key), 3) if key_len is None else key_len
        rec = KeyRecord(key=bytes(key), key_len=code)
        self.keys.append(rec)
        item = KeyLoad(rec, refused)
        self._queue.append(item)
        self._idle.clear()
        if code in KEY_LEN_CODE.values() and len(key) == (16, 24, 32)[code] and not refused:
            self._model_key = bytes(key)
            self._model = AES(self._model_key)
        else:
            self._model_key = None
            self._model = None
        return item

    def send(self, data: bytes, decrypt: bool = False, tag: int | None = None) -> BlockRecord:
        """Queue one block under the key most recently queued; return its record
        (filled in as the block goes through)."""
        if len(data) != 16:
            raise ValueError(f"a block is 16 bytes, got {len(data)}")
        if self._model is None or self._model_key is None:
            raise ValueError("queue a legal key before sending blocks")
        if tag is None:
            tag = self._tag_next
            self._tag_next = (self._tag_next + 1) % (1 << self.tag_width)
        elif not 0 <= tag < (1 << self.tag_width):
            raise ValueError(f"tag {tag} does not fit TagWidth {self.tag_width}")
        expected = self._model.decrypt(data) if decrypt else self._model.encrypt(data)
        rec = BlockRecord(index=len(self.blocks), data=bytes(data), decrypt=decrypt, tag=tag,
                          key=self._model_key, expected=expected)
        self.blocks.append(rec)
        self._queue.append(rec)
        self._idle.clear()
        return rec

    async def drain(self, timeout_cycles: int = 10_000) -> None:
        """Wait until everything queued has gone through and been checked. Raises
        :class:`ContractError` when no handshake happened for ``timeout_cycles``
        cycles (a hung core)."""
        self._last_progress = self.cycle
        while not self._idle.is_set():
            await self._idle_or_cycles(min(1000, timeout_cycles))
            self._raise_if_error()
            if not self._idle.is_set() and self.cycle - self._last_progress >= timeout_cycles:
                cur = self._cur.rec if isinstance(self._cur, KeyLoad) else self._cur
                raise ContractError(
                    f"cycle {self.cycle}: no progress for {timeout_cycles} cycles: "
                    f"{len(self._queue)} queued, {len(self._in_flight)} in flight, "
                    f"presenting {cur!r}, key setup pending: {self._setup is not None}")
        self._raise_if_error()

    async def cycles(self, n: int) -> None:
        """Wait ``n`` rising edges."""
        await ClockCycles(self.dut.clk_i, n)
        self._raise_if_error()

    def pause(self) -> None:
        """Stop driving and checking (the clock keeps running): the test drives the
        pins itself. Nothing may be queued or in flight."""
        if not self._idle.is_set():
            raise RuntimeError("pause() with blocks or keys still queued or in flight")
        self._paused = True

    def resume(self) -> None:
        """Take the pins back after :meth:`pause` (the core must be idle)."""
        self._pins.clear()
        self._prev_stalled = False
        self._prev_out = None
        self._paused = False

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    @property
    def idle(self) -> bool:
        """Nothing queued, presented, in flight or in key setup."""
        return self._idle.is_set()

    @property
    def setup_pending(self) -> bool:
        """A key was accepted and ``in_ready_o`` has not been high since (the key
        setup runs)."""
        return self._setup is not None

    # ------------------------------------------------------------------ internals
    async def _idle_or_cycles(self, n: int) -> None:
        await First(self._idle.wait(), ClockCycles(self.dut.clk_i, n))

    def _raise_if_error(self) -> None:
        if self._error is not None:
            raise self._error

    def _fail(self, msg: str) -> None:
        err = ContractError(f"cycle {self.cycle}: {msg}")
        if self._error is None:
            self._error = err
        # wake everybody waiting on the TB; they re-raise the error
        self._idle.set()
        for item in [*self._queue, self._cur, self._setup]:
            if isinstance(item, KeyLoad):
                item.accepted.set()
                item.ready.set()
        raise err

    def _set(self, name: str, value: int) -> None:
        if self._pins.get(name) != value:
            getattr(self.dut, name).value = value
            self._pins[name] = value

    def _get(self, name: str) -> int:
        v = getattr(self.dut, name).value
        try:
            return int(v)
        except ValueError:
            self._fail(f"{name} is not 0/1 but {v}")
            raise

    def _flush(self) -> None:
        for item in list(self._queue) + ([self._cur] if self._cur is not None else []):
            if isinstance(item, KeyLoad):
                item.accepted.set()
                item.ready.set()
        if self._setup is not None:
            self._setup.ready.set()
        self._queue.clear()
        self._cur = None
        self._in_flight.clear()
        self._setup = None
        self._model = None
        self._model_key = None
        self._prev_stalled = False
        self._prev_out = None
        self._idle.set()

    def _stale(self) -> str:
        """For a failure message: whether no block was accepted since the last reset."""
        since = self._reset_cycle
        if since is None or any(b.accept_cycle is not None and b.accept_cycle > since
                                for b in self.blocks):
            return ""
        return f" (a stale output: no block accepted since the reset in cycle {since})"

    def _update_idle(self) -> None:
        if not self._queue and self._cur is None and not self._in_flight and self._setup is None:
            self._idle.set()

    def _drive(self) -> None:
        if self._paused:
            return
        if self._in_reset:
            self._set("in_valid_i", 0)
            self._set("key_valid_i", 0)
            self._set("out_ready_i", 0)
            return
        # pick the next item when nothing is presented
        if self._cur is None and self._queue:
            head = self._queue[0]
            if isinstance(head, KeyLoad):
                # a key waits until every earlier block has been accepted
                self._cur = self._queue.popleft()
            elif self.gap_prob <= 0 or self.rng.random() >= self.gap_prob:
                self._cur = self._queue.popleft()
        cur = self._cur
        if isinstance(cur, KeyLoad):
            self._set("in_valid_i", 0)
            self._set("key_i", int.from_bytes(cur.rec.key.ljust(32, b"\0")[:32], "big"))
            self._set("key_len_i", cur.rec.key_len)
            self._set("key_valid_i", 1)
        elif cur is not None:
            self._set("key_valid_i", 0)
            self._set("in_data_i", int.from_bytes(cur.data, "big"))
            self._set("in_decrypt_i", int(cur.decrypt))
            self._set("in_tag_i", cur.tag)
            self._set("in_valid_i", 1)
        else:
            self._set("key_valid_i", 0)
            self._set("in_valid_i", 0)
        stall = self.stall_prob > 0 and self.rng.random() < self.stall_prob
        self._set("out_ready_i", 0 if stall else 1)

    def _sample(self) -> None:
        """At the falling edge: every handshake here happens at edge self.cycle + 1."""
        if self._in_reset or self._paused:
            return
        edge = self.cycle + 1
        out_valid = self._get("out_valid_o")
        out_ready = self._pins["out_ready_i"]

        # --- output monitor
        if out_valid:
            data = int(self.dut.out_data_o.value)
            tag = int(self.dut.out_tag_o.value)
            if self._prev_stalled and self._prev_out != (data, tag):
                pd, pt = self._prev_out if self._prev_out else (0, 0)
                self._fail(f"out_data_o/out_tag_o changed under stall (out_valid_o high, "
                           f"out_ready_i low): {pd:032x}/{pt:#x} -> {data:032x}/{tag:#x}")
            if not self._in_flight:
                self._fail("out_valid_o high with no block in flight" + self._stale())
            rec = self._in_flight[0]
            if rec.valid_cycle is None:
                rec.valid_cycle = edge
            if out_ready:
                self._last_progress = edge
                got = data.to_bytes(16, "big")
                rec.result = got
                rec.out_cycle = edge
                self._in_flight.popleft()
                if tag != rec.tag:
                    self._fail(f"block {rec.index}: tag {tag:#x}, expected {rec.tag:#x}")
                if got != rec.expected:
                    self._fail(
                        f"block {rec.index} ({'dec' if rec.decrypt else 'enc'}, key "
                        f"{rec.key.hex()}, in {rec.data.hex()}): got {got.hex()}, expected "
                        f"{rec.expected.hex()}")
            self._prev_out = (data, tag)
            self._prev_stalled = not out_ready
        else:
            if self._prev_stalled:
                self._fail("out_valid_o dropped while out_ready_i was low")
            self._prev_stalled = False
            self._prev_out = None

        # --- key setup measurement and contract checks on the ready signals
        need_in_ready = self._setup is not None or isinstance(self._cur, BlockRecord)
        in_ready = self._get("in_ready_o") if need_in_ready else 0
        if self._in_flight or isinstance(self._cur, KeyLoad):
            key_ready = self._get("key_ready_o")
            if key_ready and self._in_flight:
                self._fail(f"key_ready_o high with {len(self._in_flight)} block(s) in flight")
        else:
            key_ready = 0
        if self._setup is not None and in_ready:
            self._last_progress = edge
            self._setup.rec.ready_cycle = edge
            self._setup.ready.set()
            self._setup = None

        # --- input driver handshakes
        cur = self._cur
        if isinstance(cur, KeyLoad):
            if key_ready:
                self._last_progress = edge
                cur.rec.accept_cycle = edge
                cur.accepted.set()
                self._cur = None
                if cur.rec.key_len in KEY_LEN_CODE.values() and not cur.refused:
                    self._setup = cur
                else:
                    cur.ready.set()
        elif cur is not None and in_ready:
            if self._setup is not None:
                self._fail("in_ready_o high during the key setup")
            self._last_progress = edge
            cur.accept_cycle = edge
            self._in_flight.append(cur)
            self._cur = None
        self._update_idle()

    async def _loop(self) -> None:
        clk = self.dut.clk_i
        rise = RisingEdge(clk)
        fall = FallingEdge(clk)
        while True:
            await rise
            self.cycle += 1
            self._drive()
            await fall
            self._sample()
