"""Synthesis of a report section's extra design (a system, a harness top) with the
flow's cache, as the dict a section renders: a design that does not fit the device is
a result too (``fits: false``), not a failure. Placed with the report's seeds, like
the cores (:func:`aeskit.synth.seeds.synthesize_seeds`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Callable

__all__ = ["fmax_cell", "seeds_text", "synth_json", "system_fmax_cell", "unrouted_text"]


def synth_json(design: Any, device: str, force: bool, say: Callable[[str], None],
               cache_root: Path, seeds: Iterable[int] = (1,)) -> dict[str, Any]:
    """``synth.json`` of ``design`` (an :class:`aeskit.synth.Design`) on ``device``
    over ``seeds`` (the median seed's, with ``fmax_seeds``, ``fmax_min`` and
    ``fmax_max``), each seed cached under ``cache_root``
    (:func:`aeskit.synth.synth_dir`)."""
    from aeskit.synth.seeds import synthesize_seeds

    seeds = tuple(seeds)
    say(f"{design.name}: synthesis, seed{'s' if len(seeds) > 1 else ''} "
        f"{', '.join(map(str, seeds))}")
    return synthesize_seeds(design, device, seeds, cache_root, force=force, progress=say)


def seeds_text(syn: dict[str, Any]) -> str:
    """The Fmax of each placement seed of a ``synth_json`` result, for beside its
    median: ``seeds 1 / 2 / 3: 33.8 / 38.6 / 41.9 MHz``; empty for a single seed."""
    per = sorted(((int(k), v) for k, v in (syn.get("fmax_seeds") or {}).items()),
                 key=lambda kv: kv[0])
    if len(per) < 2:
        return ""
    return (f"seeds {' / '.join(str(k) for k, _ in per)}: "
            f"{' / '.join('-' if v is None else f'{v:.1f}' for _, v in per)} MHz"
            + (f" ({unrouted_text(syn)})" if syn.get("unrouted_seeds") else ""))


def unrouted_text(syn: dict[str, Any]) -> str:
    """``seed 2 not routed`` (``seeds 2, 3 not routed``) for the placement seeds whose
    router did not finish (:func:`aeskit.synth.seeds.combine_seeds`); empty for none."""
    bad = sorted(int(k) for k in (syn.get("unrouted_seeds") or {}))
    if not bad:
        return ""
    return f"seed{'s' if len(bad) > 1 else ''} {', '.join(map(str, bad))} not routed"


def fmax_cell(syn: dict[str, Any]) -> str:
    """A table cell: the median Fmax with the lowest and highest seed's,
    ``38.6 (33.8-41.9)``; the Fmax alone for one seed, ``-`` for none; the seeds that
    did not route after it (``38.6 (33.8-41.9; seed 2 not routed)``); a median seed
    that did not route with the others' Fmax (``not routed at the median (seeds 2, 3
    not routed; seed 1: 57.6)``)."""
    f = syn.get("fmax_mhz")
    bad = unrouted_text(syn)
    if f is None:
        if not bad:
            return "-"
        routed = sorted((int(k), v) for k, v in (syn.get("fmax_seeds") or {}).items()
                        if v is not None)
        return ("not routed at the median (" + bad
                + "".join(f"; seed {k}: {v:.1f}" for k, v in routed) + ")")
    lo, hi = syn.get("fmax_min"), syn.get("fmax_max")
    if lo is None or hi is None or len(syn.get("fmax_seeds") or {}) < 2:
        return f"{f:.1f}" + (f" ({bad})" if bad else "")
    return f"{f:.1f} ({lo:.1f}-{hi:.1f}{'; ' + bad if bad else ''})"


def system_fmax_cell(syn: dict[str, Any]) -> str:
    """The Fmax cell of a section's system: :func:`fmax_cell` when a seed did not route
    (it names the seeds and keeps the routed ones' Fmax), else the misfit verdict of a
    design that does not fit (``does not fit (needs N of M X)``), else :func:`fmax_cell`."""
    from aeskit.report.render import misfit_note

    if syn.get("unrouted_seeds"):
        return fmax_cell(syn)
    return misfit_note(syn) or fmax_cell(syn)
