"""aeskit.crypt.bulk: which harness each core's file path builds, and the deep engine
(InFlight > 2) keeping an unrolled core full in the independent modes, checked against
OpenSSL under random gaps and stalls."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.crypt.bulk import bulk_build, crypt_file
from aeskit.crypt.filecrypt import reference_crypt
from aeskit.harness.modes import LEAN, LEAN1


def test_bulk_build_per_core() -> None:
    """One stream for a core that holds at most two blocks, two streams with each
    stream's share of the blocks in flight (latency / interval, plus two) otherwise."""
    assert bulk_build(get_core("round")) == LEAN1
    assert bulk_build(get_core("pipe2")) == LEAN1  # latency 20, interval 10
    b = bulk_build(get_core("ttable_unrolled"))     # latency 83, interval 1
    assert (b.streams, b.aead, b.in_flight) == (2, False, 44)
    assert bulk_build(get_core("ttable_unrolled_256")).in_flight == 60  # 115
    assert bulk_build(get_core("tbox_unfolded")).in_flight == 8       # 12
    assert bulk_build(get_core("ttable_col")).in_flight == 4          # 85 / 40
    assert LEAN.in_flight == 2 and "f" not in LEAN.name
    assert b.name == "s2-lean-f44"


@pytest.mark.parametrize("mode,decrypt", [("ctr", False), ("cbc", True), ("cfb", True)])
def test_deep_engine_keeps_the_core_full(tmp_path: Path, mode: str, decrypt: bool) -> None:
    """tbox_unfolded (latency 12, a block per cycle) through the engine built with
    InFlight 8: the output equals OpenSSL's with random gaps and stalls, and without
    them the core takes a block in nearly every cycle (two streams of 1,000 blocks: the
    2,000 blocks in at most 100 cycles more than 2,000, where two blocks per stream in
    flight, the default, would take 2,000 / 4 x 12 = 6,000)."""
    core = get_core("tbox_unfolded")
    rng = random.Random(f"{mode}{decrypt}")
    key, iv = rng.randbytes(16), rng.randbytes(16)
    data = rng.randbytes(16 * 2000 + (0 if mode == "cbc" else 7))
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    want = reference_crypt(mode, key, iv, data, decrypt)
    run = crypt_file(core, mode, key, iv, src, dst, decrypt)
    assert dst.read_bytes() == want
    assert run.parts == 2
    assert 2000 <= run.cycles <= 2100, run.cycles
    run = crypt_file(core, mode, key, iv, src, dst, decrypt, gap_pct=30, stall_pct=40, seed=9)
    assert dst.read_bytes() == want
