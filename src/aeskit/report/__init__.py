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


def device_text(device: str) -> str:
    """The report header's device line, e.g. ``LFE5U-85F-6BG381C (CABGA381, speed 6),
    out of context, seed 1``."""
    from aeskit.synth.flow import PACKAGE, SPEED_GRADE

    return (f"{device}-{SPEED_GRADE}BG381C ({PACKAGE}, speed {SPEED_GRADE}), "
            f"out of context, seed 1")


def run_report(cores: list[CoreSpec], out_dir: Path, *, jobs: int = 2, force: bool = False,
               skip_synth: bool = False, progress: Progress | None = None,
               sections: list[str] | None = None, device: str = DEFAULT_DEVICE) -> bool:
    """Measure and synthesize ``cores`` on ``device``; write the report. True when every
    core passed its tests and no job failed (a core that does not fit the device is a
    result, not a failure).

    ``sections``: names of the section modules to run (``paper001``, ...; default all);
    an unknown name, or an unknown ``device``, raises ``ValueError``."""
    get_device(device)
    say = progress or (lambda _m: None)
    t0 = time.monotonic()
    cache_root = BUILD_ROOT / "cache"
    futures: dict[tuple[str, str], Future[Any]] = {}

    def sim_job(core: CoreSpec) -> dict[str, Any]:
        return measure_core(core, cache_root / core.name, force=force,
                            progress=lambda m: say(m))

    def synth_job(core: CoreSpec) -> dict[str, Any]:
        from aeskit.synth import DoesNotFit, synth_dir, synthesize

        try:
            res = synthesize(core, synth_dir(core.name, device), device=device,
                             progress=lambda m: say(f"{core.name}: {m}"), force=force)
        except DoesNotFit as exc:
            say(exc.message)
            return exc.result.to_json()
        return res.to_json()

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
        "flow": {"device": device_text(device),
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
