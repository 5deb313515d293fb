"""Tests of the report section "Clock targets (issue 14)"
(aeskit.report.sections.targets): each core against its class's figures."""

from __future__ import annotations

from typing import Any

from aeskit.report.sections import targets


def _row(core: str, fmax: float | None, lut4: int, *, ks: int = 128, mbps: float = 0.0,
         per_lut: float = 0.0) -> dict[str, Any]:
    return {"core": core, "key_size": ks, "fmax_mhz": fmax, "lut4": lut4, "mbps": mbps,
            "mbps_per_lut": per_lut}


def _target(name: str) -> targets.CoreTarget:
    return next(t for t in targets.CORE_TARGETS if t.name.startswith(name))


def test_every_core_of_the_issue_has_its_class() -> None:
    """The issue's list: six LUT-only round cores, three block-RAM round cores, five
    one-block-per-cycle cores (every key size of the unrolled T-table), pipe2; each in
    the registry."""
    from aeskit.hw.registry import core_names

    named = [c for t in targets.CORE_TARGETS for c in t.cores]
    assert sorted(named) == sorted([
        "round", "ueno", "ueno_mux", "satoh", "lutz", "liu", "ttable_col", "ttable_round",
        "tbox_folded", "tbox_unfolded", "tbox_unfolded_pp", "ttable_unrolled",
        "ttable_unrolled_192", "ttable_unrolled_256", "pipe2"])
    assert set(named) <= set(core_names())


def test_unrolled_class_needs_both_the_clock_and_the_lut_bound() -> None:
    t = _target("one block per cycle")
    rows = [_row("ttable_unrolled", 210.0, 4690), _row("tbox_unfolded_pp", 205.0, 8001),
            _row("ttable_unrolled_256", 110.0, 7253, ks=256),
            _row("tbox_unfolded", None, 5106)]
    verdicts, best, missing = targets.judge(t, rows)
    assert [(v.core, v.fmax_mhz, v.met) for v in verdicts] == [
        ("tbox_unfolded_pp", 205.0, False), ("ttable_unrolled", 210.0, True),
        ("ttable_unrolled_256", 110.0, False)]
    assert dict(verdicts[0].checks) == {">= 200 MHz": True, "<= 8,000 LUT4": False}
    assert best == [] and missing == ["tbox_unfolded", "ttable_unrolled_192"]


def test_a_core_built_for_one_key_size_is_judged_on_that_row() -> None:
    t = _target("one block per cycle")
    verdicts, _, _ = targets.judge(t, [_row("ttable_unrolled_256", 110.0, 7253, ks=256)])
    assert [(v.core, v.fmax_mhz, v.met) for v in verdicts] == [("ttable_unrolled_256", 110.0,
                                                                 False)]


def test_round_class_best_core_targets() -> None:
    """Every core >= 100 MHz; the best >= 125 MHz and the best >= 0.20 Mbit/s per LUT4,
    each judged on the class's best figure (which may come from different cores)."""
    t = _target("round, LUT only")
    rows = [_row("round", 130.0, 12000, per_lut=0.11), _row("ueno", 101.0, 5000, per_lut=0.21),
            _row("satoh", 99.9, 9000, per_lut=0.05)]
    verdicts, best, _ = targets.judge(t, rows)
    assert [(v.core, v.met) for v in verdicts] == [("round", True), ("ueno", True),
                                                   ("satoh", False)]
    assert best == [("the best >= 125 MHz (130.0)", True),
                    ("the best >= 0.2 Mbit/s per LUT4 (0.210)", True)]
    _, best, _ = targets.judge(t, [_row("round", 124.9, 12000, per_lut=0.199)])
    assert [ok for _, ok in best] == [False, False]


def test_tbox_folded_needs_its_throughput_too() -> None:
    t = _target("round, block RAM (paper 003")
    ok, _, _ = targets.judge(t, [_row("tbox_folded", 201.0, 3000, mbps=2572.8)])
    slow, _, _ = targets.judge(t, [_row("tbox_folded", 201.0, 3000, mbps=2400.0)])
    assert (ok[0].met, slow[0].met) == (True, False)


def test_render_counts_and_names_the_verdicts() -> None:
    rows = [_row("ttable_col", 208.8, 3196, mbps=2672.6, per_lut=0.836),
            _row("pipe2", 92.9, 9067, mbps=1189.1, per_lut=0.131)]
    md = targets.render(rows, None)
    assert "| round, block RAM | `ttable_col` | 208.8 | 104 % | 3,196 | 2,673 | 0.836 | " \
           ">= 200 MHz: yes | **met** |" in md
    assert "| two streams (paper 001) | `pipe2` | 92.9 | 74 % | 9,067 | 1,189 | 0.131 | " \
           ">= 125 MHz: no | not met |" in md
    assert "1 of 2 cores meet their class's targets." in md
    assert "no figure here for `ttable_round`" in md
    assert targets.render([], None).startswith("No core")
