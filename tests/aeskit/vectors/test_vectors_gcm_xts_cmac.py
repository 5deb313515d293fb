"""The GCM, XTS and CMAC parsers: every record of the installed files (counts derived from
the raw text and asserted against the known numbers), the catalog, and malformed files
("FILE:LINE: what is wrong")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from aeskit.vectors import VectorFormatError
from aeskit.vectors.catalog import (
    cmac_files,
    cmac_vectors,
    gcm_files,
    gcm_vectors,
    wycheproof_cmac_file,
    wycheproof_cmac_vectors,
    wycheproof_gcm_file,
    wycheproof_gcm_vectors,
    xts_files,
    xts_vectors,
)
from aeskit.vectors.cmac import parse_cmac, parse_wycheproof_cmac
from aeskit.vectors.gcm import parse_gcm, parse_wycheproof_gcm
from aeskit.vectors.xts import parse_xts

COUNT_LINE = re.compile(r"^\s*count\s*=", re.IGNORECASE | re.MULTILINE)
FAIL_LINE = re.compile(r"^\s*FAIL\s*$", re.MULTILINE)

#: records per file, as the report quotes them (also derived from the text below)
EXPECTED = {
    "gcmEncryptExtIV128.rsp": 7875,
    "gcmEncryptExtIV192.rsp": 7875,
    "gcmEncryptExtIV256.rsp": 7875,
    "gcmDecrypt128.rsp": 7875,
    "gcmDecrypt192.rsp": 7875,
    "gcmDecrypt256.rsp": 7875,
    "tweak-128hexstr/XTSGenAES128.rsp": 1000,
    "tweak-128hexstr/XTSGenAES256.rsp": 1000,
    "tweak-dataunitseqno/XTSGenAES128.rsp": 1000,
    "tweak-dataunitseqno/XTSGenAES256.rsp": 1000,
    "nist-800-38b-aes128.txt": 4,
    "nist-800-38b-aes192.txt": 4,
    "nist-800-38b-aes256.txt": 4,
}


def label(path: Path) -> str:
    return f"{path.parent.name}/{path.name}" if "XTS" in path.name else path.name


def raw_count(path: Path) -> int:
    return len(COUNT_LINE.findall(path.read_text(encoding="ascii")))


# --- the installed files ------------------------------------------------------------


@pytest.mark.parametrize("path", gcm_files(), ids=label)
def test_gcm_file_counts(path: Path) -> None:
    records = parse_gcm(path)
    text = path.read_text(encoding="ascii")
    assert len(records) == raw_count(path) == EXPECTED[path.name]
    fails = [v for v in records if v.expect_pass is False]
    assert len(fails) == len(FAIL_LINE.findall(text))
    decrypt = "Decrypt" in path.name
    assert all(v.decrypt == decrypt for v in records)
    assert all((v.plaintext is None) == (v.expect_pass is False) for v in records)
    assert all(v.expect_pass is None for v in records) != decrypt
    assert {v.key_size for v in records} == {int(path.stem[-3:])}
    assert {8 * len(v.iv) for v in records} == {8, 96, 1024}
    assert {8 * len(v.tag) for v in records} == {32, 64, 96, 104, 112, 120, 128}
    assert {8 * len(v.ciphertext) for v in records} == {0, 104, 128, 256, 408}
    assert {8 * len(v.aad) for v in records} == {0, 128, 160, 384, 720}


def test_gcm_fail_counts() -> None:
    # FAIL records per decryption file: from the text, and the numbers the report quotes
    fails = {}
    for path in gcm_files("Decrypt"):
        fails[path.name] = sum(v.expect_pass is False for v in parse_gcm(path))
        assert fails[path.name] == len(FAIL_LINE.findall(path.read_text(encoding="ascii")))
    expected = {"gcmDecrypt128.rsp": 4011, "gcmDecrypt192.rsp": 3978, "gcmDecrypt256.rsp": 3919}
    assert fails == expected


@pytest.mark.parametrize("path", xts_files(), ids=label)
def test_xts_file_counts(path: Path) -> None:
    records = parse_xts(path)
    assert len(records) == raw_count(path) == EXPECTED[label(path)]
    assert sum(v.decrypt for v in records) == 500
    if "seqno" in path.parent.name:
        assert all(v.tweak is None and v.seqno is not None for v in records)
    else:
        assert all(v.seqno is None and v.tweak is not None for v in records)
    ks = int(path.stem[-3:])
    assert {v.key_size for v in records} == {ks}
    lengths = {128: {128, 130, 200, 256}, 256: {140, 250, 256, 384}}[ks]
    assert {v.data_unit_len for v in records} == lengths


@pytest.mark.parametrize("path", cmac_files(), ids=label)
def test_cmac_file_counts(path: Path) -> None:
    records = parse_cmac(path)
    assert len(records) == raw_count(path) == EXPECTED[path.name]
    assert [v.count for v in records] == [0, 1, 2, 3]
    assert all(len(v.tag) == 16 and v.expect_pass is None for v in records)


def test_wycheproof_counts() -> None:
    for path, parse, n in (
        (wycheproof_gcm_file(), parse_wycheproof_gcm, 316),
        (wycheproof_cmac_file(), parse_wycheproof_cmac, 311),
    ):
        records = parse(path)
        doc = json.loads(path.read_text())
        assert len(records) == doc["numberOfTests"] == n
        tests = [t for g in doc["testGroups"] for t in g["tests"]]
        assert [v.count for v in records] == [t["tcId"] for t in tests]
        assert [v.expect_pass for v in records] == [t["result"] != "invalid" for t in tests]
        lines = path.read_text().splitlines()
        for v in records:
            assert f'"tcId" : {v.count},' in lines[v.line - 1].replace('"tcId": ', '"tcId" : ')


def test_catalog() -> None:
    assert len(gcm_vectors()) == 6 * 7875
    assert len(gcm_vectors("Encrypt", 192)) == 7875
    assert [p.name for p in gcm_files("Decrypt")] == [
        "gcmDecrypt128.rsp", "gcmDecrypt192.rsp", "gcmDecrypt256.rsp"
    ]  # fmt: skip
    assert len(xts_vectors()) == 4000
    assert len(xts_vectors("seqno", 256)) == 1000
    assert len(cmac_vectors()) == 12
    assert len(wycheproof_gcm_vectors()) == 316
    assert len(wycheproof_cmac_vectors()) == 311
    assert gcm_vectors("Encrypt", 128)[0] is gcm_vectors("Encrypt", 128)[0]  # cached
    with pytest.raises(ValueError, match="unknown GCM direction 'Both'"):
        gcm_files("Both")
    with pytest.raises(ValueError, match="unknown XTS tweak kind 'hex'"):
        xts_files("hex")
    with pytest.raises(ValueError, match="XTS key_size must be 128, 256 or None, got 192"):
        xts_files(key_size=192)
    with pytest.raises(ValueError, match="key_size must be 128, 192, 256 or None"):
        cmac_files(64)


def test_first_records() -> None:
    v = gcm_vectors("Decrypt", 128)[1]
    assert (v.line, v.count, v.expect_pass, v.plaintext) == (21, 1, False, None)
    assert v.key.hex() == "a49a5e26a2f8cb63d05546c2a62f5343"
    x = xts_vectors("seqno", 128)[0]
    assert (x.count, x.seqno, x.data_unit_len, x.decrypt) == (1, 141, 128, False)
    x = next(r for r in xts_vectors("hexstr", 128) if r.data_unit_len == 130)
    assert len(x.plaintext) == 17 and x.plaintext[-1] & 0x3F == 0


# --- malformed files ----------------------------------------------------------------

GCM_HEAD = "[Keylen = 128]\n[IVlen = 96]\n[PTlen = 8]\n[AADlen = 0]\n[Taglen = 32]\n\n"
GCM_REC = "Count = 0\nKey = {k}\nIV = {iv}\nPT = ab\nAAD = \nCT = cd\nTag = 01020304\n"


def gcm_rec(**repl: str) -> str:
    text = GCM_REC.format(k="00" * 16, iv="11" * 12)
    for name, value in repl.items():
        old = next(line for line in text.splitlines() if line.startswith(name + " ="))
        text = text.replace(old + "\n", "" if value == "-" else f"{name} = {value}\n")
    return text


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("ascii"))
    return path


def expect_error(parse: object, path: Path, line: int, fragment: str) -> None:
    with pytest.raises(VectorFormatError) as info:
        parse(path)  # type: ignore[operator]
    err = info.value
    assert (err.file, err.line) == (str(path), line), str(err)
    assert str(err).startswith(f"{path}:{line}: ")
    assert fragment in str(err), str(err)


def test_gcm_well_formed(tmp_path: Path) -> None:
    text = GCM_HEAD + gcm_rec() + "\n" + gcm_rec(PT="-").replace("Tag", "FAIL\nTag")
    recs = parse_gcm(write(tmp_path, "gcmDecrypt128.rsp", text))
    assert [(r.line, r.expect_pass, r.plaintext) for r in recs] == [
        (7, True, b"\xab"), (15, False, None)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "text", "line", "fragment"),
    [
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec(Key="00" * 15), 8, "KEY has 120 bits"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec(IV="11" * 16), 9, "IV has 128 bits"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec(Tag="0102"), 13, "[Taglen = 32] says 32"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec(CT="zz"), 12, "CT is not valid hex"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec(CT="-"), 7, "record lacks CT"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec() + "FAIL\n", 14, "a FAIL record gives no PT"),
        (
            "gcmEncryptExtIV128.rsp",
            GCM_HEAD + gcm_rec(PT="-") + "FAIL\n",
            13,
            "FAIL in an encryption file",
        ),
        ("gcmDecrypt128.rsp", GCM_HEAD + "FAIL\n", 7, "FAIL outside a Count record"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec() + "Nonce = 00\n", 14, "unexpected field NONCE"),
        ("gcmDecrypt128.rsp", GCM_HEAD + gcm_rec() + "Tag = 00\n", 14, "TAG given twice"),
        ("gcmDecrypt128.rsp", GCM_HEAD + "Key = 00\n", 7, "field KEY outside a Count record"),
        ("gcmDecrypt128.rsp", "[Keylen = 128]\n" + gcm_rec(), 2, "no [Ivlen, Ptlen, Aadlen"),
        ("gcmDecrypt128.rsp", "[Nlen = 7]\n", 1, "unknown section [Nlen = 7]"),
        ("gcmDecrypt256.rsp", GCM_HEAD + gcm_rec(), 7, "[Keylen = 128] in a file for 256-bit"),
        ("gcmDecrypt128.rsp", GCM_HEAD + "garbage\n", 7, "expected 'NAME = value' or FAIL"),
        ("gcm128.rsp", "", 1, "unknown GCM vector file 'gcm128.rsp'"),
    ],
)
def test_gcm_errors(tmp_path: Path, name: str, text: str, line: int, fragment: str) -> None:
    expect_error(parse_gcm, write(tmp_path, name, text), line, fragment)


XTS_REC = "COUNT = 1\nDataUnitLen = 130\nKey = {key}\ni = {i}\nPT = {pt}\nCT = {ct}\n"


def xts_text(section: str = "[ENCRYPT]\n\n", **kw: str) -> str:
    fields = {"key": "00" * 32, "i": "22" * 16, "pt": "33" * 16 + "40", "ct": "44" * 16 + "c0"}
    fields.update(kw)
    return section + XTS_REC.format(**fields)


def test_xts_well_formed(tmp_path: Path) -> None:
    text = (
        xts_text()
        + "\n[DECRYPT]\n\n"
        + xts_text("").replace("i = " + "22" * 16, "DataUnitSeqNumber = 7")
    )
    recs = parse_xts(write(tmp_path, "XTSGenAES128.rsp", text))
    assert [(r.line, r.decrypt, r.seqno, r.data_unit_len) for r in recs] == [
        (3, False, None, 130), (12, True, 7, 130)
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        (xts_text(pt="33" * 17), 7, "PT: the 6 unused low bits of the last byte are not zero"),
        (xts_text(ct="44" * 16), 8, "CT has 16 bytes, DataUnitLen = 130 takes 17"),
        (xts_text(key="00" * 16), 5, "Key has 16 bytes, XTS-AES-128 takes 32"),
        (xts_text(i="22" * 8), 6, "i has 8 bytes, expected 16"),
        (xts_text().replace("i = ", "DataUnitSeqNumber = 1\ni = "), 6, "both i and"),
        (xts_text().replace("i = " + "22" * 16 + "\n", ""), 3, "lacks i or DataUnitSeqNumber"),
        (xts_text().replace("130", "120"), 4, "DataUnitLen must be at least 128 bits, got 120"),
        (xts_text("[MONTE]\n"), 1, "unknown section [MONTE]"),
        (xts_text(""), 1, "record before [ENCRYPT] or [DECRYPT]"),
        (xts_text() + "Tweak = 00\n", 9, "unexpected field TWEAK"),
        ("[ENCRYPT]\nKey = 00\n", 2, "field KEY outside a COUNT record"),
    ],
)
def test_xts_errors(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    expect_error(parse_xts, write(tmp_path, "XTSGenAES128.rsp", text), line, fragment)


def test_xts_bad_name(tmp_path: Path) -> None:
    expect_error(parse_xts, write(tmp_path, "XTSGenAES192.rsp", ""), 1, "expected XTSGenAES128")


CMAC_REC = "COUNT = 0\nKEY = " + "00" * 16 + "\nMESSAGE = \nOUTPUT = " + "11" * 16 + "\n"


@pytest.mark.parametrize(
    ("name", "text", "line", "fragment"),
    [
        ("nist-800-38b-aes128.txt", CMAC_REC.replace("OUTPUT", "TAG"), 4, "unexpected field TAG"),
        (
            "nist-800-38b-aes128.txt",
            CMAC_REC.replace("MESSAGE = \n", ""),
            1,
            "record lacks MESSAGE",
        ),
        ("nist-800-38b-aes256.txt", CMAC_REC, 2, "KEY has 16 bytes, the file is for 256-bit"),
        ("nist-800-38b-aes128.txt", "[AES]\n" + CMAC_REC, 1, "unexpected section [AES]"),
        (
            "nist-800-38b-aes128.txt",
            CMAC_REC.replace("11" * 16, "11" * 17),
            4,
            "OUTPUT has 17 bytes",
        ),
        ("nist-800-38b-aes128.txt", "KEY = 00\n", 1, "field KEY outside a COUNT record"),
        ("nist-800-38b-3des.txt", CMAC_REC, 1, "unknown CMAC vector file"),
    ],
)
def test_cmac_errors(tmp_path: Path, name: str, text: str, line: int, fragment: str) -> None:
    expect_error(parse_cmac, write(tmp_path, name, text), line, fragment)


def wycheproof(algorithm: str, **test: object) -> str:
    base: dict[str, object] = {"tcId": 1, "flags": [], "key": "00" * 16, "msg": "",
                               "tag": "11" * 16, "result": "valid"}  # fmt: skip
    base.update(test)
    doc = {"algorithm": algorithm, "testGroups": [{"tests": [base]}]}
    return json.dumps(doc, indent=2)


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ('{"algorithm": "AES-CMAC",\n  "testGroups": [}', 2, "not valid JSON"),
        (wycheproof("AES-GCM"), 1, "not a Wycheproof AES-CMAC file (algorithm 'AES-GCM')"),
        (wycheproof("AES-CMAC", key="0g"), 7, "key is not a hex string: '0g'"),
        (wycheproof("AES-CMAC", result="maybe"), 7, "result must be valid, acceptable or inv"),
        (wycheproof("AES-CMAC", flags="x"), 7, "flags must be a list of strings"),
        (wycheproof("AES-CMAC", tcId="1"), 1, "a test without an integer tcId"),
        ('{"algorithm": "AES-CMAC"}', 1, "no testGroups list"),
    ],
)
def test_wycheproof_errors(tmp_path: Path, text: str, line: int, fragment: str) -> None:
    expect_error(parse_wycheproof_cmac, write(tmp_path, "aes_cmac_test.json", text), line, fragment)


def test_wycheproof_gcm_minimal(tmp_path: Path) -> None:
    text = wycheproof("AES-GCM", iv="", aad="", ct="", result="invalid", flags=["ZeroLengthIv"])
    (v,) = parse_wycheproof_gcm(write(tmp_path, "aes_gcm_test.json", text))
    assert (v.line, v.iv, v.expect_pass, v.flags) == (7, b"", False, ("ZeroLengthIv",))
    text = wycheproof("AES-GCM", aad="", ct="")
    expect_error(parse_wycheproof_gcm, write(tmp_path, "g.json", text), 7, "iv is not a hex string")
