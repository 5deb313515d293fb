"""Paper 001 (Lin, Huang: "A High-Throughput Low-Power AES Cipher for Network
Applications"): the two-stage pipelined core ``pipe2`` and the mode engine beside the
paper's figures.

The paper's figures (0.13 um CMOS, 333 MHz clock, with DFT; 128/192/256-bit keys):
4.27 / 3.56 / 3.05 Gbit/s, i.e. 10 / 12 / 14 cycles per block with two interleaved
streams (128 bit / (Nr x 3 ns)); half of it for a single CBC-encryption stream; AES core
86.2K gates, whole cipher (with AHB interface and FIFOs) 97.8K gates, 40.9 mW.

Clock rates and gate counts are not comparable with ECP5 LUT4 figures from Yosys and
nextpnr; cycles per block are, and they are measured here through the RTL mode engine
(``aeskit.harness.modes``) for every mode, key size, and one or two streams.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Callable

from aeskit.report.numbers import num

from aeskit import BUILD_ROOT
from aeskit.hw.codes import MODE_LABEL, Mode
from aeskit.report.render import misfit_note
from aeskit.synth.devices import DEFAULT_DEVICE

TITLE = "Paper 001: two-stage pipelined core and mode engine (Lin, Huang)"
ORDER = 15

#: key size -> paper Gbit/s with two streams at 333 MHz
PAPER_GBPS: dict[int, float] = {128: 4.27, 192: 3.56, 256: 3.05}
PAPER_MHZ = 1000.0 / 3.0  # "333 MHz": a 3 ns clock
PAPER_GATES_CORE = 86_200
PAPER_GATES_CIPHER = 97_800
ROUNDS = {128: 10, 192: 12, 256: 14}
MODES = ("ecb", "cbc", "ctr", "cfb", "ofb", "ccm")
#: display names (aeskit.hw.codes)
MODE_NAME = {m: MODE_LABEL[Mode[m.upper()]] for m in MODES}
#: cores whose mode-engine cycles are measured
CORES = ("pipe2", "round")
CACHE_DIR = BUILD_ROOT / "p001"


def paper_cycles(key_size: int) -> float:
    """Cycles per block implied by the paper's throughput at 333 MHz."""
    return 128.0 * PAPER_MHZ / (PAPER_GBPS[key_size] * 1000.0)


def _hash(core: Any) -> str:
    from aeskit.harness.modes import MODE_CPP, engine_paths, system_sv

    h = hashlib.sha256(core.source_hash().encode())
    for p in engine_paths() + [MODE_CPP]:
        h.update(p.read_bytes())
    h.update(system_sv(core).encode())
    return h.hexdigest()[:16]


