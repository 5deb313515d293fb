"""Synthesis of a report section's extra design (a system, a harness top) with the
flow's cache, as the dict a section renders: a design that does not fit the device is
a result too (``fits: false``), not a failure."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

__all__ = ["synth_json"]


def synth_json(design: Any, device: str, force: bool, say: Callable[[str], None],
               cache_root: Path) -> dict[str, Any]:
    """``synth.json`` of ``design`` (an :class:`aeskit.synth.Design`) on ``device``,
    cached under ``cache_root`` (:func:`aeskit.synth.synth_dir`)."""
    from aeskit.synth import DoesNotFit, synth_dir, synthesize

    say(f"{design.name}: synthesis")
    try:
        return synthesize(design, synth_dir(design.name, device, cache_root),
                          device=device, force=force,
                          progress=lambda m: say(f"{design.name}: {m}")).to_json()
    except DoesNotFit as exc:
        say(exc.message)
        return exc.result.to_json()
