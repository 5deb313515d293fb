"""Random resets and unknown initial state for the SYSTEMS (the bus tops, ADAM/XDAM and
the mode engine): the pieces the per-system tests share.

The cores have theirs in :mod:`aeskit.testbench.corebench` (``random_resets``,
``initial_state``); a system's test (``tests/hw/systems/<system>/test_<system>_reset.py``,
``tests/hw/modes/test_mode_engine_reset.py``) reuses its own bench's drivers and adds
what is special about the system (what a phase is, what "stale" means, the reset state
of its registers). What is shared:

* :func:`reset_when`: assert ``rst_ni`` asynchronously (1 to 3 ns after a falling
  edge, i.e. between clock edges) in the first cycle, ``delay`` cycles or more from now,
  in which a predicate (the phase the test aims at) holds, for 1..5 rising edges or
  (one time in four) for 2 ns that no clock edge sees, with a check of the outputs
  1 ns after it falls and at every falling edge while it is low; release at a falling
  edge (or at once).
* :func:`expect_quiet`: signals held at given values for a number of cycles (nothing
  stale comes out after a reset: no valid, no response, no interrupt; the idle state).
* :class:`Guard`: from a reset until the next request, however long the software takes,
  these signals stay 0 (no stale output beat, response, DMA request, interrupt).
* :class:`Since`: cycles since a condition (a key handshake), to aim at a key setup;
  :func:`cancel` stops the software at a reset (re-raising a failure it had before);
  :func:`quiet_bus_models` silences the bus models' warnings about flushed transfers.
* :func:`initial_snapshot`: the initial-state check's start: ``rst_ni`` high (and the
  inputs defined) before the simulator's first evaluation, so no seed starts half
  reset; the outputs before any reset go to :data:`INITIAL_FILE` (the seeds must give
  different ones, or the randomisation is not real).
* :class:`Transcript`: what the checks after the first reset saw (results, cycle
  counts), written to :data:`AFTER_FILE`; every seed must give the same transcript.
* :func:`run_seeds` (pytest side): one build, the check under every
  ``+verilator+seed`` of :data:`SEEDS`; failures name their seed; the snapshots must
  differ, the transcripts must not.
* :func:`rdl_reset_reads`: the value every register of a SystemRDL map reads after a
  reset (storage fields: their reset value; write-only fields: 0; hardware-driven
  status fields: what the caller says).

Every build these tests use is the one the system's own bench makes in the same tier
(the same top, sources, parameters and build arguments), so no Verilator build is
added; the seed is the run-time plusarg ``+verilator+seed`` of
:func:`aeskit.sim.cocotb_run.run_cocotb` (builds: ``--x-assign unique --x-initial
unique``, runs: ``+verilator+rand+reset+2``).
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import cocotb
from cocotb.handle import Immediate
from cocotb.triggers import FallingEdge, RisingEdge, Timer

__all__ = ["AFTER_FILE", "INITIAL_FILE", "SEEDS", "TRAFFIC_SEED", "Guard", "Since", "Transcript",
           "cancel", "env_int", "expect_quiet", "handle", "initial_snapshot", "pulse",
           "quiet_bus_models", "rdl_reset_reads", "reset_when", "run_seeds", "sample", "when"]

#: the ``+verilator+seed`` values of the initial-state checks (every other run uses 1)
SEEDS = (2, 3, 4, 5, 6)
#: the seed of the traffic of an initial-state check: the same for every Verilator
#: seed, so that the transcripts after the reset must be identical
TRAFFIC_SEED = 77
#: files (in the simulation's folder) of the initial-state check: the outputs before
#: the first reset, and the transcript after it
INITIAL_FILE = "initial_state.txt"
AFTER_FILE = "after_reset.txt"


def env_int(name: str, default: int) -> int:
    return int(os.environ.get(name, str(default)))


def handle(dut: Any, path: str) -> Any:
    """The handle of ``path`` below ``dut`` (dotted: ``"u_dut.e_out_valid"``)."""
    h = dut
    for part in path.split("."):
        h = getattr(h, part)
    return h


def sample(dut: Any, path: str) -> int:
    return int(handle(dut, path).value)


def quiet_bus_models(dut: Any, *prefixes: str) -> None:
    """Errors only from the cocotbext bus models on these port prefixes: at every reset
    they warn about each transfer they flush, which is what a reset is meant to do."""
    for p in prefixes:
        logging.getLogger(f"cocotb.{dut._name}.{p}").setLevel(logging.ERROR)


def cancel(*tasks: Any) -> None:
    """Stop the bench's software tasks (at a reset). A task that already failed re-raises
    its error here, so a check that failed before the reset is not lost."""
    for t in tasks:
        if t is None:
            continue
        if t.done():
            if not t.cancelled() and t.exception() is not None:
                raise t.exception()
            continue
        t.cancel()


class Since:
    """Cycles since ``cond()`` last held, sampled at every falling edge (a handshake seen
    there happens at the next rising edge); ``None`` before it ever did. E.g. the cycles
    since the core's key handshake, to aim a reset at a key setup."""

    def __init__(self, dut: Any, cond: Callable[[], bool]) -> None:
        self.dut, self.cond = dut, cond
        self.value: int | None = None
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await FallingEdge(self.dut.clk_i)
            if self.value is not None:
                self.value += 1
            if self.cond():
                self.value = 0

    def clear(self) -> None:
        """Forget (at a reset)."""
        self.value = None

    def within(self, cycles: int) -> bool:
        """``cond()`` held less than ``cycles`` cycles ago."""
        return self.value is not None and self.value < cycles


