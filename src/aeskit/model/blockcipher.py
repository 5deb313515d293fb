"""The block-cipher interface every mode of operation in aeskit is written against.

Anything with ``encrypt(bytes16) -> bytes16`` and ``decrypt(bytes16) -> bytes16``
is a :class:`BlockCipher`: the golden model :class:`aeskit.model.AES`, or a
wrapper that pushes each block through an RTL core in simulation. The modes
call the cipher once per 16-byte block and never look inside it.

Blocks are 16 ``bytes`` in FIPS-197 order (byte 0 first; RTL bits [127:120]).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

__all__ = ["BLOCK_SIZE", "BlockCipher", "CipherFactory", "xor_bytes", "check_bytes"]

BLOCK_SIZE = 16


@runtime_checkable
class BlockCipher(Protocol):
    """A keyed 128-bit block cipher."""

    def encrypt(self, block: bytes) -> bytes:
        """Forward cipher of one 16-byte block."""
        ...

    def decrypt(self, block: bytes) -> bytes:
        """Inverse cipher of one 16-byte block."""
        ...


#: builds a keyed cipher from a key (used by the Monte Carlo tests, which re-key)
CipherFactory = Callable[[bytes], BlockCipher]


def xor_bytes(a: bytes, b: bytes) -> bytes:
    """Bytewise XOR of two equally long byte strings."""
    if len(a) != len(b):
        raise ValueError(f"xor of unequal lengths {len(a)} and {len(b)}")
    return (int.from_bytes(a, "big") ^ int.from_bytes(b, "big")).to_bytes(len(a), "big")


def check_bytes(name: str, value: bytes, length: int | None = None) -> bytes:
    """``value`` as ``bytes``; TypeError if it is not bytes-like, ValueError on a wrong length."""
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be bytes, got {type(value).__name__}")
    value = bytes(value)
    if length is not None and len(value) != length:
        raise ValueError(f"{name} must be exactly {length} bytes, got {len(value)}")
    return value
