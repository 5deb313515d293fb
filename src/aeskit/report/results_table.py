"""The report's "Results" table: one row per core, its key sizes side by side.

``report.json`` keeps one row per core and key size (scripts read that); a page that
repeated the same area and clock three times per core was wider than a browser window
and three times as long. Here a core's key sizes share a row: the cycle counts and the
throughput are listed per key size ("10/12/14" for AES-128/192/256, in the order
of the "build" column), the area, Fmax and checks are the core's (one build serves every
key size it has). Decryption is named where its cycles differ from encryption's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from aeskit.report.numbers import num
from aeskit.report.provenance import measured
from aeskit.synth.fit import Misfit

__all__ = ["COLUMNS", "Group", "cells", "groups", "misfit_note", "status"]

Row = Mapping[str, Any]
Group = list[Row]


def misfit_note(d: Mapping[str, Any]) -> str | None:
    """``does not fit (needs N of M X)`` for a report row or a ``synth.json`` of a
    design that does not fit its device; None for everything else."""
    note = d.get("does_not_fit")
    if note:
        return str(note)
    if d.get("fits") is False and d.get("misfit"):
        return Misfit.from_json(d["misfit"]).note()
    return None


def groups(rows: Sequence[Row]) -> list[Group]:
    """The rows of each core, cores in order of first appearance, key sizes ascending."""
    out: dict[str, list[Row]] = {}
    for r in rows:
        out.setdefault(str(r["core"]), []).append(r)
    return [sorted(g, key=lambda r: int(r.get("key_size") or 0)) for g in out.values()]


def _per_key(g: Group, key: str, f: str) -> str:
    return "/".join(num(r.get(key), f, missing="–") for r in g)


def _cycles(g: Group, enc: str, dec: str, f: str) -> str:
    """Encryption's cycles per key size; decryption's beside them where they differ."""
    text = _per_key(g, enc, f)
    if any(r.get(dec) is not None and r.get(dec) != r.get(enc) for r in g):
        text += f" (dec {_per_key(g, dec, f)})"
    return text


def _build(g: Group) -> str:
    """The directions and key sizes the core builds: ``both 128/192/256`` (encryption
    and decryption), ``enc 128``."""
    dirs = "enc" if all(r.get("latency_dec") is None for r in g) else "both"
    return f"{dirs} {'/'.join(str(r.get('key_size')) for r in g)}"


def _first(g: Group) -> Row:
    """The row the area and clock are read from: AES-128 where built (one synthesis
    serves every key size of a core)."""
    return next((r for r in g if r.get("key_size") == 128), g[0])


def _fmax(g: Group) -> str:
    r = _first(g)
    if r.get("fmax_mhz") is None:
        return misfit_note(r) or "–"
    spread = r.get("fmax_spread")
    return num(r.get("fmax_mhz"), ".1f") + (f" ({spread})" if spread else "")


def status(g: Group) -> str:
    """``pass 630/630`` over the core's key sizes; ``FAIL``/``ERROR`` where any fails."""
    passed = sum(int(r.get("tests_passed") or 0) for r in g)
    total = sum(int(r.get("tests_total") or 0) for r in g)
    if any(r.get("errors") for r in g):
        return "ERROR"
    if not all(r.get("tests_ok") for r in g):
        return f"FAIL {passed}/{total}"
    claims = "" if all(r.get("claims_ok", True) for r in g) else \
        ", cycles differ from the registry's claim"
    return f"pass {passed}/{total}{claims}"


def failed(g: Group) -> bool:
    return any(r.get("errors") or not r.get("tests_ok") for r in g)


#: (key, header, cell of a core's rows)
COLUMNS: list[tuple[str, str, Callable[[Group], str]]] = [
    ("core", "core", lambda g: str(g[0]["core"])),
    ("build", "build", _build),
    ("latency", "latency", lambda g: _cycles(g, "latency", "latency_dec", "d")),
    ("interval", "interval", lambda g: _cycles(g, "interval", "interval_dec", "g")),
    ("key_setup", "key setup", lambda g: _per_key(g, "key_setup", "d")),
    ("lut4", "LUT4", lambda g: num(_first(g).get("lut4"), ",d", missing="–")),
    ("ff", "FF", lambda g: num(_first(g).get("ff"), ",d", missing="–")),
    ("ebr", "EBR", lambda g: num(_first(g).get("ebr"), ",d", missing="–")),
    ("fmax_mhz", "Fmax MHz (min-max)", _fmax),
    ("mbps", "Mbit/s", lambda g: _per_key(g, "mbps", ",.0f")),
    ("mbps_per_lut", "Mbit/s per LUT4", lambda g: num(_first(g).get("mbps_per_lut"), ".3f",
                                                      missing="–")),
    ("provenance", "measured", lambda g: measured(_first(g))),
    ("checks", "checks", status),
]

HEADER = [h for _, h, _ in COLUMNS]
#: the page's columns: the "measured" cell becomes the core cell's tooltip there
HTML_KEYS = [k for k, _, _ in COLUMNS if k != "provenance"]
HTML_HEADER = [h for k, h, _ in COLUMNS if k in HTML_KEYS]

NOTE = ("One row per core; where a core builds several key sizes, latency, interval, key "
        "setup and Mbit/s are given per key size in the order of the build column "
        "(AES-128/192/256), and area, Fmax and Mbit/s per LUT4 are those of its one "
        "build (Mbit/s per LUT4 at AES-128). Decryption's cycles are named where they "
        "differ. Build: the directions (both, or enc: encryption only) and key sizes. "
        "report.json has one row per core and key size.")


def cells(g: Group, keys: Sequence[str] | None = None) -> list[str]:
    """The row of a core: every column, or those of ``keys``."""
    return [f(g) for k, _, f in COLUMNS if keys is None or k in keys]
