"""The mode engine reads its core's configuration (``CoreDirections``, ``CoreKeySizes``;
docs/core-contract.md "Configurations", docs/modes.md): on ``round_e128`` (encrypt
only, AES-128) it runs every mode that needs only the forward cipher, in both
directions, and refuses what the core cannot run.

Compiled harness with the engine on ``round_e128`` (the parameters rendered from the
registry), both streams, random gaps and stalls:

* every mode and direction the core can serve (ECB/CBC encryption, CTR, CFB, OFB, CCM,
  GCM and CMAC both ways, XTS encryption) against ``cryptography`` (OpenSSL);
* ECB, CBC and XTS decryption (the inverse cipher) come back with ``sts_error_o``, no
  output beat, the stream's framing intact (the message queued behind is right);
* a 192-bit key (which the core refuses, leaving it without a key) makes every
  command illegal instead of hanging; a 128-bit key afterwards works again.
"""

from __future__ import annotations

import random

import pytest

from cryptography.hazmat.decrepit.ciphers.modes import CFB, OFB
from cryptography.hazmat.primitives import cmac as ossl_cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aeskit.hw import get_core
from aeskit.harness.modes import MODE_CODE, Build, Message, ModeHarness

CORE = "round_e128"


def _ossl(m: Message, key: bytes, key2: bytes) -> tuple[bytes, bytes]:
    """(output data, output tag) of a legal ``m`` by OpenSSL."""
    if m.mode == "ccm":
        if m.decrypt:
            return AESCCM(key, m.tag_len).decrypt(m.iv, m.data + m.tag, m.aad or None), b""
        full = AESCCM(key, m.tag_len).encrypt(m.iv, m.data, m.aad or None)
        return full[:len(m.data)], full[len(m.data):]
    if m.mode == "gcm":
        if m.decrypt:
            d = Cipher(algorithms.AES(key), modes.GCM(m.iv, m.tag)).decryptor()
            d.authenticate_additional_data(m.aad)
            return d.update(m.data) + d.finalize(), b""
        e = Cipher(algorithms.AES(key), modes.GCM(m.iv)).encryptor()
        e.authenticate_additional_data(m.aad)
        return e.update(m.data) + e.finalize(), e.tag
    if m.mode == "cmac":
        c = ossl_cmac.CMAC(algorithms.AES(key))
        c.update(m.data)
        return b"", (b"" if m.decrypt else c.finalize())
    if m.mode == "xts":
        c = Cipher(algorithms.AES(key + key2), modes.XTS(m.iv))
        return c.encryptor().update(m.data), b""
    mode = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(m.iv),
            "ctr": lambda: modes.CTR(m.iv), "cfb": lambda: CFB(m.iv),
            "ofb": lambda: OFB(m.iv)}[m.mode]()
    c = Cipher(algorithms.AES(key), mode)
    op = c.decryptor() if m.decrypt else c.encryptor()
    return op.update(m.data) + op.finalize(), b""


def _forward(rng: random.Random, key: bytes, mode: str, decrypt: bool,
             stream: int) -> Message:
    """A legal message of ``mode`` that calls the forward cipher only."""
    whole = mode in ("ecb", "cbc")
    n = 16 * rng.randint(1, 4) if whole else rng.randint(17 if mode == "xts" else 1, 70)
    m = Message(mode=mode, decrypt=decrypt, data=rng.randbytes(n), stream=stream)
    if mode in ("cbc", "ctr", "cfb", "ofb", "xts"):
        m.iv = rng.randbytes(16)
    elif mode == "ccm":
        m.iv, m.aad, m.tag_len = rng.randbytes(rng.randint(7, 13)), rng.randbytes(
            rng.randint(0, 30)), 2 * rng.randint(2, 8)
        if decrypt:   # a ciphertext and tag that verify: OpenSSL's encryption
            full = AESCCM(key, m.tag_len).encrypt(m.iv, m.data, m.aad or None)
            m.data, m.tag = full[:n], full[n:]
    elif mode == "gcm":
        m.iv, m.aad, m.tag_len = rng.randbytes(12), rng.randbytes(rng.randint(0, 30)), 16
        if decrypt:
            e = Cipher(algorithms.AES(key), modes.GCM(m.iv)).encryptor()
            e.authenticate_additional_data(m.aad)
            m.data, m.tag = e.update(m.data) + e.finalize(), e.tag
    elif mode == "cmac":
        m.tag_len = 16
        if decrypt:
            c = ossl_cmac.CMAC(algorithms.AES(key))
            c.update(m.data)
            m.tag = c.finalize()
    return m


