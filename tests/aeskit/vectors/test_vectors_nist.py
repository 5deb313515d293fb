"""The golden model against every applicable NIST CAVP file: KAT and MMT (ECB, CBC,
CFB128, OFB), Monte Carlo (CBC, CFB128, OFB), CCM (VADT, VNT, VPT, VTT, DVPT) and
the AES-CTR files. One test per file; a failure names FILE:LINE of the record.

The full Monte Carlo runs (100 x 1000 blocks per section) are ``slow``; the quick
suite runs the first two outer iterations of each section and, restarting from the
file's record 99, the last one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.model import (
    AES,
    TagMismatchError,
    cbc_decrypt,
    cbc_encrypt,
    ccm_decrypt,
    ccm_encrypt,
    cfb128_decrypt,
    cfb128_encrypt,
    ctr_crypt,
    ecb_decrypt,
    ecb_encrypt,
    ofb_crypt,
    run_mct,
)
from aeskit.vectors import (
    BlockVector,
    MctVector,
    block_files,
    ccm_files,
    ctr_files,
    mct_files,
    parse_block_file,
    parse_ccm_file,
    parse_mct_file,
)

MODES = ("ECB", "CBC", "CFB128", "OFB")


def run_block(v: BlockVector) -> bytes:
    """The model's output for a record: ciphertext if encrypting, plaintext if decrypting."""
    aes = AES(v.key)
    data = v.ciphertext if v.decrypt else v.plaintext
    if v.mode == "ECB":
        return ecb_decrypt(aes, data) if v.decrypt else ecb_encrypt(aes, data)
    assert v.iv is not None
    if v.mode == "CBC":
        return cbc_decrypt(aes, v.iv, data) if v.decrypt else cbc_encrypt(aes, v.iv, data)
    if v.mode == "CFB128":
        return cfb128_decrypt(aes, v.iv, data) if v.decrypt else cfb128_encrypt(aes, v.iv, data)
    if v.mode == "OFB":
        return ofb_crypt(aes, v.iv, data)
    if v.mode == "CTR":
        return ctr_crypt(aes, v.iv, data)
    raise AssertionError(f"no model for mode {v.mode}")


def check_block_file(path: Path) -> int:
    records = parse_block_file(path)
    assert records
    for v in records:
        expected = v.plaintext if v.decrypt else v.ciphertext
        assert run_block(v) == expected, f"{v.file}:{v.line}"
    return len(records)


@pytest.mark.parametrize(
    "path", [p for m in MODES for p in block_files(m)], ids=lambda p: p.name
)  # fmt: skip
def test_kat_and_mmt(path: Path) -> None:
    check_block_file(path)


@pytest.mark.parametrize("path", ctr_files(), ids=lambda p: p.name)
def test_ctr(path: Path) -> None:
    check_block_file(path)


@pytest.mark.parametrize("path", ccm_files(), ids=lambda p: p.name)
def test_ccm(path: Path) -> None:
    records = parse_ccm_file(path)
    assert records
    for v in records:
        where = f"{v.file}:{v.line}"
        aes = AES(v.key)
        if v.expect_pass is False:
            with pytest.raises(TagMismatchError):
                ccm_decrypt(aes, v.nonce, v.adata, v.ct, v.tag_len)
            continue
        assert v.payload is not None
        assert ccm_decrypt(aes, v.nonce, v.adata, v.ct, v.tag_len) == v.payload, where
        assert ccm_encrypt(aes, v.nonce, v.adata, v.payload, v.tag_len) == v.ct, where


# --- Monte Carlo ---------------------------------------------------------------------

MCT_FILES = [p for m in MODES for p in mct_files(m)]


def sections(path: Path) -> list[list[MctVector]]:
    records = parse_mct_file(path)
    out = [[r for r in records if not r.decrypt], [r for r in records if r.decrypt]]
    assert all(len(s) == 100 for s in out)
    return out


def check_mct(records: list[MctVector], start: int, iterations: int) -> None:
    first = records[start]
    got = run_mct(first.mode, AES, first.key, first.iv, first.input, first.decrypt, iterations)
    assert len(got) == iterations
    for res, rec in zip(got, records[start:], strict=False):
        where = f"{rec.file}:{rec.line}"
        assert (res.key, res.iv, res.input) == (rec.key, rec.iv, rec.input), where
        assert res.output == rec.output, where


@pytest.mark.parametrize("path", MCT_FILES, ids=lambda p: p.name)
def test_mct_quick(path: Path) -> None:
    for records in sections(path):
        check_mct(records, start=0, iterations=2)
        check_mct(records, start=99, iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize("path", MCT_FILES, ids=lambda p: p.name)
def test_mct_full(path: Path) -> None:
    for records in sections(path):
        check_mct(records, start=0, iterations=100)
