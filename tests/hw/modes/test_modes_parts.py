"""GCM and CMAC messages in parts through the mode engine (docs/modes.md "Messages in
parts"; the harness builds the engine with Parts = 1).

* random GCM messages (every key size, 12-byte and other IV lengths, AAD and payload of
  random lengths, tags of 4..16 bytes, both directions) split at random 16-byte
  boundaries into FIRST / MIDDLE* / LAST parts, each part one engine message, the
  state carried by the test from each part's state beat into the next part's context;
  the ciphertext / plaintext and the tag (decryption: the verdict, tampered tags
  failing at LAST) equal OpenSSL's (``cryptography``) for the whole message;
* the same for CMAC, generation and verification;
* every illegal part command is refused (sts_error, its beats taken, the next message
  runs);
* the cycles of a part.
WHOLE messages are unchanged: the existing tests of tests/hw/modes run on this build.
"""

from __future__ import annotations

import random
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from aeskit.harness.modes import FULL, Message, ModeHarness, engine_paths, system_files
from aeskit.hw import get_core
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator
from aeskit.verif.ossl import cmac as cmac_tag
from aeskit.verif.ossl import gcm as ossl_gcm

CORES = ["pipe2", "round"]
Harnesses = Callable[[str], ModeHarness]
WHOLE, FIRST, MIDDLE, LAST = 0, 1, 2, 3


