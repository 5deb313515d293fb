"""ak_coproc's messages in parts (CTRL.PART, CTX; docs/coproc.md "Messages in parts") on
tbox_folded (``ak_coproc_sys``, the bench of test_coproc.py: cocotbext-axi's AXI4-Lite
master and AXI4 slave with random pauses on all five memory channels), against
`cryptography` (OpenSSL, :mod:`aeskit.verif.ossl`) for the whole message:

* GCM/GMAC both directions, 128/192/256-bit keys, 12-byte IVs (IV registers) and IVs of
  other lengths (from memory, again in every part), AAD split across the parts, payload
  split at random block boundaries (1..4 parts before LAST), tags of 4..16 bytes: the
  concatenated destination equals the whole message's ciphertext + tag (plaintext),
  TAG holds the tag after LAST only; after each FIRST/MIDDLE part CTX equals the
  context computed here (:mod:`aeskit.verif.parts`: GHASH state and counts), nothing
  past the part's payload is written (no state, no tag in memory), and after LAST CTX
  reads 0;
* a tampered tag (or ciphertext of the LAST part): LAST ends with TAG, LAST's
  destination keeps its old contents; the earlier parts' plaintext was released when
  those parts ended (asserted: it is in memory);
* CMAC generation and verification split at random block boundaries (tampered tags
  fail at LAST);
* two messages interleaved, the context saved (read) and restored (written) by software;
* every illegal part command (parts in other modes, FIRST/MIDDLE lengths not whole
  blocks, empty parts, a CMAC LAST without a byte, AAD after payload, an inconsistent
  context, counts that would pass 2^32) ends with ERR_CODE 8 without a bus access and
  leaves CTX unchanged; the next job works;
* CLEAR zeroes CTX and the job's copy, and no word of the state is left anywhere in the
  system's state (:mod:`aeskit.verif.keywipe`'s scan of every signal);
* the cycles of parts (PARTS_CYCLES, docs/coproc.md).

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest

from aeskit.hw.codes import Mode, Part
from aeskit.hw.systems.coproc import ERR, KEY_LEN_CODE, mode_fields, regmap
from aeskit.verif import ossl
from aeskit.verif.parts import (cmac_context, gcm_context, next_counts, part_illegal,
                                split_cmac, split_gcm)

HERE = Path(__file__).resolve().parent
RM = regmap()
SRC, AAD, DST, IVA = 0x1000, 0x3_0000, 0x4_0000, 0x2_0000


async def write_ctx(tb, ctx: bytes) -> None:
    for i in range(8):
        await tb.wr(f"CTX{i}", int.from_bytes(ctx[4 * i:4 * i + 4], "little"))


async def _read_words(tb, reg: str, n: int) -> bytes:
    out = b""
    for i in range(n):
        out += (await tb.rd(f"{reg}{i}")).to_bytes(4, "little")
    return out


async def read_ctx(tb) -> bytes:
    return await _read_words(tb, "CTX", 8)


async def read_tag(tb) -> bytes:
    return await _read_words(tb, "TAG", 4)


async def start_part(tb, code: int, dec: bool, part: int, key_len: int, *, src: int,
                     length: int, dst: int, aad_addr: int = AAD, aad_len: int = 0,
                     tag_len: int = 16, iv_len: int = 0, iv_addr: int = IVA,
                     wait: bool = True) -> int:
    """Program and START one job with CTRL.PART = ``part`` (KEY, IV and CTX as they
    are); its ERR_CODE."""
    for reg, v in (("SRC_ADDR", src), ("DST_ADDR", dst), ("LEN", length),
                   ("AAD_ADDR", aad_addr), ("AAD_LEN", aad_len), ("IV_ADDR", iv_addr),
                   ("IV_LEN", iv_len), ("CCM", RM.value(CCM__NONCE_LEN=13, CCM__TAG_LEN=tag_len))):
        await tb.wr(reg, v)
    irqs = tb.irqs
    await tb.wr("CTRL", RM.value(CTRL__START=1, CTRL__DECRYPT=int(dec), **mode_fields(code),
                                 CTRL__KEY_LEN=KEY_LEN_CODE[key_len], CTRL__IRQ_EN=1,
                                 CTRL__PART=part))
    if not wait:
        return -1
    err, _ = await tb.finish(irqs)
    return err


async def gcm_parts(tb, dec: bool, key: bytes, iv: bytes, aad: bytes, pt: bytes, t: int, *,
                    tamper: str = "", max_parts: int = 4) -> None:
    """One GCM message in parts, checked (see the module doc); ``tamper`` "tag" or "ct"
    flips a bit of the received tag or of LAST's ciphertext."""
    rng = tb.rng
    ct, tag = ossl.gcm(key, iv, pt, aad, t)
    parts = split_gcm(rng, len(aad), len(pt), max_parts)
    src_data = bytearray((ct + tag) if dec else pt)
    if tamper == "tag":
        src_data[len(ct) + rng.randrange(t)] ^= 1 << rng.randrange(8)
    elif tamper == "ct":
        last = parts[-1]
        src_data[last.p0 + rng.randrange(last.len)] ^= 1 << rng.randrange(8)
    tb.mem.data[SRC:SRC + len(src_data)] = src_data
    tb.mem.data[AAD:AAD + len(aad)] = aad
    out_len = len(pt) + (0 if dec else t)
    guard = rng.randbytes(out_len + 64)
    tb.mem.data[DST - 32:DST - 32 + len(guard)] = guard
    await tb.set_key(key)
    if len(iv) == 12:
        await tb.set_iv(iv)
        ivk = dict(iv_len=0)
    else:
        await tb.set_iv(rng.randbytes(16))
        tb.mem.data[IVA:IVA + len(iv)] = iv
        ivk = dict(iv_len=len(iv))
    await write_ctx(tb, rng.randbytes(32))  # FIRST does not read CTX
    what = f"GCM dec={dec} aad={len(aad)} len={len(pt)} t={t} iv={len(iv)} parts={parts}"
    for p in parts:
        err = await start_part(tb, Mode.GCM, dec, p.code, len(key), src=SRC + p.p0,
                               length=p.len, dst=DST + p.p0, aad_addr=AAD + p.a0,
                               aad_len=p.aad_len, tag_len=t, **ivk)
        after = bytes(tb.mem.data[DST - 32:DST - 32 + len(guard)])
        if p.code != Part.LAST:
            assert err == 0, f"{what}: part {p}: ERR_CODE {err}"
            assert await read_ctx(tb) == gcm_context(key, aad[:p.a1], ct[:p.p1]), \
                f"{what}: CTX after {p}"
            assert await read_tag(tb) == bytes(16), "TAG after a FIRST/MIDDLE part"
            # only the part's payload result, nothing past it (no state, no tag)
            assert after[32 + p.p1:] == guard[32 + p.p1:], f"{what}: written past {p}"
            continue
        assert await read_ctx(tb) == bytes(32), "CTX after LAST"
        assert after[:32] == guard[:32] and after[32 + out_len:] == guard[32 + out_len:], \
            f"{what}: bytes around the destination changed"
        got = after[32:32 + out_len]
        if tamper:
            assert err == ERR["TAG"], f"{what}: tampered {tamper}: ERR_CODE {err}"
            # the earlier parts' plaintext was released when they ended; LAST's
            # destination keeps its old contents
            assert got[:p.p0] == pt[:p.p0], f"{what}: earlier parts' plaintext"
            assert got[p.p0:] == guard[32 + p.p0:32 + out_len], f"{what}: LAST wrote"
            assert await read_tag(tb) == bytes(16)
        elif dec:
            assert err == 0 and got == pt, f"{what}: ERR_CODE {err}"
            assert await read_tag(tb) == bytes(16)
        else:
            assert err == 0 and got == ct + tag, f"{what}: ERR_CODE {err}"
            assert await read_tag(tb) == tag.ljust(16, b"\0"), f"{what}: TAG"


