"""The README's table of measured cores carries the figures of the report's records
(results/synth: every seed of a core), so it cannot drift from them."""

from __future__ import annotations

import json
import re
from pathlib import Path

from aeskit.hw.registry import get_core

ROOT = Path(__file__).resolve().parents[2]
ROW = re.compile(r"^\| `(?P<core>\w+)` \| (?P<ks>\d+) \| (?P<rest>.*) \|$")


def _rows() -> dict[str, tuple[int, list[str]]]:
    text = (ROOT / "README.md").read_text()
    start = text.index("<!-- figures: tests/docs/test_readme_figures.py")
    rows: dict[str, tuple[int, list[str]]] = {}
    for line in text[start:].splitlines()[3:]:
        m = ROW.match(line)
        if not m:
            break
        rows[m["core"]] = (int(m["ks"]), [c.strip() for c in m["rest"].split("|")])
    return rows


def _expected(core: str) -> tuple[int, list[str]]:
    """The cells of a core's row computed from its three seeds' records."""
    recs = []
    for suffix in ("", "~seed2", "~seed3"):
        data = json.loads((ROOT / "results" / "synth" / f"{core}{suffix}.json").read_text())
        recs.append(data["data"])
    recs.sort(key=lambda r: float(r["fmax_mhz"]))
    med = recs[1]
    spec = get_core(core)
    ks = 128 if 128 in spec.interval else next(iter(spec.interval))
    mbps = 128.0 * float(med["fmax_mhz"]) / float(spec.interval[ks])
    return ks, [f"{med['lut4']:,}", f"{med['ff']:,}", str(med["ebr"]),
                f"{med['fmax_mhz']:.1f} ({recs[0]['fmax_mhz']:.1f}-{recs[2]['fmax_mhz']:.1f})",
                f"{mbps:,.0f}", f"{mbps / med['lut4']:.3f}"]


def test_readme_figures_match_the_records() -> None:
    from aeskit.hw.registry import core_names

    rows = _rows()
    # every registry core has its row, and no row names another; a configuration
    # (docs/core-contract.md "Configurations": a Directions parameter) has one once
    # it has been placed and routed (its records in results/synth)
    assert set(rows) <= set(core_names())
    configs = {n for n in core_names() if "Directions" in get_core(n).parameters}
    measured = {n for n in configs if (ROOT / "results" / "synth" / f"{n}.json").exists()}
    assert sorted(rows) == sorted(n for n in core_names() if n not in configs - measured)
    for core, got in rows.items():
        assert got == _expected(core), core
