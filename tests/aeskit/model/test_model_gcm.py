"""GCM and GMAC (SP 800-38D) of the model: every CAVS and Wycheproof record, and
OpenSSL's AES-GCM (``cryptography``) with random lengths and truncated tags.

The 47,250 CAVS records take 15 to 30 s through the model: the default suite runs
every fourth record of each file (11,814 records, some of each of the 525 parameter
sections of every file), the ``slow`` suite all of them, and each passing decryption
record there in both directions.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import AES, KeyLengthError, TagMismatchError
from aeskit.model.gcm import (
    GCM_TAG_LENGTHS,
    gcm_decrypt,
    gcm_encrypt,
    gcm_hash_subkey,
    gcm_inc32,
    gcm_j0,
    gcm_len_block,
    gctr,
    ghash,
    gmac,
    gmac_verify,
)
from aeskit.model.gf128 import block_int, gf128_mul, int_block
from aeskit.vectors.catalog import gcm_files, wycheproof_gcm_vectors
from aeskit.vectors.gcm import parse_gcm
from aeskit.vectors.records import GcmVector


def check_record(v: GcmVector, both_ways: bool) -> None:
    """The file's direction; with ``both_ways`` also the other one for passing records."""
    where = f"{v.file}:{v.line}"
    aes = AES(v.key)
    if v.expect_pass is False:
        with pytest.raises(TagMismatchError):
            gcm_decrypt(aes, v.iv, v.ciphertext, v.aad, v.tag)
        return
    assert v.plaintext is not None, where
    if v.decrypt or both_ways:
        assert gcm_decrypt(aes, v.iv, v.ciphertext, v.aad, v.tag) == v.plaintext, where
    if not v.decrypt or both_ways:
        got = gcm_encrypt(aes, v.iv, v.plaintext, v.aad, len(v.tag))
        assert got == (v.ciphertext, v.tag), where


@pytest.mark.parametrize("path", gcm_files(), ids=lambda p: p.name)
def test_cavs_file_sample(path: Path) -> None:
    records = parse_gcm(path)
    assert len(records) == 7875
    sample = records[::4]
    assert {
        (len(v.iv), len(v.plaintext or v.ciphertext), len(v.aad), len(v.tag)) for v in sample
    } == {(len(v.iv), len(v.ciphertext), len(v.aad), len(v.tag)) for v in records}
    if "Decrypt" in path.name:
        assert {v.expect_pass for v in sample} == {True, False}
    for v in sample:
        check_record(v, both_ways=False)


@pytest.mark.slow
@pytest.mark.parametrize("path", gcm_files(), ids=lambda p: p.name)
def test_cavs_file_full(path: Path) -> None:
    records = parse_gcm(path)
    for v in records:
        check_record(v, both_ways=True)


def test_wycheproof() -> None:
    records = wycheproof_gcm_vectors()
    assert len(records) == 316
    for v in records:
        where = f"{v.file}:{v.line} tcId {v.count} {v.flags}"
        aes = AES(v.key)
        if v.expect_pass:
            assert v.plaintext is not None
            got = gcm_encrypt(aes, v.iv, v.plaintext, v.aad, len(v.tag))
            assert got == (v.ciphertext, v.tag), where
            assert gcm_decrypt(aes, v.iv, v.ciphertext, v.aad, v.tag) == v.plaintext, where
        elif not v.iv:  # ZeroLengthIv: refused as bad input
            with pytest.raises(ValueError, match="IV must be at least 1 byte"):
                gcm_decrypt(aes, v.iv, v.ciphertext, v.aad, v.tag)
        else:  # ModifiedTag
            with pytest.raises(TagMismatchError):
                gcm_decrypt(aes, v.iv, v.ciphertext, v.aad, v.tag)


