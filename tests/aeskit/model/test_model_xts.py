"""XTS-AES (IEEE 1619 / SP 800-38E) of the model: every CAVS XTSGenAES record (both tweak
folders, both key sizes, both directions, data units of 128, 130, 140, 200, 250, 256
and 384 bits) and OpenSSL's AES-XTS (``cryptography``) for byte-length data units."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import AES
from aeskit.model.blockcipher import xor_bytes
from aeskit.model.xts import (
    xts_block_tweaks,
    xts_decrypt,
    xts_encrypt,
    xts_mul_alpha,
    xts_split_key,
    xts_tweak_from_seqno,
)
from aeskit.vectors.catalog import xts_files
from aeskit.vectors.records import XtsVector
from aeskit.vectors.xts import parse_xts


def ciphers(key: bytes) -> tuple[AES, AES]:
    k1, k2 = xts_split_key(key)
    return AES(k1), AES(k2)


def tweak_of(v: XtsVector) -> bytes:
    if v.tweak is not None:
        return v.tweak
    assert v.seqno is not None
    return xts_tweak_from_seqno(v.seqno)


@pytest.mark.parametrize("path", xts_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_cavs_file(path: Path) -> None:
    records = parse_xts(path)
    assert len(records) == 1000
    lengths = {v.data_unit_len for v in records}
    assert any(n % 8 for n in lengths)  # non-byte data units are in every file
    for v in records:
        where = f"{v.file}:{v.line}"
        data_cipher, tweak_cipher = ciphers(v.key)
        tweak, n = tweak_of(v), v.data_unit_len
        if v.decrypt:
            got = xts_decrypt(data_cipher, tweak_cipher, tweak, v.ciphertext, n)
            assert got == v.plaintext, where
        else:
            got = xts_encrypt(data_cipher, tweak_cipher, tweak, v.plaintext, n)
            assert got == v.ciphertext, where


def ref_mul_alpha(t: bytes) -> bytes:
    """IEEE 1619 5.2 as written: byte-wise shift with carry, 0x87 into byte 0 on carry out."""
    out = bytearray(16)
    carry = 0
    for j in range(16):
        out[j] = ((t[j] << 1) + carry) & 0xFF
        carry = t[j] >> 7
    if carry:
        out[0] ^= 0x87
    return bytes(out)


def test_alpha_multiplication() -> None:
    rng = random.Random(1619)
    for _ in range(500):
        t = rng.randbytes(16)
        assert xts_mul_alpha(t) == ref_mul_alpha(t)
    assert xts_mul_alpha(b"\x01" + bytes(15)) == b"\x02" + bytes(15)
    assert xts_mul_alpha(b"\x80" + bytes(15)) == b"\x00\x01" + bytes(14)
    assert xts_mul_alpha(bytes(15) + b"\x80") == b"\x87" + bytes(15)
    aes = AES(bytes(range(16)))
    tweaks = xts_block_tweaks(aes, bytes(16), 3)
    assert tweaks[0] == aes.encrypt(bytes(16))
    assert tweaks[2] == ref_mul_alpha(ref_mul_alpha(tweaks[0]))


def test_tweak_from_seqno() -> None:
    assert xts_tweak_from_seqno(0) == bytes(16)
    assert xts_tweak_from_seqno(141) == b"\x8d" + bytes(15)
    assert xts_tweak_from_seqno(0x0102) == b"\x02\x01" + bytes(14)
    assert xts_tweak_from_seqno(2**128 - 1) == b"\xff" * 16
    for bad in (-1, 2**128):
        with pytest.raises(ValueError, match="sequence number must be 0 to 2"):
            xts_tweak_from_seqno(bad)


def openssl_xts(key: bytes, tweak: bytes, data: bytes, decrypt: bool) -> bytes:
    cipher = Cipher(algorithms.AES(key), modes.XTS(tweak))
    ctx = cipher.decryptor() if decrypt else cipher.encryptor()
    return ctx.update(data) + ctx.finalize()


def test_random_against_openssl() -> None:
    rng = random.Random(800_38_5)
    for n in range(300):
        key = rng.randbytes(rng.choice((32, 64)))
        if key[: len(key) // 2] == key[len(key) // 2 :]:
            continue
        tweak = rng.randbytes(16)
        size = (16, 17, 31, 32, 33, 47, 48, 512)[n % 8] if n < 80 else rng.randrange(16, 300)
        pt = rng.randbytes(size)
        data_cipher, tweak_cipher = ciphers(key)
        ct = xts_encrypt(data_cipher, tweak_cipher, tweak, pt)
        assert ct == openssl_xts(key, tweak, pt, decrypt=False), (len(key), size)
        assert xts_decrypt(data_cipher, tweak_cipher, tweak, ct) == pt
        assert openssl_xts(key, tweak, ct, decrypt=True) == pt


def test_bit_lengths_round_trip() -> None:
    rng = random.Random(130)
    for _ in range(200):
        bits = rng.randrange(128, 700)
        nbytes = -(-bits // 8)
        value = rng.getrandbits(bits) << (8 * nbytes - bits)
        pt = value.to_bytes(nbytes, "big")
        key = rng.randbytes(32)
        data_cipher, tweak_cipher = ciphers(key)
        tweak = rng.randbytes(16)
        ct = xts_encrypt(data_cipher, tweak_cipher, tweak, pt, bits)
        assert len(ct) == nbytes
        assert ct[-1] & ((1 << (8 * nbytes - bits)) - 1) == 0  # unused bits stay zero
        assert xts_decrypt(data_cipher, tweak_cipher, tweak, ct, bits) == pt
        if bits % 8 == 0:  # the bit path on a byte-granular unit gives what OpenSSL gives
            assert ct == openssl_xts(key, tweak, pt, decrypt=False), bits


def test_full_blocks_need_no_stealing() -> None:
    # every block j of an aligned unit is CIPH_K1(P_j xor T_j) xor T_j
    rng = random.Random(3)
    data_cipher, tweak_cipher = ciphers(rng.randbytes(64))
    tweak, pt = rng.randbytes(16), rng.randbytes(64)
    ts = xts_block_tweaks(tweak_cipher, tweak, 4)
    blocks = [pt[16 * j : 16 * j + 16] for j in range(4)]
    expected = b"".join(
        xor_bytes(data_cipher.encrypt(xor_bytes(blk, tj)), tj)
        for blk, tj in zip(blocks, ts, strict=True)
    )
    assert xts_encrypt(data_cipher, tweak_cipher, tweak, pt, 512) == expected


@pytest.mark.parametrize("key_len", [0, 16, 24, 48, 65])
def test_bad_key_length(key_len: int) -> None:
    with pytest.raises(
        ValueError, match=f"XTS key must be 32 bytes .* or 64 bytes .*, got {key_len} bytes"
    ):
        xts_split_key(bytes(key_len))


def test_bad_data_units() -> None:
    data_cipher, tweak_cipher = ciphers(bytes(range(32)))
    tweak = bytes(16)
    with pytest.raises(ValueError, match="at least 128 bits long, got 120 bits"):
        xts_encrypt(data_cipher, tweak_cipher, tweak, bytes(15))
    with pytest.raises(ValueError, match="at least 128 bits long, got 127 bits"):
        xts_decrypt(data_cipher, tweak_cipher, tweak, bytes(16), 127)
    with pytest.raises(ValueError, match="of 130 bits takes 17 bytes, got 16 bytes"):
        xts_encrypt(data_cipher, tweak_cipher, tweak, bytes(16), 130)
    with pytest.raises(ValueError, match="the 6 unused low bits of the last byte must be zero"):
        xts_encrypt(data_cipher, tweak_cipher, tweak, bytes(16) + b"\x41", 130)
    with pytest.raises(ValueError, match="XTS tweak must be exactly 16 bytes, got 15"):
        xts_encrypt(data_cipher, tweak_cipher, bytes(15), bytes(16))
    with pytest.raises(TypeError, match="XTS data unit must be bytes, got str"):
        xts_encrypt(data_cipher, tweak_cipher, tweak, "x" * 16)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="XTS tweak value must be exactly 16 bytes"):
        xts_mul_alpha(bytes(8))