async def cmac_parts(tb, verify: bool, key: bytes, msg: bytes, t: int, *,
                     tamper: bool = False) -> None:
    rng = tb.rng
    tag = ossl.cmac(key, msg, t)
    parts = split_cmac(rng, len(msg))
    src = bytearray(msg + (tag if verify else b""))
    if tamper:
        src[len(msg) + rng.randrange(t)] ^= 1 << rng.randrange(8)
    tb.mem.data[SRC:SRC + len(src)] = src
    guard = rng.randbytes(16 + 64)
    tb.mem.data[DST - 32:DST - 32 + len(guard)] = guard
    await tb.set_key(key)
    what = f"CMAC verify={verify} len={len(msg)} t={t} parts={parts}"
    for p in parts:
        err = await start_part(tb, Mode.CMAC, verify, p.code, len(key), src=SRC + p.p0,
                               length=p.len, dst=DST, tag_len=t)
        after = bytes(tb.mem.data[DST - 32:DST - 32 + len(guard)])
        if p.code != Part.LAST:
            assert err == 0, f"{what}: {p}: ERR_CODE {err}"
            assert await read_ctx(tb) == cmac_context(key, msg[:p.p1]), f"{what}: CTX {p}"
            assert after == guard, f"{what}: {p} wrote to memory"
            assert await read_tag(tb) == bytes(16)
            continue
        assert await read_ctx(tb) == bytes(32), "CTX after LAST"
        if verify:
            assert err == (ERR["TAG"] if tamper else 0), f"{what}: ERR_CODE {err}"
            assert after == guard, f"{what}: verification wrote"
        else:
            assert err == 0 and after[32:32 + t] == tag, f"{what}: ERR_CODE {err}"
            assert after[:32] == guard[:32] and after[32 + t:] == guard[32 + t:]
            assert await read_tag(tb) == tag.ljust(16, b"\0")


