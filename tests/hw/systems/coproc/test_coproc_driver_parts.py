"""The C driver's messages in parts (sw/aeskit_coproc.c: aeskit_gcm_init / _update /
_final, aeskit_cmac_init / _update / _final; the fallback's aes_soft_gcm_part and
aes_soft_cmac_part) through the driver test executable (``split=`` of
sw/test/coproc_drv.cpp, aeskit.testbench.coproc_driver), on the co-processor RTL
(ak_coproc + tbox_folded, memory with latency and random back-pressure) and on the
software fallback, against OpenSSL (:mod:`aeskit.verif.ossl`) for the whole message:

* GCM/GMAC both directions, 128/192/256-bit keys, 12-byte IVs and IVs of 8..33 bytes
  (from memory), AAD split across the updates, payloads split at random block
  boundaries (:func:`aeskit.verif.parts.split_gcm`), tags of 4..16 bytes; the context
  after each update equals :func:`aeskit.verif.parts.gcm_context` (so the co-processor
  and the fallback carry the same context), and is wiped after final;
* tampered tags: final answers TAG, the last part's destination keeps its fill; the
  updates' plaintext was released (it is in the destination);
* CMAC generation and verification split at random block boundaries, tampered tags;
* a final without updates (the message whole);
* the status cases of parts: an update that is not whole blocks, AAD after payload, a
  CMAC final of 0 bytes after updates (ILLEGAL), a tag length of 3 at init (ILLEGAL), a
  co-processor whose VERSION reads 1.1 (ILLEGAL from the driver, RTL only).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from aeskit.testbench.coproc_driver import CoprocDriver
from aeskit.verif import ossl
from aeskit.verif.parts import cmac_context, gcm_context, split_cmac, split_gcm

FILL = 0xEE
ZERO_CTX = bytes(32)


def _flip(b: bytes, rng: random.Random, lo: int = 0) -> bytes:
    x = bytearray(b)
    i = rng.randrange(lo, len(x))
    x[i] ^= 1 << rng.randrange(8)
    return bytes(x)


def _gcm_msg(rng: random.Random) -> tuple[bytes, bytes]:
    while True:
        aad = rng.randbytes(rng.choice((0, 7, 16, 32, 40)))
        pt = rng.randbytes(rng.choice((0, 16, rng.randint(17, 90), 16 * rng.randint(2, 5))))
        if len(aad) >= 16 or (len(aad) % 16 == 0 and len(pt) >= 16):
            return aad, pt


def random_jobs(seed: int, n: int, hw: bool) -> list[tuple[dict[str, object], dict[str, object]]]:
    """(job, expected) pairs: expected keys status, out, tag, part_status, contexts."""
    rng = random.Random(seed)
    jobs: list[tuple[dict[str, object], dict[str, object]]] = []
    for i in range(n):
        bus: dict[str, object] = dict(lat=rng.randint(1, 4), stall=rng.choice((0, 20, 40)),
                                      seed=i, wait=rng.choice(("poll", "irq"))) if hw else {}
        # GCM
        key = rng.randbytes((16, 24, 32)[i % 3])
        iv = rng.randbytes(12 if i % 3 else rng.choice((8, 16, 33)))
        aad, pt = _gcm_msg(rng)
        t = rng.choice((4, 8, 12, 15, 16))
        ct, tag = ossl.gcm(key, iv, pt, aad, t)
        parts = split_gcm(rng, len(aad), len(pt))
        split = [(p.aad_len, p.len) for p in parts[:-1]]
        ctxs = tuple(gcm_context(key, aad[:p.a1], ct[:p.p1]) for p in parts[:-1]) + (ZERO_CTX,)
        ok = tuple("OK" for _ in split)
        g = dict(bus, mode="gcm", key=key, iv=iv, aad=aad, tag_len=t, split=split)
        jobs.append((dict(g, data=pt), dict(status="OK", out=ct, tag=tag, part_status=ok,
                                            contexts=ctxs)))
        jobs.append((dict(g, decrypt=True, data=ct, tag=tag),
                     dict(status="OK", out=pt, tag=b"", part_status=ok, contexts=ctxs)))
        # tampered tag: TAG at final; the updates' plaintext is out, LAST's part is not
        p0 = parts[-1].p0
        jobs.append((dict(g, decrypt=True, data=ct, tag=_flip(tag, rng)),
                     dict(status="TAG", out=pt[:p0] + bytes([FILL]) * (len(pt) - p0), tag=b"",
                          part_status=ok, contexts=ctxs)))
        # CMAC
        key = rng.randbytes((16, 24, 32)[(i + 1) % 3])
        msg = rng.randbytes(rng.choice((rng.randint(17, 90), 16 * rng.randint(2, 5))))
        t = rng.randint(4, 16)
        mtag = ossl.cmac(key, msg, t)
        parts = split_cmac(rng, len(msg))
        split = [(0, p.len) for p in parts[:-1]]
        ctxs = tuple(cmac_context(key, msg[:p.p1]) for p in parts[:-1]) + (ZERO_CTX,)
        ok = tuple("OK" for _ in split)
        c = dict(bus, mode="cmac", key=key, tag_len=t, split=split)
        jobs.append((dict(c, data=msg), dict(status="OK", out=b"", tag=mtag, part_status=ok,
                                             contexts=ctxs)))
        jobs.append((dict(c, decrypt=True, data=msg, tag=mtag),
                     dict(status="OK", out=b"", tag=b"", part_status=ok, contexts=ctxs)))
        jobs.append((dict(c, decrypt=True, data=msg, tag=_flip(mtag, rng)),
                     dict(status="TAG", out=b"", tag=b"", part_status=ok, contexts=ctxs)))
    # final without updates: the message whole
    key, iv = rng.randbytes(16), rng.randbytes(12)
    pt, aad = rng.randbytes(40), rng.randbytes(9)
    ct, tag = ossl.gcm(key, iv, pt, aad, 16)
    jobs.append((dict(mode="gcm", key=key, iv=iv, aad=aad, tag_len=16, split=[], data=pt),
                 dict(status="OK", out=ct, tag=tag, part_status=(), contexts=(ZERO_CTX,))))
    return jobs


def status_jobs() -> list[tuple[str, dict[str, object], str, tuple[str, ...]]]:
    """(name, job, final status, the updates' statuses)."""
    key, iv = bytes(range(16)), bytes(range(12))
    d = bytes(64)
    g = dict(mode="gcm", key=key, iv=iv, tag_len=16, data=d)
    c = dict(mode="cmac", key=key, tag_len=16, data=d)
    return [
        ("gcm update of 20 bytes", dict(g, split=[(0, 20)]), "ILLEGAL", ("ILLEGAL",)),
        ("gcm update with 7 bytes of aad", dict(g, aad=bytes(7), split=[(7, 16)]), "ILLEGAL",
         ("ILLEGAL",)),
        ("gcm aad after payload", dict(g, aad=bytes(32), split=[(0, 16), (16, 16)]), "ILLEGAL",
         ("OK", "ILLEGAL")),
        ("gcm final with aad after payload", dict(g, aad=bytes(5), split=[(0, 16)]), "ILLEGAL",
         ("OK",)),
        ("gcm tag of 3 bytes", dict(g, tag_len=3, split=[(0, 16)]), "ILLEGAL", ()),
        ("cmac update of 15 bytes", dict(c, split=[(0, 15)]), "ILLEGAL", ("ILLEGAL",)),
        ("cmac final of 0 bytes", dict(c, split=[(0, 32), (0, 32)]), "ILLEGAL", ("OK", "OK")),
        ("cmac tag of 17 bytes", dict(c, tag_len=17, split=[(0, 16)]), "ILLEGAL", ()),
    ]


def check_random(drv: CoprocDriver, seed: int, n: int, hw: bool) -> None:
    jobs = random_jobs(seed, n, hw)
    for (job, want), r in zip(jobs, drv.jobs([j for j, _ in jobs])):
        what = {k: (v.hex()[:40] if isinstance(v, bytes) else v) for k, v in job.items()}
        assert r.hw == hw
        got = dict(status=r.status, out=r.out, tag=r.tag, part_status=r.part_status,
                   contexts=r.contexts)
        assert got == want, what


def check_status(drv: CoprocDriver) -> None:
    for name, job, status, parts in status_jobs():
        r = drv.job(**job)
        assert (r.status, r.part_status) == (status, parts), f"{name}: {r.status} {r.part_status}"


# -- the software fallback ---------------------------------------------------------------
@pytest.fixture(scope="module")
def soft() -> Iterator[CoprocDriver]:
    with CoprocDriver(nodev=True) as drv:
        yield drv


def test_fallback_parts(soft: CoprocDriver) -> None:
    check_random(soft, seed=91, n=24, hw=False)
    check_status(soft)


# -- the co-processor RTL ----------------------------------------------------------------
@pytest.fixture(scope="module")
def rtl() -> Iterator[CoprocDriver]:
    with CoprocDriver() as drv:
        yield drv


def test_rtl_parts(rtl: CoprocDriver) -> None:
    check_random(rtl, seed=92, n=8, hw=True)
    check_status(rtl)
    # a co-processor of register map 1.1 (VERSION.MINOR 1, read by aeskit_init) has no
    # CTRL.PART: the driver refuses the part (ILLEGAL) instead of running it whole
    r = rtl.job(mode="gcm", key=bytes(16), iv=bytes(12), data=bytes(32), tag_len=16,
                split=[(0, 16)], fakever=0x101)
    assert (r.hw, r.status, r.part_status) == (True, "ILLEGAL", ("ILLEGAL",))


@pytest.mark.slow
def test_rtl_parts_long(rtl: CoprocDriver) -> None:
    check_random(rtl, seed=93, n=60, hw=True)
