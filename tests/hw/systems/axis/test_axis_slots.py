"""Key slots of ak_axis_core (issue 49: keys picked per packet, docs/axis_core.md "Key
slots") on ``ak_axis_sys`` as the registry builds it (``KeySlots`` = 4), driven by
cocotbext-axi (AxiStreamSource / AxiStreamSink with random pauses on tvalid and tready,
AxiLiteMaster with random pauses on its channels):

* random packets over random slots: every slot loaded with its own key (random sizes of
  the core, its own XTS tweak key), batches in ECB, CBC, CTR, CFB-128, OFB, GCM and XTS
  (both directions), packets of a batch back to back on random slots (``s_axis_tdest``),
  each output packet against ``cryptography`` (OpenSSL) with its slot's key, on the
  packet's slot (``m_axis_tdest``), with its input's beat count; slots reloaded between
  batches, and a slot whose key is not in the core reloaded while a batch streams;
* a packet on an empty slot: ERROR.NO_KEY, closed by one tuser beat on that slot, the
  next packet right; LOAD_KEY with a refused KEY_LEN leaves the slot as it was;
  ``SLOTS`` (VALID, CORE) as documented; reset empties every slot;
* exact switch cycles without pauses: the latency of a packet on the slot in the core
  and of one on another slot (first input beat taken -> first output beat valid), per
  core, mode and key size, asserted against :data:`SWITCH`.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, with_timeout

from aeskit.hw.codes import Mode
from aeskit.verif.axil_regs import AxilRegs, stream_bfms

HERE = Path(__file__).resolve().parent
RDL = HERE.parents[3] / "hw" / "systems" / "axis" / "axis_core.rdl"

#: the modes the random test rotates through (codes from the one table)
MODES = {m.name.lower(): int(m) for m in Mode
         if m <= Mode.OFB or m in (Mode.GCM, Mode.XTS)}
KEY_LEN = {16: 0, 24: 1, 32: 2}
SLOTS = 4

#: exact cycles without pauses (AES-128 / AES-256; docs/axis_core.md "Key slots"), per
#: core and mode: [latency on the core's slot, latency on another slot]; latency = first
#: input beat taken -> first output beat valid
SWITCH: dict[str, dict[str, list[int]]] = {
    "round": {"ecb-128": [17, 24], "ecb-256": [21, 32], "gcm-128": [35, 44],
              "gcm-256": [47, 60]},
    "pipe2": {"ecb-128": [27, 34], "ecb-256": [35, 46], "gcm-128": [47, 56],
              "gcm-256": [63, 76]},
    "ttable_unrolled": {"ecb-128": [90, 143], "gcm-128": [173, 228]},
}


# ----------------------------------------------------------------------------------
# expected values (cryptography only)
# ----------------------------------------------------------------------------------
def cipher(key: bytes, k2: bytes, mode: str, dec: bool, iv: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    from cryptography.hazmat.primitives.ciphers import modes as cm

    try:  # CFB and OFB moved to the "decrepit" package (cryptography >= 47)
        from cryptography.hazmat.decrepit.ciphers import modes as old
    except ImportError:  # pragma: no cover - older cryptography
        old = cm
    if mode == "xts":
        c = Cipher(algorithms.AES(key + k2[:len(key)]), cm.XTS(iv))
    else:
        m = {"ecb": lambda: cm.ECB(), "cbc": lambda: cm.CBC(iv), "ctr": lambda: cm.CTR(iv),
             "cfb": lambda: old.CFB(iv), "ofb": lambda: old.OFB(iv)}[mode]()
        c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if dec else c.encryptor()
    return op.update(data) + op.finalize()


def beats(data: bytes) -> list[bytes]:
    return [data[i:i + 16] for i in range(0, len(data), 16)]


def frame_of(parts: list[bytes], dest: int) -> Any:
    """One packet on slot ``dest``: each part (AAD, payload, tag) from a fresh beat, its
    last beat partial (tkeep lanes 0..n-1)."""
    from cocotbext.axi import AxiStreamFrame

    data, keep = b"", []
    for p in parts:
        for bt in beats(p):
            data += bt.ljust(16, b"\0")
            keep += [1] * len(bt) + [0] * (16 - len(bt))
    return AxiStreamFrame(data, tkeep=keep, tdest=dest)


class Slot:
    """A slot's key as software loaded it."""

    def __init__(self, key: bytes, k2: bytes) -> None:
        self.key, self.k2 = key, k2


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
class Bench(AxilRegs):
    """cocotbext-axi BFMs on ak_axis_sys, a beat monitor on both streams, the slots."""

    ACCESS_TIMEOUT_US = 50

    def __init__(self, dut: Any, seed: int, pct: int) -> None:
        from aeskit.gen.regs import layout

        self.dut = dut
        self.rng = random.Random(seed)
        lay = layout(RDL)
        self.addr, self.bits = lay.addr, lay.field
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        self.src, self.sink, self.axil = stream_bfms(dut)
        self.set_pauses(pct)
        self.slots: dict[int, Slot] = {}
        self.cycle = 0
        self.in_beats: list[tuple[int, int, bool]] = []     # (cycle, tdest, tlast)
        self.out_beats: list[tuple[int, int, bool, int]] = []  # (cycle, tdest, tlast, tuser)
        self.violations: list[str] = []
        self.record: list[dict[str, int]] | None = None  # per-cycle samples (a diagram)
        cocotb.start_soon(self._monitor())

    def set_pauses(self, pct: int) -> None:
        from aeskit.verif.busfuzz import pauses

        r = self.rng
        gen = (lambda: pauses(random.Random(r.random()), pct)) if pct else (lambda: None)
        self.src.set_pause_generator(gen())
        self.sink.set_pause_generator(gen())
        for ch in (self.axil.write_if.aw_channel, self.axil.write_if.w_channel,
                   self.axil.write_if.b_channel, self.axil.read_if.ar_channel,
                   self.axil.read_if.r_channel):
            ch.set_pause_generator(gen())

    async def _monitor(self) -> None:
        d = self.dut
        held = None
        while True:
            await RisingEdge(d.clk_i)
            self.cycle += 1
            if not int(d.rst_ni.value):
                held = None
                continue
            if int(d.s_axis_tvalid.value) and int(d.s_axis_tready.value):
                self.in_beats.append((self.cycle, int(d.s_axis_tdest.value),
                                      bool(int(d.s_axis_tlast.value))))
            mv, mr = int(d.m_axis_tvalid.value), int(d.m_axis_tready.value)
            now = (int(d.m_axis_tdata.value), int(d.m_axis_tkeep.value),
                   int(d.m_axis_tlast.value), int(d.m_axis_tuser.value),
                   int(d.m_axis_tdest.value))
            if held is not None and (not mv or now != held):
                self.violations.append(f"m_axis changed while stalled at cycle {self.cycle}")
            held = now if (mv and not mr) else None
            if mv and mr:
                self.out_beats.append((self.cycle, now[4], bool(now[2]), now[3]))
            if self.record is not None:
                a = d.u_axis
                self.record.append({
                    "s_tvalid": int(d.s_axis_tvalid.value), "s_tready": int(d.s_axis_tready.value),
                    "s_tdest": int(d.s_axis_tdest.value), "s_tlast": int(d.s_axis_tlast.value),
                    "state": int(a.st_q.value), "key_valid": int(a.core_key_valid_o.value),
                    "key_ready": int(a.core_key_ready_i.value),
                    "core_slot": int(a.core_slot_q.value),
                    "in_valid": int(a.core_in_valid_o.value),
                    "m_tvalid": mv, "m_tdest": now[4], "m_tlast": now[2]})

    def packets_seen(self, beats_: list) -> list[list]:
        pkts: list[list] = [[]]
        for b in beats_:
            pkts[-1].append(b)
            if b[2]:
                pkts.append([])
        return [p for p in pkts if p]

    async def reset(self) -> None:
        self.dut.s_axis_tdest.value = 0
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.dut.clk_i, 2)
        self.slots = {}
        self.in_beats, self.out_beats = [], []

    async def wait_key(self) -> None:
        for _ in range(2000):
            if not self.field(await self.read("STATUS"), "STATUS.KEY_BUSY"):
                return
        raise AssertionError("LOAD_KEY never finished")

    async def load_slot(self, slot: int, key: bytes, k2: bytes, ctrl: int = 0,
                        len_code: int | None = None) -> None:
        """KEY, TWEAK_KEY, then CTRL = ``ctrl`` (the running configuration) with KEY_LEN,
        KEY_SLOT and LOAD_KEY; wait for KEY_BUSY = 0."""
        await self.write_block("KEY", key.ljust(32, b"\0"))
        await self.write_block("TWEAK_KEY", k2.ljust(32, b"\0"))
        code = KEY_LEN[len(key)] if len_code is None else len_code
        await self.write("CTRL", ctrl | self.f("CTRL.KEY_LEN", code)
                         | self.f("CTRL.KEY_SLOT", slot) | self.f("CTRL.LOAD_KEY"))
        await self.wait_key()
        if len_code is None:
            self.slots[slot] = Slot(key, k2)

    def ctrl_of(self, mode: str, dec: bool) -> int:
        code = MODES[mode]
        return (self.f("CTRL.MODE", code & 7) | self.f("CTRL.MODE_HI", code >> 3)
                | self.f("CTRL.DECRYPT", int(dec)))

    async def config(self, mode: str, dec: bool, iv: bytes, p: int = 0, a: int = 0,
                     t: int = 16) -> int:
        await self.write_block("IV", iv)
        await self.write("LEN", self.f("LEN.PAYLOAD", p) | self.f("LEN.AAD", a)
                         | self.f("LEN.TAG", t))
        ctrl = self.ctrl_of(mode, dec)
        await self.write("CTRL", ctrl)
        return ctrl

    async def packets(self, frames: list, limit_us: float = 3000) -> list:
        """Send ``frames`` back to back, return the output frames."""
        for fr in frames:
            await self.src.send(fr)
        out = []
        for _ in frames:
            out.append(await with_timeout(self.sink.recv(), limit_us, "us"))
        await with_timeout(self.src.wait(), limit_us, "us")
        assert self.sink.empty(), "more output packets than input packets"
        return out


