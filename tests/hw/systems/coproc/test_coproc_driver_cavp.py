"""The NIST and Wycheproof files of GCM, XTS and CMAC through the C driver on the
co-processor RTL (sw/aeskit_coproc.c on ak_coproc + tbox_folded, the driver test
executable of aeskit.testbench.coproc_driver; memory with latency and back-pressure).

Expected values are the files' own, parsed from the installed vector packages
(aeskit.vectors.catalog): the CAVS GCM files (gcmEncryptExtIV*, gcmDecrypt*: every key
size, IVs of 1, 12 and 128 bytes, tags of 4..16 bytes, FAIL records), XTSGenAES128/256
(the tweak and the data-unit sequence number forms) and the SP 800-38B CMAC examples
plus Wycheproof's aes_cmac_test.json. ``make test`` runs every 13th GCM record, every
other XTS record and every CMAC record on the RTL and on the driver's software fallback;
``make test-full`` every record on the RTL.

Scope stated, not skipped silently: the co-processor's LEN and the driver's calls count
bytes, so the XTS records whose data unit is not a whole number of bytes (1,200 of
4,000) are not driver jobs (the mode engine runs them: tests/hw/modes/test_modes_aead.py);
the five Wycheproof CMAC records with a key of 0, 1, 8, 20 or 40 bytes are refused by
the driver before any job (ARG), which is checked here too.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from aeskit.testbench.coproc_driver import CoprocDriver
from aeskit.vectors.catalog import (cmac_vectors, gcm_vectors, wycheproof_cmac_vectors,
                                    xts_vectors)

#: the driver executable's destination fill (a failed tag leaves it)
FILL = 0xEE


def _where(v: Any) -> str:
    return f"{v.file.rsplit('/', 1)[-1]}:{v.line} (count {v.count})"


def gcm_cases(step: int) -> list[tuple[str, dict[str, object], tuple]]:
    """(where, job, (status, out, tag)) for every ``step``-th GCM record."""
    out = []
    for v in gcm_vectors()[::step]:
        job: dict[str, object] = dict(mode="gcm", key=v.key, iv=v.iv, aad=v.aad,
                                      tag_len=len(v.tag), api=len(v.iv) == 12)
        if not v.decrypt:
            assert v.plaintext is not None
            out.append((_where(v), dict(job, data=v.plaintext), ("OK", v.ciphertext, v.tag)))
        elif v.expect_pass:
            out.append((_where(v), dict(job, decrypt=True, data=v.ciphertext, tag=v.tag),
                        ("OK", v.plaintext, b"")))
        else:  # a FAIL record: TAG, nothing written over the destination's fill
            out.append((_where(v), dict(job, decrypt=True, data=v.ciphertext, tag=v.tag),
                        ("TAG", bytes([FILL]) * len(v.ciphertext), b"")))
    return out


def xts_cases(step: int) -> list[tuple[str, dict[str, object], tuple]]:
    """Every ``step``-th XTS record whose data unit is whole bytes; the sequence number
    form as its 16-byte tweak (least significant byte first, IEEE 1619)."""
    out = []
    whole = [v for v in xts_vectors() if v.data_unit_len % 8 == 0]
    for v in whole[::step]:
        tweak = v.tweak if v.tweak is not None else int(v.seqno or 0).to_bytes(16, "little")
        src, want = (v.ciphertext, v.plaintext) if v.decrypt else (v.plaintext, v.ciphertext)
        out.append((_where(v), dict(mode="xts", key=v.key, iv=tweak, data=src,
                                    decrypt=v.decrypt, api=True), ("OK", want, b"")))
    return out


def cmac_cases(wycheproof_step: int) -> list[tuple[str, dict[str, object], tuple]]:
    """Generation and verification of every SP 800-38B example and every
    ``wycheproof_step``-th Wycheproof record: a valid record's tag is generated and
    verifies, an invalid one's (a modified tag) fails verification with TAG; a key of a
    size AES does not have is refused by the driver (ARG)."""
    out = []
    for v in list(cmac_vectors()) + wycheproof_cmac_vectors()[::wycheproof_step]:
        base: dict[str, object] = dict(mode="cmac", key=v.key, data=v.message,
                                       tag_len=len(v.tag) or 16, api=True)
        if len(v.key) not in (16, 24, 32):
            out.append((_where(v), base, ("ARG", b"", b"")))
            continue
        if v.expect_pass is not False:
            out.append((_where(v), base, ("OK", b"", v.tag)))
        out.append((_where(v), dict(base, decrypt=True, tag=v.tag),
                    ("OK" if v.expect_pass is not False else "TAG", b"", b"")))
    return out


def check(drv: CoprocDriver, cases: Sequence[tuple[str, dict[str, object], tuple]]) -> None:
    assert cases
    results = drv.jobs([j for _, j, _ in cases])
    assert len(results) == len(cases)
    for (where, job, want), r in zip(cases, results):
        assert r.hw != drv.nodev or r.status == "ARG"
        assert (r.status, r.out, r.tag) == want, f"{job['mode']} {where}"


@pytest.fixture(scope="module")
def rtl() -> Iterator[CoprocDriver]:
    with CoprocDriver() as drv:
        yield drv


@pytest.fixture(scope="module")
def soft() -> Iterator[CoprocDriver]:
    with CoprocDriver(nodev=True) as drv:
        yield drv


def test_case_counts() -> None:
    """The files hold what this module says (so a sample cannot shrink unseen)."""
    assert len(gcm_cases(1)) == 47_250
    assert len(xts_cases(1)) == 2_800 and len(xts_vectors()) == 4_000
    cm = cmac_cases(1)
    assert sum(1 for _, _, w in cm if w[0] == "ARG") == 5
    assert sum(1 for _, _, w in cm if w[0] == "TAG") == 243


def test_gcm_xts_cmac_sample(rtl: CoprocDriver) -> None:
    """About 3,600 GCM, 1,400 XTS and 560 CMAC jobs (some 10 s)."""
    check(rtl, gcm_cases(13))
    check(rtl, xts_cases(2))
    check(rtl, cmac_cases(1))


def test_fallback_sample(soft: CoprocDriver) -> None:
    """The driver's plain-C fallback (no device) on the same records."""
    check(soft, gcm_cases(13))
    check(soft, xts_cases(2))
    check(soft, cmac_cases(1))


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["gcm", "xts", "cmac"])
def test_every_record(rtl: CoprocDriver, mode: str) -> None:
    cases = {"gcm": lambda: gcm_cases(1), "xts": lambda: xts_cases(1),
             "cmac": lambda: cmac_cases(1)}[mode]()
    for i in range(0, len(cases), 500):
        check(rtl, cases[i:i + 500])
