"""The report's first table, "Pick by need": one line per question a designer brings
(the smallest core, the fastest, the best throughput per LUT4 with and without block
RAM, what fits an iCE40 UP5K), answered from the report's own rows: the main device's
AES-128 rows (a core built for one other key size: its row) and ``family_rows`` for the
iCE40. Every answer names the core, its figures and the runner-up, so a reader sees how
close the choice is; a question no row answers says so ("no core fits"), never a blank.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aeskit.report.numbers import num

__all__ = ["PICK_TABLE", "PICK_TITLE", "Pick", "picks", "picks_markdown"]

PICK_TITLE = "Pick by need"
PICK_TABLE = "table:pick"
HEADER = ("need", "core", "key", "LUT4", "DP16KD", "Fmax MHz", "Mbit/s",
          "Mbit/s per LUT4", "next best")
UP5K = "iCE40-UP5K"


@dataclass(frozen=True)
class Pick:
    """One question and its answer (``row`` None: no row answers it)."""

    need: str
    row: Mapping[str, Any] | None
    runner_up: Mapping[str, Any] | None
    #: what to say when no row answers
    none_text: str = "no measured core"


def _per_core(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One row per core: its AES-128 row, else its first; placed rows only."""
    out: dict[str, Mapping[str, Any]] = {}
    for r in rows:
        core = str(r.get("core"))
        if r.get("fmax_mhz") is None or r.get("lut4") is None:
            continue
        if core not in out or (r.get("key_size") == 128 and out[core].get("key_size") != 128):
            out[core] = r
    return list(out.values())


def _best(rows: list[Mapping[str, Any]], key: Callable[[Mapping[str, Any]], float],
          keep: Callable[[Mapping[str, Any]], bool] = lambda r: True,
          ) -> tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]:
    cand = sorted((r for r in rows if keep(r)), key=key, reverse=True)
    return (cand[0] if cand else None, cand[1] if len(cand) > 1 else None)


def picks(report: Mapping[str, Any]) -> list[Pick]:
    rows = _per_core(report.get("rows") or [])
    no_ram = (lambda r: not r.get("ebr"))  # noqa: E731 - a predicate, named below
    lut = (lambda r: -float(r["lut4"]))  # noqa: E731
    mbps = (lambda r: float(r.get("mbps") or 0.0))  # noqa: E731
    per = (lambda r: float(r.get("mbps_per_lut") or 0.0))  # noqa: E731
    up5k = [r for r in report.get("family_rows") or []
            if r.get("device") == UP5K and not r.get("does_not_fit")
            and r.get("lut4") is not None]
    return [
        Pick("smallest, no block RAM", *_best(rows, lut, no_ram)),
        Pick("fewest LUT4, block RAM allowed", *_best(rows, lut)),
        Pick("fastest (Mbit/s)", *_best(rows, mbps)),
        Pick("best Mbit/s per LUT4, block RAM allowed", *_best(rows, per)),
        Pick("best Mbit/s per LUT4, no block RAM", *_best(rows, per, no_ram)),
        Pick(f"fits an {UP5K} (fewest logic cells)", *_best(_per_core(up5k), lut),
             none_text=f"no core fits the {UP5K} in this report"),
    ]


def _cells(p: Pick) -> list[str]:
    if p.row is None:
        return [p.need, p.none_text] + ["-"] * (len(HEADER) - 2)
    r = p.row
    nxt = "-" if p.runner_up is None else f"`{p.runner_up['core']}`"
    return [p.need, f"`{r['core']}`", str(r.get("key_size", "-")), num(r.get("lut4"), ","),
            num(r.get("ebr"), "d"), num(r.get("fmax_mhz"), ".1f"), num(r.get("mbps"), ",.0f"),
            num(r.get("mbps_per_lut"), ".3f"), nxt]


def pick_cells(report: Mapping[str, Any]) -> list[list[str]]:
    return [_cells(p) for p in picks(report)]


def picks_markdown(report: Mapping[str, Any]) -> str:
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c) + " |" for c in pick_cells(report)]
    return "\n".join(lines)
