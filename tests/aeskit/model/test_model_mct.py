"""The Monte Carlo Test drivers: ECB against an independent OpenSSL-based loop (no
package ships ECB MCT files), cipher-call accounting, and argument checks. The
CBC/CFB128/OFB drivers are checked against the NIST files in
tests/aeskit/vectors/test_vectors_nist.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import (
    AES,
    KeyLengthError,
    MctResult,
    mct_cbc,
    mct_cfb128,
    mct_ecb,
    mct_ofb,
    run_mct,
)


class OpenSSLBlock:
    """A BlockCipher backed by OpenSSL ECB, so the driver runs on a different AES."""

    def __init__(self, key: bytes) -> None:
        self._enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
        self._dec = Cipher(algorithms.AES(key), modes.ECB()).decryptor()

    def encrypt(self, block: bytes) -> bytes:
        return self._enc.update(block)

    def decrypt(self, block: bytes) -> bytes:
        return self._dec.update(block)


class Counter:
    """Cipher factory that counts keys and block calls."""

    def __init__(self) -> None:
        self.keys: list[bytes] = []
        self.enc = 0
        self.dec = 0

    def __call__(self, key: bytes) -> Counter._Cipher:
        self.keys.append(key)
        return Counter._Cipher(self, key)

    class _Cipher:
        def __init__(self, owner: Counter, key: bytes) -> None:
            self.owner, self.aes = owner, AES(key)

        def encrypt(self, block: bytes) -> bytes:
            self.owner.enc += 1
            return self.aes.encrypt(block)

        def decrypt(self, block: bytes) -> bytes:
            self.owner.dec += 1
            return self.aes.decrypt(block)


def ref_mct_ecb(
    key: bytes, text: bytes, decrypt: bool, iterations: int
) -> list[tuple[bytes, bytes, bytes]]:
    """AESAVS 6.4.1 written directly on OpenSSL: 1000 chained ECB operations, then re-key."""
    out = []
    for _ in range(iterations):
        cipher = Cipher(algorithms.AES(key), modes.ECB())
        ctx = cipher.decryptor() if decrypt else cipher.encryptor()
        chain = [text]
        for _ in range(1000):
            chain.append(ctx.update(chain[-1]))
        out.append((key, text, chain[-1]))
        mix = {16: chain[-1], 24: chain[-2][8:] + chain[-1], 32: chain[-2] + chain[-1]}[len(key)]
        key = bytes(a ^ b for a, b in zip(key, mix, strict=True))
        text = chain[-1]
    return out


@pytest.mark.parametrize("key_len", [16, 24, 32])
@pytest.mark.parametrize("decrypt", [False, True], ids=["enc", "dec"])
def test_ecb_mct_against_openssl_loop(key_len: int, decrypt: bool) -> None:
    key, text = bytes(range(key_len)), bytes(range(100, 116))
    got = mct_ecb(AES, key, text, decrypt, iterations=3)
    expected = ref_mct_ecb(key, text, decrypt, 3)
    assert [(r.key, r.input, r.output) for r in got] == expected
    assert all(r.iv is None for r in got)


@pytest.mark.parametrize("driver", [mct_cbc, mct_cfb128, mct_ofb])
@pytest.mark.parametrize("decrypt", [False, True], ids=["enc", "dec"])
def test_drivers_agree_on_model_and_openssl(
    driver: Callable[..., list[MctResult]], decrypt: bool
) -> None:
    key, iv, text = bytes(range(24)), bytes(range(16)), bytes(16)
    a = driver(AES, key, iv, text, decrypt, iterations=2)
    b = driver(OpenSSLBlock, key, iv, text, decrypt, iterations=2)
    assert a == b and len(a) == 2 and all(isinstance(r, MctResult) for r in a)


@pytest.mark.parametrize(
    ("mode", "decrypt", "enc_calls", "dec_calls"),
    [
        ("ECB", False, 1000, 0),
        ("ECB", True, 0, 1000),
        ("CBC", False, 1000, 0),
        ("CBC", True, 0, 1000),
        ("CFB128", True, 1000, 0),
        ("OFB", True, 1000, 0),
    ],
)
def test_one_cipher_call_per_block(
    mode: str, decrypt: bool, enc_calls: int, dec_calls: int
) -> None:
    factory = Counter()
    iv = None if mode == "ECB" else bytes(16)
    res = run_mct(mode, factory, bytes(16), iv, bytes(16), decrypt, iterations=2)
    assert factory.keys == [r.key for r in res]  # one cipher per outer iteration
    assert (factory.enc, factory.dec) == (2 * enc_calls, 2 * dec_calls)
    assert res[1].iv == (None if mode == "ECB" else res[0].output)


def test_bad_arguments() -> None:
    with pytest.raises(KeyLengthError, match="got 15 bytes"):
        mct_cbc(AES, bytes(15), bytes(16), bytes(16), False, iterations=1)
    with pytest.raises(ValueError, match="exactly 16 bytes"):
        mct_ofb(AES, bytes(16), bytes(15), bytes(16), False, iterations=1)
    with pytest.raises(ValueError, match="text must be exactly 16 bytes"):
        mct_ecb(AES, bytes(16), bytes(17), False, iterations=1)
    with pytest.raises(ValueError, match="iterations must be >= 1"):
        mct_ecb(AES, bytes(16), bytes(16), False, iterations=0)
    with pytest.raises(ValueError, match="no Monte Carlo Test for mode 'CTR'"):
        run_mct("CTR", AES, bytes(16), bytes(16), bytes(16), False)
    with pytest.raises(ValueError, match="needs a 16-byte IV"):
        run_mct("CBC", AES, bytes(16), None, bytes(16), False)
    with pytest.raises(ValueError, match="takes no IV"):
        run_mct("ECB", AES, bytes(16), bytes(16), bytes(16), False)
