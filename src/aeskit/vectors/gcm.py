"""Parsers of the GCM vector files: the CAVS files of SP 800-38D (gcmEncryptExtIV<ks>.rsp,
gcmDecrypt<ks>.rsp) and Wycheproof's ``aes_gcm_test.json``.

Each group of records opens with five section headers giving lengths in *bits*:
``[Keylen = 128]``, ``[IVlen = 96]``, ``[PTlen = 0]``, ``[AADlen = 0]``,
``[Taglen = 128]``. A record starts at ``Count`` and gives ``Key``, ``IV``, ``PT``,
``AAD``, ``CT`` and ``Tag`` (an empty value, ``PT = ``, is an empty string). In
the decryption files a record whose tag must be rejected has no ``PT`` line but a
bare ``FAIL`` line instead. Every length is checked against its header.

The bare ``FAIL`` line is why this file has its own line reader instead of
:func:`aeskit.vectors.rsp.read_events` (which only knows ``NAME = value`` lines).

Wycheproof files are JSON: ``testGroups[].tests[]`` with hex ``key``, ``iv``, ``aad``,
``msg``, ``ct``, ``tag`` and ``result`` (``valid``/``acceptable``/``invalid``);
:func:`read_wycheproof` is shared with the CMAC parser.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from aeskit.vectors.records import GcmVector, VectorFormatError
from aeskit.vectors.rsp import Field, parse_hex, parse_int

__all__ = [
    "GCM_DIRECTIONS",
    "parse_gcm",
    "gcm_file_direction",
    "parse_wycheproof_gcm",
    "read_wycheproof",
    "wycheproof_hex",
    "wycheproof_result",
]

#: ``Encrypt`` (gcmEncryptExtIV files) and ``Decrypt`` (gcmDecrypt files)
GCM_DIRECTIONS: tuple[str, ...] = ("Encrypt", "Decrypt")
_PARAMS = {"KEYLEN": "KEY", "IVLEN": "IV", "PTLEN": "PT", "AADLEN": "AAD", "TAGLEN": "TAG"}
_FIELDS = ("COUNT", "KEY", "IV", "PT", "AAD", "CT", "TAG")
_LINE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")
_SECTION = re.compile(r"^\[\s*([A-Za-z]+)\s*=\s*([0-9]+)\s*\]$")
_NAME = re.compile(r"^gcm(EncryptExtIV|Decrypt)(128|192|256)\.rsp$")


def gcm_file_direction(path: str | Path) -> tuple[str, int]:
    """(``Encrypt`` or ``Decrypt``, key size) from a GCM file name; VectorFormatError else."""
    m = _NAME.match(Path(path).name)
    if m is None:
        raise VectorFormatError(
            str(path), 1,
            f"unknown GCM vector file {Path(path).name!r}: expected gcmEncryptExtIV<ks>.rsp "
            "or gcmDecrypt<ks>.rsp with ks 128, 192 or 256",
        )  # fmt: skip
    return ("Encrypt" if m.group(1) == "EncryptExtIV" else "Decrypt"), int(m.group(2))


class _Rec:
    def __init__(self, line: int) -> None:
        self.line = line
        self.fields: dict[str, Field] = {}
        self.fail_line = 0


def _finish(
    file: str, rec: _Rec, decrypt: bool, key_size: int, params: dict[str, int]
) -> GcmVector:
    missing_params = [p for p in _PARAMS if p not in params]
    if missing_params:
        names = ", ".join(p.capitalize() for p in missing_params)
        raise VectorFormatError(file, rec.line, f"no [{names} = n] section before this record")
    if rec.fail_line and not decrypt:
        raise VectorFormatError(file, rec.fail_line, "FAIL in an encryption file")
    if rec.fail_line and "PT" in rec.fields:
        raise VectorFormatError(file, rec.fail_line, "a FAIL record gives no PT")
    needed = [n for n in _FIELDS if n != "PT" or not rec.fail_line]
    missing = [n for n in needed if n not in rec.fields]
    if missing:
        raise VectorFormatError(file, rec.line, f"record lacks {', '.join(missing)}")
    if params["KEYLEN"] != key_size:
        raise VectorFormatError(
            file, rec.line, f"[Keylen = {params['KEYLEN']}] in a file for {key_size}-bit keys"
        )
    values: dict[str, bytes] = {}
    for name in needed[1:]:
        fld = rec.fields[name]
        values[name] = parse_hex(file, fld)
        param = "PTLEN" if name == "CT" else next(p for p, f in _PARAMS.items() if f == name)
        if 8 * len(values[name]) != params[param]:
            raise VectorFormatError(
                file,
                fld.line,
                f"{fld.name} has {8 * len(values[name])} bits, "
                f"[{param.capitalize()} = {params[param]}] says {params[param]}",
            )
    return GcmVector(
        file=file,
        line=rec.line,
        count=parse_int(file, rec.fields["COUNT"]),
        key=values["KEY"],
        iv=values["IV"],
        plaintext=values.get("PT"),
        aad=values["AAD"],
        ciphertext=values["CT"],
        tag=values["TAG"],
        decrypt=decrypt,
        expect_pass=(not rec.fail_line) if decrypt else None,
    )


def parse_gcm(
    path: str | Path, direction: str | None = None, key_size: int | None = None
) -> list[GcmVector]:
    """Records of one GCM CAVS file; direction and key size default to the file name's."""
    file = str(path)
    if direction is None or key_size is None:
        name_dir, name_ks = gcm_file_direction(path)
        direction = name_dir if direction is None else direction
        key_size = name_ks if key_size is None else key_size
    ks: int = key_size
    if direction not in GCM_DIRECTIONS:
        raise ValueError(f"GCM direction must be Encrypt or Decrypt, got {direction!r}")
    decrypt = direction == "Decrypt"
    try:
        text = Path(path).read_text(encoding="ascii")
    except UnicodeDecodeError as exc:
        bad_line = Path(path).read_bytes()[: exc.start].count(b"\n") + 1
        raise VectorFormatError(file, bad_line, "not ASCII text") from exc
    params: dict[str, int] = {}
    out: list[GcmVector] = []
    rec: _Rec | None = None

    def close() -> None:
        nonlocal rec
        if rec is not None:
            out.append(_finish(file, rec, decrypt, ks, params))
        rec = None

    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            close()
            continue
        if line.startswith("#"):
            continue
        if line.startswith("["):
            close()
            m = _SECTION.match(line)
            if m is None or m.group(1).upper() not in _PARAMS:
                raise VectorFormatError(
                    file, lineno,
                    f"unknown section {line}, expected [Keylen|IVlen|PTlen|AADlen|Taglen = n]",
                )  # fmt: skip
            params[m.group(1).upper()] = int(m.group(2))
            continue
        if line.upper() == "FAIL":
            if rec is None:
                raise VectorFormatError(file, lineno, "FAIL outside a Count record")
            if rec.fail_line:
                raise VectorFormatError(file, lineno, "FAIL given twice in one record")
            rec.fail_line = lineno
            continue
        m = _LINE.match(line)
        if m is None:
            raise VectorFormatError(file, lineno, f"expected 'NAME = value' or FAIL, got {line!r}")
        fld = Field(lineno, m.group(1).upper(), m.group(2))
        if fld.name == "COUNT":
            close()
            rec = _Rec(lineno)
        elif rec is None:
            raise VectorFormatError(file, lineno, f"field {fld.name} outside a Count record")
        if fld.name not in _FIELDS:
            raise VectorFormatError(file, lineno, f"unexpected field {fld.name} in a GCM file")
        if fld.name in rec.fields:
            raise VectorFormatError(file, lineno, f"{fld.name} given twice in one record")
        rec.fields[fld.name] = fld
    close()
    return out


