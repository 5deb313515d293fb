"""ak_cipher_ahb (paper 001's cipher top: AHB-Lite, registers, FIFOs, mode engine, pipe2)
end to end from an AHB master of cocotbext-ahb, on Verilator.

The bench top (hw/bench/cipher_ahb_tb/tb_cipher_ahb.sv) is a small AHB-Lite interconnect: the cipher and a
dummy slave that stretches its data phases at random (so the cipher sees HREADY low
with its next address phase on the bus). The "software" here is the sequence of
docs/cipher_ahb.md: key, REKEY, IV / lengths, LOAD_IV, then blocks through the
DATA_IN / DATA_OUT windows while polling STATUS, then DONE / PASS / ERROR.

* every mode (ECB, CBC, CTR, CFB-128, OFB, CCM), both directions, 128/192/256-bit
  keys, against `cryptography` (independent of aeskit); random IDLE cycles, BUSY
  cycles and dummy-slave wait states between and around the transfers, pipelined
  (back-to-back) block writes, back-pressure (the reader falls behind until the FIFOs
  and the engine are full, writes that wait for FIFO room); a monitor counts each of
  these situations and the test fails if one never happened;
* CCM decryption with a wrong tag: no plaintext readable (OUT_AVAIL stays 0, a read of
  DATA_OUT ends in an AHB ERROR), STATUS.PASS0 = 0, ERROR.TAG_FAIL set, interrupt;
* two interleaved streams (INTERLEAVE = 1), and stream 1 refused without it; a key
  change while a stream is busy (REKEY waits, a later command waits for the key);
* illegal accesses: unmapped addresses, read of KEY / DATA_IN, write of STATUS /
  DATA_OUT, byte and halfword transfers, unaligned addresses, a read of an empty
  DATA_OUT window (wait limit): each gets the two-cycle ERROR response, sets
  ERROR.BUS_ERROR, and the next transfer works;
* the CCM decryption longer than the output FIFO is refused (ERROR.CMD_REJECT); an
  illegal mode ends with ERROR.CMD_ILLEGAL; the DONE interrupt;
* reset with both streams mid-message: registers back at reset, then new messages work.

Register addresses and bit positions come from cipher_ahb.rdl (compiled here with
systemrdl-compiler), not from the RTL. The file is both the pytest module and the
cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge, RisingEdge

from aeskit.hw.codes import Mode

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent
RDL = ROOT / "hw" / "systems" / "cipher_ahb" / "cipher_ahb.rdl"
#: FifoDepth of the build (the cocotb side gets it through the environment)
FIFO_DEPTH = int(os.environ.get("AK_FIFO_DEPTH", "2"))
WAIT_LIMIT = 96
DUMMY = 0x1000  # the dummy slave of the bench

#: the modes the system runs (CTRL.MODE 0..5)
MODE_CODE = {m.name.lower(): int(m) for m in Mode if m <= Mode.CCM}
KEY_LEN = {16: 0, 24: 1, 32: 2}


# ----------------------------------------------------------------------------------
# register map from the one description
# ----------------------------------------------------------------------------------
def regmap() -> tuple[dict[str, int], dict[str, int]]:
    """({register: byte address}, {"REG.FIELD": lsb}) from cipher_ahb.rdl."""
    from aeskit.gen.regs import layout

    lay = layout(RDL)
    return lay.addr, {k: lsb for k, (lsb, _w) in lay.field.items()}


# ----------------------------------------------------------------------------------
# expected results, from `cryptography` only
# ----------------------------------------------------------------------------------
def expected(m: dict) -> tuple[list[bytes], bool]:
    """Output beats (16 bytes each, zero-padded) and the pass bit."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms
    from cryptography.hazmat.primitives.ciphers import modes as cm
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    key, mode, dec, data = m["key"], m["mode"], m["dec"], m["data"]
    if mode == "ccm":
        aes = AESCCM(key, tag_length=m["tag_len"])
        if dec:
            try:
                out = aes.decrypt(m["iv"], data + m["tag"], m["aad"] or None)
            except InvalidTag:
                return [], False
        else:
            out = aes.encrypt(m["iv"], data, m["aad"] or None)
            ct, tag = out[:len(data)], out[len(data):]
            return _pad(ct) + _pad(tag), True
        return _pad(out), True
    cm_mode = {"ecb": lambda: cm.ECB(), "cbc": lambda: cm.CBC(m["iv"]),
               "ctr": lambda: cm.CTR(m["iv"]), "cfb": lambda: cm.CFB(m["iv"]),
               "ofb": lambda: cm.OFB(m["iv"])}[mode]()
    c = Cipher(algorithms.AES(key), cm_mode)
    op = c.decryptor() if dec else c.encryptor()
    return _pad(op.update(data) + op.finalize()), True


