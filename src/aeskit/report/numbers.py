"""The report's one number formatter (every table cell of a figure goes through it)."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["num"]


def num(v: Any, spec: int | str = 0, *, missing: str = "-") -> str:
    """A figure as a table cell.

    ``None`` (and NaN) is ``missing``; a string is itself. ``spec`` an int ``nd``: a
    float with ``nd`` decimals and thousands separators, an int with separators
    (``num(1234.5, 1)`` is ``1,234.5``, ``num(1234.5)`` is ``1,234``, ``num(12576)`` is
    ``12,576``). ``spec`` a format
    specification: :func:`format` with it, a float rounded first for an integer
    specification (``num(3.6, ",d")`` is ``4``); ``"s"`` is :class:`str`.
    """
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return missing
    if isinstance(v, str) or spec == "s":
        return str(v)
    if isinstance(spec, int):
        return f"{v:,.{spec}f}" if isinstance(v, float) else f"{v:,}"
    if spec.endswith("d") and isinstance(v, float):
        return format(int(round(v)), spec)
    return format(v, spec)