def when(i: int) -> str:
    """Where in a :func:`pulse` its ``during(i)`` check is, for a failure message."""
    return "1 ns after rst_ni fell" if i == 0 else f"at falling edge {i} of the reset"


async def pulse(dut: Any, rng: random.Random, *, hold: int | None = None,
                during: Callable[[int], None] | None = None) -> int:
    """Assert ``rst_ni`` now (at most 3 ns after a falling edge of the 10 ns clock),
    check ``during(0)`` 1 ns later, before any clock edge (an asynchronous reset clears
    the outputs at once), then hold it low for ``hold`` rising edges (default: 0 one
    time in four, else 1..5), calling ``during(i)`` at the i-th falling edge while it is
    low, and release it at a falling edge; return after the next rising edge. With
    ``hold`` 0 the pulse ends 1 ns after the check, before the next rising edge: a
    reset that no clock edge sees. Returns the hold."""
    if hold is None:
        hold = 0 if rng.random() < 0.25 else rng.randint(1, 5)
    dut.rst_ni.value = 0
    await Timer(1, unit="ns")
    if during is not None:
        during(0)
    if hold == 0:
        await Timer(1, unit="ns")
    for i in range(1, hold + 1):
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        if during is not None:
            during(i)
    dut.rst_ni.value = 1
    await RisingEdge(dut.clk_i)
    return hold


async def reset_when(dut: Any, rng: random.Random, predicate: Callable[[], bool], *,
                     delay: int, limit: int, what: str,
                     before: Callable[[], None] | None = None,
                     during: Callable[[int], None] | None = None) -> int:
    """Reset in the first cycle, ``delay`` cycles or more from now, in which
    ``predicate()`` holds (sampled 1 ns after the falling edge: every bench has driven
    its inputs for the coming rising edge by then). ``rst_ni`` falls 1..3 ns after that
    falling edge (asynchronously, between clock edges); ``before()`` runs just before
    (stop the software, forget what is in flight); then :func:`pulse` with ``during``
    (one time in four a pulse of 2 ns that no clock edge sees, else 1..5 edges).
    Fails when the phase does not come within ``delay + limit`` cycles. Returns the
    number of cycles waited."""
    for waited in range(delay + limit):
        await FallingEdge(dut.clk_i)
        await Timer(1, unit="ns")
        if waited >= delay and predicate():
            hold = 0 if rng.random() < 0.25 else rng.randint(1, 5)
            extra = 0 if hold == 0 else rng.randint(0, 2)
            if extra:
                await Timer(extra, unit="ns")
            if before is not None:
                before()
            await pulse(dut, rng, hold=hold, during=during)
            dut._log.info("reset (%s) after %d cycles, held %d edges", what, waited, hold)
            return waited
    raise AssertionError(f"{what}: the phase never came in {delay + limit} cycles")


async def expect_quiet(dut: Any, cycles: int, signals: Mapping[str, int], what: str) -> None:
    """For ``cycles`` cycles (sampled at the falling edges) every signal of ``signals``
    (dotted paths below ``dut``) has its value: after a reset nothing stale comes out
    and the system is idle."""
    hs = {name: handle(dut, name) for name in signals}
    for i in range(1, cycles + 1):
        await FallingEdge(dut.clk_i)
        for name, want in signals.items():
            got = int(hs[name].value)
            assert got == want, (f"{what}, cycle {i} after the reset: {name} = {got:#x}, "
                                 f"expected {want:#x}")


class Guard:
    """From now until ``until()`` holds (sampled at every falling edge), every signal of
    ``zero`` (dotted paths) must stay 0: e.g. from a reset until the next job's START no
    DMA request, no response, no output beat, however long the software takes to get
    there. :meth:`check` raises the first violation (call it after the next
    operation); :meth:`stop` ends the watch (at a reset)."""

    def __init__(self, dut: Any, zero: Sequence[str], until: Callable[[], bool],
                 what: str) -> None:
        self.dut, self.what = dut, what
        self.hs = {name: handle(dut, name) for name in zero}
        self.until = until
        self.error: str | None = None
        self.cycles = 0
        self._task = cocotb.start_soon(self._run())

    async def _run(self) -> None:
        while True:
            await FallingEdge(self.dut.clk_i)
            if self.until():
                return
            self.cycles += 1
            for name, h in self.hs.items():
                if int(h.value) and self.error is None:
                    self.error = (f"{self.what}: {name} high {self.cycles} cycles after the "
                                  f"reset, before anything was asked for (a stale request "
                                  f"or response)")

    def stop(self) -> None:
        if not self._task.done():
            self._task.cancel()

    def check(self) -> None:
        self.stop()
        assert self.error is None, self.error


