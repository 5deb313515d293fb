"""``aeskit store rekey`` (:mod:`aeskit.store.rekey`) on a tiny git repository with one
design and one bench key, and a temporary store: a comment-only change is re-keyed, a
one-gate change is refused (the record stays stale), a record already stale stays
stale, a second run changes nothing; and the bad inputs are one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from aeskit import BUILD_ROOT
from aeskit.store import digest
from aeskit.store.lexical import code_of, comment_equivalent
from aeskit.store.rekey import RekeyError, rekey

# The tiny repository's enumeration (what aeskit.store.rekey_enum is to aeskit): one
# design (hw/gate.sv) and one bench key that hashes the design's hash with a harness
# file it reads directly; honours the overrides file as rekey_enum does.
ENUM = r'''
import hashlib, json, sys
from pathlib import Path
root = Path.cwd().resolve()
over = json.loads(Path(sys.argv[2]).read_text()) if len(sys.argv) > 2 else {}
files = [root / "hw" / "gate.sv"]
ident = json.dumps({"top": "gate", "files": ["repo:hw/gate.sv"]}, sort_keys=True)
h = hashlib.sha256(b"".join(p.read_bytes() for p in files)).hexdigest()[:16]
h_used = over.get("designs", {}).get(ident, h)
harness = root / "bench" / "harness.sv"
harness = Path(over.get("files", {}).get(str(harness), harness))
bench = hashlib.sha256(h_used.encode() + harness.read_bytes()).hexdigest()[:16]
out = {"root": str(root), "build": str(root / "build"), "error": None,
       "designs": {ident: {"label": "gate", "hash": h, "top": "gate", "parameters": {},
                           "files": [str(p) for p in files], "include_dirs": []}},
       "entries": {"design:gate": {"value": h_used, "error": None, "deps": [ident],
                                   "reads": []},
                   "bench:gate": {"value": bench, "error": None, "deps": [ident],
                                  "reads": ["repo:bench/harness.sv"]}}}
Path(sys.argv[1]).write_text(json.dumps(out))
'''

GATE = """// gate: {comment}
module gate (input logic clk_i, input logic a_i, input logic b_i, output logic y_o);
  always_ff @(posedge clk_i) y_o <= a_i {op} b_i;
endmodule
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def _commit(repo: Path, gate: str, harness: str = "// harness\n") -> str:
    (repo / "hw").mkdir(exist_ok=True)
    (repo / "bench").mkdir(exist_ok=True)
    (repo / "hw/gate.sv").write_text(gate)  # the tiny repository's own RTL, not aeskit's
    (repo / "bench" / "harness.sv").write_text(harness)
    _git(repo, "add", "hw/gate.sv", "bench/harness.sv")
    _git(repo, "commit", "-q", "-m", "change")
    return _git(repo, "rev-parse", "HEAD")


def _record(store: Path, ident: str, parts: dict, *, stale: bool = False) -> Path:
    p = store / f"{ident}.json"
    p.parent.mkdir(parents=True, exist_ok=True)
    key = "0" * 20 if stale else digest(parts)
    p.write_text(json.dumps({"ident": ident, "key": key, "parts": parts, "commit": "x",
                             "measured": "t", "data": {"lut4": 1}, "files": {}},
                            indent=1, sort_keys=True) + "\n")
    return p


@pytest.fixture()
def world() -> Iterator[dict[str, Path]]:
    """A tiny repository (under build/: YoWASP cannot see /tmp), its scratch folder
    and a store; the script of its enumeration."""
    root = BUILD_ROOT / "tests" / f"rekey-{uuid.uuid4().hex[:8]}"
    repo = root / "repo"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.invalid")
    _git(repo, "config", "user.name", "t")
    (root / "enum.py").write_text(ENUM)
    (root / "store").mkdir()
    try:
        yield {"root": root, "repo": repo, "store": root / "store", "scratch": root / "scratch",
               "script": root / "enum.py"}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _hashes(w: dict[str, Path], commit: str) -> tuple[str, str]:
    """(design hash, bench key) at ``commit`` (the enumeration run there)."""
    from aeskit.store.rekey import enumerate_tree

    tree = w["root"] / f"at-{commit[:8]}"
    subprocess.run(["git", "-C", str(w["repo"]), "worktree", "add", "-q", "--detach",
                    str(tree), commit], check=True)
    data = enumerate_tree(tree, w["root"] / f"e-{commit[:8]}.json", w["script"])
    e = data["entries"]
    return e["design:gate"]["value"], e["bench:gate"]["value"]


def _run(w: dict[str, Path], since: str, **kw: object):  # type: ignore[no-untyped-def]
    return rekey(w["repo"], since, w["store"], w["scratch"], script=w["script"], **kw)


