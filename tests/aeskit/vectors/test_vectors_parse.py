"""The parser finds every record of the installed CAVP files. Expected counts are
derived here from the raw text (COUNT lines, section headers, Result lines), never
typed in."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from aeskit.vectors import (
    BLOCK_KINDS,
    CCM_KINDS,
    BlockVector,
    CcmVector,
    MctVector,
    VectorFormatError,
    block_files,
    block_vectors,
    ccm_files,
    ccm_vectors,
    ctr_files,
    ctr_vectors,
    file_kind,
    mct_files,
    mct_vectors,
    parse_block_file,
    parse_ccm_file,
    parse_mct_file,
    parse_rsp,
)

MODES = ("ECB", "CBC", "CFB128", "OFB")
COUNT_LINE = re.compile(r"^\s*count\s*=\s*(\d+)\s*$", re.IGNORECASE)


def raw_counts(path: Path) -> Counter[str]:
    """COUNT lines per [section] straight from the text (CCM: all under '')."""
    counts: Counter[str] = Counter()
    section = ""
    for line in path.read_text().splitlines():
        line = line.strip()
        if line in ("[ENCRYPT]", "[DECRYPT]"):
            section = line[1:-1]
        elif COUNT_LINE.match(line):
            counts[section] += 1
    return counts


def check_lines(path: Path, records: list[BlockVector] | list[MctVector] | list[CcmVector]) -> None:
    lines = path.read_text().splitlines()
    for rec in records:
        assert rec.file == str(path)
        match = COUNT_LINE.match(lines[rec.line - 1])
        assert match is not None and int(match.group(1)) == rec.count, (rec.file, rec.line)


BLOCK_FILES = [p for m in MODES for p in block_files(m)]


@pytest.mark.parametrize("path", BLOCK_FILES, ids=lambda p: p.name)
def test_block_file_counts(path: Path) -> None:
    records = parse_block_file(path)
    assert parse_rsp(path) == records
    raw = raw_counts(path)
    assert raw["ENCRYPT"] > 0 and raw["ENCRYPT"] == raw["DECRYPT"]
    assert Counter("DECRYPT" if r.decrypt else "ENCRYPT" for r in records) == raw
    check_lines(path, records)
    fk = file_kind(path)
    for r in records:
        assert (r.mode, r.kind, r.key_size) == (fk.mode, fk.kind, fk.key_size)
        assert (r.iv is None) == (r.mode == "ECB")
        assert r.iv is None or len(r.iv) == 16
        assert len(r.plaintext) == len(r.ciphertext)
        # KAT records are one block; MMT record i holds i + 1 blocks
        assert len(r.plaintext) == (16 * (r.count + 1) if r.kind == "MMT" else 16)


@pytest.mark.parametrize("mode", MODES)
def test_block_vectors_selection(mode: str) -> None:
    everything = block_vectors(mode)
    assert len(everything) == sum(sum(raw_counts(p).values()) for p in block_files(mode))
    per_size = [block_vectors(mode, ks) for ks in (128, 192, 256)]
    assert sum(map(len, per_size)) == len(everything)
    for ks, vs in zip((128, 192, 256), per_size, strict=True):
        assert all(v.key_size == ks for v in vs)
    for kind in BLOCK_KINDS:
        only = block_vectors(mode, kinds=(kind,))
        assert only and {v.kind for v in only} == {kind}
    assert {v.kind for v in everything} == set(BLOCK_KINDS)


@pytest.mark.parametrize("mode", MODES)
def test_mct_counts(mode: str) -> None:
    files = mct_files(mode)
    records = mct_vectors(mode)
    if mode == "ECB":
        assert files == [] and records == []  # no installed package ships ECB MCT files
        return
    assert [file_kind(p).key_size for p in files] == [128, 192, 256]
    for path in files:
        raw = raw_counts(path)
        parsed = parse_mct_file(path)
        assert parse_rsp(path) == parsed
        assert Counter("DECRYPT" if r.decrypt else "ENCRYPT" for r in parsed) == raw
        assert raw == {"ENCRYPT": 100, "DECRYPT": 100}  # AESAVS: 100 outer iterations each
        check_lines(path, parsed)
    assert len(records) == 600
    for r in records:
        assert len(r.plaintext) == len(r.ciphertext) == 16
        assert r.iv is not None and len(r.iv) == 16


@pytest.mark.parametrize("path", ccm_files(), ids=lambda p: p.name)
def test_ccm_file_counts(path: Path) -> None:
    text = path.read_text()
    records = parse_ccm_file(path)
    assert parse_rsp(path) == records
    assert len(records) == sum(raw_counts(path).values()) > 0
    check_lines(path, records)
    payload_lines = len(re.findall(r"^Payload\s*=", text, re.M))
    assert sum(r.payload is not None for r in records) == payload_lines
    kind = file_kind(path).kind
    for r in records:
        assert r.kind == kind and r.key_size == file_kind(path).key_size
        assert 7 <= len(r.nonce) <= 13 and r.tag_len in (4, 6, 8, 10, 12, 14, 16)
        if r.payload is not None:
            assert len(r.ct) == len(r.payload) + r.tag_len
    results = Counter(r.expect_pass for r in records)
    if kind == "DVPT":
        assert results[True] == len(re.findall(r"^Result\s*=\s*Pass", text, re.M))
        assert results[False] == len(re.findall(r"^Result\s*=\s*Fail", text, re.M))
        assert all((r.payload is None) == (r.expect_pass is False) for r in records)
    else:
        assert results == {None: len(records)}


def raw_ccm_lengths(path: Path) -> dict[int, dict[str, int]]:
    """Alen/Plen/Nlen/Tlen in force at each Count line, from the file-level lines and headers."""
    params: dict[str, int] = {}
    at_line = {}
    for lineno, line in enumerate(path.read_text().splitlines(), start=1):
        for name, value in re.findall(r"\b([APNT]len)\s*=\s*(\d+)", line):
            params[name] = int(value)
        if COUNT_LINE.match(line):
            at_line[lineno] = dict(params)
    return at_line


@pytest.mark.parametrize("path", ccm_files(), ids=lambda p: p.name)
def test_ccm_lengths_follow_section_headers(path: Path) -> None:
    expected = raw_ccm_lengths(path)
    records = parse_ccm_file(path)
    assert len(expected) == len(records)
    for r in records:
        plen = len(r.ct) - r.tag_len
        got = {"Alen": len(r.adata), "Plen": plen, "Nlen": len(r.nonce), "Tlen": r.tag_len}
        assert got == expected[r.line], (r.file, r.line)
    # each kind sweeps its parameter over several sections
    swept = {"VADT": "Alen", "VNT": "Nlen", "VPT": "Plen", "VTT": "Tlen", "DVPT": "Plen"}
    values = {p[swept[file_kind(path).kind]] for p in expected.values()}
    assert len(values) >= 2
    assert len(ccm_vectors()) == sum(len(ccm_vectors(k)) for k in CCM_KINDS)


def essence(v: CcmVector) -> tuple[object, ...]:
    return (v.count, v.key, v.nonce, v.adata, v.payload, v.ct, v.tag_len, v.expect_pass)


def test_ccm_dvpt_txt_matches_rsp() -> None:
    for rsp in ccm_files("DVPT"):
        txt = rsp.with_suffix(".txt")
        expected = [essence(v) for v in parse_ccm_file(rsp)]
        assert [essence(v) for v in parse_ccm_file(txt)] == expected


@pytest.mark.parametrize("path", ctr_files(), ids=lambda p: p.name)
def test_ctr_file_counts(path: Path) -> None:
    records = parse_block_file(path)
    assert len(records) == sum(raw_counts(path).values()) > 0
    check_lines(path, records)
    assert all(r.mode == "CTR" and r.iv is not None and len(r.iv) == 16 for r in records)
    assert len(ctr_vectors()) == sum(len(parse_rsp(p)) for p in ctr_files())


def test_selection_arguments_checked() -> None:
    with pytest.raises(ValueError, match="unknown mode 'CTR'"):
        block_vectors("CTR")
    with pytest.raises(ValueError, match="unknown kind 'MCT'"):
        block_vectors("ECB", kinds=("MCT",))
    with pytest.raises(ValueError, match="key_size must be 128, 192, 256"):
        block_vectors("ECB", 512)
    with pytest.raises(ValueError, match="unknown CCM kind 'GCM'"):
        ccm_vectors("GCM")


def test_typed_parsers_refuse_other_kinds() -> None:
    with pytest.raises(VectorFormatError, match=r":1: CBCMCT128.rsp holds mct vectors, not block"):
        parse_block_file(mct_files("CBC", 128)[0])
    with pytest.raises(VectorFormatError, match="holds block vectors, not ccm"):
        parse_ccm_file(ctr_files(128)[0])
    with pytest.raises(VectorFormatError, match="holds ccm vectors, not mct"):
        parse_mct_file(ccm_files("VTT", 128)[0])
