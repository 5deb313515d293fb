"""ak_ttable_col (registry ``ttable_col``, paper 004's basic module) on Verilator.

NIST ECB KAT/MMT for 128/192/256-bit keys in both directions; exact latency, accept
spacing and key setup; random differential tests with gaps and stalls; a full-rate
stream under random back-pressure; key changes; reset and the illegal key length.
The cocotb side is ``ttable_tb.py`` (shared by the three ttable_* tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.testbench import corebench
from aeskit.testbench.corebench import rotation

HERE = Path(__file__).resolve().parent
CORE = get_core("ttable_col")


def _run(testcase: str | list[str], **env: object) -> None:
    corebench.run(CORE, "ttable_tb", HERE, testcase, tag_width=4, claims=rotation(CORE), **env)


def test_ttable_col_claims() -> None:
    assert CORE.latency == {128: 85, 192: 101, 256: 117}
    assert CORE.interval == {128: 40, 192: 48, 256: 56}
    assert CORE.in_flight == 2 and CORE.decrypt


@pytest.mark.parametrize("key_size", [128, 192, 256])
def test_ttable_col_kat(key_size: int) -> None:
    _run("cocotb_kat", AK_KEY_SIZE=key_size, AK_GAP=0.1 if key_size == 192 else 0.0,
         AK_STALL=0.3 if key_size == 192 else 0.0)


def test_ttable_col_timing_and_control() -> None:
    _run(["cocotb_exact_timing", "cocotb_key_change", "cocotb_reset_and_illegal_key"])


@pytest.mark.parametrize("gap,stall", [(0.0, 0.5), (0.5, 0.5)])
def test_ttable_col_random(gap: float, stall: float) -> None:
    _run(["cocotb_random", "cocotb_full_rate"], AK_BLOCKS=300, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=int(10 * gap) + 1)
