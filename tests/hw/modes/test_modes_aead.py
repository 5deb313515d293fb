"""GCM/GMAC, CMAC and XTS on the mode engine (hw/modes: ak_mode_stream's GHASH unit,
MAC lane and tweak/stealing logic; ak_mode_engine's K2/K1 swap), on ``pipe2`` and
``round``, through the compiled harness.

* every record of the six CAVP GCM files (gcmEncryptExtIV128/192/256: 23,625
  encryptions; gcmDecrypt128/192/256: 23,625 decryptions, 11,908 of them FAIL records
  whose tag the hardware compare must reject, releasing no plaintext through the API);
* Wycheproof aes_gcm_test (316; IVs of 1..257 bytes, modified tags; the empty IV is an
  illegal command in the engine);
* the SP 800-38B CMAC examples and Wycheproof aes_cmac_test (generation and
  verification in hardware; keys of sizes AES lacks are refused before the run);
* every record of the four CAVP XTSGenAES files (4,000: XTS-AES-128/256, hex tweaks
  and data-unit sequence numbers, encryption and decryption, data units of 128, 130,
  140, 200, 250, 256 and 384 bits -- ciphertext stealing to the bit);
* random differential tests against OpenSSL (``cryptography``: GCM with IVs of 8 bytes
  or more, CMAC, XTS of whole bytes) and the golden model (``aeskit.model``: GCM IVs of
  1..7 bytes, which OpenSSL refuses; XTS units of any bit length), corrupted
  ciphertexts, tags and AAD, both streams busy (XTS on both: their tweak phases
  interleave with the other stream's blocks) with random input gaps and output
  stalls, CCM/CTR messages interleaved;
* exact cycles per block from the core's latency and interval and GHASH's 128/D;
* illegal commands: GCM with an empty IV or a tag outside 4..16, CMAC with a tag
  outside 4..16, XTS with a data unit under 128 bits, mode codes 9..15.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.model import gcm as G
from aeskit.model import modes as M
from aeskit.model import xts as X
from aeskit.harness.modes import Message, ModeHarness, RtlModes, TagMismatch, \
    measure_cycles_per_block
from aeskit.vectors.catalog import (cmac_vectors, gcm_vectors, wycheproof_cmac_vectors,
                                    wycheproof_gcm_vectors, xts_vectors)
from aeskit.verif.ossl import cmac as _ossl_cmac
from aeskit.verif.ossl import gcm as _ossl_gcm

CORES = ["pipe2", "round"]
#: the engine's default GhashDigitBits: GHASH takes 128/16 = 8 cycles per block
GHASH_CYCLES = 128 // 16

Harnesses = Callable[[str], ModeHarness]


# ----------------------------------------------------------------------------------
# NIST CAVP and Wycheproof
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("direction", ["Encrypt", "Decrypt"])
@pytest.mark.parametrize("core", CORES)
def test_gcm_cavp(harnesses: Harnesses, core: str, direction: str) -> None:
    """Every record of gcmEncryptExtIV* or gcmDecrypt* (23,625 per direction)."""
    h = harnesses(core)
    records = gcm_vectors(direction)
    assert len(records) == 3 * 7875
    fails = 0
    for v in records:
        h.load_key(v.key)
        what = f"{v.file}:{v.line}"
        if v.decrypt:
            m = Message("gcm", True, v.ciphertext, iv=v.iv, aad=v.aad, tag_len=len(v.tag),
                        tag=v.tag)
            h.run([m])
            assert not m.error, what
            assert m.passed == v.expect_pass, what
            if v.expect_pass:
                assert m.out == v.plaintext, what
            fails += not v.expect_pass
        else:
            m = Message("gcm", False, v.plaintext or b"", iv=v.iv, aad=v.aad,
                        tag_len=len(v.tag))
            h.run([m])
            assert not m.error and m.passed, what
            assert (m.out, m.out_tag) == (v.ciphertext, v.tag), what
    assert fails == (11_908 if direction == "Decrypt" else 0)


@pytest.mark.parametrize("core", CORES)
def test_gcm_wycheproof(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    records = wycheproof_gcm_vectors()
    assert len(records) == 316
    refused = 0
    for v in records:
        h.load_key(v.key)
        m = Message("gcm", True, v.ciphertext, iv=v.iv, aad=v.aad, tag_len=len(v.tag),
                    tag=v.tag)
        h.run([m])
        what = f"{v.file}:{v.line} tcId {v.count} {v.flags}"
        if not v.iv:
            # SP 800-38D needs an IV of at least one bit: an illegal command
            assert m.error and not m.passed and m.beats_out == [], what
            refused += 1
            continue
        assert not m.error, what
        assert m.passed == v.expect_pass, what
        if v.expect_pass:
            assert m.out == v.plaintext, what
            e = Message("gcm", False, v.plaintext or b"", iv=v.iv, aad=v.aad,
                        tag_len=len(v.tag))
            h.run([e])
            assert (e.out, e.out_tag) == (v.ciphertext, v.tag), what
    assert refused == 6


@pytest.mark.parametrize("core", CORES)
def test_cmac_vectors(harnesses: Harnesses, core: str) -> None:
    """SP 800-38B's examples and Wycheproof: generation and verification in hardware."""
    h = harnesses(core)
    nist, wp = cmac_vectors(), wycheproof_cmac_vectors()
    assert (len(nist), len(wp)) == (12, 311)
    ran = refused = 0
    for v in nist + wp:
        if len(v.key) not in (16, 24, 32):
            with pytest.raises(ValueError, match="key must be 16, 24 or 32 bytes"):
                h.load_key(v.key)
            refused += 1
            continue
        h.load_key(v.key)
        gen = Message("cmac", False, v.message, tag_len=len(v.tag))
        ver = Message("cmac", True, v.message, tag_len=len(v.tag), tag=v.tag, stream=1)
        h.run([gen, ver])
        what = f"{v.file}:{v.line}"
        authentic = v.expect_pass is not False
        assert not gen.error and not ver.error, what
        assert gen.out == b"" and ver.out == b"", what
        assert (gen.out_tag == v.tag) == authentic, what
        assert ver.passed == authentic, what
        ran += 1
    assert (ran, refused) == (12 + 306, 5)