def test_sp800_38d_test_case_2() -> None:
    # McGrew/Viega test case 2 (the GCM specification): K = 0^128, IV = 0^96, P = 0^128
    aes = AES(bytes(16))
    h = gcm_hash_subkey(aes)
    assert h.hex() == "66e94bd4ef8a2c3b884cfa59ca342b2e"
    ct, tag = gcm_encrypt(aes, bytes(12), bytes(16), b"")
    assert ct.hex() == "0388dace60b6a392f328c2b971b2fe78"
    assert tag.hex() == "ab6e47d42cec13bdf53a67b21257bddf"
    # GHASH(H, A, C) of the specification's test case 2
    s = ghash(h, [ct, gcm_len_block(0, 16)])
    assert s.hex() == "f38cbb1ad69223dcc3457ae5b6b0f885"
    assert gctr(aes, gcm_j0(h, bytes(12)), s) == tag


def openssl_encrypt(key: bytes, iv: bytes, pt: bytes, aad: bytes) -> tuple[bytes, bytes]:
    enc = Cipher(algorithms.AES(key), modes.GCM(iv)).encryptor()
    enc.authenticate_additional_data(aad)
    ct = enc.update(pt) + enc.finalize()
    return ct, enc.tag


def openssl_decrypt(key: bytes, iv: bytes, ct: bytes, aad: bytes, tag: bytes) -> bytes:
    dec = Cipher(algorithms.AES(key), modes.GCM(iv, tag, min_tag_length=4)).decryptor()
    dec.authenticate_additional_data(aad)
    return dec.update(ct) + dec.finalize()


def test_random_against_openssl() -> None:
    rng = random.Random(800_38_4)
    # OpenSSL takes IVs of 8 to 128 bytes; the shorter ones (1 to 7 bytes) are covered by
    # the CAVS files (IVlen = 8 bits) and Wycheproof (8 to 48 bits)
    iv_lengths = (8, 12, 12, 12, 13, 16, 17, 32, 60, 128)
    for n in range(400):
        key = rng.randbytes(rng.choice((16, 24, 32)))
        iv = rng.randbytes(iv_lengths[n % len(iv_lengths)] if n < 200 else rng.randrange(8, 129))
        aad = rng.randbytes(rng.choice((0, 1, 15, 16, 17, rng.randrange(0, 90))))
        pt = rng.randbytes(rng.choice((0, 1, 15, 16, 17, 32, rng.randrange(0, 120))))
        tag_len = GCM_TAG_LENGTHS[n % len(GCM_TAG_LENGTHS)]
        where = (len(key), len(iv), len(aad), len(pt), tag_len)
        aes = AES(key)
        ct, tag = gcm_encrypt(aes, iv, pt, aad, tag_len)
        ref_ct, ref_tag = openssl_encrypt(key, iv, pt, aad)
        assert (ct, tag) == (ref_ct, ref_tag[:tag_len]), where
        assert openssl_decrypt(key, iv, ct, aad, tag) == pt, where
        assert gcm_decrypt(aes, iv, ct, aad, tag) == pt, where
        if not pt:
            assert gmac(aes, iv, aad, tag_len) == tag
            gmac_verify(aes, iv, aad, tag)


def test_tampering_raises_and_returns_nothing() -> None:
    rng = random.Random(15)
    key, iv, aad, pt = rng.randbytes(16), rng.randbytes(12), b"header", rng.randbytes(40)
    aes = AES(key)
    ct, tag = gcm_encrypt(aes, iv, pt, aad, 12)
    tampered = [
        (iv, aad, ct, tag[:-1] + bytes([tag[-1] ^ 1])),
        (iv, aad, bytes([ct[0] ^ 0x80]) + ct[1:], tag),
        (iv, aad + b"!", ct, tag),
        (bytes([iv[0] ^ 1]) + iv[1:], aad, ct, tag),
    ]
    for i, a, c, t in tampered:
        with pytest.raises(TagMismatchError, match="GCM tag mismatch") as info:
            gcm_decrypt(aes, i, c, a, t)
        assert isinstance(info.value, ValueError)
        assert pt not in repr(info.value.args).encode()
        with pytest.raises(InvalidTag):
            openssl_decrypt(key, i, c, a, t)
    # T is MSB_t of the full tag, so a prefix of a valid tag (>= 4 bytes) verifies too
    assert gcm_decrypt(aes, iv, ct, aad, tag[:8]) == openssl_decrypt(key, iv, ct, aad, tag[:8])
    with pytest.raises(TagMismatchError, match="GCM tag mismatch"):
        gmac_verify(aes, iv, aad, gmac(aes, iv, aad + b"x"))


