"""The results store: records, their keys, what invalidates them, and the flow's and
the report's use of it."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from aeskit import BUILD_ROOT
from aeskit.hw.registry import CORES
from aeskit.store import (Store, activate, cached_file, digest, ident_of, load_file,
                          lookup, record)
from aeskit.synth import stored


def _store(tmp_path: Path) -> Store:
    return Store(tmp_path / "results", writable=True)


def test_record_round_trip_and_one_file_per_ident(tmp_path: Path) -> None:
    st = _store(tmp_path)
    a = st.put("synth/x", {"kind": "synth", "h": "1"}, {"fmax_mhz": 10.0}, {"f.txt": "t"})
    assert st.get("synth/x", {"kind": "synth", "h": "1"}) == a
    assert st.get("synth/x", {"kind": "synth", "h": "2"}) is None
    b = st.put("synth/x", {"kind": "synth", "h": "2"}, {"fmax_mhz": 11.0})
    assert [p.name for p in (tmp_path / "results" / "synth").iterdir()] == ["x.json"]
    assert st.read("synth/x") == b and b.data == {"fmax_mhz": 11.0}
    assert a.commit and b.measured.endswith("Z")
    for bad in ("", "/abs", "a/../b"):
        with pytest.raises(ValueError):
            st.path(bad)


def test_digest_is_canonical() -> None:
    assert digest({"a": 1, "b": [1, 2]}) == digest({"b": [1, 2], "a": 1})
    assert digest({"a": 1}) != digest({"a": 2})


def test_ident_is_the_local_cache_path_below_build() -> None:
    assert ident_of(BUILD_ROOT / "synth" / "round") == "synth/round"
    assert ident_of(BUILD_ROOT / "cache" / "round" / "sim.json") == "cache/round/sim"
    assert ident_of(Path("/elsewhere/x.json")) is None


def test_nothing_is_written_without_an_active_store(tmp_path: Path) -> None:
    record("synth/x", {"k": 1}, {"v": 1})
    assert lookup("synth/x", {"k": 1}) is None
    assert not (tmp_path / "results").exists()


def test_cached_file_reuses_the_store_when_the_local_cache_is_gone(tmp_path: Path) -> None:
    st = _store(tmp_path)
    local = BUILD_ROOT / "tests" / "store" / uuid.uuid4().hex[:8] / "thing.json"
    calls: list[int] = []

    def compute() -> dict[str, Any]:
        calls.append(1)
        return {"key": "k1", "value": 42}

    parts = {"kind": "t", "key": "k1"}
    with activate(st):
        assert cached_file(local, parts, compute)["value"] == 42
        assert st.provenance(ident_of(local)).status == "measured"  # type: ignore[union-attr]
        local.unlink()  # a fresh clone: no build folder, the store only
        fresh = Store(st.root, writable=True)
        with activate(fresh):
            assert cached_file(local, parts, compute)["value"] == 42
            prov = fresh.provenance(ident_of(local))
            assert prov is not None and prov.status == "reused"
        assert calls == [1] and json.loads(local.read_text())["data"]["value"] == 42
        # a changed input: the record is stale, measured again
        parts2 = {"kind": "t", "key": "k2"}
        local.unlink()
        assert load_file(local, parts2) is None
        assert cached_file(local, parts2, lambda: {"key": "k2", "value": 7})["value"] == 7
        assert st.read(ident_of(local)).data["value"] == 7  # type: ignore[union-attr]


def _synth_keys(versions: dict[str, str], flow_version: str) -> dict[str, str]:
    return {c.name: digest(stored.parts_of(c.source_hash(), flow_version, 1, "LFE5U-85F",
                                           versions)) for c in CORES}


def _sim_keys() -> dict[str, str]:
    from aeskit.report.measure import MEASURE_VERSION

    return {c.name: digest({"kind": "sim", "core": c.name,
                            "key": c.source_hash() + MEASURE_VERSION}) for c in CORES}


@pytest.mark.parametrize("module", [
    "ak_round_core",  # the round family's datapath (4 cores)
    "ak_gf_inv",      # a primitive several cores share
])
def test_a_changed_rtl_file_invalidates_exactly_the_records_that_use_it(
        module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every registry core's synthesis and simulation keys before and after one RTL
    file changes (its bytes, seen through Path.read_bytes): exactly the cores whose
    manifest lists the file get new keys."""
    from aeskit.hw import manifest

    target = manifest.module_file(module).resolve()
    assert target.is_file(), module
    users = {c.name for c in CORES if target in {Path(p).resolve() for p in c.file_paths()}}
    assert users and users != {c.name for c in CORES}
    versions = {"yosys": "y", "nextpnr-ecp5": "n"}
    before_syn, before_sim = _synth_keys(versions, "flow/1"), _sim_keys()
    real = Path.read_bytes

    def changed(self: Path) -> bytes:
        data = real(self)
        return data + b"\n// changed\n" if self.resolve() == target else data

    monkeypatch.setattr(Path, "read_bytes", changed)
    after_syn, after_sim = _synth_keys(versions, "flow/1"), _sim_keys()
    assert {n for n in before_syn if before_syn[n] != after_syn[n]} == users
    assert {n for n in before_sim if before_sim[n] != after_sim[n]} == users