def _pad(b: bytes) -> list[bytes]:
    return [b[i:i + 16].ljust(16, b"\0") for i in range(0, len(b), 16)]


def in_beats(m: dict) -> list[bytes]:
    beats = (_pad(m["aad"]) if m["mode"] == "ccm" else []) + _pad(m["data"])
    if m["mode"] == "ccm" and m["dec"]:
        beats.append(m["tag"].ljust(16, b"\0"))
    return beats


def random_message(rng: random.Random, key: bytes, mode: str, dec: bool,
                   max_blocks: int = 4) -> dict:
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    n = rng.randint(0, 16 * max_blocks)
    if mode in ("ecb", "cbc"):
        n -= n % 16
    m = {"key": key, "mode": mode, "dec": dec, "data": rng.randbytes(n),
         "iv": rng.randbytes(16), "aad": b"", "tag_len": 8, "tag": b""}
    if mode == "ccm":
        m["iv"] = rng.randbytes(rng.randint(7, 13))
        m["tag_len"] = rng.choice([4, 6, 8, 10, 12, 14, 16])
        m["aad"] = rng.randbytes(rng.choice([0, 1, 14, 15, 16, 30]))
        if dec:
            ref = AESCCM(key, tag_length=m["tag_len"]).encrypt(m["iv"], m["data"],
                                                               m["aad"] or None)
            m["data"], m["tag"] = ref[:n], ref[n:]
    return m


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
class Bench:
    """The software side: an AHBLiteMaster plus random IDLE/BUSY gaps and dummy-slave
    traffic between transfers; checks every response that must be OKAY."""

    def __init__(self, dut, seed: int, *, gaps: bool = True) -> None:
        from cocotbext.ahb import AHBBus, AHBLiteMaster

        self.dut = dut
        self.rng = random.Random(seed)
        self.gaps = gaps
        self.addr, self.bit = regmap()
        self.ahb = AHBLiteMaster(AHBBus.from_prefix(dut, "ahb"), dut.clk_i, dut.rst_ni,
                                 timeout=4 * WAIT_LIMIT + 100, def_val=0)
        self.cov = {"hold_wait": 0, "engine_backpressure": 0, "addr_phase_hready_low": 0,
                    "busy": 0, "dummy_wait": 0, "pipelined": 0}

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        cocotb.start_soon(self._dummy_waits())
        cocotb.start_soon(self._cover())
        d.tb_wait_i.value = 0
        d.rst_ni.value = 0
        await ClockCycles(d.clk_i, 3)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)

    async def _dummy_waits(self) -> None:
        while True:
            await FallingEdge(self.dut.clk_i)
            self.dut.tb_wait_i.value = int(self.rng.random() < 0.5)

    async def _cover(self) -> None:
        """Count the situations the random traffic is meant to create, so a test can
        assert that it did create them."""
        d, u = self.dut, self.dut.u_dut
        while True:
            await FallingEdge(d.clk_i)
            if not int(d.rst_ni.value):
                continue
            if int(u.xfer.value) and int(u.hold.value):
                self.cov["hold_wait"] += 1
            if int(u.e_out_valid.value) & ~int(u.e_out_ready.value) & 3:
                self.cov["engine_backpressure"] += 1
            trans = int(d.ahb_htrans.value)
            addr = int(d.ahb_haddr.value)
            if trans >= 2 and not addr & DUMMY and not int(d.ahb_hready.value):
                self.cov["addr_phase_hready_low"] += 1
            if trans == 1:
                self.cov["busy"] += 1
            if int(d.dsel_q.value) and int(d.dact_q.value) and not int(d.ahb_hready.value):
                self.cov["dummy_wait"] += 1

    def check_cover(self, skip: tuple[str, ...] = ()) -> None:
        missing = [k for k, v in self.cov.items() if v == 0 and k not in skip]
        assert not missing, f"random traffic never created: {missing} ({self.cov})"

    def f(self, name: str, value: int = 1) -> int:
        """A field value shifted into place (``f("CTRL.MODE", 5)``)."""
        return value << self.bit[name]

    def has(self, word: int, name: str) -> bool:
        return bool((word >> self.bit[name]) & 1)

    async def gap(self) -> None:
        """Random bus activity that is not for the cipher: IDLE cycles, BUSY cycles
        (a slave must answer them with a zero-wait OKAY and do nothing), a read of the
        dummy slave (wait states) pipelined with nothing."""
        if not self.gaps:
            return
        r = self.rng.random()
        d = self.dut
        if r < 0.25:
            await ClockCycles(d.clk_i, self.rng.randint(1, 3))      # IDLE
        elif r < 0.40:
            d.ahb_haddr.value = self.rng.choice(list(self.addr.values()))
            d.ahb_hwrite.value = self.rng.randint(0, 1)
            d.ahb_hsize.value = 2
            d.ahb_htrans.value = 1                                   # BUSY
            await ClockCycles(d.clk_i, self.rng.randint(1, 2))
            d.ahb_htrans.value = 0
            d.ahb_hwrite.value = 0
        elif r < 0.50:
            # dummy read pipelined with a read of the cipher: the cipher's address
            # phase waits on the bus while the dummy stretches its data phase
            # (a write: its data must be taken in its own data phase, not earlier;
            # IV3 is put back afterwards)
            da = DUMMY + 4 * self.rng.randint(0, 15)
            iv3 = self.addr["IV3"]
            old = int((await self.ahb.read(iv3))[0]["data"], 16)
            v = self.rng.getrandbits(32)
            rsp = await self.ahb.custom([da, iv3], [0, v], [0, 1], pip=True)
            assert [int(x["resp"]) for x in rsp] == [0, 0], rsp
            assert int(rsp[0]["data"], 16) == 0xD00D0000 | da, rsp
            got = int((await self.ahb.read(iv3))[0]["data"], 16)
            assert got == v, f"IV3 = 0x{got:x} after writing 0x{v:x} behind a waiting slave"
            await self.ahb.write(iv3, old)

    async def write(self, reg: str | int, value: int, *, ok: bool = True) -> int:
        await self.gap()
        a = self.addr[reg] if isinstance(reg, str) else reg
        rsp = await self.ahb.write(a, value)
        resp = int(rsp[0]["resp"])
        if ok:
            assert resp == 0, f"write 0x{a:x}: ERROR response"
        return resp

    async def read(self, reg: str | int, *, ok: bool = True) -> tuple[int, int]:
        await self.gap()
        a = self.addr[reg] if isinstance(reg, str) else reg
        rsp = await self.ahb.read(a)
        resp = int(rsp[0]["resp"])
        if ok:
            assert resp == 0, f"read 0x{a:x}: ERROR response"
        return resp, int(rsp[0]["data"], 16)

    async def status(self) -> int:
        return (await self.read("STATUS"))[1]

    # -- software sequence ---------------------------------------------------------
    async def load_key(self, key: bytes, ctrl_extra: int = 0) -> None:
        k = key.ljust(32, b"\0")
        for i in range(8):
            await self.write(f"KEY{i}", int.from_bytes(k[4 * i:4 * i + 4], "little"))
        await self.write("CTRL", self.f("CTRL.KEY_LEN", KEY_LEN[len(key)])
                         | self.f("CTRL.REKEY") | self.f("CTRL.ENABLE") | ctrl_extra)

    async def load_cmd(self, m: dict, stream: int, ctrl_extra: int = 0,
                       mode_code: int | None = None) -> None:
        iv = m["iv"].ljust(16, b"\0")
        for i in range(4):
            await self.write(f"IV{i}", int.from_bytes(iv[4 * i:4 * i + 4], "little"))
        await self.write("MSG_LEN", len(m["data"]))
        await self.write("AAD_LEN", len(m["aad"]))
        await self.write("CCM", self.f("CCM.NONCE_LEN", len(m["iv"]) if m["mode"] == "ccm"
                                       else 13) | self.f("CCM.TAG_LEN", m["tag_len"]))
        await self.write("CTRL", self.f("CTRL.DECRYPT", int(m["dec"]))
                         | self.f("CTRL.MODE", MODE_CODE[m["mode"]] if mode_code is None
                                  else mode_code)
                         | self.f("CTRL.KEY_LEN", KEY_LEN[len(m["key"])])
                         | self.f("CTRL.ENABLE") | self.f("CTRL.LOAD_IV")
                         | self.f("CTRL.STREAM", stream) | ctrl_extra)

    async def expect_illegal(self, m: dict, mode_code: int | None = None) -> None:
        """Send ``m`` on stream 0 (command and its beats) and check that the engine
        refused it: DONE0 without PASS0, nothing to read, ERROR.CMD_ILLEGAL."""
        await self.load_cmd(m, 0, mode_code=mode_code)
        for beat in _pad(m["data"]):
            await self.write_block(0, beat)
        for _ in range(200):
            status = await self.status()
            if self.has(status, "STATUS.DONE0"):
                break
        assert self.has(status, "STATUS.DONE0") and not self.has(status, "STATUS.PASS0"), \
            (m["mode"], hex(status))
        assert not self.has(status, "STATUS.OUT_AVAIL0"), m["mode"]
        _, err = await self.read("ERROR")
        assert self.has(err, "ERROR.CMD_ILLEGAL"), (m["mode"], hex(err))

    async def write_block(self, stream: int, beat: bytes) -> None:
        """Four words; sometimes back to back (pipelined address/data phases)."""
        base = self.addr[f"DATA_IN{stream}0"]
        words = [int.from_bytes(beat[4 * i:4 * i + 4], "little") for i in range(4)]
        if self.rng.random() < 0.5:
            await self.gap()
            rsp = await self.ahb.write([base + 4 * i for i in range(4)], words, pip=True)
            self.cov["pipelined"] += 1
            assert [int(r["resp"]) for r in rsp] == [0] * 4, rsp
        else:
            for i in range(4):
                await self.write(base + 4 * i, words[i])

    async def read_block(self, stream: int) -> bytes:
        base = self.addr[f"DATA_OUT{stream}0"]
        out = b""
        for i in range(4):
            out += (await self.read(base + 4 * i))[1].to_bytes(4, "little")
        return out

    async def run(self, msgs: list[tuple[int, dict]], *, lag: float = 0.3,
                  issued: bool = False, blind: bool = True) -> list:
        """Run messages [(stream, m)] at once; return [(beats, pass)] per message.
        The reader falls behind with probability ``lag`` per step (back-pressure).
        ``issued``: the commands were given already (LOAD_IV); ``blind``: allow writes
        into a full input FIFO (wait states)."""
        st = []
        for s, m in msgs:
            if not issued:
                await self.load_cmd(m, s, self.f("CTRL.INTERLEAVE") if len(msgs) > 1 else 0)
            st.append({"s": s, "m": m, "in": in_beats(m), "out": []})
        status = 0
        for _ in range(20_000):
            status = await self.status()
            busy = False
            for x in st:
                s = x["s"]
                if x["in"] or self.has(status, f"STATUS.BUSY{s}"):
                    busy = True
            if not busy and all(not self.has(status, f"STATUS.OUT_AVAIL{x['s']}")
                                for x in st):
                break
            x = self.rng.choice(st)
            s = x["s"]
            can_in = bool(x["in"]) and self.has(status, f"STATUS.IN_FREE{s}")
            can_out = self.has(status, f"STATUS.OUT_AVAIL{s}")
            # results still to be read for the beats written (AAD beats give none)
            n_aad = (len(x["m"]["aad"]) + 15) // 16 if x["m"]["mode"] == "ccm" else 0
            written = len(in_beats(x["m"])) - len(x["in"])
            out_due = max(0, written - n_aad) - len(x["out"])
            if can_out and not (can_in and self.rng.random() < lag):
                x["out"].append(await self.read_block(s))
            elif can_in:
                await self.write_block(s, x["in"].pop(0))
            elif blind and x["in"] and not (x["m"]["mode"] == "ccm" and x["m"]["dec"]) \
                    and out_due <= 2 and self.rng.random() < 0.5:
                # blind write into a full input FIFO: wait states until the engine
                # takes a block (the output side -- engine FIFO of 4, ours of
                # FIFO_DEPTH -- has room for the results due, so it will)
                await self.write_block(s, x["in"].pop(0))
        else:
            raise AssertionError("messages did not finish")
        res = []
        for x in st:
            s = x["s"]
            assert self.has(status, f"STATUS.DONE{s}"), "DONE not set"
            res.append((x["out"], self.has(status, f"STATUS.PASS{s}")))
        return res


