"""CBC-CS1/CS2/CS3 (SP 800-38A addendum). OpenSSL through ``cryptography`` has no
ciphertext stealing, so the expected values are built here from the addendum's
definitions on top of OpenSSL's plain CBC, and the variants are checked against
each other."""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import AES, cbc_cs_decrypt, cbc_cs_encrypt, cbc_encrypt

VARIANTS = (1, 2, 3)


def openssl_cbc(key: bytes, iv: bytes, data: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return enc.update(data) + enc.finalize()


def addendum_encrypt(key: bytes, iv: bytes, data: bytes, variant: int) -> bytes:
    """Pad P*_n with zeros, CBC, drop the last 16-d bytes of C_(n-1), order per variant."""
    n = -(-len(data) // 16)
    d = len(data) - 16 * (n - 1)
    c = openssl_cbc(key, iv, data + bytes(16 - d))
    blocks = [c[16 * i : 16 * i + 16] for i in range(n)]
    if n == 1:
        return blocks[0]
    head, c_prev, c_last = b"".join(blocks[:-2]), blocks[-2][:d], blocks[-1]
    if variant == 1 or (variant == 2 and d == 16):
        return head + c_prev + c_last
    return head + c_last + c_prev


def test_against_addendum_definition_and_round_trip() -> None:
    rng = random.Random(38)
    for length in list(range(16, 70)) + [rng.randrange(70, 300) for _ in range(20)]:
        key = rng.randbytes(rng.choice((16, 24, 32)))
        iv, data = rng.randbytes(16), rng.randbytes(length)
        aes = AES(key)
        for v in VARIANTS:
            ct = cbc_cs_encrypt(aes, iv, data, v)
            assert len(ct) == length
            assert ct == addendum_encrypt(key, iv, data, v), (length, v)
            assert cbc_cs_decrypt(aes, iv, ct, v) == data, (length, v)


def test_variants_against_each_other_and_plain_cbc() -> None:
    rng = random.Random(39)
    aes_key = rng.randbytes(16)
    aes = AES(aes_key)
    for length in range(17, 100):
        iv, data = rng.randbytes(16), rng.randbytes(length)
        cs1, cs2, cs3 = (cbc_cs_encrypt(aes, iv, data, v) for v in VARIANTS)
        n = -(-length // 16)
        d = length - 16 * (n - 1)
        cut = 16 * (n - 2)
        assert cs1[:cut] == cs2[:cut] == cs3[:cut]
        if d == 16:
            cbc = cbc_encrypt(aes, iv, data)
            assert cs1 == cs2 == cbc  # whole blocks: CS1 and CS2 are plain CBC
            assert cs3 == cbc[:cut] + cbc[-16:] + cbc[cut:-16]  # CS3 always swaps
        else:
            assert cs2 == cs3  # CS2 swaps exactly when the last block is partial
            # CS1 keeps C*_(n-1) || C_n, CS2 gives C_n || C*_(n-1)
            assert cs1[cut:] == cs2[cut + 16 :] + cs2[cut : cut + 16]


def test_single_block_is_plain_cbc() -> None:
    aes, iv, data = AES(bytes(range(16))), bytes(16), bytes(range(16))
    for v in VARIANTS:
        assert cbc_cs_encrypt(aes, iv, data, v) == cbc_encrypt(aes, iv, data)
        assert cbc_cs_decrypt(aes, iv, cbc_encrypt(aes, iv, data), v) == data


@pytest.mark.parametrize("length", [0, 1, 15])
def test_too_short(length: int) -> None:
    with pytest.raises(ValueError, match=f"at least 16 bytes of data, got {length}"):
        cbc_cs_encrypt(AES(bytes(16)), bytes(16), bytes(length), 1)
    with pytest.raises(ValueError, match="at least 16 bytes"):
        cbc_cs_decrypt(AES(bytes(16)), bytes(16), bytes(length), 3)


@pytest.mark.parametrize("variant", [0, 4, -1])
def test_bad_variant(variant: int) -> None:
    with pytest.raises(ValueError, match="variant must be 1, 2 or 3"):
        cbc_cs_encrypt(AES(bytes(16)), bytes(16), bytes(32), variant)
