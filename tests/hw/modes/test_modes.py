"""The mode engine (hw/modes: ak_mode_engine + ak_mode_stream) on ``pipe2`` and on
``round``, through the compiled harness (aeskit.harness.modes; both streams run at
once, with random input gaps and output/status stalls where stated).

* lint: verilator -Wall, zero warnings, for the engine (1 and 2 streams) and for the
  generated engine + core systems;
* every CCM record of cryptography-vectors (VADT, VNT, VPT, VTT: encrypt and decrypt;
  DVPT: decrypt, including the invalid-tag records, which must fail in the hardware
  compare), alternating the two streams;
* RFC 3610 packet vectors #1..#12 (the structure of the RFC's inputs; results from
  cryptography's AESCCM, and packet #1's published output checked against AESCCM
  too) and 802.11i CCMP-shaped messages (13-byte nonce, 8-byte MIC, 22..30-byte
  AAD), against AESCCM;
* NIST KAT/MMT records for ECB, CBC, CFB-128 and OFB, and the CTR vectors;
* random differential against the golden model (aeskit.model): random modes, key
  sizes, lengths, directions, corrupted CCM tags, two streams, random stalls;
* exact cycles per block (one and two streams) for every mode and key size;
* the engine with its core input register (``CoreInReg = 1``, as cipher_ahb builds
  it) on ``pipe2``: the random differential run and its exact cycles per block;
* illegal commands (bad CCM nonce/tag length, ECB/CBC partial block, bad mode) give
  a status with the error bit, consume their beats and output nothing.
"""

from __future__ import annotations

import random
import subprocess
from collections import OrderedDict
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

from aeskit.hw import get_core
from aeskit.model import AES, TagMismatchError
from aeskit.model import modes as M
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.harness.modes import (Build, Message, ModeHarness, engine_paths,
                                     measure_cycles_per_block, system_files)
from aeskit.toolchain.paths import verilator
from aeskit.vectors import block_vectors, ccm_vectors, ctr_vectors

CORES = ["pipe2", "round"]
NR = {128: 10, 192: 12, 256: 14}


def _by_key(records):
    groups: OrderedDict[bytes, list] = OrderedDict()
    for r in records:
        groups.setdefault(r.key, []).append(r)
    return groups


# ----------------------------------------------------------------------------------
# lint
# ----------------------------------------------------------------------------------
def _lint(top: str, files: list[Path], params: dict[str, int]) -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top]
    cmd += [f"-G{k}={v}" for k, v in params.items()]
    cmd += [str(WAIVERS)] + [str(f) for f in files]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]
    assert res.returncode == 0 and not warnings, out


@pytest.mark.parametrize("aead", [1, 0])
@pytest.mark.parametrize("streams", [1, 2])
def test_engine_lint(streams: int, aead: int) -> None:
    """Both builds: with GCM/CMAC/XTS (AeadModes = 1) and without (0, the systems')."""
    _lint("ak_mode_engine", engine_paths(), {"Streams": streams, "AeadModes": aead})


@pytest.mark.parametrize("core", CORES)
def test_system_lint(core: str, tmp_path: Path) -> None:
    _lint("ak_mode_sys", system_files(get_core(core), tmp_path), {})


@pytest.mark.parametrize("parts", [0, 1])
def test_engine_yosys_slang(tmp_path: Path, parts: int) -> None:
    """Yosys read_slang elaborates the engine cleanly (synthesis front end), with and
    without messages in parts."""
    import re

    from aeskit.toolchain.paths import yosys

    files = " ".join(str(f) for f in engine_paths())
    script = (f"read_slang -j 1 --top ak_mode_engine -G Streams=2 -G Parts={parts} {files}; "
              "hierarchy -check -top ak_mode_engine; proc; check -assert")
    res = subprocess.run(yosys() + ["-p", script], capture_output=True, text=True,
                         cwd=tmp_path, timeout=600)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines()
                if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    assert res.returncode == 0 and "Build succeeded: 0 errors, 0 warnings" in out \
        and not warnings, "\n".join(warnings or out.splitlines()[-40:])


