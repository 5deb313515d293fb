"""The command line: registry listing, file encryption through the RTL core, and
clear errors (non-zero exit, nothing written) for bad input."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.cli import main
from aeskit.hw import CORES

FIELDS = {"name", "top", "files", "include_dirs", "parameters", "key_sizes", "decrypt",
          "latency", "interval", "paper"}


def test_cores_json_is_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in data] == [c.name for c in CORES]
    assert "round" in [d["name"] for d in data]
    for d in data:
        assert FIELDS <= set(d)
        for f in d["files"]:
            assert os.path.isabs(f) and Path(f).is_file(), f
        assert set(d["latency"]) == {str(k) for k in d["key_sizes"]}


def test_cores_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cores"]) == 0
    out = capsys.readouterr().out
    for c in CORES:
        assert c.name in out and c.top in out


def _openssl(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool) -> bytes:
    m = modes.ECB() if mode == "ecb" else (modes.CBC(iv) if mode == "cbc" else modes.CTR(iv))
    c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


@pytest.mark.parametrize("nbytes", [16, 24, 32])
def test_fips197_appendix_c_through_rtl(tmp_path: Path, nbytes: int) -> None:
    key = bytes(range(nbytes))
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    src, dst, back = tmp_path / "pt.bin", tmp_path / "ct.bin", tmp_path / "back.bin"
    src.write_bytes(pt)
    assert main(["encrypt", "--core", "round", "--mode", "ecb", "--key", key.hex(),
                 "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ecb", key, None, pt, False)
    assert main(["decrypt", "--core", "round", "--mode", "ecb", "--key", key.hex(),
                 "--check", str(dst), str(back)]) == 0
    assert back.read_bytes() == pt


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
def test_one_mebibyte_file(tmp_path: Path, mode: str) -> None:
    rng = random.Random(mode)
    data = rng.randbytes(1 << 20)
    key = rng.randbytes(32)
    iv = rng.randbytes(16)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    src.write_bytes(data)
    ivarg = [] if mode == "ecb" else ["--iv", iv.hex()]
    assert main(["encrypt", "--core", "round", "--mode", mode, "--key", key.hex(), *ivarg,
                 "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl(mode, key, iv, data, False)
    assert main(["decrypt", "--core", "round", "--mode", mode, "--key", key.hex(), *ivarg,
                 str(dst), str(back)]) == 0
    assert back.read_bytes() == data


def test_ctr_odd_length_with_stalls(tmp_path: Path) -> None:
    rng = random.Random(5)
    data = rng.randbytes(1000)
    key, iv = rng.randbytes(24), rng.randbytes(16)
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    assert main(["encrypt", "--mode", "ctr", "--key", key.hex(), "--iv", iv.hex(),
                 "--stall", "40", "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ctr", key, iv, data, False)


@pytest.mark.parametrize("args,msg", [
    (["--key", "00" * 15], "16, 24 or 32 bytes"),
    (["--key", "0g" * 16], "not hex"),
    (["--key", "0" * 31], "odd number of hex digits"),
    (["--key", "00" * 16, "--mode", "cbc"], "needs --iv"),
    (["--key", "00" * 16, "--mode", "cbc", "--iv", "00" * 8], "IV must be 16 bytes"),
    (["--key", "00" * 16, "--core", "nosuch"], "unknown core"),
])
def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                       msg: str) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(32))
    assert main(["encrypt", *args, str(src), str(dst)]) == 2
    assert msg in capsys.readouterr().err
    assert not dst.exists()


def test_missing_input_and_existing_output(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not dst.exists()
    src.write_bytes(bytes(16))
    dst.write_bytes(b"keep me")
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "--force" in capsys.readouterr().err
    assert dst.read_bytes() == b"keep me"
    assert main(["encrypt", "--key", "00" * 16, "--force", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ecb", bytes(16), None, bytes(16), False)


def test_ecb_partial_block_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(17))
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "whole number of 16-byte blocks" in capsys.readouterr().err
    assert not dst.exists()
