"""The report section "GCM, GMAC, XTS and CMAC on the mode engine" (issue 15):
rendering from synthetic figures, and a real measurement on ``round``."""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.report.sections import modes_aead, paper001, section_modules


def _entry(lat: int, itv: int, gcm: list[float]) -> dict:
    cpb = {f"{m}-{d}": {"128": gcm if m == "gcm" else [10.0, 10.0]}
           for m in modes_aead.MODES for d in ("enc", "dec")}
    msg = {"xts": {"bytes": 512, "aad": 0, "cycles": 359, "ctr": 324},
           "gcm": {"bytes": 1500, "aad": 20, "cycles": 981, "ctr": 944},
           "cmac": {"bytes": 64, "aad": 0, "cycles": 54, "ctr": 44, "cbc": 44}}
    return {"cpb": cpb, "msg": msg, "latency": {"128": lat}, "interval": {"128": itv}}


def _data() -> dict:
    ghash = [{"name": "gf128_mul_d16", "digit_bits": 16, "karatsuba": False, "proven": True,
              "cycles": 8, "lut4": 2253, "ff": 373, "fmax": 120.5, "mbps": 1928.0}]
    return {"cores": {"round": _entry(10, 10, [10.0, 10.0]),
                      "ttable_unrolled": _entry(83, 1, [41.5, 20.75])},
            "ghash": ghash, "ghash_missing": ["gf128_mul_d128"]}


def test_section_follows_paper001() -> None:
    mods = section_modules()
    assert modes_aead in mods
    assert mods.index(modes_aead) == mods.index(paper001) + 1
    assert modes_aead.TITLE == "GCM, GMAC, XTS and CMAC on the mode engine"


def test_render_tables_and_gbps() -> None:
    rows = [{"core": "round", "key_size": 128, "fmax_mhz": 100.0, "does_not_fit": None},
            {"core": "ttable_unrolled", "key_size": 128, "fmax_mhz": 83.0,
             "does_not_fit": None}]
    md = modes_aead.render(rows, _data())
    assert "**`round`**, cycles per 16-byte block" in md
    assert "| GCM | encrypt | 10 / 10 | - | - |" in md
    assert "| CMAC | verify | 10 / 10 | - | - |" in md
    assert "| `round` | XTS | 512 bytes | 359 | 324 | 35 |" in md
    assert "| `round` | GCM | 1,500 bytes + 20 AAD | 981 | 944 | 37 |" in md
    # no system placed: no figure at a system's clock; at the core's: 128 * 100 / 10 /
    # 1000 = 1.28 Gbit/s; GHASH bounds 1.6 and 0.4
    assert "| `round` | 10 | not placed in this report | - | 100.0 | 1.28 | 1.60 | 0.40 |" in md
    # ttable_unrolled: 128 * 83 / 20.75 / 1000 = 0.512 Gbit/s
    assert ("| `ttable_unrolled` | 20.75 | not placed in this report | - | 83.0 | 0.51 | "
            "1.33 | 0.33 |") in md
    assert "| gf128_mul_d16 | 16 | no | yes | 8 | 2253 | 373 | 120.5 | 1928.0 |" in md
    assert "`aeskit primitives --only gf128_mul_d128`" in md
    target = next(ln for ln in md.splitlines() if ln.startswith("**Target"))
    assert "Not met" in target and "L = 83, I = 1" in target
    assert "max(L/2, I) = 41.5" in target and "20.75 for two streams" in target
    assert "aggregated GHASH" in target