def _gcm_msg(rng: random.Random, i: int) -> tuple[bytes, bytes]:
    """(aad, payload) with at least one whole block before LAST."""
    while True:
        aad = rng.randbytes(rng.choice((0, 5, 16, 32, 40)))
        pt = rng.randbytes(rng.choice((0, 16, rng.randint(17, 100), 16 * rng.randint(2, 6))))
        if len(aad) >= 16 or (len(aad) % 16 == 0 and len(pt) >= 16):
            return aad, pt


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_parts_gcm(dut) -> None:
    """GCM/GMAC in parts, both ways, every key size, IVs of 12 and other lengths,
    tampered LAST parts."""
    from test_coproc import start

    tb = await start(dut, seed=81)
    rng = tb.rng
    for i in range(10):
        key = rng.randbytes((16, 24, 32)[i % 3])
        iv = rng.randbytes(12 if i % 3 else rng.choice((8, 16, 33)))
        aad, pt = _gcm_msg(rng, i)
        t = rng.choice((4, 8, 12, 15, 16))
        await gcm_parts(tb, False, key, iv, aad, pt, t)
        await gcm_parts(tb, True, key, iv, aad, pt, t)
    # tampered: the tag, LAST's ciphertext (payload of more than one part)
    key, iv = rng.randbytes(16), rng.randbytes(12)
    aad, pt = rng.randbytes(32), rng.randbytes(100)
    await gcm_parts(tb, True, key, iv, aad, pt, 16, tamper="tag")
    await gcm_parts(tb, True, key, iv, aad, pt, 12, tamper="ct")
    await gcm_parts(tb, True, key, rng.randbytes(20), aad, pt, 16, tamper="tag")
    # GMAC in parts (no payload), both ways, and tampered
    aad = rng.randbytes(70)
    await gcm_parts(tb, False, key, iv, aad, b"", 16)
    await gcm_parts(tb, True, key, iv, aad, b"", 16)
    await gcm_parts(tb, True, key, iv, aad, b"", 16, tamper="tag")