async def _bench(dut, seed: int = 1, gaps: bool = True) -> Bench:
    b = Bench(dut, seed, gaps=gaps)
    await b.start()
    return b


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_modes(dut) -> None:
    """Every mode, both directions, all key sizes, random lengths; vs cryptography."""
    seed = int(os.environ.get("AK_SEED", "1"))
    n_msgs = int(os.environ.get("AK_MSGS", "1"))
    b = await _bench(dut, seed)
    rng = random.Random(seed)
    # a long AAD first: the writer outruns the CBC-MAC chain (2 Nr per block on pipe2,
    # no results to read), so the input FIFO fills and blind writes wait for room
    key = rng.randbytes(32)
    await b.load_key(key)
    m = {"key": key, "mode": "ccm", "dec": False, "data": rng.randbytes(40),
         "iv": rng.randbytes(13), "aad": rng.randbytes(16 * 16), "tag_len": 16, "tag": b""}
    b.gaps = False  # a fast writer
    (got, ok), = await b.run([(0, m)], lag=0.0)
    b.gaps = True
    assert ok and got == expected(m)[0]
    for ks in (16, 24, 32):
        key = rng.randbytes(ks)
        await b.load_key(key)
        for mode in MODE_CODE:
            for dec in (False, True):
                for _ in range(n_msgs):
                    m = random_message(rng, key, mode, dec,
                                       max_blocks=FIFO_DEPTH if mode == "ccm" and dec
                                       else FIFO_DEPTH + 5)
                    want, want_pass = expected(m)
                    (got, ok), = await b.run([(0, m)], lag=rng.choice([0.3, 0.95]))
                    tag = f"{mode} {'dec' if dec else 'enc'} AES-{8 * ks} len {len(m['data'])}"
                    assert ok == want_pass, f"{tag}: pass {ok}, expected {want_pass}"
                    assert got == want, f"{tag}: got {[g.hex() for g in got]}, " \
                                        f"expected {[w.hex() for w in want]}"
    _, err = await b.read("ERROR")
    assert err == 0, f"ERROR = 0x{err:x} after legal traffic"
    b.check_cover()


