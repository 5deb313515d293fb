"""Parser of the AESAVS files (KAT, MMT, MCT) and of the AES-CTR files.

Layout: ``[ENCRYPT]`` and ``[DECRYPT]`` sections of records with ``COUNT``,
``KEY``, ``IV`` (absent for ECB), ``PLAINTEXT`` and ``CIPHERTEXT`` (decrypt
records list the ciphertext first). The CTR files (RFC 3686 vectors) use the
same layout with ``IV`` holding the initial counter block and texts of any length.
"""

from __future__ import annotations

from pathlib import Path

from aeskit.vectors.records import BlockVector, MctVector, VectorFormatError
from aeskit.vectors.rsp import Context, Record, Section, parse_hex, parse_int, read_events

__all__ = ["parse_aesavs"]

_SECTIONS = {"ENCRYPT": False, "DECRYPT": True}


def _check_lengths(
    file: str, rec: Record, mode: str, kind: str, key_size: int, values: dict[str, bytes]
) -> None:
    def fail(name: str, what: str) -> VectorFormatError:
        return VectorFormatError(file, rec.fields[name].line, f"{name} {what}")

    if len(values["KEY"]) * 8 != key_size:
        raise fail("KEY", f"has {len(values['KEY'])} bytes, the file is for {key_size}-bit keys")
    if "IV" in values and len(values["IV"]) != 16:
        raise fail("IV", f"must be 16 bytes, got {len(values['IV'])}")
    pt, ct = values["PLAINTEXT"], values["CIPHERTEXT"]
    if len(pt) != len(ct):
        raise fail("CIPHERTEXT", f"has {len(ct)} bytes but PLAINTEXT has {len(pt)}")
    if kind == "CTR":
        return
    if kind == "MMT" and mode != "CFB8":
        if not pt or len(pt) % 16:
            raise fail("PLAINTEXT", f"must be a positive multiple of 16 bytes, got {len(pt)}")
    elif kind != "MMT" and mode != "CFB8" and len(pt) != 16:
        raise fail("PLAINTEXT", f"must be 16 bytes, got {len(pt)}")


def parse_aesavs(
    path: str | Path, mode: str, kind: str, key_size: int
) -> list[BlockVector] | list[MctVector]:
    """Records of one AESAVS/CTR file; MctVector for ``kind == "MCT"``, else BlockVector."""
    file = str(path)
    needed = ["KEY", "PLAINTEXT", "CIPHERTEXT"] + ([] if mode == "ECB" else ["IV"])
    allowed = {"COUNT", *needed}
    decrypt: bool | None = None
    blocks: list[BlockVector] = []
    mcts: list[MctVector] = []
    for event in read_events(path):
        if isinstance(event, Section):
            if event.text not in _SECTIONS:
                raise VectorFormatError(
                    file,
                    event.line,
                    f"unknown section [{event.text}], expected [ENCRYPT] or [DECRYPT]",
                )
            decrypt = _SECTIONS[event.text]
            continue
        if isinstance(event, Context):
            fld = event.field
            raise VectorFormatError(file, fld.line, f"field {fld.name} outside a COUNT record")
        rec = event
        if decrypt is None:
            raise VectorFormatError(file, rec.line, "record before any [ENCRYPT]/[DECRYPT] section")
        for name, fld in rec.fields.items():
            if name not in allowed:
                raise VectorFormatError(
                    file, fld.line, f"unexpected field {name} in a {mode} {kind} file"
                )
        missing = [n for n in needed if n not in rec.fields]
        if missing:
            raise VectorFormatError(file, rec.line, f"record lacks {', '.join(missing)}")
        values = {n: parse_hex(file, rec.fields[n]) for n in needed}
        _check_lengths(file, rec, mode, kind, key_size, values)
        count = parse_int(file, rec.fields["COUNT"])
        iv = values.get("IV")
        if kind == "MCT":
            mcts.append(
                MctVector(file, rec.line, count, values["KEY"], iv, values["PLAINTEXT"],
                          values["CIPHERTEXT"], decrypt, mode)
            )  # fmt: skip
        else:
            blocks.append(
                BlockVector(file, rec.line, count, values["KEY"], iv, values["PLAINTEXT"],
                            values["CIPHERTEXT"], decrypt, mode, kind)
            )  # fmt: skip
    return mcts if kind == "MCT" else blocks
