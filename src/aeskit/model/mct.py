"""Monte Carlo Tests of the AES Algorithm Validation Suite (AESAVS section 6.4).

Each test runs ``iterations`` (100 in CAVP) outer iterations of 1000 chained
block operations and re-keys after each; it returns one :class:`MctResult` per
outer iteration, matching the ``COUNT = i`` records of the ``*MCT*.rsp`` files
(KEY, IV, then the input and output text of that iteration).

The tests are generic over a *cipher factory* ``make_cipher(key) -> BlockCipher``
(called once per outer iteration) and call ``encrypt``/``decrypt`` exactly once
per block, so an RTL core in simulation can stand in for the golden model.

Key update after outer iteration i, with X the last outputs (CT when
encrypting, PT when decrypting) and ``||`` concatenation:

* 128-bit keys: Key ^= X[999]
* 192-bit keys: Key ^= last 8 bytes of X[998] || X[999]
* 256-bit keys: Key ^= X[998] || X[999]

All values are ``bytes`` in FIPS-197 order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, CipherFactory, check_bytes, xor_bytes
from aeskit.model.errors import KeyLengthError

__all__ = [
    "MctResult",
    "MCT_MODES",
    "INNER_ITERATIONS",
    "OUTER_ITERATIONS",
    "mct_ecb",
    "mct_cbc",
    "mct_cfb128",
    "mct_ofb",
    "run_mct",
]

INNER_ITERATIONS = 1000
OUTER_ITERATIONS = 100


@dataclass(frozen=True)
class MctResult:
    """One outer iteration: the key, IV (None for ECB) and the input and output text.

    ``input`` is the plaintext when encrypting and the ciphertext when decrypting.
    """

    key: bytes
    iv: bytes | None
    input: bytes
    output: bytes


def _next_key(key: bytes, last: bytes, before_last: bytes) -> bytes:
    if len(key) == 16:
        mix = last
    elif len(key) == 24:
        mix = before_last[8:] + last
    elif len(key) == 32:
        mix = before_last + last
    else:
        raise KeyLengthError(f"AES key must be 16, 24 or 32 bytes, got {len(key)} bytes")
    return xor_bytes(key, mix)


def _check_args(key: bytes, text: bytes, iterations: int) -> tuple[bytes, bytes]:
    key = check_bytes("key", key)
    if len(key) not in (16, 24, 32):
        raise KeyLengthError(f"AES key must be 16, 24 or 32 bytes, got {len(key)} bytes")
    if iterations < 1:
        raise ValueError(f"iterations must be >= 1, got {iterations}")
    return key, check_bytes("text", text, BLOCK_SIZE)


def mct_ecb(
    make_cipher: CipherFactory,
    key: bytes,
    text: bytes,
    decrypt: bool,
    iterations: int = OUTER_ITERATIONS,
) -> list[MctResult]:
    """ECB Monte Carlo Test: X[j+1] = AES(Key, X[j]) 1000 times, then re-key."""
    key, text = _check_args(key, text, iterations)
    results = []
    for _ in range(iterations):
        cipher = make_cipher(key)
        step = cipher.decrypt if decrypt else cipher.encrypt
        prev, cur = text, text
        for _ in range(INNER_ITERATIONS):
            prev, cur = cur, step(cur)
        results.append(MctResult(key, None, text, cur))
        key = _next_key(key, cur, prev)
        text = cur
    return results


# A chained mode for the MCT: (cipher, chaining value, input block) ->
# (output block, next chaining value). One cipher call per block.
_Stepper = Callable[[BlockCipher, bytes, bytes], tuple[bytes, bytes]]


def _cbc_enc(c: BlockCipher, chain: bytes, x: bytes) -> tuple[bytes, bytes]:
    y = c.encrypt(xor_bytes(x, chain))
    return y, y


def _cbc_dec(c: BlockCipher, chain: bytes, x: bytes) -> tuple[bytes, bytes]:
    return xor_bytes(c.decrypt(x), chain), x


def _cfb_enc(c: BlockCipher, chain: bytes, x: bytes) -> tuple[bytes, bytes]:
    y = xor_bytes(x, c.encrypt(chain))
    return y, y


def _cfb_dec(c: BlockCipher, chain: bytes, x: bytes) -> tuple[bytes, bytes]:
    return xor_bytes(x, c.encrypt(chain)), x


def _ofb(c: BlockCipher, chain: bytes, x: bytes) -> tuple[bytes, bytes]:
    o = c.encrypt(chain)
    return xor_bytes(x, o), o


def _mct_chained(
    stepper: _Stepper,
    make_cipher: CipherFactory,
    key: bytes,
    iv: bytes,
    text: bytes,
    iterations: int,
) -> list[MctResult]:
    """The AESAVS loop shared by CBC, CFB128 and OFB (either direction).

    Inner loop, with X the input and Y the output text:
    Y[j] = mode(X[j]) continuing the mode's chaining from IV;
    X[j+1] = IV for j = 0, else Y[j-1].
    Then IV = Y[999], X[0] = Y[998], and the key is updated from Y.
    """
    key, text = _check_args(key, text, iterations)
    iv = check_bytes("IV", iv, BLOCK_SIZE)
    results = []
    for _ in range(iterations):
        cipher = make_cipher(key)
        chain = iv
        x = text
        y_prev = y = b""
        for j in range(INNER_ITERATIONS):
            y_prev, (y, chain) = y, stepper(cipher, chain, x)
            x = iv if j == 0 else y_prev
        results.append(MctResult(key, iv, text, y))
        key = _next_key(key, y, y_prev)
        iv, text = y, y_prev
    return results


def mct_cbc(
    make_cipher: CipherFactory,
    key: bytes,
    iv: bytes,
    text: bytes,
    decrypt: bool,
    iterations: int = OUTER_ITERATIONS,
) -> list[MctResult]:
    """CBC Monte Carlo Test (AESAVS 6.4.2); one ``encrypt``/``decrypt`` call per block."""
    return _mct_chained(_cbc_dec if decrypt else _cbc_enc, make_cipher, key, iv, text, iterations)


def mct_cfb128(
    make_cipher: CipherFactory,
    key: bytes,
    iv: bytes,
    text: bytes,
    decrypt: bool,
    iterations: int = OUTER_ITERATIONS,
) -> list[MctResult]:
    """CFB128 Monte Carlo Test; the forward cipher only, one call per block."""
    return _mct_chained(_cfb_dec if decrypt else _cfb_enc, make_cipher, key, iv, text, iterations)


def mct_ofb(
    make_cipher: CipherFactory,
    key: bytes,
    iv: bytes,
    text: bytes,
    decrypt: bool,
    iterations: int = OUTER_ITERATIONS,
) -> list[MctResult]:
    """OFB Monte Carlo Test (encryption and decryption are the same operation)."""
    return _mct_chained(_ofb, make_cipher, key, iv, text, iterations)


MCT_MODES: tuple[str, ...] = ("ECB", "CBC", "CFB128", "OFB")


def run_mct(
    mode: str,
    make_cipher: CipherFactory,
    key: bytes,
    iv: bytes | None,
    text: bytes,
    decrypt: bool,
    iterations: int = OUTER_ITERATIONS,
) -> list[MctResult]:
    """Dispatch to the Monte Carlo Test of ``mode`` (one of :data:`MCT_MODES`)."""
    if mode == "ECB":
        if iv is not None:
            raise ValueError("the ECB Monte Carlo Test takes no IV")
        return mct_ecb(make_cipher, key, text, decrypt, iterations)
    chained = {"CBC": mct_cbc, "CFB128": mct_cfb128, "OFB": mct_ofb}
    if mode not in chained:
        raise ValueError(f"no Monte Carlo Test for mode {mode!r}; expected one of {MCT_MODES}")
    if iv is None:
        raise ValueError(f"the {mode} Monte Carlo Test needs a 16-byte IV")
    return chained[mode](make_cipher, key, iv, text, decrypt, iterations)
