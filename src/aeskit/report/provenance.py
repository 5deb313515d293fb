"""The report's "measured" column: where a row's figures come from (the results store
puts ``provenance`` = {"synth": "measured now" | "reused <commit>", "sim": ...} into
every row)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the parts of a row, in the column's order
PARTS: tuple[str, ...] = ("synth", "sim")
MISSING = "–"


def _short(text: Any) -> str:
    """``measured now`` -> ``now``; anything else as written (``reused 1a2b3c4``)."""
    if text is None or text == "":
        return MISSING
    s = str(text).strip()
    return "now" if s == "measured now" else s


def measured(row: Mapping[str, Any]) -> str:
    """The compact cell: ``–`` without ``provenance``; one word when every part agrees
    (``now``, ``reused 1a2b3c4``); else each part named (``synth reused 1a2b3c4, sim
    now``), a missing part as ``–``. Parts other than synth and sim follow, sorted."""
    prov = row.get("provenance")
    if not isinstance(prov, Mapping) or not prov:
        return MISSING
    keys = [k for k in PARTS] + sorted(k for k in prov if k not in PARTS)
    values = [_short(prov.get(k)) for k in keys]
    if len(set(values)) == 1:
        return values[0]
    return ", ".join(f"{k} {v}" for k, v in zip(keys, values))