def _key_sizes() -> list[int]:
    return [int(s) // 8 for s in os.environ.get("AK_KEY_SIZES", "128").split(",")]


def case(b: Bench, rng: random.Random, mode: str, dec: bool, iv: bytes, slot: int,
         p: int, a: int, t: int) -> tuple[Any, bytes]:
    """(input frame, expected compacted output bytes) of one packet on ``slot``."""
    from aeskit.verif import ossl

    s = b.slots[slot]
    if mode == "gcm":
        pt, aad = rng.randbytes(p), rng.randbytes(a)
        ct, tag = ossl.gcm(s.key, iv[:12], pt, aad, t)
        if dec:
            return frame_of([aad, ct, tag], slot), pt
        return frame_of([aad, pt], slot), ct + tag
    data = rng.randbytes(p)
    return frame_of([data], slot), cipher(s.key, s.k2, mode, dec, iv, data)


def check_out(b: Bench, frames: list, outs: list, wants: list[bytes], what: Any) -> None:
    for i, (fr, o, w) in enumerate(zip(frames, outs, wants)):
        assert o.tdata == w, (what, i, o.tdata.hex(), w.hex())
        assert o.tdest == fr.tdest, (what, i, "tdest", o.tdest, fr.tdest)
        assert not any(o.tuser or [0]), (what, i, "tuser")
    assert not b.violations, b.violations[:3]


#: ak_axis_core's states (st_e), for the diagram
STATES = ["Idle", "Cmd", "Run", "Drop", "Close", "ACmd", "ARun", "AFin", "HRel", "Key"]


def wavedrom(rec: list[dict[str, int]]) -> dict:
    """WaveDrom JSON of the recorded cycles (docs/timing/axis_slots.json)."""
    def wave(key: str, bit: bool = True, names: list[str] | None = None) -> dict:
        w, data, last = "", [], None
        for r in rec:
            v = r[key]
            if v == last:
                w += "."
            elif bit:
                w += str(v)
            else:
                w += "="
                data.append(names[v] if names else str(v))
            last = v
        out: dict[str, Any] = {"name": key.split("_", 1)[-1] if key[1] == "_" else key,
                               "wave": w}
        if data:
            out["data"] = data
        return out

    return {"signal": [
        {"name": "clk_i", "wave": "p" + "." * (len(rec) - 1)},
        ["s_axis", wave("s_tvalid"), wave("s_tready"), wave("s_tdest", False),
         wave("s_tlast")],
        {"name": "state", **{k: v for k, v in wave("state", False, STATES).items()
                             if k != "name"}},
        {"name": "core_slot", **{k: v for k, v in wave("core_slot", False).items()
                                 if k != "name"}},
        ["core", {"name": "key_valid", "wave": wave("key_valid")["wave"]},
         {"name": "key_ready", "wave": wave("key_ready")["wave"]},
         {"name": "in_valid", "wave": wave("in_valid")["wave"]}],
        ["m_axis", wave("m_tvalid"), wave("m_tdest", False), wave("m_tlast")],
    ], "head": {"text": "ak_axis_sys on pipe2: an ECB packet (4 beats, AES-128) on slot 1 "
                        "while slot 0 is in the core"}}


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_slots_random(dut: Any) -> None:
    """Random packets over random slots, random pauses, reloads between and during
    batches."""
    seed = int(os.environ.get("AK_SEED", "1"))
    n_batches = int(os.environ.get("AK_BATCHES", "28"))
    b = Bench(dut, seed, 25)
    await b.reset()
    rng = b.rng
    sizes = _key_sizes()
    for s in range(SLOTS):
        await b.load_slot(s, rng.randbytes(rng.choice(sizes)), rng.randbytes(32))
    xts_ok = [k for k in sizes if k != 24]
    switches = reloads_live = 0
    order = list(MODES)
    rng.shuffle(order)
    for n in range(n_batches):
        mode = order[n % len(order)]  # every mode as often
        dec = bool(rng.getrandbits(1))
        iv = rng.randbytes(16)
        if mode == "xts":  # XTS-AES keys are 128 or 256 bits: the slots with such a key
            for s, sl in b.slots.items():
                if len(sl.key) == 24:
                    await b.load_slot(s, rng.randbytes(rng.choice(xts_ok)), rng.randbytes(32))
        p = rng.randint(16 if mode == "xts" else 1, 80)
        a = rng.randint(0, 40) if mode == "gcm" else 0
        t = rng.randint(4, 16)
        ctrl = await b.config(mode, dec, iv, p, a, t)
        k = rng.randint(1, 4)
        slots = [rng.randrange(SLOTS) for _ in range(k)]
        frames, wants = [], []
        for s in slots:
            if mode in ("ecb", "cbc"):
                p = 16 * rng.randint(1, 5)
            elif mode not in ("gcm", "xts"):
                p = rng.randint(1, 80)
            fr, w = case(b, rng, mode, dec, iv, s, p, a, t)
            frames.append(fr)
            wants.append(w)
        switches += sum(x != y for x, y in zip(slots, slots[1:]))
        b.in_beats, b.out_beats = [], []
        live = None
        if rng.random() < 0.3:
            # a slot no packet of the batch uses, reloaded while the batch streams
            free = [s for s in range(SLOTS) if s not in slots]
            if free:
                live = rng.choice(free)
        task = cocotb.start_soon(b.packets(frames))
        if live is not None:
            key = rng.randbytes(rng.choice(xts_ok if mode == "xts" else sizes))
            await b.load_slot(live, key, rng.randbytes(32), ctrl)
            reloads_live += 1
        outs = await task
        check_out(b, frames, outs, wants, (n, mode, dec, slots, p, a, t))
        ins, ous = b.packets_seen(b.in_beats), b.packets_seen(b.out_beats)
        assert len(ins) == len(ous) == k, (n, len(ins), len(ous))
        for s, pi, po in zip(slots, ins, ous):
            assert pi[0][1] == s and all(x[1] == s for x in po), (n, "tdest", s)
            want_n = len(pi) + (1 if mode == "gcm" and not dec else 0) - \
                (((a + 15) // 16 + (1 if dec else 0)) if mode == "gcm" else 0)
            assert len(po) == want_n, (n, mode, dec, len(pi), len(po))
        assert await b.read("ERROR") == 0, (n, mode, dec)
        if rng.random() < 0.3:  # a reload between batches
            s = rng.randrange(SLOTS)
            await b.load_slot(s, rng.randbytes(rng.choice(sizes)), rng.randbytes(32))
    slots_reg = await b.read("SLOTS")
    assert b.field(slots_reg, "SLOTS.VALID") == (1 << SLOTS) - 1
    assert switches >= n_batches // 3, switches
    dut._log.info("cocotb_slots_random: %d batches, %d switches within a batch, %d live "
                  "reloads", n_batches, switches, reloads_live)


@cocotb.test()
async def cocotb_slots_errors(dut: Any) -> None:
    """Empty slot (NO_KEY, then a right packet), refused KEY_LEN, SLOTS, reset."""
    b = Bench(dut, 11, 20)
    await b.reset()
    rng = b.rng
    sizes = _key_sizes()
    st = await b.read("SLOTS")
    assert st == 0, hex(st)  # no slot valid, slot 0 in the core (no key)
    key0, key2 = rng.randbytes(sizes[0]), rng.randbytes(sizes[-1])
    await b.load_slot(0, key0, bytes(32))
    await b.load_slot(2, key2, bytes(32))
    st = await b.read("SLOTS")
    assert b.field(st, "SLOTS.VALID") == 0b0101 and b.field(st, "SLOTS.CORE") == 0, hex(st)
    iv = rng.randbytes(16)
    await b.config("ctr", False, iv)
    data = [rng.randbytes(40) for _ in range(3)]
    frames = [frame_of([data[0]], 1), frame_of([data[1]], 2), frame_of([data[2]], 3)]
    outs = await b.packets(frames)
    # slot 1 and 3 empty: the whole packet dropped, one zero beat, tuser, on its slot
    for i in (0, 2):
        assert outs[i].tdata == bytes(16) and outs[i].tuser == 1, (i, outs[i])
        assert outs[i].tdest == frames[i].tdest, (i, outs[i].tdest)
    assert outs[1].tdata == cipher(key2, b"", "ctr", False, iv, data[1])
    assert outs[1].tdest == 2 and not outs[1].tuser
    assert await b.read("ERROR") == b.f("ERROR.NO_KEY")
    await b.write("ERROR", 0xFFFFFFFF)
    st = await b.read("SLOTS")
    assert b.field(st, "SLOTS.CORE") == 2, hex(st)
    assert b.field(await b.read("STATUS"), "STATUS.KEY_VALID") == 1
    # a refused KEY_LEN: the slot keeps its key (its packet still right)
    ctr = b.ctrl_of("ctr", False)  # the running configuration, kept by every LOAD_KEY
    await b.load_slot(2, rng.randbytes(16), bytes(32), ctr, len_code=3)
    assert await b.read("ERROR") == b.f("ERROR.KEY_LEN")
    await b.write("ERROR", 0xFFFFFFFF)
    await b.load_slot(1, rng.randbytes(16), bytes(32), ctr, len_code=3)
    assert b.field(await b.read("SLOTS"), "SLOTS.VALID") == 0b0101
    assert await b.read("ERROR") == b.f("ERROR.KEY_LEN")
    await b.write("ERROR", 0xFFFFFFFF)
    d = rng.randbytes(33)
    outs = await b.packets([frame_of([d], 2), frame_of([d], 0)])
    assert outs[0].tdata == cipher(key2, b"", "ctr", False, iv, d)
    assert outs[1].tdata == cipher(key0, b"", "ctr", False, iv, d)
    # reload the slot in the core between packets, and another one
    key0 = rng.randbytes(sizes[-1])
    await b.load_slot(0, key0, bytes(32), ctr)
    key2 = rng.randbytes(sizes[0])
    await b.load_slot(2, key2, bytes(32), ctr)
    outs = await b.packets([frame_of([d], 0), frame_of([d], 2)])
    assert outs[0].tdata == cipher(key0, b"", "ctr", False, iv, d)
    assert outs[1].tdata == cipher(key2, b"", "ctr", False, iv, d)
    assert await b.read("ERROR") == 0
    if 24 in sizes:  # XTS on a slot with a 192-bit key: ERROR.MODE, on that slot only
        await b.load_slot(3, rng.randbytes(24), bytes(32), ctr)
        await b.config("xts", False, iv, 32)
        outs = await b.packets([frame_of([d[:32]], 3), frame_of([d[:32]], 0)])
        assert outs[0].tuser == 1 and await b.read("ERROR") == b.f("ERROR.MODE")
        assert outs[1].tdata == cipher(key0, bytes(32), "xts", False, iv, d[:32])
        await b.write("ERROR", 0xFFFFFFFF)
    # reset: every slot empty, no key in the core
    await b.reset()
    assert b.field(await b.read("SLOTS"), "SLOTS.VALID") == 0
    assert b.field(await b.read("STATUS"), "STATUS.KEY_VALID") == 0
    await b.config("ecb", False, iv)
    (o,) = await b.packets([frame_of([bytes(16)], 2)])
    assert o.tuser == 1 and await b.read("ERROR") == b.f("ERROR.NO_KEY")
    assert not b.violations, b.violations[:3]


@cocotb.test()
async def cocotb_slots_timing(dut: Any) -> None:
    """No pauses: the latency of a packet on the core's slot and on another slot (a key
    switch), per mode and key size; written to AK_SWITCH_OUT, asserted against
    AK_SWITCH_WANT when given."""
    b = Bench(dut, 5, 0)
    await b.reset()
    rng = b.rng
    res: dict[str, list[int]] = {}
    for size in sorted({_key_sizes()[0], _key_sizes()[-1]}):
        for s in (0, 1):
            await b.load_slot(s, rng.randbytes(size), rng.randbytes(32))
        for mode in ("ecb", "gcm"):
            iv = rng.randbytes(16)
            p, a = 64, (16 if mode == "gcm" else 0)
            await b.config(mode, False, iv, p, a, 16)
            lat = []
            # a packet on slot 0 (whose key is then in the core), one more on slot 0,
            # then one on slot 1: the switch; each alone (the previous one out)
            wave = os.environ.get("AK_WAVE_OUT") if (mode, size) == ("ecb", 16) else None
            for s in (0, 0, 1):
                fr, w = case(b, rng, mode, False, iv, s, p, a, 16)
                b.in_beats, b.out_beats = [], []
                if wave and s == 1:
                    b.record = []
                (o,) = await b.packets([fr])
                if b.record is not None:
                    await ClockCycles(dut.clk_i, 2)
                    Path(wave).write_text(json.dumps(wavedrom(b.record), indent=1) + "\n")
                    b.record = None
                check_out(b, [fr], [o], [w], (mode, size, s))
                lat.append(b.out_beats[0][0] - b.in_beats[0][0])
            res[f"{mode}-{8 * size}"] = lat[1:]
            dut._log.info("switch %s-%d: latency %d on the core's slot, %d on another",
                          mode, 8 * size, *lat[1:])
    out = os.environ.get("AK_SWITCH_OUT")
    if out:
        Path(out).write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")
    want = os.environ.get("AK_SWITCH_WANT")
    if want:
        assert res == json.loads(want), (res, want)


# ----------------------------------------------------------------------------------
# pytest
# ----------------------------------------------------------------------------------
def _run(core: str, testcase: str | list[str], env: dict | None = None, seed: int = 1) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.hw.systems.axis import KEY_SLOTS, system_files
    from aeskit.sim.cocotb_run import run_cocotb

    assert KEY_SLOTS == SLOTS
    spec = get_core(core)
    # the build of test_axis_core.py (the same sources: one Verilator build)
    files = system_files(spec, BUILD_ROOT / "axis_sys_src" / core)
    run_cocotb(toplevel="ak_axis_sys", sources=files, test_module=Path(__file__).stem,
               test_dir=HERE, parameters={}, testcase=testcase, seed=seed,
               includes=spec.include_paths(),
               extra_env={"AK_KEY_SIZES": ",".join(map(str, spec.key_sizes)),
                          "AK_SWITCH_WANT": json.dumps(SWITCH[core]) if core in SWITCH
                          else "", **(env or {})})


def test_axis_slots() -> None:
    """pipe2 (make test): random packets over 4 slots, errors, exact switch cycles."""
    _run("pipe2", ["cocotb_slots_random", "cocotb_slots_errors", "cocotb_slots_timing"])


@pytest.mark.slow
@pytest.mark.parametrize("core", ("round", "ttable_unrolled"))
def test_axis_slots_slow_cores(core: str) -> None:
    _run(core, ["cocotb_slots_random", "cocotb_slots_errors", "cocotb_slots_timing"])


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 5))
def test_axis_slots_random_long(seed: int) -> None:
    _run("pipe2", "cocotb_slots_random", {"AK_SEED": str(seed), "AK_BATCHES": "120"},
         seed=seed)
