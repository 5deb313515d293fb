"""``aeskit bench filepath``: argument handling (one-line errors, exit 2, nothing built)
and a tiny run on ``round`` whose output the bench checks against OpenSSL. Speed is
never asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import aeskit.harness.modes
from aeskit.bench import filepath
from aeskit.bench.filepath import BenchError, parse_modes, parse_size_mib
from aeskit.cli import main
from aeskit.hw import get_core
from aeskit.crypt.bulk import parts


def _tripwire(*_a: object, **_k: object) -> None:
    raise AssertionError("built or simulated on bad input")


@pytest.mark.parametrize("argv, words", [
    (["--cores", "nosuch"], "unknown core 'nosuch'"),
    (["--cores", ","], "no core given"),
    (["--modes", "gcm"], "unknown mode 'gcm'"),
    (["--size-mib", "0"], "--size-mib must be more than 0"),
    (["--size-mib", "-3"], "--size-mib must be more than 0"),
    (["--size-mib", "lots"], "not a number"),
    (["--size-mib", "0.00001"], "less than one 16-byte block"),
    (["--jobs", "0"], "must be 1 or more"),
])
def test_bad_arguments(argv: list[str], words: str, capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aeskit.harness.modes, "build_mode_harness", _tripwire)
    try:
        code = main(["bench", "filepath", *argv])
    except SystemExit as exc:  # argparse's own checks (--jobs) exit from the parser
        code = int(exc.code or 0)
    assert code == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("aeskit: error: ") and words in lines[0], err


def test_parsers() -> None:
    assert parse_modes(None) == ["ecb", "ctr", "cbc"]
    assert parse_modes("ctr, cbc-dec,ctr") == ["ctr", "cbc-dec"]
    assert parse_size_mib("64") == 64 << 20
    assert parse_size_mib("0.0625") == 64 << 10
    assert parse_size_mib("0.0001") == 96  # whole blocks, rounded down
    with pytest.raises(BenchError):
        parse_size_mib("5000")


def test_parts_ivs() -> None:
    """The split the bulk path uses: whole blocks, the tail on the last part, CTR's
    counter advanced and CBC decryption's IV the ciphertext block before."""
    iv = (2**128 - 2).to_bytes(16, "big")
    data = bytes(range(256)) * 2
    block = lambda i: data[16 * i:16 * i + 16]  # noqa: E731
    ctr = parts("ctr", False, iv, 16 * 5 + 3, 2, block)
    assert [(p.offset, p.length) for p in ctr] == [(0, 48), (48, 35)]
    assert ctr[1].iv == (1).to_bytes(16, "big")  # wraps mod 2^128
    cbc = parts("cbc", True, iv, 160, 2, block)
    assert cbc[1].iv == block(4)
    assert len(parts("cbc", False, iv, 160, 2, block)) == 1  # sequential
    assert len(parts("ecb", False, iv, 16, 2, block)) == 1  # one block: one part


@pytest.mark.slow  # 45 s (make test-full); make test runs the file path in tests/aeskit/test_cli.py
def test_tiny_run_round(capsys: pytest.CaptureFixture[str]) -> None:
    """64 KiB on round in ECB, CTR and CBC: the bench checks every output against OpenSSL
    (a mismatch exits 1 with CHECK FAILED)."""
    assert main(["bench", "filepath", "--cores", "round", "--modes", "ecb,ctr,cbc,cbc-dec",
                 "--size-mib", "0.0625", "--json"]) == 0
    out, err = capsys.readouterr()
    recs = [json.loads(line) for line in out.splitlines()]
    assert [r["mode"] for r in recs] == ["ecb", "ctr", "cbc", "cbc-dec"], err
    for r in recs:
        assert r["core"] == "round" and r["size"] == 64 << 10 and r["cycles"] > 0
        # round: one block in flight, ten rounds per block (the engine adds none)
        assert r["cycles_per_block"] == pytest.approx(10.0, abs=0.1)


@pytest.mark.slow  # 35 s (a build of its own)
def test_check_failure_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A wrong result (OpenSSL's reference tampered with here) exits 1."""
    real = filepath._reference

    def wrong(*a: object) -> bytes:
        out = bytearray(real(*a))  # type: ignore[arg-type]
        out[20] ^= 1
        return bytes(out)

    monkeypatch.setattr(filepath, "_reference", wrong)
    assert main(["bench", "filepath", "--cores", "round", "--modes", "ctr",
                 "--size-mib", "0.001"]) == 1
    err = capsys.readouterr().err
    assert "CHECK FAILED" in err and "byte 20" in err, err


def test_run_one_direct(tmp_path: Path) -> None:
    """The library call behind the CLI (no CLI formatting)."""
    res = list(filepath.run_filepath([get_core("round")], ["ofb"], 4096, workdir=tmp_path))
    assert len(res) == 1 and res[0].parts == 1 and res[0].mb_s > 0
