"""The C driver of ``sw/`` against the co-processor RTL, in one compiled executable.

``sw/test/coproc_drv.cpp`` links the driver (``sw/aeskit_coproc.c``, ``sw/aes_soft.c``,
compiled as C99 with ``-Wall -Wextra -Werror -pedantic``), the Verilated
``ak_coproc_sys`` (``ak_coproc`` + one registry core, rendered by
:mod:`aeskit.hw.systems.coproc`) and a main-memory model behind the AXI4 master
(``sw/test/ak_axi_mem.h``); the driver's register accesses drive the AXI4-Lite port
cycle by cycle. :func:`build_driver_exe` builds it (cached per source hash, locked build
directory under ``build/coproc_drv``); :func:`build_nodev_exe` builds the same front end
with the host compilers only, without RTL: the driver then finds no device and runs its
software fallback. :class:`CoprocDriver` runs jobs (one text line each, see the header
of ``coproc_drv.cpp``) and returns :class:`JobResult`.

The test executable is only C/C++ (the RTL it runs is the co-processor's, from its
manifests), so it lives beside the driver under ``sw/test/``.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from aeskit import BUILD_ROOT, HW_ROOT, REPO_ROOT
from aeskit.hw.codes import CoprocErr, DriverStatus
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.sim.verilated_exe import (
    CPP_INCLUDE,
    HarnessError,
    LineProcess,
    build_executable,
    cpp_common_bytes,
)

SW = REPO_ROOT / "sw"
DRIVER_C = (SW / "aes_soft.c", SW / "aeskit_coproc.c")
DRIVER_H = (SW / "aes_soft.h", SW / "aeskit_coproc.h", SW / "aeskit_codes.h",
            SW / "aeskit_port.h")
TEST_DIR = SW / "test"
EXE_CPP = TEST_DIR / "coproc_drv.cpp"
MEM_H = TEST_DIR / "ak_axi_mem.h"
#: the C header peakrdl-cheader generates from hw/systems/coproc/coproc.rdl
REGS_H_DIR = HW_ROOT / "systems" / "coproc" / "gen"
#: how the driver's C is compiled (the project's C rules)
C_FLAGS = ("-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic", "-O2")
#: first byte of the test memory window, its size (coproc_drv.cpp: kMemBase, kMemSize)
MEM_BASE = 0x8000_0000
MEM_SIZE = 1 << 20
#: default buffer addresses of a job (coproc_drv.cpp)
SRC_DEFAULT = MEM_BASE + 0x01000
AAD_DEFAULT = MEM_BASE + 0x40000
DST_DEFAULT = MEM_BASE + 0x80000
#: STATUS.ERR_CODE values and the driver's own codes (aeskit_status of
#: sw/aeskit_codes.h; both from aeskit.hw.codes)
STATUS_CODES: dict[str, int] = {
    **{e.name: int(e) for e in CoprocErr}, **{d.name: int(d) for d in DriverStatus}}
DEFAULT_CORE = "tbox_folded"


def _tool(name: str, fallback: str) -> str:
    found = shutil.which(name) or shutil.which(fallback)
    if found is None:
        raise HarnessError(f"no host compiler ({name} or {fallback}) on PATH")
    return found


def _sources_hash(extra: Sequence[bytes] = ()) -> str:
    h = hashlib.sha256()
    for p in (*DRIVER_C, *DRIVER_H, EXE_CPP, MEM_H, *sorted(REGS_H_DIR.glob("*.h"))):
        h.update(p.name.encode())
        h.update(p.read_bytes())
    h.update(cpp_common_bytes())
    h.update(" ".join(C_FLAGS).encode())
    for x in extra:
        h.update(x)
    return h.hexdigest()[:12]


def _compile_c(out_dir: Path) -> list[Path]:
    """The driver's C files as objects in ``out_dir`` (each written atomically)."""
    cc = _tool("cc", "gcc")
    objs = []
    for src in DRIVER_C:
        obj = out_dir / (src.stem + ".o")
        tmp = out_dir / f".{src.stem}.{os.getpid()}.o"
        cmd = [cc, *C_FLAGS, f"-I{SW}", f"-I{REGS_H_DIR}", "-c", str(src), "-o", str(tmp)]
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            raise HarnessError(f"compiling {src.name} failed:\n{res.stderr}")
        os.replace(tmp, obj)
        objs.append(obj)
    return objs