def test_engine_refuses_zero_streams() -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_mode_engine",
           "-GStreams=0", str(WAIVERS)] + [str(f) for f in engine_paths()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert res.returncode != 0 and "Streams" in res.stdout + res.stderr


# ----------------------------------------------------------------------------------
# CCM: every record of cryptography-vectors
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["VADT", "VNT", "VPT", "VTT", "DVPT"])
@pytest.mark.parametrize("core", CORES)
def test_ccm_vectors(harnesses, core: str, kind: str) -> None:
    h = harnesses(core)
    records = ccm_vectors(kind)
    assert records, f"no CCM {kind} records"
    checked = fails = 0
    for key, recs in _by_key(records).items():
        h.load_key(key)
        msgs = []
        for i, r in enumerate(recs):
            ct, tag = r.ct[:len(r.ct) - r.tag_len], r.ct[len(r.ct) - r.tag_len:]
            if r.expect_pass is None:  # VADT/VNT/VPT/VTT: encrypt and decrypt
                msgs.append((r, "enc", Message("ccm", False, r.payload, iv=r.nonce,
                                               aad=r.adata, tag_len=r.tag_len, stream=i % 2)))
            msgs.append((r, "dec", Message("ccm", True, ct, iv=r.nonce, aad=r.adata,
                                           tag_len=r.tag_len, tag=tag, stream=(i + 1) % 2)))
        h.run([m for _, _, m in msgs], gap_pct=10, stall_pct=10, seed=len(msgs))
        for r, what, m in msgs:
            where = f"{Path(r.file).name}:{r.line} {what}"
            assert not m.error, where
            if what == "enc":
                assert m.out + m.out_tag == r.ct and m.passed, where
            elif r.expect_pass is False:
                assert not m.passed, f"{where}: invalid tag accepted"
                fails += 1
            else:
                assert m.passed and m.out == r.payload, where
            checked += 1
    assert checked >= len(records)
    if kind == "DVPT":
        assert fails == sum(1 for r in records if r.expect_pass is False) > 0


# ----------------------------------------------------------------------------------
# RFC 3610 and 802.11i CCMP
# ----------------------------------------------------------------------------------
def _rfc3610_packets():
    """Packet vectors #1..#12 of RFC 3610: key C0..CF; nonce 00 00 00 (i+2) (i+1) i
    (i-1) A0..A5; the packet is 00 01 02 ... of length 31/32/33, its first 8 or 12
    bytes are the header (AAD); M = 8 for #1..#6, 10 for #7..#12; L = 2."""
    key = bytes(range(0xC0, 0xD0))
    out = []
    for i in range(1, 13):
        j = (i - 1) % 6
        nonce = bytes([0, 0, 0, i + 2, i + 1, i, i - 1]) + bytes(range(0xA0, 0xA6))
        pkt = bytes(range(31 + j % 3))
        hdr = 8 if j < 3 else 12
        out.append((key, nonce, pkt[:hdr], pkt[hdr:], 8 if i <= 6 else 10))
    return out


def test_rfc3610_packet1_published() -> None:
    """Packet #1's output as printed in RFC 3610, checked against AESCCM (so the
    structural generator above is anchored to the RFC)."""
    key, nonce, aad, pt, m = _rfc3610_packets()[0]
    published = bytes.fromhex("0001020304050607588C979A61C663D2F066D0C2C0F989806D5F6B61DAC38417"
                              "E8D12CFDF926E0")
    assert aad + AESCCM(key, tag_length=m).encrypt(nonce, pt, aad) == published


def _ccmp_messages(rng: random.Random):
    """802.11i CCMP shapes: nonce = priority || A2 || PN (13 bytes), MIC 8 bytes,
    AAD = masked FC || A1 || A2 || A3 || masked SC [|| A4] [|| QC] (22..30 bytes),
    payloads of MSDU-like lengths."""
    out = []
    for n in range(12):
        a4, qos = bool(n & 1), bool(n & 2)
        fc = bytes([rng.randrange(256) & 0x8F, rng.randrange(256) & 0xC7 | 0x40])
        addr = [rng.randbytes(6) for _ in range(4)]
        sc = bytes([rng.randrange(256) & 0x0F, 0])
        aad = fc + addr[0] + addr[1] + addr[2] + sc + (addr[3] if a4 else b"")
        prio = rng.randrange(16) if qos else 0
        if qos:
            aad += bytes([prio, 0])
        pn = rng.randbytes(6)
        nonce = bytes([prio]) + addr[1] + pn[::-1]
        out.append((nonce, aad, rng.randbytes(rng.choice([0, 1, 20, 64, 100, 1500]))))
    return out


