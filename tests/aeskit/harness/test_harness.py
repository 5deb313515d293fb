"""The compiled harness on a fixture core: exact cycle stats, back-pressure, and that
it catches contract violations (a dropped, duplicated or stuck block)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aeskit.hw import manifest
from aeskit.hw.registry import CoreSpec
from aeskit.harness.core import Harness, HarnessError

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


@pytest.mark.parametrize("bulk", [False, True], ids=["core", "bulk"])
def test_core_contract_checker_is_bound(bulk: bool) -> None:
    """A core that breaks a contract rule the harness itself does not look at
    (hw/bench/contract: Fault 5 raises in_ready_o during the key setup) stops the
    checked harness with the rule's name; the file path's bulk harness, built without
    the case-statement checks, keeps the contract's."""
    from aeskit.hw.contract import fault_core
    core = fault_core(5)
    with Harness(core, bulk=bulk) as h:
        with pytest.raises(HarnessError, match="core contract C5"):
            h.load_key(bytes(16))
            h.run([bytes([i]) * 16 for i in range(6)])


def _write_blocks(path: Path, head: bytes, blocks: list[bytes]) -> None:
    path.write_bytes(head + b"".join(blocks))


@pytest.mark.parametrize("bulk", [False, True], ids=["core", "bulk"])
@pytest.mark.parametrize("latency,gap,stall", [(1, 0, 0), (3, 0, 0), (2, 30, 60)])
def test_file_command(tmp_path: Path, latency: int, gap: int, stall: int, bulk: bool) -> None:
    """The bulk ECB path's file command: the blocks at an offset of one file through the
    core into another file at another offset (the bytes around left alone), in order,
    in the same cycles as the run command; behind ak_bulk_top's input register
    (``bulk``) one cycle more, at the same interval."""
    rng = random.Random(latency * 1000 + gap + stall)
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    with Harness(fixture_core(latency), checked=False, bulk=bulk) as h:
        for decrypt in (False, True):
            key = rng.randbytes(32)
            h.load_key(key)
            blocks = [rng.randbytes(16) for _ in range(300)]
            _write_blocks(src, b"\x55" * 48, blocks)
            dst.write_bytes(b"\xaa" * (32 + 16 * 300 + 5))
            fr = h.run_file(src, dst, 16 * 300, decrypt, src_offset=48, dst_offset=32,
                            gap_pct=gap, stall_pct=stall, seed=3)
            got = dst.read_bytes()
            assert got[:32] == b"\xaa" * 32 and got[-5:] == b"\xaa" * 5
            assert got[32:-5] == b"".join(expected(key, blocks, decrypt))
            _, st = h.run(blocks, decrypt, gap_pct=gap, stall_pct=stall, seed=3)
            if not bulk:
                assert fr.cycles == st.cycles
            if not gap and not stall:
                # a block every `latency` edges, the last result taken at edge 300 * latency
                # (edges counted from 0), one edge later behind the input register
                assert fr.cycles == latency * 300 + 1 + int(bulk)
                assert st.cycles == fr.cycles
            assert fr.seconds > 0 and fr.cpu_seconds > 0


def test_bulk_top_key_reloads_and_latency() -> None:
    """The bulk harness (ak_bulk_top): key reloads between runs, random gaps and stalls,
    every block under its key, in order, and the core's latency plus the input
    register's cycle."""
    rng = random.Random(11)
    with Harness(fixture_core(3), checked=False, bulk=True) as h:
        for _ in range(3):
            key = rng.randbytes(32)
            h.load_key(key)
            blocks = [rng.randbytes(16) for _ in range(40)]
            out, st = h.run(blocks, gap_pct=20, stall_pct=20, seed=rng.randrange(99))
            assert out == expected(key, blocks, False)
            assert st.latency_min == 3 + 1


def test_file_command_spans_chunks(tmp_path: Path) -> None:
    """More blocks than the harness reads or writes at a time (65,536)."""
    rng = random.Random(9)
    n = (1 << 16) + 37
    data = rng.randbytes(16 * n)
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    dst.write_bytes(b"")
    with Harness(fixture_core(1), checked=False) as h:
        key = rng.randbytes(32)
        h.load_key(key)
        assert h.run_file(src, dst, len(data)).cycles == n + 1
    k = int.from_bytes(key[:16], "big")
    want = b"".join((int.from_bytes(data[i:i + 16], "big") ^ k).to_bytes(16, "big")
                    for i in range(0, len(data), 16))
    assert dst.read_bytes() == want


@pytest.mark.parametrize("fault,msg", [(1, "tag mismatch"), (2, "tag mismatch|no block in flight"),
                                       (3, "no progress")])
def test_file_command_catches_violations(tmp_path: Path, fault: int, msg: str) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(b"".join(bytes([i]) * 16 for i in range(12)))
    dst.write_bytes(b"")
    with Harness(fixture_core(2, fault), checked=False) as h:
        h.load_key(bytes(32))
        with pytest.raises(HarnessError, match=msg):
            h.run_file(src, dst, 16 * 12)


def test_file_command_bad_inputs(tmp_path: Path) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(64))
    dst.write_bytes(b"")
    with Harness(fixture_core(2), checked=False) as h:
        with pytest.raises(HarnessError, match="load a key"):
            h.run_file(src, dst, 64)
        h.load_key(bytes(16))
        with pytest.raises(ValueError, match="whole 16-byte blocks"):
            h.run_file(src, dst, 40)
        with pytest.raises(ValueError, match="spaces"):
            h.run_file(tmp_path / "a b", dst, 16)
    with Harness(fixture_core(2), checked=False) as h:
        h.load_key(bytes(16))
        with pytest.raises(HarnessError, match="shorter than the message"):
            h.run_file(src, dst, 128)
    with Harness(fixture_core(2), checked=False) as h:
        h.load_key(bytes(16))
        with pytest.raises(HarnessError, match="cannot open"):
            h.run_file(tmp_path / "missing.bin", dst, 16)
