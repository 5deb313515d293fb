"""Every design and every key value that the results store keys records by, as one
checkout's code computes them: :func:`entries` is THE list (a new report section that
stores results adds its designs and keys here; :mod:`aeskit.store.rekey` reports any
hash in a record that no entry accounts for).

This file is run as a script (``runpy``) by :func:`aeskit.store.rekey.enumerate_tree`
under *another* checkout's ``aeskit`` (``PYTHONPATH=<tree>/src``), so it imports
nothing of aeskit at module level and uses only APIs that older checkouts have too;
an entry whose API is missing is reported as an error, not fatal.

While an entry runs, ``aeskit.sources.source_hash`` is wrapped: every design whose
hash is computed is recorded (top, files, include folders, parameters, nextpnr
options) as a dependency of the entry, and, given an override map, returns the hash
the map names for that design (the "old hashes" run of :mod:`aeskit.store.rekey`).
File reads outside ``source_hash`` are recorded as the entry's direct reads.

Output (stdout): one JSON object ``{"root", "build", "designs", "entries"}``.
"""

from __future__ import annotations

import builtins
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

#: what an entry's thunk returns: any JSON value
Entry = tuple[str, Callable[[], Any]]


def entries() -> Iterator[Entry]:
    """(name, thunk) of every design and key the store's records are keyed by."""
    from aeskit.hw import registry

    cores = list(registry.CORES)
    for c in cores:
        yield f"core:{c.name}", c.source_hash
    yield from _core_keys(cores)
    from aeskit.synth.systems import system_design

    for s in registry.SYSTEMS:
        yield f"system:{s.name}", lambda s=s: system_design(s.name).source_hash()
    yield from _paper001(cores)
    yield from _paper002()
    yield from _modes_aead()
    yield from _mode_area()
    yield from _coproc()
    yield from _asbus()
    yield from _primitives()


def _core_keys(cores: list[Any]) -> Iterator[Entry]:
    from aeskit.report.measure import measure_key

    for c in cores:
        yield f"sim:{c.name}", lambda c=c: measure_key(c)


def _paper001(cores: list[Any]) -> Iterator[Entry]:
    from aeskit.report.sections import paper001
    from aeskit.report.sections import modes_aead

    for name in sorted(set(paper001.CORES) | set(modes_aead.CORES)):
        c = _core(name)
        yield f"engine_hash:{name}", lambda c=c: paper001._hash(c)
    pipe2 = _core("pipe2")
    yield "engine:pipe2", lambda: paper001.engine_design(pipe2).source_hash()
    yield "cipher_ahb", lambda: paper001.cipher_ahb_design().source_hash()
    for c in cores:
        for cfg in paper001.engine_configs(c.name):
            yield (f"engine:{paper001.engine_design_name(c.name, cfg)}",
                   lambda c=c, cfg=cfg: paper001.engine_design(c, cfg).source_hash())


def _paper002() -> Iterator[Entry]:
    from aeskit.report.sections import paper002

    for name in paper002.CORES:
        c = _core(name)
        yield f"datapath:{name}", lambda c=c: paper002.datapath_design(c).source_hash()

    def linear() -> str:
        # paper002.linear's key (the same five designs, the same join)
        from aeskit.formal.proofs import design_of

        designs = (design_of("ak_ueno_enc_column", "ueno_enc_column"),
                   design_of("fv_ueno_enc_ref"),
                   design_of("ak_ueno_dec_column", "ueno_dec_column"),
                   design_of("fv_ueno_dec_ref"),
                   design_of("ak_mix_column", "mix_column"))
        return "".join(d.source_hash() for d in designs)

    yield "paper002_linear", linear