@pytest.mark.parametrize("core", CORES)
def test_rfc3610_and_ccmp(harnesses, core: str) -> None:
    h = harnesses(core)
    cases = [(k, n, a, p, m) for k, n, a, p, m in _rfc3610_packets()]
    rng = random.Random(11)
    ccmp_key = rng.randbytes(16)
    cases += [(ccmp_key, n, a, p, 8) for n, a, p in _ccmp_messages(rng)]
    for key, group in _by_key_tuples(cases).items():
        h.load_key(key)
        msgs = []
        for i, (_, nonce, aad, pt, m) in enumerate(group):
            ref = AESCCM(key, tag_length=m).encrypt(nonce, pt, aad)
            bad = bytearray(ref[-m:])
            bad[i % m] ^= 0x80
            msgs += [
                (ref, Message("ccm", False, pt, iv=nonce, aad=aad, tag_len=m, stream=0)),
                (pt, Message("ccm", True, ref[:-m], iv=nonce, aad=aad, tag_len=m,
                             tag=ref[-m:], stream=1)),
                (None, Message("ccm", True, ref[:-m], iv=nonce, aad=aad, tag_len=m,
                               tag=bytes(bad), stream=i % 2)),
            ]
        h.run([m for _, m in msgs], gap_pct=20, stall_pct=20, seed=3)
        for want, m in msgs:
            if not m.decrypt:
                assert m.out + m.out_tag == want and m.passed
            elif want is None:
                assert not m.passed, "corrupted tag accepted"
            else:
                assert m.passed and m.out == want


def _by_key_tuples(cases):
    groups: OrderedDict[bytes, list] = OrderedDict()
    for c in cases:
        groups.setdefault(c[0], []).append(c)
    return groups


# ----------------------------------------------------------------------------------
# NIST KAT/MMT: ECB, CBC, CFB-128, OFB; CTR vectors
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["ECB", "CBC", "CFB128", "OFB", "CTR"])
@pytest.mark.parametrize("core", CORES)
def test_nist_block_modes(harnesses, core: str, mode: str) -> None:
    h = harnesses(core)
    records = ctr_vectors() if mode == "CTR" else block_vectors(mode)
    assert records
    name = {"CFB128": "cfb"}.get(mode, mode.lower())
    n = 0
    for key, recs in _by_key(records).items():
        h.load_key(key)
        msgs = []
        for i, r in enumerate(recs):
            src, dst = (r.ciphertext, r.plaintext) if r.decrypt else (r.plaintext, r.ciphertext)
            msgs.append((r, dst, Message(name, r.decrypt, src, iv=r.iv or bytes(16),
                                         stream=i % 2)))
        h.run([m for _, _, m in msgs], gap_pct=15, stall_pct=15, seed=len(msgs))
        for r, dst, m in msgs:
            assert not m.error and m.passed
            assert m.out == dst, f"{Path(r.file).name}:{r.line}: got {m.out.hex()}"
            n += 1
    assert n == len(records)


# ----------------------------------------------------------------------------------
# random differential against the golden model
# ----------------------------------------------------------------------------------
def _model(mode: str, key: bytes, m: Message) -> tuple[bytes, bytes, bool]:
    """(output, tag, pass) of the golden model for message ``m``."""
    c = AES(key)
    if mode == "ccm":
        if not m.decrypt:
            r = M.ccm_encrypt(c, m.iv, m.aad, m.data, m.tag_len)
            return r[:len(m.data)], r[len(m.data):], True
        try:
            return M.ccm_decrypt(c, m.iv, m.aad, m.data + m.tag, m.tag_len), b"", True
        except TagMismatchError:
            return b"", b"", False
    f = {("ecb", False): lambda: M.ecb_encrypt(c, m.data),
         ("ecb", True): lambda: M.ecb_decrypt(c, m.data),
         ("cbc", False): lambda: M.cbc_encrypt(c, m.iv, m.data),
         ("cbc", True): lambda: M.cbc_decrypt(c, m.iv, m.data),
         ("ctr", False): lambda: M.ctr_crypt(c, m.iv, m.data),
         ("ctr", True): lambda: M.ctr_crypt(c, m.iv, m.data),
         ("cfb", False): lambda: M.cfb128_encrypt(c, m.iv, m.data),
         ("cfb", True): lambda: M.cfb128_decrypt(c, m.iv, m.data),
         ("ofb", False): lambda: M.ofb_crypt(c, m.iv, m.data),
         ("ofb", True): lambda: M.ofb_crypt(c, m.iv, m.data)}[(mode, m.decrypt)]
    return f(), b"", True