@cocotb.test()
async def cocotb_parts_cmac(dut) -> None:
    """CMAC generation and verification in parts; tampered tags."""
    from test_coproc import start

    tb = await start(dut, seed=82)
    rng = tb.rng
    for i in range(8):
        key = rng.randbytes((16, 24, 32)[i % 3])
        msg = rng.randbytes(rng.choice((rng.randint(17, 120), 16 * rng.randint(2, 7))))
        t = rng.randint(4, 16)
        await cmac_parts(tb, False, key, msg, t)
        await cmac_parts(tb, True, key, msg, t)
        if i % 3 == 0:
            await cmac_parts(tb, True, key, msg, t, tamper=True)


@cocotb.test()
async def cocotb_parts_interleaved(dut) -> None:
    """Two GCM messages (different keys) interleaved part by part: software saves CTX
    after each FIRST/MIDDLE part and writes it back before the next."""
    from test_coproc import start

    tb = await start(dut, seed=83)
    rng = tb.rng
    msgs = []
    for n in range(2):
        key, iv = rng.randbytes(16 + 8 * n), rng.randbytes(12)
        aad, pt = rng.randbytes(16), rng.randbytes(64 + 7 * n)
        ct, tag = ossl.gcm(key, iv, pt, aad, 16)
        base = 0x800 * n
        tb.mem.data[SRC + base:SRC + base + len(pt)] = pt
        tb.mem.data[AAD + base:AAD + base + len(aad)] = aad
        msgs.append(dict(key=key, iv=iv, aad=aad, pt=pt, ct=ct, tag=tag, base=base,
                         ctx=bytes(32)))
    # parts: FIRST (AAD + 1 block), MIDDLE (2 blocks), LAST (the rest)
    cuts = [(Part.FIRST, 0, 16, 0, 16), (Part.MIDDLE, 16, 16, 16, 48),
            (Part.LAST, 16, 16, 48, None)]
    for code, a0, a1, p0, p1 in cuts:
        for m in msgs:
            p1m = len(m["pt"]) if p1 is None else p1
            await tb.set_key(m["key"])
            await tb.set_iv(m["iv"])
            await write_ctx(tb, m["ctx"])
            b = m["base"]
            err = await start_part(tb, Mode.GCM, False, code, len(m["key"]), src=SRC + b + p0,
                                   length=p1m - p0, dst=DST + b + p0, aad_addr=AAD + b + a0,
                                   aad_len=a1 - a0)
            assert err == 0, (code, err)
            m["ctx"] = await read_ctx(tb)
            if code != Part.LAST:
                assert m["ctx"] == gcm_context(m["key"], m["aad"], m["ct"][:p1m])
    for m in msgs:
        b = m["base"]
        n = len(m["pt"]) + 16
        assert bytes(tb.mem.data[DST + b:DST + b + n]) == m["ct"] + m["tag"]
        assert m["ctx"] == bytes(32)


