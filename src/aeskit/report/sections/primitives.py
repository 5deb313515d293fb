"""Report section: the S-box, inversion and linear-map library (``aeskit primitives``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

TITLE = "S-box and linear-map primitives"
ORDER = 20


def collect(cores: list[Any], progress: Callable[[str], None] | None, force: bool,
            device: str | None = None, seeds: tuple[int, ...] = (1,)) -> list[dict[str, Any]]:
    """Proofs, gate counts and the registered 16-lane ECP5 instances (cached), always
    on the flow's default device (LFE5U-85F) and seed 1, whatever the report's
    ``device`` and ``seeds``: the table compares S-box forms, one placement each."""
    from aeskit.report.primitive_table import collect as run

    del cores, device, seeds  # the primitives depend on neither the cores nor the device
    return run(progress=progress, force=force, jobs=1)


def render(rows: list[dict[str, Any]], data: list[dict[str, Any]] | None) -> str:
    from aeskit.report.primitive_table import render_table

    del rows
    if not data:
        return "Not measured (run without --no-synth, or `aeskit primitives`)."
    intro = ("Every S-box variant is proven equal to the table S-box by Yosys SAT "
             "(`proven`); GE and depth are for one instance on the generic gate library; "
             "LUT4, EBR and Fmax are for a registered 128-bit instance (16 byte lanes or "
             "4 column lanes between an input and an output register; Fmax is "
             "register to register). See docs/primitives.md.\n\n")
    return intro + render_table(data)
