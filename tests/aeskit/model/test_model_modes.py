"""ECB, CBC, CTR, CFB128 and OFB of the model against OpenSSL (``cryptography``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from cryptography.hazmat.decrepit.ciphers.modes import CFB, OFB
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import (
    AES,
    BlockCipher,
    cbc_decrypt,
    cbc_encrypt,
    cfb128_decrypt,
    cfb128_encrypt,
    ctr_crypt,
    ctr_increment,
    ecb_decrypt,
    ecb_encrypt,
    ofb_crypt,
)

KEY_LENGTHS = (16, 24, 32)


def openssl(key: bytes, mode: modes.Mode, data: bytes, decrypt: bool = False) -> bytes:
    cipher: Cipher[Any] = Cipher(algorithms.AES(key), mode)
    ctx = cipher.decryptor() if decrypt else cipher.encryptor()
    return ctx.update(data) + ctx.finalize()


class CountingCipher:
    """A BlockCipher that counts its calls (an RTL core would see the same calls)."""

    def __init__(self, key: bytes) -> None:
        self.aes = AES(key)
        self.enc = 0
        self.dec = 0

    def encrypt(self, block: bytes) -> bytes:
        self.enc += 1
        return self.aes.encrypt(block)

    def decrypt(self, block: bytes) -> bytes:
        self.dec += 1
        return self.aes.decrypt(block)


def cases(seed: int, whole_blocks: bool, n: int = 25) -> list[tuple[bytes, bytes, bytes]]:
    """(key, iv, data) with random key sizes and lengths (0..150 bytes)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        key = rng.randbytes(KEY_LENGTHS[i % 3])
        length = 16 * rng.randrange(0, 10) if whole_blocks else rng.randrange(0, 151)
        out.append((key, rng.randbytes(16), rng.randbytes(length)))
    return out


def test_counting_cipher_is_a_block_cipher() -> None:
    assert isinstance(CountingCipher(bytes(16)), BlockCipher)
    assert isinstance(AES(bytes(16)), BlockCipher)


def test_ecb() -> None:
    for key, _, data in cases(1, whole_blocks=True):
        c = CountingCipher(key)
        ct = ecb_encrypt(c, data)
        assert ct == openssl(key, modes.ECB(), data)
        assert ecb_decrypt(c, ct) == data
        assert c.enc == c.dec == len(data) // 16


def test_cbc() -> None:
    for key, iv, data in cases(2, whole_blocks=True):
        c = CountingCipher(key)
        ct = cbc_encrypt(c, iv, data)
        assert ct == openssl(key, modes.CBC(iv), data)
        assert cbc_decrypt(c, iv, ct) == data
        assert c.enc == c.dec == len(data) // 16


@pytest.mark.parametrize(
    ("model_enc", "model_dec", "mode"),
    [
        (cfb128_encrypt, cfb128_decrypt, CFB),
        (ofb_crypt, ofb_crypt, OFB),
        (ctr_crypt, ctr_crypt, modes.CTR),
    ],
    ids=["CFB128", "OFB", "CTR"],
)
def test_stream_modes_any_length(
    model_enc: Callable[[BlockCipher, bytes, bytes], bytes],
    model_dec: Callable[[BlockCipher, bytes, bytes], bytes],
    mode: Callable[[bytes], modes.Mode],
) -> None:
    for key, iv, data in cases(3, whole_blocks=False, n=60):
        c = CountingCipher(key)
        ct = model_enc(c, iv, data)
        assert ct == openssl(key, mode(iv), data), (key.hex(), iv.hex(), len(data))
        assert model_dec(c, iv, ct) == data
        assert c.dec == 0  # these modes only use the forward cipher
        assert c.enc == 2 * (-(-len(data) // 16))


def test_ctr_wraps_modulo_2_128() -> None:
    key = bytes(range(16))
    for start in (b"\xff" * 16, b"\x00" * 8 + b"\xff" * 8, b"\x12" * 12 + b"\xff\xff\xff\xfe"):
        data = bytes(range(80))
        assert ctr_crypt(AES(key), start, data) == openssl(key, modes.CTR(start), data)
    assert ctr_increment(b"\xff" * 16) == bytes(16)
    assert ctr_increment(bytes(16), 0x1_0000_0001) == bytes(11) + b"\x01\x00\x00\x00\x01"


@pytest.mark.parametrize(
    "call",
    [
        lambda c: ecb_encrypt(c, bytes(15)),
        lambda c: ecb_decrypt(c, bytes(17)),
        lambda c: cbc_encrypt(c, bytes(16), bytes(31)),
        lambda c: cbc_decrypt(c, bytes(16), bytes(1)),
    ],
)
def test_partial_blocks_rejected(call: Callable[[BlockCipher], bytes]) -> None:
    with pytest.raises(ValueError, match="multiple of 16 bytes"):
        call(AES(bytes(16)))


@pytest.mark.parametrize(
    "call",
    [
        lambda c: cbc_encrypt(c, bytes(15), bytes(16)),
        lambda c: cfb128_encrypt(c, bytes(17), b""),
        lambda c: ofb_crypt(c, b"", b"x"),
        lambda c: ctr_crypt(c, bytes(12), b"x"),
    ],
)
def test_bad_iv_rejected(call: Callable[[BlockCipher], bytes]) -> None:
    with pytest.raises(ValueError, match="exactly 16 bytes"):
        call(AES(bytes(16)))
