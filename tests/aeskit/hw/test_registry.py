"""The registry: one list, consistent declarations, clear errors."""

from __future__ import annotations

import pytest

from aeskit.hw import CORES, PRIMITIVES, UnknownCoreError, get_core
from aeskit.hw.registry import KEY_SIZES_ALL, registry_json


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


def test_source_hash_tracks_content(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    f = tmp_path / "ak_x.sv"
    f.write_text("module ak_x; endmodule\n")
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "defs.svh").write_text("`define A 1\n")
    c = replace(get_core("round"), files=(str(f),), include_dirs=(str(inc),))
    h0 = c.source_hash()
    (inc / "defs.svh").write_text("`define A 2\n")
    h1 = c.source_hash()
    f.write_text("module ak_x; wire a; endmodule\n")
    assert len({h0, h1, c.source_hash()}) == 3
    assert replace(c, parameters={"TagWidth": 2}).source_hash() != c.source_hash()


def test_json_fields_stable() -> None:
    for d in registry_json():
        assert {"name", "top", "files", "include_dirs", "parameters", "key_sizes", "decrypt",
                "latency", "interval", "paper"} <= set(d)
