"""The report: every core measured in simulation and synthesized, in one table.

``run_report`` runs per core a simulation job (:mod:`aeskit.report.measure`) and a
synthesis job (:mod:`aeskit.synth`), in parallel, each cached by source hash, and
writes ``report.json``, ``report.md`` and ``index.html`` (with a throughput-vs-area
plot) into the output folder. A core that does not fit the device is a row too: its
Yosys figures (LUT4, FF, EBR, DSP) and "does not fit (needs N of M X)" where Fmax
would be; it is not an error.
"""

from __future__ import annotations

import inspect
import json
import time
import traceback
from pathlib import Path
from typing import Any, Callable

from aeskit import BUILD_ROOT, __version__
from aeskit.hw.registry import CoreSpec
from aeskit.report.jobs import Job, JobOutput, executor, merge
from aeskit.report.measure import measure_core
from aeskit.report.render import misfit_note, write_html, write_markdown
from aeskit.report.sections import section_modules
from aeskit.store import Store, activate
from aeskit.synth.devices import DEFAULT_DEVICE, get_device
from aeskit.synth.seeds import DEFAULT_SEEDS as _SYNTH_SEEDS

Progress = Callable[[str], None]

#: placement seeds of every design in the report (:data:`aeskit.synth.seeds.DEFAULT_SEEDS`)
DEFAULT_SEEDS: tuple[int, ...] = _SYNTH_SEEDS


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


def run_report(cores: list[CoreSpec], out_dir: Path, *, jobs: int = 2, force: bool = False,
               skip_synth: bool = False, progress: Progress | None = None,
               sections: list[str] | None = None, device: str = DEFAULT_DEVICE,
               seeds: tuple[int, ...] = DEFAULT_SEEDS, store: Store | None = None,
               scheduler: str | None = None,
               families: tuple[str, ...] = ()) -> bool:
    """Measure and synthesize ``cores`` on ``device``; write the report. True when every
    core passed its tests and no job failed (a core that does not fit the device is a
    result, not a failure).

    ``seeds``: nextpnr placement seeds per core (each cached on its own); a row's Fmax
    and area are those of the median seed, with the minimum and maximum beside them
    (:func:`aeskit.synth.seeds.combine_seeds`). The sections' extra designs (the
    systems) are placed with the same seeds.

    ``store``: the results store (:mod:`aeskit.store`) to reuse and record results in
    (``aeskit report`` passes the repository's); every row then says which figures were
    reused (and from which commit) and which were measured now. ``force`` measures
    everything again.

    ``scheduler``: where the jobs run (:func:`aeskit.report.jobs.executor`): None for
    ``jobs`` threads of this process, ``local:N`` or a Dask scheduler address.

    ``families``: further devices (other FPGA families) every core is synthesized on,
    seed 1, as ``family_rows``.

    ``sections``: names of the section modules to run (``paper001``, ...; default all);
    an unknown name, or an unknown ``device``, raises ``ValueError``."""
    get_device(device)
    for fam in families:
        get_device(fam)
    if not seeds or any(x < 1 for x in seeds):
        raise ValueError(f"seeds must be positive integers, got {list(seeds)}")
    mods = section_modules()
    if sections is not None:
        known = {m.__name__.rsplit(".", 1)[-1]: m for m in mods}
        unknown = sorted(set(sections) - set(known))
        if unknown:
            raise ValueError(f"unknown report section(s) {unknown}; known: {sorted(known)}")
        mods = [m for m in mods if m.__name__.rsplit(".", 1)[-1] in sections]
    say = progress or (lambda _m: None)
    with activate(store):
        return _run(cores, out_dir, jobs=jobs, force=force, skip_synth=skip_synth, say=say,
                    mods=mods, device=device, seeds=seeds, store=store, scheduler=scheduler,
                    families=tuple(f for f in families if f != device))