def _modes_aead() -> Iterator[Entry]:
    from aeskit.hw.catalog.gf128 import MUL_VARIANTS
    from aeskit.report import gf128_table
    from aeskit.report.sections import modes_aead

    target = _core(modes_aead.TARGET_CORE)
    yield "gcm_pipe", lambda: modes_aead.gcm_pipe_design(target).source_hash()
    for d, k in MUL_VARIANTS:
        yield f"gf128:{d}:{int(k)}", lambda d=d, k=k: gf128_table.bench_design(d, k).source_hash()
    yield "gf128_proven", lambda: sorted(gf128_table.bench_design(d, k).source_hash()
                                         for d, k in MUL_VARIANTS)


def _mode_area() -> Iterator[Entry]:
    from aeskit.hw.registry import get_system
    from aeskit.report.sections import mode_area

    for system in mode_area.SYSTEMS:
        for _label, modes in mode_area.builds(get_system(system).modes):
            yield (f"mode_area:{system}:{modes:03x}",
                   lambda s=system, m=modes: mode_area.design(s, m).source_hash())


def _coproc() -> Iterator[Entry]:
    from aeskit.report.sections import coproc

    yield "coproc_cycles", coproc._cycles_hash


def _asbus() -> Iterator[Entry]:
    from aeskit.asbus import area, evaluate

    for bus in evaluate.BUSES:
        for w in evaluate.WIDTHS:
            yield f"asbus_area:{bus}:{w}", lambda b=bus, w=w: area.dam_design(b, w).source_hash()
            yield f"asbus_sim:{bus}:{w}", lambda b=bus, w=w: evaluate._sim_key(b, w, 0)


def _primitives() -> Iterator[Entry]:
    from aeskit.report import primitive_table as pt
    from aeskit.synth import Design

    for v in pt.VARIANTS:
        def row(v: Any = v) -> Any:
            inst = Design(f"{v.name}_x16", pt.lane_wrapper(v).stem, (*v.files, pt.lane_wrapper(v)))
            return pt._row_parts(v, inst)

        yield f"primitive_row:{v.name}", row


def _core(name: str) -> Any:
    from aeskit.hw.registry import get_core

    return get_core(name)


# --------------------------------------------------------------------------------
# the instrumented run
# --------------------------------------------------------------------------------
class _Recorder:
    def __init__(self, root: Path, build: Path, overrides: dict[str, str],
                 redirects: dict[str, str]) -> None:
        self.root, self.build, self.overrides = root, build, overrides
        #: absolute path -> the file read in its place (another checkout's version)
        self.redirects = redirects
        self.designs: dict[str, dict[str, Any]] = {}
        self.deps: set[str] = set()
        self.reads: set[str] = set()
        self.depth = 0
        self.active = False

    def rel(self, p: Any) -> str:
        path = Path(p).resolve()
        for tag, base in (("build", self.build), ("repo", self.root)):
            try:
                return f"{tag}:{path.relative_to(base).as_posix()}"
            except ValueError:
                continue
        return f"abs:{path.as_posix()}"

    def identity(self, design: Any) -> dict[str, Any]:
        params = dict(design.parameters)
        return {"top": design.top, "parameters": repr(sorted(params.items())),
                "files": [self.rel(p) for p in design.file_paths()],
                "include_dirs": [self.rel(d) for d in design.include_paths()],
                "router": design.router, "placer": design.placer,
                "ram_rows": None if design.ram_rows is None else list(design.ram_rows)}

    def wrap(self, real: Callable[[Any], str]) -> Callable[[Any], str]:
        def source_hash(design: Any) -> str:
            self.depth += 1
            try:
                h = real(design)
            finally:
                self.depth -= 1
            ident = json.dumps(self.identity(design), sort_keys=True)
            if ident not in self.designs:
                self.designs[ident] = {
                    "label": str(getattr(design, "name", design.top)), "hash": h,
                    "top": design.top, "parameters": _jsonable(dict(design.parameters)),
                    "files": [str(Path(p).resolve()) for p in design.file_paths()],
                    "include_dirs": [str(Path(d).resolve()) for d in design.include_paths()]}
            self.deps.add(ident)
            return self.overrides.get(ident, h)

        return source_hash

    def redirect(self, p: Any) -> Any:
        if not self.redirects:
            return p
        try:
            return type(p)(self.redirects.get(str(Path(p).resolve()), p))
        except (OSError, TypeError, ValueError):
            return p

    def note_read(self, p: Any) -> None:
        if self.active and self.depth == 0:
            try:
                self.reads.add(self.rel(p))
            except (OSError, TypeError, ValueError):
                pass


