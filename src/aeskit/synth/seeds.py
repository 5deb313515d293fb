"""One design over several nextpnr placement seeds.

Fmax moves with the placement seed (about +-3 % on the compact cores, 15-25 % on the
large systems), so the report judges every design on the median of several seeds.
:func:`synthesize_seeds` runs the flow once per seed, each in its own folder
(:func:`aeskit.synth.flow.synth_dir`: ``<name>`` for seed 1, ``<name>~seed<k>`` for
another) and cached on its own; :func:`combine_seeds` makes one result of the runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_SEEDS", "combine_seeds", "synthesize_seeds"]

#: placement seeds of every design in the report and in ``aeskit asbus`` (Fmax moves
#: about +-3 % with the seed on the compact cores, 15-25 % on the large systems; the
#: report judges on the median of three)
DEFAULT_SEEDS: tuple[int, ...] = (1, 2, 3)


def _unrouted(run: dict[str, Any]) -> bool:
    """A seed whose router did not finish (``fits: false``, misfit stage ``route``)."""
    return run.get("fits") is False and (run.get("misfit") or {}).get("stage") == "route"


def combine_seeds(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One ``synth.json``-like dict from the runs of one design with several placement
    seeds: the run with the median Fmax (the lower middle one of an even count), plus
    ``fmax_seeds`` ({seed: Fmax}), ``fmax_min`` and ``fmax_max``. Area figures are the
    median run's (they move by a few LUT4 with the placement).

    A seed that did not route (:func:`_unrouted`) ranks below every seed that did, with
    Fmax None in ``fmax_seeds`` and its verdict in ``unrouted_seeds`` ({seed: note}).
    When the median falls on such a seed the result is that seed's (``fits: false``:
    the design does not route at the median), with the routed seeds' Fmax beside it;
    ``fmax_min`` and ``fmax_max`` range over the routed seeds only."""
    if not runs:
        raise ValueError("combine_seeds needs at least one run")
    failed = [r for r in runs if _unrouted(r)]
    timed = sorted((r for r in runs if not _unrouted(r) and r.get("fmax_mhz") is not None),
                   key=lambda r: float(r["fmax_mhz"]))
    ranked = failed + timed
    median = ranked[(len(ranked) - 1) // 2] if ranked else runs[0]
    out = dict(median)
    out["fmax_seeds"] = {str(r["seed"]): None if _unrouted(r) else r.get("fmax_mhz")
                         for r in runs}
    out["fmax_min"] = timed[0]["fmax_mhz"] if timed else None
    out["fmax_max"] = timed[-1]["fmax_mhz"] if timed else None
    if failed:
        from aeskit.synth.fit import Misfit
        out["unrouted_seeds"] = {str(r["seed"]): Misfit.from_json(r["misfit"]).summary()
                                 for r in failed}
    return out


def synthesize_seeds(target: Any, device: str, seeds: Iterable[int], root: Path | None, *,
                     force: bool = False,
                     progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """``synth.json`` of ``target`` (a core or :class:`aeskit.synth.Design`) placed
    with every seed of ``seeds`` under ``root`` (None: the flow's default folder),
    combined by :func:`combine_seeds`. A design that does not fit the device is a
    result too: its ``synth.json`` (``fits: false``) is returned at once, since no
    other seed places it better (the first check is Yosys's cell count). A seed whose
    router does not finish (within the flow's budget, or gives up on a net) is
    different: another placement may route, so the other seeds still run and the
    unrouted one ranks lowest in the median."""
    import aeskit.synth as synth  # through the package, so that tests can stand in for it

    say = progress or (lambda _m: None)
    seeds = tuple(seeds)
    if not seeds:
        raise ValueError(f"{target.name}: no placement seed given")
    runs = []
    for seed in seeds:
        out = synth.synth_dir(target.name, device, root, seed=seed)
        try:
            runs.append(synth.synthesize(target, out, seed=seed, device=device, force=force,
                                   progress=lambda m: say(f"{target.name}: {m}")).to_json())
        except synth.DoesNotFit as exc:
            say(exc.message)
            if exc.misfit.stage != "route":
                return exc.result.to_json()
            runs.append(exc.result.to_json())
    return combine_seeds(runs)
