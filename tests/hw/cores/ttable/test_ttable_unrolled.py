"""ak_ttable_unrolled (registry ``ttable_unrolled``, ``ttable_unrolled_192``,
``ttable_unrolled_256``: paper 004's unrolled pipeline, key size a build parameter)
on Verilator.

NIST ECB KAT/MMT (both directions) for the built key size; exact latency, interval 1
and key setup; random differential tests with gaps and stalls; a full-rate stream
(one block offered every cycle) under random back-pressure; key changes; reset and
refused key lengths. The cocotb side is ``ttable_tb.py``. The 192/256-bit builds run
under ``-m slow``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.testbench import corebench
from aeskit.testbench.corebench import rotation

HERE = Path(__file__).resolve().parent


def _run(name: str, testcase: str | list[str], **env: object) -> None:
    core = get_core(name)
    corebench.run(core, "ttable_tb", HERE, testcase, tag_width=4, claims=rotation(core), **env)


def test_ttable_unrolled_claims() -> None:
    for name, ks, nr in (("ttable_unrolled", 128, 10), ("ttable_unrolled_192", 192, 12),
                         ("ttable_unrolled_256", 256, 14)):
        core = get_core(name)
        assert core.key_sizes == (ks,)
        assert core.latency == {ks: 8 * nr + 1 + 2} and core.interval == {ks: 1}
        assert core.in_flight == 128  # the output buffer: the power of two >= 8 Nr + 3


def test_ttable_unrolled_128() -> None:
    _run("ttable_unrolled", ["cocotb_kat", "cocotb_exact_timing", "cocotb_random",
                             "cocotb_full_rate", "cocotb_key_change",
                             "cocotb_reset_and_illegal_key"],
         AK_KEY_SIZE=128, AK_BLOCKS=400, AK_GAP=0.3, AK_STALL=0.4)


@pytest.mark.slow
@pytest.mark.parametrize("name,ks", [("ttable_unrolled_192", 192), ("ttable_unrolled_256", 256)])
def test_ttable_unrolled_wide_keys(name: str, ks: int) -> None:
    _run(name, ["cocotb_kat", "cocotb_exact_timing", "cocotb_random", "cocotb_full_rate",
                "cocotb_reset_and_illegal_key"],
         AK_KEY_SIZE=ks, AK_BLOCKS=400, AK_GAP=0.3, AK_STALL=0.4)


@pytest.mark.slow
def test_ttable_unrolled_e128() -> None:
    """The encrypt-only AES-128 configuration (Directions = 1, every middle stage
    packed): the encryption KATs, timing as the full build's, random stalled blocks,
    full rate, key changes, reset and refused keys; the decryption refusal in
    tests/hw/bench/contract/test_core_refusal.py."""
    core, full = get_core("ttable_unrolled_e128"), get_core("ttable_unrolled")
    assert not core.decrypt and core.parameters == {"KeyLen": 0, "Directions": 1}
    assert (core.latency, core.interval, core.key_setup, core.in_flight) == \
        (full.latency, full.interval, full.key_setup, full.in_flight)
    _run("ttable_unrolled_e128", ["cocotb_kat", "cocotb_exact_timing", "cocotb_random",
                                  "cocotb_full_rate", "cocotb_key_change",
                                  "cocotb_reset_and_illegal_key"],
         AK_KEY_SIZE=128, AK_BLOCKS=400, AK_GAP=0.3, AK_STALL=0.4)