@cocotb.test()
async def cocotb_parts_illegal(dut) -> None:
    """Every illegal part command: ERR_CODE 8, no bus access, CTX unchanged; the next
    job (a MIDDLE/LAST of the message the context holds) works."""
    from test_coproc import start

    tb = await start(dut, seed=84)
    rng = tb.rng
    key, iv = rng.randbytes(16), rng.randbytes(12)
    aad, pt = rng.randbytes(32), rng.randbytes(80)
    ct, tag = ossl.gcm(key, iv, pt, aad, 16)
    tb.mem.data[SRC:SRC + len(pt)] = pt
    tb.mem.data[AAD:AAD + len(aad)] = aad
    await tb.set_key(key)
    await tb.set_iv(iv)
    # a good FIRST part: the AAD and one payload block
    assert await start_part(tb, Mode.GCM, False, Part.FIRST, 16, src=SRC, length=16, dst=DST,
                            aad_len=32) == 0
    ctx = await read_ctx(tb)
    assert ctx == gcm_context(key, aad, ct[:16])

    def bad_ctx(**kw: int) -> bytes:
        y, blocks, a, p = ctx[:16], 1, 32, 16
        blocks, a, p = kw.get("blocks", blocks), kw.get("a", a), kw.get("p", p)
        return y + blocks.to_bytes(4, "big") + a.to_bytes(4, "big") + p.to_bytes(4, "big") \
            + bytes(4)

    G, C = Mode.GCM, Mode.CMAC
    cases = [
        # (name, mode, dec, part, len, aad_len, context written first or None)
        ("CTR with FIRST", Mode.CTR, False, Part.FIRST, 32, 0, None),
        ("ECB with LAST", Mode.ECB, False, Part.LAST, 32, 0, None),
        ("CCM with MIDDLE", Mode.CCM, False, Part.MIDDLE, 32, 0, None),
        ("XTS with FIRST", Mode.XTS, False, Part.FIRST, 32, 0, None),
        ("GCM FIRST of 17 bytes", G, False, Part.FIRST, 17, 0, None),
        ("GCM FIRST with 5 bytes of AAD", G, False, Part.FIRST, 16, 5, None),
        ("GCM FIRST empty", G, False, Part.FIRST, 0, 0, None),
        ("GCM MIDDLE empty", G, True, Part.MIDDLE, 0, 0, None),
        ("GCM MIDDLE of 33 bytes", G, True, Part.MIDDLE, 33, 0, None),
        ("GCM MIDDLE with AAD after payload", G, False, Part.MIDDLE, 16, 16, None),
        ("GCM LAST with AAD after payload", G, False, Part.LAST, 5, 3, None),
        ("GCM MIDDLE, context AAD bytes not whole blocks", G, False, Part.MIDDLE, 16, 0,
         bad_ctx(a=33)),
        ("GCM LAST, context payload bytes not whole blocks", G, False, Part.LAST, 16, 0,
         bad_ctx(p=20)),
        ("GCM LAST, context payload bytes not 16 x its blocks", G, False, Part.LAST, 16, 0,
         bad_ctx(blocks=2)),
        ("GCM MIDDLE, context payload bytes past 2^32", G, False, Part.MIDDLE, 16, 0,
         bad_ctx(blocks=0x0FFF_FFFF, p=0xFFFF_FFF0)),
        ("GCM MIDDLE, context AAD bytes past 2^32", G, False, Part.MIDDLE, 0, 16,
         bad_ctx(blocks=0, p=0, a=0xFFFF_FFF0)),
        ("CMAC FIRST of 20 bytes", C, False, Part.FIRST, 20, 0, None),
        ("CMAC FIRST empty", C, False, Part.FIRST, 0, 0, None),
        ("CMAC LAST empty", C, True, Part.LAST, 0, 0, None),
        ("GCM FIRST with a tag of 3 bytes", G, False, Part.FIRST, 16, 0, None),
    ]
    for name, code, dec, part, length, alen, cx in cases:
        if cx is not None:
            await write_ctx(tb, cx)
        before = await read_ctx(tb)
        reads, writes = tb.mem.reads, tb.mem.writes
        err = await start_part(tb, code, dec, part, 16, src=SRC, length=length, dst=DST + 0x1000,
                               aad_len=alen, tag_len=3 if "3 bytes" in name else 16)
        assert err == ERR["ILLEGAL"], f"{name}: ERR_CODE {err}"
        assert (tb.mem.reads, tb.mem.writes) == (reads, writes), f"{name}: bus access"
        assert await read_ctx(tb) == before, f"{name}: CTX changed"
        assert await read_tag(tb) == bytes(16)
    # the message goes on from the saved context: MIDDLE, then LAST
    await write_ctx(tb, ctx)
    assert await start_part(tb, G, False, Part.MIDDLE, 16, src=SRC + 16, length=32,
                            dst=DST + 16) == 0
    assert await start_part(tb, G, False, Part.LAST, 16, src=SRC + 48, length=32,
                            dst=DST + 48) == 0
    out = bytes(tb.mem.data[DST:DST + 96])
    assert out == ct + tag
    # a WHOLE job with CTRL.PART 0 ignores CTX (garbage there)
    await write_ctx(tb, rng.randbytes(32))
    await gcm_parts_whole(tb, key, iv, aad, pt)


