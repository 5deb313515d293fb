"""The compiled harness: a Verilator C++ model of a core driven through a pipe.

Bulk work (files of megabytes, Monte Carlo tests, random regressions of millions of
blocks) must not wake Python every cycle. :class:`Harness` builds the core once with
``ak_harness.cpp`` (cached per core source hash) and talks to it through line
commands; the C++ side runs every cycle, injects random gaps and stalls, and checks
tags so that a lost, duplicated or reordered block is an error.

:class:`RtlCipher` turns a harness into the ``BlockCipher`` protocol of
:mod:`aeskit.model.modes`, so every mode of the golden model can run on RTL.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from aeskit import BUILD_ROOT
from aeskit.hw import contract, templates
from aeskit.hw.registry import KEY_LEN_CODE, CoreSpec
from aeskit.sim.verilated_exe import (
    BULK_VERILATOR_ARGS,
    FileRun,
    HarnessError,
    LineProcess,
    build_executable,
    cpp_common_bytes,
)

HARNESS_CPP = Path(__file__).with_name("cpp") / "ak_harness.cpp"
#: the bulk harness's top: the core behind an input register (its template's manifest)
BULK_TOP_MANIFEST = "aeskit:bench:bulk_top"
BULK_TOP = "ak_bulk_top"
#: TagWidth every core is built with inside the harness (blocks are numbered mod 256)
HARNESS_TAG_WIDTH = 8


@dataclass(frozen=True)
class RunStats:
    """Cycle statistics of one ``run`` (exact, measured in the Verilator model)."""

    blocks: int
    cycles: int
    latency_first: int
    latency_min: int
    latency_max: int
    accept_first: int
    accept_last: int

    @property
    def interval(self) -> float:
        """Average cycles between accepted blocks (the initiation interval when unstalled)."""
        if self.blocks < 2:
            return float("nan")
        return (self.accept_last - self.accept_first) / (self.blocks - 1)


def bulk_top_sv(core: CoreSpec) -> str:
    """SystemVerilog of ``ak_bulk_top``: ``core`` (its registry parameters) behind an
    input register, with the core contract's ports."""
    params = "".join(f".{k}({v}), " for k, v in core.parameters.items() if k != "TagWidth")
    return templates.render(BULK_TOP_MANIFEST, BULK_TOP, core=core.name, core_top=core.top,
                            core_params=params)


def _build_dir(core: CoreSpec, checked: bool = True, bulk: bool = False) -> Path:
    h = hashlib.sha256()
    h.update(core.source_hash().encode())
    h.update(HARNESS_CPP.read_bytes())
    h.update(cpp_common_bytes())
    h.update(contract.fingerprint(core).encode() if checked else b"unchecked")
    if bulk:
        h.update(bulk_top_sv(core).encode())
        h.update(repr(BULK_VERILATOR_ARGS).encode())
    return BUILD_ROOT / "harness" / f"{core.name}-{'bulk-' if bulk else ''}{h.hexdigest()[:12]}"


def harness_built(core: CoreSpec, *, bulk: bool = False) -> bool:
    """Whether the (checked) harness of ``core`` is built for the current sources."""
    return (_build_dir(core, bulk=bulk) / "harness").is_file()


def build_harness(core: CoreSpec, progress: Callable[[str], None] | None = None, *,
                  checked: bool = True, bulk: bool = False) -> Path:
    """Compile the harness for ``core`` (cached); return the executable's path. With
    ``checked`` (the default) the core contract's assertions are bound into the core
    (:mod:`aeskit.hw.contract`): a broken rule stops the harness with the rule's name.
    Only the harness's own tests turn it off, to see the harness's checks fire.

    ``bulk``: the file path's harness, whose top is ``ak_bulk_top`` (the core behind an
    input register, :func:`bulk_top_sv`): one cycle more latency, the same interval, and
    a model that evaluates the core's datapath once per cycle instead of three times
    (see the template). Its cycle counts are not the core's."""
    bdir = _build_dir(core, checked, bulk)
    top, params = core.top, {**core.parameters, "TagWidth": HARNESS_TAG_WIDTH}
    sources = contract.sources(core) if checked else core.file_paths()
    if bulk:
        top, params = BULK_TOP, {"TagWidth": HARNESS_TAG_WIDTH}
        sources = [*sources, templates.write_if_changed(bdir / "src" / f"{BULK_TOP}.sv",
                                                         bulk_top_sv(core))]
    args = [f"-G{k}={v}" for k, v in params.items()] + [f"-I{p}" for p in core.include_paths()]
    if checked:
        args += contract.verilator_args(core)
    if bulk:
        args += BULK_VERILATOR_ARGS
    return build_executable(bdir, top=top, prefix="Vcore",
                            sources=[*sources, HARNESS_CPP], extra_args=args, jobs=2,
                            what=f"{'bulk ' if bulk else ''}harness for {core.name}",
                            progress=progress)


