"""A report dict as run_report writes it, without synthesis or simulation: rows that fit
and one that does not, three seeds and one, provenance present, partial and absent,
family_rows on the four devices (fits, misfits, one that does not route), sections with
and without tables."""

from __future__ import annotations

from typing import Any

import pytest

DEVICES = [("ECP5", "LFE5U-85F", 83640), ("iCE40", "iCE40-UP5K", 5280),
           ("iCE40", "iCE40-HX8K", 7680), ("Nexus", "LIFCL-40", 32256)]


def _row(core: str, ks: int, lut4: int, interval: float, seeds: dict[str, float | None],
         provenance: dict[str, str] | None, misfit: str | None = None) -> dict[str, Any]:
    timed = sorted(v for v in seeds.values() if v is not None)
    fmax = timed[(len(timed) - 1) // 2] if timed and not misfit else None
    mbps = 128.0 * fmax / interval if fmax else None
    row: dict[str, Any] = {
        "core": core, "key_size": ks, "paper": "p", "latency": 10, "latency_dec": 10,
        "interval": interval, "interval_dec": interval, "key_setup": 11,
        "claimed_latency": 10, "claimed_interval": interval, "claimed_key_setup": 11,
        "lut4": lut4, "ff": lut4 // 2, "ebr": 0, "dsp": 0, "fmax_mhz": fmax,
        "fmax_min": timed[0] if fmax else None, "fmax_max": timed[-1] if fmax else None,
        "fmax_seeds": seeds if not misfit else {},
        "fmax_spread": f"{timed[0]:.1f}-{timed[-1]:.1f}" if fmax and len(timed) > 1 else None,
        "critical_path": None, "lut_levels": None, "ge": None, "depth": None,
        "device": "LFE5U-85F", "does_not_fit": misfit, "mbps": mbps,
        "mbps_per_lut": mbps / lut4 if mbps else None, "kbps_per_ge": None,
        "tests_passed": 10, "tests_total": 10, "tests_ok": True, "claims_ok": True,
        "errors": []}
    if provenance is not None:
        row["provenance"] = provenance
    return row


def _family_row(core: str, ks: int, family: str, device: str, avail: int, lut4: int,
                interval: float, fmax: float | None, routes: bool = True) -> dict[str, Any]:
    fits = lut4 <= avail
    f = fmax if fits and routes else None
    mbps = 128.0 * f / interval if f else None
    return {"core": core, "key_size": ks, "family": family, "device": device, "lut4": lut4,
            "ff": lut4 // 2, "ebr": 4, "dsp": 0, "fmax_mhz": f, "interval": interval,
            "mbps": mbps, "mbps_per_lut": mbps / lut4 if mbps else None,
            "does_not_fit": None if fits else
            f"does not fit (needs {lut4:,} of {avail:,} LUT4)",
            "utilisation": {"LUT4": [lut4, avail], "FF": [lut4 // 2, avail]} if avail else {},
            "provenance": {"synth": "measured now", "sim": "reused 1a2b3c4"}}


def make_report() -> dict[str, Any]:
    now = {"synth": "measured now", "sim": "measured now"}
    rows = [_row("round", ks, 2100, float(ks // 32 + 6), {"1": 71.0, "2": 68.5, "3": 74.2},
                 now) for ks in (128, 192, 256)]
    rows.append(_row("pipe2", 128, 3400, 10.0, {"1": 90.1, "2": 95.3, "3": 88.0},
                     {"synth": "reused 1a2b3c4", "sim": "measured now"}))
    rows.append(_row("tbox_folded", 128, 1500, 10.0, {"1": 60.0}, {"synth": "reused 9f9f9f9"}))
    rows.append(_row("ttable_unrolled", 128, 90000, 1.0, {}, None,
                     misfit="does not fit (needs 220 of 208 DP16KD)"))
    # a design with more area and less throughput than pipe2: off the front
    rows.append(_row("lutz", 128, 5000, 10.0, {"1": 50.0, "2": 52.0}, now))
    fam = []
    for family, device, avail in DEVICES:
        scale = {"LFE5U-85F": 1.0, "iCE40-UP5K": 0.4, "iCE40-HX8K": 0.7, "LIFCL-40": 1.3}[device]
        for core, lut4, itv, fmax in (("round", 2100, 10.0, 70.0), ("pipe2", 3400, 10.0, 92.0),
                                      ("tbox_folded", 1500, 10.0, 60.0),
                                      ("ttable_unrolled", 13685, 1.0, 50.0),
                                      ("lutz", 5000, 10.0, 51.0)):
            fam.append(_family_row(core, 128, family, device, avail, lut4, itv, fmax * scale,
                                   routes=not (device == "iCE40-HX8K" and core == "lutz")))
    sections = [{"title": "Critical paths",
                 "markdown": "Worst path.\n\n| core | Fmax |\n| --- | --- |\n| round | 71.0 |"},
                {"title": "Paper 003", "markdown": "Text only, `code` and **bold**.\n\n- a\n- b"},
                {"title": "Paper 004", "markdown": "| a | b |\n|---|---|\n| 1 | 2 |\n\nMore.\n\n"
                                                   "| c |\n|---|\n| 3 |"}]
    return {"aeskit_version": "test", "generated": "2026-01-01 00:00:00",
            "flow": {"device": "LFE5U-85F-6BG381C (CABGA381, speed 6), out of context, "
                               "seeds 1, 2, 3", "throughput": "Mbps = 128 * Fmax / interval"},
            "rows": rows, "sections": sections, "family_rows": fam}


@pytest.fixture
def fixture_report() -> dict[str, Any]:
    return make_report()
