"""The C driver of sw/ (aeskit_coproc.c, aes_soft.c) through its test executable
(aeskit.testbench.coproc_driver): on the co-processor RTL (ak_coproc + tbox_folded, memory
model with latency and random back-pressure on every AXI4 and AXI4-Lite channel) and
on its software fallback (the same front end built without RTL: the driver finds no
device). Expected values come from NIST vectors (cryptography-vectors, parsed by
aeskit.vectors) and from OpenSSL (the ``cryptography`` package); every status code of
the co-processor is provoked through the driver, and the driver's own codes too.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator, Sequence

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aeskit.testbench.coproc_driver import (
    AAD_DEFAULT,
    DST_DEFAULT,
    MEM_BASE,
    MEM_SIZE,
    SRC_DEFAULT,
    STATUS_CODES,
    CoprocDriver,
    JobResult,
)
from aeskit.vectors import BlockVector, CcmVector, block_vectors, ccm_vectors, ctr_vectors

MODES = ("ecb", "cbc", "ctr", "cfb", "ofb")
_VEC_MODE = {"ECB": "ecb", "CBC": "cbc", "CFB128": "cfb", "OFB": "ofb", "CTR": "ctr"}


# -- references -----------------------------------------------------------------------
def openssl(mode: str, decrypt: bool, key: bytes, iv: bytes, data: bytes) -> bytes:
    with warnings.catch_warnings():  # CFB/OFB moved to "decrepit" in cryptography 44
        warnings.simplefilter("ignore")
        m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
             "ctr": lambda: modes.CTR(iv), "cfb": lambda: modes.CFB(iv),
             "ofb": lambda: modes.OFB(iv)}[mode]()
        c = Cipher(algorithms.AES(key), m)
    ctx = c.decryptor() if decrypt else c.encryptor()
    return ctx.update(data) + ctx.finalize()


# -- jobs from the NIST records -----------------------------------------------------------
def block_job(v: BlockVector) -> tuple[dict[str, object], bytes]:
    mode = _VEC_MODE[v.mode]
    # CTR is its own inverse: the CTR files' records run as encryptions
    dec = v.decrypt and mode != "ctr"
    data, want = (v.ciphertext, v.plaintext) if v.decrypt else (v.plaintext, v.ciphertext)
    return dict(mode=mode, decrypt=dec, key=v.key, iv=v.iv or b"", data=data), want


def ccm_jobs(v: CcmVector) -> Iterator[tuple[dict[str, object], str, bytes]]:
    """(job, expected status, expected output [+ tag]) for a CCM record: encryption
    and decryption of every passing record, decryption of every failing one."""
    ct, tag = v.ct[:len(v.ct) - v.tag_len], v.ct[len(v.ct) - v.tag_len:]
    common = dict(mode="ccm", key=v.key, iv=v.nonce, aad=v.adata, tag_len=v.tag_len)
    if v.expect_pass is not False:
        assert v.payload is not None
        yield dict(common, decrypt=False, data=v.payload), "OK", v.ct
        yield dict(common, decrypt=True, data=ct, tag=tag), "OK", v.payload
    else:
        # a failing record: no plaintext may be written (the window keeps its fill)
        yield dict(common, decrypt=True, data=ct, tag=tag), "TAG", b"\xee" * len(ct)


def nist_block_vectors(sample: int) -> list[BlockVector]:
    """Every MMT and CTR record, and every ``sample``-th known-answer record, of
    ECB, CBC, CFB-128 and OFB."""
    out: list[BlockVector] = list(ctr_vectors())
    for mode in ("ECB", "CBC", "CFB128", "OFB"):
        out += block_vectors(mode, kinds=("MMT",))
        kat = block_vectors(mode, kinds=("GFSbox", "KeySbox", "VarKey", "VarTxt"))
        out += kat[::sample]
    return out


def nist_ccm_vectors(sample: int) -> list[CcmVector]:
    return ccm_vectors()[::sample]


def check_block(drv: CoprocDriver, vecs: Sequence[BlockVector], **opts: object) -> int:
    jobs, wants = zip(*(block_job(v) for v in vecs))
    results = drv.jobs([dict(j, **opts) for j in jobs])
    for v, r, want in zip(vecs, results, wants):
        assert (r.status, r.out) == ("OK", want), f"{v.file}:{v.line}"
    return len(vecs)


def check_ccm(drv: CoprocDriver, vecs: Sequence[CcmVector], **opts: object) -> int:
    cases = [(v, *c) for v in vecs for c in ccm_jobs(v)]
    results = drv.jobs([dict(job, **opts) for _, job, _, _ in cases])
    for (v, job, status, want), r in zip(cases, results):
        got = r.out + r.tag
        assert (r.status, got) == (status, want), f"{v.file}:{v.line} decrypt={job['decrypt']}"
    return len(cases)


def random_jobs(rng: random.Random, n: int, max_len: int, key_sizes: Sequence[int] = (16, 24, 32),
                stall: int = 30) -> list[tuple[dict[str, object], str, bytes, bytes]]:
    """Random jobs of every mode (CCM too) with random lengths, unaligned buffers,
    memory latency and back-pressure: (job, expected status, output, tag)."""
    out = []
    for i in range(n):
        mode = (*MODES, "ccm")[i % 6]
        dec = bool(rng.getrandbits(1))
        key = rng.randbytes(rng.choice(key_sizes))
        size = rng.randrange(1, max_len + 1)
        if mode in ("ecb", "cbc"):
            size = 16 * max(1, size // 16)
        data = rng.randbytes(size)
        opts: dict[str, object] = dict(src=SRC_DEFAULT + rng.randrange(64),
                                       dst=DST_DEFAULT + rng.randrange(64),
                                       aadaddr=AAD_DEFAULT + rng.randrange(64),
                                       lat=rng.randrange(1, 12), stall=rng.choice((0, stall)),
                                       seed=rng.getrandbits(31),
                                       wait=rng.choice(("poll", "irq")))
        if mode == "ccm":
            nonce = rng.randbytes(rng.randrange(7, 14))
            tlen = rng.choice((4, 6, 8, 10, 12, 14, 16))
            aad = rng.randbytes(rng.choice((0, 1, 15, 16, 17, rng.randrange(300))))
            ccm = AESCCM(key, tag_length=tlen)
            if dec:
                full = ccm.encrypt(nonce, data, aad)
                job = dict(mode=mode, decrypt=True, key=key, iv=nonce, aad=aad, tag_len=tlen,
                           data=full[:size], tag=full[size:], **opts)
                out.append((job, "OK", data, b""))
            else:
                full = ccm.encrypt(nonce, data, aad)
                job = dict(mode=mode, decrypt=False, key=key, iv=nonce, aad=aad, tag_len=tlen,
                           data=data, **opts)
                out.append((job, "OK", full[:size], full[size:]))
        else:
            iv = rng.randbytes(16)
            want = openssl(mode, dec, key, iv, data)
            out.append((dict(mode=mode, decrypt=dec, key=key, iv=iv, data=data, **opts), "OK",
                        want, b""))
    return out


def check_random(drv: CoprocDriver, cases: Sequence[tuple[dict[str, object], str, bytes, bytes]]
                 ) -> list[JobResult]:
    results = drv.jobs([c[0] for c in cases])
    for (job, status, want, tag), r in zip(cases, results):
        what = f"{job['mode']} decrypt={job['decrypt']} len={len(job['data'])}"  # type: ignore[arg-type]
        assert (r.status, r.out, r.tag) == (status, want, tag), what
    return results


# -- bad requests ---------------------------------------------------------------------------
KEY = bytes(range(16))
IV = bytes(range(100, 116))
NONCE = bytes(range(13))
TOP = 0x1_0000_0000


def error_cases(hw: bool) -> list[tuple[str, dict[str, object], str]]:
    """(name, job, expected status) for every status code the driver can answer.
    DMA errors: SLVERR/DECERR regions of the memory model on the RTL, buffers the port
    cannot map (outside the memory window) on the software path."""
    d32 = bytes(32)
    ccm = dict(mode="ccm", key=KEY, iv=NONCE, tag_len=8)
    cases: list[tuple[str, dict[str, object], str]] = [
        ("ecb length 20", dict(mode="ecb", key=KEY, data=bytes(20)), "LEN_ALIGN"),
        ("cbc length 40", dict(mode="cbc", decrypt=True, key=KEY, iv=IV, data=bytes(40)),
         "LEN_ALIGN"),
        ("ctr length 0", dict(mode="ctr", key=KEY, iv=IV, data=b""), "LEN_ZERO"),
        ("ecb length 0", dict(mode="ecb", key=KEY, data=b""), "LEN_ZERO"),
        ("source wraps", dict(mode="ctr", key=KEY, iv=IV, data=d32, src=TOP - 16), "ADDR_WRAP"),
        ("destination wraps", dict(mode="ofb", key=KEY, iv=IV, data=d32, dst=TOP - 31),
         "ADDR_WRAP"),
        ("aad wraps", dict(ccm, data=d32, aad=bytes(8), aadaddr=TOP - 4), "ADDR_WRAP"),
        ("ccm tag wraps the destination", dict(ccm, data=d32, dst=TOP - 32), "ADDR_WRAP"),
        ("ccm tag wraps the source", dict(ccm, decrypt=True, data=d32, tag=bytes(8),
                                          src=TOP - 32), "ADDR_WRAP"),
        ("ccm nonce of 6 bytes", dict(ccm, iv=NONCE[:6], data=d32), "ILLEGAL"),
        ("ccm nonce of 14 bytes", dict(ccm, iv=bytes(14), data=d32), "ILLEGAL"),
        ("ccm tag of 5 bytes", dict(ccm, tag_len=5, data=d32), "ILLEGAL"),
        ("ccm tag of 18 bytes", dict(ccm, tag_len=18, data=d32), "ILLEGAL"),
        ("ccm payload too long for q = 2", dict(ccm, data=d32, len=1 << 16), "ILLEGAL"),
        ("ccm tag mismatch", dict(ccm, decrypt=True, data=d32, tag=bytes(8)), "TAG"),
        ("key of 15 bytes", dict(mode="ecb", key=bytes(15), data=d32), "ARG"),
        ("no key", dict(mode="ecb", key=KEY, data=d32, nokey=True), "NO_KEY"),
        ("wait without a job", dict(mode="ecb", key=KEY, data=d32, waitonly=True), "NO_JOB"),
        ("cbc without a 16-byte iv", dict(mode="cbc", key=KEY, iv=IV[:8], data=d32), "ARG"),
        ("ccm decryption overlapping its source", dict(ccm, decrypt=True, data=d32,
                                                       tag=bytes(8), dst=SRC_DEFAULT + 8),
         "OVERLAP"),
        # exactly in place is allowed: the job runs (its zero tag does not match)
        ("ccm decryption in place", dict(ccm, decrypt=True, data=d32, tag=bytes(8),
                                         dst=SRC_DEFAULT), "TAG"),
    ]
    outside = MEM_BASE + MEM_SIZE + 0x1000
    if hw:
        src, dst, aad = SRC_DEFAULT, DST_DEFAULT, AAD_DEFAULT
        cases += [
            ("source SLVERR", dict(mode="ctr", key=KEY, iv=IV, data=bytes(100),
                                   err=[("r", 2, src + 48, src + 52)]), "DMA_READ"),
            ("source DECERR", dict(mode="ecb", key=KEY, data=bytes(64),
                                   err=[("rw", 3, src, src + 4)]), "DMA_READ"),
            ("aad SLVERR", dict(ccm, data=d32, aad=bytes(40),
                                err=[("r", 2, aad + 36, aad + 40)]), "DMA_READ"),
            ("unmapped source", dict(mode="ctr", key=KEY, iv=IV, data=d32, src=outside),
             "DMA_READ"),
            ("destination SLVERR", dict(mode="cbc", key=KEY, iv=IV, data=bytes(64),
                                        err=[("w", 2, dst + 16, dst + 20)]), "DMA_WRITE"),
            ("destination DECERR", dict(mode="ofb", key=KEY, iv=IV, data=bytes(50),
                                        err=[("w", 3, dst + 48, dst + 52)]), "DMA_WRITE"),
            ("ccm tag write SLVERR", dict(ccm, data=d32, err=[("w", 2, dst + 32, dst + 40)]),
             "DMA_WRITE"),
            ("unmapped destination", dict(mode="ctr", key=KEY, iv=IV, data=d32, dst=outside),
             "DMA_WRITE"),
        ]
    else:
        cases += [
            ("unmapped source", dict(mode="ctr", key=KEY, iv=IV, data=d32, src=outside),
             "DMA_READ"),
            ("unmapped aad", dict(ccm, data=d32, aad=bytes(8), aadaddr=outside), "DMA_READ"),
            ("unmapped destination", dict(mode="ctr", key=KEY, iv=IV, data=d32, dst=outside),
             "DMA_WRITE"),
        ]
    return cases


def check_busy(drv: CoprocDriver, hw: bool) -> set[str]:
    """A second start before the wait is refused by the driver (BUSY, nothing written)
    and the running job completes correctly; on the RTL, a START written by another bus
    master while the job runs is rejected by the co-processor (the job still correct,
    its ERR_CODE BUSY)."""
    data = bytes(range(256)) * 8
    want = openssl("cbc", False, KEY, IV, data)
    job = dict(mode="cbc", key=KEY, iv=IV, data=data, lat=3, stall=20)
    cases = [dict(job, busy=True, wait=w) for w in ("poll", "irq")]
    if hw:
        cases += [dict(job, extstart=True, wait=w) for w in ("poll", "irq")]
    seen = set()
    for job, r in zip(cases, drv.jobs(cases)):
        assert r.out == want, job
        if job.get("busy"):
            assert (r.start2, r.status) == ("BUSY", "OK")
            seen.add(r.start2)
        else:
            assert (r.start2, r.status, r.code) == ("", "BUSY", 4)
            seen.add(r.status)
    return seen


def check_errors(drv: CoprocDriver, hw: bool) -> set[str]:
    """Every bad request answers its code, and the next good job runs correctly."""
    good_data = bytes(range(48))
    good = dict(mode="cbc", key=KEY, iv=IV, data=good_data)
    good_want = openssl("cbc", False, KEY, IV, good_data)
    seen = set()
    for name, job, status in error_cases(hw):
        for wait in ("poll", "irq"):
            r, after = drv.jobs([dict(job, wait=wait), dict(good, wait=wait)])
            assert r.status == status, f"{name} ({wait}): {r.status}"
            assert r.code == STATUS_CODES[status]
            assert (after.status, after.out) == ("OK", good_want), f"after {name} ({wait})"
            seen.add(status)
    return seen


# -- the software fallback ---------------------------------------------------------------------
@pytest.fixture(scope="module")
def soft() -> Iterator[CoprocDriver]:
    with CoprocDriver(nodev=True) as drv:
        yield drv


def test_fallback_nist_block_vectors(soft: CoprocDriver) -> None:
    vecs = nist_block_vectors(sample=1)
    assert check_block(soft, vecs) > 1000
    r = soft.job(**block_job(vecs[0])[0])
    assert not r.hw and r.init_writes == 0  # the bus reads 0: not "AKCP"


def test_fallback_nist_ccm_vectors(soft: CoprocDriver) -> None:
    vecs = nist_ccm_vectors(sample=1)
    assert sum(v.expect_pass is False for v in vecs) > 100
    assert check_ccm(soft, vecs) > 4000


def test_fallback_random(soft: CoprocDriver) -> None:
    check_random(soft, random_jobs(random.Random(19), 300, 200))


def test_fallback_status_codes(soft: CoprocDriver) -> None:
    seen = check_errors(soft, hw=False) | check_busy(soft, hw=False)
    assert seen == set(STATUS_CODES) - {"OK", "HW_UNKNOWN"}


# -- the driver on the RTL -------------------------------------------------------------------
@pytest.fixture(scope="module")
def rtl() -> Iterator[CoprocDriver]:
    with CoprocDriver() as drv:
        yield drv


def _stalls(rng: random.Random) -> dict[str, object]:
    return dict(lat=rng.randrange(1, 9), stall=25, seed=rng.getrandbits(31))


def test_rtl_nist_block_vectors(rtl: CoprocDriver) -> None:
    """Every MMT and CTR record and every 4th known-answer record (all in the slow
    test), memory latency and 25 % back-pressure on every channel."""
    vecs = nist_block_vectors(sample=4)
    rng = random.Random(3)
    jobs, wants = zip(*(block_job(v) for v in vecs))
    results = rtl.jobs([dict(j, **_stalls(rng)) for j in jobs])
    for v, r, want in zip(vecs, results, wants):
        assert (r.status, r.out, r.hw) == ("OK", want, True), f"{v.file}:{v.line}"
    assert len(vecs) > 2000


def test_rtl_nist_ccm_vectors(rtl: CoprocDriver) -> None:
    """Every 3rd CCM record (all in the slow test): encryption, decryption, and the
    failing DVPT records end with TAG and write no plaintext."""
    vecs = nist_ccm_vectors(sample=3)
    assert any(v.expect_pass is False for v in vecs)
    assert check_ccm(rtl, vecs, lat=4, stall=25, seed=11) > 1000


def test_rtl_random(rtl: CoprocDriver) -> None:
    results = check_random(rtl, random_jobs(random.Random(1903), 120, 600))
    assert all(r.hw for r in results)


def test_rtl_status_codes(rtl: CoprocDriver) -> None:
    """Every STATUS.ERR_CODE (and the driver's own codes) through the driver, polled and
    interrupt-driven; each followed by a job that must run correctly."""
    seen = check_errors(rtl, hw=True) | check_busy(rtl, hw=True)
    assert seen == set(STATUS_CODES) - {"OK", "HW_UNKNOWN"}


def test_rtl_tampered_tag_long_message(rtl: CoprocDriver) -> None:
    """A CCM decryption of 4 KiB with a tampered tag writes no plaintext at all; the
    same message with its tag decrypts."""
    rng = random.Random(7)
    key, nonce, aad, msg = rng.randbytes(16), rng.randbytes(12), rng.randbytes(40), rng.randbytes(4096)
    full = AESCCM(key, tag_length=16).encrypt(nonce, msg, aad)
    ct, tag = full[:4096], full[4096:]
    job = dict(mode="ccm", decrypt=True, key=key, iv=nonce, aad=aad, tag_len=16, data=ct,
               lat=6, stall=25, seed=5, fill=0x5A)
    bad = bytes([tag[0]]) + bytes([tag[1] ^ 0x80]) + tag[2:]
    r_bad, r_good = rtl.jobs([dict(job, tag=bad, wait="irq"), dict(job, tag=tag)])
    assert (r_bad.status, r_bad.out) == ("TAG", b"\x5a" * 4096)
    assert (r_good.status, r_good.out) == ("OK", msg)


def test_rtl_completion_styles(rtl: CoprocDriver) -> None:
    """Polling never sees irq_o (IRQ_EN stays low); the interrupt-driven wait sleeps in
    the port hook until irq_o; the co-processor's cycle count is the same either way
    (no back-pressure: the job's timing does not depend on how software waits), and the
    DMA keeps at least two reads outstanding on a long job."""
    job = dict(mode="ctr", key=KEY, iv=IV, data=bytes(range(256)) * 16, lat=10)
    poll, irq = rtl.jobs([dict(job, wait="poll"), dict(job, wait="irq")])
    want = openssl("ctr", False, KEY, IV, bytes(range(256)) * 16)
    assert poll.out == irq.out == want
    assert poll.irqs == 0 and poll.irq_high == 0
    assert irq.irqs >= 1 and irq.irq_high > 0
    assert poll.cycles == irq.cycles > 256 * 10
    assert poll.total >= poll.cycles and irq.total >= irq.cycles
    assert poll.max_reads >= 2


def test_rtl_device_detection(rtl: CoprocDriver) -> None:
    """aeskit_init reads ID ("AKCP") and VERSION: another device at the address (an ID
    one bit off, or a map of another MAJOR version) selects the software fallback, and
    detection writes no register there; a newer MINOR is accepted; the co-processor is
    found (and wiped with CLEAR: register writes) otherwise."""
    rng = random.Random(23)
    data = rng.randbytes(48)
    job = dict(mode="cbc", key=KEY, iv=IV, data=data, lat=2, stall=20, seed=3)
    want = openssl("cbc", False, KEY, IV, data)
    ident = int.from_bytes(b"AKCP", "little")
    res = rtl.jobs([dict(job, fakeid=ident ^ 0x100), dict(job, fakeid=0),
                    dict(job, fakever=0x0200), dict(job, fakever=0x0105), job])
    for r in res:
        assert (r.status, r.out) == ("OK", want)
    assert [r.hw for r in res] == [False, False, False, True, True]
    assert [r.init_writes for r in res[:3]] == [0, 0, 0]
    assert res[3].init_writes > 0 and res[4].init_writes > 0


def test_rtl_fallback_same_executable(rtl: CoprocDriver) -> None:
    """soft=1: the driver's software path on the same memory gives the RTL's answer."""
    rng = random.Random(11)
    cases = random_jobs(rng, 24, 200)
    hw = rtl.jobs([c[0] for c in cases])
    sw = rtl.jobs([dict(c[0], soft=True) for c in cases])
    for c, h, s in zip(cases, hw, sw):
        assert (h.status, h.out, h.tag, h.hw) == ("OK", c[2], c[3], True)
        assert (s.status, s.out, s.tag, s.hw) == ("OK", c[2], c[3], False)


@pytest.mark.slow
def test_rtl_all_nist_vectors(rtl: CoprocDriver) -> None:
    rng = random.Random(4)
    vecs = nist_block_vectors(sample=1)
    jobs, wants = zip(*(block_job(v) for v in vecs))
    results = rtl.jobs([dict(j, **_stalls(rng)) for j in jobs])
    for v, r, want in zip(vecs, results, wants):
        assert (r.status, r.out) == ("OK", want), f"{v.file}:{v.line}"
    check_ccm(rtl, nist_ccm_vectors(sample=1), lat=3, stall=30, seed=2)


@pytest.mark.slow
def test_rtl_random_long(rtl: CoprocDriver) -> None:
    """Many random jobs up to 16 KiB (128 Kibit), heavier back-pressure."""
    check_random(rtl, random_jobs(random.Random(20260), 600, 16384, stall=50))