def _cpp_includes() -> list[str]:
    return [f"-I{SW}", f"-I{TEST_DIR}", f"-I{CPP_INCLUDE}", f"-I{REGS_H_DIR}"]


def build_nodev_exe(progress: Callable[[str], None] | None = None) -> Path:
    """The job front end on the driver's software fallback only (host compilers, no
    Verilator); cached under ``build/coproc_drv/nodev-<hash>``."""
    bdir = BUILD_ROOT / "coproc_drv" / f"nodev-{_sources_hash()}"
    exe = bdir / "harness"
    bdir.mkdir(parents=True, exist_ok=True)
    with open(bdir / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if exe.exists():
            return exe
        if progress:
            progress("building the driver test executable without device")
        objs = _compile_c(bdir)
        tmp = bdir / f".harness.{os.getpid()}"
        cmd = [_tool("c++", "g++"), "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror",
               "-DAK_NODEV", "-DAK_BEAT_BYTES=4", *_cpp_includes(), str(EXE_CPP),
               *map(str, objs), "-o", str(tmp)]
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if res.returncode != 0:
            raise HarnessError(f"building the no-device driver executable failed:\n{res.stderr}")
        os.replace(tmp, exe)
        return exe


def build_driver_exe(core: str = DEFAULT_CORE,
                     progress: Callable[[str], None] | None = None) -> Path:
    """The driver on the Verilated ``ak_coproc_sys`` for ``core`` (cached per source
    hash under ``build/coproc_drv/<core>-<hash>``, built under a lock)."""
    from aeskit.hw.registry import get_core
    from aeskit.hw.systems import coproc

    spec = get_core(core)
    sys_sv = coproc.system_sv(spec)
    rtl = [*spec.file_paths(), *coproc.coproc_paths()]
    h = _sources_hash([spec.source_hash().encode(), sys_sv.encode(), WAIVERS.read_bytes(),
                       *(p.read_bytes() for p in rtl)])
    bdir = BUILD_ROOT / "coproc_drv" / f"{spec.name}-{h}"
    exe = bdir / "harness"
    if exe.exists():
        return exe
    bdir.mkdir(parents=True, exist_ok=True)
    with open(bdir / ".cc.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        objs = _compile_c(bdir)
        sources = coproc.system_files(spec, bdir / "src")
    cflags = " ".join(["-DAK_BEAT_BYTES=4", *_cpp_includes()])
    # the waiver file first (as every Verilator run of the project): the generated
    # register block's style warnings are waived there, scoped to its files
    return build_executable(
        bdir, top=coproc.SYS_TOP, prefix="Vcoproc", sources=[WAIVERS, *sources, EXE_CPP],
        extra_args=["-CFLAGS", cflags, "-LDFLAGS", " ".join(map(str, objs)),
                    *(f"-I{p}" for p in spec.include_paths())],
        jobs=1, what=f"driver test executable for coproc + {spec.name}", progress=progress)


@dataclass(frozen=True)
class JobResult:
    """What the executable answers for one job."""

    status: str
    code: int
    out: bytes
    tag: bytes
    #: the co-processor's CYCLES register (start to done); 0 on the software path
    cycles: int
    #: clock cycles the driver spent from start to the end of its wait
    total: int
    #: calls of the interrupt hook
    irqs: int
    #: cycles irq_o was high during the job (0 expected for polled jobs)
    irq_high: int
    #: most AXI4 read bursts in flight at once
    max_reads: int
    #: the driver used the co-processor (0: software fallback)
    hw: bool
    #: status of the second aeskit_start of a ``busy`` job ("" otherwise)
    start2: str = ""
    #: register writes of aeskit_init (its CLEAR when it found the co-processor)
    init_writes: int = 0
    #: ``split=`` jobs (a message in parts): the status of each update
    part_status: tuple[str, ...] = ()
    #: ``split=`` jobs: the 32-byte context after each update, then after final
    contexts: tuple[bytes, ...] = ()


def job_line(*, mode: str, decrypt: bool = False, key: bytes, iv: bytes = b"",
             data: bytes = b"", aad: bytes = b"", tag: bytes = b"", tag_len: int = 0,
             wait: str = "poll", **opts: object) -> str:
    """The command line of one job; ``opts`` are the other keys of coproc_drv.cpp
    (``src``/``dst``/``aadaddr``/``ivaddr`` as ints, ``len``, ``lat``, ``stall``, ``seed``,
    ``err`` as a list of ``(kind, resp, lo, hi)``, ``fill``, ``busy``, ``extstart``,
    ``soft``, ``nokey``, ``clear``, ``waitonly``, ``fakeid``/``fakever`` as ints, ``split``
    as a list of ``(aad_len, len)`` pairs: the updates of a message in parts)."""
    parts = [f"mode={mode}", f"dir={'dec' if decrypt else 'enc'}", f"wait={wait}",
             f"key={key.hex()}", f"iv={iv.hex()}", f"data={data.hex()}", f"aad={aad.hex()}",
             f"tag={tag.hex()}", f"taglen={tag_len}"]
    for k, v in opts.items():
        if k == "err":
            for kind, resp, lo, hi in v:  # type: ignore[attr-defined]
                parts.append(f"err={kind}:{resp}:{lo:x}:{hi:x}")
        elif k == "split":
            parts.append("split=" + ",".join(f"{a}.{n}" for a, n in v))  # type: ignore[attr-defined]
        elif k in ("src", "dst", "aadaddr", "ivaddr", "fill", "fakeid", "fakever"):
            parts.append(f"{k}={int(v):x}")  # type: ignore[call-overload]
        elif isinstance(v, bool):
            parts.append(f"{k}={int(v)}")
        else:
            parts.append(f"{k}={v}")
    return "job " + " ".join(parts) + "\n"


class CoprocDriver(LineProcess):
    """A running driver test executable (RTL, or the software fallback with
    ``nodev=True``). Use as a context manager."""

    def __init__(self, core: str = DEFAULT_CORE, *, nodev: bool = False,
                 progress: Callable[[str], None] | None = None) -> None:
        exe = build_nodev_exe(progress) if nodev else build_driver_exe(core, progress)
        self.nodev = nodev
        super().__init__(exe, "driver test executable" + (" (no device)" if nodev else
                                                           f" for coproc + {core}"))

    def job(self, **kw: object) -> JobResult:
        """Run one job (arguments of :func:`job_line`)."""
        return self.jobs([kw])[0]

    def jobs(self, jobs: Sequence[dict[str, object]]) -> list[JobResult]:
        """Run jobs in order. The command lines are written by a thread while the answers
        are read here, so neither pipe can fill up and block the other side."""
        text = "".join(job_line(**kw) for kw in jobs)  # type: ignore[arg-type]
        errors: list[BaseException] = []

        def write() -> None:
            try:
                self._send(text)
            except BaseException as exc:  # noqa: BLE001 - reported below
                errors.append(exc)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        try:
            out = [self._result(self._readline()) for _ in jobs]
        finally:
            writer.join(timeout=10)
        if errors:
            raise errors[0]
        return out

    def _result(self, line: str) -> JobResult:
        if not line.startswith("res "):
            raise HarnessError(f"{self.name}: unexpected answer {line[:80]!r}")
        f = dict(x.split("=", 1) for x in line.split()[1:])
        return JobResult(status=f["status"], code=int(f["code"]),
                         out=bytes.fromhex(f["out"]), tag=bytes.fromhex(f["tag"]),
                         cycles=int(f["cycles"]), total=int(f["total"]), irqs=int(f["irqs"]),
                         irq_high=int(f["irqhigh"]), max_reads=int(f["maxrd"]),
                         hw=f["hw"] == "1", start2=f["start2"].strip("-"),
                         init_writes=int(f["initw"]),
                         part_status=tuple(x for x in f["partst"].strip("-").split(",") if x),
                         contexts=tuple(bytes.fromhex(x)
                                        for x in f["ctxs"].strip("-").split(",") if x))
