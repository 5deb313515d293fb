"""The results store: every measured result of the report, kept in the repository.

A *record* is one measured result (a synthesis, a simulation measurement, a section's
cycle table) as a small JSON file ``results/<ident>.json``:

* ``ident``: what was measured, e.g. ``synth/round~seed2`` or ``sim/pipe2``: the path of
  the result's local cache below ``build/`` (so two results never share a file);
* ``key``: a digest of everything the result depends on (the design's source hash,
  which covers its manifest's file list, the files' bytes and its parameters; the flow
  version; the tool versions; the seed; the device), and ``parts``, the named inputs of
  that digest, so a reader sees why a record is current or stale;
* ``commit``: the commit the result was measured on (``-dirty`` when the tree had
  uncommitted changes), and ``measured`` (UTC time);
* ``data``: the result itself; ``files``: small text artifacts the report reads back
  (e.g. Yosys's longest-path report).

A result is looked up in two places, in this order: the local cache below ``build/``
(fast, machine-local, as before the store) and the store. One rule decides whether
either is *current* (:func:`is_current`): the key it carries equals the key computed
from the checkout's parts. A local cache file carries its key in :data:`KEY_FIELD`
(written with the data by :func:`save_file`, or by the synthesis flow into
``synth.json``); a record carries it as ``key``. A current record is reused
and the report marks the figure "reused <commit>"; anything else is measured again,
written to both places, and marked "measured now". The store keeps one record per
ident: a new measurement replaces the old file (git keeps the history).

The store is written only while it is *active* (:func:`activate`; ``aeskit report``
activates the repository's store), so tests and one-off commands never change the
checkout. Lookups work whenever a store is active too.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT, REPO_ROOT

__all__ = ["KEY_FIELD", "RESULTS_ROOT", "Provenance", "Record", "Store", "activate", "active",
           "cached_file", "digest", "file_key", "is_current", "load_file", "lookup", "record",
           "save_file", "ident_of", "current_commit"]

#: the field of a local cache file (and of ``synth.json``) that holds its key
KEY_FIELD = "store_key"

#: the repository's store
RESULTS_ROOT = REPO_ROOT / "results"
#: what to do when the committed store lacks a current record a test expects
RESULTS_HINT = ("results/ has no current record for it: run `make report` (or `make report "
                "CORES=<core>`) and commit results/ with the RTL it measured")
#: bumped when the record format changes (older records are then stale)
RECORD_VERSION = 1


def digest(parts: Mapping[str, Any]) -> str:
    """The key of a record: SHA-256 (first 20 hex digits) of ``parts`` as canonical
    JSON (sorted keys, no whitespace), with the record format version."""
    text = json.dumps({"record_version": RECORD_VERSION, **parts}, sort_keys=True,
                      separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def is_current(key: str | None, parts: Mapping[str, Any]) -> bool:
    """THE rule for every stored or cached result: it is current when the key it
    carries (a record's ``key``, a cache file's :data:`KEY_FIELD`) is the digest of the
    parts computed from the checkout now. Every reader asks this and nothing else."""
    return key is not None and key == digest(parts)


def file_key(path: Path) -> str | None:
    """The key a local cache file carries (None: no file, unreadable, or written
    before cache files carried their key)."""
    try:
        d = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    k = d.get(KEY_FIELD) if isinstance(d, dict) else None
    return k if isinstance(k, str) else None


def ident_of(path: Path) -> str | None:
    """The ident of a local cache file or folder below ``build/`` (its relative path
    without a ``.json`` suffix), None for a path outside ``build/``."""
    try:
        rel = Path(path).resolve().relative_to(BUILD_ROOT.resolve())
    except ValueError:
        return None
    text = rel.as_posix()
    return text[:-5] if text.endswith(".json") else text


_commit_lock = threading.Lock()
_commit_cache: dict[Path, str] = {}


def current_commit(repo: Path = REPO_ROOT) -> str:
    """``git rev-parse --short=10 HEAD`` of ``repo``, ``-dirty`` appended when tracked
    files differ from it; ``unknown`` outside a git checkout. Computed once per process."""
    with _commit_lock:
        if repo in _commit_cache:
            return _commit_cache[repo]
        try:
            head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short=10", "HEAD"],
                                  capture_output=True, text=True, check=True).stdout.strip()
            dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain",
                                    "--untracked-files=no", "--", "hw", "src"],
                                   capture_output=True, text=True, check=True).stdout.strip()
            commit = head + ("-dirty" if dirty else "")
        except (OSError, subprocess.CalledProcessError):
            commit = "unknown"
        _commit_cache[repo] = commit
        return commit


@dataclass(frozen=True)
class Record:
    """One stored result (see the module doc)."""

    ident: str
    key: str
    parts: dict[str, Any]
    commit: str
    measured: str
    data: Any
    files: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"ident": self.ident, "key": self.key, "parts": self.parts,
                "commit": self.commit, "measured": self.measured, "data": self.data,
                "files": self.files}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Record:
        return cls(ident=str(d["ident"]), key=str(d["key"]), parts=dict(d.get("parts", {})),
                   commit=str(d.get("commit", "unknown")), measured=str(d.get("measured", "")),
                   data=d["data"], files=dict(d.get("files", {})))


@dataclass(frozen=True)
class Provenance:
    """Where a figure of this run came from: ``reused`` (with the commit that measured
    it) or ``measured`` now."""

    ident: str
    status: str  # "reused" | "measured"
    commit: str

    def label(self) -> str:
        return f"reused {self.commit}" if self.status == "reused" else "measured now"


class Store:
    """A folder of records (:data:`RESULTS_ROOT` for the repository's)."""

    def __init__(self, root: Path = RESULTS_ROOT, *, writable: bool | None = None) -> None:
        self.root = Path(root)
        #: False: records are read, never written (a test of the committed store);
        #: default: True unless the environment sets ``AESKIT_STORE_WRITE=0``
        self.writable = (os.environ.get("AESKIT_STORE_WRITE", "1") != "0"
                         if writable is None else writable)
        self._lock = threading.Lock()
        #: ident -> how this process obtained it (reused / measured)
        self.used: dict[str, Provenance] = {}
        #: every provenance note and every record written, in order (a job's share is a
        #: slice: :func:`aeskit.report.jobs.execute`)
        self.log: list[Provenance] = []
        self.written: list[Record] = []

    def path(self, ident: str) -> Path:
        if not ident or ident.startswith("/") or ".." in Path(ident).parts:
            raise ValueError(f"bad record ident {ident!r}")
        return self.root / f"{ident}.json"

    def read(self, ident: str) -> Record | None:
        """The stored record of ``ident`` (current or not); None if there is none or it
        cannot be read."""
        p = self.path(ident)
        try:
            return Record.from_json(json.loads(p.read_text()))
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def get(self, ident: str, parts: Mapping[str, Any]) -> Record | None:
        """The record of ``ident`` if it is current for ``parts`` (:func:`is_current`)."""
        rec = self.read(ident)
        return rec if rec is not None and is_current(rec.key, parts) else None

    def put(self, ident: str, parts: Mapping[str, Any], data: Any,
            files: Mapping[str, str] | None = None, *, commit: str | None = None) -> Record:
        """Write the record of ``ident`` (replacing an older one), atomically."""
        rec = Record(ident=ident, key=digest(parts), parts=dict(parts),
                     commit=commit or current_commit(),
                     measured=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     data=data, files=dict(files or {}))
        self.write(rec)
        return rec

    def write(self, rec: Record) -> None:
        """Write ``rec`` as it is (a record measured elsewhere keeps its commit and
        time), replacing the file of its ident atomically; a read-only store only
        remembers it."""
        if not self.writable:
            with self._lock:
                self.written.append(rec)
            return
        p = self.path(rec.ident)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.{threading.get_ident()}.tmp")
        tmp.write_text(json.dumps(rec.to_json(), indent=1, sort_keys=True, default=str) + "\n")
        os.replace(tmp, p)
        with self._lock:
            self.written.append(rec)

    def note(self, ident: str, status: str, commit: str) -> None:
        with self._lock:
            prov = Provenance(ident, status, commit)
            if status == "reused" and self.used.get(ident, prov).status == "measured":
                return  # measured by this run, then read back: still "measured now"
            self.used[ident] = prov
            self.log.append(prov)

    def provenance(self, ident: str) -> Provenance | None:
        with self._lock:
            return self.used.get(ident)

    def records(self) -> Iterator[Record]:
        """Every readable record of the store."""
        for p in sorted(self.root.rglob("*.json")):
            try:
                yield Record.from_json(json.loads(p.read_text()))
            except (OSError, ValueError, KeyError, TypeError):
                continue


_active_lock = threading.Lock()
_active: Store | None = None


def active() -> Store | None:
    """The active store, if any (:func:`activate`)."""
    return _active


def set_active(store: Store | None) -> None:
    """Make ``store`` the active store of the process from now on (a Dask worker's)."""
    global _active
    with _active_lock:
        _active = store


@contextmanager
def activate(store: Store | None) -> Iterator[Store | None]:
    """Make ``store`` the active store for the block (every thread of the process);
    ``None`` deactivates. Nested activations restore the outer one."""
    global _active
    with _active_lock:
        outer, _active = _active, store
    try:
        yield store
    finally:
        with _active_lock:
            _active = outer


def lookup(ident: str | None, parts: Mapping[str, Any]) -> Record | None:
    """The active store's current record of ``ident`` for ``parts`` (None without an
    active store, an ident or a current record); notes it as reused."""
    st = active()
    if st is None or ident is None:
        return None
    rec = st.get(ident, parts)
    if rec is not None:
        st.note(ident, "reused", rec.commit)
    return rec


def record(ident: str | None, parts: Mapping[str, Any], data: Any,
           files: Mapping[str, str] | None = None, *, measured_now: bool = True) -> None:
    """Store a result in the active store (nothing without one). ``measured_now``:
    measured by this process (else taken from the local cache: the record is written
    if the store lacks it, and the figure counts as reused from this checkout)."""
    st = active()
    if st is None or ident is None:
        return
    if measured_now:
        rec = st.put(ident, parts, data, files)
        st.note(ident, "measured", rec.commit)
        return
    old = st.get(ident, parts)
    if old is None:
        old = st.put(ident, parts, data, files)
    st.note(ident, "reused", old.commit)


def load_file(path: Path, parts: Mapping[str, Any]) -> Any | None:
    """The content of the local cache file ``path`` if it is current for ``parts``
    (:func:`is_current` on the key it carries), else the active store's current record
    for it (written back to ``path``), else None. ``parts`` are every input the result
    depends on: they key both places."""
    path = Path(path)
    ident = ident_of(path)
    try:
        local = json.loads(path.read_text())
        if isinstance(local, dict) and is_current(local.get(KEY_FIELD), parts):
            record(ident, parts, local["data"], measured_now=False)
            return local["data"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    rec = lookup(ident, parts)
    if rec is not None:
        _write_file(path, rec.data, parts)
        return rec.data
    return None


def save_file(path: Path, parts: Mapping[str, Any], data: Any) -> None:
    """Write a freshly measured ``data`` to the local cache file ``path`` (with its
    key) and to the active store."""
    _write_file(Path(path), data, parts)
    record(ident_of(Path(path)), parts, data)


def cached_file(path: Path, parts: Mapping[str, Any], compute: Callable[[], Any], *,
                force: bool = False) -> Any:
    """A result kept in a local cache file and in the store, keyed by ``parts``:
    :func:`load_file` unless ``force``, else ``compute()`` (then :func:`save_file`)."""
    if not force:
        data = load_file(path, parts)
        if data is not None:
            return data
    data = compute()
    save_file(path, parts, data)
    return data


def _write_file(path: Path, data: Any, parts: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps({KEY_FIELD: digest(parts), "data": data}, default=str))
    os.replace(tmp, path)