@cocotb.test()
async def cocotb_parts_random(dut) -> None:
    """Random part commands (every part code, GCM and CMAC mostly, other modes too,
    lengths of whole blocks or not, consistent and garbage contexts, both directions):
    ERR_CODE 8 with no bus access and CTX unchanged exactly where
    aeskit.verif.parts.part_illegal says so; otherwise the job runs to its end (no
    hang): 0, or TAG for a LAST with a random received tag; a FIRST/MIDDLE part that
    passed leaves the counts plus its own in CTX (the state: the other tests)."""
    from test_coproc import start

    n = int(os.environ.get("AK_PARTS_RANDOM", "60"))
    tb = await start(dut, seed=87 + n)
    rng = tb.rng
    tb.mem.data[SRC:SRC + 0x400] = rng.randbytes(0x400)
    tb.mem.data[AAD:AAD + 0x100] = rng.randbytes(0x100)
    await tb.set_key(rng.randbytes(16))
    await tb.set_iv(rng.randbytes(12))
    modes = [Mode.GCM] * 5 + [Mode.CMAC] * 3 + [Mode.CTR, Mode.CCM, Mode.XTS, Mode.ECB]
    seen: dict[str, int] = {}
    for i in range(n):
        mode, part, dec = rng.choice(modes), rng.randint(1, 3), rng.random() < 0.4
        length = rng.choice((0, 16, 32, 64, 5, 20, 100))
        aad_len = rng.choice((0, 0, 16, 32, 7)) if mode == Mode.GCM else 0
        if rng.random() < 0.6:  # a consistent context (a few blocks so far)
            blocks, a = rng.randint(0, 4), 16 * rng.randint(0, 2)
            ctx = rng.randbytes(16) + blocks.to_bytes(4, "big") + a.to_bytes(4, "big") \
                + (16 * blocks).to_bytes(4, "big") + bytes(4)
        else:
            ctx = rng.randbytes(32)
        await write_ctx(tb, ctx)
        reads, writes = tb.mem.reads, tb.mem.writes
        err = await start_part(tb, mode, dec, part, 16, src=SRC, length=length,
                               dst=DST, aad_len=aad_len, iv_len=0)
        after = await read_ctx(tb)
        what = f"job {i}: mode {mode} part {part} dec {dec} len {length} aad {aad_len}"
        if part_illegal(mode, part, aad_len, length, ctx):
            assert err == ERR["ILLEGAL"], f"{what}: ERR_CODE {err}"
            assert (tb.mem.reads, tb.mem.writes) == (reads, writes), f"{what}: bus access"
            assert after == ctx, f"{what}: CTX changed"
            seen["illegal"] = seen.get("illegal", 0) + 1
        elif part == Part.LAST:
            assert err in (0, ERR["TAG"]) and (err == 0 or dec), f"{what}: ERR_CODE {err}"
            assert after == bytes(32), f"{what}: CTX after LAST"
            seen["last"] = seen.get("last", 0) + 1
        else:
            assert err == 0, f"{what}: ERR_CODE {err}"
            assert after[16:] == next_counts(mode, part, aad_len, length, ctx), \
                f"{what}: counts"
            seen["first/middle"] = seen.get("first/middle", 0) + 1
    # every kind happened (the draw above makes each likely)
    assert len(seen) == 3, seen


async def gcm_parts_whole(tb, key: bytes, iv: bytes, aad: bytes, pt: bytes) -> None:
    ct, tag = ossl.gcm(key, iv, pt, aad, 16)
    ctx = await read_ctx(tb)
    tb.mem.data[SRC:SRC + len(pt)] = pt
    tb.mem.data[AAD:AAD + len(aad)] = aad
    await tb.set_key(key)
    await tb.set_iv(iv)
    assert await start_part(tb, Mode.GCM, False, Part.WHOLE, len(key), src=SRC,
                            length=len(pt), dst=DST, aad_len=len(aad)) == 0
    assert bytes(tb.mem.data[DST:DST + len(pt) + 16]) == ct + tag
    assert await read_ctx(tb) == ctx, "a WHOLE job changed CTX"


