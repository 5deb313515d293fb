"""Messages in parts (GCM/GMAC and CMAC: FIRST, MIDDLE..., LAST; docs/modes.md and
docs/coproc.md "Messages in parts") for the benches: random splits of a message at
block boundaries that follow the engine's rules, and the 32-byte context a FIRST or
MIDDLE part leaves (the co-processor's CTX, the C driver's context), computed here
independently of the RTL with AES from ``cryptography`` (OpenSSL) and GHASH / CBC-MAC
written out (the expected tags of whole messages come from :mod:`aeskit.verif.ossl`).

Context layout (byte 0 first, as CTX[0] bits [7:0] upward): bytes 0..15 the state (GCM:
the GHASH accumulator Y over the AAD and ciphertext blocks so far, no E(J0) mask, no
length block; CMAC: the CBC-MAC value C of the blocks so far, no subkey); GCM: bytes
16..19 the payload blocks, 20..23 the AAD bytes, 24..27 the payload bytes so far (each
big-endian); 28..31 zero. CMAC: bytes 16..31 zero.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

__all__ = ["WHOLE", "FIRST", "MIDDLE", "LAST", "Part", "split_gcm", "split_cmac",
           "gcm_context", "cmac_context", "part_illegal", "next_counts"]

#: the part codes (aeskit.hw.codes.Part, ak_part_e)
WHOLE, FIRST, MIDDLE, LAST = 0, 1, 2, 3


@dataclass(frozen=True)
class Part:
    """One part: its code and the byte ranges of the message's AAD and payload it
    carries ([a0, a1), [p0, p1))."""

    code: int
    a0: int
    a1: int
    p0: int
    p1: int

    @property
    def aad_len(self) -> int:
        return self.a1 - self.a0

    @property
    def len(self) -> int:
        return self.p1 - self.p0


def _cuts(rng: random.Random, blocks: int, max_parts: int) -> list[int]:
    """Block boundaries 0 = c0 < c1 < ... < ck = blocks (k <= max_parts parts)."""
    k = rng.randint(1, max(1, min(max_parts, blocks)))
    inner = sorted(rng.sample(range(1, blocks), k - 1)) if blocks > 1 else []
    return [0, *inner, blocks]


def split_gcm(rng: random.Random, aad_len: int, pay_len: int, max_parts: int = 4) -> list[Part]:
    """A random legal split of a GCM message (at least one whole block before LAST):
    FIRST and MIDDLE parts of whole blocks, the AAD blocks before the payload's (a part
    may carry both), LAST the rest; no AAD in a part after one with payload."""
    a_full, p_full = aad_len // 16, pay_len // 16
    if a_full == 0 and (aad_len % 16 or p_full == 0):
        raise ValueError("a GCM message in parts needs a whole block before its last part")
    while True:
        a_pre = 16 * rng.randint(0, a_full)
        # AAD left for LAST: no payload before it
        p_pre = 16 * rng.randint(0, p_full) if a_pre == aad_len else 0
        if a_pre + p_pre:
            break
    blocks = (a_pre + p_pre) // 16
    cuts = _cuts(rng, blocks, max_parts - 1)
    parts = []
    for i in range(len(cuts) - 1):
        b0, b1 = 16 * cuts[i], 16 * cuts[i + 1]
        a0, a1 = min(b0, a_pre), min(b1, a_pre)
        p0, p1 = max(b0, a_pre) - a_pre, max(b1, a_pre) - a_pre
        parts.append(Part(FIRST if i == 0 else MIDDLE, a0, a1, p0, p1))
    parts.append(Part(LAST, a_pre, aad_len, p_pre, pay_len))
    return parts


def split_cmac(rng: random.Random, msg_len: int, max_parts: int = 4) -> list[Part]:
    """A random legal split of a CMAC message of at least 17 bytes: FIRST and MIDDLE
    parts of whole blocks, LAST at least one byte (the message's last block)."""
    if msg_len < 17:
        raise ValueError("a CMAC message in parts needs more than one block")
    pre = 16 * rng.randint(1, (msg_len - 1) // 16)
    cuts = _cuts(rng, pre // 16, max_parts - 1)
    parts = [Part(FIRST if i == 0 else MIDDLE, 0, 0, 16 * cuts[i], 16 * cuts[i + 1])
             for i in range(len(cuts) - 1)]
    parts.append(Part(LAST, 0, 0, pre, msg_len))
    return parts


def _aes(key: bytes, block: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def _gf_mul(x: int, y: int) -> int:
    """x * y in GF(2^128), GCM's bit order (SP 800-38D, 6.3)."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if (x >> i) & 1:
            z ^= v
        v = (v >> 1) ^ (0xE1 << 120) if v & 1 else v >> 1
    return z


def gcm_context(key: bytes, aad: bytes, ct: bytes) -> bytes:
    """The context after FIRST/MIDDLE parts that carried ``aad`` and ``ct`` (the
    ciphertext), both whole blocks."""
    if len(aad) % 16 or len(ct) % 16:
        raise ValueError("whole blocks only")
    h = int.from_bytes(_aes(key, bytes(16)), "big")
    y = 0
    data = aad + ct
    for i in range(0, len(data), 16):
        y = _gf_mul(y ^ int.from_bytes(data[i:i + 16], "big"), h)
    return (y.to_bytes(16, "big") + (len(ct) // 16).to_bytes(4, "big")
            + len(aad).to_bytes(4, "big") + len(ct).to_bytes(4, "big") + bytes(4))


def cmac_context(key: bytes, msg: bytes) -> bytes:
    """The context after FIRST/MIDDLE parts that carried ``msg`` (whole blocks)."""
    if len(msg) % 16:
        raise ValueError("whole blocks only")
    c = bytes(16)
    for i in range(0, len(msg), 16):
        c = _aes(key, bytes(a ^ b for a, b in zip(c, msg[i:i + 16])))
    return c + bytes(16)


#: the mode codes of GCM and CMAC (aeskit.hw.codes.Mode)
_GCM, _CMAC = 6, 7


def _counts(ctx: bytes) -> tuple[int, int, int]:
    """(payload blocks, AAD bytes, payload bytes) of a context."""
    return (int.from_bytes(ctx[16:20], "big"), int.from_bytes(ctx[20:24], "big"),
            int.from_bytes(ctx[24:28], "big"))


def part_illegal(mode: int, part: int, aad_len: int, length: int, ctx: bytes) -> bool:
    """Whether a job of ``mode`` with CTRL.PART = ``part`` breaks the rules of messages
    in parts (docs/coproc.md "Messages in parts": ERR_CODE 8 before any bus access);
    ``ctx`` is CTX (read by MIDDLE and LAST). The other checks of a job (tag length,
    key length, ...) are not part of this."""
    if part == WHOLE:
        return False
    if mode not in (_GCM, _CMAC):
        return True
    gcm, mid = mode == _GCM, part in (FIRST, MIDDLE)
    if mid and ((gcm and aad_len % 16) or length % 16):
        return True
    if mode == _CMAC and length == 0:
        return True
    if gcm and mid and aad_len == 0 and length == 0:
        return True
    if gcm and part in (MIDDLE, LAST):
        blocks, a, p = _counts(ctx)
        if (aad_len and p) or a % 16 or p % 16 or blocks >> 28 or p >> 4 != blocks:
            return True
        if mid and (a + aad_len >= 1 << 32 or p + length >= 1 << 32):
            return True
    return False


def next_counts(mode: int, part: int, aad_len: int, length: int, ctx: bytes) -> bytes:
    """Bytes 16..31 of CTX after a FIRST or MIDDLE part that passed (GCM: the counts
    plus the part's; CMAC: zeros)."""
    if mode != _GCM:
        return bytes(16)
    blocks, a, p = _counts(ctx) if part == MIDDLE else (0, 0, 0)
    return ((blocks + length // 16).to_bytes(4, "big") + (a + aad_len).to_bytes(4, "big")
            + (p + length).to_bytes(4, "big") + bytes(4))
