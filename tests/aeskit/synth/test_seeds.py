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


def _unrouted_run(seed: int) -> dict[str, Any]:
    return {"seed": seed, "fmax_mhz": None, "fits": False, "lut4": 7,
            "misfit": {"device": "LFE5U-85F", "stage": "route", "needs": {}, "available": {},
                       "over": ["routing"], "detail": "routing congested: 13,900 wires "
                       "still overused after 30 min of router2"}}


def test_combine_seeds_ranks_an_unrouted_seed_below_every_routed_one() -> None:
    """One unrouted seed of three: the median is the slower routed seed, the unrouted
    one shows as None with its verdict; two of three: the result does not route."""
    runs = [{"seed": 1, "fmax_mhz": 57.6, "fits": True}, _unrouted_run(2),
            {"seed": 3, "fmax_mhz": 60.1, "fits": True}]
    out = combine_seeds(runs)
    assert (out["seed"], out["fmax_mhz"], out["fits"]) == (1, 57.6, True)
    assert out["fmax_seeds"] == {"1": 57.6, "2": None, "3": 60.1}
    assert (out["fmax_min"], out["fmax_max"]) == (57.6, 60.1)
    assert out["unrouted_seeds"] == {
        "2": "routing congested: 13,900 wires still overused after 30 min of router2"}
    worse = combine_seeds([runs[0], _unrouted_run(2), _unrouted_run(3)])
    assert (worse["seed"], worse["fits"], worse["fmax_mhz"]) == (3, False, None)
    assert worse["fmax_seeds"] == {"1": 57.6, "2": None, "3": None}
    assert (worse["fmax_min"], worse["fmax_max"]) == (57.6, 57.6)
    assert "unrouted_seeds" not in combine_seeds([runs[0], runs[2]])


class _NoFit(Exception):
    """Stands in for aeskit.synth.DoesNotFit (its result and misfit stage)."""

    def __init__(self, data: dict[str, Any]) -> None:
        super().__init__("x")
        self.message = f"sys: {data['misfit']['stage']}"
        self.result = _Result(data)
        self.misfit = type("M", (), {"stage": data["misfit"]["stage"]})()


def test_synthesize_seeds_runs_on_past_an_unrouted_seed_and_stops_at_a_misfit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seed the router does not finish leaves the others to run; a design that does
    not fit (Yosys's count) ends at once with that result."""
    import aeskit.synth

    calls: list[int] = []
    misfit_stage = {"value": "route"}

    def fake(design: Any, out_dir: Path, *, seed: int, device: str, **_kw: Any) -> _Result:
        calls.append(seed)
        if seed == 2:
            data = _unrouted_run(2)
            data["misfit"]["stage"] = misfit_stage["value"]
            raise _NoFit(data)
        return _Result({"seed": seed, "fmax_mhz": 50.0 + seed, "fits": True})

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    monkeypatch.setattr(aeskit.synth, "DoesNotFit", _NoFit)
    said: list[str] = []
    out = synthesize_seeds(_Design(), aeskit.synth.DEVICE, (1, 2, 3), tmp_path,
                           progress=said.append)
    assert calls == [1, 2, 3]
    assert (out["seed"], out["fmax_mhz"], sorted(out["unrouted_seeds"])) == (1, 51.0, ["2"])
    assert said == ["sys: route"]
    calls.clear()
    misfit_stage["value"] = "yosys"
    out = synthesize_seeds(_Design(), aeskit.synth.DEVICE, (1, 2, 3), tmp_path)
    assert calls == [1, 2] and out["fits"] is False and out["seed"] == 2