def measure_modes(core: Any) -> dict[str, dict[str, list[float]]]:
    """mode/direction -> key size -> [one stream, two streams] cycles per block."""
    from aeskit.harness.modes import ModeHarness, measure_cycles_per_block

    out: dict[str, dict[str, list[float]]] = {}
    with ModeHarness(core) as h:
        for ks in core.key_sizes:
            h.load_key(bytes(range(ks // 8)))
            for mode in MODES:
                for dec in (False, True):
                    key = f"{mode}-{'dec' if dec else 'enc'}"
                    out.setdefault(key, {})[str(ks)] = [
                        measure_cycles_per_block(h, mode, decrypt=dec, streams=1),
                        measure_cycles_per_block(h, mode, decrypt=dec, streams=2)]
    return out


def engine_design_name(core: str, config: Any = None) -> str:
    """The synthesis design name of the engine configuration ``config`` (an
    :class:`aeskit.hw.registry.EngineConfig`; None: the harness default, every mode,
    two streams) on ``core``: ``mode_sys_<core>`` for the harness default build (the
    name its stored results carry), ``mode_sys_<core>_<config>`` for the others."""
    from aeskit.harness.modes import FULL, config_build

    if config is None or config_build(config) == FULL:
        return f"mode_sys_{core}"
    return f"mode_sys_{core}_{config.name}"


def engine_design(core: Any, config: Any = None) -> Any:
    """``ak_mode_sys``: the mode engine of ``config`` (an
    :class:`aeskit.hw.registry.EngineConfig`; None: every mode, two streams) on
    ``core``, as a synthesis :class:`aeskit.synth.Design` named by
    :func:`engine_design_name`."""
    from aeskit.harness.modes import FULL, config_build, system_files
    from aeskit.synth import Design

    name = engine_design_name(core.name, config)
    build = FULL if config is None else config_build(config)
    # (synthesized as the systems build it: without messages in parts)
    build = dataclasses.replace(build, parts=False)
    files = system_files(core, CACHE_DIR / "src" / name.removeprefix("mode_sys_"), build)
    # router1 (the rule's router: no block RAM) still had 45,017 wires overused after
    # 20 minutes (27 Nov 2026; 35,581 LUT4 with the AEAD modes); router2 routes HeAP's
    # placement in 10.5 minutes (27.7 MHz), the static placer's in 5.5 (29.3 MHz)
    return Design(name, "ak_mode_sys", tuple(files), router="router2", placer="static")


def engine_configs(core: str) -> tuple[Any, ...]:
    """The registry's engine configurations on ``core``
    (:data:`aeskit.hw.registry.ENGINE_CONFIGS`), in registry order."""
    from aeskit.hw.registry import ENGINE_CONFIGS

    return tuple(c for c in ENGINE_CONFIGS if c.core == core)


def _option(synth: dict[str, Any], flag: str) -> str | None:
    """The value of nextpnr's ``flag`` in a synthesis result's recorded command."""
    cmd = (synth.get("commands") or {}).get("nextpnr") or []
    return next((cmd[i + 1] for i, a in enumerate(cmd[:-1]) if a == flag), None)


def _pnr_text(synth: dict[str, Any]) -> str:
    """`` (nextpnr router2, placer static)``: how a routed result was placed and routed
    (empty for a result without a route)."""
    if misfit_note(synth):
        return ""
    router = _option(synth, "--router") or "router?"
    placer = _option(synth, "--placer") or "heap"
    return f" (nextpnr {router}, placer {placer})"


def cipher_ahb_design() -> Any:
    """``ak_cipher_ahb`` (hw/systems/cipher_ahb: AHB-Lite registers generated from
    SystemRDL, FIFOs, the mode engine on ``pipe2``; the registry's system
    ``cipher_ahb``) as a synthesis Design."""
    from aeskit.synth.systems import system_design

    return system_design("cipher_ahb")


def _synth_json(design: Any, device: str, force: bool, say: Callable[[str], None],
                seeds: tuple[int, ...]) -> dict[str, Any]:
    from aeskit.report.design_synth import synth_json

    return synth_json(design, device, force, say, CACHE_DIR / "synth", seeds)


def collect(cores: list[Any], progress: Callable[[str], None] | None, force: bool,
            device: str = DEFAULT_DEVICE, seeds: tuple[int, ...] = (1,)) -> Any:
    from aeskit.store import cached_file

    say = progress or (lambda _m: None)
    out: dict[str, Any] = {"synth": {}}
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    for core in cores:
        if core.name not in CORES:
            continue
        h = _hash(core)

        def compute(core: Any = core, h: str = h) -> dict[str, Any]:
            say(f"{core.name}: mode-engine cycles per block (compiled harness)")
            return {"hash": h, "modes": measure_modes(core)}

        data = cached_file(CACHE_DIR / f"{core.name}_modes.json",
                           {"kind": "paper001_modes", "core": core.name, "hash": h},
                           compute, force=force)
        out[core.name] = data["modes"]
        if core.name == "pipe2":
            out["synth"]["mode_sys_pipe2"] = _synth_json(engine_design(core), device, force,
                                                         say, seeds)
            out["synth"]["cipher_ahb"] = _synth_json(cipher_ahb_design(), device, force, say,
                                                     seeds)
    for core in cores:
        for cfg in engine_configs(core.name):
            name = engine_design_name(core.name, cfg)
            if name not in out["synth"]:
                out["synth"][name] = _synth_json(engine_design(core, cfg), device, force,
                                                 say, seeds)
    return out


def _fmax_text(synth: dict[str, Any]) -> str:
    """``Fmax 71.2 MHz`` (the median seed's, each seed's beside it), or ``does not fit
    (needs N of M X)`` (Yosys figures then)."""
    from aeskit.report.design_synth import seeds_text

    per = seeds_text(synth)
    return misfit_note(synth) or (f"Fmax {num(synth.get('fmax_mhz'), 1)} MHz"
                                  + (f" (median; {per})" if per else ""))


#: issue 14's target for the whole cipher, at the median of the report's seeds
CIPHER_AHB_TARGET_MHZ = 100.0


def _crit_text(synth: dict[str, Any]) -> str:
    """`` Critical path (median seed): start -> end, N cells, ...``; empty without one."""
    from aeskit.synth.critical import format_path

    cp = synth.get("critical_path")
    return f" Critical path (median seed): {format_path(cp)}." if cp else ""


def _target_text(synth: dict[str, Any]) -> str:
    """Whether ``cipher_ahb`` meets issue 14's clock target at its median seed."""
    f = synth.get("fmax_mhz")
    head = f"**Target (issue 14): `cipher_ahb` >= {CIPHER_AHB_TARGET_MHZ:g} MHz** (median seed): "
    if misfit_note(synth):
        return head + misfit_note(synth) + "."
    if f is None:
        return head + "no Fmax in this result."
    if f >= CIPHER_AHB_TARGET_MHZ:
        return head + f"met, {f:.1f} MHz."
    return head + (f"not met, {f:.1f} MHz ({f / CIPHER_AHB_TARGET_MHZ:.0%} of it); "
                   "docs/cipher_ahb.md says what bounds it.")


def _g(v: float) -> str:
    return f"{v:g}"


#: how the cycles of an engine configuration's ``systems`` entry are measured
ENGINE_CYCLES_SOURCE = ("paper 001's mode-engine harness on the core (every mode built; "
                        "a Modes mask does not change the cycles of the modes it builds), "
                        "never stalled, slope between 8- and 24-block messages, the "
                        "configuration's streams together")


def _engine_cycles(data: dict[str, Any], cfg: Any) -> dict[str, float] | None:
    """``{"<mode>-<enc|dec>": cycles}`` per block, AES-128, of ``cfg``'s modes and
    streams from this section's cycle table of its core (None without one; GCM/GMAC,
    CMAC and XTS are not in it)."""
    from aeskit.report.systems import CYCLES_KEY_SIZE

    table = data.get(cfg.core) or {}
    out: dict[str, float] = {}
    for m in cfg.mode_names():
        for d in ("enc", "dec"):
            cells = (table.get(f"{m}-{d}") or {}).get(str(CYCLES_KEY_SIZE))
            if cells and len(cells) >= cfg.streams:
                out[f"{m}-{d}"] = cells[cfg.streams - 1]
    return out or None


def _engine_entries(rows: list[dict[str, Any]], data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``systems`` entries of the registry's engine configurations synthesized here
    (:func:`aeskit.report.systems.system_entry`)."""
    from aeskit.hw.registry import ENGINE_CONFIGS
    from aeskit.report.systems import SystemConfig, system_entry

    out = []
    for cfg in ENGINE_CONFIGS:
        design = engine_design_name(cfg.core, cfg)
        synth = (data.get("synth") or {}).get(design)
        if synth is None:
            continue
        sc = SystemConfig(name=cfg.name, kind="engine", design=design, top="ak_mode_sys",
                          section="paper001", modes=cfg.modes, streams=cfg.streams,
                          core=cfg.core)
        out.append(system_entry(sc, synth, rows, _engine_cycles(data, cfg),
                                ENGINE_CYCLES_SOURCE))
    return out


def systems(rows: list[dict[str, Any]], data: Any) -> list[dict[str, Any]]:
    """``report.json``'s ``systems`` entries of this section: the engine configurations
    and ``cipher_ahb`` (no cycles of its own here)."""
    from aeskit.report.systems import registry_system, system_entry

    data = data or {}
    out = _engine_entries(rows, data)
    top = (data.get("synth") or {}).get("cipher_ahb")
    if top is not None:
        out.append(system_entry(registry_system("cipher_ahb", "paper001"), top, rows, None))
    return out


def _engine_table_text(rows: list[dict[str, Any]], data: dict[str, Any]) -> list[str]:
    """The table of the engine configurations (empty without a synthesized one)."""
    from aeskit.report.systems import engine_table

    table = engine_table(_engine_entries(rows, data), rows)
    if not table:
        return []
    return ["", "**Mode-engine configurations** a user would pick (the registry's "
            "`ENGINE_CONFIGS`, `aeskit systems --engines`), each `ak_mode_sys`: the engine "
            "built with the configuration's `Modes` and `Streams` on the core, no bus "
            "(nextpnr router2, placer static). The core alone is the report's row of it; "
            "engine = system - core. `report.json`'s `systems` has the same figures.",
            "", *table]


def render(rows: list[dict[str, Any]], data: Any) -> str:
    data = data or {}
    out = [
        "Lin and Huang cut one AES round into two pipeline stages at the output of a",
        "LUT-based GF(2^8) inverter shared by encryption and decryption (InvAffine retimed",
        "out of the round, Affine merged with MixColumns), so that two independent blocks",
        "are in flight: CCM's CBC-MAC and CTR flows, or two streams, share one datapath.",
        "`pipe2` (docs/cores/pipe2.md) builds that core on the shared primitives; the mode",
        "engine (docs/modes.md) runs ECB, CBC, CTR, CFB-128, OFB and CCM for two streams on",
        "any core of the registry.",
        "",
        "| key | paper Gbit/s @ 333 MHz | paper cycles/block (two streams) | ours latency |"
        " ours interval | LUT4 | FF | EBR | Fmax MHz | Mbit/s at Fmax (two streams) |"
        " Mbit/s single CBC-enc stream |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for ks in (128, 192, 256):
        r = next((x for x in rows if x.get("core") == "pipe2" and x.get("key_size") == ks), {})
        itv, fmax = r.get("interval"), r.get("fmax_mhz")
        mbps = 128.0 * fmax / itv if (itv and fmax) else None
        cbc = ((data.get("pipe2") or {}).get("cbc-enc") or {}).get(str(ks))
        single = 128.0 * fmax / cbc[0] if (cbc and fmax) else None
        out.append(f"| {ks} | {PAPER_GBPS[ks]:.2f} | {paper_cycles(ks):.1f} | "
                   f"{num(r.get('latency'))} | {num(itv, 1)} | {num(r.get('lut4'))} | "
                   f"{num(r.get('ff'))} | {num(r.get('ebr'))} | "
                   f"{misfit_note(r) or num(fmax, 1)} | "
                   f"{num(mbps)} | {num(single)} |")
    out += ["",
            f"The paper's AES core is {PAPER_GATES_CORE:,} gates (0.13 um), the whole cipher",
            f"{PAPER_GATES_CIPHER:,}; gate counts and clock rates are not comparable with",
            "ECP5 LUT4 and nextpnr's Fmax, cycles per block are: the paper's 4.27 / 3.56 /",
            "3.05 Gbit/s are exactly 10 / 12 / 14 cycles per block at 333 MHz."]
    eng = (data.get("synth") or {}).get("mode_sys_pipe2")
    if eng:
        out += ["", "The mode engine (two streams; ECB/CBC/CTR/CFB/OFB/CCM and GCM/GMAC/XTS/CMAC,",
                "tags compared in hardware) with `pipe2` under it (`ak_mode_sys`): "
                f"{num(eng.get('lut4'))} LUT4, {num(eng.get('ff'))} FF, "
                f"{num(eng.get('ebr'))} EBR, " + _fmax_text(eng) + _pnr_text(eng) + "."
                + _crit_text(eng)]
    out += _engine_table_text(rows, data)
    top = (data.get("synth") or {}).get("cipher_ahb")
    if top:
        out += ["", "The whole cipher `cipher_ahb` (docs/cipher_ahb.md: AHB-Lite slave, "
                "registers generated from SystemRDL, two-block FIFOs per stream, the mode",
                f"engine and `pipe2`): {num(top.get('lut4'))} LUT4, {num(top.get('ff'))} FF, "
                f"{num(top.get('ebr'))} EBR, " + _fmax_text(top) + _pnr_text(top)
                + "; the core rows above: router1, HeAP." + _crit_text(top),
                "", _target_text(top)]
    for core in CORES:
        modes = data.get(core)
        if not modes:
            continue
        out += ["", f"**Mode engine on `{core}`**, cycles per 16-byte block, never stalled "
                "(one stream / two streams together):", "",
                "| mode | direction | AES-128 | AES-192 | AES-256 |",
                "| --- | --- | --- | --- | --- |"]
        for mode in MODES:
            for d in ("enc", "dec"):
                cells = modes.get(f"{mode}-{d}", {})
                vals = [(f"{_g(cells[str(ks)][0])} / {_g(cells[str(ks)][1])}"
                         if str(ks) in cells else "-") for ks in (128, 192, 256)]
                out.append(f"| {MODE_NAME[mode]} | {'decrypt' if d == 'dec' else 'encrypt'} | "
                           + " | ".join(vals) + " |")
    p2 = data.get("pipe2") or {}
    verdicts = []
    for ks, nr in ROUNDS.items():
        two = [(p2.get(f"{m}-{d}") or {}).get(str(ks), [None, None])[1]
               for m in MODES if m != "ccm" for d in ("enc", "dec")]
        cbc1 = (p2.get("cbc-enc") or {}).get(str(ks), [None])[0]
        ccm = (p2.get("ccm-enc") or {}).get(str(ks), [None])[0]
        if None in two or cbc1 is None or ccm is None:
            continue
        ok = all(t == nr for t in two) and cbc1 == 2 * nr and ccm == 2 * nr
        verdicts.append(f"AES-{ks}: two streams {'all' if ok else 'NOT all'} at Nr = {nr} "
                        f"cycles per block, single CBC encryption {_g(cbc1)} (2·Nr = {2 * nr}), "
                        f"CCM {_g(ccm)} per 16 bytes -- "
                        f"{'as in the paper' if ok else 'differs from the paper'}.")
    if verdicts:
        out += ["", *verdicts]
    return "\n".join(out)