class Harness(LineProcess):
    """A running harness process for one core (``bulk``: behind ``ak_bulk_top``, see
    :func:`build_harness`). Use as a context manager."""

    def __init__(self, core: CoreSpec, progress: Callable[[str], None] | None = None, *,
                 checked: bool = True, bulk: bool = False) -> None:
        self.core = core
        super().__init__(build_harness(core, progress, checked=checked, bulk=bulk),
                         f"{'bulk ' if bulk else ''}harness for {core.name}")
        self.key_size: int | None = None
        self.last_setup_cycles: int | None = None

    # -- commands -----------------------------------------------------------------
    def reset(self) -> None:
        self._send("reset\n")
        self._readline()

    def load_key(self, key: bytes) -> int:
        """Load a key (16/24/32 bytes); return the key setup cycles."""
        size = len(key) * 8
        if size not in KEY_LEN_CODE:
            raise ValueError(f"key must be 16, 24 or 32 bytes, got {len(key)}")
        if size not in self.core.key_sizes:
            raise ValueError(f"core {self.core.name} does not support {size}-bit keys "
                             f"(supports {', '.join(map(str, self.core.key_sizes))})")
        padded = key + bytes(32 - len(key))
        self._send(f"key {KEY_LEN_CODE[size]} {padded.hex()}\n")
        self.key_size = size
        self.last_setup_cycles = int(self._readline().split()[1])
        return self.last_setup_cycles

    def run(self, blocks: Sequence[bytes], decrypt: bool = False, *, gap_pct: int = 0,
            stall_pct: int = 0, seed: int = 1) -> tuple[list[bytes], RunStats]:
        """Push ``blocks`` through the core; return the results and cycle stats."""
        if self.key_size is None:
            raise HarnessError("load a key before running blocks")
        if decrypt and not self.core.decrypt:
            raise ValueError(f"core {self.core.name} cannot decrypt")
        if not blocks:
            return [], RunStats(0, 0, 0, 0, 0, 0, 0)
        for b in blocks:
            if len(b) != 16:
                raise ValueError(f"blocks must be 16 bytes, got {len(b)}")
        payload = "".join(b.hex() + "\n" for b in blocks)
        self._send(f"run {int(decrypt)} {len(blocks)} {gap_pct} {stall_pct} {seed}\n{payload}")
        out = [bytes.fromhex(self._readline()) for _ in blocks]
        stats = [int(x) for x in self._readline().split()[1:]]
        return out, RunStats(len(blocks), *stats)


    def run_file(self, src: Path, dst: Path, length: int, decrypt: bool = False, *,
                 src_offset: int = 0, dst_offset: int = 0, gap_pct: int = 0,
                 stall_pct: int = 0, seed: int = 1) -> FileRun:
        """Push the ``length`` bytes (whole blocks) at ``src_offset`` of ``src`` through
        the core; the harness reads them and writes the results to ``dst`` (which must
        exist) at ``dst_offset`` itself. Returns the model cycles and the harness's time."""
        if self.key_size is None:
            raise HarnessError("load a key before running blocks")
        if decrypt and not self.core.decrypt:
            raise ValueError(f"core {self.core.name} cannot decrypt")
        if length % 16:
            raise ValueError(f"the file command takes whole 16-byte blocks, got {length} bytes")
        for p in (src, dst):
            if any(c.isspace() for c in str(p)):
                raise ValueError(f"harness file paths cannot hold spaces: {p}")
        if length == 0:
            return FileRun(0, 0.0, 0.0)
        self._send(f"file {int(decrypt)} {length // 16} {gap_pct} {stall_pct} {seed} "
                   f"{src} {src_offset} {dst} {dst_offset}\n")
        f = self._readline().split()
        return FileRun(int(f[1]), int(f[2]) / 1e9, int(f[3]) / 1e9)


class RtlCipher:
    """``BlockCipher`` over a harness: ``encrypt``/``decrypt`` one block per call, and
    ``encrypt_many``/``decrypt_many`` for independent blocks (pipelined)."""

    def __init__(self, harness: Harness, key: bytes, *, gap_pct: int = 0, stall_pct: int = 0,
                 seed: int | None = None) -> None:
        self.h = harness
        self.h.load_key(key)
        self.gap_pct = gap_pct
        self.stall_pct = stall_pct
        self._rng = random.Random(seed)

    def _run(self, blocks: Sequence[bytes], decrypt: bool) -> list[bytes]:
        out, _ = self.h.run(blocks, decrypt, gap_pct=self.gap_pct, stall_pct=self.stall_pct,
                            seed=self._rng.getrandbits(32))
        return out

    def encrypt(self, block: bytes) -> bytes:
        return self._run([block], False)[0]

    def decrypt(self, block: bytes) -> bytes:
        return self._run([block], True)[0]

    def encrypt_many(self, blocks: Iterable[bytes]) -> list[bytes]:
        return self._run(list(blocks), False)

    def decrypt_many(self, blocks: Iterable[bytes]) -> list[bytes]:
        return self._run(list(blocks), True)
