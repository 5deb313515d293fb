"""Modes of operation of NIST SP 800-38A (and its CBC-CS addendum), plus CCM.

Every function takes a :class:`~aeskit.model.blockcipher.BlockCipher` -- any
object with ``encrypt``/``decrypt`` of one 16-byte block -- and calls it exactly
once per block, so the same code drives the golden model or an RTL core.

Byte order: data, IVs and counter blocks are ``bytes`` in FIPS-197 order (byte 0
first). The CTR counter block is one 128-bit big-endian integer (byte 15 is the
least significant) and is incremented modulo 2^128.

CCM (SP 800-38C) lives in :mod:`aeskit.model.ccm` and is re-exported here.
"""

from __future__ import annotations

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, check_bytes, xor_bytes
from aeskit.model.ccm import (
    CCM_NONCE_LENGTHS,
    CCM_TAG_LENGTHS,
    ccm_counter_block,
    ccm_decrypt,
    ccm_encode_adata_len,
    ccm_encrypt,
    ccm_format_adata,
    ccm_format_b0,
    ccm_max_payload,
)
from aeskit.model.errors import TagMismatchError

__all__ = [
    "BLOCK_SIZE",
    "BlockCipher",
    "TagMismatchError",
    "ecb_encrypt",
    "ecb_decrypt",
    "cbc_encrypt",
    "cbc_decrypt",
    "ctr_crypt",
    "ctr_increment",
    "cfb128_encrypt",
    "cfb128_decrypt",
    "ofb_crypt",
    "cbc_cs_encrypt",
    "cbc_cs_decrypt",
    "CBC_CS_VARIANTS",
    "ccm_encrypt",
    "ccm_decrypt",
    "ccm_format_b0",
    "ccm_format_adata",
    "ccm_encode_adata_len",
    "ccm_counter_block",
    "ccm_max_payload",
    "CCM_NONCE_LENGTHS",
    "CCM_TAG_LENGTHS",
]

CBC_CS_VARIANTS: tuple[int, ...] = (1, 2, 3)
_MASK128 = (1 << 128) - 1


def _blocks(name: str, data: bytes) -> list[bytes]:
    """Split whole-block data; ValueError if the length is not a multiple of 16."""
    data = check_bytes(name, data)
    if len(data) % BLOCK_SIZE:
        raise ValueError(f"{name} length must be a multiple of {BLOCK_SIZE} bytes, got {len(data)}")
    return [data[i : i + BLOCK_SIZE] for i in range(0, len(data), BLOCK_SIZE)]


def _iv(iv: bytes, name: str = "IV") -> bytes:
    return check_bytes(name, iv, BLOCK_SIZE)


# --- ECB, CBC -------------------------------------------------------------------


def ecb_encrypt(cipher: BlockCipher, data: bytes) -> bytes:
    """ECB: each 16-byte block enciphered on its own."""
    return b"".join(cipher.encrypt(b) for b in _blocks("data", data))


def ecb_decrypt(cipher: BlockCipher, data: bytes) -> bytes:
    """ECB decryption."""
    return b"".join(cipher.decrypt(b) for b in _blocks("data", data))


def cbc_encrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CBC: C_j = E(P_j ^ C_(j-1)), C_0 = IV."""
    chain = _iv(iv)
    out = []
    for block in _blocks("data", data):
        chain = cipher.encrypt(xor_bytes(block, chain))
        out.append(chain)
    return b"".join(out)


def cbc_decrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CBC decryption: P_j = D(C_j) ^ C_(j-1)."""
    chain = _iv(iv)
    out = []
    for block in _blocks("data", data):
        out.append(xor_bytes(cipher.decrypt(block), chain))
        chain = block
    return b"".join(out)


# --- stream-like modes ----------------------------------------------------------


def ctr_increment(counter_block: bytes, n: int = 1) -> bytes:
    """The counter block plus ``n``, as a 128-bit big-endian integer modulo 2^128."""
    value = int.from_bytes(_iv(counter_block, "counter block"), "big")
    return ((value + n) & _MASK128).to_bytes(BLOCK_SIZE, "big")


def ctr_crypt(cipher: BlockCipher, counter_block: bytes, data: bytes) -> bytes:
    """CTR (encryption = decryption): data ^ E(T_1) || E(T_2) || ..., any length.

    T_1 is ``counter_block``; T_(j+1) = T_j + 1 over all 128 bits (wraps mod 2^128).
    """
    data = check_bytes("data", data)
    counter = int.from_bytes(_iv(counter_block, "counter block"), "big")
    out = []
    for i in range(0, len(data), BLOCK_SIZE):
        chunk = data[i : i + BLOCK_SIZE]
        keystream = cipher.encrypt(counter.to_bytes(BLOCK_SIZE, "big"))
        out.append(xor_bytes(chunk, keystream[: len(chunk)]))
        counter = (counter + 1) & _MASK128
    return b"".join(out)