@pytest.mark.parametrize("core", CORES)
def test_xts_cavp(harnesses: Harnesses, core: str) -> None:
    """Every XTSGenAES record (the key is K1 || K2; the sequence-number files' tweak is
    the number as 16 little-endian bytes)."""
    h = harnesses(core)
    records = xts_vectors()
    assert len(records) == 4000
    bits_seen = set()
    for v in records:
        n = len(v.key) // 2
        h.load_key(v.key[:n], v.key[n:])
        tweak = v.tweak if v.tweak is not None else X.xts_tweak_from_seqno(v.seqno)
        src, want = (v.ciphertext, v.plaintext) if v.decrypt else (v.plaintext, v.ciphertext)
        m = Message("xts", v.decrypt, src, iv=tweak, bits=v.data_unit_len)
        h.run([m])
        assert not m.error and m.out == want, f"{v.file}:{v.line}"
        bits_seen.add(v.data_unit_len)
    assert bits_seen == {128, 130, 140, 200, 250, 256, 384}


# ----------------------------------------------------------------------------------
# random differential
# ----------------------------------------------------------------------------------
def _flip(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def _xts_message(rng: random.Random, key: bytes, key2: bytes, stream: int) -> tuple[Message, tuple]:
    """A random XTS data unit (whole bytes or any bit length >= 128) and its result."""
    dec = rng.random() < 0.5
    bits = rng.choice([128, 256, 8 * rng.randint(16, 80), rng.randint(128, 700)])
    data = bytearray(rng.randbytes(-(-bits // 8)))
    if bits % 8:
        data[-1] &= (0xFF << (8 - bits % 8)) & 0xFF  # the unused low bits are zero
    tweak = rng.randbytes(16)
    if bits % 8 == 0:
        c = Cipher(algorithms.AES(key + key2), modes.XTS(tweak))
        op = c.decryptor() if dec else c.encryptor()
        out = op.update(bytes(data)) + op.finalize()
    else:
        f = X.xts_decrypt if dec else X.xts_encrypt
        out = f(AES(key), AES(key2), tweak, bytes(data), bits)
    return Message("xts", dec, bytes(data), iv=tweak, bits=bits, stream=stream), (out, b"", True)


def _random_message(rng: random.Random, key: bytes, key2: bytes,
                    stream: int) -> tuple[Message, tuple]:
    """A random GCM, GMAC, CMAC, XTS (or, as traffic beside them, CTR/CCM) message and
    its expected (out, out_tag, passed), from OpenSSL or the golden model."""
    kind = rng.choice(["gcm", "gcm", "gcm", "gmac", "cmac", "cmac", "xts", "xts", "ctr", "ccm"])
    if kind == "xts" and len(key) != 24:  # XTS-AES: 128- and 256-bit keys only
        return _xts_message(rng, key, key2, stream)
    kind = "ctr" if kind == "xts" else kind
    dec = rng.random() < 0.5
    tl = rng.randint(4, 16)
    data = rng.randbytes(rng.choice([0, 1, 15, 16, 17, 31, 32, 33, rng.randint(0, 200)]))
    if kind in ("gcm", "gmac"):
        iv = rng.randbytes(rng.choice([12, 12, 12, 1, 2, 7, 8, 16, 17, 31, 64]))
        aad = rng.randbytes(rng.choice([0, 0, 1, 16, 20, 33, rng.randint(0, 100)]))
        pt = b"" if kind == "gmac" else data
        if len(iv) >= 8:
            ct, tag = _ossl_gcm(key, iv, pt, aad, tl)
        else:
            ct, tag = G.gcm_encrypt(AES(key), iv, pt, aad, tl)
        if not dec:
            return (Message("gcm", False, pt, iv=iv, aad=aad, tag_len=tl, stream=stream),
                    (ct, tag, True))
        good = rng.random() < 0.6
        if not good:
            which = rng.choice(["ct", "tag", "aad", "iv"] if ct and aad else ["tag", "iv"])
            ct, tag = (_flip(ct, rng), tag) if which == "ct" else \
                (ct, _flip(tag, rng)) if which == "tag" else (ct, tag)
            aad = _flip(aad, rng) if which == "aad" else aad
            iv = _flip(iv, rng) if which == "iv" else iv
        m = Message("gcm", True, ct, iv=iv, aad=aad, tag_len=tl, tag=tag, stream=stream)
        return m, (pt, b"", good)
    if kind == "cmac":
        tag = _ossl_cmac(key, data, tl)
        if not dec:
            return Message("cmac", False, data, tag_len=tl, stream=stream), (b"", tag, True)
        good = rng.random() < 0.6
        msg = data if good or not data or rng.random() < 0.5 else _flip(data, rng)
        tag = tag if good or msg != data else _flip(tag, rng)
        return (Message("cmac", True, msg, tag_len=tl, tag=tag, stream=stream),
                (b"", b"", good))
    if kind == "ctr":
        iv = rng.randbytes(16)
        return (Message("ctr", dec, data, iv=iv, stream=stream),
                (M.ctr_crypt(AES(key), iv, data), b"", True))
    nonce = rng.randbytes(13)
    ct_tag = M.ccm_encrypt(AES(key), nonce, b"", data, 8)
    return (Message("ccm", False, data, iv=nonce, tag_len=8, stream=stream),
            (ct_tag[:len(data)], ct_tag[len(data):], True))


def _random_run(h: ModeHarness, seed: int, messages: int) -> None:
    rng = random.Random(seed)
    done = 0
    while done < messages:
        key = rng.randbytes(rng.choice([16, 24, 32]))
        key2 = rng.randbytes(len(key))
        h.load_key(key, key2)
        batch = [_random_message(rng, key, key2, rng.randint(0, 1))
                 for _ in range(rng.randint(1, 16))]
        gap, stall = rng.choice([(0, 0), (0, 50), (50, 0), (30, 30), (70, 70)])
        h.run([m for m, _ in batch], gap_pct=gap, stall_pct=stall, seed=rng.getrandbits(31))
        for m, (out, tag, ok) in batch:
            what = (f"{m.mode} dec={m.decrypt} iv={len(m.iv)} aad={len(m.aad)} "
                    f"len={len(m.data)} tag={m.tag_len} stream={m.stream}")
            assert not m.error, what
            assert m.passed == ok, what
            if ok:
                assert m.out == out, what
                assert m.out_tag == tag, what
        done += len(batch)


@pytest.mark.parametrize("core", CORES)
def test_random_differential(harnesses: Harnesses, core: str) -> None:
    _random_run(harnesses(core), seed=11 + CORES.index(core), messages=800)


@pytest.mark.slow
@pytest.mark.parametrize("core", CORES)
def test_random_differential_long(harnesses: Harnesses, core: str) -> None:
    _random_run(harnesses(core), seed=200 + CORES.index(core), messages=20_000)


def test_api_releases_nothing_on_a_bad_tag() -> None:
    """RtlModes: a forged GCM message raises TagMismatch (no plaintext returned); a
    forged GMAC/CMAC tag raises it too; authentic ones pass."""
    key, iv, aad = bytes(range(16)), bytes(range(12)), b"header"
    with RtlModes("round", key) as eng:
        sealed = eng.gcm_encrypt(iv, b"attack at dawn", aad, 16)
        assert eng.gcm_decrypt(iv, sealed, aad, 16) == b"attack at dawn"
        for forged in (_flip(sealed, random.Random(i)) for i in range(4)):
            with pytest.raises(TagMismatch):
                eng.gcm_decrypt(iv, forged, aad, 16)
        with pytest.raises(TagMismatch):
            eng.gcm_decrypt(iv, sealed, aad + b"!", 16)
        tag = eng.cmac(b"message", 12)
        assert tag == _ossl_cmac(key, b"message", 12)
        eng.cmac_verify(b"message", tag)
        with pytest.raises(TagMismatch):
            eng.cmac_verify(b"messagf", tag)


# ----------------------------------------------------------------------------------
# cycles per block
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_cycles_per_block(harnesses: Harnesses, core: str) -> None:
    """Never stalled, per 16-byte block, from the core's latency L and interval I and
    GHASH's g = 128/D cycles per block: GCM is CTR with GHASH beside it, two blocks in
    the core per stream, max(L/2, I, g); two streams (each its own GHASH) max(L/4, I,
    g/2). CMAC is a chained flow (CBC-MAC), one block in the core: max(L, I); two
    streams max(L, 2I)/2. XTS's blocks are independent: max(L/2, I), two streams
    max(L/4, I) (its tweak, two key loads per data unit, cancels in the slope). Both
    directions alike (decryption compares the tag)."""
    spec = get_core(core)
    h = harnesses(core)
    g = GHASH_CYCLES
    for ks in (128, 192, 256):
        h.load_key(bytes(range(ks // 8)), bytes(range(1, ks // 8 + 1)))
        lat, itv = spec.latency[ks], spec.interval[ks]
        for dec in (False, True):
            for mode, exp1, exp2 in (("gcm", max(lat / 2, itv, g), max(lat / 4, itv, g / 2)),
                                     ("cmac", max(lat, itv), max(lat, 2 * itv) / 2),
                                     ("xts", max(lat / 2, itv), max(lat / 4, itv))):
                if mode == "xts" and ks == 192:
                    continue  # XTS-AES has 128- and 256-bit keys (illegal: test_illegal_*)
                one = measure_cycles_per_block(h, mode, decrypt=dec, streams=1)
                two = measure_cycles_per_block(h, mode, decrypt=dec, streams=2)
                assert (one, two) == (exp1, exp2), (mode, dec, ks, one, two, exp1, exp2)


# ----------------------------------------------------------------------------------
# illegal commands
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_illegal_commands(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    key = bytes(range(16))
    h.load_key(key)
    bad = [
        Message("gcm", False, bytes(20), iv=b"", tag_len=16),                 # empty IV
        Message("gcm", True, bytes(20), iv=bytes(12), tag_len=3, tag=bytes(3)),  # tag 3
        Message("gcm", False, bytes(20), iv=bytes(40), aad=bytes(5), tag_len=17),  # tag 17
        Message("cmac", False, bytes(33), tag_len=3),
        Message("cmac", True, bytes(33), tag_len=17, tag=bytes(17)),
        Message("xts", False, bytes(16), iv=bytes(16), bits=127),
        Message("xts", True, b"", iv=bytes(16), bits=0),
        Message("ecb", False, bytes(32), mode_code=9),
        Message("ecb", False, bytes(32), mode_code=15),
    ]
    good = Message("gcm", False, bytes(range(48)), iv=bytes(12), tag_len=16, stream=0)
    xts192 = Message("xts", False, bytes(32), iv=bytes(16), stream=1)
    msgs = []
    for i, m in enumerate(bad):
        m.stream = i % 2
        msgs.append(m)
    msgs.append(good)
    h.run(msgs, gap_pct=20, stall_pct=20, seed=9)
    h.load_key(bytes(24), bytes(24))  # XTS-AES has no 192-bit variant
    h.run([xts192])
    for m in bad + [xts192]:
        assert m.error and not m.passed and m.beats_out == [], m
    ct, tag = _ossl_gcm(key, bytes(12), bytes(range(48)), b"", 16)
    assert not good.error and (good.out, good.out_tag) == (ct, tag)
