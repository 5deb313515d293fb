"""Bulk files through the RTL mode engine: the fast path of ``aeskit encrypt``/``decrypt``
for ECB, CBC, CTR, CFB-128 and OFB.

The data never passes through Python beat by beat: each harness process
(:class:`~aeskit.harness.modes.ModeHarness`, built with the engine's ``AeadModes`` = 0)
reads its span of the input file and writes its span of the output file itself
(``fmsg``). Where the blocks of a mode are independent -- ECB, CTR, and CBC and CFB
decryption -- the input is cut into parts at block boundaries, one per engine stream
and per process (``jobs``), each with the IV its first block needs (CTR: the counter
advanced by the blocks before it; CBC/CFB decryption: the ciphertext block before it).
CBC and CFB encryption and OFB chain every block to the one before, so they run as one
message on one stream: their speed is bound by the core's latency (see
:func:`sequential`).

One harness per core (:func:`bulk_build`): a one-stream engine where one stream already
keeps every block the core can hold in flight (the model is about a third faster per
cycle), else two streams.

ECB is the core itself: it runs on the core's bulk harness (:mod:`aeskit.harness.core` with
``bulk``: the core behind an input register, its ``file`` command), without the engine,
so the core takes blocks as fast as its own handshake allows (one per cycle on the
unrolled cores, where an engine stream keeps two in flight) and the model evaluates the
core alone (:func:`direct`).
"""

from __future__ import annotations

import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from aeskit.hw.registry import CoreSpec
from aeskit.harness import modes as mode_harness
from aeskit.harness.core import Harness, build_harness
from aeskit.harness.modes import LEAN, LEAN1, Build, FileMessage, FileRun, ModeHarness

__all__ = ["BULK_MODES", "BulkRun", "Part", "bulk_build", "crypt_bulk_bytes", "crypt_file",
           "direct", "parts", "sequential"]

#: the modes of the bulk path
BULK_MODES = ("ecb", "cbc", "ctr", "cfb", "ofb")
BLOCK = 16
#: blocks one engine stream keeps in flight on a core by default (the engine's InFlight)
STREAM_IN_FLIGHT = 2


