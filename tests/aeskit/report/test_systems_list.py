"""Issue 47: the mode-engine configurations (defined once, in the registry's
ENGINE_CONFIGS) and report.json's ``systems`` list, with faked synthesis and cycles (no
Yosys, nextpnr or Verilator)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from aeskit.hw import ENGINE_CONFIGS, SYSTEMS, EngineConfig, get_core
from aeskit.report.sections import coproc, paper001

#: design name -> (LUT4, FF, EBR, Fmax of seeds 1, 2, 3)
FAKE: dict[str, tuple[int, int, int, tuple[float, float, float]]] = {
    "pipe2": (3400, 1200, 0, (90.0, 95.0, 88.0)),
    "mode_sys_pipe2": (30000, 9000, 0, (30.0, 28.0, 33.0)),
    "mode_sys_pipe2_p001_2s": (15000, 5000, 0, (40.0, 38.0, 44.0)),
    "mode_sys_pipe2_ecb_cbc_ctr_1s": (6000, 2500, 0, (60.0, 55.0, 65.0)),
    "cipher_ahb": (20000, 7000, 4, (35.0, 36.0, 34.0)),
    "coproc": (9000, 4000, 24, (50.0, 52.0, 48.0)),
    "axis_core": (8000, 3000, 8, (70.0, 71.0, 69.0)),
    "coproc_lite": (2500, 1300, 4, (80.0, 78.0, 82.0)),
    "coproc_cmac": (3500, 1500, 4, (75.0, 74.0, 77.0)),
    "aes_lite": (2000, 1100, 4, (50.0, 49.0, 51.0)),
    "aes_lite_ecc": (1800, 1000, 4, (52.0, 50.0, 53.0)),
}
#: every entry systems has, and nothing else
FIELDS = {"name", "kind", "design", "top", "section", "modes", "modes_mask", "streams",
          "core", "lut4", "ff", "ebr", "fmax_mhz", "fmax_min", "fmax_max", "fmax_seeds",
          "unrouted_seeds", "does_not_fit", "core_lut4", "core_fmax_mhz", "engine_lut4",
          "cycles_per_block", "cycles_key_size", "cycles_source"}


def test_engine_configurations() -> None:
    """The three configurations of issue 47, in the registry; the every-mode two-stream
    one is the harness default and keeps the design name (and the sources) of
    paper001's mode_sys_pipe2, the others get their own names and Modes/Streams."""
    got = {e.name: (e.modes, e.streams, e.core) for e in ENGINE_CONFIGS}
    assert got == {"ecb_cbc_ctr_1s": (0x007, 1, "pipe2"), "p001_2s": (0x03F, 2, "pipe2"),
                   "all_2s": (0x1FF, 2, "pipe2")}
    assert [e.mode_names() for e in ENGINE_CONFIGS][:2] == [
        ("ecb", "cbc", "ctr"), ("ecb", "cbc", "ctr", "cfb", "ofb", "ccm")]
    names = [paper001.engine_design_name("pipe2", e) for e in ENGINE_CONFIGS]
    assert names == ["mode_sys_pipe2_ecb_cbc_ctr_1s", "mode_sys_pipe2_p001_2s",
                     "mode_sys_pipe2"]
    with pytest.raises(ValueError):
        EngineConfig("x", modes=0x200, streams=1, description="")
    with pytest.raises(ValueError):
        EngineConfig("x", modes=0x1, streams=3, description="")


def test_engine_designs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """engine_design(core, config): ak_mode_sys with the configuration's parameters,
    the static placer and router2 as before; all_2s is exactly the old design."""
    monkeypatch.setattr(paper001, "CACHE_DIR", tmp_path)
    core = get_core("pipe2")
    old = paper001.engine_design(core)
    by = {e.name: paper001.engine_design(core, e) for e in ENGINE_CONFIGS}
    assert by["all_2s"].name == old.name == "mode_sys_pipe2"
    assert by["all_2s"].files == old.files
    assert old.files[-1] == tmp_path / "src" / "pipe2" / "ak_mode_sys.sv"
    for e in ENGINE_CONFIGS:
        d = by[e.name]
        assert (d.top, d.router, d.placer) == ("ak_mode_sys", "router2", "static")
        text = d.files[-1].read_text()
        assert f"ak_mode_engine #(.Streams({e.streams})" in text
        assert (f".Modes(9'h{e.modes:03x})" in text) == (e.modes != 0x1FF)


