"""GCM and GMAC authenticated encryption (NIST SP 800-38D) over any BlockCipher.

Notation of SP 800-38D (section 7): hash subkey H = CIPH_K(0^128); IV of len(IV)
bits; pre-counter block J_0; associated data A, plaintext P, ciphertext C; tag T of
t bits; inc_32 increments the rightmost 32 bits of a block modulo 2^32.

* J_0 = IV || 0^31 || 1 when len(IV) = 96 (the fast path); otherwise
  J_0 = GHASH_H(IV || 0^(s+64) || [len(IV)]_64) with s = 128 * ceil(len(IV)/128) - len(IV).
* C = GCTR_K(inc_32(J_0), P).
* S = GHASH_H(A || 0^v || C || 0^u || [len(A)]_64 || [len(C)]_64), the last block
  being the *length block* (:func:`gcm_len_block`); T = MSB_t(GCTR_K(J_0, S)).
* GMAC is GCM with an empty P: the tag over A alone.

All integers ([len]_64, the 32-bit counter) are big-endian; GF(2^128) products use
GCM's reflected bit order (:mod:`aeskit.model.gf128`). Lengths here are whole bytes
(every CAVP and Wycheproof GCM record is byte-granular); the tag is 4 to 16 bytes
(SP 800-38D itself allows 16, 15, 14, 13, 12 and, for special uses, 8 and 4 bytes).
The hardware mirrors :func:`ghash`, :func:`gcm_j0`, :func:`gcm_len_block` and
:func:`gcm_inc32`.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, check_bytes, xor_bytes
from aeskit.model.errors import TagMismatchError
from aeskit.model.gf128 import block_int, gf128_mul, int_block

__all__ = [
    "GCM_TAG_LENGTHS",
    "GCM_MAX_PAYLOAD",
    "gcm_hash_subkey",
    "ghash",
    "gcm_inc32",
    "gcm_j0",
    "gcm_len_block",
    "gctr",
    "gcm_encrypt",
    "gcm_decrypt",
    "gmac",
    "gmac_verify",
]

#: tag lengths this model accepts, in bytes
GCM_TAG_LENGTHS: tuple[int, ...] = tuple(range(4, 17))
#: len(P) <= 2^39 - 256 bits (SP 800-38D 5.2.1.1), in bytes
GCM_MAX_PAYLOAD = (2**39 - 256) // 8
#: len(A) and len(IV) <= 2^64 - 1 bits, in whole bytes
_MAX_AAD_IV = (2**64 - 1) // 8


def _check_tag_len(tag_len: int) -> None:
    if not isinstance(tag_len, int) or tag_len not in GCM_TAG_LENGTHS:
        raise ValueError(f"GCM tag length must be 4 to 16 bytes, got {tag_len!r}")


def _check_iv(iv: bytes) -> bytes:
    iv = check_bytes("GCM IV", iv)
    if not iv:
        raise ValueError("GCM IV must be at least 1 byte long, got 0 bytes")
    if len(iv) > _MAX_AAD_IV:
        raise ValueError(f"GCM IV of {len(iv)} bytes is longer than 2^64 - 1 bits")
    return iv


def _check_aad(aad: bytes) -> bytes:
    aad = check_bytes("GCM associated data", aad)
    if len(aad) > _MAX_AAD_IV:
        raise ValueError(f"GCM associated data of {len(aad)} bytes is longer than 2^64 - 1 bits")
    return aad


def _check_text(name: str, text: bytes) -> bytes:
    text = check_bytes(name, text)
    if len(text) > GCM_MAX_PAYLOAD:
        raise ValueError(
            f"{name} of {len(text)} bytes is longer than 2^39 - 256 bits ({GCM_MAX_PAYLOAD} bytes)"
        )
    return text


def _zero_pad(data: bytes) -> bytes:
    """``data || 0^v``: zero bytes up to a whole number of blocks."""
    return data + bytes(-len(data) % BLOCK_SIZE)


def gcm_hash_subkey(cipher: BlockCipher) -> bytes:
    """H = CIPH_K(0^128)."""
    return cipher.encrypt(bytes(BLOCK_SIZE))


def ghash(h: bytes, blocks: bytes | Iterable[bytes]) -> bytes:
    """GHASH_H(X) (SP 800-38D Algorithm 2): Y_i = (Y_(i-1) xor X_i) . H, Y_0 = 0^128.

    ``blocks`` is X either as one byte string of a whole number of 16-byte blocks or
    as an iterable of 16-byte blocks; it may be empty (the result is then 0^128).
    """
    h_int = block_int(check_bytes("GHASH subkey H", h, BLOCK_SIZE))
    if isinstance(blocks, (bytes, bytearray, memoryview)):
        data = bytes(blocks)
        if len(data) % BLOCK_SIZE:
            raise ValueError(
                f"GHASH input must be a whole number of 16-byte blocks, got {len(data)} bytes"
            )
        seq: Iterable[bytes] = (data[i : i + BLOCK_SIZE] for i in range(0, len(data), BLOCK_SIZE))
    else:
        seq = blocks
    y = 0
    for n, block in enumerate(seq):
        block = check_bytes(f"GHASH block {n}", block, BLOCK_SIZE)
        y = gf128_mul(y ^ block_int(block), h_int)
    return int_block(y)


def gcm_inc32(block: bytes) -> bytes:
    """inc_32(X): the rightmost 32 bits plus one modulo 2^32, the leftmost 96 unchanged."""
    block = check_bytes("GCM counter block", block, BLOCK_SIZE)
    ctr = (int.from_bytes(block[12:], "big") + 1) & 0xFFFFFFFF
    return block[:12] + ctr.to_bytes(4, "big")


def gcm_j0(h: bytes, iv: bytes) -> bytes:
    """The pre-counter block J_0 from H and the IV (any length of at least 1 byte).

    96-bit IV: IV || 0^31 || 1. Any other length:
    GHASH_H(IV || 0^(s+64) || [len(IV)]_64), IV zero-padded to whole blocks.
    """
    iv = _check_iv(iv)
    if len(iv) == 12:
        return iv + b"\x00\x00\x00\x01"
    return ghash(h, _zero_pad(iv) + bytes(8) + (8 * len(iv)).to_bytes(8, "big"))


def gcm_len_block(aad_len: int, msg_len: int) -> bytes:
    """[len(A)]_64 || [len(C)]_64: the last GHASH block; arguments in bytes, block in bits."""
    for name, n in (("associated-data length", aad_len), ("message length", msg_len)):
        if not isinstance(n, int) or not 0 <= 8 * n < 2**64:
            raise ValueError(f"GCM {name} must be 0 to 2^61 - 1 bytes, got {n!r}")
    return (8 * aad_len).to_bytes(8, "big") + (8 * msg_len).to_bytes(8, "big")


def gctr(cipher: BlockCipher, icb: bytes, data: bytes) -> bytes:
    """GCTR_K(ICB, X) (SP 800-38D Algorithm 3): X xor CIPH_K(CB_1) || CIPH_K(CB_2) ...

    CB_1 = ICB, CB_(i+1) = inc_32(CB_i); the last block is truncated to the data.
    """
    cb = check_bytes("GCTR initial counter block", icb, BLOCK_SIZE)
    data = check_bytes("GCTR input", data)
    out = []
    for i in range(0, len(data), BLOCK_SIZE):
        chunk = data[i : i + BLOCK_SIZE]
        out.append(xor_bytes(chunk, cipher.encrypt(cb)[: len(chunk)]))
        cb = gcm_inc32(cb)
    return b"".join(out)


def _tag(cipher: BlockCipher, h: bytes, j0: bytes, aad: bytes, ct: bytes, tag_len: int) -> bytes:
    s = ghash(h, _zero_pad(aad) + _zero_pad(ct) + gcm_len_block(len(aad), len(ct)))
    return gctr(cipher, j0, s)[:tag_len]


def gcm_encrypt(
    cipher: BlockCipher, iv: bytes, plaintext: bytes, aad: bytes, tag_len: int = 16
) -> tuple[bytes, bytes]:
    """Authenticated encryption (SP 800-38D Algorithm 4): returns (C, T), T of tag_len bytes."""
    _check_tag_len(tag_len)
    iv = _check_iv(iv)
    plaintext = _check_text("GCM plaintext", plaintext)
    aad = _check_aad(aad)
    h = gcm_hash_subkey(cipher)
    j0 = gcm_j0(h, iv)
    ciphertext = gctr(cipher, gcm_inc32(j0), plaintext)
    return ciphertext, _tag(cipher, h, j0, aad, ciphertext, tag_len)


def gcm_decrypt(cipher: BlockCipher, iv: bytes, ciphertext: bytes, aad: bytes, tag: bytes) -> bytes:
    """Authenticated decryption (SP 800-38D Algorithm 5): P, or :class:`TagMismatchError`.

    The tag length is ``len(tag)`` (4 to 16 bytes). The tag is checked (in constant
    time) before any plaintext is computed; on a mismatch nothing is returned.
    """
    tag = check_bytes("GCM tag", tag)
    if len(tag) not in GCM_TAG_LENGTHS:
        raise ValueError(f"GCM tag must be 4 to 16 bytes long, got {len(tag)} bytes")
    iv = _check_iv(iv)
    ciphertext = _check_text("GCM ciphertext", ciphertext)
    aad = _check_aad(aad)
    h = gcm_hash_subkey(cipher)
    j0 = gcm_j0(h, iv)
    expected = _tag(cipher, h, j0, aad, ciphertext, len(tag))
    if not hmac.compare_digest(expected, tag):
        raise TagMismatchError("GCM tag mismatch: the message is not authentic")
    return gctr(cipher, gcm_inc32(j0), ciphertext)


def gmac(cipher: BlockCipher, iv: bytes, aad: bytes, tag_len: int = 16) -> bytes:
    """GMAC: the GCM tag of ``aad`` with an empty plaintext."""
    return gcm_encrypt(cipher, iv, b"", aad, tag_len)[1]


def gmac_verify(cipher: BlockCipher, iv: bytes, aad: bytes, tag: bytes) -> None:
    """Check a GMAC tag; :class:`TagMismatchError` if it does not match."""
    gcm_decrypt(cipher, iv, b"", aad, tag)
