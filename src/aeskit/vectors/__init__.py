"""NIST CAVP test vectors for AES, read from the installed vector packages.

Hex strings in the files are byte 0 first (FIPS-197 order) and become ``bytes``
in the same order. Every record knows its ``file`` and ``line``.

Modules:

* :mod:`aeskit.vectors.records` -- :class:`BlockVector`, :class:`MctVector`,
  :class:`CcmVector`, :class:`VectorFormatError`
* :mod:`aeskit.vectors.rsp` -- the shared line/section/record reader
* :mod:`aeskit.vectors.aesavs` -- KAT, MMT, MCT and CTR files
* :mod:`aeskit.vectors.ccm` -- CCM files
* :mod:`aeskit.vectors.kinds` -- file-name dispatch, :func:`parse_rsp` and the typed
  ``parse_block_file`` / ``parse_mct_file`` / ``parse_ccm_file``
* :mod:`aeskit.vectors.catalog` -- where the files are; ``*_vectors`` accessors
"""

from __future__ import annotations

from aeskit.vectors.catalog import (
    KEY_SIZES,
    MCT_MODES,
    block_files,
    block_vectors,
    ccm_files,
    ccm_vectors,
    cryptography_aes_dir,
    ctr_files,
    ctr_vectors,
    mct_files,
    mct_vectors,
    pycryptodome_aes_dir,
)
from aeskit.vectors.ccm import CCM_KINDS
from aeskit.vectors.kinds import (
    BLOCK_KINDS,
    BLOCK_MODES,
    FileKind,
    file_kind,
    parse_block_file,
    parse_ccm_file,
    parse_mct_file,
    parse_rsp,
)
from aeskit.vectors.records import BlockVector, CcmVector, MctVector, VectorFormatError

__all__ = [
    "BlockVector",
    "MctVector",
    "CcmVector",
    "VectorFormatError",
    "FileKind",
    "file_kind",
    "parse_rsp",
    "parse_block_file",
    "parse_mct_file",
    "parse_ccm_file",
    "block_vectors",
    "mct_vectors",
    "ccm_vectors",
    "ctr_vectors",
    "block_files",
    "mct_files",
    "ccm_files",
    "ctr_files",
    "cryptography_aes_dir",
    "pycryptodome_aes_dir",
    "KEY_SIZES",
    "BLOCK_MODES",
    "BLOCK_KINDS",
    "MCT_MODES",
    "CCM_KINDS",
]
