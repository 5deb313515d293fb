"""Reader of the CAVS ``.rsp`` text layout, shared by all vector kinds.

A file is lines of four sorts (LF or CRLF endings):

* ``# comment`` and blank lines;
* ``[SECTION]`` headers, e.g. ``[ENCRYPT]`` or ``[Alen = 0, Plen = 0, Nlen = 7, Tlen = 4]``;
* ``NAME = value`` fields.

A *record* starts at a ``COUNT``/``Count`` field and takes the fields that follow
it up to the next blank line, section header or ``COUNT``. Fields outside a
record are *context* (CCM files give ``Key``/``Nonce`` once per section, and
``Plen = 24`` style parameters once per file). Field names are upper-cased.

This module only splits the text; the kind-specific parsers give it meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from aeskit.vectors.records import VectorFormatError

__all__ = [
    "Field",
    "Section",
    "Context",
    "Record",
    "Event",
    "read_events",
    "parse_hex",
    "parse_int",
]

_FIELD = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")
_HEX = re.compile(r"^[0-9A-Fa-f]*$")


@dataclass(frozen=True)
class Field:
    """``NAME = value`` at ``line``."""

    line: int
    name: str
    value: str


@dataclass(frozen=True)
class Section:
    """A ``[text]`` header at ``line`` (``text`` without the brackets)."""

    line: int
    text: str


@dataclass(frozen=True)
class Context:
    """A field outside any record."""

    field: Field


@dataclass
class Record:
    """The fields of one record, by upper-case name; ``line`` is its COUNT line."""

    line: int
    fields: dict[str, Field] = field(default_factory=dict)


Event = Section | Context | Record


def read_events(path: str | Path) -> list[Event]:
    """Split a vector file into sections, context fields and records, in file order."""
    file = str(path)
    try:
        text = Path(path).read_text(encoding="ascii")
    except UnicodeDecodeError as exc:
        bad_line = Path(path).read_bytes()[: exc.start].count(b"\n") + 1
        raise VectorFormatError(file, bad_line, "not ASCII text") from exc
    events: list[Event] = []
    record: Record | None = None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            record = None
            continue
        if line.startswith("#"):
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                raise VectorFormatError(file, lineno, f"section header without ']': {line!r}")
            record = None
            events.append(Section(lineno, line[1:-1].strip()))
            continue
        match = _FIELD.match(line)
        if match is None:
            raise VectorFormatError(file, lineno, f"expected 'NAME = value', got {line!r}")
        fld = Field(lineno, match.group(1).upper(), match.group(2))
        if fld.name == "COUNT":
            record = Record(lineno)
            events.append(record)
        if record is None:
            events.append(Context(fld))
        elif fld.name in record.fields:
            raise VectorFormatError(file, lineno, f"{fld.name} given twice in one record")
        else:
            record.fields[fld.name] = fld
    return events


def parse_hex(file: str, fld: Field) -> bytes:
    """The field's value as bytes; VectorFormatError unless it is an even number of hex digits."""
    if not _HEX.match(fld.value) or len(fld.value) % 2:
        raise VectorFormatError(file, fld.line, f"{fld.name} is not valid hex: {fld.value!r}")
    return bytes.fromhex(fld.value)


def parse_int(file: str, fld: Field) -> int:
    """The field's value as a decimal integer."""
    if not fld.value.isdigit():
        raise VectorFormatError(
            file, fld.line, f"{fld.name} is not a decimal integer: {fld.value!r}"
        )
    return int(fld.value)
