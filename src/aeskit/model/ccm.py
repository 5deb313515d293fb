"""CCM authenticated encryption (NIST SP 800-38C) over any BlockCipher.

Notation of SP 800-38C: nonce N of n bytes (7..13), q = 15 - n bytes for the
payload length Q, tag length t in {4, 6, ..., 16}, associated data A of a bytes.

* B_0 = flags || N || [Q]_q with flags = 64*[a > 0] + 8*((t - 2)/2) + (q - 1).
* The associated data is prefixed with its length -- 2 bytes if 0 < a < 2^16 - 2^8,
  0xfffe + 4 bytes if a < 2^32, 0xffff + 8 bytes otherwise -- and zero-padded to
  whole blocks; the payload is zero-padded too. The CBC-MAC over
  B_0 || A-blocks || P-blocks gives T (its first t bytes).
* Counter blocks Ctr_i = (q - 1) || N || [i]_q; S_i = E(Ctr_i).
  C = P ^ (S_1 || S_2 ...), the tag is T ^ S_0, and the result is C || tag.

All integers ([Q]_q, [i]_q, the a-length prefix) are big-endian. The hardware
mode engine mirrors :func:`ccm_format_b0`, :func:`ccm_format_adata` and
:func:`ccm_counter_block`.
"""

from __future__ import annotations

import hmac

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, check_bytes, xor_bytes
from aeskit.model.errors import TagMismatchError

__all__ = [
    "CCM_NONCE_LENGTHS",
    "CCM_TAG_LENGTHS",
    "ccm_max_payload",
    "ccm_format_b0",
    "ccm_format_adata",
    "ccm_encode_adata_len",
    "ccm_counter_block",
    "ccm_encrypt",
    "ccm_decrypt",
]

CCM_NONCE_LENGTHS: tuple[int, ...] = (7, 8, 9, 10, 11, 12, 13)
CCM_TAG_LENGTHS: tuple[int, ...] = (4, 6, 8, 10, 12, 14, 16)


def _check_nonce(nonce: bytes) -> bytes:
    nonce = check_bytes("CCM nonce", nonce)
    if len(nonce) not in CCM_NONCE_LENGTHS:
        raise ValueError(f"CCM nonce must be 7 to 13 bytes long, got {len(nonce)} bytes")
    return nonce


def _check_tag_len(tag_len: int) -> None:
    if tag_len not in CCM_TAG_LENGTHS:
        raise ValueError(
            f"CCM tag length must be one of {', '.join(map(str, CCM_TAG_LENGTHS))} bytes, "
            f"got {tag_len!r}"
        )


def ccm_max_payload(nonce_len: int) -> int:
    """Largest payload in bytes that q = 15 - nonce_len length bytes can express."""
    if nonce_len not in CCM_NONCE_LENGTHS:
        raise ValueError(f"CCM nonce must be 7 to 13 bytes long, got {nonce_len} bytes")
    return (1 << (8 * (15 - nonce_len))) - 1


def _check_payload_len(nonce_len: int, payload_len: int) -> None:
    limit = ccm_max_payload(nonce_len)
    if not 0 <= payload_len <= limit:
        raise ValueError(
            f"CCM payload of {payload_len} bytes does not fit in q = {15 - nonce_len} "
            f"length bytes (nonce of {nonce_len} bytes): at most {limit} bytes"
        )


