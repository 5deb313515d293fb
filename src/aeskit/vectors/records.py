"""Typed records of the NIST CAVP test vectors and the parser's error type.

Every record remembers the ``file`` it came from and the ``line`` (1-based) where
it starts (its ``COUNT``/``Count`` line), so a failing test can point at it.
All byte strings are as printed in the file: byte 0 first (FIPS-197 order).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "VectorFormatError",
    "BlockVector",
    "MctVector",
    "CcmVector",
    "GcmVector",
    "XtsVector",
    "CmacVector",
]


class VectorFormatError(ValueError):
    """A vector file that cannot be parsed; ``str()`` is ``"FILE:LINE: what is wrong"``."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message


@dataclass(frozen=True)
class BlockVector:
    """A known-answer (GFSbox, KeySbox, VarKey, VarTxt), MMT or CTR record.

    ``decrypt`` is True for records of a ``[DECRYPT]`` section (ciphertext is the
    input). Multi-block MMT records keep the whole message. ``iv`` is None for
    ECB; for CTR it is the initial counter block.
    """

    file: str
    line: int
    count: int
    key: bytes
    iv: bytes | None
    plaintext: bytes
    ciphertext: bytes
    decrypt: bool
    #: ECB, CBC, CFB128, CFB8, OFB or CTR
    mode: str = ""
    #: GFSbox, KeySbox, VarKey, VarTxt, MMT or CTR
    kind: str = ""

    @property
    def key_size(self) -> int:
        """Key size in bits."""
        return 8 * len(self.key)


@dataclass(frozen=True)
class MctVector:
    """One outer iteration of a Monte Carlo Test file (``COUNT = i``).

    ``plaintext`` is the iteration's input when encrypting and its output when
    decrypting (``decrypt`` True); ``iv`` is None for ECB.
    """

    file: str
    line: int
    count: int
    key: bytes
    iv: bytes | None
    plaintext: bytes
    ciphertext: bytes
    decrypt: bool
    mode: str = ""

    @property
    def key_size(self) -> int:
        """Key size in bits."""
        return 8 * len(self.key)

    @property
    def input(self) -> bytes:
        """The text fed in: ciphertext when decrypting, else plaintext."""
        return self.ciphertext if self.decrypt else self.plaintext

    @property
    def output(self) -> bytes:
        """The text expected out."""
        return self.plaintext if self.decrypt else self.ciphertext


@dataclass(frozen=True)
class CcmVector:
    """One CCM record (SP 800-38C CAVS files VADT, VNT, VPT, VTT, DVPT).

    ``ct`` is ciphertext || tag as in the file; ``tag_len`` in bytes. ``adata``
    and ``payload`` are empty when the section says Alen/Plen = 0 (the files then
    print ``00``). ``expect_pass`` is None for the encryption files, and True or
    False for the DVPT decryption-verification records; ``payload`` is None for a
    DVPT record that must fail.
    """

    file: str
    line: int
    count: int
    key: bytes
    nonce: bytes
    adata: bytes
    payload: bytes | None
    ct: bytes
    tag_len: int
    expect_pass: bool | None
    #: VADT, VNT, VPT, VTT or DVPT
    kind: str

    @property
    def key_size(self) -> int:
        """Key size in bits."""
        return 8 * len(self.key)


@dataclass(frozen=True)
class GcmVector:
    """One GCM record (SP 800-38D CAVS files gcmEncryptExtIV*, gcmDecrypt*; Wycheproof).

    ``decrypt`` is True for the decryption-verification files. ``expect_pass`` is
    None for the encryption files, True or False for decryption records (a CAVS
    ``FAIL`` marker or a Wycheproof ``invalid`` result gives False). ``plaintext``
    is None when the file gives none (the CAVS FAIL records). The tag length is
    ``len(tag)``. Wycheproof records have ``count`` = tcId and ``flags``.
    """

    file: str
    line: int
    count: int
    key: bytes
    iv: bytes
    plaintext: bytes | None
    aad: bytes
    ciphertext: bytes
    tag: bytes
    decrypt: bool
    expect_pass: bool | None
    #: Wycheproof flags (empty for the CAVS files)
    flags: tuple[str, ...] = ()

    @property
    def key_size(self) -> int:
        """Key size in bits."""
        return 8 * len(self.key)


@dataclass(frozen=True)
class XtsVector:
    """One XTS-AES record (SP 800-38E CAVS files XTSGenAES128/256).

    ``key`` is Key_1 || Key_2 (32 or 64 bytes). Exactly one of ``tweak`` (the
    16-byte ``i`` of the tweak-128hexstr files) and ``seqno`` (``DataUnitSeqNumber``
    of the tweak-dataunitseqno files) is set. ``data_unit_len`` is in bits; the
    texts are ceil(data_unit_len / 8) bytes as printed (unused low bits of the
    last byte zero). ``decrypt`` is True in the ``[DECRYPT]`` section.
    """

    file: str
    line: int
    count: int
    key: bytes
    tweak: bytes | None
    seqno: int | None
    data_unit_len: int
    plaintext: bytes
    ciphertext: bytes
    decrypt: bool

    @property
    def key_size(self) -> int:
        """AES key size in bits (of Key_1 alone: 128 or 256)."""
        return 4 * len(self.key)


@dataclass(frozen=True)
class CmacVector:
    """One AES-CMAC record (SP 800-38B examples; Wycheproof aes_cmac_test.json).

    ``tag`` is the expected MAC (its length is the tag length). ``expect_pass`` is
    None for the SP 800-38B examples and True/False for Wycheproof (``invalid``
    records carry a modified tag or a key of a size AES does not have).
    """

    file: str
    line: int
    count: int
    key: bytes
    message: bytes
    tag: bytes
    expect_pass: bool | None = None
    #: Wycheproof flags (empty for the NIST files)
    flags: tuple[str, ...] = ()

    @property
    def key_size(self) -> int:
        """Key size in bits."""
        return 8 * len(self.key)
