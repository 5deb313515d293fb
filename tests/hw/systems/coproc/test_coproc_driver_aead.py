"""The C driver's GCM/GMAC, CMAC and XTS calls (sw/aeskit_coproc.c: aeskit_gcm_encrypt,
aeskit_gcm_decrypt, aeskit_gmac, aeskit_cmac_generate, aeskit_cmac_verify, aeskit_xts,
aeskit_set_xts_key) through the driver test executable (aeskit.testbench.coproc_driver;
tests/sw/test_coproc_driver.py runs the other modes): on the co-processor RTL
(ak_coproc + tbox_folded, memory with latency and random back-pressure on every AXI4
and AXI4-Lite channel) and on the software fallback (aes_soft.c's GCM, CMAC, XTS).
Expected values from OpenSSL (the ``cryptography`` package; GCM and CMAC through
:mod:`aeskit.verif.ossl`, XTS here): random lengths (0, 1..65
bytes, non-multiples of 16), every key size a mode takes, tag lengths 4..16, tampered
tags (TAG, the destination keeps its fill: no plaintext), GCM decryption in place (the
plaintext over the ciphertext; a tampered tag leaves the ciphertext), and the new status
cases (OVERLAP for a destination over the source or its tag).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.testbench.coproc_driver import SRC_DEFAULT, CoprocDriver
from aeskit.verif.ossl import cmac, gcm

FILL = 0xEE


def xts(dec: bool, key: bytes, tweak: bytes, data: bytes) -> bytes:
    c = Cipher(algorithms.AES(key), modes.XTS(tweak))
    ctx = c.decryptor() if dec else c.encryptor()
    return ctx.update(data) + ctx.finalize()


def _flip(b: bytes, rng: random.Random) -> bytes:
    x = bytearray(b)
    x[rng.randrange(len(x))] ^= 1 << rng.randrange(8)
    return bytes(x)


def random_jobs(seed: int, n: int, hw: bool) -> list[tuple[dict[str, object], tuple]]:
    """(job, (status, out, tag)) for n jobs of each new mode and direction."""
    rng = random.Random(seed)
    jobs: list[tuple[dict[str, object], tuple]] = []
    for i in range(n):
        ln = (0, 1, 16)[i] if i < 3 else rng.choice((rng.randint(1, 65), 16 * rng.randint(1, 4)))
        bus = dict(lat=rng.randint(1, 4), stall=rng.choice((0, 20, 40)), seed=i,
                   wait=rng.choice(("poll", "irq")), api=rng.random() < 0.7) if hw else \
            dict(api=rng.random() < 0.7)
        # GCM / GMAC
        # every third job an IV of another length, from memory (an aeskit_job with
        # iv_addr; the named GCM calls take 12-byte IVs)
        key, iv = rng.randbytes((16, 24, 32)[i % 3]), rng.randbytes(
            12 if i % 3 else rng.choice((8, 16, 33, 60)))
        pt, aad = rng.randbytes(ln), rng.randbytes(rng.choice((0, 1, 20, 32)))
        if ln == 0 and not aad:
            aad = rng.randbytes(7)
        t = rng.choice((4, 8, 12, 15, 16))
        ct, tag = gcm(key, iv, pt, aad, t)
        g = dict(bus, mode="gcm", key=key, iv=iv, aad=aad, tag_len=t)
        if len(iv) != 12:
            g["api"] = False
        jobs.append((dict(g, data=pt), ("OK", ct, tag)))
        jobs.append((dict(g, decrypt=True, data=ct, tag=tag), ("OK", pt, b"")))
        bad = dict(g, decrypt=True, data=ct, tag=_flip(tag, rng))
        if ct and i % 2:
            bad = dict(g, decrypt=True, data=_flip(ct, rng), tag=tag)
        jobs.append((bad, ("TAG", bytes([FILL]) * len(ct), b"")))
        if ct and i % 2 == 0:
            # in place (dst = src): the plaintext over the ciphertext; a tampered tag
            # leaves the ciphertext (nothing written)
            jobs.append((dict(g, decrypt=True, data=ct, tag=tag, dst=SRC_DEFAULT),
                         ("OK", pt, b"")))
            jobs.append((dict(g, decrypt=True, data=ct, tag=_flip(tag, rng), dst=SRC_DEFAULT),
                         ("TAG", ct, b"")))
        # CMAC
        key, msg = rng.randbytes((16, 24, 32)[(i + 1) % 3]), rng.randbytes(ln)
        t = rng.randint(4, 16)
        tag = cmac(key, msg, t)
        c = dict(bus, mode="cmac", key=key, tag_len=t)
        jobs.append((dict(c, data=msg), ("OK", b"", tag)))
        jobs.append((dict(c, decrypt=True, data=msg, tag=tag), ("OK", b"", b"")))
        jobs.append((dict(c, decrypt=True, data=msg, tag=_flip(tag, rng)), ("TAG", b"", b"")))
        # XTS (K1 || K2: 32 or 64 bytes), a data unit of 16..65 bytes
        key, tweak = rng.randbytes((32, 64)[i % 2]), rng.randbytes(16)
        data = rng.randbytes(max(16, ln))
        x = dict(bus, mode="xts", key=key, iv=tweak)
        jobs.append((dict(x, data=data), ("OK", xts(False, key, tweak, data), b"")))
        jobs.append((dict(x, decrypt=True, data=data), ("OK", xts(True, key, tweak, data), b"")))
    return jobs


def status_jobs() -> list[tuple[str, dict[str, object], str]]:
    key, iv = bytes(range(16)), bytes(range(12))
    d = bytes(32)
    return [
        ("xts with a 192-bit key", dict(mode="xts", key=bytes(48), iv=bytes(16), data=d),
         "ILLEGAL"),
        ("xts data unit of 15 bytes", dict(mode="xts", key=bytes(32), iv=bytes(16),
                                           data=bytes(15)), "ILLEGAL"),
        ("xts data unit of 0 bytes", dict(mode="xts", key=bytes(32), iv=bytes(16), data=b""),
         "LEN_ZERO"),
        ("xts key of 40 bytes", dict(mode="xts", key=bytes(40), iv=bytes(16), data=d), "ARG"),
        ("xts without a key", dict(mode="xts", key=key, iv=bytes(16), data=d,
                                   api=True, nokey=True), "NO_KEY"),
        ("gcm tag of 3 bytes", dict(mode="gcm", key=key, iv=iv, data=d, tag_len=3), "ILLEGAL"),
        ("gcm tag of 17 bytes", dict(mode="gcm", key=key, iv=iv, data=d, tag_len=17),
         "ILLEGAL"),
        ("gcm call with an iv of 16 bytes", dict(mode="gcm", key=key, iv=bytes(16), data=d,
                                                 tag_len=16, api=True), "ARG"),
        ("gcm iv in memory crossing 2^32", dict(mode="gcm", key=key, iv=bytes(20), data=d,
                                                tag_len=16, ivaddr=0xFFFF_FFF0), "ADDR_WRAP"),
        ("gcm decryption overlapping its source by 28 bytes",
         dict(mode="gcm", decrypt=True, key=key, iv=iv, data=d, tag=bytes(16), tag_len=16,
              dst=SRC_DEFAULT + 4), "OVERLAP"),
        ("gcm decryption over its own tag",
         dict(mode="gcm", decrypt=True, key=key, iv=iv, data=d, tag=bytes(16), tag_len=16,
              dst=SRC_DEFAULT + 32), "OVERLAP"),
        ("cmac tag of 2 bytes", dict(mode="cmac", key=key, data=d, tag_len=2), "ILLEGAL"),
        ("cmac tag wraps the destination", dict(mode="cmac", key=key, data=d, tag_len=16,
                                                dst=0xFFFF_FFF8), "ADDR_WRAP"),
    ]


def check_random(drv: CoprocDriver, seed: int, n: int, hw: bool) -> None:
    jobs = random_jobs(seed, n, hw)
    for (job, (status, out, tag)), r in zip(jobs, drv.jobs([j for j, _ in jobs])):
        what = {k: (v.hex()[:40] if isinstance(v, bytes) else v) for k, v in job.items()}
        assert r.hw == hw
        assert (r.status, r.out, r.tag) == (status, out, tag), what


def check_status(drv: CoprocDriver) -> None:
    for name, job, status in status_jobs():
        r = drv.job(**job)
        assert r.status == status, f"{name}: {r.status}"


# -- the software fallback ---------------------------------------------------------------
@pytest.fixture(scope="module")
def soft() -> Iterator[CoprocDriver]:
    with CoprocDriver(nodev=True) as drv:
        yield drv


def test_fallback_aead(soft: CoprocDriver) -> None:
    check_random(soft, seed=71, n=24, hw=False)
    check_status(soft)


# -- the co-processor RTL ----------------------------------------------------------------
@pytest.fixture(scope="module")
def rtl() -> Iterator[CoprocDriver]:
    with CoprocDriver() as drv:
        yield drv


def test_rtl_aead(rtl: CoprocDriver) -> None:
    check_random(rtl, seed=72, n=10, hw=True)
    check_status(rtl)


@pytest.mark.slow
def test_rtl_aead_long(rtl: CoprocDriver) -> None:
    check_random(rtl, seed=73, n=60, hw=True)