def _random_message(rng: random.Random, key: bytes, stream: int, max_len: int) -> Message:
    mode = rng.choice(["ecb", "cbc", "ctr", "cfb", "ofb", "ccm", "ccm"])
    dec = rng.random() < 0.5
    n = rng.randint(0, max_len)
    if mode in ("ecb", "cbc"):
        n -= n % 16
    if mode != "ccm":
        return Message(mode, dec, rng.randbytes(n), iv=rng.randbytes(16), stream=stream)
    nl = rng.randint(7, 13)
    n = min(n, (1 << (8 * (15 - nl))) - 1)
    tl = rng.choice([4, 6, 8, 10, 12, 14, 16])
    aad = rng.randbytes(rng.choice([0, 1, 2, 13, 14, 15, 16, 17, 18, 31, 32, 33,
                                    rng.randint(0, 300)]))
    m = Message("ccm", dec, rng.randbytes(n), iv=rng.randbytes(nl), aad=aad, tag_len=tl,
                stream=stream)
    if dec:
        # a real ciphertext and tag (from the model), sometimes with a corrupted bit
        ref = M.ccm_encrypt(AES(key), m.iv, aad, rng.randbytes(n), tl)
        m.data, m.tag = ref[:n], ref[n:]
        if rng.random() < 0.3:
            which = rng.randrange(len(ref) + len(aad))
            if which < n:
                m.data = bytes(b ^ (0x01 if i == which else 0) for i, b in enumerate(m.data))
            elif which < len(ref):
                t = bytearray(m.tag)
                t[which - n] ^= 0x40
                m.tag = bytes(t)
            else:
                a = bytearray(aad)
                a[which - len(ref)] ^= 0x02
                m.aad = bytes(a)
    return m


def _random_run(h: ModeHarness, seed: int, messages: int, max_len: int) -> None:
    rng = random.Random(seed)
    done = 0
    while done < messages:
        key = rng.randbytes(rng.choice([16, 24, 32]))
        h.load_key(key)
        batch = [_random_message(rng, key, rng.randint(0, 1), max_len)
                 for _ in range(rng.randint(1, 24))]
        gap, stall = rng.choice([(0, 0), (0, 50), (50, 0), (30, 30), (70, 70)])
        h.run(batch, gap_pct=gap, stall_pct=stall, seed=rng.getrandbits(31))
        for m in batch:
            out, tag, ok = _model(m.mode, key, m)
            what = (f"{m.mode} dec={m.decrypt} len={len(m.data)} aad={len(m.aad)} "
                    f"tag={m.tag_len} key={len(key) * 8} stream={m.stream}")
            assert not m.error, what
            assert m.passed == ok, what
            if ok:
                assert m.out == out, what
                assert m.out_tag == tag, what
        done += len(batch)


@pytest.mark.parametrize("core", CORES)
def test_random_differential(harnesses, core: str) -> None:
    _random_run(harnesses(core), seed=1 + CORES.index(core), messages=600, max_len=200)


@pytest.mark.slow
@pytest.mark.parametrize("core", CORES)
def test_random_differential_long(harnesses, core: str) -> None:
    _random_run(harnesses(core), seed=100 + CORES.index(core), messages=20_000, max_len=2000)


# ----------------------------------------------------------------------------------
# cycles per block
# ----------------------------------------------------------------------------------
MODES = ["ecb", "cbc", "ctr", "cfb", "ofb", "ccm"]


