"""Tests of the report section "Against the open peers (issue 48)"
(aeskit.report.sections.peers): the peers' figures, each class's encrypt-only AES-128
build beside its full build, and issue 48's targets judged on the rows."""

from __future__ import annotations

from typing import Any

from aeskit.report.sections import peers


def _row(core: str, fmax: float | None, lut4: int, interval: int, *, ks: int = 128,
         ebr: int = 0) -> dict[str, Any]:
    mbps = 128.0 * fmax / interval if fmax else None
    return {"core": core, "key_size": ks, "fmax_mhz": fmax, "lut4": lut4, "ff": 100,
            "ebr": ebr, "interval": interval, "mbps": mbps,
            "mbps_per_lut": mbps / lut4 if mbps else None, "fmax_spread": "80.0-90.0"}


def test_peer_figures_follow_from_the_measurements() -> None:
    """Mbit/s and Mbit/s per LUT4 of the issue's table, from interval, Fmax and LUT4."""
    u = peers.PEERS[0]
    assert round(u.mbps) == 1040 and round(u.mbps_per_lut, 3) == 0.230
    tiny = next(p for p in peers.PEERS if p.name.startswith("tiny_aes `aes_128`"))
    assert round(tiny.mbps) == 18483 and round(tiny.mbps_per_lut, 3) == 0.462
    sec = next(p for p in peers.PEERS if p.name.startswith("secworks"))
    assert round(sec.mbps) == 123


def test_every_class_names_registry_builds() -> None:
    """Each pair is an encrypt-only AES-128 configuration and its full build."""
    from aeskit.hw.registry import core_names, get_core

    names = set(core_names())
    for _, pairs in peers.CLASSES:
        for e128, full in pairs:
            assert full in names, full
            if e128 in names:  # (the configurations land class by class)
                spec = get_core(e128)
                assert spec.key_sizes == (128,) and not spec.decrypt, e128


def test_render_shows_both_builds_and_judges_the_targets() -> None:
    rows = [_row("round_e128", 86.7, 5128, 11), _row("round", 73.2, 12385, 11),
            _row("pipe2_e128", 106.3, 6482, 10), _row("round", 70.0, 12385, 13, ks=256)]
    text = peers.render(rows, None)
    assert "| `round_e128` | enc, 128 | 11 | 5,128 | 100 | 0 | 86.7 (80.0-90.0) | 1,009 |" \
        in text
    assert "| `round` | enc+dec, 128/192/256 | 11 | 12,385 |" in text
    # the LUT-only target: the best of the class (round_e128, 0.197) misses 0.30
    assert "`round_e128` 0.197 at 86.7 MHz: not met" in text
    # pipe2_e128: 1,361 Mbit/s / 6,482 = 0.210, below Usselmann's 0.230
    assert "`pipe2_e128` past Usselmann's 0.230 Mbit/s per LUT4: 0.210: not met" in text
    # a build without a row is named, not left out silently
    assert "`ttable_unrolled_e128`" in text.split("No figure in this report")[1]


def test_a_build_past_the_peer_is_met() -> None:
    rows = [_row("liu_e128", 150.0, 2000, 11)]
    text = peers.render(rows, None)
    assert "`liu_e128` 0.873 at 150.0 MHz: **met**" in text
    assert "`liu_e128` past Usselmann's 0.230 Mbit/s per LUT4: 0.873: **met**" in text
