"""CMAC (SP 800-38B) of the model: the SP 800-38B examples, Wycheproof's AES-CMAC tests
and OpenSSL's CMAC (``cryptography``) with random lengths and truncated tags."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import cmac as openssl_cmac
from cryptography.hazmat.primitives.ciphers import algorithms

from aeskit.model import AES, KeyLengthError, TagMismatchError
from aeskit.model.cmac import CMAC_TAG_LENGTHS, cmac, cmac_last_block, cmac_subkeys, cmac_verify
from aeskit.vectors.catalog import cmac_files, wycheproof_cmac_vectors
from aeskit.vectors.cmac import parse_cmac


@pytest.mark.parametrize("path", cmac_files(), ids=lambda p: p.name)
def test_sp800_38b_examples(path: Path) -> None:
    records = parse_cmac(path)
    assert [len(v.message) for v in records] == [0, 16, 40, 64]
    for v in records:
        aes = AES(v.key)
        assert cmac(aes, v.message, len(v.tag)) == v.tag, f"{v.file}:{v.line}"
        cmac_verify(aes, v.message, v.tag)


def test_subkeys_of_sp800_38b_d1() -> None:
    # SP 800-38B appendix D.1 (AES-128): L, K1 and K2
    aes = AES(bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"))
    assert aes.encrypt(bytes(16)).hex() == "7df76b0c1ab899b33e42f047b91b546f"
    k1, k2 = cmac_subkeys(aes)
    assert k1.hex() == "fbeed618357133667c85e08f7236a8de"
    assert k2.hex() == "f7ddac306ae266ccf90bc11ee46d513b"


def test_wycheproof() -> None:
    records = wycheproof_cmac_vectors()
    assert len(records) == 311
    for v in records:
        where = f"{v.file}:{v.line} tcId {v.count} {v.flags}"
        if "InvalidKeySize" in v.flags:
            with pytest.raises(KeyLengthError):
                AES(v.key)
            continue
        aes = AES(v.key)
        if v.expect_pass:
            assert cmac(aes, v.message, len(v.tag)) == v.tag, where
            cmac_verify(aes, v.message, v.tag)
        else:
            with pytest.raises(TagMismatchError):
                cmac_verify(aes, v.message, v.tag)


def test_random_against_openssl() -> None:
    rng = random.Random(800_38_2)
    for n in range(400):
        key = rng.randbytes(rng.choice((16, 24, 32)))
        size = (0, 1, 15, 16, 17, 31, 32, 33)[n % 8] if n < 80 else rng.randrange(0, 200)
        msg = rng.randbytes(size)
        tag_len = CMAC_TAG_LENGTHS[n % len(CMAC_TAG_LENGTHS)]
        ref = openssl_cmac.CMAC(algorithms.AES(key))
        ref.update(msg)
        full = ref.finalize()
        aes = AES(key)
        assert cmac(aes, msg, tag_len) == full[:tag_len], (len(key), size, tag_len)
        cmac_verify(aes, msg, full[:tag_len])


def test_tampering() -> None:
    aes = AES(bytes(range(16)))
    tag = cmac(aes, b"message", 8)
    for msg, t in ((b"message", tag[:-1] + bytes([tag[-1] ^ 1])), (b"messagf", tag)):
        with pytest.raises(TagMismatchError, match="CMAC tag mismatch") as info:
            cmac_verify(aes, msg, t)
        assert isinstance(info.value, ValueError)


def test_last_block_padding() -> None:
    k1, k2 = bytes(range(16)), bytes(range(16, 32))
    assert cmac_last_block(k1, k2, bytes(16)) == k1
    assert cmac_last_block(k1, k2, b"") == bytes([0x80 ^ 16]) + bytes(range(17, 32))
    assert cmac_last_block(k1, k2, b"\x01") == bytes([0x01 ^ 16, 0x80 ^ 17]) + bytes(range(18, 32))
    with pytest.raises(ValueError, match="at most 16 bytes, got 17"):
        cmac_last_block(k1, k2, bytes(17))


@pytest.mark.parametrize("tag_len", [0, 3, 17])
def test_bad_tag_length(tag_len: int) -> None:
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match=f"CMAC tag length must be 4 to 16 bytes, got {tag_len}"):
        cmac(aes, b"", tag_len)
    with pytest.raises(ValueError, match=f"CMAC tag must be 4 to 16 bytes long, got {tag_len}"):
        cmac_verify(aes, b"", bytes(tag_len))


def test_bad_types_and_keys() -> None:
    with pytest.raises(TypeError, match="CMAC message must be bytes, got str"):
        cmac(AES(bytes(16)), "text")  # type: ignore[arg-type]
    with pytest.raises(KeyLengthError):
        cmac(AES(bytes(20)), b"")