def test_a_changed_flow_setting_invalidates_every_synthesis_and_no_simulation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from aeskit.synth import flow, settings

    versions = {"yosys": "y", "nextpnr-ecp5": "n"}
    v0 = flow.flow_version()
    monkeypatch.setattr(settings, "FREQ_TARGET_MHZ", settings.FREQ_TARGET_MHZ + 1)
    v1 = flow.flow_version()
    assert v0 != v1
    before, after = _synth_keys(versions, v0), _synth_keys(versions, v1)
    assert all(before[n] != after[n] for n in before)
    # a tool version is a key part too
    other = _synth_keys({**versions, "nextpnr-ecp5": "n2"}, v0)
    assert all(before[n] != other[n] for n in before)
    assert _sim_keys() == _sim_keys()


def test_synthesize_restores_a_current_record_without_running_a_tool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh clone: no build folder, a current record in the store -> synthesize
    returns it (tools never run), the figure counts as reused with its commit."""
    from aeskit.synth import DEVICE, FLOW_VERSION, Design, synthesize, tool_versions
    from aeskit.synth import toolrun

    src = tmp_path / "ak_t.sv"
    src.write_text("module ak_t(input logic clk_i, output logic q_o); endmodule\n")
    design = Design("t", "ak_t", (src,))
    out = BUILD_ROOT / "tests" / "store" / uuid.uuid4().hex[:8] / "t"
    versions = tool_versions()
    data = {"core": "t", "top": "ak_t", "parameters": {}, "source_hash": design.source_hash(),
            "flow_version": FLOW_VERSION, "seed": 1, "device": DEVICE, "package": "CABGA381",
            "speed_grade": 6, "freq_target_mhz": 200.0, "lut4": 12, "lut4_synth": 12, "ff": 3,
            "ebr": 0, "dsp": 0, "fmax_mhz": 321.5, "clocks": {"clk_i": 321.5}, "ge": 30.0,
            "depth": 2, "gate_cells": {}, "ecp5_cells": {}, "utilization": {},
            "tool_versions": versions, "times_s": {}, "commands": {}, "files": {},
            "fits": True, "misfit": None, "outreg": {}, "critical_path": None,
            "lut_levels": 1.0}
    st = _store(tmp_path)
    st.put(ident_of(out) or "", stored.parts_of(design.source_hash(), FLOW_VERSION, 1, DEVICE,
                                                versions), data,
           {"gates_ltp.txt": "length=2\n"}, commit="abc1234567")

    def no_tools(*_a: object, **_k: object) -> float:
        raise AssertionError("a tool ran although the store had the result")

    monkeypatch.setattr(toolrun, "run", no_tools)
    with activate(st):
        res = synthesize(design, out)
    assert res.cached and res.fmax_mhz == 321.5 and res.lut4 == 12
    assert (out / "gates_ltp.txt").read_text() == "length=2\n"
    prov = st.provenance(ident_of(out) or "")
    assert prov is not None and prov.label() == "reused abc1234567"
    # without the store the same call would have to run the tools
    (out / "synth.json").unlink()
    with pytest.raises(AssertionError, match="a tool ran"):
        synthesize(design, out)


def _fake_synth_json(design: Any, **changes: Any) -> dict[str, Any]:
    from aeskit.synth import DEVICE, FLOW_VERSION, tool_versions

    return {"core": design.name, "top": design.top, "parameters": {},
            "source_hash": design.source_hash(), "flow_version": FLOW_VERSION, "seed": 1,
            "device": DEVICE, "package": "CABGA381", "speed_grade": 6,
            "freq_target_mhz": 200.0, "lut4": 12, "lut4_synth": 12, "ff": 3, "ebr": 0,
            "dsp": 0, "fmax_mhz": 321.5, "clocks": {}, "ge": 30.0, "depth": 2,
            "gate_cells": {}, "ecp5_cells": {}, "utilization": {},
            "tool_versions": tool_versions(), "times_s": {}, "commands": {}, "files": {},
            "fits": True, "misfit": None, "outreg": {}, "critical_path": None,
            "lut_levels": 1.0, **changes}


@pytest.mark.parametrize("stale", [{"flow_version": "aeskit-synth/0+00000000"},
                                   {"device": "LFE5U-25F"}, {"seed": 2},
                                   {"tool_versions": {"yosys": "Yosys 0.0"}},
                                   {"store_key": "0" * 20}])
def test_a_stale_synth_json_in_build_never_replaces_the_current_record(
        tmp_path: Path, stale: dict[str, Any]) -> None:
    """Issue 51's defect: a ``synth.json`` an older flow (or another device, seed, tool
    version; or one whose carried key is another's) left in ``build/`` was taken as
    current by the AEAD section's reader, which then wrote it over the current record
    in the store. Every reader asks :func:`aeskit.store.is_current` now: the stale file
    is not current, the store's record is restored over it and stays as it was."""
    from aeskit.report.sections.modes_aead import _stored_synth
    from aeskit.synth import DEVICE, FLOW_VERSION, Design, tool_versions

    src = tmp_path / "ak_t.sv"
    src.write_text("module ak_t(input logic clk_i, output logic q_o); endmodule\n")
    design = Design("t", "ak_t", (src,))
    out = BUILD_ROOT / "tests" / "store" / uuid.uuid4().hex[:8] / "t"
    out.mkdir(parents=True)
    st = _store(tmp_path)
    parts = stored.parts_of(design.source_hash(), FLOW_VERSION, 1, DEVICE, tool_versions())
    st.put(ident_of(out) or "", parts, _fake_synth_json(design), commit="abc1234567")
    (out / "synth.json").write_text(json.dumps(_fake_synth_json(design, lut4=99, **stale)))
    assert stored.current(out, parts) is None
    with activate(st):
        got = _stored_synth(out, design.source_hash())
    assert got["lut4"] == 12  # the record's, restored over the stale file
    rec = st.read(ident_of(out) or "")
    assert rec is not None and rec.data["lut4"] == 12 and rec.commit == "abc1234567"
    assert json.loads((out / "synth.json").read_text())["lut4"] == 12
    # the current file (the record's, restored with its key) is current for the flow too
    assert stored.current(out, parts) is not None