def _inverse(rng: random.Random, mode: str, stream: int) -> Message:
    """A decryption that needs the inverse cipher, sent by its code so that the
    engine, not the harness's own check, refuses it."""
    m = Message(mode=mode, decrypt=True, data=rng.randbytes(48), stream=stream,
                mode_code=MODE_CODE[mode])
    if mode != "ecb":
        m.iv = rng.randbytes(16)
    return m


def _check(m: Message, key: bytes, key2: bytes, where: str) -> None:
    assert not m.error and m.passed, where
    out, tag = _ossl(m, key, key2)
    assert m.out == out, where
    assert m.out_tag == tag[:m.tag_len], where


def test_engine_refuses_what_the_core_lacks() -> None:
    core = get_core(CORE)
    assert not core.decrypt and core.key_sizes == (128,)
    forward = [("ecb", False), ("cbc", False), ("xts", False)] + \
        [(m, d) for m in ("ctr", "cfb", "ofb", "ccm", "gcm", "cmac") for d in (False, True)]
    rng = random.Random(48)
    key, key2 = rng.randbytes(16), rng.randbytes(16)
    with ModeHarness(core) as h:
        h.load_key(key, key2)
        for rnd in range(3):
            msgs: list[Message] = []
            for s in range(2):
                order = forward[:]
                rng.shuffle(order)
                for mode, dec in order:
                    msgs.append(_forward(rng, key, mode, dec, s))
                for mode in ("ecb", "cbc", "xts"):
                    msgs.append(_inverse(rng, mode, s))
                    msgs.append(_forward(rng, key, rng.choice(["ctr", "cbc", "gcm"]),
                                         False, s))
            h.run(msgs, gap_pct=20, stall_pct=20, seed=rnd + 1)
            for m in msgs:
                where = f"round {rnd}: {m.mode} {'dec' if m.decrypt else 'enc'} stream {m.stream}"
                if m.mode_code is not None:
                    assert m.error and not m.passed and m.beats_out == [], where
                else:
                    _check(m, key, key2, where)

        # a key size the core leaves out: refused by the core, every command illegal
        h.load_key(rng.randbytes(24), refused=True)
        msgs = [_forward(rng, key, mode, False, s)
                for s in range(2) for mode in ("ctr", "gcm", "cmac")]
        h.run(msgs, gap_pct=10, stall_pct=10, seed=7)
        for m in msgs:
            assert m.error and not m.passed and m.beats_out == [], f"192-bit key: {m.mode}"

        # a key of the built size: the core runs again
        key = rng.randbytes(16)
        h.load_key(key, key2)
        msgs = [_forward(rng, key, mode, dec, s)
                for s in range(2) for mode, dec in (("ctr", False), ("ccm", True))]
        h.run(msgs, seed=8)
        for m in msgs:
            _check(m, key, key2, f"after the refused key: {m.mode}")


@pytest.mark.slow  # 30 s; make test keeps the refusals with XTS built
def test_key_refusal_without_xts() -> None:
    """The same key refusal in a build without XTS (``Modes`` = 9'h03f, the register
    map of ``coproc`` and ``cipher_ahb``, with CoreInReg as ``cipher_ahb`` builds it):
    the engine keeps the loaded key's length for the check even where it keeps no key
    for XTS's swap; an illegal inverse-cipher command before it changes nothing."""
    rng = random.Random(4803)
    key = rng.randbytes(16)
    with ModeHarness(CORE, build=Build(core_in_reg=True, modes=0x03F)) as h:
        h.load_key(key)
        msgs = [_inverse(rng, "cbc", 0), _forward(rng, key, "ccm", True, 1)]
        h.run(msgs, gap_pct=10, stall_pct=10, seed=3)
        assert msgs[0].error and msgs[0].beats_out == []
        _check(msgs[1], key, b"", "ccm after the refused cbc")
        for size in (24, 32):
            h.load_key(rng.randbytes(size), refused=True)
            msgs = [_forward(rng, key, mode, False, s)
                    for s in range(2) for mode in ("ecb", "ctr", "ccm")]
            h.run(msgs, seed=size)
            for m in msgs:
                assert m.error and not m.passed and m.beats_out == [], \
                    f"{8 * size}-bit key: {m.mode}"
        key = rng.randbytes(16)
        h.load_key(key)
        msgs = [_forward(rng, key, "cfb", True, 0), _forward(rng, key, "ofb", False, 1)]
        h.run(msgs, seed=9)
        for m in msgs:
            _check(m, key, b"", f"after the refused keys: {m.mode}")