def test_comment_change_rekeyed_gate_change_refused_stale_kept_idempotent(
        world: dict[str, Path]) -> None:
    w = world
    c0 = _commit(w["repo"], GATE.format(comment="a registered AND", op="&"))
    h0, b0 = _hashes(w, c0)
    synth = _record(w["store"], "synth/gate", {"kind": "synth", "source_hash": h0, "seed": 1})
    sim = _record(w["store"], "cache/gate/sim", {"kind": "sim", "key": b0})
    stale = _record(w["store"], "synth/gate~seed2",
                    {"kind": "synth", "source_hash": h0, "seed": 2}, stale=True)
    stale_text = stale.read_text()
    # a hash neither commit computes (measured on older sources): left alone
    other = _record(w["store"], "synth/other",
                    {"kind": "synth", "source_hash": "0123456789abcdef"})
    other_text = other.read_text()

    # a comment-only change (and a longer header: every line moves) is re-keyed
    c1 = _commit(w["repo"], "// what and why\n//\n"
                 + GATE.format(comment="one flip-flop of a AND b", op="&"))
    h1, b1 = _hashes(w, c1)
    assert h1 != h0 and b1 != b0
    dry = _run(w, c0, dry_run=True)
    assert dry.rekeyed["synth"] == 1 and json.loads(synth.read_text())["parts"]["source_hash"] == h0
    s = _run(w, c0)
    assert s.proven == ["gate"] and not s.refused
    assert s.rekeyed == {"synth": 1, "sim": 1}
    assert s.stale_before == {"synth": 1}
    rec = json.loads(synth.read_text())
    assert rec["parts"]["source_hash"] == h1 and rec["key"] == digest(rec["parts"])
    assert rec["rekeyed"][0]["from"] == c0[:10] and rec["rekeyed"][0]["to"] == c1[:10]
    assert rec["commit"] == "x" and rec["data"] == {"lut4": 1}
    srec = json.loads(sim.read_text())
    assert srec["parts"]["key"] == b1 and srec["key"] == digest(srec["parts"])
    assert stale.read_text() == stale_text  # stale before: left alone
    assert s.unaccounted == {"synth": 1} and other.read_text() == other_text

    # a second run changes nothing
    before = {p: p.read_text() for p in w["store"].rglob("*.json")}
    again = _run(w, c0)
    assert not again.rekeyed
    assert {p: p.read_text() for p in w["store"].rglob("*.json")} == before

    # one gate changed: refused, the record keeps its (now stale) key
    c2 = _commit(w["repo"], "// what and why\n//\n"
                 + GATE.format(comment="one flip-flop of a OR b", op="|"))
    s2 = _run(w, c1)
    assert "gate" in s2.refused and "differ" in s2.refused["gate"]
    assert not s2.rekeyed and s2.stale_kept == {"synth": 1, "sim": 1}
    assert json.loads(synth.read_text())["parts"]["source_hash"] == h1
    assert c2


def test_a_bench_key_whose_harness_changed_code_is_refused(world: dict[str, Path]) -> None:
    w = world
    c0 = _commit(w["repo"], GATE.format(comment="AND", op="&"), "// h\nint x;\n")
    h0, b0 = _hashes(w, c0)
    synth = _record(w["store"], "synth/gate", {"kind": "synth", "source_hash": h0})
    sim = _record(w["store"], "cache/gate/sim", {"kind": "sim", "key": b0})
    _commit(w["repo"], GATE.format(comment="a AND b", op="&"), "// h2\nint y;\n")
    s = _run(w, c0)
    assert s.rekeyed == {"synth": 1}  # the design is proven ...
    assert "bench:gate" in s.keys_refused  # ... the harness is not the same code
    assert json.loads(sim.read_text())["parts"]["key"] == b0
    assert json.loads(synth.read_text())["parts"]["source_hash"] != h0


def test_bad_input_is_one_line(world: dict[str, Path]) -> None:
    w = world
    _commit(w["repo"], GATE.format(comment="AND", op="&"))
    with pytest.raises(RekeyError, match="unknown commit"):
        _run(w, "no-such-commit")
    with pytest.raises(RekeyError, match="not a git checkout"):
        rekey(Path("/"), "HEAD", w["store"], w["scratch"])
    with pytest.raises(RekeyError, match="no results folder"):
        rekey(w["repo"], "HEAD", w["root"] / "nosuch", w["scratch"])
    proc = subprocess.run([sys.executable, "-m", "aeskit.cli", "store", "rekey", "--since",
                           "no-such-commit", "--repo", str(w["repo"]), "--results",
                           str(w["store"])], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["aeskit: error: unknown commit 'no-such-commit'"]


def test_comment_equivalence() -> None:
    a = b'module m; // x\n  assign y = "a // b"; /* c\n d */ endmodule\n'
    b = b'// header\nmodule m;\n\n  assign y = "a // b";   endmodule   \n'
    assert code_of(a.decode()).split() == code_of(b.decode()).split()
    assert not comment_equivalent(b"assign y = a & b;\n", b"assign y = a | b;\n", "x.sv")
    assert comment_equivalent(b"// a\nassign y = a;\n", b"assign y = a; // b\n", "x.sv")
    assert not comment_equivalent(b"x = 1 # a\n", b"x = 1 # b\n", "x.py")
    assert not comment_equivalent(b"`__LINE__ // a\n", b"`__LINE__ // b\n", "x.sv")
