"""``aeskit bench filepath``: the speed of the RTL file path (``aeskit encrypt``/``decrypt``
in ECB, CBC, CTR, CFB, OFB), per core and mode.

For each core and mode a file of random bytes goes through the bulk path
(:func:`aeskit.crypt.bulk.crypt_file`: the Verilator model of the mode engine on the core,
both engine streams where the blocks are independent; ECB on the core's bulk harness);
the output is compared with
OpenSSL (``cryptography``) and a difference is an error (:class:`BenchCheckFailed`), so a
wrong fast result never counts. Measured: MB/s (wall clock, and per CPU second of the
harness processes: the machine may be shared), model cycles per second, cycles per
block, and the harness's build time.

The key is the core's smallest key size (128 bits but for ``ttable_unrolled_192/256``).
Targets (issue 17): 10 MB/s on ``round`` and 5 MB/s on every core, for ECB and CTR; in
a sequential mode (CBC/CFB encryption, OFB) a core is bound by its latency:
``bound_mb_s`` is 16 bytes x the model's cycles per CPU second / cycles per block.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

from aeskit.names import name_list
from aeskit.hw import CORES, get_core
from aeskit.hw.registry import CoreSpec

__all__ = ["DEFAULT_MODES", "MODES", "BenchCheckFailed", "BenchError", "FilepathResult",
           "parse_modes", "parse_size_mib", "run_filepath", "target_mb_s"]

#: bench mode name -> (engine mode, decrypt)
MODES: dict[str, tuple[str, bool]] = {
    "ecb": ("ecb", False), "ecb-dec": ("ecb", True), "ctr": ("ctr", False),
    "cbc": ("cbc", False), "cbc-dec": ("cbc", True), "cfb": ("cfb", False),
    "cfb-dec": ("cfb", True), "ofb": ("ofb", False),
}
DEFAULT_MODES = ("ecb", "ctr", "cbc")
DEFAULT_SIZE_MIB = 64.0
#: the largest file (the engine counts message bytes in 32 bits)
MAX_SIZE_MIB = 4095.0


class BenchError(ValueError):
    """Bad benchmark arguments (checked before anything is built)."""


class BenchCheckFailed(RuntimeError):
    """The RTL's output differs from OpenSSL's."""


def target_mb_s(core: str) -> float:
    """Issue 17's target for the file path on ``core`` (ECB and CTR)."""
    return 10.0 if core == "round" else 5.0


def parse_size_mib(text: str | float) -> int:
    """A size in MiB (a positive number, fractions allowed) -> bytes, whole 16-byte
    blocks (rounded down), at least one block; BenchError otherwise."""
    try:
        mib = float(text)
    except ValueError:
        raise BenchError(f"--size-mib: not a number: {text!r}") from None
    if not 0 < mib <= MAX_SIZE_MIB:
        raise BenchError(f"--size-mib must be more than 0 and at most {MAX_SIZE_MIB:g}, "
                         f"got {text}")
    size = int(mib * (1 << 20)) // 16 * 16
    if size < 16:
        raise BenchError(f"--size-mib {text} is less than one 16-byte block")
    return size


def _names(text: str, option: str, known: Sequence[str], what: str) -> list[str]:
    return name_list(text, option, known, what, BenchError)


def parse_modes(text: str | None) -> list[str]:
    """``"ecb,ctr"`` -> the bench modes (default :data:`DEFAULT_MODES`)."""
    return list(DEFAULT_MODES) if text is None else _names(text, "--modes", list(MODES), "mode")


def parse_cores(text: str | None) -> list[CoreSpec]:
    """``"round,pipe2"`` -> registry cores (default: all of them)."""
    if text is None:
        return list(CORES)
    return [get_core(n) for n in _names(text, "--cores", [c.name for c in CORES], "core")]


