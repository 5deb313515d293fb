"""Tests of the report's first table, "Pick by need" (aeskit.report.pick): each
question answered from the rows, with the runner-up, and said plainly when no row
answers it."""

from __future__ import annotations

from typing import Any

from aeskit.report import pick


def _row(core: str, lut4: int, fmax: float | None, interval: int, *, ebr: int = 0,
         ks: int = 128, device: str | None = None) -> dict[str, Any]:
    mbps = 128.0 * fmax / interval if fmax else None
    r = {"core": core, "key_size": ks, "lut4": lut4, "ebr": ebr, "fmax_mhz": fmax,
         "mbps": mbps, "mbps_per_lut": mbps / lut4 if mbps else None}
    if device:
        r["device"] = device
    return r


def _answers(report: dict[str, Any]) -> dict[str, tuple[str | None, str | None]]:
    return {p.need: (p.row["core"] if p.row else None,
                     p.runner_up["core"] if p.runner_up else None)
            for p in pick.picks(report)}


def test_each_need_has_its_core() -> None:
    rows = [_row("small", 2000, 100.0, 44), _row("lut_only", 5000, 90.0, 10),
            _row("ram", 1500, 200.0, 10, ebr=12), _row("unrolled", 4700, 120.0, 1, ebr=156),
            _row("lut_only", 5200, 80.0, 12, ks=192), _row("unplaced", 100, None, 10)]
    fam = [_row("small", 3000, 40.0, 44, device="iCE40-UP5K"),
           {**_row("lut_only", 9000, None, 10, device="iCE40-UP5K"),
            "does_not_fit": "does not fit"}]
    got = _answers({"rows": rows, "family_rows": fam})
    assert got["smallest, no block RAM"] == ("small", "lut_only")
    assert got["fewest LUT4, block RAM allowed"] == ("ram", "small")
    assert got["fastest (Mbit/s)"] == ("unrolled", "ram")
    # 15,360 Mbit/s / 4,700 LUT4 = 3.27 against 2,560 / 1,500 = 1.71
    assert got["best Mbit/s per LUT4, block RAM allowed"] == ("unrolled", "ram")
    # without block RAM: 1,152 / 5,000 = 0.230 against 291 / 2,000 = 0.145
    assert got["best Mbit/s per LUT4, no block RAM"] == ("lut_only", "small")
    assert got["fits an iCE40-UP5K (fewest logic cells)"] == ("small", None)


def test_markdown_says_when_nothing_fits() -> None:
    md = pick.picks_markdown({"rows": [_row("a", 100, 50.0, 10)], "family_rows": []})
    assert md.splitlines()[0] == "| " + " | ".join(pick.HEADER) + " |"
    assert "| fits an iCE40-UP5K (fewest logic cells) | no core fits the iCE40-UP5K in " \
        "this report |" in md
    assert "| smallest, no block RAM | `a` | 128 | 100 | 0 | 50.0 | 640 | 6.400 | - |" in md