@pytest.mark.parametrize("core", CORES)
def test_cycles_per_block(harnesses, core: str) -> None:
    """Never stalled, per 16-byte block, from the core's latency L and interval I:
    a chained flow (CBC/CFB encryption, OFB) has one block in the core, max(L, I);
    the other flows (ECB, CBC/CFB decryption, CTR) keep two, max(L/2, I); CCM makes
    two calls per block, its CBC-MAC chain bounds it: max(L, 2I). Two streams of the
    same mode share the core: chained max(L, 2I)/2, others I, CCM max(L/2, 2I).
    On pipe2 (L = 2Nr, I = Nr): Nr for one stream except the chained flows (2Nr) and
    CCM (2Nr per 16 bytes); Nr for two streams (CCM 2Nr)."""
    spec = get_core(core)
    h = harnesses(core)
    for ks in (128, 192, 256):
        h.load_key(bytes(range(ks // 8)))
        nr = NR[ks]
        lat, itv = spec.latency[ks], spec.interval[ks]
        for mode in MODES:
            for dec in (False, True):
                chained = mode == "ofb" or (mode in ("cbc", "cfb") and not dec)
                if mode == "ccm":
                    exp1, exp2 = max(lat, 2 * itv), max(lat / 2, 2 * itv)
                elif chained:
                    exp1, exp2 = max(lat, itv), max(lat, 2 * itv) / 2
                else:
                    exp1, exp2 = max(lat / 2, itv), itv
                one = measure_cycles_per_block(h, mode, decrypt=dec, streams=1)
                two = measure_cycles_per_block(h, mode, decrypt=dec, streams=2)
                assert one == exp1, (mode, dec, ks, one, exp1)
                assert two == exp2, (mode, dec, ks, two, exp2)
                if core == "pipe2":
                    assert one == (2 * nr if chained or mode == "ccm" else nr)
                    assert two == (2 * nr if mode == "ccm" else nr)


# ----------------------------------------------------------------------------------
# the core input register (CoreInReg = 1)
# ----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def harness_in_reg():
    h = ModeHarness("pipe2", build=Build(core_in_reg=True))
    yield h
    h.close()


def test_core_in_reg_random_differential(harness_in_reg) -> None:
    """Every mode (GCM, CMAC and XTS too), two streams, random gaps and stalls."""
    _random_run(harness_in_reg, seed=77, messages=300, max_len=200)


def test_core_in_reg_cycles_per_block(harness_in_reg) -> None:
    """The register adds one cycle between a request and the core, so one chained
    stream (CBC/CFB encryption, OFB, CCM's and CMAC's MAC chains) takes the core's
    latency + 1 = 2Nr + 1 per block on pipe2, and two streams of an independent flow
    keep pipe2 full as before (Nr). The other figures are the values measured in this
    harness on 28 Nov 2026, not derived: one independent stream Nr + 1 (not the
    (2Nr + 1) / 2 of a simple two-in-flight count), two chained streams (2Nr + 1) / 2,
    two CCM streams 2Nr, two CMAC streams Nr + 1 (without the register: Nr). They are
    asserted so that a change in the engine's or pipe2's timing shows; the mechanism
    behind Nr + 1 (pipe2's two stages and when a freed stage takes a new block) is not
    analysed."""
    h = harness_in_reg
    for ks in (128, 256):
        h.load_key(bytes(range(ks // 8)))
        nr = NR[ks]
        for mode in MODES + ["cmac"]:
            for dec in (False, True):
                chained = mode in ("ofb", "ccm", "cmac") or (mode in ("cbc", "cfb") and not dec)
                one = measure_cycles_per_block(h, mode, decrypt=dec, streams=1)
                two = measure_cycles_per_block(h, mode, decrypt=dec, streams=2)
                exp1 = 2 * nr + 1 if chained else nr + 1
                if mode == "ccm":
                    exp2 = 2 * nr
                elif mode == "cmac":
                    exp2 = nr + 1
                elif chained:
                    exp2 = (2 * nr + 1) / 2
                else:
                    exp2 = nr
                assert one == exp1, (mode, dec, ks, one, exp1)
                assert two == exp2, (mode, dec, ks, two, exp2)


# ----------------------------------------------------------------------------------
# illegal commands
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("core", CORES)
def test_illegal_commands(harnesses, core: str) -> None:
    h = harnesses(core)
    key = bytes(range(16))
    h.load_key(key)
    bad = [
        Message("ccm", False, bytes(20), iv=bytes(6), tag_len=8),       # nonce 6
        Message("ccm", False, bytes(20), iv=bytes(14), tag_len=8),      # nonce 14
        Message("ccm", True, bytes(20), iv=bytes(13), tag_len=5, tag=bytes(5)),  # odd tag
        Message("ccm", False, bytes(20), iv=bytes(13), tag_len=18),     # tag 18
        Message("ccm", False, bytes(1 << 16), iv=bytes(13), tag_len=8),  # q = 2: too long
        Message("ecb", False, bytes(20)),
        Message("cbc", True, bytes(17), iv=bytes(16)),
    ]
    good = Message("cbc", False, bytes(range(48)), iv=bytes(16), stream=0)
    msgs = []
    for i, m in enumerate(bad):
        m.stream = i % 2
        msgs.append(m)
    msgs.append(good)
    h.run(msgs, gap_pct=20, stall_pct=20, seed=9)
    for m in bad:
        assert m.error and not m.passed and m.beats_out == [], m
    assert not good.error and good.out == M.cbc_encrypt(AES(key), bytes(16), bytes(range(48)))


@pytest.mark.parametrize("core", CORES)
def test_ccm_long_aad(harnesses, core: str) -> None:
    """AAD lengths around 2^16 - 2^8, where the length prefix grows from 2 bytes to
    0xfffe plus 4 bytes (SP 800-38C A.2.2), against AESCCM."""
    h = harnesses(core)
    rng = random.Random(31)
    key = rng.randbytes(32)
    h.load_key(key)
    msgs = []
    for i, alen in enumerate((0xFEFF, 0xFF00, 0xFF01, 0xFF0A, 0xFF0B, 0x10000 + 5)):
        aad, pt, nonce = rng.randbytes(alen), rng.randbytes(rng.choice([0, 5, 33])), rng.randbytes(12)
        ref = AESCCM(key, tag_length=12).encrypt(nonce, pt, aad)
        msgs += [(ref, Message("ccm", False, pt, iv=nonce, aad=aad, tag_len=12, stream=i % 2)),
                 (pt, Message("ccm", True, ref[:-12], iv=nonce, aad=aad, tag_len=12,
                              tag=ref[-12:], stream=(i + 1) % 2))]
    h.run([m for _, m in msgs], gap_pct=10, stall_pct=10, seed=4)
    for want, m in msgs:
        assert m.passed and not m.error, len(m.aad)
        assert (m.out if m.decrypt else m.out + m.out_tag) == want, len(m.aad)


# ----------------------------------------------------------------------------------
# Monte Carlo tests (AESAVS) with every inner step a one-block message of the engine
# ----------------------------------------------------------------------------------
def _engine_mct(h: ModeHarness, mode: str, key: bytes, iv: bytes, text: bytes, decrypt: bool,
                iterations: int) -> list[tuple[bytes, bytes, bytes, bytes]]:
    """The AESAVS chained loop (as aeskit.model.mct) where each step is a one-block
    message with the chaining value as its IV: (key, iv, input, output) per outer step."""
    name = {"CBC": "cbc", "CFB128": "cfb", "OFB": "ofb"}[mode]
    out = []
    for _ in range(iterations):
        h.load_key(key)
        chain, x, y_prev, y = iv, text, b"", b""
        for j in range(1000):
            m = Message(name, decrypt, x, iv=chain)
            h.run([m])
            y_prev, y = y, m.out
            if name == "ofb":
                chain = bytes(a ^ b for a, b in zip(x, y))
            elif decrypt:
                chain = x
            else:
                chain = y
            x = iv if j == 0 else y_prev
        out.append((key, iv, text, y))
        mix = {16: y, 24: y_prev[8:] + y, 32: y_prev + y}[len(key)]
        key = bytes(a ^ b for a, b in zip(key, mix))
        iv, text = y, y_prev
    return out


def _check_engine_mct(h: ModeHarness, mode: str, ks: int, decrypt: bool, iterations: int):
    from aeskit.vectors import mct_vectors

    vecs = [v for v in mct_vectors(mode, ks) if v.decrypt == decrypt]
    assert len(vecs) == 100, f"expected 100 outer iterations in the {mode} MCT file"
    got = _engine_mct(h, mode, vecs[0].key, vecs[0].iv, vecs[0].input, decrypt, iterations)
    for (key, iv, inp, out), v in zip(got, vecs):
        where = f"{Path(v.file).name}:{v.line}"
        assert (key, iv, inp) == (v.key, v.iv, v.input), f"{where}: MCT inputs diverged"
        assert out == v.output, f"{where}: {mode}-{ks} decrypt={decrypt}"


@pytest.mark.parametrize("core", CORES)
def test_cbc_mct_first_outer_iteration(harnesses, core: str) -> None:
    for ks in (128, 192, 256):
        for dec in (False, True):
            _check_engine_mct(harnesses(core), "CBC", ks, dec, iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["CBC", "CFB128", "OFB"])
@pytest.mark.parametrize("core", CORES)
def test_mct_full(harnesses, core: str, mode: str) -> None:
    for ks in (128, 192, 256):
        for dec in (False, True):
            _check_engine_mct(harnesses(core), mode, ks, dec, iterations=100)
