"""Comma-separated name lists of the command line, checked against what is known (shared
by the CLI and the library functions behind it)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["name_list"]


def name_list(text: str, option: str, known: Sequence[str], what: str,
              error: type[ValueError] = ValueError) -> list[str]:
    """``"a, b"`` -> ``["a", "b"]`` (repeats dropped), each one of ``known``; raises
    ``error`` (a ValueError) naming ``option`` otherwise."""
    names = list(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if not names:
        raise error(f"{option}: no {what} given (known: {', '.join(known)})")
    unknown = [n for n in names if n not in known]
    if unknown:
        raise error(f"{option}: unknown {what} {', '.join(map(repr, unknown))}; "
                    f"known: {', '.join(known)}")
    return names
