"""Which parser a vector file needs, decided from its file name, and :func:`parse_rsp`.

Recognised names (key size 128, 192 or 256 in the name):

* ``{ECB,CBC,CFB128,CFB8,OFB}{GFSbox,KeySbox,VarKey,VarTxt,MMT,MCT}<ks>.rsp`` (AESAVS)
* ``{VADT,VNT,VPT,VTT,DVPT}<ks>.rsp`` and ``DVPT<ks>.txt`` (CCM)
* ``aes-<ks>-ctr.txt`` (AES-CTR, RFC 3686 vectors)

CFB1 files give bit strings, not bytes, and are refused like any unknown name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from aeskit.vectors.aesavs import parse_aesavs
from aeskit.vectors.ccm import parse_ccm
from aeskit.vectors.records import BlockVector, CcmVector, MctVector, VectorFormatError

__all__ = [
    "FileKind",
    "file_kind",
    "parse_rsp",
    "parse_block_file",
    "parse_mct_file",
    "parse_ccm_file",
    "BLOCK_MODES",
    "BLOCK_KINDS",
]

BLOCK_MODES: tuple[str, ...] = ("ECB", "CBC", "CFB128", "CFB8", "OFB")
BLOCK_KINDS: tuple[str, ...] = ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")

_AESAVS = re.compile(
    r"^(ECB|CBC|CFB128|CFB8|OFB)(GFSbox|KeySbox|VarKey|VarTxt|MMT|MCT)(128|192|256)\.rsp$"
)
_CCM = re.compile(r"^(VADT|VNT|VPT|VTT|DVPT)(128|192|256)\.rsp$|^(DVPT)(128|192|256)\.txt$")
_CTR = re.compile(r"^aes-(128|192|256)-ctr\.txt$")


@dataclass(frozen=True)
class FileKind:
    """What a vector file holds: ``family`` is ``aesavs``, ``ccm`` or ``ctr``."""

    family: str
    mode: str
    kind: str
    key_size: int


def file_kind(path: str | Path) -> FileKind:
    """Classify a vector file by its name; VectorFormatError for an unknown name."""
    name = Path(path).name
    if m := _AESAVS.match(name):
        return FileKind("aesavs", m.group(1), m.group(2), int(m.group(3)))
    if m := _CCM.match(name):
        kind, size = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return FileKind("ccm", "CCM", kind, int(size))
    if m := _CTR.match(name):
        return FileKind("ctr", "CTR", "CTR", int(m.group(1)))
    raise VectorFormatError(
        str(path), 1,
        f"unknown vector file kind {name!r}: expected an AESAVS file such as CBCMMT128.rsp "
        "(modes ECB, CBC, CFB128, CFB8, OFB), a CCM file such as VADT128.rsp, or aes-128-ctr.txt",
    )  # fmt: skip


def parse_rsp(path: str | Path) -> list[BlockVector] | list[MctVector] | list[CcmVector]:
    """Parse one vector file, choosing the parser from the file name.

    AESAVS KAT/MMT and CTR files give :class:`BlockVector`, MCT files
    :class:`MctVector`, CCM files :class:`CcmVector`. Raises
    :class:`VectorFormatError` ("FILE:LINE: what is wrong") on any defect.
    """
    fk = file_kind(path)
    if fk.family == "ccm":
        return parse_ccm(path, fk.kind, fk.key_size)
    return parse_aesavs(path, fk.mode, fk.kind, fk.key_size)


def _expect_family(path: str | Path, wanted: str) -> FileKind:
    fk = file_kind(path)
    is_mct = fk.kind == "MCT"
    family = {"aesavs": "mct" if is_mct else "block", "ctr": "block", "ccm": "ccm"}[fk.family]
    if family != wanted:
        raise VectorFormatError(
            str(path), 1, f"{Path(path).name} holds {family} vectors, not {wanted} vectors"
        )
    return fk


def parse_block_file(path: str | Path) -> list[BlockVector]:
    """Like :func:`parse_rsp`, for a KAT, MMT or CTR file only (typed result)."""
    fk = _expect_family(path, "block")
    records = parse_aesavs(path, fk.mode, fk.kind, fk.key_size)
    return [v for v in records if isinstance(v, BlockVector)]


def parse_mct_file(path: str | Path) -> list[MctVector]:
    """Like :func:`parse_rsp`, for a Monte Carlo Test file only (typed result)."""
    fk = _expect_family(path, "mct")
    records = parse_aesavs(path, fk.mode, fk.kind, fk.key_size)
    return [v for v in records if isinstance(v, MctVector)]


def parse_ccm_file(path: str | Path) -> list[CcmVector]:
    """Like :func:`parse_rsp`, for a CCM file only (typed result)."""
    fk = _expect_family(path, "ccm")
    return parse_ccm(path, fk.kind, fk.key_size)
