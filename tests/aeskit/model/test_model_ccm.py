"""CCM (SP 800-38C) of the model against OpenSSL's AES-CCM (``cryptography``)."""

from __future__ import annotations

import random

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aeskit.model import (
    AES,
    CCM_NONCE_LENGTHS,
    CCM_TAG_LENGTHS,
    TagMismatchError,
    ccm_counter_block,
    ccm_decrypt,
    ccm_encrypt,
    ccm_format_adata,
    ccm_format_b0,
    ccm_max_payload,
)
from aeskit.model.ccm import ccm_encode_adata_len

ADATA_LENGTHS = (0, 1, 14, 15, 16, 300)


def test_all_tag_and_nonce_lengths_against_openssl() -> None:
    rng = random.Random(800_38)
    for tag_len in CCM_TAG_LENGTHS:
        for nonce_len in CCM_NONCE_LENGTHS:
            for alen in ADATA_LENGTHS:
                key = rng.randbytes(rng.choice((16, 24, 32)))
                nonce, adata = rng.randbytes(nonce_len), rng.randbytes(alen)
                payload = rng.randbytes(rng.choice((0, 1, 15, 16, 17, rng.randrange(0, 70))))
                aes = AES(key)
                ct = ccm_encrypt(aes, nonce, adata, payload, tag_len)
                expected = AESCCM(key, tag_length=tag_len).encrypt(nonce, payload, adata)
                assert ct == expected, (tag_len, nonce_len, alen, len(payload))
                assert ccm_decrypt(aes, nonce, adata, ct, tag_len) == payload


@pytest.mark.parametrize("alen", [0xFEFF, 0xFF00, 0xFF00 + 21])
def test_long_adata_length_encodings(alen: int) -> None:
    # a < 0xff00 takes the 2-byte length; 0xff00 <= a < 2^32 takes 0xfffe + 4 bytes
    rng = random.Random(alen)
    key, nonce = rng.randbytes(16), rng.randbytes(12)
    adata, payload = rng.randbytes(alen), rng.randbytes(33)
    formatted = ccm_format_adata(adata)
    assert formatted[:2] == (b"\xff\xfe" if alen >= 0xFF00 else alen.to_bytes(2, "big"))
    assert len(formatted) % 16 == 0
    ct = ccm_encrypt(AES(key), nonce, adata, payload, 8)
    assert ct == AESCCM(key, tag_length=8).encrypt(nonce, payload, adata)


def test_adata_length_prefix() -> None:
    assert ccm_encode_adata_len(1) == b"\x00\x01"
    assert ccm_encode_adata_len(0xFEFF) == b"\xfe\xff"
    assert ccm_encode_adata_len(0xFF00) == b"\xff\xfe\x00\x00\xff\x00"
    assert ccm_encode_adata_len(2**32 - 1) == b"\xff\xfe\xff\xff\xff\xff"
    assert ccm_encode_adata_len(2**32) == b"\xff\xff" + (2**32).to_bytes(8, "big")
    assert ccm_format_adata(b"") == b""
    assert ccm_format_adata(b"\xab") == b"\x00\x01\xab" + bytes(13)


def test_formatting_helpers() -> None:
    nonce = bytes(range(1, 8))  # n = 7, q = 8
    b0 = ccm_format_b0(nonce, adata_len=1, payload_len=0x0102, tag_len=16)
    assert b0 == bytes([0x40 | (7 << 3) | 7]) + nonce + (0x0102).to_bytes(8, "big")
    assert ccm_format_b0(bytes(13), 0, 0, 4)[0] == (1 << 3) | 1
    assert ccm_counter_block(bytes(range(13)), 5) == b"\x01" + bytes(range(13)) + b"\x00\x05"
    assert ccm_max_payload(13) == 0xFFFF and ccm_max_payload(7) == 2**64 - 1


def test_tampering_raises_and_returns_nothing() -> None:
    rng = random.Random(5)
    key, nonce, adata, payload = rng.randbytes(16), rng.randbytes(11), b"header", rng.randbytes(40)
    aes = AES(key)
    ct = ccm_encrypt(aes, nonce, adata, payload, 10)
    tampered = [
        (nonce, adata, ct[:-1] + bytes([ct[-1] ^ 1])),  # tag
        (nonce, adata, bytes([ct[0] ^ 0x80]) + ct[1:]),  # ciphertext
        (nonce, adata + b"!", ct),  # associated data
        (bytes([nonce[0] ^ 1]) + nonce[1:], adata, ct),  # nonce
    ]
    for n, a, c in tampered:
        with pytest.raises(TagMismatchError, match="tag mismatch") as info:
            ccm_decrypt(aes, n, a, c, 10)
        assert isinstance(info.value, ValueError)
        assert payload not in repr(info.value.args).encode()
        with pytest.raises(InvalidTag):
            AESCCM(key, tag_length=10).decrypt(n, c, a)
    with pytest.raises(TagMismatchError):
        ccm_decrypt(aes, nonce, adata, ct, 12)  # wrong tag length


@pytest.mark.parametrize("nonce_len", [0, 6, 14, 16])
def test_bad_nonce_length(nonce_len: int) -> None:
    with pytest.raises(ValueError, match=f"nonce must be 7 to 13 bytes long, got {nonce_len}"):
        ccm_encrypt(AES(bytes(16)), bytes(nonce_len), b"", b"", 8)
    with pytest.raises(ValueError, match="nonce must be 7 to 13 bytes"):
        ccm_decrypt(AES(bytes(16)), bytes(nonce_len), b"", bytes(8), 8)


@pytest.mark.parametrize("tag_len", [0, 2, 3, 5, 15, 17, 18])
def test_bad_tag_length(tag_len: int) -> None:
    with pytest.raises(ValueError, match=f"tag length must be one of 4, 6, .*got {tag_len}"):
        ccm_encrypt(AES(bytes(16)), bytes(12), b"", b"", tag_len)
    with pytest.raises(ValueError, match="tag length"):
        ccm_decrypt(AES(bytes(16)), bytes(12), b"", bytes(20), tag_len)


def test_payload_too_long_for_q() -> None:
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match=r"65536 bytes does not fit in q = 2 .* at most 65535"):
        ccm_encrypt(aes, bytes(13), b"", bytes(65536), 4)
    with pytest.raises(ValueError, match="does not fit in q = 2"):
        ccm_decrypt(aes, bytes(13), b"", bytes(65536 + 4), 4)


def test_ciphertext_shorter_than_tag() -> None:
    with pytest.raises(ValueError, match="shorter than the 8-byte tag"):
        ccm_decrypt(AES(bytes(16)), bytes(12), b"", bytes(7), 8)