@pytest.mark.parametrize("params", [
    {"Streams": 2, "Parts": 1},
    {"Streams": 1, "Parts": 1, "Modes": "9'h040"},   # GCM only
    {"Streams": 1, "Parts": 1, "Modes": "9'h080"},   # CMAC only
    {"Streams": 1, "Parts": 1, "Modes": "9'h01f"},   # neither: nothing built
    {"Streams": 2, "Parts": 1, "AeadModes": 0},
], ids=["all", "gcm", "cmac", "blocks", "lean"])
def test_parts_lint(params: dict) -> None:
    """Verilator -Wall, zero warnings, with Parts = 1 (the default, 0, is linted by
    test_modes.py and the manifests' lint target)."""
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_mode_engine"]
    cmd += [f"-G{k}={v}" for k, v in params.items()]
    cmd += [str(WAIVERS)] + [str(f) for f in engine_paths()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


def test_parts_system_lint(tmp_path: Path) -> None:
    """The harness top with the part ports (Parts = 1) on a core, zero warnings."""
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_mode_sys", str(WAIVERS)]
    cmd += [str(f) for f in system_files(get_core("round"), tmp_path, FULL)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


def ctx_bytes(state: bytes, blocks: int = 0, aad_bytes: int = 0, pay_bytes: int = 0) -> bytes:
    """The 32-byte cmd_ctx_i of a MIDDLE / LAST part: [255:128] the state, [127:96]
    GCM's payload blocks before, [95:64] AAD bytes before, [63:32] payload bytes
    before, [31:0] reserved (0); big-endian, byte 0 in [255:248]."""
    return state + struct.pack(">IIII", blocks, aad_bytes, pay_bytes, 0)


def gcm_cuts(rng: random.Random, aad_len: int, pay_len: int, max_parts: int = 5) \
        -> list[tuple[int, int]]:
    """Random parts of a GCM message: (AAD bytes, payload bytes) per part. FIRST and
    MIDDLE parts hold whole blocks (at least one); AAD never follows payload; LAST
    the rest (any length, possibly none)."""
    aad_units = aad_len // 16
    # a partial AAD block must be in LAST, and then so must the whole payload
    pay_units = pay_len // 16 if aad_len % 16 == 0 else 0
    units = aad_units + pay_units
    if units == 0:
        return [(aad_len, pay_len)]
    n = rng.randint(1, min(max_parts - 1, units))
    cuts = sorted(rng.sample(range(1, units + 1), n))
    parts, prev = [], 0
    for c in cuts + [None]:
        if c is None:
            a = aad_len - 16 * min(prev, aad_units)
            p = pay_len - 16 * max(0, prev - aad_units)
        else:
            a = 16 * (min(c, aad_units) - min(prev, aad_units))
            p = 16 * (max(0, c - aad_units) - max(0, prev - aad_units))
            prev = c
        parts.append((a, p))
    assert sum(a for a, _ in parts) == aad_len and sum(p for _, p in parts) == pay_len
    return parts


def run_gcm_parts(h: ModeHarness, rng: random.Random, iv: bytes, aad: bytes,
                  data: bytes, tag_len: int, decrypt: bool, tag: bytes = b"",
                  stream: int = 0, cuts: list[tuple[int, int]] | None = None,
                  cycles: list[int] | None = None) -> tuple[bytes, bytes, bool]:
    """One GCM message in parts on ``stream``: (output, tag, pass of LAST)."""
    cuts = cuts if cuts is not None else gcm_cuts(rng, len(aad), len(data))
    state, a0, p0, out = bytes(16), 0, 0, b""
    last = None
    for i, (a, p) in enumerate(cuts):
        part = LAST if i == len(cuts) - 1 else (FIRST if i == 0 else MIDDLE)
        if len(cuts) == 1:
            part = rng.choice([WHOLE, LAST])  # a LAST with no earlier part is WHOLE
        m = Message("gcm", decrypt, data[p0:p0 + p], iv=iv, aad=aad[a0:a0 + a],
                    tag_len=tag_len, tag=tag if part in (WHOLE, LAST) else b"",
                    stream=stream, part=part,
                    ctx=ctx_bytes(state, p0 // 16, a0, p0) if part in (MIDDLE, LAST)
                    else bytes(32))
        n = h.run([m], gap_pct=rng.choice([0, 0, 30]), stall_pct=rng.choice([0, 0, 30]),
                  seed=rng.randrange(1 << 30))
        if cycles is not None:
            cycles.append(n)
        assert not m.error, (i, part, a, p)
        out += m.out
        if part in (FIRST, MIDDLE):
            assert m.passed and len(m.state) == 16
            assert len(m.beats_out) == (p + 15) // 16 + 1 and m.beats_out[-1][0] == 1
            state = m.state
        last = m
        a0, p0 = a0 + a, p0 + p
    assert last is not None
    return out, last.out_tag, bool(last.passed)


def _gcm_case(h: ModeHarness, rng: random.Random, key_size: int, stream: int) -> None:
    key = rng.randbytes(key_size // 8)
    h.load_key(key)
    iv = rng.randbytes(12 if rng.random() < 0.5 else rng.choice([8, 13, 16, 17, 40, 64]))
    aad_len = rng.choice([0, 16, 32, 48, rng.randrange(0, 80)])
    pay_len = rng.choice([0, 16, 64, rng.randrange(0, 200)])
    aad, pt = rng.randbytes(aad_len), rng.randbytes(pay_len)
    tag_len = rng.randint(4, 16)
    ct, tag = ossl_gcm(key, iv, pt, aad, tag_len)
    if rng.random() < 0.5:
        out, got_tag, ok = run_gcm_parts(h, rng, iv, aad, pt, tag_len, False, stream=stream)
        assert (out, got_tag, ok) == (ct, tag, True), (len(iv), aad_len, pay_len, tag_len)
    else:
        bad = rng.random() < 0.3
        rtag = bytes([tag[0] ^ (1 << rng.randrange(8))]) + tag[1:] if bad else tag
        out, _, ok = run_gcm_parts(h, rng, iv, aad, ct, tag_len, True, rtag, stream=stream)
        assert out == pt  # (released before the verdict: the consumer holds it)
        assert ok == (not bad), (len(iv), aad_len, pay_len, tag_len, bad)


@pytest.mark.parametrize("core", CORES)
def test_gcm_parts_random(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    rng = random.Random(f"gcm-parts-{core}")
    for n in range(200):
        _gcm_case(h, rng, (128, 192, 256)[n % 3], stream=n % 2)


@pytest.mark.slow
@pytest.mark.parametrize("core", CORES)
def test_gcm_parts_random_long(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    rng = random.Random(f"gcm-parts-long-{core}")
    for n in range(1500):
        _gcm_case(h, rng, (128, 192, 256)[n % 3], stream=n % 2)


def test_gcm_parts_every_boundary(harnesses: Harnesses) -> None:
    """One message cut at every 16-byte boundary (a part per block), 12-byte and
    17-byte IVs, both directions."""
    h = harnesses("pipe2")
    rng = random.Random("every")
    key = rng.randbytes(16)
    h.load_key(key)
    for iv_len in (12, 17):
        iv, aad, pt = rng.randbytes(iv_len), rng.randbytes(48), rng.randbytes(70)
        ct, tag = ossl_gcm(key, iv, pt, aad, 16)
        cuts = [(16, 0)] * 3 + [(0, 16)] * 4 + [(0, 6)]
        assert run_gcm_parts(h, rng, iv, aad, pt, 16, False, cuts=cuts) == (ct, tag, True)
        out, _, ok = run_gcm_parts(h, rng, iv, aad, ct, 16, True, tag, cuts=cuts)
        assert (out, ok) == (pt, True)


def cmac_cuts(rng: random.Random, length: int, max_parts: int = 5) -> list[int]:
    """Random parts of a CMAC message: FIRST / MIDDLE whole blocks (at least one),
    LAST at least one byte."""
    units = (length - 1) // 16  # cut points keeping >= 1 byte for LAST
    if units == 0:
        return [length]
    n = rng.randint(0, min(max_parts - 1, units))
    cuts = sorted(rng.sample(range(1, units + 1), n))
    bounds = [0] + [16 * c for c in cuts] + [length]
    return [b - a for a, b in zip(bounds, bounds[1:])]


def run_cmac_parts(h: ModeHarness, rng: random.Random, msg: bytes, tag_len: int,
                   verify: bool, tag: bytes = b"", stream: int = 0) -> tuple[bytes, bool]:
    cuts = cmac_cuts(rng, len(msg)) if msg else [0]
    state, p0, last = bytes(16), 0, None
    for i, p in enumerate(cuts):
        part = LAST if i == len(cuts) - 1 else (FIRST if i == 0 else MIDDLE)
        if len(cuts) == 1:
            part = WHOLE if not msg else rng.choice([WHOLE, LAST])
        m = Message("cmac", verify, msg[p0:p0 + p], tag_len=tag_len,
                    tag=tag if part in (WHOLE, LAST) else b"", stream=stream, part=part,
                    ctx=ctx_bytes(state) if part in (MIDDLE, LAST) else bytes(32))
        h.run([m], gap_pct=rng.choice([0, 30]), stall_pct=rng.choice([0, 30]),
              seed=rng.randrange(1 << 30))
        assert not m.error, (i, part, p)
        assert m.out == b""
        if part in (FIRST, MIDDLE):
            assert m.passed and len(m.beats_out) == 1 and m.beats_out[0][0] == 1
            state = m.state
        last = m
        p0 += p
    assert last is not None
    return last.out_tag, bool(last.passed)


@pytest.mark.parametrize("core", CORES)
def test_cmac_parts_random(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    rng = random.Random(f"cmac-parts-{core}")
    for n in range(150):
        key_size = (128, 192, 256)[n % 3]
        key = rng.randbytes(key_size // 8)
        h.load_key(key)
        msg = rng.randbytes(rng.choice([1, 16, 17, 32, 48, rng.randrange(1, 150)]))
        tag_len = rng.randint(4, 16)
        tag = cmac_tag(key, msg, tag_len)
        if n % 2 == 0:
            got, ok = run_cmac_parts(h, rng, msg, tag_len, False, stream=n % 2)
            assert (got, ok) == (tag, True), (len(msg), tag_len)
        else:
            bad = rng.random() < 0.4
            rtag = bytes([tag[0] ^ 0x40]) + tag[1:] if bad else tag
            _, ok = run_cmac_parts(h, rng, msg, tag_len, True, rtag, stream=n % 2)
            assert ok == (not bad), (len(msg), tag_len, bad)


def _refused(h: ModeHarness, m: Message) -> None:
    """``m`` is refused (sts_error, no output, its beats taken) and a legal message
    after it on the same stream still runs."""
    key = bytes(range(16))
    ok = Message("gcm", False, b"\x01" * 20, iv=bytes(12), aad=b"a", tag_len=16,
                 stream=m.stream)
    h.run([m, ok])
    assert m.error and not m.passed and m.beats_out == [], m
    ct, tag = ossl_gcm(key, bytes(12), b"\x01" * 20, b"a", 16)
    assert not ok.error and (ok.out, ok.out_tag) == (ct, tag)


@pytest.mark.parametrize("core", ["pipe2"])
def test_illegal_parts(harnesses: Harnesses, core: str) -> None:
    h = harnesses(core)
    h.load_key(bytes(range(16)))
    s16, ctx1 = bytes(16), ctx_bytes(bytes(16), 1, 0, 16)
    cases = []
    # parts only for GCM and CMAC
    for mode, extra in (("ecb", {}), ("cbc", {}), ("ctr", {}), ("cfb", {}), ("ofb", {}),
                        ("ccm", {"iv": bytes(13), "tag_len": 8}), ("xts", {})):
        for part in (FIRST, MIDDLE, LAST):
            for dec in (False, True):
                cases.append(Message(mode, dec, bytes(32), part=part, tag=bytes(8), **extra))
    g = {"iv": bytes(12), "tag_len": 16}
    for dec in (False, True):
        cases += [
            # FIRST / MIDDLE: whole blocks of AAD and payload, at least one
            Message("gcm", dec, bytes(20), part=FIRST, **g),
            Message("gcm", dec, bytes(16), aad=bytes(5), part=FIRST, **g),
            Message("gcm", dec, bytes(17), part=MIDDLE, ctx=ctx1, **g),
            Message("gcm", dec, b"", part=FIRST, **g),
            Message("gcm", dec, b"", part=MIDDLE, ctx=ctx_bytes(s16, 0, 16, 0), **g),
            # AAD after payload
            Message("gcm", dec, bytes(16), aad=bytes(16), part=MIDDLE, ctx=ctx1, **g),
            Message("gcm", dec, b"", aad=bytes(3), part=LAST, ctx=ctx1, tag=s16, **g),
            # a context whose counts are not whole blocks or disagree
            Message("gcm", dec, bytes(16), part=LAST, ctx=ctx_bytes(s16, 2, 0, 16),
                    tag=s16, **g),
            Message("gcm", dec, bytes(16), part=LAST, ctx=ctx_bytes(s16, 0, 5, 0),
                    tag=s16, **g),
            Message("gcm", dec, bytes(16), part=MIDDLE, ctx=ctx_bytes(s16, 0, 0, 8), **g),
            # the WHOLE rules still hold
            Message("gcm", dec, bytes(16), part=FIRST, iv=bytes(12), tag_len=3),
            # CMAC: FIRST / MIDDLE a non-empty whole number of blocks, LAST >= 1 byte
            Message("cmac", dec, b"", part=FIRST, tag_len=16),
            Message("cmac", dec, b"", part=MIDDLE, ctx=ctx_bytes(s16), tag_len=16),
            Message("cmac", dec, bytes(20), part=FIRST, tag_len=16),
            Message("cmac", dec, b"", part=LAST, ctx=ctx_bytes(s16), tag_len=16, tag=s16),
        ]
    for i, m in enumerate(cases):
        m.stream = i % 2
        _refused(h, m)


#: cycles from command to status, 8 blocks (GCM, 12-byte IV, no AAD) / 16 blocks (CMAC),
#: never stalled: (GCM encryption, GCM decryption, CMAC generation) per part
PART_CYCLES = {
    "pipe2": {WHOLE: (129, 106, 325), FIRST: (121, 107, 325), MIDDLE: (121, 107, 325),
              LAST: (129, 106, 325)},
    "round": {WHOLE: (121, 103, 174), FIRST: (113, 104, 165), MIDDLE: (113, 104, 165),
              LAST: (121, 103, 174)},
}


@pytest.mark.parametrize("core", CORES)
def test_part_cycles(harnesses: Harnesses, core: str) -> None:
    """A part's cycles, exactly. GCM: a FIRST / MIDDLE encryption part skips the length
    block's GHASH product (128/16 = 8 cycles), a decryption part outputs its state
    beat (one cycle); LAST costs what WHOLE does. CMAC: FIRST / MIDDLE skip L = E(0)
    (on round, where it is not hidden behind the message's blocks)."""
    h = harnesses(core)
    h.load_key(bytes(range(16)))
    iv, pt = bytes(range(12)), bytes(128)
    h.run([Message("gcm", False, pt, iv=iv, tag_len=16)])  # (after the key setup)
    for part, want in PART_CYCLES[core].items():
        ctx = ctx_bytes(bytes(16), 8, 0, 128) if part in (MIDDLE, LAST) else bytes(32)
        got = []
        for mode, dec, data in (("gcm", False, pt), ("gcm", True, pt),
                                ("cmac", False, bytes(256))):
            m = Message(mode, dec, data, iv=iv, tag_len=16, tag=bytes(16), part=part,
                        ctx=ctx if mode == "gcm" else ctx_bytes(bytes(16)))
            h.run([m])
            assert not m.error
            got.append(m.sts_cycle - m.cmd_cycle)
        assert tuple(got) == want, (part, got)
