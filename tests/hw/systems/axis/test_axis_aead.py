"""ak_axis_core's whole-packet modes, CCM, GCM/GMAC, CMAC and XTS with the lengths in LEN
(docs/axis_core.md "CCM, GCM/GMAC, CMAC and XTS"), on ``ak_axis_sys`` with the bench of
test_axis_core.py (cocotbext-axi, random pauses on both streams and the AXI4-Lite bus,
the beat monitor):

* CCM and GCM encryption and decryption, CMAC generation and verification, random
  payload (0, 1..80 bytes), AAD (0..40), tag (4..16; CCM even) and CCM nonce (7..13)
  lengths, several packets back to back
  per configuration; expected values from `cryptography` (AESCCM, AESGCM, cmac.CMAC);
  every output beat's tkeep, tlast and tuser checked against the doc's framing;
* a flipped bit (in the tag, the payload or the AAD): the plaintext still comes out, the
  last beat has tuser = 1, ERROR.TAG; the next packet is right;
* tlast early or late, a wrong tkeep, LEN.TAG out of range: ERROR.LENGTH, the packet
  closed by the all-zero tuser beat, the next packet right (no hang: every wait has a
  time limit);
* XTS (Cipher(AES, XTS)): K2 from TWEAK_KEY, the tweak from IV, data units of 16..80
  bytes (ciphertext stealing for a partial last beat), both directions, 128- and 256-bit
  keys; a 192-bit key, and decryption on an encrypt-only core, refused with ERROR.MODE;
  a data unit under 16 bytes and a wrong tlast: ERROR.LENGTH;
* a build without CCM, GCM, CMAC and XTS (Modes = 9'h01f, slow): all refused with ERROR.MODE,
  the chunked modes still right.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import cocotb
import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # the bench of test_axis_core.py (pytest and cocotb side)
    sys.path.insert(0, str(HERE))
from test_axis_core import KEY_LEN, _bench, _core_key_sizes, expected  # noqa: E402
CCM, GCM, CMAC, XTS = 5, 6, 7, 8
AEAD = (CCM, GCM)  # AAD, payload, tag


def beats(data: bytes) -> list[bytes]:
    return [data[i:i + 16] for i in range(0, len(data), 16)]


def frame_of(parts: list[bytes]):
    """One packet: each part (AAD, payload, tag) starts a fresh beat, its last beat
    partial (tkeep lanes 0..n-1); no part at all: one null beat (tkeep 0)."""
    from cocotbext.axi import AxiStreamFrame

    data, keep = b"", []
    for p in parts:
        for bt in beats(p):
            data += bt.ljust(16, b"\0")
            keep += [1] * len(bt) + [0] * (16 - len(bt))
    if not data:
        data, keep = bytes(16), [0] * 16
    return AxiStreamFrame(data, tkeep=keep)


def keeps(n: int) -> list[int]:
    """tkeep per beat of n bytes."""
    return [(1 << len(bt)) - 1 for bt in beats(bytes(n))]


def gcm(key: bytes, iv: bytes, aad: bytes, pt: bytes, t: int) -> tuple[bytes, bytes]:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    ct = AESGCM(key).encrypt(iv[:12], pt, aad)
    return ct[:-16], ct[-16:][:t]


def ccm(key: bytes, nonce: bytes, aad: bytes, pt: bytes, t: int) -> tuple[bytes, bytes]:
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    ct = AESCCM(key, tag_length=t).encrypt(nonce, pt, aad)
    return ct[:-t], ct[-t:]


def cmac_tag(key: bytes, msg: bytes, t: int) -> bytes:
    from cryptography.hazmat.primitives import cmac
    from cryptography.hazmat.primitives.ciphers import algorithms

    c = cmac.CMAC(algorithms.AES(key))
    c.update(msg)
    return c.finalize()[:t]


class Aead:
    """The bench plus the packet builder and checker for GCM / CMAC."""

    def __init__(self, b) -> None:
        self.b = b
        #: ak_axis_core HoldBeats of the build (AK_HOLD): CCM/GCM decryptions of up to
        #: this many payload beats leave only after their tag passed
        self.hold = int(os.environ.get("AK_HOLD", "0"))

    async def config(self, mode: int, dec: bool, iv: bytes, p: int, a: int, t: int,
                     key_len: int, n: int = 13) -> None:
        b = self.b
        await b.write_block("IV", iv)
        await b.write("CCM", b.f("CCM.NONCE_LEN", n))
        await b.write("LEN", b.f("LEN.PAYLOAD", p) | b.f("LEN.AAD", a) | b.f("LEN.TAG", t))
        await b.write("CTRL", b.f("CTRL.MODE", mode) | b.f("CTRL.DECRYPT", int(dec))
                      | b.f("CTRL.KEY_LEN", key_len))

    def case(self, key: bytes, mode: int, dec: bool, iv: bytes, aad: bytes, pt: bytes,
             t: int, flip: str | None = None, n: int = 13):
        """(input frame, expected output beats [(tkeep, tuser, bytes)])."""
        if mode == GCM:
            ct, tag = gcm(key, iv, aad, pt, t)
        elif mode == CCM:
            ct, tag = ccm(key, iv[:n], aad, pt, t)
        else:
            aad, ct, tag = b"", b"", cmac_tag(key, pt, t)
        fail = flip is not None
        if not dec:
            ins = [aad, pt]
            outs = [(k, 0, bt) for k, bt in zip(keeps(len(ct)), beats(ct))]
            outs.append(((1 << t) - 1, 0, tag))
            return frame_of(ins), outs
        msg = pt if mode == CMAC else ct
        if flip == "tag":
            tag = bytes([tag[0] ^ 0x01]) + tag[1:]
        elif flip == "payload":
            msg = bytes([msg[0] ^ 0x80]) + msg[1:]
        elif flip == "aad":
            aad = bytes([aad[0] ^ 0x10]) + aad[1:]
        ins = [aad, msg, tag]
        if mode == CMAC:
            outs = [(0, int(fail), b"")]
        else:
            # the plaintext of what was sent (a flipped ciphertext bit flips it too)
            got = bytes(x ^ y ^ z for x, y, z in zip(pt, ct, msg))
            outs = [(k, 0, bt) for k, bt in zip(keeps(len(got)), beats(got))]
            if fail and 0 < len(outs) <= self.hold:
                # held until the verdict: a failed tag releases nothing, one null beat
                outs = [(0, 1, b"")]
            elif outs:
                outs[-1] = (outs[-1][0], int(fail), outs[-1][2])
            else:
                outs = [(0, int(fail), b"")]
        return frame_of(ins), outs

    def check(self, want: list, got: list, what) -> None:
        """got: the monitor's beats of one output packet (tkeep, tuser, cycle, tdata)."""
        assert len(got) == len(want), (what, len(got), len(want))
        for i, ((wk, wu, wd), (gk, gu, _, gd)) in enumerate(zip(want, got)):
            assert gk == wk, (what, i, hex(gk), hex(wk))
            assert gu == wu, (what, i, "tuser", gu, wu)
            lanes = gd.to_bytes(16, "little")
            assert lanes == wd.ljust(16, b"\0"), (what, i, lanes.hex(), wd.hex())


