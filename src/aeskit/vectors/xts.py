"""Parser of the XTS-AES CAVS files (SP 800-38E): XTSGenAES128.rsp and XTSGenAES256.rsp.

The files come in two folders that differ in how the tweak is given:

* ``tweak-128hexstr``: ``i = <32 hex digits>``, the 16-byte tweak value;
* ``tweak-dataunitseqno``: ``DataUnitSeqNumber = <decimal>``, the data-unit
  sequence number (the tweak is its 128-bit little-endian encoding,
  :func:`aeskit.model.xts.xts_tweak_from_seqno`).

Records sit under ``[ENCRYPT]`` or ``[DECRYPT]`` and give ``COUNT``,
``DataUnitLen`` (bits), ``Key`` (Key_1 || Key_2: 32 bytes for XTS-AES-128, 64 for
XTS-AES-256), the tweak, ``PT`` and ``CT``. The texts are printed in
ceil(DataUnitLen / 8) bytes; for a length that is not a multiple of 8 the unused
low bits of the last byte are zero (checked here).
"""

from __future__ import annotations

import re
from pathlib import Path

from aeskit.vectors.records import VectorFormatError, XtsVector
from aeskit.vectors.rsp import Field, Record, Section, parse_hex, parse_int, read_events

__all__ = ["XTS_KEY_SIZES", "parse_xts", "xts_file_key_size"]

#: AES key sizes of the XTS files (XTS-AES-128 and XTS-AES-256)
XTS_KEY_SIZES: tuple[int, ...] = (128, 256)
_NAME = re.compile(r"^XTSGenAES(128|256)\.rsp$")
_FIELDS = {"COUNT", "DATAUNITLEN", "KEY", "I", "DATAUNITSEQNUMBER", "PT", "CT"}


def xts_file_key_size(path: str | Path) -> int:
    """The AES key size (128 or 256) of an XTSGenAES<ks>.rsp file name."""
    m = _NAME.match(Path(path).name)
    if m is None:
        raise VectorFormatError(
            str(path), 1,
            f"unknown XTS vector file {Path(path).name!r}: expected XTSGenAES128.rsp "
            "or XTSGenAES256.rsp",
        )  # fmt: skip
    return int(m.group(1))


def _text(file: str, fld: Field, bits: int) -> bytes:
    value = parse_hex(file, fld)
    if len(value) != -(-bits // 8):
        raise VectorFormatError(
            file,
            fld.line,
            f"{fld.name} has {len(value)} bytes, DataUnitLen = {bits} takes {-(-bits // 8)}",
        )
    pad = 8 * len(value) - bits
    if value and value[-1] & ((1 << pad) - 1):
        raise VectorFormatError(
            file, fld.line, f"{fld.name}: the {pad} unused low bits of the last byte are not zero"
        )
    return value


def _record(file: str, rec: Record, decrypt: bool, key_size: int) -> XtsVector:
    for name, fld in rec.fields.items():
        if name not in _FIELDS:
            raise VectorFormatError(file, fld.line, f"unexpected field {name} in an XTS file")
    f = rec.fields
    if "I" in f and "DATAUNITSEQNUMBER" in f:
        raise VectorFormatError(
            file, f["DATAUNITSEQNUMBER"].line, "record gives both i and DataUnitSeqNumber"
        )
    missing = [n for n in ("DATAUNITLEN", "KEY", "PT", "CT") if n not in f]
    if "I" not in f and "DATAUNITSEQNUMBER" not in f:
        missing.append("i or DataUnitSeqNumber")
    if missing:
        raise VectorFormatError(file, rec.line, f"record lacks {', '.join(missing)}")
    bits = parse_int(file, f["DATAUNITLEN"])
    if bits < 128:
        raise VectorFormatError(
            file, f["DATAUNITLEN"].line, f"DataUnitLen must be at least 128 bits, got {bits}"
        )
    key = parse_hex(file, f["KEY"])
    if len(key) * 4 != key_size:
        raise VectorFormatError(
            file,
            f["KEY"].line,
            f"Key has {len(key)} bytes, XTS-AES-{key_size} takes {key_size // 4} (Key_1 || Key_2)",
        )
    tweak: bytes | None = None
    seqno: int | None = None
    if "I" in f:
        tweak = parse_hex(file, f["I"])
        if len(tweak) != 16:
            raise VectorFormatError(file, f["I"].line, f"i has {len(tweak)} bytes, expected 16")
    else:
        seqno = parse_int(file, f["DATAUNITSEQNUMBER"])
        if seqno >= 1 << 128:
            raise VectorFormatError(
                file, f["DATAUNITSEQNUMBER"].line, "DataUnitSeqNumber does not fit in 128 bits"
            )
    return XtsVector(
        file=file,
        line=rec.line,
        count=parse_int(file, f["COUNT"]),
        key=key,
        tweak=tweak,
        seqno=seqno,
        data_unit_len=bits,
        plaintext=_text(file, f["PT"], bits),
        ciphertext=_text(file, f["CT"], bits),
        decrypt=decrypt,
    )


def parse_xts(path: str | Path, key_size: int | None = None) -> list[XtsVector]:
    """Records of one XTSGenAES file; the key size defaults to the file name's."""
    file = str(path)
    ks = xts_file_key_size(path) if key_size is None else key_size
    if ks not in XTS_KEY_SIZES:
        raise ValueError(f"XTS key size must be 128 or 256, got {ks!r}")
    decrypt: bool | None = None
    out: list[XtsVector] = []
    for event in read_events(path):
        if isinstance(event, Section):
            if event.text.upper() not in ("ENCRYPT", "DECRYPT"):
                raise VectorFormatError(
                    file,
                    event.line,
                    f"unknown section [{event.text}], expected [ENCRYPT] or [DECRYPT]",
                )
            decrypt = event.text.upper() == "DECRYPT"
        elif isinstance(event, Record):
            if decrypt is None:
                raise VectorFormatError(file, event.line, "record before [ENCRYPT] or [DECRYPT]")
            out.append(_record(file, event, decrypt, ks))
        else:
            fld = event.field
            raise VectorFormatError(file, fld.line, f"field {fld.name} outside a COUNT record")
    return out
