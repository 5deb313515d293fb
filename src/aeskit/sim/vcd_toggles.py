"""Count bit toggles in a VCD file inside time windows (a dynamic-energy proxy).

A *toggle* is one bit of one net changing value between two consecutive value
changes of that net (``0 -> 1``, ``1 -> 0``; with four-state values any change of a
bit's character, e.g. ``x -> 1``, also counts once). The first value of a net (its
``$dumpvars`` entry) is not a toggle. A value change counts for every window
``[start, end)`` that holds its time stamp: the transition *into* a cycle at its
opening edge belongs to that cycle.

Nets are counted once per VCD identifier code: a simulator gives aliased nets (a port
and the wire it drives, the same net seen from several scopes) one code, so counting
codes counts every distinct net once. ``scope`` restricts the count to the variables
whose hierarchical name starts with it (e.g. ``"TOP.ak_adam"``).

Vectors may be written shortened (``b101`` for an 8-bit net): they are extended to
the declared width on the left with ``0``, or with ``x``/``z`` when that is the
leftmost character (IEEE 1364, 18.2.1). Real values (``r...``) are ignored.

>>> from aeskit.sim.vcd_toggles import count_toggles
>>> c = count_toggles("dump.vcd", [(0, 1000_000)], scope="TOP.dut")  # doctest: +SKIP
>>> c.windows[0], c.nets, c.bits                                     # doctest: +SKIP
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

__all__ = ["ToggleCount", "VcdError", "VcdVar", "count_toggles"]

_UNITS_PS: dict[str, Fraction] = {
    "s": Fraction(10**12), "ms": Fraction(10**9), "us": Fraction(10**6),
    "ns": Fraction(10**3), "ps": Fraction(1), "fs": Fraction(1, 1000),
}


class VcdError(ValueError):
    """The file is not a VCD this counter understands; the message says where."""


@dataclass(frozen=True)
class VcdVar:
    """One ``$var`` declaration: identifier code, width, hierarchical name."""

    code: str
    width: int
    name: str


@dataclass
class ToggleCount:
    """Result of :func:`count_toggles`."""

    #: toggles per window, in the order the windows were given
    windows: list[int]
    #: distinct nets (identifier codes) counted
    nets: int
    #: their total width in bits
    bits: int
    #: length of one VCD time unit in picoseconds
    timescale_ps: Fraction
    #: every variable inside the scope (aliases included)
    variables: list[VcdVar] = field(default_factory=list)


def _tokens(lines: Iterable[str]) -> Iterator[str]:
    for line in lines:
        yield from line.split()


def _parse_header(lines: Iterator[str]) -> tuple[Fraction, list[VcdVar]]:
    """Read declarations up to ``$enddefinitions``; return (timescale in ps, vars)."""
    scopes: list[str] = []
    variables: list[VcdVar] = []
    timescale = Fraction(1)
    toks = _tokens(lines)
    for tok in toks:
        if tok == "$enddefinitions":
            _skip_to_end(toks, tok)
            return timescale, variables
        if tok == "$scope":
            body = _skip_to_end(toks, tok)
            if len(body) < 2:
                raise VcdError(f"$scope without a name: {body}")
            scopes.append(body[1])
        elif tok == "$upscope":
            _skip_to_end(toks, tok)
            if not scopes:
                raise VcdError("$upscope without $scope")
            scopes.pop()
        elif tok == "$var":
            body = _skip_to_end(toks, tok)
            if len(body) < 4:
                raise VcdError(f"short $var declaration: {body}")
            try:
                width = int(body[1])
            except ValueError as exc:
                raise VcdError(f"$var width is not a number: {body}") from exc
            variables.append(VcdVar(body[2], width, ".".join([*scopes, body[3]])))
        elif tok == "$timescale":
            timescale = _timescale_ps("".join(_skip_to_end(toks, tok)))
        elif tok.startswith("$"):
            _skip_to_end(toks, tok)
        else:
            raise VcdError(f"unexpected token {tok!r} in the VCD header")
    raise VcdError("no $enddefinitions: not a VCD file, or a truncated one")


def _skip_to_end(toks: Iterator[str], what: str) -> list[str]:
    body: list[str] = []
    for tok in toks:
        if tok == "$end":
            return body
        body.append(tok)
    raise VcdError(f"{what} without $end")


def _timescale_ps(text: str) -> Fraction:
    num = "".join(ch for ch in text if ch.isdigit())
    unit = text[len(num):].strip()
    if num not in ("1", "10", "100") or unit not in _UNITS_PS:
        raise VcdError(f"bad $timescale {text!r}")
    return int(num) * _UNITS_PS[unit]


def _extend(value: str, width: int) -> str:
    if len(value) >= width:
        return value[len(value) - width:]
    pad = value[0] if value[0] in "xXzZ" else "0"
    return pad * (width - len(value)) + value


def _diff(old: int | str, new: int | str, width: int) -> int:
    if isinstance(old, int) and isinstance(new, int):
        return (old ^ new).bit_count()
    a = old if isinstance(old, str) else format(old, f"0{width}b")
    b = new if isinstance(new, str) else format(new, f"0{width}b")
    return sum(1 for x, y in zip(a, b, strict=True) if x != y)


def _value(raw: str, width: int) -> int | str:
    """A value as an int when it is two-state, else as the extended lowercase string."""
    if not raw:
        raise VcdError("empty vector value")
    try:
        return int(raw, 2) & ((1 << width) - 1) if len(raw) > width else int(raw, 2)
    except ValueError:
        return _extend(raw.lower(), width)


def count_toggles(vcd: Path | str | io.TextIOBase, windows: Sequence[tuple[int, int]], *,
                  scope: str | None = None) -> ToggleCount:
    """Toggles of the nets under ``scope`` in each window ``[start, end)`` (picoseconds).

    ``vcd`` is a path or an open text stream. Raises :class:`VcdError` on a malformed
    file (a value change for an undeclared code, a missing ``$enddefinitions``, ...)
    and ``ValueError`` for an empty window list or a window with ``end < start``.
    """
    if not windows:
        raise ValueError("count_toggles: no windows given")
    for s, e in windows:
        if e < s:
            raise ValueError(f"count_toggles: window ({s}, {e}) ends before it starts")
    if isinstance(vcd, (str, Path)):
        with open(vcd, encoding="ascii", errors="replace") as fh:
            return _count(fh, windows, scope)
    return _count(vcd, windows, scope)


def _count(fh: Iterable[str], windows: Sequence[tuple[int, int]], scope: str | None) -> ToggleCount:
    lines = iter(fh)
    timescale, variables = _parse_header(lines)
    declared = {v.code: v.width for v in variables}
    inside = [v for v in variables
              if scope is None or v.name == scope or v.name.startswith(scope + ".")]
    width: dict[str, int] = {v.code: v.width for v in inside}
    counts = [0] * len(windows)
    prev: dict[str, int | str] = {}
    active: list[int] = []

    def change(code: str, raw: str) -> None:
        w = width.get(code)
        if w is None:
            if code not in declared:
                raise VcdError(f"value change for undeclared identifier code {code!r}")
            return
        new = _value(raw, w)
        old = prev.get(code)
        prev[code] = new
        if old is not None and active:
            d = _diff(old, new, w)
            for i in active:
                counts[i] += d

    pending: str | None = None           # a vector or real value waiting for its code
    for line in lines:
        for tok in line.split():
            if pending is not None:
                if not pending.startswith("r"):
                    change(tok, pending)
                elif tok not in declared:
                    raise VcdError(f"real value for undeclared identifier code {tok!r}")
                pending = None
                continue
            c = tok[0]
            if c == "#":
                t = int(tok[1:]) * timescale
                active = [i for i, (s, e) in enumerate(windows) if s <= t < e]
            elif c in "01xXzZ":
                change(tok[1:], c)
            elif c in "bB":
                pending = tok[1:]
            elif c in "rR":
                pending = "r"                 # real values are not counted
            elif c == "$":
                continue                      # $dumpvars, $end, $dumpon, ...: keywords
            else:
                raise VcdError(f"unexpected token {tok!r} in the value changes")
    return ToggleCount(counts, len(width), sum(width.values()), timescale, inside)