def ccm_format_b0(nonce: bytes, adata_len: int, payload_len: int, tag_len: int) -> bytes:
    """The first CBC-MAC block B_0 = flags || N || [Q]_q."""
    nonce = _check_nonce(nonce)
    _check_tag_len(tag_len)
    _check_payload_len(len(nonce), payload_len)
    if adata_len < 0:
        raise ValueError(f"CCM associated-data length must be >= 0, got {adata_len}")
    q = 15 - len(nonce)
    flags = (0x40 if adata_len else 0) | (((tag_len - 2) // 2) << 3) | (q - 1)
    return bytes([flags]) + nonce + payload_len.to_bytes(q, "big")


def ccm_encode_adata_len(a: int) -> bytes:
    """The length prefix of ``a`` bytes of associated data (a > 0): 2, 6 or 10 bytes."""
    if a <= 0:
        raise ValueError(f"CCM associated data length prefix needs a > 0, got {a}")
    if a < (1 << 16) - (1 << 8):
        return a.to_bytes(2, "big")
    if a < (1 << 32):
        return b"\xff\xfe" + a.to_bytes(4, "big")
    if a < (1 << 64):
        return b"\xff\xff" + a.to_bytes(8, "big")
    raise ValueError(f"CCM associated data of {a} bytes is longer than 2^64 - 1 bytes")


def ccm_format_adata(adata: bytes) -> bytes:
    """Length-prefixed, zero-padded associated data (empty when there is none)."""
    adata = check_bytes("CCM associated data", adata)
    if not adata:
        return b""
    encoded = ccm_encode_adata_len(len(adata)) + adata
    return encoded + bytes(-len(encoded) % BLOCK_SIZE)


def ccm_counter_block(nonce: bytes, index: int) -> bytes:
    """Counter block Ctr_index = (q - 1) || N || [index]_q."""
    nonce = _check_nonce(nonce)
    q = 15 - len(nonce)
    if not 0 <= index < (1 << (8 * q)):
        raise ValueError(f"CCM counter index {index} does not fit in q = {q} bytes")
    return bytes([q - 1]) + nonce + index.to_bytes(q, "big")


def _cbc_mac(cipher: BlockCipher, data: bytes) -> bytes:
    y = bytes(BLOCK_SIZE)
    for i in range(0, len(data), BLOCK_SIZE):
        y = cipher.encrypt(xor_bytes(y, data[i : i + BLOCK_SIZE]))
    return y


def _ctr(cipher: BlockCipher, nonce: bytes, data: bytes) -> bytes:
    """data ^ (S_1 || S_2 || ...), truncated to len(data)."""
    out = []
    for j, i in enumerate(range(0, len(data), BLOCK_SIZE), start=1):
        chunk = data[i : i + BLOCK_SIZE]
        s = cipher.encrypt(ccm_counter_block(nonce, j))
        out.append(xor_bytes(chunk, s[: len(chunk)]))
    return b"".join(out)


def _tag(cipher: BlockCipher, nonce: bytes, adata: bytes, payload: bytes, tag_len: int) -> bytes:
    mac_input = (
        ccm_format_b0(nonce, len(adata), len(payload), tag_len)
        + ccm_format_adata(adata)
        + payload
        + bytes(-len(payload) % BLOCK_SIZE)
    )
    t = _cbc_mac(cipher, mac_input)[:tag_len]
    s0 = cipher.encrypt(ccm_counter_block(nonce, 0))
    return xor_bytes(t, s0[:tag_len])


def ccm_encrypt(
    cipher: BlockCipher, nonce: bytes, adata: bytes, payload: bytes, tag_len: int
) -> bytes:
    """Generation-encryption: returns ciphertext || tag (len(payload) + tag_len bytes)."""
    nonce = _check_nonce(nonce)
    _check_tag_len(tag_len)
    adata = check_bytes("CCM associated data", adata)
    payload = check_bytes("CCM payload", payload)
    _check_payload_len(len(nonce), len(payload))
    tag = _tag(cipher, nonce, adata, payload, tag_len)
    return _ctr(cipher, nonce, payload) + tag


def ccm_decrypt(
    cipher: BlockCipher, nonce: bytes, adata: bytes, data_and_tag: bytes, tag_len: int
) -> bytes:
    """Decryption-verification: the payload, or :class:`TagMismatchError` if the tag is wrong.

    On a mismatch no plaintext is returned or kept in the exception.
    """
    nonce = _check_nonce(nonce)
    _check_tag_len(tag_len)
    adata = check_bytes("CCM associated data", adata)
    data_and_tag = check_bytes("CCM ciphertext", data_and_tag)
    if len(data_and_tag) < tag_len:
        raise ValueError(
            f"CCM ciphertext of {len(data_and_tag)} bytes is shorter than the {tag_len}-byte tag"
        )
    ciphertext, tag = data_and_tag[: len(data_and_tag) - tag_len], data_and_tag[-tag_len:]
    _check_payload_len(len(nonce), len(ciphertext))
    payload = _ctr(cipher, nonce, ciphertext)
    expected = _tag(cipher, nonce, adata, payload, tag_len)
    if not hmac.compare_digest(expected, tag):
        del payload
        raise TagMismatchError("CCM tag mismatch: the message is not authentic")
    return payload
