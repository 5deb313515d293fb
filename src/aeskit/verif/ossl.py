"""Expected values from OpenSSL (the ``cryptography`` package, the ``verify`` extra) for
the benches: GCM with any IV length and a tag truncated to 4..16 bytes, and CMAC with a
truncated tag. Independent of aeskit's RTL and golden model."""

from __future__ import annotations

from cryptography.hazmat.primitives import cmac as _cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

__all__ = ["cmac", "gcm"]


def gcm(key: bytes, iv: bytes, pt: bytes, aad: bytes, tag_len: int) -> tuple[bytes, bytes]:
    """GCM encryption of ``pt`` with ``aad``: (ciphertext, the first ``tag_len`` bytes of
    the tag)."""
    enc = Cipher(algorithms.AES(key), modes.GCM(iv, min_tag_length=4)).encryptor()
    enc.authenticate_additional_data(aad)
    ct = enc.update(pt) + enc.finalize()
    return ct, enc.tag[:tag_len]


def cmac(key: bytes, msg: bytes, tag_len: int) -> bytes:
    """The first ``tag_len`` bytes of AES-CMAC(``key``, ``msg``)."""
    c = _cmac.CMAC(algorithms.AES(key))
    c.update(msg)
    return c.finalize()[:tag_len]