async def initial_snapshot(dut: Any, inputs: Mapping[str, int], outputs: Sequence[str],
                           seed: int) -> str:
    """The start of an initial-state check, before the clock runs: ``rst_ni`` high,
    ``clk_i`` low and ``inputs`` driven before the simulator's first evaluation (a
    random ``rst_ni`` low there would reset part of the registers before the test
    starts); 1 ns later the
    values of ``outputs`` (their registers' random initial values) go to
    :data:`INITIAL_FILE`, headed by the seed. Returns that text."""
    dut.rst_ni.value = Immediate(1)
    # the clock too: its random initial value would decide whether the clock's start is
    # a rising edge, and so shift every later cycle of the bench against its randomness
    dut.clk_i.value = Immediate(0)
    for name, value in inputs.items():
        handle(dut, name).value = Immediate(value)
    await Timer(1, unit="ns")
    text = " ".join(f"{n}={sample(dut, n):x}" for n in outputs)
    Path(INITIAL_FILE).write_text(f"seed {seed}\n{text}\n")
    return text


class Transcript:
    """What an initial-state check saw after its reset (results, cycle counts, register
    values), one line per item; :meth:`write` puts it in :data:`AFTER_FILE`, headed by
    the seed. The traffic is the same for every seed, so every seed must write the same
    transcript."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.lines: list[str] = []

    def add(self, *items: object) -> None:
        self.lines.append(" ".join(str(x) for x in items))

    def write(self) -> None:
        Path(AFTER_FILE).write_text(f"seed {self.seed}\n" + "\n".join(self.lines) + "\n")


def _read(results: Path, name: str, seed: int) -> str:
    text = (results.parent / name).read_text()
    head, _, body = text.partition("\n")
    assert head == f"seed {seed}", f"{name} is not the one of seed {seed}: {head!r}"
    return body


def run_seeds(run: Callable[[int], Path], what: str, seeds: Sequence[int] = SEEDS) -> None:
    """Run an initial-state check (``run(seed)`` returns the cocotb results file) under
    every seed: none may fail (the failures name their seed), the states before the
    reset must differ between the seeds (the randomisation is real), and the
    transcripts after it must be identical."""
    from aeskit.sim.cocotb_run import CocotbTestFailure

    failures: list[str] = []
    initial: dict[int, str] = {}
    after: dict[int, str] = {}
    for seed in seeds:
        try:
            results = run(seed)
        except CocotbTestFailure as exc:
            failures.append(f"+verilator+seed+{seed}: {exc}")
            continue
        initial[seed] = _read(results, INITIAL_FILE, seed)
        after[seed] = _read(results, AFTER_FILE, seed)
    assert not failures, (f"{what}: {len(failures)} of {len(seeds)} seeds failed:\n"
                          + "\n".join(failures))
    assert len(set(initial.values())) > 1, (
        f"{what}: every seed gave the same state before the reset, so the seed does not "
        f"randomise the initial state: {initial}")
    ref_seed = seeds[0]
    for seed, text in after.items():
        if text != after[ref_seed]:
            a, b = after[ref_seed].splitlines(), text.splitlines()
            first = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y),
                         min(len(a), len(b)))
            raise AssertionError(
                f"{what}: seeds {ref_seed} and {seed} behave differently after the reset "
                f"(line {first + 1}: {a[first] if first < len(a) else None!r} / "
                f"{b[first] if first < len(b) else None!r})")


def rdl_reset_reads(rdl: Path, hardware: Mapping[str, int] | None = None) -> dict[str, int]:
    """What every register of the map ``rdl`` reads right after a reset, by register
    name (``"KEY3"`` for element 3 of an array): readable fields with a reset value
    read it, write-only fields read 0, readable fields without one (driven by the
    hardware) read ``hardware["REG.FIELD"]`` (default 0: an idle system)."""
    from peakrdl_regblock.udps import ALL_UDPS
    from systemrdl import RDLCompiler
    from systemrdl.node import RegNode

    rdlc = RDLCompiler()
    for udp in ALL_UDPS:
        rdlc.register_udp(udp)
    rdlc.compile_file(str(rdl))
    top = rdlc.elaborate().top
    hw = dict(hardware or {})
    used: set[str] = set()
    out: dict[str, int] = {}
    for node in top.descendants(unroll=True):
        if not isinstance(node, RegNode):
            continue
        name = node.inst_name + (f"{node.current_idx[0]}" if node.current_idx else "")
        value = 0
        for f in node.fields():
            if not f.is_sw_readable:
                continue
            reset = f.get_property("reset")
            key = f"{node.inst_name}.{f.inst_name}"
            v = hw.get(key)
            used.add(key)
            if v is None:
                v = 0 if reset is None else int(reset)
            value |= v << f.lsb
        out[name] = value
    assert set(hw) <= used, f"{rdl.name}: no such fields {sorted(set(hw) - used)}"
    return out