@cocotb.test()
async def cocotb_parts_clear(dut) -> None:
    """CLEAR wipes CTX (registers and the job's copy): no word of the state (nor of the
    key) is left in any signal or memory of the system; the next message works."""
    from aeskit.verif.keywipe import key_words, scan

    from test_coproc import start

    tb = await start(dut, seed=85)
    rng = tb.rng
    key, iv = rng.randbytes(32), rng.randbytes(12)
    aad, pt = rng.randbytes(16), rng.randbytes(64)
    ct, _ = ossl.gcm(key, iv, pt, aad, 16)
    state = gcm_context(key, aad, ct[:32])[:16]
    words = {int.from_bytes(state[i:i + 4], o) for i in range(0, 16, 4)
             for o in ("big", "little")}
    baseline = scan(dut, words | key_words(key))
    tb.mem.data[SRC:SRC + len(pt)] = pt
    tb.mem.data[AAD:AAD + len(aad)] = aad
    await tb.set_key(key)
    await tb.set_iv(iv)
    assert await start_part(tb, Mode.GCM, False, Part.FIRST, 32, src=SRC, length=32, dst=DST,
                            aad_len=16) == 0
    assert (await read_ctx(tb))[:16] == state
    assert scan(dut, words) - baseline, "the state is not found before CLEAR"
    await tb.clear()
    assert await read_ctx(tb) == bytes(32), "CTX after CLEAR"
    assert int(dut.u_coproc.ctx_q.value) == 0
    left = sorted(scan(dut, words | key_words(key)) - baseline)
    assert not left, f"state or key words survived CLEAR: {left[:8]}"
    # CLEAR while a MIDDLE part runs: the part ends, then CLEAR wipes its new context
    await tb.set_key(key)
    await tb.set_iv(iv)
    assert await start_part(tb, Mode.GCM, False, Part.FIRST, 32, src=SRC, length=32, dst=DST,
                            aad_len=16) == 0
    irqs = tb.irqs
    await start_part(tb, Mode.GCM, False, Part.MIDDLE, 32, src=SRC + 32, length=32,
                     dst=DST + 32, wait=False)
    await tb.wr("CTRL", RM.value(CTRL__CLEAR=1, CTRL__IRQ_EN=1))
    code, _ = await tb.finish(irqs, clearing=True)
    assert code == 0
    for _ in range(1000):
        if RM.get(await tb.rd("STATUS"), "STATUS.BUSY") == 0:
            break
    assert await read_ctx(tb) == bytes(32) and int(dut.u_coproc.ctx_q.value) == 0
    assert bytes(tb.mem.data[DST:DST + 64]) == ct[:64]
    await gcm_parts(tb, False, key, iv, aad, pt, 16)


#: CYCLES (START to DONE) of parts on tbox_folded, AES-128, memory without pauses,
#: buffers on 64-byte boundaries, 12-byte IV, no AAD, 16-byte tags; each part of N
#: payload bytes; keys (mode, direction, part, N). Measured on 30 Nov 2026, asserted so
#: that a change shows. WHOLE is the figure of test_coproc_aead's AEAD_CYCLES.
PARTS_CYCLES: dict[tuple[str, str, str, int], int] = {
    ("gcm", "enc", "first", 64): 145, ("gcm", "enc", "middle", 64): 145,
    ("gcm", "enc", "last", 64): 151, ("gcm", "dec", "first", 64): 145,
    ("gcm", "dec", "middle", 64): 145, ("gcm", "dec", "last", 64): 211,
    ("cmac", "gen", "first", 64): 107, ("cmac", "gen", "middle", 64): 107,
    ("cmac", "gen", "last", 64): 127, ("cmac", "ver", "first", 64): 107,
    ("cmac", "ver", "middle", 64): 107, ("cmac", "ver", "last", 64): 116,
    ("gcm", "enc", "first", 512): 425, ("gcm", "enc", "middle", 512): 425,
    ("gcm", "enc", "last", 512): 431, ("gcm", "dec", "first", 512): 425,
    ("gcm", "dec", "middle", 512): 425, ("gcm", "dec", "last", 512): 771,
    ("cmac", "gen", "first", 512): 415, ("cmac", "gen", "middle", 512): 415,
    ("cmac", "gen", "last", 512): 435, ("cmac", "ver", "first", 512): 415,
    ("cmac", "ver", "middle", 512): 415, ("cmac", "ver", "last", 512): 424,
}
PARTS_SIZES = (64, 512)


