"""Malformed vector files raise VectorFormatError with "FILE:LINE: what is wrong"."""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.vectors import VectorFormatError, parse_block_file, parse_ccm_file, parse_rsp

KEY = "00" * 16
BLOCK = "11" * 16


def ecb_record(**fields: str) -> str:
    base = {"COUNT": "0", "KEY": KEY, "PLAINTEXT": BLOCK, "CIPHERTEXT": BLOCK}
    base.update(fields)
    return "".join(f"{k} = {v}\n" for k, v in base.items() if v != "-")


def write(tmp_path: Path, name: str, text: str, crlf: bool = False) -> Path:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", "\r\n" if crlf else "\n").encode("ascii"))
    return path


def expect_error(path: Path, line: int, fragment: str) -> VectorFormatError:
    with pytest.raises(VectorFormatError) as info:
        parse_rsp(path)
    err = info.value
    assert str(err).startswith(f"{path}:{line}: "), str(err)
    assert fragment in str(err)
    assert (err.file, err.line) == (str(path), line)
    return err


def test_error_is_a_value_error() -> None:
    assert issubclass(VectorFormatError, ValueError)


def test_well_formed_minimal_file_parses(tmp_path: Path) -> None:
    text = "# comment\n\n[ENCRYPT]\n\n" + ecb_record() + "\n[DECRYPT]\n\n" + ecb_record(COUNT="0")
    recs = parse_block_file(write(tmp_path, "ECBGFSbox128.rsp", text, crlf=True))
    assert [(r.line, r.decrypt) for r in recs] == [(5, False), (12, True)]


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ("00zz" + "00" * 14, "not valid hex"),
        ("0" * 31, "not valid hex"),
        ("00 11", "not valid hex"),
    ],
)
def test_bad_hex(tmp_path: Path, value: str, fragment: str) -> None:
    path = write(tmp_path, "ECBVarTxt128.rsp", "[ENCRYPT]\n\n" + ecb_record(KEY=value))
    expect_error(path, 4, fragment)


