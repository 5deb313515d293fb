"""Synthesis of a report section's extra design (a system, a harness top) with the
flow's cache, as the dict a section renders: a design that does not fit the device is
a result too (``fits: false``), not a failure. Placed with the report's seeds, like
the cores (:func:`aeskit.synth.seeds.synthesize_seeds`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, Callable

__all__ = ["synth_json"]


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
