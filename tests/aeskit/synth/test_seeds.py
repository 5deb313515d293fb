"""Tests of aeskit.synth.seeds: one design over several placement seeds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from aeskit.synth.seeds import combine_seeds, synthesize_seeds


def test_combine_seeds_takes_the_lower_middle_of_an_even_count() -> None:
    runs = [{"seed": s, "fmax_mhz": f, "lut4": s} for s, f in ((1, 60.0), (2, 40.0),
                                                              (3, 50.0), (4, 70.0))]
    out = combine_seeds(runs)
    assert (out["seed"], out["fmax_mhz"], out["fmax_min"], out["fmax_max"]) == (3, 50.0, 40.0, 70.0)
    assert out["fmax_seeds"] == {"1": 60.0, "2": 40.0, "3": 50.0, "4": 70.0}
    one = combine_seeds([{"seed": 1, "fmax_mhz": None, "lut4": 5}])
    assert one["fmax_mhz"] is None and one["fmax_min"] is None
    with pytest.raises(ValueError, match="at least one run"):
        combine_seeds([])


class _Result:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


class _Design:
    name = "sys"


def test_synthesize_seeds_places_each_seed_in_its_own_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each seed runs once, in ``<name>`` (seed 1) or ``<name>~seed<k>``, and the
    median seed's figures come back with the others' Fmax beside them."""
    import aeskit.synth

    fmax = {1: 33.8, 2: 38.6, 3: 41.9}
    calls: list[tuple[str, int]] = []

    def fake(design: Any, out_dir: Path, *, seed: int, device: str, **_kw: Any) -> _Result:
        calls.append((out_dir.name, seed))
        return _Result({"seed": seed, "fmax_mhz": fmax[seed], "lut4": 100 + seed,
                        "device": device})

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    said: list[str] = []
    out = synthesize_seeds(_Design(), aeskit.synth.DEVICE, (1, 2, 3), tmp_path,
                           progress=said.append)
    assert calls == [("sys", 1), ("sys~seed2", 2), ("sys~seed3", 3)]
    assert (out["seed"], out["fmax_mhz"], out["lut4"]) == (2, 38.6, 102)
    assert (out["fmax_min"], out["fmax_max"]) == (33.8, 41.9)
    with pytest.raises(ValueError, match="no placement seed"):
        synthesize_seeds(_Design(), aeskit.synth.DEVICE, (), tmp_path)