def test_missing_field(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBVarKey128.rsp", "[ENCRYPT]\n\n" + ecb_record(CIPHERTEXT="-"))
    expect_error(path, 3, "record lacks CIPHERTEXT")


def test_missing_iv_in_cbc(tmp_path: Path) -> None:
    path = write(tmp_path, "CBCKeySbox128.rsp", "[DECRYPT]\n\n" + ecb_record())
    expect_error(path, 3, "record lacks IV")


def test_unexpected_field(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBKeySbox128.rsp", "[ENCRYPT]\n\n" + ecb_record(IV=BLOCK))
    expect_error(path, 7, "unexpected field IV")


def test_duplicate_field(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBKeySbox128.rsp", "[ENCRYPT]\n\n" + ecb_record() + f"KEY = {KEY}\n")
    expect_error(path, 7, "KEY given twice")


def test_unknown_section(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBMMT128.rsp", "# x\n[ENCRYPT]\n\n" + ecb_record() + "\n[VERIFY]\n")
    expect_error(path, 9, "unknown section [VERIFY]")


def test_record_before_section(tmp_path: Path) -> None:
    expect_error(write(tmp_path, "ECBMMT128.rsp", ecb_record()), 1, "before any [ENCRYPT]")


def test_key_length_must_match_file_name(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBGFSbox192.rsp", "[ENCRYPT]\n" + ecb_record())
    expect_error(path, 3, "the file is for 192-bit keys")


def test_kat_block_length(tmp_path: Path) -> None:
    record = ecb_record(PLAINTEXT="11" * 32, CIPHERTEXT="11" * 32)
    path = write(tmp_path, "ECBGFSbox128.rsp", "[ENCRYPT]\n" + record)
    expect_error(path, 4, "must be 16 bytes, got 32")


def test_bad_count_and_garbage_line(tmp_path: Path) -> None:
    path = write(tmp_path, "ECBGFSbox128.rsp", "[ENCRYPT]\n" + ecb_record(COUNT="x1"))
    expect_error(path, 2, "COUNT is not a decimal integer")
    path = write(tmp_path, "ECBGFSbox128.rsp", "[ENCRYPT]\nthis is not a field\n")
    expect_error(path, 2, "expected 'NAME = value'")
    path = write(tmp_path, "ECBGFSbox128.rsp", "[ENCRYPT\n")
    expect_error(path, 1, "without ']'")


def test_field_outside_record(tmp_path: Path) -> None:
    path = write(tmp_path, "CBCMCT128.rsp", f"[ENCRYPT]\nKEY = {KEY}\n")
    expect_error(path, 2, "outside a COUNT record")


def test_not_ascii(tmp_path: Path) -> None:
    path = tmp_path / "ECBGFSbox128.rsp"
    path.write_bytes(b"[ENCRYPT]\n\nCOUNT = 0\nKEY = \xff\n")
    expect_error(path, 4, "not ASCII")


@pytest.mark.parametrize(
    "name", ["foo.rsp", "ECBGFSbox512.rsp", "CFB1MMT128.rsp", "gcmDecrypt128.rsp", "VADT128.txt"]
)
def test_unknown_file_name(tmp_path: Path, name: str) -> None:
    path = write(tmp_path, name, "[ENCRYPT]\n")
    expect_error(path, 1, "unknown vector file kind")


# --- CCM -----------------------------------------------------------------------------

CCM_HEAD = f"Plen = 0\nNlen = 7\nTlen = 4\n\n[Alen = 0]\n\nKey = {KEY}\nNonce = {'00' * 7}\n\n"


def ccm_record(**fields: str) -> str:
    base = {"Count": "0", "Adata": "00", "Payload": "00", "CT": "00" * 4}
    base.update(fields)
    return "".join(f"{k} = {v}\n" for k, v in base.items() if v != "-")


def test_ccm_minimal_file_parses(tmp_path: Path) -> None:
    [rec] = parse_ccm_file(write(tmp_path, "VADT128.rsp", CCM_HEAD + ccm_record(), crlf=True))
    got = (rec.line, rec.adata, rec.payload, rec.tag_len, rec.expect_pass)
    assert got == (10, b"", b"", 4, None)


def test_ccm_unknown_section(tmp_path: Path) -> None:
    path = write(tmp_path, "VADT128.rsp", CCM_HEAD + ccm_record() + "\n[Blen = 3]\n")
    expect_error(path, 15, "unknown section [Blen = 3]")


def test_ccm_missing_nonce_after_new_section(tmp_path: Path) -> None:
    second = f"\n[Alen = 1]\n\nKey = {KEY}\n\n" + ccm_record(Adata="ab")
    text = CCM_HEAD + ccm_record() + second
    expect_error(write(tmp_path, "VADT128.rsp", text), 19, "record lacks NONCE")


def test_ccm_length_disagrees_with_header(tmp_path: Path) -> None:
    path = write(tmp_path, "VADT128.rsp", CCM_HEAD + ccm_record(CT="00" * 5))
    expect_error(path, 13, "CT has 5 bytes, Plen + Tlen says 4")


def test_ccm_missing_length_parameter(tmp_path: Path) -> None:
    path = write(tmp_path, "VNT128.rsp", CCM_HEAD.replace("Tlen = 4\n", "") + ccm_record())
    expect_error(path, 9, "no TLEN given")


def test_ccm_dvpt_result(tmp_path: Path) -> None:
    head = "[Alen = 0, Plen = 0, Nlen = 7, Tlen = 4]\n\nKey = " + KEY + "\n\n"
    fail = ccm_record(Nonce="00" * 7, Payload="-", Result="Fail")
    [rec] = parse_ccm_file(write(tmp_path, "DVPT128.rsp", head + fail))
    assert (rec.expect_pass, rec.payload) == (False, None)
    path = write(tmp_path, "DVPT128.rsp", head + ccm_record(Nonce="00" * 7, Result="Maybe"))
    expect_error(path, 10, "Result must be Pass or Fail")
    path = write(tmp_path, "DVPT128.rsp", head + ccm_record(Nonce="00" * 7, Result="-"))
    expect_error(path, 5, "record lacks RESULT")
    no_payload = ccm_record(Nonce="00" * 7, Payload="-", Result="Pass")
    path = write(tmp_path, "DVPT128.rsp", head + no_payload)
    expect_error(path, 5, "record lacks PAYLOAD")


def test_ccm_result_only_in_dvpt(tmp_path: Path) -> None:
    path = write(tmp_path, "VTT128.rsp", CCM_HEAD + ccm_record(Result="Pass"))
    expect_error(path, 14, "unexpected field RESULT")
