"""Extra report sections, one module each (paper comparisons, primitive tables, ...).

A section module defines:

* ``TITLE: str`` and ``ORDER: int`` (lower first, default 100);
* optionally ``collect(cores, progress, force, device=DEFAULT_DEVICE) -> object``: work
  to do (simulation, synthesis on ``device``, the report's ``--device``), run in the
  report's job pool and cached by the section itself;
* ``render(rows, data) -> str``: Markdown for the section (tables, sentences), given
  the report's core rows (the dicts of ``report.json``) and what ``collect`` returned
  (``None`` when it has no ``collect``). A row of a core that does not fit the device
  has no Fmax and no throughput and carries ``does_not_fit`` ("does not fit (needs N of
  M X)", :func:`aeskit.report.render.misfit_note`); a section says that instead. A
  ``render`` with a ``systems`` parameter also gets ``report.json``'s ``systems`` (every
  section's entries, below), to state a figure at the clock of the system that runs it;
* optionally ``systems(rows, data) -> list[dict]``: the system configurations the
  section measured, as entries of ``report.json``'s ``systems``
  (:func:`aeskit.report.systems.system_entry`).

The report imports every module of this package; a failing section is reported as an
error in the report instead of stopping it.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def section_modules() -> list[ModuleType]:
    mods = [importlib.import_module(f"{__name__}.{m.name}")
            for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_")]
    mods.sort(key=lambda m: (getattr(m, "ORDER", 100), m.__name__))
    return mods