def _jsonable(params: dict[str, Any]) -> dict[str, Any]:
    return {k: (v if isinstance(v, (bool, int, str, float)) else repr(v))
            for k, v in params.items()}


def _install(rec: _Recorder) -> None:
    import aeskit.sources as sources

    real = sources.source_hash
    wrapped = rec.wrap(real)
    sources.source_hash = wrapped  # type: ignore[assignment]
    # modules that imported the function by name (``from aeskit.sources import ...``)
    import aeskit.report.measure  # noqa: F401  (the flow and the registry with it)
    import aeskit.synth.flow  # noqa: F401
    for mod in list(sys.modules.values()):
        if getattr(mod, "__name__", "").startswith("aeskit") and \
                getattr(mod, "source_hash", None) is real:
            mod.source_hash = wrapped  # type: ignore[attr-defined]
    read_bytes, read_text, real_open = Path.read_bytes, Path.read_text, builtins.open

    def rb(self: Path) -> bytes:
        rec.note_read(self)
        return read_bytes(rec.redirect(self))

    def rt(self: Path, *a: Any, **k: Any) -> str:
        rec.note_read(self)
        return read_text(rec.redirect(self), *a, **k)

    def op(file: Any, mode: str = "r", *a: Any, **k: Any) -> Any:
        if isinstance(file, (str, os.PathLike)) and not any(c in mode for c in "wax+"):
            rec.note_read(file)
            file = rec.redirect(file)
        return real_open(file, mode, *a, **k)

    Path.read_bytes = rb  # type: ignore[method-assign]
    Path.read_text = rt  # type: ignore[method-assign]
    builtins.open = op


def run(overrides: dict[str, str], redirects: dict[str, str] | None = None) -> dict[str, Any]:
    """Every entry's value, dependencies and direct reads, and every design met;
    ``overrides`` (design identity -> hash) replace designs' hashes, ``redirects``
    (absolute path -> absolute path) files' contents."""
    import aeskit

    rec = _Recorder(Path(aeskit.REPO_ROOT).resolve(), Path(aeskit.BUILD_ROOT).resolve(),
                    overrides, dict(redirects or {}))
    _install(rec)
    out: dict[str, dict[str, Any]] = {}
    try:
        listed = list(entries())
    except Exception as exc:  # an API this checkout lacks: nothing can be enumerated
        return {"root": str(rec.root), "build": str(rec.build), "designs": {},
                "entries": {}, "error": f"{type(exc).__name__}: {exc}"}
    for name, thunk in listed:
        rec.deps, rec.reads, rec.active = set(), set(), True
        try:
            value, error = thunk(), None
        except Exception as exc:
            value, error = None, f"{type(exc).__name__}: {exc}".splitlines()[0]
            if os.environ.get("AESKIT_REKEY_DEBUG"):
                traceback.print_exc()
        finally:
            rec.active = False
        out[name] = {"value": value, "error": error, "deps": sorted(rec.deps),
                     "reads": sorted(rec.reads)}
    return {"root": str(rec.root), "build": str(rec.build), "designs": rec.designs,
            "entries": out, "error": None}


def main(argv: list[str]) -> int:
    """``argv``: [output file, optional overrides JSON file
    (``{"designs": {identity: hash}, "files": {path: path}}``)]."""
    over: dict[str, Any] = {}
    if len(argv) > 1:
        over = json.loads(Path(argv[1]).read_text())
    result = run(dict(over.get("designs", {})), dict(over.get("files", {})))
    Path(argv[0]).write_text(json.dumps(result, indent=1, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
