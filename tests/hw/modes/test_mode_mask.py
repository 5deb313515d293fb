"""The mode engine's ``Modes`` parameter: a build runs the modes it has and refuses
the others.

Two builds on ``round`` (compiled harness, random gaps and stalls):

* ``Modes`` = 9'h007 (ECB, CBC, CTR; one stream), the "CTR + CBC + ECB" configuration
  a user picks for a bulk-cipher peripheral;
* ``Modes`` = 9'h0c4 (CTR, GCM, CMAC; two streams): the AEAD/MAC set without CBC or
  the MAC lane's CCM.

For each, random messages of every mode the build has are checked against
``cryptography`` (OpenSSL); every mode it leaves out is sent with its code (and its
framing: IV, AAD, tag beats, XTS's bit count) and must come back with ``sts_error_o``
= 1, no output beat, and the stream's framing intact: the legal message queued right
behind it on the same stream is still correct.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives import cmac as ossl_cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from aeskit.harness.modes import MODE_CODE, Build, Message, ModeHarness

BUILDS = {
    "ecb_cbc_ctr": Build(streams=1, modes=0x007),
    "ctr_gcm_cmac": Build(streams=2, modes=0x0C4),
}


def _expected(m: Message, key: bytes) -> tuple[bytes, bytes]:
    """(output data, output tag) of ``m`` by OpenSSL."""
    if m.mode == "gcm":
        full = AESGCM(key).encrypt(m.iv, m.data, m.aad or None)
        return full[:len(m.data)], full[len(m.data):][:m.tag_len]
    if m.mode == "cmac":
        c = ossl_cmac.CMAC(algorithms.AES(key))
        c.update(m.data)
        return b"", c.finalize()[:m.tag_len]
    mode = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(m.iv),
            "ctr": lambda: modes.CTR(m.iv)}[m.mode]()
    c = Cipher(algorithms.AES(key), mode)
    op = c.decryptor() if m.decrypt else c.encryptor()
    return op.update(m.data) + op.finalize(), b""


def _legal(rng: random.Random, mode: str, stream: int) -> Message:
    whole = mode in ("ecb", "cbc")
    n = 16 * rng.randint(1, 5) if whole else rng.randint(1, 80)
    m = Message(mode=mode, decrypt=False, data=rng.randbytes(n), stream=stream)
    if mode in ("cbc", "ctr"):
        m.iv = rng.randbytes(16)
        m.decrypt = mode == "cbc" and rng.random() < 0.5
    elif mode == "ecb":
        m.decrypt = rng.random() < 0.5
    elif mode == "gcm":
        m.iv, m.aad, m.tag_len = rng.randbytes(12), rng.randbytes(rng.randint(0, 40)), 16
    elif mode == "cmac":
        m.tag_len = 16
    return m


def _left_out(rng: random.Random, mode: str, stream: int) -> Message:
    """A message of a mode the build leaves out, with that mode's framing."""
    m = Message(mode=mode, decrypt=False, data=rng.randbytes(48), stream=stream,
                mode_code=MODE_CODE[mode])
    if mode == "ccm":
        m.iv, m.aad, m.tag_len = rng.randbytes(13), rng.randbytes(20), 8
        m.decrypt, m.tag = True, rng.randbytes(8)       # AAD beats and a tag beat
    elif mode == "gcm":
        m.iv, m.aad, m.tag_len = rng.randbytes(20), rng.randbytes(20), 16
        m.decrypt, m.tag = True, rng.randbytes(16)      # IV beats, AAD, a tag beat
    elif mode == "cmac":
        m.tag_len, m.decrypt, m.tag = 16, True, rng.randbytes(16)
    elif mode == "xts":
        m.data, m.bits = rng.randbytes(40), 8 * 40 - 3  # counted in bits
    else:
        m.iv = rng.randbytes(16)
    return m


# ecb_cbc_ctr (the small co-processor's Modes) in test-full: make test runs coproc_cmac
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "ecb_cbc_ctr"
                                  else n for n in sorted(BUILDS)])
def test_mode_mask(name: str) -> None:
    build = BUILDS[name]
    has = [m for m in MODE_CODE if build.has(m)]
    left_out = [m for m in MODE_CODE if not build.has(m)]
    rng = random.Random(hash(name) & 0xFFFF)
    key = rng.randbytes(16)
    with ModeHarness("round", build=build) as h:
        h.load_key(key)
        # a message of a mode left out is refused in the RTL, not by the harness check
        # alone: without its code the harness refuses it before the run
        with pytest.raises(ValueError, match="has no"):
            h.run([Message(mode=left_out[0], decrypt=False, data=bytes(16))])
        for rnd in range(3):
            msgs: list[Message] = []
            for s in range(build.streams):
                for mode in left_out:
                    msgs.append(_left_out(rng, mode, s))
                    msgs.append(_legal(rng, rng.choice(has), s))
                for mode in has:
                    msgs.append(_legal(rng, mode, s))
            h.run(msgs, gap_pct=20, stall_pct=20, seed=rnd + 1)
            for m in msgs:
                where = f"{name} round {rnd}: {m.mode} stream {m.stream}"
                if m.mode_code is not None:
                    assert m.error and not m.passed, where
                    assert m.beats_out == [], where
                    continue
                assert not m.error and m.passed, where
                out, tag = _expected(m, key)
                assert m.out == out, where
                assert m.out_tag == tag, where