def _run(cores: list[CoreSpec], out_dir: Path, *, jobs: int, force: bool, skip_synth: bool,
         say: Progress, mods: list[Any], device: str, seeds: tuple[int, ...],
         store: Store | None, scheduler: str | None, families: tuple[str, ...]) -> bool:
    t0 = time.monotonic()
    from aeskit.report.plan import plan

    try:
        say("before the run: " + plan(cores, seeds=seeds, device=device, families=families,
                                      store=store, skip_synth=skip_synth).summary())
    except Exception as exc:  # noqa: BLE001 - the plan is information only
        say(f"(no plan: {exc})")
    todo: list[tuple[str, str, Job]] = []  # (owner, what, job)
    for core in cores:
        todo.append((core.name, "sim", Job("sim", core, force=force)))
        if not skip_synth:
            todo.append((core.name, "synth",
                         Job("synth", core, seeds=seeds, device=device, force=force)))
            for fam in families:
                todo.append((core.name, f"family:{fam}",
                             Job("synth", core, seeds=(1,), device=fam, force=force)))
    for mod in mods:
        if hasattr(mod, "collect") and not skip_synth:
            todo.append((f"section:{mod.__name__}", "collect",
                         Job("collect", mod.__name__.rsplit(".", 1)[-1], device=device,
                             seeds=seeds, force=force, cores=tuple(cores))))
    results: dict[tuple[str, str], Any] = {}
    errors: dict[str, list[str]] = {c.name: [] for c in cores}
    errors.update({f"section:{m.__name__}": [] for m in mods})
    ex = executor(scheduler, jobs, say, store.root if store is not None else None)
    say(f"{len(todo)} jobs on {scheduler or f'{max(1, jobs)} local thread(s)'}")
    try:
        futures = [(owner, what, job, ex.submit(job)) for owner, what, job in todo]
        for done, (owner, what, job, fut) in enumerate(futures, 1):
            try:
                out = ex.result(fut)
            except Exception as exc:  # noqa: BLE001 - a lost job is reported, not fatal
                out = JobOutput(error=f"{exc}\n{traceback.format_exc()}")
            merge(out, store)
            if out.error is not None:
                first = out.error.splitlines()[0] if out.error else "failed"
                errors[owner].append(f"{what}: {first}")
                say(f"{owner}: {what} FAILED: {first}")
                (out_dir / "logs").mkdir(parents=True, exist_ok=True)
                (out_dir / "logs" / f"{owner}-{what.replace(':', '-')}.txt").write_text(out.error)
            else:
                results[(owner, what)] = out.value
            say(f"[{done}/{len(futures)}] {job.label} done ({time.monotonic() - t0:.0f} s)")
    finally:
        ex.close()

    rows, family_rows = [], []
    for core in cores:
        sim = results.get((core.name, "sim"))
        syn = results.get((core.name, "synth"))
        prov = _row_provenance(store, core, device, seeds)
        for ks in core.key_sizes:
            row = _row(core, ks, sim, syn, errors[core.name])
            row["provenance"] = prov
            rows.append(row)
            if families and syn is not None:
                family_rows.append(_family_row(row, syn, device, prov))
            for fam in families:
                fres = results.get((core.name, f"family:{fam}"))
                if fres is not None:
                    fprov = _row_provenance(store, core, fam, (1,))
                    family_rows.append(_family_row(row, fres, fam, fprov))
    systems = section_systems(mods, rows, results, errors)
    rendered: list[dict[str, str]] = []
    if not skip_synth:
        rendered.append({"title": "Critical paths", "markdown": critical_paths_markdown(rows)})
    for mod in mods:
        key = f"section:{mod.__name__}"
        try:
            extra = ({"systems": systems}
                     if "systems" in inspect.signature(mod.render).parameters else {})
            body = mod.render(rows, results.get((key, "collect")), **extra)
        except Exception as exc:  # noqa: BLE001 - shown in the report
            body = f"Section failed: {exc}"
            errors[key].append(f"render: {exc}")
        for e in errors[key]:
            body += f"\n\n**Error:** {e}"
        rendered.append({"title": getattr(mod, "TITLE", mod.__name__), "markdown": body})
    if store is not None:
        rendered.append({"title": "Provenance", "markdown": provenance_markdown(store)})
    report = {
        "aeskit_version": __version__,
        "generated": time.strftime("%Y-%m-%d %H:%M:%S"),
        "flow": {"device": device_text(device, seeds),
                 "throughput": "Mbps = 128 * Fmax[MHz] / interval[cycles] (ECB encryption)"},
        "rows": rows,
        "systems": systems,
        "family_rows": family_rows,
        "sections": rendered,
        "provenance": _provenance_counts(store),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.json").write_text(json.dumps(report, indent=2))
    write_markdown(report, out_dir / "report.md")
    write_html(report, out_dir / "index.html")
    ok = all(r["tests_ok"] and not r["errors"] for r in rows)
    counts = report["provenance"]
    say(f"report written to {out_dir} ({time.monotonic() - t0:.0f} s"
        + (f"; {counts['reused']} results reused, {counts['measured']} measured now"
           if store is not None else "") + ")"
        + ("" if ok else " -- SOME JOBS FAILED, see the report"))
    return ok


def section_systems(mods: list[Any], rows: list[dict[str, Any]],
                    results: dict[tuple[str, str], Any],
                    errors: dict[str, list[str]]) -> list[dict[str, Any]]:
    """``report.json``'s ``systems``: every section's ``systems(rows, data)`` entries
    (:mod:`aeskit.report.systems`), in section order; a section whose hook fails adds
    an error to its section instead."""
    out: list[dict[str, Any]] = []
    for mod in mods:
        hook = getattr(mod, "systems", None)
        if hook is None:
            continue
        key = f"section:{mod.__name__}"
        try:
            out += hook(rows, results.get((key, "collect")))
        except Exception as exc:  # noqa: BLE001 - reported, not fatal
            errors.setdefault(key, []).append(f"systems: {exc}")
    return out


def _family_of(device: str) -> str:
    return getattr(get_device(device), "family", "ECP5")


def _family_row(row: dict[str, Any], syn: dict[str, Any], device: str,
                provenance: dict[str, str]) -> dict[str, Any]:
    """One row of ``family_rows``: a core on one device (seed 1)."""
    interval = row.get("interval")
    fmax = syn.get("fmax_mhz")
    lut4 = syn.get("lut4")
    mbps = 128.0 * fmax / interval if (fmax and interval) else None
    misfit = syn.get("misfit") or {}
    util = _utilisation(syn, device)
    return {"core": row["core"], "key_size": row["key_size"], "family": _family_of(device),
            "device": device, "lut4": lut4, "ff": syn.get("ff"), "ebr": syn.get("ebr"),
            "dsp": syn.get("dsp"), "fmax_mhz": fmax, "interval": interval, "mbps": mbps,
            "mbps_per_lut": mbps / lut4 if (mbps and lut4) else None,
            "does_not_fit": misfit_note(syn), "utilisation": util,
            "misfit": misfit or None,
            "provenance": {k: v for k, v in provenance.items() if k == "synth"}}


def _utilisation(syn: dict[str, Any], device: str) -> dict[str, list[int | None]]:
    """Resource -> [used, available] of a synthesis on ``device``: nextpnr's placed
    counts for a design that fits, the counts the fit check found for one that does not
    ({} for a report row, which carries no counts)."""
    misfit = syn.get("misfit") or {}
    if misfit.get("needs"):
        avail = misfit.get("available") or {}
        return {r: [n, avail.get(r)] for r, n in misfit["needs"].items()}
    placed = syn.get("utilization") or {}
    if not placed:
        return {}
    dev = get_device(device)
    cap = dev.capacity()
    resources = getattr(dev, "resources", None) or {r: r for r in cap}
    return {r: [int(placed.get(bel, 0)), cap.get(r)] for r, bel in resources.items()}


def _row_provenance(store: Store | None, core: CoreSpec, device: str,
                    seeds: tuple[int, ...]) -> dict[str, str]:
    """How a row's figures were obtained: ``{"sim": ..., "synth": ...}``, each "measured
    now" or "reused <commit>" (several commits joined)."""
    if store is None:
        return {}
    from aeskit.store import ident_of
    from aeskit.synth import synth_dir

    def label(idents: list[str | None]) -> str | None:
        provs = [store.provenance(i) for i in idents if i is not None]
        provs = [p for p in provs if p is not None]
        if not provs:
            return None
        if any(p.status == "measured" for p in provs):
            return "measured now"
        return "reused " + ", ".join(sorted({p.commit for p in provs}))

    out = {"sim": label([ident_of(BUILD_ROOT / "cache" / core.name / "sim.json")]),
           "synth": label([ident_of(synth_dir(core.name, device, seed=s)) for s in seeds])}
    return {k: v for k, v in out.items() if v is not None}


def _provenance_counts(store: Store | None) -> dict[str, int]:
    if store is None:
        return {"reused": 0, "measured": 0}
    used = list(store.used.values())
    return {"reused": sum(p.status == "reused" for p in used),
            "measured": sum(p.status == "measured" for p in used)}


def provenance_markdown(store: Store) -> str:
    """The section "Provenance": every result this report used, reused or measured."""
    used = sorted(store.used.values(), key=lambda p: p.ident)
    if not used:
        return "No stored result was used."
    counts = _provenance_counts(store)
    lines = [f"{counts['reused']} results reused from the results store (`results/`), "
             f"{counts['measured']} measured now. A result is reused when its key (the "
             "design's sources, parameters, flow version, tool versions, seed and device) "
             "equals the checkout's; `make report FRESH=1` measures everything again.",
             "", "| result | how | commit |", "| --- | --- | --- |"]
    lines += [f"| {p.ident} | {'reused' if p.status == 'reused' else 'measured now'} "
              f"| {p.commit} |" for p in used]
    return "\n".join(lines)