@cocotb.test()
async def cocotb_fips_example(dut) -> None:
    """FIPS-197 C.1 through the bus, checked against the published ciphertext, with
    the exact word values of docs/cipher_ahb.md (byte 0 in bits [7:0])."""
    b = await _bench(dut, 2, gaps=False)
    key = bytes(range(16))
    await b.load_key(key)
    m = {"key": key, "mode": "ecb", "dec": False,
         "data": bytes.fromhex("00112233445566778899aabbccddeeff"), "iv": bytes(16),
         "aad": b"", "tag_len": 8, "tag": b""}
    assert int.from_bytes(m["data"][:4], "little") == 0x33221100
    (got, ok), = await b.run([(0, m)])
    assert ok and got == [bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")], got


@cocotb.test()
async def cocotb_ccm_tag_mismatch(dut) -> None:
    """A CCM decryption with a corrupted tag (and one with corrupted ciphertext):
    nothing readable, PASS = 0, ERROR.TAG_FAIL, interrupt; then a good one passes."""
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    b = await _bench(dut, 3)
    rng = random.Random(3)
    key = rng.randbytes(16)
    await b.load_key(key)
    await b.write("INTR_ENABLE", b.f("INTR_ENABLE.ERROR"))
    for corrupt in ("tag", "data"):
        nonce, aad, pt = rng.randbytes(13), rng.randbytes(22), rng.randbytes(20)
        ref = AESCCM(key, tag_length=8).encrypt(nonce, pt, aad)
        ct, tag = bytearray(ref[:20]), bytearray(ref[20:])
        (tag if corrupt == "tag" else ct)[rng.randrange(len(tag))] ^= 0x10
        m = {"key": key, "mode": "ccm", "dec": True, "data": bytes(ct), "iv": nonce,
             "aad": aad, "tag_len": 8, "tag": bytes(tag)}
        assert expected(m) == ([], False)
        (got, ok), = await b.run([(0, m)])
        assert not ok and got == [], f"{corrupt}: plaintext released: {got}"
        status = await b.status()
        assert not b.has(status, "STATUS.OUT_AVAIL0")
        _, err = await b.read("ERROR")
        assert b.has(err, "ERROR.TAG_FAIL") and not b.has(err, "ERROR.CMD_ILLEGAL"), hex(err)
        assert int(dut.irq_o.value) == 1
        # the dropped plaintext is not behind the window either: the read waits out
        # its limit and ends with ERROR
        resp, _ = await b.read("DATA_OUT00", ok=False)
        assert resp == 1
        await b.write("ERROR", 0xFFFFFFFF)
        await b.write("INTR_STATE", 0xFFFFFFFF)
        assert (await b.read("ERROR"))[1] == 0
        assert int(dut.irq_o.value) == 0
    # the same FIFO then works for a good message
    nonce, pt = rng.randbytes(13), rng.randbytes(32)
    ref = AESCCM(key, tag_length=8).encrypt(nonce, pt, None)
    m = {"key": key, "mode": "ccm", "dec": True, "data": ref[:32], "iv": nonce,
         "aad": b"", "tag_len": 8, "tag": ref[32:]}
    (got, ok), = await b.run([(0, m)])
    assert ok and got == _pad(pt)


@cocotb.test()
async def cocotb_two_streams(dut) -> None:
    """INTERLEAVE = 1: two messages on streams 0 and 1 at once (CBC encryption on
    both, then random modes); without INTERLEAVE a command to stream 1 is refused."""
    b = await _bench(dut, 4)
    rng = random.Random(4)
    key = rng.randbytes(32)
    await b.load_key(key)
    # refused without INTERLEAVE
    m = random_message(rng, key, "ecb", False)
    await b.load_cmd(m, 1)
    _, err = await b.read("ERROR")
    assert b.has(err, "ERROR.CMD_REJECT"), hex(err)
    assert not b.has(await b.status(), "STATUS.BUSY1")
    await b.write("ERROR", 0xFFFFFFFF)
    pairs = [("cbc", False, "cbc", False)] + [
        (rng.choice(list(MODE_CODE)), rng.random() < 0.5,
         rng.choice(list(MODE_CODE)), rng.random() < 0.5) for _ in range(4)]
    for m0, d0, m1, d1 in pairs:
        a = random_message(rng, key, m0, d0, FIFO_DEPTH if m0 == "ccm" and d0
                           else FIFO_DEPTH + 5)
        c = random_message(rng, key, m1, d1, FIFO_DEPTH if m1 == "ccm" and d1
                           else FIFO_DEPTH + 5)
        res = await b.run([(0, a), (1, c)], lag=0.9)
        for (got, ok), m in zip(res, (a, c)):
            want, want_pass = expected(m)
            assert ok == want_pass and got == want, f"{m['mode']} dec={m['dec']}"
    # a new key while stream 0 is busy: REKEY waits for both streams to be idle, and a
    # command for stream 1 given after REKEY waits for the key (so it runs on it)
    ileave = b.f("CTRL.INTERLEAVE")
    a = random_message(rng, key, "cbc", False, 6)
    a["data"] = rng.randbytes(16 * 6)
    await b.load_cmd(a, 0, ileave)
    key2 = rng.randbytes(16)
    await b.load_key(key2, ileave)
    assert b.has(await b.status(), "STATUS.KEY_BUSY")
    c = random_message(rng, key2, "ecb", False, 3)
    c["data"] = rng.randbytes(48)
    await b.load_cmd(c, 1, ileave)
    res = await b.run([(0, a), (1, c)], issued=True, blind=False)
    for (got, ok), m in zip(res, (a, c)):
        assert ok and got == expected(m)[0], f"stream key {len(m['key'])}"
    assert not b.has(await b.status(), "STATUS.KEY_BUSY")
    b.check_cover(skip=("hold_wait",))  # (cocotb_modes covers the FIFO wait states)


@cocotb.test()
async def cocotb_illegal_access(dut) -> None:
    """Each illegal access: the two-cycle ERROR response (checked cycle by cycle once),
    ERROR.BUS_ERROR set, and the bus keeps working."""
    b = await _bench(dut, 5, gaps=False)
    d = dut
    a = b.addr
    key = bytes(range(32))
    await b.load_key(key)
    unmapped = [0x30, 0x3C, 0xA0, 0xFC]  # between IV and KEY, after DATA_OUT1
    for u in unmapped:
        assert u not in a.values()
    cases = []
    for u in unmapped:
        cases += [("read", u, 4), ("write", u, 4)]
    cases += [("read", a[f"KEY{i}"], 4) for i in range(8)]             # write-only key
    cases += [("read", a["DATA_IN00"], 4), ("read", a["DATA_IN13"], 4)]  # write-only
    cases += [("write", a["STATUS"], 4), ("write", a["DATA_OUT00"], 4)]  # read-only
    cases += [("read", a["CTRL"], 1), ("write", a["CTRL"], 2), ("read", a["IV0"] + 2, 2),
              ("write", a["MSG_LEN"] + 1, 1)]                              # sizes
    cases += [("read", a["DATA_OUT10"], 4)]                               # empty: waits
    for op, addr, size in cases:
        if op == "read":
            rsp = await b.ahb.read(addr, size=size)
        else:
            rsp = await b.ahb.write(addr, 0x5A5A5A5A, size=size)
        assert int(rsp[0]["resp"]) == 1, f"{op} 0x{addr:x} size {size}: no ERROR"
        _, err = await b.read("ERROR")
        assert b.has(err, "ERROR.BUS_ERROR"), f"{op} 0x{addr:x}: BUS_ERROR not set"
        await b.write("ERROR", 0xFFFFFFFF)
        # still alive: a register reads back what was written
        v = b.rng.getrandbits(32)
        await b.write("AAD_LEN", v)
        assert (await b.read("AAD_LEN"))[1] == v
    # the key never reads back, and the erroring writes changed nothing
    m = {"key": key, "mode": "ecb", "dec": False, "data": bytes(16), "iv": bytes(16),
         "aad": b"", "tag_len": 8, "tag": b""}
    (got, ok), = await b.run([(0, m)])
    assert ok and got == expected(m)[0]

    # the ERROR response cycle by cycle: HREADY low + ERROR, then HREADY high + ERROR
    await FallingEdge(d.clk_i)
    d.ahb_haddr.value = a["KEY0"]
    d.ahb_hwrite.value = 0
    d.ahb_hsize.value = 2
    d.ahb_htrans.value = 2
    await FallingEdge(d.clk_i)
    d.ahb_htrans.value = 0
    seen = []
    for _ in range(6):
        seen.append((int(d.ahb_hready.value), int(d.ahb_hresp.value)))
        await FallingEdge(d.clk_i)
    first = seen.index((0, 1))
    assert seen[first:first + 3] == [(0, 1), (1, 1), (1, 0)], seen
    assert all(s == (0, 0) for s in seen[:first]), seen

    # a size error: the two ERROR cycles at once (no register-block cycle)
    await FallingEdge(d.clk_i)
    d.ahb_haddr.value = a["CTRL"]
    d.ahb_hwrite.value = 0
    d.ahb_hsize.value = 0
    d.ahb_htrans.value = 2
    await FallingEdge(d.clk_i)
    d.ahb_htrans.value = 0
    d.ahb_hsize.value = 2
    seen = []
    for _ in range(3):
        seen.append((int(d.ahb_hready.value), int(d.ahb_hresp.value)))
        await FallingEdge(d.clk_i)
    assert seen == [(0, 1), (1, 1), (1, 0)], seen

    # an OKAY read: exactly one wait state (HREADY low one cycle), data in the next
    await b.write("AAD_LEN", 0x12345678)
    await FallingEdge(d.clk_i)
    d.ahb_haddr.value = a["AAD_LEN"]
    d.ahb_hwrite.value = 0
    d.ahb_hsize.value = 2
    d.ahb_htrans.value = 2
    await FallingEdge(d.clk_i)
    d.ahb_htrans.value = 0
    seen = []
    for _ in range(3):
        seen.append((int(d.ahb_hready.value), int(d.ahb_hresp.value)))
        if seen[-1] == (1, 0) and len(seen) == 2:
            assert int(d.ahb_hrdata.value) == 0x12345678
        await FallingEdge(d.clk_i)
    assert seen == [(0, 0), (1, 0), (1, 0)], seen


@cocotb.test()
async def cocotb_ccm_too_long_and_irq(dut) -> None:
    """A CCM decryption longer than the output FIFO is refused (CMD_REJECT) instead of
    hanging; an illegal engine command (mode 6) ends with CMD_ILLEGAL; DONE interrupt."""
    b = await _bench(dut, 6)
    rng = random.Random(6)
    key = rng.randbytes(16)
    await b.load_key(key)
    m = random_message(rng, key, "ccm", True, 2)
    m["data"] = rng.randbytes(16 * FIFO_DEPTH + 1)
    await b.load_cmd(m, 0)
    _, err = await b.read("ERROR")
    assert b.has(err, "ERROR.CMD_REJECT"), hex(err)
    assert not b.has(await b.status(), "STATUS.BUSY0")
    await b.write("ERROR", 0xFFFFFFFF)
    await b.write("INTR_STATE", 0xFFFFFFFF)
    await b.write("INTR_ENABLE", b.f("INTR_ENABLE.DONE0"))
    assert int(dut.irq_o.value) == 0
    bad = {"key": key, "mode": "ecb", "dec": False, "data": bytes(32), "iv": bytes(16),
           "aad": b"", "tag_len": 8, "tag": b""}
    await b.expect_illegal(bad, mode_code=Mode.GCM)  # not offered here
    assert int(dut.irq_o.value) == 1


@cocotb.test()
async def cocotb_reset_mid_message(dut) -> None:
    """Reset with both streams in the middle of messages (blocks in both FIFOs and in
    the core): afterwards every register is back at its reset value, nothing is
    readable, and after a new key the next messages are right."""
    b = await _bench(dut, 7)
    rng = random.Random(7)
    key = rng.randbytes(24)
    await b.load_key(key, b.f("CTRL.INTERLEAVE"))
    for s in (0, 1):
        m = random_message(rng, key, "cbc", False, 8)
        m["data"] = rng.randbytes(16 * 8)
        await b.load_cmd(m, s, b.f("CTRL.INTERLEAVE"))
        for beat in _pad(m["data"])[:3]:
            await b.write_block(s, beat)
    status = await b.status()
    assert b.has(status, "STATUS.BUSY0") and b.has(status, "STATUS.BUSY1")
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 0
    await ClockCycles(dut.clk_i, 2)
    dut.rst_ni.value = 1
    await RisingEdge(dut.clk_i)
    status = await b.status()
    free = b.f("STATUS.IN_FREE0") | b.f("STATUS.IN_FREE1")
    assert status == free, f"STATUS after reset: 0x{status:x}"
    for reg, want in (("CTRL", 0), ("ERROR", 0), ("INTR_STATE", 0), ("MSG_LEN", 0),
                      ("CCM", b.f("CCM.NONCE_LEN", 13) | b.f("CCM.TAG_LEN", 8))):
        assert (await b.read(reg))[1] == want, reg
    assert int(dut.irq_o.value) == 0
    key = rng.randbytes(16)
    await b.load_key(key, b.f("CTRL.INTERLEAVE"))
    a = random_message(rng, key, "ctr", False, 3)
    c = random_message(rng, key, "ecb", True, 3)
    res = await b.run([(0, a), (1, c)])
    for (got, ok), m in zip(res, (a, c)):
        assert ok and got == expected(m)[0], m["mode"]


@cocotb.test(skip=os.environ.get("AK_E128") is None)
async def cocotb_e128(dut) -> None:
    """Directions = 1, KeySizes = 1 (the encrypt-only AES-128 pipe2 inside): every mode
    and direction of the forward cipher right; ECB and CBC decryption, and any message
    under a 192-bit key, end with CMD_ILLEGAL, no output, no hang; a 128-bit key after
    that works again."""
    b = await _bench(dut, 48)
    rng = random.Random(48)
    key = rng.randbytes(16)
    await b.load_key(key)
    for mode in MODE_CODE:
        for dec in (False, True):
            if dec and mode in ("ecb", "cbc"):
                continue
            m = random_message(rng, key, mode, dec, 2)
            ((got, ok),) = await b.run([(0, m)])
            assert (got, ok) == expected(m), (mode, dec)

    async def refused(m: dict) -> None:
        await b.expect_illegal(m)
        await b.write("ERROR", 0xFFFFFFFF)
        await b.write("INTR_STATE", 0xFFFFFFFF)

    for mode in ("ecb", "cbc"):
        await refused(random_message(rng, key, mode, True, 2))
    key192 = rng.randbytes(24)
    await b.load_key(key192)
    await refused(random_message(rng, key192, "ctr", False, 2))
    key = rng.randbytes(16)
    await b.load_key(key)
    m = random_message(rng, key, "ccm", True, 2)
    ((got, ok),) = await b.run([(0, m)])
    assert (got, ok) == expected(m)


# ----------------------------------------------------------------------------------
# pytest
# ----------------------------------------------------------------------------------
def sources() -> list[Path]:
    """The bench top and ak_cipher_ahb in compile order (aeskit:bench:cipher_ahb_tb)."""
    from aeskit.hw.manifest import sim_sources

    return sim_sources("aeskit:bench:cipher_ahb_tb")


def _run(testcase: str, env: dict | None = None, seed: int = 1, depth: int = 2,
         config: dict | None = None) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="tb_cipher_ahb", sources=sources(),
               test_module="test_cipher_ahb", test_dir=HERE,
               parameters={"FifoDepth": depth, "WaitLimit": WAIT_LIMIT, **(config or {})},
               testcase=testcase, extra_env={**(env or {}), "AK_FIFO_DEPTH": depth},
               seed=seed)