@dataclass(frozen=True)
class FilepathResult:
    """One core and mode of the benchmark (output checked against OpenSSL)."""

    core: str
    mode: str
    key_bits: int
    size: int
    #: engine streams in use over all processes, and harness processes
    parts: int
    jobs: int
    seconds: float
    cpu_seconds: float
    cycles: int
    cycles_per_block: float
    #: model cycles per wall-clock second of one harness process
    cycles_per_s: float
    #: build time of the core's harness (seconds; None: not recorded) and whether this
    #: run found it built already
    build_s: float | None
    build_cached: bool
    #: wall-clock time of the whole operation as ``aeskit encrypt`` sees it (the
    #: harness's start, key load and file writes included; build excluded)
    total_s: float

    @property
    def mb_s(self) -> float:
        return self.size / self.total_s / 1e6

    @property
    def cpu_mb_s(self) -> float:
        """MB/s per CPU second of the harness processes (what one free CPU each reaches)."""
        return self.size / self.cpu_seconds * self.jobs / 1e6 if self.cpu_seconds else 0.0

    @property
    def bound_mb_s(self) -> float:
        """16 bytes x model cycles per CPU second / cycles per block."""
        cps = self.cycles * self.jobs / self.cpu_seconds if self.cpu_seconds else 0.0
        return 16 * cps / self.cycles_per_block / 1e6 if self.cycles_per_block else 0.0

    def as_json(self) -> dict[str, object]:
        return {**asdict(self), "mb_s": round(self.mb_s, 3), "cpu_mb_s": round(self.cpu_mb_s, 3),
                "bound_mb_s": round(self.bound_mb_s, 3), "target_mb_s": target_mb_s(self.core)}


def _reference(mode: str, key: bytes, iv: bytes, data: bytes, decrypt: bool) -> bytes:
    from aeskit.crypt.filecrypt import reference_crypt

    return reference_crypt(mode, key, None if mode == "ecb" else iv, data, decrypt)


def run_one(core: CoreSpec, bench_mode: str, src: Path, dst: Path, data: bytes, *,
            jobs: int = 1, progress: Callable[[str], None] | None = None) -> FilepathResult:
    """Benchmark one core and mode on ``data`` (already in ``src``); BenchCheckFailed
    when the output differs from OpenSSL's."""
    from aeskit.harness import core as harness
    from aeskit.harness import modes as mode_harness
    from aeskit.crypt.bulk import bulk_build, crypt_file, direct
    from aeskit.crypt.filecrypt import check_args
    from aeskit.sim.verilated_exe import build_seconds

    mode, decrypt = MODES[bench_mode]
    rng = random.Random(f"{core.name}/{bench_mode}")
    key = rng.randbytes(min(core.key_sizes) // 8)
    iv = rng.randbytes(16)
    check_args(core, mode, key, None if mode == "ecb" else iv, decrypt, len(data))
    if direct(mode):
        build = None
        cached = harness.harness_built(core, bulk=True)
        exe = harness.build_harness(core, progress, bulk=True)
    else:
        build = bulk_build(core)
        cached = mode_harness.harness_built(core, build)
        exe = mode_harness.build_mode_harness(core, progress, build)
    t0 = time.monotonic()
    run = crypt_file(core, mode, key, iv, src, dst, decrypt, jobs=jobs, build=build,
                     progress=progress)
    total = time.monotonic() - t0
    got = dst.read_bytes()
    want = _reference(mode, key, iv, data, decrypt)
    if got != want:
        bad = next((i for i in range(min(len(got), len(want))) if got[i] != want[i]),
                   min(len(got), len(want)))
        raise BenchCheckFailed(f"core {core.name}, {bench_mode}: the RTL output differs from "
                               f"OpenSSL at byte {bad} (block {bad // 16})")
    return FilepathResult(core.name, bench_mode, 8 * len(key), len(data), run.parts,
                          len(run.runs), run.seconds, run.cpu_seconds, run.cycles,
                          run.cycles_per_block, run.cycles_per_second, build_seconds(exe),
                          cached, total)


def run_filepath(cores: Sequence[CoreSpec], modes: Sequence[str], size: int, *, jobs: int = 1,
                 seed: int = 1, progress: Callable[[str], None] | None = None,
                 workdir: Path | None = None) -> Iterator[FilepathResult]:
    """Benchmark every core in every mode on ``size`` random bytes (one file for all);
    yields each result as it is measured."""
    if jobs < 1:
        raise BenchError(f"--jobs must be 1 or more, got {jobs}")
    for m in modes:
        if m not in MODES:
            raise BenchError(f"unknown mode {m!r}; known: {', '.join(MODES)}")
    data = random.Random(seed).randbytes(size)
    with tempfile.TemporaryDirectory(prefix="aeskit-bench-", dir=workdir) as tmp:
        src, dst = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
        src.write_bytes(data)
        for core in cores:
            for m in modes:
                yield run_one(core, m, src, dst, data, jobs=jobs, progress=progress)
                os.truncate(dst, 0)