def test_one_rule_decides_currency_for_cache_files_and_records(tmp_path: Path) -> None:
    """A local cache file is current exactly when the key it carries is the digest of
    the parts (no caller's own check): one written before cache files carried their key
    is not, and the store's record (same rule) is written back in its place."""
    from aeskit.store import KEY_FIELD, file_key, is_current

    st = _store(tmp_path)
    local = BUILD_ROOT / "tests" / "store" / uuid.uuid4().hex[:8] / "old.json"
    local.parent.mkdir(parents=True)
    parts = {"kind": "t", "hash": "h1"}
    local.write_text(json.dumps({"hash": "h1", "value": 5}))  # the old format: no key
    assert file_key(local) is None and load_file(local, parts) is None
    st.put(ident_of(local) or "", parts, {"hash": "h1", "value": 6})
    with activate(st):
        assert load_file(local, parts) == {"hash": "h1", "value": 6}
    assert is_current(file_key(local), parts)
    assert json.loads(local.read_text())[KEY_FIELD] == digest(parts)
    assert not is_current(file_key(local), {"kind": "t", "hash": "h2"})
    assert not is_current(None, parts)


def test_report_marks_reused_and_measured_rows(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two reports over one store: the first measures (its sim and synth records are
    written), the second, with the local caches gone, reuses every figure and says so."""
    import aeskit.report
    import aeskit.synth
    from aeskit.hw import get_core
    from aeskit.report import run_report
    from aeskit.synth import SynthResult, synth_dir

    import dataclasses

    # a registry core under a name of its own: its local caches are this run's
    core = dataclasses.replace(get_core("round"), name=f"zz_store_{uuid.uuid4().hex[:8]}")
    runs: list[str] = []

    def fake_sim(core: Any, cache_dir: Path, *, force: bool = False, progress: Any = None
                 ) -> dict[str, Any]:
        def compute() -> dict[str, Any]:
            runs.append("sim")
            per = {str(ks): {"enc": {"latency": core.latency[ks], "interval": core.interval[ks],
                                     "key_setup": core.key_setup.get(ks), "tests_passed": 1,
                                     "tests_total": 1}} for ks in core.key_sizes}
            return {"cache_key": "k", "per_key": per}

        return cached_file(cache_dir / "sim.json", {"kind": "sim", "k": "k"}, compute)

    def fake_synth(design: Any, out_dir: Path, *, seed: int = 1, device: str = "",
                   **_k: object) -> SynthResult:
        def compute() -> dict[str, Any]:
            runs.append(f"synth{seed}")
            return {"fmax_mhz": 100.0 + seed, "lut4": 1000, "seed": seed, "fits": True}

        # the file beside the output folder: the record's ident is the folder's, as the
        # flow's records are (aeskit.synth.stored)
        d = cached_file(out_dir.with_name(out_dir.name + ".json"), {"kind": "fake", "seed": seed},
                        compute)
        return SynthResult.from_json({**_base_result(), **d}, out_dir)

    monkeypatch.setattr(aeskit.report.measure, "measure_core", fake_sim)
    monkeypatch.setattr(aeskit.synth, "synthesize", fake_synth)
    st = _store(tmp_path)
    assert run_report([core], tmp_path / "r1", jobs=1, sections=[], seeds=(1, 2, 3), store=st)
    assert sorted(runs) == ["sim", "synth1", "synth2", "synth3"]
    r1 = json.loads((tmp_path / "r1" / "report.json").read_text())
    assert r1["rows"][0]["fmax_mhz"] == 102.0
    # the local caches go (a fresh clone); a second report reuses the store's records
    (BUILD_ROOT / "cache" / core.name / "sim.json").unlink()
    for s in (1, 2, 3):
        out = synth_dir(core.name, seed=s)
        out.with_name(out.name + ".json").unlink()
    st2 = Store(st.root, writable=True)
    runs.clear()
    assert run_report([core], tmp_path / "r2", jobs=1, sections=[], seeds=(1, 2, 3), store=st2)
    assert runs == []
    r2 = json.loads((tmp_path / "r2" / "report.json").read_text())
    assert r2["rows"][0]["fmax_mhz"] == 102.0
    assert r2["provenance"]["measured"] == 0 and r2["provenance"]["reused"] == 4
    prov = r2["rows"][0]["provenance"]
    assert prov["sim"].startswith("reused ") and prov["synth"].startswith("reused ")
    assert any(s["title"] == "Provenance" for s in r2["sections"])
    import shutil

    shutil.rmtree(BUILD_ROOT / "cache" / core.name)
    for s in (1, 2, 3):
        out = synth_dir(core.name, seed=s)
        out.with_name(out.name + ".json").unlink()
        shutil.rmtree(out, ignore_errors=True)


def _base_result() -> dict[str, Any]:
    return {"core": "round", "top": "t", "parameters": {}, "source_hash": "h",
            "flow_version": "f", "seed": 1, "device": "LFE5U-85F", "package": "p",
            "speed_grade": 6, "freq_target_mhz": 200.0, "lut4": 0, "lut4_synth": 0, "ff": 0,
            "ebr": 0, "dsp": 0, "fmax_mhz": None, "clocks": {}, "ge": None, "depth": None,
            "gate_cells": {}, "ecp5_cells": {}, "utilization": {}, "tool_versions": {},
            "times_s": {}, "commands": {}, "files": {}}
