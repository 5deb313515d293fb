"""Parser of the CCM CAVS files (SP 800-38C): VADT, VNT, VPT, VTT and DVPT.

The lengths Alen, Plen, Nlen, Tlen (bytes) come from ``NAME = n`` lines at the
top of the file and from ``[NAME = n, ...]`` section headers. ``Key`` and
``Nonce`` are given either once per section (before the first ``Count``) or per
record; a new section forgets the previous section's ``Key``/``Nonce``.

Records carry ``Count``, ``Adata``, ``Payload``, ``CT`` (ciphertext || tag) and,
in DVPT, ``Result = Pass``/``Fail`` -- a failing record has no ``Payload``. With
Alen = 0 the file prints ``Adata = 00`` (likewise ``Payload = 00`` for Plen = 0):
that means empty. The ``DVPT*.txt`` variants append a reason to the result
(``Fail (2 - CT changed)``), which is accepted and ignored.
"""

from __future__ import annotations

from pathlib import Path

from aeskit.vectors.records import CcmVector, VectorFormatError
from aeskit.vectors.rsp import Field, Record, Section, parse_hex, parse_int, read_events

__all__ = ["CCM_KINDS", "parse_ccm"]

CCM_KINDS: tuple[str, ...] = ("VADT", "VNT", "VPT", "VTT", "DVPT")
_PARAMS = ("ALEN", "PLEN", "NLEN", "TLEN")
_RECORD_FIELDS = {"COUNT", "KEY", "NONCE", "ADATA", "PAYLOAD", "CT", "RESULT"}


def _section_params(file: str, sec: Section) -> dict[str, int]:
    params: dict[str, int] = {}
    for part in sec.text.split(","):
        name, eq, value = part.partition("=")
        name, value = name.strip().upper(), value.strip()
        if not eq or name not in _PARAMS or not value.isdigit():
            raise VectorFormatError(
                file,
                sec.line,
                f"unknown section [{sec.text}], expected [Alen|Plen|Nlen|Tlen = n, ...]",
            )
        params[name] = int(value)
    return params


def _sized_hex(file: str, fld: Field, length: int, what: str) -> bytes:
    """Hex field of ``length`` bytes; a lone ``00`` stands for empty when length is 0."""
    value = parse_hex(file, fld)
    if length == 0 and value in (b"", b"\x00"):
        return b""
    if len(value) != length:
        raise VectorFormatError(
            file, fld.line, f"{fld.name} has {len(value)} bytes, {what} says {length}"
        )
    return value


def _result(file: str, fld: Field) -> bool:
    word = fld.value.split("(")[0].strip()
    if word not in ("Pass", "Fail"):
        raise VectorFormatError(file, fld.line, f"Result must be Pass or Fail, got {fld.value!r}")
    return word == "Pass"


def _record(
    file: str,
    rec: Record,
    kind: str,
    key_size: int,
    params: dict[str, int],
    context: dict[str, Field],
) -> CcmVector:
    for name, fld in rec.fields.items():
        if name not in _RECORD_FIELDS or (name == "RESULT" and kind != "DVPT"):
            raise VectorFormatError(file, fld.line, f"unexpected field {name} in a CCM {kind} file")
    missing_params = [p for p in _PARAMS if p not in params]
    if missing_params:
        raise VectorFormatError(
            file, rec.line, f"no {', '.join(missing_params)} given before this record"
        )
    fields = {**context, **rec.fields}
    expect_pass: bool | None = None
    needed = ["KEY", "NONCE", "ADATA", "CT"]
    if kind == "DVPT":
        if "RESULT" not in fields:
            raise VectorFormatError(file, rec.line, "record lacks RESULT")
        expect_pass = _result(file, fields["RESULT"])
    if expect_pass is not False:
        needed.append("PAYLOAD")
    elif "PAYLOAD" in rec.fields:
        line = rec.fields["PAYLOAD"].line
        raise VectorFormatError(file, line, "a failing DVPT record gives no Payload")
    missing = [n for n in needed if n not in fields]
    if missing:
        raise VectorFormatError(file, rec.line, f"record lacks {', '.join(missing)}")
    alen, plen, nlen, tlen = (params[p] for p in _PARAMS)
    key = parse_hex(file, fields["KEY"])
    if len(key) * 8 != key_size:
        raise VectorFormatError(
            file,
            fields["KEY"].line,
            f"KEY has {len(key)} bytes, the file is for {key_size}-bit keys",
        )
    payload = _sized_hex(file, fields["PAYLOAD"], plen, "Plen") if "PAYLOAD" in needed else None
    return CcmVector(
        file=file,
        line=rec.line,
        count=parse_int(file, fields["COUNT"]),
        key=key,
        nonce=_sized_hex(file, fields["NONCE"], nlen, "Nlen"),
        adata=_sized_hex(file, fields["ADATA"], alen, "Alen"),
        payload=payload,
        ct=_sized_hex(file, fields["CT"], plen + tlen, "Plen + Tlen"),
        tag_len=tlen,
        expect_pass=expect_pass,
        kind=kind,
    )


def parse_ccm(path: str | Path, kind: str, key_size: int) -> list[CcmVector]:
    """Records of one CCM file of the given kind (VADT, VNT, VPT, VTT or DVPT)."""
    file = str(path)
    params: dict[str, int] = {}
    context: dict[str, Field] = {}
    out: list[CcmVector] = []
    for event in read_events(path):
        if isinstance(event, Section):
            params.update(_section_params(file, event))
            context.clear()
        elif isinstance(event, Record):
            out.append(_record(file, event, kind, key_size, params, context))
        else:
            fld = event.field
            if fld.name in _PARAMS:
                params[fld.name] = parse_int(file, fld)
            elif fld.name in ("KEY", "NONCE"):
                context[fld.name] = fld
            else:
                raise VectorFormatError(file, fld.line, f"field {fld.name} outside a Count record")
    return out