@cocotb.test()
async def cocotb_aead(dut) -> None:
    """CCM and GCM (encrypt, decrypt) and CMAC (generate, verify), random lengths, back
    to back packets per configuration, random pauses; then flipped bits."""
    seed = int(os.environ.get("AK_SEED", "1"))
    n_cfg = int(os.environ.get("AK_CFGS", "3"))
    b = await _bench(dut, seed)
    rng = b.rng
    x = Aead(b)
    for size in _core_key_sizes():
        key = rng.randbytes(size // 8)
        await b.load_key(key)
        for mode in (CCM, GCM, CMAC):
            for dec in (False, True):
                lens = [(0, 0), (0, rng.randint(1, 40)), (rng.randint(1, 80), 0)]
                lens += [(rng.randint(1, 80), rng.randint(0, 40)) for _ in range(n_cfg)]
                for p, a in lens:
                    if mode == CMAC:
                        a = 0
                    t = rng.choice((16, rng.randint(4, 16)))
                    n = rng.randint(7, 13)
                    if mode == CCM:
                        t &= ~1
                    iv = rng.randbytes(16)
                    await x.config(mode, dec, iv, p, a, t, KEY_LEN[len(key)], n)
                    cases = [x.case(key, mode, dec, iv, rng.randbytes(a), rng.randbytes(p), t,
                                    n=n) for _ in range(2)]
                    b.in_pkts, b.out_pkts = [[]], [[]]
                    await b.packets([c[0] for c in cases])
                    outs = [o for o in b.out_pkts if o]
                    for i, (c, o) in enumerate(zip(cases, outs)):
                        x.check(c[1], o, (size, mode, dec, p, a, t, n, i))
                    assert len(outs) == len(cases)
                    assert not b.violations, b.violations[:3]
                    assert await b.read("ERROR") == 0, (mode, dec, p, a, t)
    # a failed tag: the output released, the last beat tuser = 1, ERROR.TAG
    key = rng.randbytes(_core_key_sizes()[0] // 8)
    await b.load_key(key)
    for mode, flip in ((GCM, "tag"), (GCM, "payload"), (GCM, "aad"), (CCM, "tag"),
                       (CCM, "payload"), (CCM, "aad"), (CMAC, "tag"), (CMAC, "payload")):
        p, a, t = rng.randint(1, 80), (rng.randint(1, 40) if mode in AEAD else 0), \
            rng.randint(2, 8) * 2
        iv = rng.randbytes(16)
        await x.config(mode, True, iv, p, a, t, KEY_LEN[len(key)])
        bad = x.case(key, mode, True, iv, rng.randbytes(a), rng.randbytes(p), t, flip)
        good = x.case(key, mode, True, iv, rng.randbytes(a), rng.randbytes(p), t)
        b.in_pkts, b.out_pkts = [[]], [[]]
        await b.packets([bad[0]])
        assert await b.read("ERROR") == b.f("ERROR.TAG"), (mode, flip)
        await b.write("ERROR", 0xFFFFFFFF)
        await b.packets([good[0]])
        outs = [o for o in b.out_pkts if o]
        x.check(bad[1], outs[0], (mode, flip))
        x.check(good[1], outs[1], (mode, flip, "next"))
        assert await b.read("ERROR") == 0


@cocotb.test()
async def cocotb_aead_errors(dut) -> None:
    """tlast early or late, a wrong tkeep, LEN.TAG out of range: ERROR.LENGTH, the packet
    closed by one all-zero tuser beat (after whatever output was released), the next
    packet right."""
    from cocotbext.axi import AxiStreamFrame

    b = await _bench(dut, 9)
    rng = b.rng
    x = Aead(b)
    key = rng.randbytes(_core_key_sizes()[0] // 8)
    await b.load_key(key)
    kl = KEY_LEN[len(key)]
    close = (0xFFFF, 1, b"")

    async def bad_then_good(mode: int, dec: bool, p: int, a: int, t: int, frame,
                            regs_t: int | None = None) -> None:
        iv = rng.randbytes(16)
        await x.config(mode, dec, iv, p, a, t if regs_t is None else regs_t, kl)
        b.in_pkts, b.out_pkts = [[]], [[]]
        await b.packets([frame])
        (out,) = [o for o in b.out_pkts if o]
        assert not b.violations, b.violations[:3]  # m_axis held while stalled, aborts too
        assert out[-1][:2] == close[:2] and out[-1][3] == 0, (mode, dec, p, a, out[-1])
        assert all(o[1] == 0 for o in out[:-1]), (mode, dec, "tuser before the close")
        assert await b.read("ERROR") == b.f("ERROR.LENGTH"), (mode, dec, p, a)
        await b.write("ERROR", 0xFFFFFFFF)
        await x.config(mode, dec, iv, p, a, t, kl)
        good = x.case(key, mode, dec, iv, rng.randbytes(a), rng.randbytes(p), t)
        b.in_pkts, b.out_pkts = [[]], [[]]
        await b.packets([good[0]])
        x.check(good[1], [o for o in b.out_pkts if o][0], (mode, dec, "next"))
        assert await b.read("ERROR") == 0

    for mode, dec, pct in [(m, d, pct) for pct in (0.3, 0.7) for m in (CCM, GCM, CMAC)
                           for d in (False, True)]:
        b.set_pauses(pct)  # 0.7: an abort while an output beat is stalled
        a = rng.randint(1, 40) if mode in AEAD else 0
        p, t = rng.randint(17, 80), rng.randint(2, 8) * 2
        parts = [rng.randbytes(a), rng.randbytes(p)] + ([rng.randbytes(t)] if dec else [])
        # early tlast: the packet one beat short (or a short payload)
        short = frame_of([parts[0], parts[1][:-16]] + parts[2:])
        await bad_then_good(mode, dec, p, a, t, short)
        # late tlast: one beat more
        await bad_then_good(mode, dec, p, a, t, frame_of(parts + [rng.randbytes(16)]))
        # a wrong tkeep: one byte less in the last payload beat (same beat count)
        if p % 16 != 1:
            await bad_then_good(mode, dec, p, a, t,
                                frame_of([parts[0], parts[1][:-1]] + parts[2:]))
        # LEN.TAG out of range: refused at the first beat
        await bad_then_good(mode, dec, p, a, t, frame_of(parts),
                            regs_t=rng.choice((0, 3, 17, 31) + ((5, 15) if mode == CCM
                                                                else ())))
    b.set_pauses(0.3)
    # CCM: a nonce length outside 7..13 refuses the packet
    p, a, t = rng.randint(1, 40), rng.randint(0, 20), 8
    iv = rng.randbytes(16)
    await x.config(CCM, False, iv, p, a, t, kl, n=rng.choice((0, 6, 14, 15)))
    b.in_pkts, b.out_pkts = [[]], [[]]
    await b.packets([frame_of([rng.randbytes(a), rng.randbytes(p)])])
    assert [o for o in b.out_pkts if o][0][-1][:2] == (0xFFFF, 1)
    assert await b.read("ERROR") == b.f("ERROR.LENGTH")
    await b.write("ERROR", 0xFFFFFFFF)
    # an empty encryption message is one null beat; a full beat there is an error
    await bad_then_good(GCM, False, 0, 0, 16, AxiStreamFrame(rng.randbytes(16)))


def xts(k1: bytes, k2: bytes, tweak: bytes, dec: bool, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    c = Cipher(algorithms.AES(k1 + k2), modes.XTS(tweak))
    op = c.decryptor() if dec else c.encryptor()
    return op.update(data) + op.finalize()


@cocotb.test()
async def cocotb_xts(dut) -> None:
    """XTS: random data units (16..80 bytes), both directions, the key sizes XTS-AES has
    (of the core's); back to back; 192-bit key, decryption on an encrypt-only core,
    short data unit, wrong tlast refused as documented, the next packet right."""
    from cocotbext.axi import AxiStreamFrame

    from test_axis_core import _core_decrypts

    b = await _bench(dut, int(os.environ.get("AK_SEED", "1")) + 100)
    rng = b.rng
    x = Aead(b)
    close = bytes(16)

    async def setup(k1: bytes, k2: bytes) -> None:
        await b.write_block("TWEAK_KEY", k2.ljust(32, b"\0"))
        await b.load_key(k1)

    async def refused(dec: bool, p: int, frame, err: str) -> None:
        await x.config(0, dec, rng.randbytes(16), p, 0, 16, kl)
        ctrl = await b.read("CTRL")
        await b.write("CTRL", ctrl | b.f("CTRL.MODE_HI"))
        (out,) = await b.packets([frame])
        assert out.tdata.endswith(close) and out.tuser in (1, [0] * (len(out.tdata) - 16)
                                                           + [1] * 16), (err, out.tuser)
        assert await b.read("ERROR") == b.f(f"ERROR.{err}"), (err, dec, p)
        await b.write("ERROR", 0xFFFFFFFF)

    async def run(k1: bytes, k2: bytes, dec: bool, datas: list[bytes]) -> None:
        tweak = rng.randbytes(16)
        await x.config(0, dec, tweak, len(datas[0]), 0, 16, kl)
        ctrl = await b.read("CTRL")
        await b.write("CTRL", ctrl | b.f("CTRL.MODE_HI"))
        b.in_pkts, b.out_pkts = [[]], [[]]
        outs = await b.packets([AxiStreamFrame(d) for d in datas])
        for d, o in zip(datas, outs):
            assert o.tdata == xts(k1, k2, tweak, dec, d), (len(k1), dec, len(d))
        b.check_beats()  # same beats and tkeep as the input, tuser 0
        assert await b.read("ERROR") == 0

    for size in _core_key_sizes():
        k1, k2 = rng.randbytes(size // 8), rng.randbytes(size // 8)
        kl = KEY_LEN[len(k1)]
        await setup(k1, k2)
        for dec in (False, True):
            p = rng.randint(16, 80)
            if size == 192:
                await refused(dec, p, AxiStreamFrame(rng.randbytes(p)), "MODE")
                continue
            if dec and not _core_decrypts():
                await refused(dec, p, AxiStreamFrame(rng.randbytes(p)), "MODE")
                continue
            for p in (16, rng.randint(17, 31), 16 * rng.randint(2, 5), rng.randint(33, 80)):
                await run(k1, k2, dec, [rng.randbytes(p) for _ in range(2)])
            # a data unit under 16 bytes; tlast early; tlast late
            await refused(dec, rng.randint(0, 15), AxiStreamFrame(rng.randbytes(20)), "LENGTH")
            p = rng.randint(33, 80)
            await refused(dec, p, AxiStreamFrame(rng.randbytes(p - 16)), "LENGTH")
            await refused(dec, p, AxiStreamFrame(rng.randbytes(p + 16)), "LENGTH")
            await run(k1, k2, dec, [rng.randbytes(p)])
        b.in_pkts, b.out_pkts = [[]], [[]]


@cocotb.test()
async def cocotb_aead_not_built(dut) -> None:
    """A build without CCM, GCM, CMAC and XTS (Modes = 9'h01f): all refused with
    ERROR.MODE; ECB..OFB still right."""
    from cocotbext.axi import AxiStreamFrame

    b = await _bench(dut, 13)
    rng = b.rng
    key = rng.randbytes(16)
    await b.load_key(key)
    for mode, hi in ((GCM, 0), (CMAC, 0), (CCM, 0), (0, 1)):
        for dec in (False, True):
            await b.write("LEN", b.f("LEN.PAYLOAD", 32) | b.f("LEN.TAG", 16))
            await b.write("CTRL", b.f("CTRL.MODE", mode) | b.f("CTRL.DECRYPT", int(dec))
                          | b.f("CTRL.MODE_HI", hi))
            (out,) = await b.packets([AxiStreamFrame(rng.randbytes(48))])
            assert out.tdata == bytes(16) and out.tuser == 1, (mode, hi, dec)
            assert await b.read("ERROR") == b.f("ERROR.MODE"), (mode, hi, dec)
            await b.write("ERROR", 0xFFFFFFFF)
    iv = rng.randbytes(16)
    await b.config(2, False, iv, 0)
    d = rng.randbytes(50)
    (o,) = await b.packets([AxiStreamFrame(d)])
    assert o.tdata == expected(key, "ctr", False, iv, d)


#: exact timing without pauses (cycles; AES-128, a packet of 40 payload beats, GCM and
#: CCM with one 16-byte AAD beat and a 16-byte tag), per core and mode: [latency, cycles
#: per output payload beat, packet]: latency = first input beat accepted -> first output
#: beat valid; per beat = steady state (the 32 payload beats before the last; CMAC has
#: none: 0); packet = first input
#: beat accepted -> the output packet's tlast beat valid. docs/axis_core.md explains them.
AEAD_TIMING: dict[str, dict[str, list[float]]] = {
    "pipe2": {"ccm-dec": [47, 21.0, 911], "ccm-enc": [47, 21.0, 908],
              "cmac-dec": [847, 0.0, 847], "cmac-enc": [846, 0.0, 846],
              "gcm-dec": [46, 11.0, 469], "gcm-enc": [47, 11.0, 491],
              "xts-dec": [70, 11.0, 490], "xts-enc": [70, 11.0, 490]},
    "round": {"ccm-dec": [35, 20.0, 849], "ccm-enc": [45, 20.0, 847],
              "cmac-dec": [456, 0.0, 456], "cmac-enc": [455, 0.0, 455],
              "gcm-dec": [35, 10.0, 427], "gcm-enc": [35, 10.0, 443],
              "xts-dec": [50, 10.0, 440], "xts-enc": [50, 10.0, 440]},
    "ttable_unrolled": {"ccm-dec": [173, 84.0, 3620], "ccm-enc": [173, 84.0, 3617],
                        "cmac-dec": [3367, 0.0, 3367], "cmac-enc": [3366, 0.0, 3366],
                        "gcm-dec": [172, 42.0, 1772], "gcm-enc": [173, 42.0, 1795],
                        "xts-dec": [288, 42.0, 1886], "xts-enc": [288, 42.0, 1886]},
}


@cocotb.test()
async def cocotb_aead_timing(dut) -> None:
    """No pauses: latency, steady-state cycles per payload beat and whole-packet cycles of
    CCM, GCM, CMAC and XTS both ways on a 40-beat packet; written to AK_TIMING_OUT
    (json) and, when AK_TIMING_WANT is given, asserted exactly."""
    from cocotbext.axi import AxiStreamFrame

    b = await _bench(dut, 5, pct=0.0)
    rng = b.rng
    x = Aead(b)
    key, k2 = rng.randbytes(16), rng.randbytes(16)
    await b.write_block("TWEAK_KEY", k2.ljust(32, b"\0"))
    await b.load_key(key)
    # a first packet, so the core's key setup is not in the numbers
    await x.config(GCM, False, bytes(16), 16, 0, 16, KEY_LEN[16])
    await b.packets([AxiStreamFrame(bytes(16))])
    res: dict[str, list] = {}
    n = 40
    for mode, dec in ((GCM, False), (GCM, True), (CCM, False), (CCM, True), (CMAC, False),
                      (CMAC, True), (XTS, False), (XTS, True)):
        iv, pt = rng.randbytes(16), rng.randbytes(16 * n)
        a = 16 if mode in AEAD else 0
        if mode == XTS:
            await x.config(0, dec, iv, len(pt), 0, 16, KEY_LEN[16])
            await b.write("CTRL", await b.read("CTRL") | b.f("CTRL.MODE_HI"))
            frame, want = AxiStreamFrame(pt), xts(key, k2, iv, dec, pt)
        else:
            await x.config(mode, dec, iv, len(pt), a, 16, KEY_LEN[16])
            frame, outs = x.case(key, mode, dec, iv, rng.randbytes(a), pt, 16)
            want = b"".join(d for _, _, d in outs)
        b.in_pkts, b.out_pkts = [[]], [[]]
        (o,) = await b.packets([frame])
        assert o.tdata[:len(want)] == want, (mode, dec)
        assert await b.read("ERROR") == 0, (mode, dec)
        ins = [v[1] for p in b.in_pkts if p for v in p]
        outs_c = [v[2] for p in b.out_pkts if p for v in p]
        name = f"{ {CCM: 'ccm', GCM: 'gcm', CMAC: 'cmac', XTS: 'xts'}[mode]}-" \
               f"{'dec' if dec else 'enc'}"
        lat = outs_c[0] - ins[0]
        # payload beats 7..39, before the last (decryption holds it for the verdict)
        per = (outs_c[n - 2] - outs_c[n - 34]) / 32 if len(outs_c) >= n else 0.0
        res[name] = [lat, per, outs_c[-1] - ins[0]]
        dut._log.info("timing %s: latency %d, %.3f cycles/beat, packet %d", name, *res[name])
    out = os.environ.get("AK_TIMING_OUT")
    if out:
        Path(out).write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
    want_t = os.environ.get("AK_TIMING_WANT")
    if want_t:
        assert res == json.loads(want_t), (res, want_t)


# ----------------------------------------------------------------------------------
# pytest
# ----------------------------------------------------------------------------------
def _run(core: str, testcase, env: dict | None = None, seed: int = 1,
         modes: int | None = None, hold_beats: int = 0) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.hw.systems.axis import MODES, system_files
    from aeskit.sim.cocotb_run import run_cocotb

    spec = get_core(core)
    modes = MODES if modes is None else modes
    sub = (core if modes == MODES else f"{core}_m{modes:03x}") + \
        (f"_h{hold_beats}" if hold_beats else "")
    files = system_files(spec, BUILD_ROOT / "axis_sys_src" / sub, modes=modes,
                         hold_beats=hold_beats)
    run_cocotb(toplevel="ak_axis_sys", sources=files, test_module="test_axis_aead",
               test_dir=HERE, parameters={}, testcase=testcase, seed=seed,
               includes=spec.include_paths(),
               extra_env={"AK_KEY_SIZES": ",".join(map(str, spec.key_sizes)),
                          "AK_DECRYPTS": "1" if spec.decrypt else "0",
                          "AK_HOLD": str(hold_beats), **(env or {})})


def test_axis_aead() -> None:
    """CCM, GCM, CMAC and XTS on pipe2 (the build of test_axis_core.py): every direction
    and key size, random lengths and pauses, failed tags, length errors."""
    _run("pipe2", ["cocotb_aead", "cocotb_aead_errors", "cocotb_xts", "cocotb_aead_timing"],
         {"AK_TIMING_WANT": json.dumps(AEAD_TIMING["pipe2"])})


def test_axis_aead_hold() -> None:
    """HoldBeats = 4 (issue 49: hold a packet until its tag is checked where it fits the
    buffer): CCM/GCM decryptions of up to 4 payload beats leave only after the tag
    passed, a failed one releases no plaintext (one null beat, tuser = 1, ERROR.TAG);
    longer ones are released as without the option (the last beat flagged). The same
    random packets and pauses as test_axis_aead, every mode and direction."""
    _run("pipe2", ["cocotb_aead", "cocotb_aead_errors"], {"AK_CFGS": "2"}, hold_beats=4)


@pytest.mark.slow  # make test-full: make test keeps coproc's encrypt-only AEAD runs
def test_axis_aead_e128() -> None:
    """On the encrypt-only AES-128 pipe2: CCM/GCM decryption and CMAC verification need only
    the forward cipher, so they run; XTS decryption is refused (ERROR.MODE)."""
    _run("pipe2_e128", ["cocotb_aead", "cocotb_aead_errors", "cocotb_xts"])


@pytest.mark.slow
def test_axis_aead_not_built() -> None:
    """Modes = 9'h01f (the small ECB..OFB wrapper): CCM, GCM, CMAC, XTS refused."""
    _run("pipe2", "cocotb_aead_not_built", modes=0x01F)


@pytest.mark.slow
@pytest.mark.parametrize("core", ("round", "ttable_unrolled"))
def test_axis_aead_slow_cores(core: str) -> None:
    _run(core, ["cocotb_aead", "cocotb_aead_errors", "cocotb_xts", "cocotb_aead_timing"],
         {"AK_TIMING_WANT": json.dumps(AEAD_TIMING[core])})


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 5))
def test_axis_aead_random_long(seed: int) -> None:
    _run("pipe2", ["cocotb_aead", "cocotb_xts"], {"AK_SEED": seed, "AK_CFGS": 8}, seed=seed)