def test_gcm_throughput_at_the_systems_clock() -> None:
    """Issue 48: a mode's Gbit/s at the clock of the system that runs it (the engine with
    GCM on the core), the core's own clock as the bound beside it."""
    rows = [{"core": "round", "key_size": 128, "fmax_mhz": 100.0, "does_not_fit": None}]
    systems = [
        # an engine without GCM on round, and one on another core: not GCM's system
        {"name": "ecb_cbc_ctr_1s", "kind": "engine", "core": "round", "streams": 1,
         "modes": ["ecb", "cbc", "ctr"], "fmax_mhz": 90.0, "lut4": 15000},
        {"name": "all_2s", "kind": "engine", "core": "pipe2", "streams": 2,
         "modes": ["ecb", "gcm"], "fmax_mhz": 30.0, "lut4": 30000},
        {"name": "all_2s", "kind": "engine", "core": "round", "streams": 2,
         "modes": ["ecb", "cbc", "gcm", "xts"], "fmax_mhz": 50.0, "fmax_min": 48.0,
         "fmax_max": 52.0, "fmax_seeds": {"1": 48.0, "2": 50.0, "3": 52.0},
         "lut4": 21000}]
    assert modes_aead.gcm_system(systems, "round") is systems[2]
    assert modes_aead.gcm_system(systems, "ttable_unrolled") is None
    md = modes_aead.render(rows, _data(), systems=systems)
    # 128 * 50 / 10 / 1000 = 0.64 Gbit/s at the system's clock; GHASH bounds at 50 MHz:
    # 128 * 50 / 8 / 1000 = 0.80 and 128 * 50 / 32 / 1000 = 0.20
    assert ("| `round` | 10 | `all_2s` (21,000 LUT4): 50.0 (48.0-52.0) | 0.64 | 100.0 | 1.28 | "
            "0.80 | 0.20 |") in md


def test_render_gcm_pipe_target() -> None:
    """With ak_gcm_pipe synthesized: its row (one block per cycle) and the target
    judged on it: 128 * 80 / 1000 = 10.24 Gbit/s, 20 Gbit/s needs 156 MHz."""
    rows = [{"core": "ttable_unrolled", "key_size": 128, "fmax_mhz": 83.0,
             "does_not_fit": None}]
    data = {**_data(), "gcm_pipe": {"fmax_mhz": 80.0, "lut4": 25850, "ff": 23630, "ebr": 84}}
    md = modes_aead.render(rows, data)
    assert ("| `ak_gcm_pipe` on `ttable_unrolled` (docs/gcm_pipe.md) | 1 | `ak_gcm_pipe_sys` "
            "(25,850 LUT4, 23,630 FF, 84 EBR): 80.0 | 10.24 | 83.0 | 10.62 |") in md
    target = next(ln for ln in md.splitlines() if ln.startswith("**Target"))
    assert "Not met" in target and "10.24 Gbit/s" in target and "needs 156 MHz" in target
    assert "41.5 cycles per block for one stream, 20.75 for two" in target
    # the core's own Fmax (83 MHz: 128 * 83 / 1000 = 10.62 Gbit/s) named as the bound
    assert ("`ttable_unrolled` runs at 83.0 MHz in this report (median seed), 10.62 Gbit/s"
            in target)
    fast = [{**rows[0], "fmax_mhz": 200.0}]
    target = next(ln for ln in modes_aead.render(fast, data).splitlines()
                  if ln.startswith("**Target"))
    assert "Not met" in target and "The core alone bounds it" not in target
    data["gcm_pipe"]["fmax_mhz"] = 160.0
    target = next(ln for ln in modes_aead.render(rows, data).splitlines()
                  if ln.startswith("**Target"))
    assert target.count("Met") == 1 and "20.48 Gbit/s" in target



def test_render_gcm_line_row_and_targets() -> None:
    """The line-rate system's row and issue 49's targets: 128 * 70 / 1000 = 8.96 Gbit/s
    is below 10 (78.1 MHz); the packet rates from the documented cycle counts."""
    rows = [{"core": "ttable_unrolled", "key_size": 128, "fmax_mhz": 121.0,
             "does_not_fit": None}]
    line = {"fmax_mhz": 70.0, "lut4": 27000, "ff": 26000, "ebr": 84,
            "critical_path": {}}
    md = modes_aead.render(rows, {**_data(), "gcm_line": line})
    assert "| `gcm_line` system: `ak_gcm_pipe` behind AXI4-Stream and AXI4-Lite" in md
    assert "27,000 LUT4, 26,000 FF, 84 EBR) | 1 | 70.0 | 8.96 |" in md
    target = next(ln for ln in md.splitlines() if ln.startswith("**Target (issue 49)"))
    assert "Not met: 70.0 MHz, 8.96 Gbit/s" in target and "78.1 MHz" in target
    assert "100 x 64 B back to back 0.669" in target and "12 x 1,500 B back to back 0.911" in target
    assert target.count("(target 0.6: met)") == 1 and "(target 0.9: met)" in target
    line["fmax_mhz"] = 80.0
    md = modes_aead.render(rows, {**_data(), "gcm_line": line})
    target = next(ln for ln in md.splitlines() if ln.startswith("**Target (issue 49)"))
    assert "Met: 80.0 MHz, 10.24 Gbit/s." in target
    entry = modes_aead.systems(rows, {"gcm_line": line})[0]
    assert entry["name"] == "gcm_line" and entry["modes"] == ["gcm"]
    assert abs(entry["cycles_per_block"]["gcm-enc"] - 95 / 94) < 1e-12


