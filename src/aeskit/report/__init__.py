"""The report: every core measured in simulation and synthesized, in one table.

``run_report`` runs per core a simulation job (:mod:`aeskit.report.measure`) and a
synthesis job (:mod:`aeskit.synth`), in parallel, each cached by source hash, and
writes ``report.json``, ``report.md`` and ``index.html`` (with a throughput-vs-area
plot) into the output folder. A core that does not fit the device is a row too: its
Yosys figures (LUT4, FF, EBR, DSP) and "does not fit (needs N of M X)" where Fmax
would be; it is not an error.
"""

from __future__ import annotations

import json
import time
import traceback
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

from aeskit import BUILD_ROOT, __version__
from aeskit.hw.registry import CoreSpec
from aeskit.report.measure import measure_core
from aeskit.report.render import misfit_note, write_html, write_markdown
from aeskit.report.sections import section_modules
from aeskit.synth.devices import DEFAULT_DEVICE, get_device

Progress = Callable[[str], None]

#: placement seeds of every core in the report (Fmax moves about +-3 % with the
#: seed; the report judges on the median of three)
DEFAULT_SEEDS: tuple[int, ...] = (1, 2, 3)


def _row(core: CoreSpec, ks: int, sim: dict[str, Any] | None, syn: dict[str, Any] | None,
         errors: list[str]) -> dict[str, Any]:
    """One table row. ``syn`` is a ``synth.json``; for a design that does not fit
    (``fits: false``) its LUT4/FF/EBR/DSP are Yosys's and there is no Fmax."""
    per = (sim or {}).get("per_key", {}).get(str(ks), {})
    enc, dec = per.get("enc", {}), per.get("dec", {})
    interval = enc.get("interval")
    fmax = (syn or {}).get("fmax_mhz")
    lut4 = (syn or {}).get("lut4")
    ge = (syn or {}).get("ge")
    mbps = 128.0 * fmax / interval if (fmax and interval) else None
    passed = sum(d.get("tests_passed", 0) for d in (enc, dec))
    total = sum(d.get("tests_total", 0) for d in (enc, dec))
    return {
        "core": core.name,
        "key_size": ks,
        "paper": core.paper,
        "latency": enc.get("latency"),
        "latency_dec": dec.get("latency"),
        "interval": interval,
        "interval_dec": dec.get("interval"),
        "key_setup": enc.get("key_setup"),
        "claimed_latency": core.latency.get(ks),
        "claimed_interval": core.interval.get(ks),
        "claimed_key_setup": core.key_setup.get(ks),
        "lut4": lut4,
        "ff": (syn or {}).get("ff"),
        "ebr": (syn or {}).get("ebr"),
        "dsp": (syn or {}).get("dsp"),
        "fmax_mhz": fmax,
        "fmax_min": (syn or {}).get("fmax_min", fmax),
        "fmax_max": (syn or {}).get("fmax_max", fmax),
        "fmax_seeds": (syn or {}).get("fmax_seeds", {}),
        "fmax_spread": _spread(syn or {}),
        "critical_path": (syn or {}).get("critical_path"),
        "lut_levels": (syn or {}).get("lut_levels"),
        "ge": ge,
        "depth": (syn or {}).get("depth"),
        "device": (syn or {}).get("device"),
        "does_not_fit": misfit_note(syn or {}),
        "mbps": mbps,
        "mbps_per_lut": mbps / lut4 if (mbps and lut4) else None,
        "kbps_per_ge": 1000.0 * mbps / ge if (mbps and ge) else None,
        "tests_passed": passed,
        "tests_total": total,
        "tests_ok": bool(sim) and total > 0 and passed == total,
        "claims_ok": (enc.get("latency") == core.latency.get(ks)
                      and enc.get("interval") == core.interval.get(ks)
                      and (core.key_setup.get(ks) is None
                           or enc.get("key_setup") == core.key_setup.get(ks))),
        "errors": errors,
    }


def _spread(syn: dict[str, Any]) -> str | None:
    """``min-max`` Fmax over the placement seeds, None with fewer than two."""
    seeds = [f for f in syn.get("fmax_seeds", {}).values() if f is not None]
    if len(seeds) < 2:
        return None
    return f"{min(seeds):.1f}-{max(seeds):.1f}"


