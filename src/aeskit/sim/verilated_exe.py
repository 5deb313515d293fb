"""What the two compiled harnesses (:mod:`aeskit.sim.harness` for a bare core,
:mod:`aeskit.sim.mode_harness` for the mode engine over a core) share: building a
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
import subprocess
from pathlib import Path
from typing import Callable, Sequence

from aeskit.toolchain.paths import verilator

__all__ = ["CPP_INCLUDE", "HarnessError", "LineProcess", "build_executable", "cpp_common_bytes"]

#: directory of the C++ header both harnesses include
CPP_INCLUDE = Path(__file__).with_name("harness")
_COMMON_HEADERS = ("ak_harness_util.h",)


class HarnessError(RuntimeError):
    """A harness or the design under it broke the protocol or the core contract."""


def cpp_common_bytes() -> bytes:
    """The shared C++ headers, for the build-directory hashes."""
    return b"".join((CPP_INCLUDE / h).read_bytes() for h in _COMMON_HEADERS)


def build_executable(bdir: Path, *, top: str, prefix: str, sources: Sequence[Path],
                     extra_args: Sequence[str] = (), jobs: int = 1, what: str,
                     progress: Callable[[str], None] | None = None) -> Path:
    """Compile ``sources`` (SystemVerilog and the harness ``.cpp``) with Verilator into
    ``bdir/harness`` unless it is there already; the build runs under a lock so
    parallel test workers build once. Returns the executable's path."""
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
            "-CFLAGS", f"-O2 -std=c++17 -I{CPP_INCLUDE}",
            *extra_args, *map(str, sources),
        ]
        env = {**os.environ, "MAKEFLAGS": "CFG_CXXFLAGS_PCH_I=-include"}
        log = bdir / "build.log"
        with open(log, "w") as fh:
            res = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT, env=env, check=False)
        if res.returncode != 0 or not exe.exists():
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-30:])
            raise HarnessError(f"{what}: build failed (log {log}):\n{tail}")
        return exe


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