def test_configurations_are_defined_once(monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The report's synthesis list, its table and systems entries, and the CLI listing
    all read the registry's ENGINE_CONFIGS: replacing it changes all of them."""
    import aeskit.hw.registry as registry
    from aeskit.cli import main

    mine = (EngineConfig("ctr_only_1s", modes=0x004, streams=1, description="CTR"),)
    monkeypatch.setattr(registry, "ENGINE_CONFIGS", mine)
    assert paper001.engine_configs("pipe2") == mine
    assert main(["systems", "--engines", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(d["name"], d["modes"], d["streams"], d["design"]) for d in listed] == [
        ("ctr_only_1s", ["ctr"], 1, "mode_sys_pipe2_ctr_only_1s")]
    assert main(["systems", "--engines"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["ctr_only_1s", "CTR", "1", "pipe2",
                                "mode_sys_pipe2_ctr_only_1s"]
    syn = _synth("mode_sys_pipe2_ecb_cbc_ctr_1s")
    data = {"synth": {"mode_sys_pipe2_ctr_only_1s": syn, "mode_sys_pipe2": syn}}
    assert [e["name"] for e in paper001.systems([], data)] == ["ctr_only_1s"]
    md = paper001.render([], data)
    assert "| `ctr_only_1s` | CTR | 1 | pipe2 |" in md and "`all_2s`" not in md


def test_systems_listing_has_modes_and_streams(capsys: pytest.CaptureFixture[str]) -> None:
    """aeskit systems: each system's modes and streams, from its SystemSpec."""
    from aeskit.cli import main

    assert {s.name: (s.modes, s.streams) for s in SYSTEMS} == {
        "cipher_ahb": (0x03F, 2), "coproc": (0x1FF, 1), "axis_core": (0x1FF, 1),
        "coproc_lite": (0x007, 1), "coproc_cmac": (0x087, 1), "aes_lite": (0x087, 1),
        "aes_lite_ecc": (0x007, 1), "uart_demo": (0x087, 1), "gcm_line": (0x040, 1)}
    assert main(["systems", "--json"]) == 0
    data = {d["name"]: d for d in json.loads(capsys.readouterr().out)}
    assert data["axis_core"]["modes"] == ["ecb", "cbc", "ctr", "cfb", "ofb", "ccm", "gcm", "cmac",
                                           "xts"]
    assert data["cipher_ahb"]["streams"] == 2


def _synth(name: str, seed: int | None = None) -> dict[str, Any]:
    lut4, ff, ebr, fmax = FAKE[name]
    if seed is not None:
        return {"core": name, "seed": seed, "lut4": lut4 + seed, "ff": ff, "ebr": ebr,
                "dsp": 0, "fmax_mhz": fmax[seed - 1], "fits": True, "ge": 1.0, "depth": 3}
    return {"lut4": lut4, "ff": ff, "ebr": ebr, "fmax_mhz": sorted(fmax)[1],
            "fmax_min": min(fmax), "fmax_max": max(fmax),
            "fmax_seeds": {str(i + 1): f for i, f in enumerate(fmax)}, "fits": True}


def _modes_table() -> dict[str, dict[str, list[float]]]:
    """paper001's cycle table of pipe2 as measured: [one stream, two streams]."""
    out = {f"{m}-{d}": {str(ks): [2.0 * nr, float(nr)] for ks, nr in paper001.ROUNDS.items()}
           for m in paper001.MODES for d in ("enc", "dec")}
    for d in ("enc", "dec"):
        out[f"ccm-{d}"] = {str(ks): [2.0 * nr, 2.0 * nr] for ks, nr in paper001.ROUNDS.items()}
    return out


@pytest.fixture
def report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """run_report on pipe2 with the paper001 and coproc sections, three seeds; every
    synthesis, simulation and cycle measurement faked, the sections' caches in tmp."""
    import aeskit.report
    import aeskit.synth
    from aeskit.report import run_report

    from .test_report import _fake_sim

    def fake_synth(design: Any, out_dir: Path, *, seed: int, **_kw: object) -> object:
        data = _synth(design.name, seed)
        return type("R", (), {"to_json": lambda self: data})()

    monkeypatch.setattr(aeskit.report, "measure_core", _fake_sim)
    monkeypatch.setattr(aeskit.synth, "synthesize", fake_synth)
    monkeypatch.setattr(paper001, "CACHE_DIR", tmp_path / "p001")
    monkeypatch.setattr(paper001, "measure_modes", lambda core: _modes_table())
    monkeypatch.setattr(coproc, "CACHE_DIR", tmp_path / "coproc")
    monkeypatch.setattr(coproc, "measure",
                        lambda force, say: {16: 80, 512: 400, 16384: 10240})
    out = tmp_path / "out"
    run_report([get_core("pipe2")], out, jobs=1, sections=["paper001", "coproc"],
               seeds=(1, 2, 3))
    data: dict[str, Any] = json.loads((out / "report.json").read_text())
    data["markdown"] = (out / "report.md").read_text()
    return data


def test_report_json_systems(report: dict[str, Any]) -> None:
    """report.json's systems: every engine configuration and every registry system the
    report synthesizes, each with its configuration, core, area, Fmax median/min/max,
    the core alone and cycles per block where the report measures them."""
    systems = {s["name"]: s for s in report["systems"]}
    assert list(systems) == ["ecb_cbc_ctr_1s", "p001_2s", "all_2s", "cipher_ahb", "coproc",
                             "axis_core", "coproc_lite", "coproc_cmac", "aes_lite",
                             "aes_lite_ecc"]
    assert all(set(s) == FIELDS for s in systems.values())
    e = systems["ecb_cbc_ctr_1s"]
    # median seed 1 (60.0 MHz): its area, LUT4 6000 + 1
    assert (e["kind"], e["design"], e["top"], e["core"]) == (
        "engine", "mode_sys_pipe2_ecb_cbc_ctr_1s", "ak_mode_sys", "pipe2")
    assert (e["modes"], e["modes_mask"], e["streams"]) == (["ecb", "cbc", "ctr"], 7, 1)
    assert (e["lut4"], e["ff"], e["ebr"]) == (6001, 2500, 0)
    assert (e["fmax_mhz"], e["fmax_min"], e["fmax_max"]) == (60.0, 55.0, 65.0)
    # the core alone: pipe2's row (median seed 1: 90.0 MHz, 3401 LUT4)
    assert (e["core_lut4"], e["core_fmax_mhz"], e["engine_lut4"]) == (3401, 90.0, 2600)
    # one stream: paper001's one-stream column, AES-128
    assert e["cycles_per_block"] == {f"{m}-{d}": 20.0 for m in ("ecb", "cbc", "ctr")
                                     for d in ("enc", "dec")}
    assert e["cycles_key_size"] == 128 and "harness" in e["cycles_source"]
    p = systems["p001_2s"]
    assert (p["streams"], p["modes_mask"], p["lut4"], p["fmax_mhz"]) == (2, 0x3F, 15001, 40.0)
    assert p["cycles_per_block"]["cbc-enc"] == 10.0 and p["cycles_per_block"]["ccm-dec"] == 20.0
    a = systems["all_2s"]
    assert (a["design"], a["lut4"], a["engine_lut4"]) == ("mode_sys_pipe2", 30001, 26600)
    assert "gcm-enc" not in a["cycles_per_block"]  # not in paper001's cycle table
    c = systems["cipher_ahb"]
    assert (c["kind"], c["modes_mask"], c["streams"], c["core"], c["cycles_per_block"]) == (
        "system", 0x3F, 2, "pipe2", None)
    cp = systems["coproc"]
    assert (cp["core"], cp["streams"], cp["modes_mask"]) == ("tbox_folded", 1, 0x1FF)
    assert cp["cycles_per_block"] == {"ecb-enc": 10.0}  # 10240 cycles / 1024 blocks
    assert (cp["fmax_mhz"], cp["fmax_min"], cp["fmax_max"]) == (50.0, 48.0, 52.0)
    # the report has no row of tbox_folded or round: no core figures beside them
    assert cp["core_lut4"] is None and cp["engine_lut4"] is None
    ax = systems["axis_core"]
    assert (ax["modes_mask"], ax["core"], ax["cycles_per_block"]) == (0x1FF, "round", None)
    lite = systems["coproc_lite"]
    assert (lite["modes_mask"], lite["core"], lite["lut4"]) == (0x007, "compact32_bram_e128",
                                                                2501)
    al = systems["aes_lite"]
    assert (al["modes_mask"], al["core"], al["top"], al["cycles_per_block"]) == (
        0x087, "compact32_bram_e128", "ak_aes_lite_sys", None)


def test_markdown_table_shows_the_systems(report: dict[str, Any]) -> None:
    """paper001's table of the engine configurations shows what systems has."""
    md = report["markdown"]
    assert "**Mode-engine configurations**" in md
    assert ("| `ecb_cbc_ctr_1s` | ECB, CBC, CTR | 1 | pipe2 | 6,001 | 2,500 | 0 | "
            "60.0 (55.0-65.0) | 3,401 | 90.0 (88.0-95.0) | 2,600 |") in md
    assert ("| `p001_2s` | ECB, CBC, CTR, CFB-128, OFB, CCM | 2 | pipe2 | 15,001 | 5,000 | 0 "
            "| 40.0 (38.0-44.0) | 3,401 | 90.0 (88.0-95.0) | 11,600 |") in md
    assert ("| `all_2s` | ECB, CBC, CTR, CFB-128, OFB, CCM, GCM, CMAC, XTS | 2 | pipe2 | "
            "30,001 | 9,000 | 0 | 30.0 (28.0-33.0) |") in md
    for s in report["systems"]:
        if s["kind"] == "engine":
            assert f"| `{s['name']}` |" in md


def test_systems_hook_failure_is_a_section_error() -> None:
    """A section whose systems() fails adds an error to its section, the list goes on."""
    from types import ModuleType

    from aeskit.report import section_systems

    bad, good = ModuleType("bad"), ModuleType("good")

    def boom(rows: Any, data: Any) -> list[dict[str, Any]]:
        raise RuntimeError("boom")

    bad.systems = boom  # type: ignore[attr-defined]
    good.systems = lambda rows, data: [{"name": "x"}]  # type: ignore[attr-defined]
    errors: dict[str, list[str]] = {}
    assert section_systems([bad, good], [], {}, errors) == [{"name": "x"}]
    assert errors == {"section:bad": ["systems: boom"]}
