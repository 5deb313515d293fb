"""The compiled harness on a fixture core: exact cycle stats, back-pressure, and that
it catches contract violations (a dropped, duplicated or stuck block)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aeskit.hw import manifest
from aeskit.hw.registry import CoreSpec
from aeskit.sim.harness import Harness, HarnessError

#: the fixture core's folder (RTL and manifest), an extra manifest root while a test runs
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture(autouse=True)
def _fixture_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(manifest.EXTRA_ENV, str(FIXTURES))


def fixture_core(latency: int = 3, fault: int = 0) -> CoreSpec:
    return CoreSpec(name=f"fixture-l{latency}-f{fault}", top="ak_fixture_core",
                    manifest="aeskit:fixture:fixture_core", description="harness test fixture",
                    paper="-", parameters={"Latency": latency, "Fault": fault})


def expected(key: bytes, blocks: list[bytes], decrypt: bool) -> list[bytes]:
    k = int.from_bytes(key[:16], "big")
    m = (1 << 128) - 1 if decrypt else 0
    return [(int.from_bytes(b, "big") ^ k ^ m).to_bytes(16, "big") for b in blocks]


@pytest.mark.parametrize("latency", [1, 3, 7])
def test_exact_cycle_stats(latency: int) -> None:
    rng = random.Random(latency)
    with Harness(fixture_core(latency), checked=False) as h:
        key = rng.randbytes(32)
        assert h.load_key(key) == 1
        blocks = [rng.randbytes(16) for _ in range(20)]
        out, st = h.run(blocks)
        assert out == expected(key, blocks, False)
        assert st.latency_first == st.latency_min == st.latency_max == latency
        assert st.interval == latency
        assert st.accept_last - st.accept_first == latency * 19


@pytest.mark.parametrize("gap,stall", [(0, 50), (50, 0), (30, 70)])
def test_backpressure_keeps_every_block(gap: int, stall: int) -> None:
    rng = random.Random(gap * 100 + stall)
    with Harness(fixture_core(2), checked=False) as h:
        for decrypt in (False, True):
            key = rng.randbytes(32)
            h.load_key(key)
            blocks = [rng.randbytes(16) for _ in range(500)]
            out, st = h.run(blocks, decrypt, gap_pct=gap, stall_pct=stall, seed=7)
            assert out == expected(key, blocks, decrypt)
            assert st.latency_max >= st.latency_min >= 2


@pytest.mark.parametrize("fault,msg", [(1, "tag mismatch"), (2, "tag mismatch|no block in flight"),
                                       (3, "no progress")])
def test_contract_violations_are_caught(fault: int, msg: str) -> None:
    with Harness(fixture_core(2, fault), checked=False) as h:
        h.load_key(bytes(32))
        with pytest.raises(HarnessError, match=msg):
            h.run([bytes([i]) * 16 for i in range(12)])


def test_bad_inputs_are_refused() -> None:
    with Harness(fixture_core(2), checked=False) as h:
        with pytest.raises(HarnessError, match="load a key"):
            h.run([bytes(16)])
        with pytest.raises(ValueError, match="16, 24 or 32 bytes"):
            h.load_key(bytes(20))
        h.load_key(bytes(16))
        with pytest.raises(ValueError, match="16 bytes"):
            h.run([bytes(15)])


def test_core_contract_checker_is_bound() -> None:
    """A core that breaks a contract rule the harness itself does not look at
    (hw/bench/contract: Fault 5 raises in_ready_o during the key setup) stops the
    checked harness with the rule's name."""
    from aeskit.hw.contract import fault_core
    core = fault_core(5)
    with Harness(core) as h:
        with pytest.raises(HarnessError, match="core contract C5"):
            h.load_key(bytes(16))
            h.run([bytes([i]) * 16 for i in range(6)])
