"""Encrypt or decrypt bytes through an RTL core in simulation (the compiled harness).

This is the path behind ``aeskit encrypt`` / ``aeskit decrypt``: the data goes
through the Verilator model of the core, never through the golden model. Modes:

* ``ecb``: data must be a whole number of 16-byte blocks; blocks are pipelined.
* ``cbc``: whole blocks; encryption is chained (one block in flight, as CBC
  requires), decryption is pipelined (the core decrypts all blocks, XOR follows).
* ``ctr``: any length; ``iv`` is the initial 128-bit counter block, incremented as a
  128-bit big-endian integer; the core only ever encrypts (decrypt == encrypt).
"""

from __future__ import annotations

from typing import Callable

from aeskit.hw.registry import CoreSpec
from aeskit.sim.harness import Harness, RtlCipher

MODES = ("ecb", "cbc", "ctr")
CHUNK_BLOCKS = 8192


class CryptInputError(ValueError):
    """Bad user input (key, IV, data length, mode) for a file operation."""


def parse_hex(text: str, what: str) -> bytes:
    t = text.strip().lower().removeprefix("0x").replace(" ", "").replace("_", "")
    if len(t) % 2:
        raise CryptInputError(f"{what}: odd number of hex digits ({len(t)})")
    try:
        return bytes.fromhex(t)
    except ValueError:
        bad = next((c for c in t if c not in "0123456789abcdef"), "?")
        raise CryptInputError(f"{what}: not hex (bad character {bad!r})") from None


def check_args(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, decrypt: bool,
               length: int) -> None:
    if mode not in MODES:
        raise CryptInputError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if len(key) not in (16, 24, 32):
        raise CryptInputError(f"key must be 16, 24 or 32 bytes (32, 48 or 64 hex digits), "
                              f"got {len(key)} bytes")
    if len(key) * 8 not in core.key_sizes:
        raise CryptInputError(f"core {core.name} does not support {len(key) * 8}-bit keys")
    if mode == "ecb":
        if iv is not None:
            raise CryptInputError("ECB takes no IV")
    elif iv is None:
        raise CryptInputError(f"{mode.upper()} needs --iv (16 bytes, 32 hex digits)")
    elif len(iv) != 16:
        raise CryptInputError(f"IV must be 16 bytes (32 hex digits), got {len(iv)} bytes")
    if mode in ("ecb", "cbc") and length % 16:
        raise CryptInputError(f"{mode.upper()} needs a whole number of 16-byte blocks; the input "
                              f"is {length} bytes (use --mode ctr, or pad the file)")
    if decrypt and mode in ("ecb", "cbc") and not core.decrypt:
        raise CryptInputError(f"core {core.name} cannot decrypt; {mode.upper()} decryption needs it")


def _xor(a: bytes, b: bytes) -> bytes:
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def crypt_bytes(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, data: bytes,
                decrypt: bool, *, progress: Callable[[str], None] | None = None,
                stall_pct: int = 0, gap_pct: int = 0, seed: int = 1) -> bytes:
    """Run ``data`` through ``core`` in ``mode``; returns the result."""
    check_args(core, mode, key, iv, decrypt, len(data))
    blocks = [data[i:i + 16] for i in range(0, len(data), 16)]
    out: list[bytes] = []
    with Harness(core, progress) as h:
        cipher = RtlCipher(h, key, gap_pct=gap_pct, stall_pct=stall_pct, seed=seed)
        n = len(blocks)
        if mode == "cbc" and not decrypt:
            assert iv is not None
            prev = iv
            for i, b in enumerate(blocks):
                prev = cipher.encrypt(_xor(b, prev))
                out.append(prev)
                if progress and i % 16384 == 16383:
                    progress(f"{i + 1}/{n} blocks")
            return b"".join(out)
        ctr = int.from_bytes(iv, "big") if (mode == "ctr" and iv is not None) else 0
        for start in range(0, n, CHUNK_BLOCKS):
            chunk = blocks[start:start + CHUNK_BLOCKS]
            if mode == "ecb":
                out += cipher.decrypt_many(chunk) if decrypt else cipher.encrypt_many(chunk)
            elif mode == "cbc":
                assert iv is not None
                plain = cipher.decrypt_many(chunk)
                prevs = [iv if start + j == 0 else blocks[start + j - 1] for j in range(len(chunk))]
                out += [_xor(p, c) for p, c in zip(plain, prevs)]
            else:  # ctr
                counters = [((ctr + start + j) % (1 << 128)).to_bytes(16, "big")
                            for j in range(len(chunk))]
                stream = cipher.encrypt_many(counters)
                out += [_xor(b, s[:len(b)]) for b, s in zip(chunk, stream)]
            if progress and n > CHUNK_BLOCKS:
                progress(f"{min(start + CHUNK_BLOCKS, n)}/{n} blocks")
    return b"".join(out)


def reference_crypt(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool) -> bytes:
    """The same operation through OpenSSL (``cryptography``), for ``--check``."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
         "ctr": lambda: modes.CTR(iv)}[mode]()
    c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()
