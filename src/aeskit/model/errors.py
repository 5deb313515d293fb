"""Exceptions of the golden model.

Both are subclasses of :class:`ValueError`, so callers that only care about "bad
input" can catch ``ValueError``; callers that must tell a forged message from a
programming error catch :class:`TagMismatchError` on its own.
"""

from __future__ import annotations

__all__ = ["KeyLengthError", "TagMismatchError"]


class KeyLengthError(ValueError):
    """An AES key that is not 16, 24 or 32 bytes long."""


class TagMismatchError(ValueError):
    """An authenticated mode (CCM) found that the tag does not match.

    Raised instead of returning any plaintext: the caller never sees data that
    failed authentication.
    """