# --- Wycheproof -------------------------------------------------------------------

_TCID = re.compile(r'"tcId"\s*:\s*([0-9]+)')


def read_wycheproof(
    path: str | Path, algorithm: str
) -> list[tuple[int, dict[str, object], dict[str, object]]]:
    """(line, group, test) of every test of a Wycheproof JSON file of ``algorithm``.

    ``line`` is the line of the test's ``"tcId"`` (1-based) so that errors and
    failures can point at it. VectorFormatError if the file is not such a file.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise VectorFormatError(file, 1, "not UTF-8 text") from exc
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise VectorFormatError(file, exc.lineno, f"not valid JSON: {exc.msg}") from exc
    if not isinstance(doc, dict) or doc.get("algorithm") != algorithm:
        found = doc.get("algorithm") if isinstance(doc, dict) else None
        raise VectorFormatError(file, 1, f"not a Wycheproof {algorithm} file (algorithm {found!r})")
    lines: dict[int, int] = {}
    for m in _TCID.finditer(text):
        lines.setdefault(int(m.group(1)), text.count("\n", 0, m.start()) + 1)
    groups = doc.get("testGroups")
    if not isinstance(groups, list):
        raise VectorFormatError(file, 1, "no testGroups list")
    out: list[tuple[int, dict[str, object], dict[str, object]]] = []
    for group in groups:
        tests = group.get("tests") if isinstance(group, dict) else None
        if not isinstance(tests, list):
            raise VectorFormatError(file, 1, "a test group without a tests list")
        for test in tests:
            tc_id = test.get("tcId") if isinstance(test, dict) else None
            if not isinstance(tc_id, int):
                raise VectorFormatError(file, 1, "a test without an integer tcId")
            out.append((lines.get(tc_id, 1), group, test))
    return out


def wycheproof_hex(file: str, line: int, test: dict[str, object], name: str) -> bytes:
    """The hex string ``name`` of a Wycheproof test as bytes."""
    value = test.get(name)
    if not isinstance(value, str) or len(value) % 2 or not re.fullmatch(r"[0-9A-Fa-f]*", value):
        raise VectorFormatError(file, line, f"{name} is not a hex string: {value!r}")
    return bytes.fromhex(value)


def wycheproof_result(
    file: str, line: int, test: dict[str, object]
) -> tuple[bool, tuple[str, ...]]:
    """(expect_pass, flags): ``valid`` and ``acceptable`` pass, ``invalid`` must fail."""
    result = test.get("result")
    if result not in ("valid", "acceptable", "invalid"):
        raise VectorFormatError(
            file, line, f"result must be valid, acceptable or invalid, got {result!r}"
        )
    flags = test.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
        raise VectorFormatError(file, line, f"flags must be a list of strings, got {flags!r}")
    return result != "invalid", tuple(flags)


def parse_wycheproof_gcm(path: str | Path) -> list[GcmVector]:
    """The tests of Wycheproof's ``aes_gcm_test.json`` as decryption records.

    ``expect_pass`` is False for ``invalid`` tests (modified tags, empty IVs);
    ``plaintext`` is the test's ``msg`` for every test, ``count`` its tcId.
    """
    file = str(path)
    out: list[GcmVector] = []
    for line, _group, test in read_wycheproof(path, "AES-GCM"):
        expect_pass, flags = wycheproof_result(file, line, test)
        out.append(
            GcmVector(
                file=file,
                line=line,
                count=int(str(test["tcId"])),
                key=wycheproof_hex(file, line, test, "key"),
                iv=wycheproof_hex(file, line, test, "iv"),
                plaintext=wycheproof_hex(file, line, test, "msg"),
                aad=wycheproof_hex(file, line, test, "aad"),
                ciphertext=wycheproof_hex(file, line, test, "ct"),
                tag=wycheproof_hex(file, line, test, "tag"),
                decrypt=True,
                expect_pass=expect_pass,
                flags=flags,
            )
        )
    return out
