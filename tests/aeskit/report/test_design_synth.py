"""Tests of aeskit.report.design_synth: a section's systems over the report's seeds."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from aeskit.report.design_synth import fmax_cell, seeds_text, synth_json


def test_seeds_text_and_fmax_cell() -> None:
    three = {"fmax_mhz": 38.6, "fmax_min": 33.8, "fmax_max": 41.94,
             "fmax_seeds": {"3": 41.94, "1": 33.8, "2": 38.6}}
    assert seeds_text(three) == "seeds 1 / 2 / 3: 33.8 / 38.6 / 41.9 MHz"
    assert fmax_cell(three) == "38.6 (33.8-41.9)"
    one = {"fmax_mhz": 50.0, "fmax_min": 50.0, "fmax_max": 50.0, "fmax_seeds": {"1": 50.0}}
    assert seeds_text(one) == "" and fmax_cell(one) == "50.0"
    assert fmax_cell({}) == "-" and seeds_text({}) == ""


def test_unrouted_seeds_are_named_beside_the_median() -> None:
    from aeskit.synth.seeds import combine_seeds

    bad = {"device": "LFE5U-85F", "stage": "route", "needs": {}, "available": {},
           "over": ["routing"], "detail": "routing congested: 9 wires still overused"}
    syn = combine_seeds([{"seed": 1, "fmax_mhz": 57.64, "fits": True},
                         {"seed": 2, "fmax_mhz": None, "fits": False, "misfit": bad},
                         {"seed": 3, "fmax_mhz": 59.0, "fits": True}])
    assert fmax_cell(syn) == "57.6 (57.6-59.0; seed 2 not routed)"
    assert seeds_text(syn) == "seeds 1 / 2 / 3: 57.6 / - / 59.0 MHz (seed 2 not routed)"
    worse = combine_seeds([{"seed": 1, "fmax_mhz": 57.64, "fits": True},
                           {"seed": 2, "fmax_mhz": None, "fits": False, "misfit": bad},
                           {"seed": 3, "fmax_mhz": None, "fits": False, "misfit": bad}])
    assert fmax_cell(worse) == "not routed at the median (seeds 2, 3 not routed; seed 1: 57.6)"


def test_synth_json_places_every_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import aeskit.synth

    seen: list[int] = []

    def fake(design: Any, out_dir: Path, *, seed: int, **_kw: Any) -> SimpleNamespace:
        seen.append(seed)
        data = {"seed": seed, "fmax_mhz": 10.0 * seed, "lut4": 7}
        return SimpleNamespace(to_json=lambda: dict(data))

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    said: list[str] = []
    out = synth_json(SimpleNamespace(name="sys"), aeskit.synth.DEVICE, False, said.append,
                     tmp_path, (1, 2, 3))
    assert seen == [1, 2, 3] and said[0] == "sys: synthesis, seeds 1, 2, 3"
    assert (out["fmax_mhz"], out["fmax_min"], out["fmax_max"]) == (20.0, 10.0, 30.0)