def critical_paths_markdown(rows: list[dict[str, Any]]) -> str:
    """The section "Critical paths": per core (AES-128 row, else its first) the Fmax of
    every seed and the worst path of the median seed
    (:func:`aeskit.synth.critical.format_path`)."""
    from aeskit.synth.critical import format_path

    seen: set[str] = set()
    lines = ["Worst clk_i path of the median seed (nextpnr's timing report; start and end "
             "named by their RTL source line and block, cells = logic cells on the path). "
             "LUT levels: the most logic levels between two registers in the mapped "
             "netlist (LUT4 = 1, PFUMX/L6MUX21 = 0.25), before placement.",
             "", "| core | Fmax MHz by seed | median | LUT levels | critical path |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        if r["core"] in seen or r.get("fmax_mhz") is None:
            continue
        seen.add(r["core"])
        by_seed = ", ".join(f"{k}: {v:.1f}" for k, v in sorted(
            (r.get("fmax_seeds") or {}).items(), key=lambda kv: int(kv[0])) if v is not None)
        levels = r.get("lut_levels")
        lines.append(f"| {r['core']} | {by_seed or '-'} | {r['fmax_mhz']:.1f} | "
                     f"{'-' if levels is None else f'{levels:g}'} | "
                     f"{format_path(r.get('critical_path'))} |")
    if not seen:
        return "No synthesized core in this report."
    return "\n".join(lines)


def device_text(device: str, seeds: tuple[int, ...] = (1,)) -> str:
    """The report header's device line, e.g. ``LFE5U-85F-6BG381C (CABGA381, speed 6),
    out of context, seed 1`` or ``..., seeds 1, 2, 3 (median Fmax)``."""
    from aeskit.synth.flow import PACKAGE, SPEED_GRADE

    placed = (f"seed {seeds[0]}" if len(seeds) == 1 else
              f"seeds {', '.join(str(x) for x in seeds)} (Fmax and area of the median seed, "
              f"min-max beside it)")
    return (f"{device}-{SPEED_GRADE}BG381C ({PACKAGE}, speed {SPEED_GRADE}), "
            f"out of context, {placed}")


def combine_seeds(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One ``synth.json``-like dict from the runs of one design with several placement
    seeds: the run with the median Fmax (the lower middle one of an even count), plus
    ``fmax_seeds`` ({seed: Fmax}), ``fmax_min`` and ``fmax_max``. Area figures are the
    median run's (they move by a few LUT4 with the placement)."""
    if not runs:
        raise ValueError("combine_seeds needs at least one run")
    timed = sorted((r for r in runs if r.get("fmax_mhz") is not None),
                   key=lambda r: float(r["fmax_mhz"]))
    median = timed[(len(timed) - 1) // 2] if timed else runs[0]
    out = dict(median)
    out["fmax_seeds"] = {str(r["seed"]): r.get("fmax_mhz") for r in runs}
    out["fmax_min"] = timed[0]["fmax_mhz"] if timed else None
    out["fmax_max"] = timed[-1]["fmax_mhz"] if timed else None
    return out


def run_report(cores: list[CoreSpec], out_dir: Path, *, jobs: int = 2, force: bool = False,
               skip_synth: bool = False, progress: Progress | None = None,
               sections: list[str] | None = None, device: str = DEFAULT_DEVICE,
               seeds: tuple[int, ...] = DEFAULT_SEEDS) -> bool:
    """Measure and synthesize ``cores`` on ``device``; write the report. True when every
    core passed its tests and no job failed (a core that does not fit the device is a
    result, not a failure).

    ``seeds``: nextpnr placement seeds per core (each cached on its own); a row's Fmax
    and area are those of the median seed, with the minimum and maximum beside them
    (:func:`combine_seeds`). The sections' extra designs are placed with seed 1.

    ``sections``: names of the section modules to run (``paper001``, ...; default all);
    an unknown name, or an unknown ``device``, raises ``ValueError``."""
    get_device(device)
    if not seeds or any(x < 1 for x in seeds):
        raise ValueError(f"seeds must be positive integers, got {list(seeds)}")
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    cache_root = BUILD_ROOT / "cache"
    futures: dict[tuple[str, str], Future[Any]] = {}

    def sim_job(core: CoreSpec) -> dict[str, Any]:
        return measure_core(core, cache_root / core.name, force=force,
                            progress=lambda m: say(m))

    def synth_job(core: CoreSpec) -> dict[str, Any]:
        from aeskit.synth import DoesNotFit, synth_dir, synthesize

        runs: list[dict[str, Any]] = []
        for seed in seeds:
            try:
                res = synthesize(core, synth_dir(core.name, device, seed=seed),
                                 seed=seed, device=device, force=force,
                                 progress=lambda m: say(f"{core.name}: {m}"))
            except DoesNotFit as exc:
                say(exc.message)
                return exc.result.to_json()  # no other seed fits better
            runs.append(res.to_json())
        return combine_seeds(runs)

    mods = section_modules()
    if sections is not None:
        known = {m.__name__.rsplit(".", 1)[-1]: m for m in mods}
        unknown = sorted(set(sections) - set(known))
        if unknown:
            raise ValueError(f"unknown report section(s) {unknown}; known: {sorted(known)}")
        mods = [m for m in mods if m.__name__.rsplit(".", 1)[-1] in sections]
    sections_run = mods
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for core in cores:
            futures[(core.name, "sim")] = pool.submit(sim_job, core)
            if not skip_synth:
                futures[(core.name, "synth")] = pool.submit(synth_job, core)
        for mod in sections_run:
            if hasattr(mod, "collect") and not skip_synth:
                futures[(f"section:{mod.__name__}", "collect")] = pool.submit(
                    mod.collect, cores, say, force, device=device)
        results: dict[tuple[str, str], Any] = {}
        errors: dict[str, list[str]] = {c.name: [] for c in cores}
        errors.update({f"section:{m.__name__}": [] for m in sections_run})
        done = 0
        for (name, kind), fut in futures.items():
            try:
                results[(name, kind)] = fut.result()
            except Exception as exc:  # noqa: BLE001 - a failed job is reported, not fatal
                errors[name].append(f"{kind}: {exc}")
                say(f"{name}: {kind} FAILED: {exc}")
                (out_dir / "logs").mkdir(parents=True, exist_ok=True)
                (out_dir / "logs" / f"{name}-{kind}.txt").write_text(traceback.format_exc())
            done += 1
            say(f"[{done}/{len(futures)}] {name} {kind} done ({time.monotonic() - t0:.0f} s)")

    rows = []
    for core in cores:
        sim = results.get((core.name, "sim"))
        syn = results.get((core.name, "synth"))
        for ks in core.key_sizes:
            rows.append(_row(core, ks, sim, syn, errors[core.name]))
    rendered: list[dict[str, str]] = []
    if not skip_synth:
        rendered.append({"title": "Critical paths", "markdown": critical_paths_markdown(rows)})
    for mod in sections_run:
        key = f"section:{mod.__name__}"
        try:
            body = mod.render(rows, results.get((key, "collect")))
        except Exception as exc:  # noqa: BLE001 - shown in the report
            body = f"Section failed: {exc}"
            errors[key].append(f"render: {exc}")
        for e in errors[key]:
            body += f"\n\n**Error:** {e}"
        rendered.append({"title": getattr(mod, "TITLE", mod.__name__), "markdown": body})
    report = {
        "aeskit_version": __version__,
        "generated": time.strftime("%Y-%m-%d %H:%M:%S"),
        "flow": {"device": device_text(device, seeds),
                 "throughput": "Mbps = 128 * Fmax[MHz] / interval[cycles] (ECB encryption)"},
        "rows": rows,
        "sections": rendered,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(report, indent=2))
    write_markdown(report, out_dir / "report.md")
    write_html(report, out_dir / "index.html")
    ok = all(r["tests_ok"] and not r["errors"] for r in rows)
    say(f"report written to {out_dir} ({time.monotonic() - t0:.0f} s)"
        + ("" if ok else " -- SOME CORES FAILED, see the report"))
    return ok