def bulk_build(core: CoreSpec) -> Build:
    """The bulk path's harness for ``core``: one stream when the core never holds more
    blocks than one stream keeps in flight (latency / interval), else two streams, each
    keeping its share of the blocks the core holds in flight (the engine's InFlight,
    plus two for the cycles a result and the next request overlap)."""
    in_flight = max(-(-core.latency[k] // core.interval[k]) for k in core.latency)
    if in_flight <= STREAM_IN_FLIGHT:
        return LEAN1
    per_stream = -(-in_flight // LEAN.streams) + 2
    return LEAN if per_stream <= STREAM_IN_FLIGHT else Build(aead=False,
                                                              in_flight=per_stream)


def direct(mode: str) -> bool:
    """Whether ``mode`` runs on the bare core's harness rather than the mode engine's
    (ECB: the mode is the core)."""
    return mode == "ecb"


def sequential(mode: str, decrypt: bool) -> bool:
    """Whether every block of ``mode`` needs the core's result for the block before it
    (one stream, bound by the core's latency)."""
    return mode == "ofb" or (mode in ("cbc", "cfb") and not decrypt)


@dataclass(frozen=True)
class Part:
    """A span of the input (``offset``, ``length`` bytes) and the IV of its first block."""

    offset: int
    length: int
    iv: bytes


def parts(mode: str, decrypt: bool, iv: bytes, length: int, count: int,
          block_at: Callable[[int], bytes]) -> list[Part]:
    """Cut ``length`` bytes into up to ``count`` parts of whole blocks (the last one takes
    any partial block) that the engine can run independently; one part for a sequential
    mode. ``block_at(i)`` returns input block ``i`` (CBC/CFB decryption's IVs)."""
    if mode not in BULK_MODES:
        raise ValueError(f"{mode!r} is not a bulk mode ({', '.join(BULK_MODES)})")
    blocks = -(-length // BLOCK)
    count = 1 if sequential(mode, decrypt) else max(1, min(count, blocks))
    out = []
    first = 0
    for k in range(count):
        n = blocks // count + (1 if k < blocks % count else 0)
        end = length if k == count - 1 else (first + n) * BLOCK
        out.append(Part(first * BLOCK, end - first * BLOCK, _part_iv(mode, iv, first,
                                                                      block_at)))
        first += n
    return out


def _part_iv(mode: str, iv: bytes, first: int, block_at: Callable[[int], bytes]) -> bytes:
    if first == 0 or mode == "ecb":
        return iv
    if mode == "ctr":
        return ((int.from_bytes(iv, "big") + first) % (1 << 128)).to_bytes(16, "big")
    return block_at(first - 1)  # CBC/CFB decryption: the ciphertext block before


@dataclass(frozen=True)
class BulkRun:
    """What one bulk run measured: per harness process, its model cycles and times."""

    runs: tuple[FileRun, ...]
    #: parts the input was cut into (engine streams in use, over all processes)
    parts: int
    #: bytes and 16-byte blocks processed
    length: int

    @property
    def blocks(self) -> int:
        return -(-self.length // BLOCK)

    @property
    def cycles(self) -> int:
        """Model cycles of the longest process (the run's length in clock cycles)."""
        return max(r.cycles for r in self.runs)

    @property
    def seconds(self) -> float:
        """Wall-clock time of the simulation (the slowest process)."""
        return max(r.seconds for r in self.runs)

    @property
    def cpu_seconds(self) -> float:
        return sum(r.cpu_seconds for r in self.runs)

    @property
    def cycles_per_second(self) -> float:
        """Model cycles per wall-clock second of one process (the mean)."""
        return sum(r.cycles / r.seconds for r in self.runs if r.seconds) / len(self.runs)

    @property
    def cycles_per_block(self) -> float:
        """Clock cycles per 16-byte block of the whole run (all streams together)."""
        return self.cycles * len(self.runs) / max(1, self.blocks)


def crypt_file(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, src: Path, dst: Path,
               decrypt: bool, *, jobs: int = 1, build: Build | None = None,
               gap_pct: int = 0, stall_pct: int = 0, seed: int = 1,
               progress: Callable[[str], None] | None = None) -> BulkRun:
    """Run the whole of ``src`` through the engine on ``core`` into ``dst`` (created or
    truncated). Arguments are the caller's to check (:func:`aeskit.crypt.filecrypt.check_args`);
    ``jobs`` harness processes of ``build`` (default :func:`bulk_build`) share the parts,
    one per stream."""
    if mode not in BULK_MODES:
        raise ValueError(f"{mode!r} is not a bulk mode ({', '.join(BULK_MODES)})")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, got {jobs}")
    if direct(mode):
        return _crypt_file_core(core, key, src, dst, decrypt, jobs=jobs, gap_pct=gap_pct,
                                stall_pct=stall_pct, seed=seed, progress=progress)
    build = build or bulk_build(core)
    if build.aead:
        raise ValueError("the bulk path runs on an engine built with AeadModes = 0")
    length = src.stat().st_size
    iv = iv if iv is not None else bytes(16)
    with open(src, "rb") as fh:
        def block_at(i: int) -> bytes:
            fh.seek(i * BLOCK)
            return fh.read(BLOCK)

        spans = parts(mode, decrypt, iv, length, jobs * build.streams, block_at)
    with open(dst, "wb"):
        pass
    mode_harness.build_mode_harness(core, progress, build)  # once, before the processes
    groups = [spans[j::jobs] for j in range(jobs) if spans[j::jobs]]
    runs: list[FileRun | BaseException | None] = [None] * len(groups)

    def work(j: int) -> None:
        try:
            with ModeHarness(core, progress, build) as h:
                h.load_key(key)
                msgs = [FileMessage(mode, decrypt, p.length, src.resolve(), dst.resolve(),
                                    iv=p.iv, src_offset=p.offset, dst_offset=p.offset,
                                    stream=s) for s, p in enumerate(groups[j])]
                runs[j] = h.run_files(msgs, gap_pct=gap_pct, stall_pct=stall_pct,
                                      seed=seed + j)
                if any(m.error for m in msgs):
                    raise ValueError(f"the mode engine rejected the {mode} command")
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            runs[j] = exc

    return BulkRun(_in_threads(work, runs), len(spans), length)


def _in_threads(work: Callable[[int], None],
                runs: list[FileRun | BaseException | None]) -> tuple[FileRun, ...]:
    """``work(j)`` for every slot of ``runs`` (slot 0 in this thread, the others in
    threads of their own); each fills its slot with a FileRun or the exception it
    raised, which is re-raised here."""
    threads = [threading.Thread(target=work, args=(j,)) for j in range(1, len(runs))]
    for t in threads:
        t.start()
    work(0)
    for t in threads:
        t.join()
    for r in runs:
        if isinstance(r, BaseException):
            raise r
    return tuple(r for r in runs if isinstance(r, FileRun))


def _crypt_file_core(core: CoreSpec, key: bytes, src: Path, dst: Path, decrypt: bool, *,
                     jobs: int, gap_pct: int, stall_pct: int, seed: int,
                     progress: Callable[[str], None] | None) -> BulkRun:
    """ECB of ``src`` into ``dst`` on the core's bulk harness, one part per process."""
    length = src.stat().st_size
    if length % BLOCK:
        raise ValueError(f"ECB needs whole 16-byte blocks, got {length} bytes")
    spans = parts("ecb", decrypt, bytes(16), length, jobs, lambda i: b"")
    with open(dst, "wb"):
        pass
    build_harness(core, progress, bulk=True)  # once, before the processes
    runs: list[FileRun | BaseException | None] = [None] * len(spans)

    def work(j: int) -> None:
        try:
            with Harness(core, progress, bulk=True) as h:
                h.load_key(key)
                p = spans[j]
                runs[j] = h.run_file(src.resolve(), dst.resolve(), p.length, decrypt,
                                     src_offset=p.offset, dst_offset=p.offset,
                                     gap_pct=gap_pct, stall_pct=stall_pct, seed=seed + j)
        except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
            runs[j] = exc

    return BulkRun(_in_threads(work, runs), len(spans), length)


def crypt_bulk_bytes(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, data: bytes,
                     decrypt: bool, **kw: object) -> bytes:
    """:func:`crypt_file` on bytes (through a temporary folder); keywords as there."""
    with tempfile.TemporaryDirectory(prefix="aeskit-bulk-") as tmp:
        src, dst = Path(tmp) / "in.bin", Path(tmp) / "out.bin"
        src.write_bytes(data)
        crypt_file(core, mode, key, iv, src, dst, decrypt, **kw)  # type: ignore[arg-type]
        return dst.read_bytes()
