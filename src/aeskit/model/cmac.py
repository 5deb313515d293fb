"""CMAC (NIST SP 800-38B) over any BlockCipher.

Notation of SP 800-38B: L = CIPH_K(0^128); subkeys K1 = dbl(L), K2 = dbl(K1), where
dbl is a left shift by one bit with 0x87 XORed into the last byte when the shifted-out
bit was 1 (:func:`aeskit.model.gf128.cmac_double`). The message M is cut into n
blocks M_1 .. M_n (n = 1 for an empty message); the last block is M_n xor K1 when
it is a whole block, else (M_n* || 1 || 0^j) xor K2. C_0 = 0^128,
C_i = CIPH_K(C_(i-1) xor M_i), and T = MSB_Tlen(C_n).

Messages are whole bytes; the tag is 4 to 16 bytes (SP 800-38B recommends at least
8 bytes, see its appendix A, but the hardware supports the shorter ones too).
"""

from __future__ import annotations

import hmac

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, check_bytes, xor_bytes
from aeskit.model.errors import TagMismatchError
from aeskit.model.gf128 import block_int, cmac_double, int_block

__all__ = ["CMAC_TAG_LENGTHS", "cmac_subkeys", "cmac_last_block", "cmac", "cmac_verify"]

#: tag lengths this model accepts, in bytes
CMAC_TAG_LENGTHS: tuple[int, ...] = tuple(range(4, 17))


def cmac_subkeys(cipher: BlockCipher) -> tuple[bytes, bytes]:
    """(K1, K2) of SP 800-38B 6.1 from L = CIPH_K(0^128)."""
    k1 = cmac_double(block_int(cipher.encrypt(bytes(BLOCK_SIZE))))
    return int_block(k1), int_block(cmac_double(k1))


def cmac_last_block(k1: bytes, k2: bytes, last: bytes) -> bytes:
    """M_n after the subkey: M_n xor K1 for a whole block, (M_n* || 10..0) xor K2 otherwise.

    ``last`` is the final 0 to 16 bytes of the message (empty only for an empty message).
    """
    last = check_bytes("CMAC last block", last)
    if len(last) > BLOCK_SIZE:
        raise ValueError(f"CMAC last block is at most 16 bytes, got {len(last)}")
    if len(last) == BLOCK_SIZE:
        return xor_bytes(last, check_bytes("CMAC subkey K1", k1, BLOCK_SIZE))
    padded = last + b"\x80" + bytes(BLOCK_SIZE - 1 - len(last))
    return xor_bytes(padded, check_bytes("CMAC subkey K2", k2, BLOCK_SIZE))


def cmac(cipher: BlockCipher, message: bytes, tag_len: int = 16) -> bytes:
    """The CMAC tag T = MSB_(8*tag_len)(C_n) of ``message`` (SP 800-38B 6.2)."""
    if not isinstance(tag_len, int) or tag_len not in CMAC_TAG_LENGTHS:
        raise ValueError(f"CMAC tag length must be 4 to 16 bytes, got {tag_len!r}")
    message = check_bytes("CMAC message", message)
    k1, k2 = cmac_subkeys(cipher)
    n = max(1, -(-len(message) // BLOCK_SIZE))
    c = bytes(BLOCK_SIZE)
    for i in range(n - 1):
        c = cipher.encrypt(xor_bytes(c, message[i * BLOCK_SIZE : (i + 1) * BLOCK_SIZE]))
    last = cmac_last_block(k1, k2, message[(n - 1) * BLOCK_SIZE :])
    return cipher.encrypt(xor_bytes(c, last))[:tag_len]


def cmac_verify(cipher: BlockCipher, message: bytes, tag: bytes) -> None:
    """Verification (SP 800-38B 6.3): :class:`TagMismatchError` unless ``tag`` matches.

    The tag length is ``len(tag)`` (4 to 16 bytes); the compare is constant-time.
    """
    tag = check_bytes("CMAC tag", tag)
    if len(tag) not in CMAC_TAG_LENGTHS:
        raise ValueError(f"CMAC tag must be 4 to 16 bytes long, got {len(tag)} bytes")
    if not hmac.compare_digest(cmac(cipher, message, len(tag)), tag):
        raise TagMismatchError("CMAC tag mismatch: the message is not authentic")