def cfb128_encrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CFB with s = 128: C_j = P_j ^ E(C_(j-1)), C_0 = IV; a short last segment is allowed."""
    data = check_bytes("data", data)
    chain = _iv(iv)
    out = []
    for i in range(0, len(data), BLOCK_SIZE):
        chunk = data[i : i + BLOCK_SIZE]
        chain = xor_bytes(chunk, cipher.encrypt(chain)[: len(chunk)])
        out.append(chain)
    return b"".join(out)


def cfb128_decrypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """CFB128 decryption: P_j = C_j ^ E(C_(j-1)) (uses the forward cipher only)."""
    data = check_bytes("data", data)
    chain = _iv(iv)
    out = []
    for i in range(0, len(data), BLOCK_SIZE):
        chunk = data[i : i + BLOCK_SIZE]
        out.append(xor_bytes(chunk, cipher.encrypt(chain)[: len(chunk)]))
        chain = chunk
    return b"".join(out)


def ofb_crypt(cipher: BlockCipher, iv: bytes, data: bytes) -> bytes:
    """OFB (encryption = decryption): O_j = E(O_(j-1)), O_0 = IV; out = data ^ O_1 || O_2 ..."""
    data = check_bytes("data", data)
    feedback = _iv(iv)
    out = []
    for i in range(0, len(data), BLOCK_SIZE):
        chunk = data[i : i + BLOCK_SIZE]
        feedback = cipher.encrypt(feedback)
        out.append(xor_bytes(chunk, feedback[: len(chunk)]))
    return b"".join(out)


# --- CBC with ciphertext stealing (SP 800-38A addendum) -------------------------


def _cs_check(variant: int, data: bytes) -> bytes:
    if variant not in CBC_CS_VARIANTS:
        raise ValueError(f"CBC-CS variant must be 1, 2 or 3, got {variant!r}")
    data = check_bytes("data", data)
    if len(data) < BLOCK_SIZE:
        raise ValueError(f"CBC-CS needs at least {BLOCK_SIZE} bytes of data, got {len(data)}")
    return data


def _cs_swaps(variant: int, d: int) -> bool:
    """Whether the variant puts C_n before the partial C*_(n-1) (d = bytes in the last block)."""
    return variant == 3 or (variant == 2 and d != BLOCK_SIZE)


def cbc_cs_encrypt(cipher: BlockCipher, iv: bytes, data: bytes, variant: int) -> bytes:
    """CBC-CS1/CS2/CS3 encryption of any length >= 16 bytes.

    With P = P_1 .. P_(n-1) P*_n and d = len(P*_n) in 1..16: pad P*_n with zeros,
    CBC-encrypt to C_1 .. C_n and let C*_(n-1) be the first d bytes of C_(n-1).

    * CS1: C_1 .. C_(n-2) || C*_(n-1) || C_n
    * CS2: as CS1 when d = 16 (plain CBC), else C_1 .. C_(n-2) || C_n || C*_(n-1)
    * CS3: always C_1 .. C_(n-2) || C_n || C*_(n-1)

    For exactly one block (n = 1) there is nothing to steal or swap and every
    variant returns plain CBC.
    """
    data = _cs_check(variant, data)
    n = -(-len(data) // BLOCK_SIZE)
    d = len(data) - BLOCK_SIZE * (n - 1)
    padded = data + bytes(BLOCK_SIZE - d)
    ct = cbc_encrypt(cipher, iv, padded)
    if n == 1:
        return ct
    head = ct[: BLOCK_SIZE * (n - 2)]
    c_prev_partial = ct[BLOCK_SIZE * (n - 2) : BLOCK_SIZE * (n - 2) + d]
    c_last = ct[BLOCK_SIZE * (n - 1) :]
    if _cs_swaps(variant, d):
        return head + c_last + c_prev_partial
    return head + c_prev_partial + c_last


def cbc_cs_decrypt(cipher: BlockCipher, iv: bytes, data: bytes, variant: int) -> bytes:
    """Inverse of :func:`cbc_cs_encrypt` for the same variant."""
    data = _cs_check(variant, data)
    iv = _iv(iv)
    n = -(-len(data) // BLOCK_SIZE)
    d = len(data) - BLOCK_SIZE * (n - 1)
    if n == 1:
        return cbc_decrypt(cipher, iv, data)
    head = data[: BLOCK_SIZE * (n - 2)]
    tail = data[BLOCK_SIZE * (n - 2) :]
    if _cs_swaps(variant, d):
        c_last, c_prev_partial = tail[:BLOCK_SIZE], tail[BLOCK_SIZE:]
    else:
        c_prev_partial, c_last = tail[:d], tail[d:]
    if d == BLOCK_SIZE:
        return cbc_decrypt(cipher, iv, head + c_prev_partial + c_last)
    # D(C_n) = (P*_n || 0) ^ C_(n-1): its last 16-d bytes are the stolen bytes of C_(n-1).
    z = cipher.decrypt(c_last)
    c_prev = c_prev_partial + z[d:]
    plain = cbc_decrypt(cipher, iv, head + c_prev)
    return plain + xor_bytes(z[:d], c_prev_partial)
