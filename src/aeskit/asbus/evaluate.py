"""Paper 000's evaluation on the RTL: cycles, toggles and area of ADAM and XDAM.

:func:`evaluate` runs, for every bus and width asked for, the paper's three cases on a
traced Verilator build (:func:`aeskit.asbus.run.measure` with ``toggles=True``) and,
unless ``synth=False``, the ECP5 flow (:func:`aeskit.asbus.area.synth_area`). Both
are cached: simulation records in ``build/asbus/runs/<bus>-<W>.json`` (keyed on the
RTL, the bench and the counter), synthesis by the flow in ``build/asbus/synth/``.
The simulator's output goes to ``build/asbus/runs/<bus>-<W>.log``. On ASBUS the records
include the stream tests (:data:`aeskit.asbus.cases.STREAM_TESTS`, run untraced on
their own build: ``toggles`` ``None``); AXI has no counterpart of them.

:mod:`aeskit.asbus.tables` renders the three tables (cycles, efficiency, area) that
``aeskit asbus`` prints and the report shows.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.asbus.area import AreaRecord, synth_area
from aeskit.asbus.cases import STREAM_TESTS, TESTS, CycleRecord
from aeskit.synth.seeds import DEFAULT_SEEDS

__all__ = ["BUSES", "RUNS_DIR", "AsbusRecord", "Evaluation", "EvaluationError", "WIDTHS",
           "cached_evaluation", "evaluate", "parse_buses", "parse_widths", "simulate",
           "tests_of"]

WIDTHS = (32, 64, 128)
BUSES = ("asbus", "axi")
RUNS_DIR = BUILD_ROOT / "asbus" / "runs"
_PKG = Path(__file__).resolve().parent
#: the modules of this package a simulation result depends on (the cache key)
_SIM_MODULES = ("bench", "bench_build", "cases", "model", "paper_bench", "run", "tb")

Progress = Callable[[str], None]


class EvaluationError(ValueError):
    """A bad width or bus name; the message names it and what is allowed."""


@dataclass(frozen=True)
class AsbusRecord:
    """One test case on one bus at one width (the ``aeskit asbus --json`` record)."""

    test: str
    bus: str
    width: int
    measured_cycles: int
    model_cycles: float
    paper_cycles: int
    toggles: int | None     # None: a stream test (untraced run)
    lut4: int | None
    fmax: float | None
    ff: int | None = None
    io: int | None = None
    write_cycles: int | None = None
    read_cycles: int | None = None
    t_start_ps: int | None = None
    t_end_ps: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Evaluation:
    """Records of every (test, bus, width) and the area of every (bus, width)."""

    widths: list[int]
    buses: list[str]
    records: list[AsbusRecord]
    areas: dict[tuple[str, int], AreaRecord] = field(default_factory=dict)

    def record(self, test: str, bus: str, width: int) -> AsbusRecord | None:
        for r in self.records:
            if (r.test, r.bus, r.width) == (test, bus, width):
                return r
        return None

    def to_json(self) -> dict[str, Any]:
        return {"widths": self.widths, "buses": self.buses,
                "records": [r.as_dict() for r in self.records],
                "areas": [a.as_dict() for a in self.areas.values()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Evaluation:
        areas = [AreaRecord(**a) for a in data.get("areas", [])]
        return cls(list(data["widths"]), list(data["buses"]),
                   [AsbusRecord(**r) for r in data["records"]],
                   {(a.bus, a.width): a for a in areas})


def parse_widths(text: str | Iterable[int]) -> list[int]:
    """``"32,64"`` (or ints) -> ``[32, 64]``; raises :class:`EvaluationError`."""
    items = [s.strip() for s in text.split(",")] if isinstance(text, str) else list(text)
    out: list[int] = []
    for it in items:
        try:
            w = int(it)
        except (TypeError, ValueError):
            raise EvaluationError(f"width must be one of 32, 64, 128, got {it!r}") from None
        if w not in WIDTHS:
            raise EvaluationError(f"width must be one of 32, 64, 128, got {w}")
        if w not in out:
            out.append(w)
    if not out:
        raise EvaluationError("no width given (allowed: 32, 64, 128)")
    return out


def parse_buses(text: str | Iterable[str]) -> list[str]:
    """``"asbus,axi"`` -> ``["asbus", "axi"]``; raises :class:`EvaluationError`."""
    items = [s.strip() for s in text.split(",")] if isinstance(text, str) else list(text)
    out: list[str] = []
    for b in items:
        if b not in BUSES:
            raise EvaluationError(f"bus must be 'asbus' or 'axi', got {b!r}")
        if b not in out:
            out.append(b)
    if not out:
        raise EvaluationError("no bus given (allowed: asbus, axi)")
    return out


def tests_of(bus: str) -> tuple[str, ...]:
    """The tests ``aeskit asbus`` runs on ``bus``: the paper's three (and on ASBUS the
    stream tests)."""
    return TESTS + STREAM_TESTS if bus == "asbus" else TESTS


def _sim_key(bus: str, width: int, seed: int) -> str:
    from aeskit.asbus.run import ADAM_BUILD_ARGS, TRACE_ARGS, stream_build, top_of

    _, sources = top_of(bus)
    build: tuple = (TRACE_ARGS, ADAM_BUILD_ARGS)
    if bus == "asbus":
        stream_sources, params, args = stream_build(width)
        sources = [*sources, *stream_sources]
        build = (*build, sorted(params.items()), args, tests_of(bus))
    h = hashlib.sha256(repr((bus, width, seed, build)).encode())
    py = [*(_PKG / f"{m}.py" for m in _SIM_MODULES),
          *sorted((_PKG.parent / "busmodel").glob("*.py")),
          _PKG.parent / "sim" / "vcd_toggles.py", _PKG.parent / "sim" / "cocotb_run.py"]
    for p in [*sources, *py]:
        h.update(p.name.encode())
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


@contextlib.contextmanager
def _output_to(log: Path) -> Iterator[None]:
    """Send this process's (and its children's) stdout and stderr to ``log``."""
    log.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with open(log, "w") as fh:
        os.dup2(fh.fileno(), 1)
        os.dup2(fh.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def simulate(bus: str, width: int, *, seed: int = 0, force: bool = False,
             progress: Progress | None = None, vcd_dir: Path | None = None,
             capture: bool = True) -> list[CycleRecord]:
    """The three cases on a traced build of ``bus`` at ``width`` (on ASBUS then the
    stream tests on their untraced build), cached (see module doc).
    ``vcd_dir`` keeps the VCD (and forces a run when it is not there yet); ``capture``
    sends the simulator's output to the log (process-wide file descriptors: pass
    ``False`` when other threads print)."""
    from aeskit.asbus.run import measure

    say = progress or (lambda _m: None)
    cache = RUNS_DIR / f"{bus}-{width}.json"
    key = _sim_key(bus, width, seed)
    want_vcd = vcd_dir is not None and not (Path(vcd_dir) / f"{bus}-{width}.vcd").is_file()
    if not force and not want_vcd:
        from aeskit.store import load_file

        data = load_file(cache, _store_parts(bus, width, key))
        if data is not None:
            say(f"{bus} {width}-bit: cached simulation {cache}")
            return [CycleRecord(**r) for r in data["records"]]
    log = RUNS_DIR / f"{bus}-{width}.log"
    say(f"{bus} {width}-bit: traced simulation of the paper cases"
        + (" (then the stream tests, untraced)" if bus == "asbus" else "")
        + (f" (log {log})" if capture else ""))
    try:
        with _output_to(log) if capture else contextlib.nullcontext():
            recs = measure(widths=(width,), buses=(bus,), seed=seed, toggles=True, vcd_dir=vcd_dir)
    except Exception as exc:
        raise RuntimeError(f"{bus} {width}-bit simulation failed: {exc}\nlog: {log}") from exc
    # written whole and renamed: a reader (another process) never sees half a file
    from aeskit.store import save_file

    save_file(cache, _store_parts(bus, width, key),
              {"key": key, "records": [r.as_dict() for r in recs]})
    return recs


def _store_parts(bus: str, width: int, key: str) -> dict[str, Any]:
    """The results-store key parts of one (bus, width) simulation record."""
    return {"kind": "asbus_sim", "bus": bus, "width": width, "key": key}


def cached_evaluation(widths: Iterable[int] = WIDTHS,
                      buses: Iterable[str] = BUSES) -> Evaluation | None:
    """The simulation records in the caches, if every (bus, width) has a current one;
    no area. Runs nothing (for a report made without synthesis)."""
    ws, bs = parse_widths(widths), parse_buses(buses)
    records: list[AsbusRecord] = []
    for width in ws:
        for bus in bs:
            from aeskit.store import load_file

            key = _sim_key(bus, width, 0)
            data = load_file(RUNS_DIR / f"{bus}-{width}.json", _store_parts(bus, width, key))
            if data is None:
                return None
            for r in data["records"]:
                records.append(AsbusRecord(
                    r["test"], r["bus"], r["width"], r["measured_cycles"], r["model_cycles"],
                    r["paper_cycles"], r["toggles"], None, None, None, None, r["write_cycles"],
                    r["read_cycles"], r["t_start_ps"], r["t_end_ps"]))
    return Evaluation(ws, bs, records)


def evaluate(widths: Iterable[int] = WIDTHS, buses: Iterable[str] = BUSES, *,
             synth: bool = True, force: bool = False, seed: int = 0,
             progress: Progress | None = None, vcd_dir: Path | None = None,
             capture: bool = True,
             placement_seeds: Iterable[int] = DEFAULT_SEEDS) -> Evaluation:
    """Simulate (and synthesize) every bus and width; see the module doc and
    :func:`simulate` for ``vcd_dir`` and ``capture``. ``seed`` seeds the simulations'
    random data; ``placement_seeds`` are nextpnr's (the area record is the median
    seed's, :func:`aeskit.asbus.area.synth_area`)."""
    ws, bs = parse_widths(widths), parse_buses(buses)
    placement_seeds = tuple(placement_seeds)
    say = progress or (lambda _m: None)
    areas: dict[tuple[str, int], AreaRecord] = {}
    records: list[AsbusRecord] = []
    for width in ws:
        for bus in bs:
            area = None
            if synth:
                say(f"{bus} {width}-bit: synthesis (ECP5, nextpnr router2, seeds "
                    f"{', '.join(map(str, placement_seeds))})")
                area = synth_area(bus, width, force=force, seeds=placement_seeds,
                                  progress=lambda m, b=bus, w=width: say(f"{b} {w}-bit: {m}"))
                areas[(bus, width)] = area
            recs = {r.test: r for r in simulate(bus, width, seed=seed, force=force,
                                                progress=say, vcd_dir=vcd_dir,
                                                capture=capture)}
            for test in tests_of(bus):
                r = recs[test]
                if r.toggles is None and test not in STREAM_TESTS:
                    raise RuntimeError(f"{test} {bus} {width}: no toggle count")
                records.append(AsbusRecord(
                    r.test, r.bus, r.width, r.measured_cycles, r.model_cycles, r.paper_cycles,
                    r.toggles, area.lut4 if area else None, area.fmax_mhz if area else None,
                    area.ff if area else None, area.io if area else None,
                    r.write_cycles, r.read_cycles, r.t_start_ps, r.t_end_ps))
    return Evaluation(ws, bs, records, areas)