def test_render_gcm_pipe_with_an_unrouted_seed() -> None:
    """A placement seed whose router did not finish is named in the system's Fmax cell;
    when the median falls on one, the cell says so and keeps the routed seed's Fmax
    (not the misfit note alone)."""
    from aeskit.synth.seeds import combine_seeds

    bad = {"device": "LFE5U-85F", "stage": "route", "needs": {}, "available": {},
           "over": ["routing"], "detail": "routing congested: 14,912 wires still overused "
           "after 30 min of router2"}
    routed = {"fmax_mhz": 57.6, "fits": True, "lut4": 23110, "ff": 21950, "ebr": 156}
    runs = [{**routed, "seed": 1}, {"seed": 2, "fmax_mhz": None, "fits": False, "misfit": bad,
                                    "lut4": 23110, "ff": 21950, "ebr": 156},
            {**routed, "seed": 3, "fmax_mhz": 60.0}]
    rows = [{"core": "ttable_unrolled", "key_size": 128, "fmax_mhz": 121.8,
             "does_not_fit": None}]
    md = modes_aead.render(rows, {**_data(), "gcm_pipe": combine_seeds(runs)})
    assert "156 EBR): 57.6 (57.6-60.0; seed 2 not routed) | 7.37 |" in md
    runs[2] = {**runs[1], "seed": 3}
    md = modes_aead.render(rows, {**_data(), "gcm_pipe": combine_seeds(runs)})
    assert ("156 EBR): not routed at the median (seeds 2, 3 not routed; seed 1: 57.6) | - |"
            in md)


def test_render_without_figures() -> None:
    """The report without synthesis calls render(rows, None); a misfit core has no
    Gbit/s but its verdict."""
    md = modes_aead.render([], None)
    assert "Not measured" in md and "aeskit primitives --only" in md
    rows = [{"core": "ttable_unrolled", "key_size": 128, "fmax_mhz": None,
             "does_not_fit": "does not fit (needs 99 of 56 DP16KD)"}]
    md = modes_aead.render(rows, _data())
    assert ("| `ttable_unrolled` | 20.75 | not placed in this report | - | does not fit (needs 99 "
            "of 56 DP16KD) | - |") in md
    assert "so no Gbit/s" in md


def test_collect_on_round(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real measurement (compiled harness) on round, AES-128 only, cached in tmp."""
    monkeypatch.setattr(modes_aead, "CACHE_DIR", tmp_path)
    core = get_core("round")
    data = modes_aead.collect([core, get_core("ueno")], None, True, key_sizes=(128,))
    assert set(data["cores"]) == {"round"}
    ent = data["cores"]["round"]
    lat, itv = core.latency[128], core.interval[128]
    # GCM at CTR's rate: max(L/2, I, 128/D) for one stream, max(L/4, I, 64/D) for two
    assert ent["cpb"]["gcm-enc"]["128"] == [max(lat / 2, itv, 8), max(lat / 4, itv, 4)]
    assert ent["cpb"]["gcm-dec"]["128"] == ent["cpb"]["gcm-enc"]["128"]
    assert set(ent["cpb"]["xts-enc"]) == {"128"}
    msg = ent["msg"]
    assert msg["xts"]["cycles"] > msg["xts"]["ctr"] and msg["gcm"]["cycles"] > msg["gcm"]["ctr"]
    assert msg["cmac"]["cycles"] > msg["cmac"]["ctr"]
    assert (tmp_path / "round_aead.json").is_file()
    # cached: a second call measures nothing
    said: list[str] = []
    assert modes_aead.collect([core], said.append, False, key_sizes=(128,))["cores"] == \
        data["cores"]
    assert not said
    md = modes_aead.render([], data)
    assert "| `round` | XTS | 512 bytes |" in md