@pytest.mark.parametrize("testcase", ["cocotb_fips_example", "cocotb_modes",
                                      "cocotb_ccm_tag_mismatch", "cocotb_two_streams",
                                      "cocotb_illegal_access", "cocotb_ccm_too_long_and_irq",
                                      "cocotb_reset_mid_message"])
def test_cipher_ahb(testcase: str) -> None:
    _run(testcase)


@pytest.mark.slow
def test_cipher_ahb_e128() -> None:
    """Issue 48: the encrypt-only AES-128 build (Directions = 1, KeySizes = 1; a
    second build, make test-full)."""
    _run("cocotb_e128", {"AK_E128": "1"}, config={"Directions": 1, "KeySizes": 1})


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 10))
def test_cipher_ahb_random_long(seed: int) -> None:
    """More random messages: 25 per mode, direction and key size, per seed
    (8 x 900 messages; make test-full)."""
    _run("cocotb_modes", {"AK_SEED": seed, "AK_MSGS": 25}, seed=seed)


@pytest.mark.slow
@pytest.mark.parametrize("testcase", ["cocotb_modes", "cocotb_ccm_tag_mismatch",
                                      "cocotb_two_streams", "cocotb_ccm_too_long_and_irq"])
def test_cipher_ahb_depth4(testcase: str) -> None:
    """FifoDepth = 4 (a second build): CCM decryptions of up to 4 blocks, the limit
    moves with the parameter (make test-full)."""
    _run(testcase, depth=4)
