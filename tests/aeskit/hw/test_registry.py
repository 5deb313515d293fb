"""The registry: one list, consistent declarations, clear errors."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aeskit.hw import CORES, PRIMITIVES, UnknownCoreError, get_core
from aeskit.hw.registry import KEY_SIZES_ALL, registry_json

FIXTURE = Path(__file__).resolve().parent / "source_hash_fixture"


def test_names_unique_and_lookup() -> None:
    names = [c.name for c in CORES]
    assert len(names) == len(set(names))
    assert len({p.name for p in PRIMITIVES}) == len(PRIMITIVES)
    for c in CORES:
        assert get_core(c.name) is c


def test_unknown_core_message() -> None:
    with pytest.raises(UnknownCoreError, match="unknown core 'nope'; known cores: round"):
        get_core("nope")


@pytest.mark.parametrize("core", CORES, ids=lambda c: c.name)
def test_declaration_is_consistent(core) -> None:  # type: ignore[no-untyped-def]
    assert core.top.startswith("ak_")
    for p in core.file_paths():
        assert p.is_file(), p
    assert core.file_paths()[-1].stem == core.top, "the top module's file comes last"
    assert set(core.key_sizes) <= set(KEY_SIZES_ALL)
    assert set(core.latency) == set(core.key_sizes)
    assert set(core.interval) == set(core.key_sizes)
    assert set(core.key_setup) <= set(core.key_sizes)
    assert core.paper


def test_source_hash_tracks_content(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hash covers the content of every file the manifest lists and of the include
    folders, and the parameters: a copy of a fixture core (a manifest, its RTL, an
    include folder) under build/, edited step by step."""
    import shutil
    from dataclasses import replace

    from aeskit import BUILD_ROOT
    from aeskit.hw import manifest

    tree = BUILD_ROOT / "tests" / "source_hash" / f"{os.getpid()}"
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(FIXTURE, tree)
    real_sources = manifest.sources
    monkeypatch.setattr(manifest, "sources", lambda name, root=None: real_sources(name, tree))
    c = replace(get_core("round"), top="ak_fx_hash", manifest="aeskit:fixture:fx_hash",
                include_dirs=(str(tree / "include"),))
    assert [p.name for p in c.file_paths()] == ["ak_fx_hash.sv"]
    h0 = c.source_hash()
    assert c.source_hash() == h0
    inc = tree / "include" / "ak_fx_hash.svh"
    inc.write_text(inc.read_text() + "// edited\n")
    h1 = c.source_hash()
    rtl = tree / "ak_fx_hash.sv"
    rtl.write_text(rtl.read_text() + "// edited\n")
    assert len({h0, h1, c.source_hash()}) == 3
    assert replace(c, parameters={"TagWidth": 2}).source_hash() != c.source_hash()
    shutil.rmtree(tree)


def test_json_fields_stable() -> None:
    for d in registry_json():
        assert {"name", "top", "manifest", "files", "include_dirs", "parameters", "key_sizes", "decrypt",
                "latency", "interval", "paper"} <= set(d)


def test_systems_build_from_their_manifests(tmp_path: Path) -> None:
    """Every system's sources come from its manifest; a system that takes any core
    renders its top around that core's top module (two different cores here)."""
    from aeskit.hw import SYSTEMS, get_system
    from aeskit.hw import manifest

    assert {s.name for s in SYSTEMS} >= {"cipher_ahb", "coproc", "axis_core"}
    for s in SYSTEMS:
        manifest.get(s.manifest)  # the manifest exists
        get_core(s.default_core)
        cores = [s.default_core] + (["round", "pipe2"] if s.builder else [])
        for core in cores:
            files = s.sources(core, tmp_path / s.name / core)
            assert len(set(files)) == len(files)
            assert all(p.is_file() for p in files)
            tops = [p for p in files if p.stem == s.top]
            assert len(tops) == 1 and files[-1] == tops[0]
            if s.builder:
                text = tops[0].read_text()
                assert f"{get_core(core).top} " in text or f"{get_core(core).top}#" in text
                assert set(get_core(core).file_paths()) <= set(files)
    with pytest.raises(UnknownCoreError, match="known systems: cipher_ahb"):
        get_system("nosuch")
    with pytest.raises(ValueError, match="built on pipe2 only"):
        get_system("cipher_ahb").sources("round")
