"""What the two compiled harnesses (:mod:`aeskit.harness.core` for a bare core,
:mod:`aeskit.harness.modes` for the mode engine over a core) share: building a
Verilator C++ executable into a cached, locked build directory, and talking to it
through text lines (one command in, one or more answer lines out; ``err <message>``
answers end the process).

The C++ side shares ``harness/ak_harness_util.h`` (hex parsing, the error exit, the
random generator for gaps and stalls); :data:`CPP_INCLUDE` is its directory and
:func:`cpp_common_bytes` its content for the build hashes.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from aeskit.sim.objcache import objcache_env
from aeskit.toolchain.paths import verilator

__all__ = ["BUILD_FLAGS_VERSION", "BULK_VERILATOR_ARGS", "CPP_INCLUDE", "FileRun",
           "HarnessError", "LineProcess", "build_executable", "build_seconds",
           "cpp_common_bytes"]

#: directory of the C++ header both harnesses include
CPP_INCLUDE = Path(__file__).resolve().parents[1] / "harness" / "cpp"
_COMMON_HEADERS = ("ak_harness_util.h",)
#: changes whenever the options of :func:`build_executable` change what is built (for the
#: build-directory hashes that include it)
BUILD_FLAGS_VERSION = "2"
#: Verilator options of the file path's harnesses only (the core's bulk harness and the
#: engine's lean builds). The core contract's checker stays bound in (``--assert``), but
#: the checks of ``unique``/``priority`` case statements are left out: with them
#: Verilator evaluates every arm of such a case each cycle instead of the selected one,
#: which halved ``ueno``'s model speed (ECB, 16 MiB, two processes: 1.25 MB/s with, 2.31
#: without; 27 Nov 2026). The tests' harnesses keep them.
BULK_VERILATOR_ARGS = ("--no-assert-case",)


class HarnessError(RuntimeError):
    """A harness or the design under it broke the protocol or the core contract."""


@dataclass(frozen=True)
class FileRun:
    """What a harness's bulk file command measured: model cycles, and the harness's own
    wall-clock and CPU time for them (reading and writing the files included)."""

    cycles: int
    seconds: float
    cpu_seconds: float


def cpp_common_bytes() -> bytes:
    """The shared C++ headers, for the build-directory hashes."""
    return b"".join((CPP_INCLUDE / h).read_bytes() for h in _COMMON_HEADERS)


def build_executable(bdir: Path, *, top: str, prefix: str, sources: Sequence[Path],
                     extra_args: Sequence[str] = (), jobs: int = 1, what: str,
                     progress: Callable[[str], None] | None = None,
                     defines: dict[str, str] | None = None,
                     stale: Sequence[Path] = ()) -> Path:
    """Compile ``sources`` (SystemVerilog and the harness ``.cpp``) with Verilator into
    ``bdir/harness`` unless it is there already; the build runs under a lock so
    parallel test workers build once. Returns the executable's path.

    ``defines`` are C++ macros of the harness. Only the executable, the log and the
    generated sources stay: the object folder (precompiled headers of about 140 MB)
    is removed after linking. ``stale`` folders (older builds of the same thing) are
    removed after a successful build, each unless another process holds its lock."""
    exe = bdir / "harness"
    bdir.mkdir(parents=True, exist_ok=True)
    with open(bdir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            return exe
        if progress:
            progress(f"building {what} (Verilator)")
        cmd = [
            verilator(), "--cc", "--exe", "--build", "-O3", "--x-assign", "fast",
            "--x-initial", "fast", "--noassert", "-Wno-fatal", "-Wno-lint", "-Wno-style",
            "--top-module", top, "--prefix", prefix, "--Mdir", str(bdir / "obj"),
            "-o", str(exe), "--build-jobs", str(jobs),
            "-CFLAGS", f"-O2 -std=c++17 -I{CPP_INCLUDE}"
            + "".join(f" -D{k}={v}" for k, v in (defines or {}).items()),
            *extra_args, *map(str, sources),
        ]
        env = {**objcache_env(), **os.environ,
               "MAKEFLAGS": "CFG_CXXFLAGS_PCH_I=-include"}
        log = bdir / "build.log"
        t0 = time.monotonic()
        with open(log, "w") as fh:
            res = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, check=False)
        if res.returncode != 0 or not exe.exists():
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
            raise HarnessError(f"{what}: build failed (log {log}):\n{tail}")
        shutil.rmtree(bdir / "obj", ignore_errors=True)
        (bdir / "build.seconds").write_text(f"{time.monotonic() - t0:.1f}\n")
    for old in stale:
        _remove_unlocked(old)
    return exe


def build_seconds(exe: Path) -> float | None:
    """How long the build of the executable ``exe`` took (None: not recorded)."""
    try:
        return float((exe.parent / "build.seconds").read_text())
    except (OSError, ValueError):
        return None


def _remove_unlocked(bdir: Path) -> None:
    """Remove the build folder ``bdir`` unless a build in it holds its lock."""
    try:
        with open(bdir / ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(bdir, ignore_errors=True)
    except OSError:
        pass  # in use, or gone already


#: a Verilator model's message when it stops (``[time] %Error: ...``)
_STOPPED = re.compile(r"(\[\d+\]\s*)?%(Error|Fatal)")


class LineProcess:
    """A running harness executable spoken to in text lines. Use as a context manager."""

    def __init__(self, exe: Path, name: str) -> None:
        self.exe = exe
        self.name = name
        self._proc = subprocess.Popen([str(exe)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, bufsize=1 << 20)

    def _send(self, text: str) -> None:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(text)
            self._proc.stdin.flush()
        except BrokenPipeError as exc:
            raise HarnessError(f"{self.name} exited: {self._read_rest()}") from exc

    def _read_rest(self) -> str:
        assert self._proc.stdout is not None
        return self._proc.stdout.read() or "(no output)"

    def _readline(self) -> str:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise HarnessError(f"{self.name} exited unexpectedly")
        if line.startswith("err "):
            raise HarnessError(f"{self.name}: {line[4:].strip()}")
        if _STOPPED.match(line):
            # Verilator stopped the model: a failed assertion (the core contract's
            # checker) or $stop; its message is the line, the rest of the output says
            # where
            rest = self._proc.stdout.read()
            raise HarnessError(f"{self.name}: the simulation stopped: {line.strip()}"
                               + (f"\n{rest.strip()}" if rest.strip() else ""))
        return line.rstrip("\n")

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                self._send("quit\n")
            except HarnessError:
                pass
            self._proc.wait(timeout=10)

    def __enter__(self):  # noqa: ANN204 - returns the subclass
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