@cocotb.test(skip=os.environ.get("AK_PARTS_CYCLES") is None)
async def cocotb_parts_cycles(dut) -> None:
    """CYCLES of WHOLE, FIRST, MIDDLE and LAST parts (PARTS_CYCLES), results checked."""
    import json

    from test_coproc import start

    tb = await start(dut, seed=86, pause_pct=0)
    rng = tb.rng
    got: dict[str, int] = {}
    key, iv = rng.randbytes(16), rng.randbytes(12)
    await tb.set_key(key)
    await tb.set_iv(iv)
    for n in PARTS_SIZES:
        pt = rng.randbytes(3 * n)
        ct, tag = ossl.gcm(key, iv, pt, b"", 16)
        mtag = ossl.cmac(key, pt, 16)
        for mode, code in (("gcm", Mode.GCM), ("cmac", Mode.CMAC)):
            for d in (("enc", "dec") if mode == "gcm" else ("gen", "ver")):
                dec = d in ("dec", "ver")
                src = (ct + tag) if (dec and mode == "gcm") else pt + (mtag if dec else b"")
                tb.mem.data[SRC:SRC + len(src)] = src
                for name, part, off in (("first", Part.FIRST, 0), ("middle", Part.MIDDLE, n),
                                        ("last", Part.LAST, 2 * n)):
                    irqs = tb.irqs
                    await start_part(tb, code, dec, part, 16, src=SRC + off, length=n,
                                     dst=DST + (0 if mode == "cmac" else off), wait=False)
                    err, cyc = await tb.finish(irqs)
                    assert err == 0, (mode, d, name, err)
                    got[f"{mode}-{d}-{name}-{n}"] = cyc
                if mode == "gcm":
                    want = pt if dec else ct + tag
                    assert bytes(tb.mem.data[DST:DST + len(want)]) == want, (mode, d, n)
                elif not dec:
                    assert bytes(tb.mem.data[DST:DST + 16]) == mtag, (mode, d, n)
    out = os.environ.get("AK_PARTS_CYCLES_OUT")
    if out:
        Path(out).write_text(json.dumps(got, indent=1))
    want_cycles = {f"{m}-{d}-{p}-{n}": c for (m, d, p, n), c in PARTS_CYCLES.items()}
    assert got == want_cycles, got


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str | list[str], env: dict | None = None) -> None:
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel=SYS_TOP, sources=system_files(DEFAULT_CORE),
               test_module="test_coproc_parts", test_dir=HERE, parameters={},
               testcase=testcase, extra_env=env or {}, seed=1)


def test_coproc_parts() -> None:
    """GCM and CMAC in parts, interleaved messages, illegal parts, CLEAR (the build of
    test_coproc.py)."""
    _run(["cocotb_parts_gcm", "cocotb_parts_cmac", "cocotb_parts_interleaved",
          "cocotb_parts_illegal", "cocotb_parts_clear", "cocotb_parts_random"])


@pytest.mark.slow
def test_coproc_parts_random_long() -> None:
    """make test-full: 2,000 random part commands (cocotb_parts_random)."""
    _run("cocotb_parts_random", env={"AK_PARTS_RANDOM": "2000"})


def test_coproc_parts_cycles() -> None:
    """The cycles of parts of docs/coproc.md (PARTS_CYCLES)."""
    _run("cocotb_parts_cycles", env={"AK_PARTS_CYCLES": "1"})
