"""Issue 14's clock targets, judged on this report's rows: every core class against
the figure the issue sets for it (median Fmax over the report's placement seeds,
AES-128 unless a core is built for another key size), met or not, and how far off.

The targets of the systems are judged in their own sections, beside their figures:
`cipher_ahb` in paper 001's, ADAM against XDAM in paper 000's. What bounds each core
that misses its target (its critical path, the approaches measured, the bound in
numbers) is in docs/timing-closure.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CORE_TARGETS", "CoreTarget", "Verdict", "judge", "render"]

TITLE = "Clock targets (issue 14)"
ORDER = 2


@dataclass(frozen=True)
class CoreTarget:
    """One class of cores and what the issue asks of it."""

    #: the class, as the issue names it
    name: str
    #: the registry cores it covers (each judged at its own key size's row)
    cores: tuple[str, ...]
    #: every core's median Fmax at least this
    each_mhz: float
    #: the best core's median Fmax at least this (None: no such target)
    best_mhz: float | None = None
    #: the best core's Mbit/s per LUT4 at least this (None: no such target)
    best_mbps_per_lut: float | None = None
    #: every core at most this many LUT4 (block RAM not counted; None: no bound)
    max_lut4: int | None = None
    #: every core's Mbit/s at least this (None: no such target)
    each_mbps: float | None = None
    #: where the figures and the bound of the class are written up
    doc: str = ""


#: the targets of issue 14 on single cores
CORE_TARGETS: tuple[CoreTarget, ...] = (
    CoreTarget("round, LUT only (paper 002 and `round`)",
               ("round", "ueno", "ueno_mux", "satoh", "lutz", "liu"),
               each_mhz=100.0, best_mhz=125.0, best_mbps_per_lut=0.20,
               doc="docs/cores/round.md, docs/cores/paper002.md"),
    CoreTarget("round, block RAM", ("ttable_col", "ttable_round"), each_mhz=200.0,
               doc="docs/cores/ttable.md"),
    CoreTarget("round, block RAM (paper 003 folded)", ("tbox_folded",), each_mhz=200.0,
               each_mbps=2500.0, doc="docs/cores/tbox.md"),
    CoreTarget("one block per cycle", ("tbox_unfolded", "tbox_unfolded_pp", "ttable_unrolled",
                                       "ttable_unrolled_192", "ttable_unrolled_256"),
               each_mhz=200.0, max_lut4=8000, doc="docs/cores/tbox.md, docs/cores/ttable.md"),
    CoreTarget("two streams (paper 001)", ("pipe2",), each_mhz=125.0, doc="docs/cores/pipe2.md"),
)


def _row(rows: list[dict[str, Any]], core: str) -> dict[str, Any] | None:
    """The core's row at AES-128, else its first (a core built for one key size)."""
    mine = [r for r in rows if r.get("core") == core]
    return next((r for r in mine if r.get("key_size") == 128), mine[0] if mine else None)


@dataclass(frozen=True)
class Verdict:
    """One core against its class's targets."""

    core: str
    fmax_mhz: float | None
    #: the checks that apply to this core alone: (what, met)
    checks: tuple[tuple[str, bool], ...]
    row: dict[str, Any]

    @property
    def met(self) -> bool:
        return self.fmax_mhz is not None and all(ok for _, ok in self.checks)


def judge(target: CoreTarget, rows: list[dict[str, Any]]
          ) -> tuple[list[Verdict], list[tuple[str, bool]], list[str]]:
    """Each measured core of ``target`` with its own checks, the class's checks on its
    best core ((what, met)), and the cores of the class without a figure here (not in
    the report's cores, or not placed: does not fit)."""
    verdicts: list[Verdict] = []
    missing: list[str] = []
    for core in target.cores:
        row = _row(rows, core)
        f = None if row is None else row.get("fmax_mhz")
        if row is None or f is None:
            missing.append(core)
            continue
        checks = [(f">= {target.each_mhz:g} MHz", f >= target.each_mhz)]
        if target.max_lut4 is not None:
            lut = row.get("lut4") or 0
            checks.append((f"<= {target.max_lut4:,} LUT4", lut <= target.max_lut4))
        if target.each_mbps is not None:
            mbps = row.get("mbps") or 0.0
            checks.append((f">= {target.each_mbps / 1000:g} Gbit/s", mbps >= target.each_mbps))
        verdicts.append(Verdict(core, float(f), tuple(checks), row))
    best: list[tuple[str, bool]] = []
    if verdicts and target.best_mhz is not None:
        top = max(v.fmax_mhz or 0.0 for v in verdicts)
        best.append((f"the best >= {target.best_mhz:g} MHz ({top:.1f})", top >= target.best_mhz))
    if verdicts and target.best_mbps_per_lut is not None:
        top = max(float(v.row.get("mbps_per_lut") or 0.0) for v in verdicts)
        best.append((f"the best >= {target.best_mbps_per_lut:g} Mbit/s per LUT4 ({top:.3f})",
                     top >= target.best_mbps_per_lut))
    return verdicts, best, missing


def _pct(v: Verdict, target: CoreTarget) -> str:
    return f"{100.0 * (v.fmax_mhz or 0.0) / target.each_mhz:.0f} %"


def render(rows: list[dict[str, Any]], data: Any) -> str:
    del data
    out = ["Issue 14 asks every core class to be faster than the best open core of its class "
           "in this flow (LFE5U-85F -6, the median over the placement seeds), at the "
           "architectures' cycle counts. Each core of this report against its class's figures; "
           "a core missing from the table was not in this report's cores or does not fit. "
           "What bounds a core that misses: docs/timing-closure.md (its critical path, the "
           "approaches measured, the bound in numbers); the critical path of every core's "
           "median seed is also in the section \"Critical paths\". The systems' targets are "
           "judged in their sections: `cipher_ahb` >= 100 MHz in paper 001's, ADAM's Fmax >= "
           "XDAM's in paper 000's.", "",
           "| class | core | Fmax MHz (median) | of the clock target | LUT4 | Mbit/s | "
           "Mbit/s per LUT4 | checks | verdict |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    met_n = total_n = 0
    class_lines: list[str] = []
    for t in CORE_TARGETS:
        verdicts, best, missing = judge(t, rows)
        for v in verdicts:
            total_n += 1
            met_n += v.met
            checks = "; ".join(f"{what}: {'yes' if ok else 'no'}" for what, ok in v.checks)
            out.append(f"| {t.name} | `{v.core}` | {v.fmax_mhz:.1f} | {_pct(v, t)} | "
                       f"{int(v.row.get('lut4') or 0):,} | {float(v.row.get('mbps') or 0):,.0f} | "
                       f"{float(v.row.get('mbps_per_lut') or 0):.3f} | {checks} | "
                       f"{'**met**' if v.met else 'not met'} |")
        if best:
            class_lines.append(f"- {t.name}: " + "; ".join(
                f"{what}: {'met' if ok else 'not met'}" for what, ok in best) + ".")
        if missing:
            class_lines.append(f"- {t.name}: no figure here for "
                               + ", ".join(f"`{c}`" for c in missing) + ".")
    if total_n == 0:
        return "No core of issue 14's classes has an Fmax in this report."
    out += ["", f"{met_n} of {total_n} cores meet their class's targets."]
    if class_lines:
        out += ["", "Class targets on the best core, and cores without a figure:", "",
                *class_lines]
    return "\n".join(out)
