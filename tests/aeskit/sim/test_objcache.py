"""The Verilator runtime's object cache (aeskit.sim.objcache): a runtime source is
compiled once per command line and runtime, everything else always."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from aeskit.sim import objcache

# a stand-in compiler: appends its arguments to calls.log and writes "<flag>:<source>"
_FAKE_CXX = """import sys
from pathlib import Path
args = sys.argv[1:]
with open(Path(__file__).with_name("calls.log"), "a") as fh:
    fh.write(" ".join(args) + "\\n")
if "FAIL" in args:
    sys.exit(3)
out = args[args.index("-o") + 1] if "-o" in args else "model.o"
Path(out).write_text(args[0] + ":" + Path(args[-1]).read_text())
"""


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, Path]:
    inc = tmp_path / "verilator" / "include"
    inc.mkdir(parents=True)
    (inc / "verilated.mk").write_text("# stand-in\n")
    (inc / "verilated.cpp").write_text("runtime source\n")
    cxx = tmp_path / "cxx.py"
    cxx.write_text(_FAKE_CXX)
    work = tmp_path / "obj"
    work.mkdir()
    (work / "Vtop__ALL.cpp").write_text("model source\n")
    return {"inc": inc, "cxx": cxx, "work": work, "cache": tmp_path / "cache",
            "log": tmp_path / "calls.log"}


def _compile(t: dict[str, Path], *args: str) -> int:
    env = {**os.environ, **objcache.objcache_env(t["cache"])}
    cmd = [*shlex.split(env["OBJCACHE"]), sys.executable, str(t["cxx"]), *args]
    return subprocess.run(cmd, cwd=t["work"], env=env, check=False).returncode


def _calls(t: dict[str, Path]) -> int:
    return len(t["log"].read_text().splitlines()) if t["log"].exists() else 0


def test_a_runtime_object_is_compiled_once_per_command_line(tree: dict[str, Path]) -> None:
    src = str(tree["inc"] / "verilated.cpp")
    assert _compile(tree, "-O0", "-c", "-o", "verilated.o", src) == 0
    first = (tree["work"] / "verilated.o").read_bytes()
    assert first == b"-O0:runtime source\n" and _calls(tree) == 1
    (tree["work"] / "verilated.o").unlink()
    assert _compile(tree, "-O0", "-c", "-o", "verilated.o", src) == 0
    assert (tree["work"] / "verilated.o").read_bytes() == first
    assert _calls(tree) == 1, "the second compile was not answered from the cache"
    # other flags: another object
    assert _compile(tree, "-O2", "-c", "-o", "verilated.o", src) == 0
    assert (tree["work"] / "verilated.o").read_bytes() == b"-O2:runtime source\n"
    assert _calls(tree) == 2


def test_a_changed_runtime_is_compiled_again(tree: dict[str, Path]) -> None:
    src = tree["inc"] / "verilated.cpp"
    assert _compile(tree, "-O0", "-c", "-o", "verilated.o", str(src)) == 0
    src.write_text("runtime source, next version\n")
    assert _compile(tree, "-O0", "-c", "-o", "verilated.o", str(src)) == 0
    assert (tree["work"] / "verilated.o").read_text() == "-O0:runtime source, next version\n"
    assert _calls(tree) == 2


def test_model_sources_and_failures_are_never_cached(tree: dict[str, Path]) -> None:
    model = str(tree["work"] / "Vtop__ALL.cpp")
    for _ in range(2):
        assert _compile(tree, "-O1", "-c", model) == 0
    assert _calls(tree) == 2
    src = str(tree["inc"] / "verilated.cpp")
    for _ in range(2):
        assert _compile(tree, "FAIL", "-c", "-o", "verilated.o", src) == 3
    assert _calls(tree) == 4
    assert not tree["cache"].exists() or not any(tree["cache"].iterdir())