def test_ghash_and_helpers() -> None:
    rng = random.Random(2)
    h = rng.randbytes(16)
    assert ghash(h, b"") == bytes(16)
    assert ghash(h, []) == bytes(16)
    x1, x2 = rng.randbytes(16), rng.randbytes(16)
    expected = gf128_mul(gf128_mul(block_int(x1), block_int(h)) ^ block_int(x2), block_int(h))
    assert ghash(h, x1 + x2) == int_block(expected) == ghash(h, [x1, x2])
    assert gcm_len_block(20, 3) == (160).to_bytes(8, "big") + (24).to_bytes(8, "big")
    assert gcm_inc32(bytes(12) + b"\xff\xff\xff\xff") == bytes(16)
    assert gcm_inc32(b"\xff" * 12 + b"\x00\x00\x01\xff") == b"\xff" * 12 + b"\x00\x00\x02\x00"
    iv = rng.randbytes(12)
    assert gcm_j0(h, iv) == iv + b"\x00\x00\x00\x01"
    iv = rng.randbytes(20)  # s = 96 bits of padding, then 64 zero bits and [160]_64
    block2 = iv[16:] + bytes(12)
    assert gcm_j0(h, iv) == ghash(h, [iv[:16], block2, bytes(8) + (160).to_bytes(8, "big")])
    aes = AES(rng.randbytes(16))
    cb = rng.randbytes(16)
    assert gctr(aes, cb, b"") == b""
    stream = aes.encrypt(cb) + aes.encrypt(gcm_inc32(cb))
    assert gctr(aes, cb, bytes(20)) == stream[:20]


def test_counter_wraps_modulo_2_32() -> None:
    # an IV whose J0 ends in ff..ff: inc_32 wraps into the low 32 bits only (as OpenSSL)
    aes = AES(bytes(range(16)))
    iv = bytes(8) + b"\xff\xff\xff\xfe"
    pt = bytes(48)
    ct, tag = gcm_encrypt(aes, iv, pt, b"")
    assert (ct, tag) == openssl_encrypt(bytes(range(16)), iv, pt, b"")


@pytest.mark.parametrize("tag_len", [0, 3, 17, 32])
def test_bad_tag_length(tag_len: int) -> None:
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match=f"GCM tag length must be 4 to 16 bytes, got {tag_len}"):
        gcm_encrypt(aes, bytes(12), b"", b"", tag_len)
    with pytest.raises(ValueError, match=f"GCM tag must be 4 to 16 bytes long, got {tag_len}"):
        gcm_decrypt(aes, bytes(12), b"", b"", bytes(tag_len))
    with pytest.raises(ValueError, match="GCM tag length must be 4 to 16"):
        gmac(aes, bytes(12), b"", tag_len)


def test_bad_iv_and_types() -> None:
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match="GCM IV must be at least 1 byte long, got 0 bytes"):
        gcm_encrypt(aes, b"", b"", b"")
    with pytest.raises(ValueError, match="GCM IV must be at least 1 byte"):
        gcm_decrypt(aes, b"", b"", b"", bytes(16))
    with pytest.raises(TypeError, match="GCM plaintext must be bytes, got str"):
        gcm_encrypt(aes, bytes(12), "text", b"")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="GHASH input must be a whole number of 16-byte blocks"):
        ghash(bytes(16), bytes(17))
    with pytest.raises(ValueError, match="GHASH block 1 must be exactly 16 bytes, got 15"):
        ghash(bytes(16), [bytes(16), bytes(15)])
    with pytest.raises(ValueError, match="GHASH subkey H must be exactly 16 bytes, got 12"):
        ghash(bytes(12), b"")
    with pytest.raises(ValueError, match="message length must be 0 to 2"):
        gcm_len_block(0, -1)
    with pytest.raises(ValueError, match="counter block must be exactly 16 bytes"):
        gcm_inc32(bytes(12))


@pytest.mark.parametrize("key_len", [0, 15, 17, 33])
def test_bad_key_length(key_len: int) -> None:
    with pytest.raises(KeyLengthError):
        gcm_encrypt(AES(bytes(key_len)), bytes(12), b"", b"")
