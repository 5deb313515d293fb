"""AHB-Lite bus fuzzing of ak_cipher_ahb (the bench top ``tb_cipher_ahb`` with
FifoDepth 2 and WaitLimit 96: the build of test_cipher_ahb.py), with the engine
:mod:`aeskit.verif.ahb_fuzz` (its docstring describes the master and the cycle-level
checks).

The reference model is built from cipher_ahb.rdl (:class:`aeskit.verif.busfuzz.RegModel`:
addresses, fields, access, reset values) plus what docs/cipher_ahb.md says of the
transfers the map cannot describe. Every data phase is checked cycle by cycle against
the documented timing ("Timing" table of docs/cipher_ahb.md):

* a legal transfer: one wait state, then OKAY; IDLE and BUSY: zero-wait OKAY;
* an unmapped offset, a read of a write-only register (KEY, DATA_IN) or a write of a
  read-only one (STATUS, DATA_OUT): (0, OKAY), (0, ERROR), (1, ERROR);
* HSIZE other than 32 bit, or an unaligned address: (0, ERROR), (1, ERROR) at once;
* a push into a full input FIFO or a read of DATA_OUT with nothing released: WaitLimit
  wait states, then the ERROR response (phase 2: up to WaitLimit wait states, then
  OKAY, or that ERROR);
* every ERROR sets ERROR.BUS_ERROR and INTR_STATE.ERROR; a read answered with ERROR
  returns on HRDATA the data of the last OKAY read (so a read of KEY never shows a key
  bit); HADDR bits above [7:0] alias (the interconnect decodes them: here bit 12
  selects the bench's dummy slave, whose transfers the cipher must ignore).

Phase 1 (exact, engine idle): random singles and bursts (incrementing and wrapping,
BUSY between beats, a burst cancelled after an ERROR, any HSIZE), of every register,
unaligned, unmapped and aliased addresses, anywhere in the 32-bit space, writes with
LOAD_IV/REKEY set only on transfers that must fail (so a wrongly accepted one shows up
as STATUS.BUSY/KEY_BUSY), the bench's dummy slave stretching its data phases at random
(the cipher's address phases wait under HREADY low). The model is exact here: every
register including STATUS (IN_FREE from the number of blocks pushed: nothing drains
the FIFOs without a command), ERROR and INTR_STATE; irq_o is compared at every
transfer; every 250 transfers the KEY words are compared through the hierarchy and
every readable register is read back, and now and then the design is reset (all back
at reset values, FIFOs empty).

Phase 2 (live engine): after a reset, the software sequence of docs/cipher_ahb.md
(KEY and REKEY, IV/lengths/CCM and LOAD_IV, blocks through the windows while polling
STATUS, sometimes blind: a push or a read that waits, or runs into the wait limit and
is retried) runs random messages of every mode, both directions, all key sizes, one or
two streams at once, CCM with a corrupted tag, refused commands (stream 1 without
INTERLEAVE, a CCM decryption longer than the FIFO, LOAD_IV on a busy stream) and an
illegal mode, with abuse transfers between the software's (every illegal kind above,
writes of the command registers while a message runs: they are latched at LOAD_IV, a
pause by CTRL.ENABLE = 0). Results are compared with `cryptography`
(test_cipher_ahb.expected), DONE/PASS and ERROR's engine bits with what each message
must give, every other field with the model (the hardware-written ones except
BUS_ERROR are not compared). At the end: idle STATUS, every register as the model says,
KEY through the hierarchy, then KEY written with zeros is zero inside (key hygiene).

``AK_FUZZ_N`` / ``AK_FUZZ_SEED`` size the run: ``n`` phase-1 transfers and ``n // 2``
in phase 2 (3,000 + 1,500 in ``make test``, 100,000 + 50,000 in the slow variant). The
file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cocotb
import pytest

from aeskit.verif.ahb_fuzz import (NONSEQ, Alt, AhbRegFuzz, Xfer, error_after, feasible, match,
                                 ok_after)
from aeskit.verif.busfuzz import (HANG, MASK32, N_FAST, N_SLOW, Reg, Stretch, run_fuzz,
                                settings, words_be)

ROOT = Path(__file__).resolve().parents[4]
HERE = Path(__file__).resolve().parent
#: the build of test_cipher_ahb.py (asserted on the cocotb side)
FIFO_DEPTH = 2
WAIT_LIMIT = 96
DUMMY = 0x1000            # HADDR bit 12: the bench's dummy slave
READBACK = 250            # phase 1: key check and read-back every READBACK transfers
ENGINE_BITS = ("ERROR.CMD_ILLEGAL", "ERROR.TAG_FAIL", "ERROR.CMD_REJECT")
#: software loop iterations (STATUS polls) before a message is called hung
SW_LIMIT = 3_000


class CipherAhbFuzz(AhbRegFuzz):
    """ak_cipher_ahb behind the bench interconnect."""

    rdl = ROOT / "hw" / "systems" / "cipher_ahb" / "cipher_ahb.rdl"

    def __init__(self, dut: Any, seed: int) -> None:
        super().__init__(dut, seed, clk=dut.clk_i)
        self.wait_rng = random.Random(seed + 2)
        self.dummy_wait = Stretch()
        self.wait_on = 0
        dut.tb_wait_i.value = 0
        self.phase = 1
        self.fifo = [0, 0]                 # phase 1: blocks in each input FIFO
        self.last_rdata = 0                # the bridge's last OKAY read data
        self.transfers = 0
        self.cmd_setup = False             # phase 2: the software is loading a command
        self.win_in = {self.by_name[f"DATA_IN{s}3"].addr: s for s in (0, 1)}
        self.win_out = {self.by_name[f"DATA_OUT{s}{w}"].addr: s for s in (0, 1) for w in range(4)}
        self.keys = [f"KEY{i}" for i in range(8)]
        self.pulses = self.by_name["CTRL"].mask(lambda f: f.access == "W1P")
        self.set_status()

    # --- decode and expectations ----------------------------------------------------
    def decode(self, addr: int) -> int | None:
        return None if addr & DUMMY else addr & ((1 << self.width) - 1)

    def tick(self) -> None:
        w = int(self.dummy_wait.stalled(self.wait_rng, 0.3))
        if w != self.wait_on:
            self.wait_on = w
            self.dut.tb_wait_i.value = w

    def set_status(self) -> None:
        """Phase 1: STATUS is IN_FREE0/1 only (no command ever starts)."""
        v = 0
        for s in (0, 1):
            if self.fifo[s] < FIFO_DEPTH:
                v |= self.fset(f"STATUS.IN_FREE{s}")
        self.model.value["STATUS"] = v

    def after_reset(self) -> None:
        self.model.reset()
        self.fifo = [0, 0]
        self.set_status()
        self.last_rdata = 0

    def bus_error(self) -> None:
        self.model.hwset("ERROR.BUS_ERROR")
        self.model.hwset("INTR_STATE.ERROR")

    def accept(self, x: Xfer) -> None:
        self.transfers += 1
        off = self.decode(x.addr)
        if off is None:
            x.note = "dummy slave"
            x.alts = (ok_after(0, HANG),)
            x.want, x.mask = 0xD00D0000 | (x.addr & 0xFFFF), MASK32
            self.stats.count("dummy slave")
            return
        if x.addr >> self.width:
            self.stats.count("aliased (HADDR above [7:0])")
        if x.trans != NONSEQ:
            self.stats.count("SEQ")
        if x.size != 2 or x.addr & 3:
            x.note = "wrong HSIZE" if x.size != 2 else "unaligned"
            x.alts = self.size_error
            self.stats.count(x.note)
            self.bus_error()
            return
        reg = self.by_off.get(off)
        if reg is not None:
            self.stats.count(f"{'w' if x.write else 'r'}:{reg.name}")
        if not self.model.allowed(reg, x.write):
            x.note = ("unmapped" if reg is None else
                      f"{'write of read-only' if x.write else 'read of write-only'} {reg.name}")
            x.alts = self.reg_error
            self.stats.count("unmapped" if reg is None else
                             "write of RO" if x.write else "read of WO")
            self.bus_error()
            return
        assert reg is not None
        x.note = reg.name
        if x.write and off in self.win_in:
            self.push(x, self.win_in[off])
        elif not x.write and off in self.win_out:
            self.pop(x, self.win_out[off])
        else:
            x.alts = self.reg_ok
            if x.write:
                self.model.write(reg, x.data)
            else:
                x.want, x.mask = self.model.read(reg), self.stable_mask(reg)

    def push(self, x: Xfer, s: int) -> None:
        """A write of DATA_IN<s> word 3."""
        if self.phase == 1:
            if self.fifo[s] < FIFO_DEPTH:
                x.alts = self.reg_ok
                self.fifo[s] += 1
                self.set_status()
            else:
                x.alts = (error_after(WAIT_LIMIT),)
                self.stats.count("push into a full FIFO: wait limit")
                self.bus_error()
        else:   # the software saw IN_FREE (exact), or pushes blind
            x.alts = self.reg_ok if x.tag == "ready" else (ok_after(1, WAIT_LIMIT),
                                                           error_after(WAIT_LIMIT))

    def pop(self, x: Xfer, s: int) -> None:
        """A read of DATA_OUT<s>."""
        x.mask = 0                          # the software checks the data
        if self.phase == 1:
            x.alts = (error_after(WAIT_LIMIT),)
            self.stats.count("read of an empty DATA_OUT: wait limit")
            self.bus_error()
        else:
            x.alts = self.reg_ok if x.tag == "ready" else (ok_after(1, WAIT_LIMIT),
                                                           error_after(WAIT_LIMIT))

    def complete(self, x: Xfer) -> None:
        super().complete(x)
        if x.note == "dummy slave" or x.trans < NONSEQ:
            return
        if not x.write:
            if x.outcome == "ok":
                self.last_rdata = x.rdata
            else:
                assert x.rdata == self.last_rdata, (
                    f"transfer {x.idx}: {x}: HRDATA {x.rdata:#010x} with "
                    f"ERROR, not the last OKAY read's {self.last_rdata:#010x}")
        if len(x.alts) > 1:                 # phase 2: a window that may wait
            self.stats.count(f"blind window {x.outcome}")
            if len(x.trace) > 2 and x.outcome == "ok":
                self.stats.count("window waited, then OKAY")
            if x.outcome == "error":
                self.bus_error()
        if self.phase == 1:
            st, en = self.model.value["INTR_STATE"], self.model.value["INTR_ENABLE"]
            want = int(bool(st & en))
            assert int(self.dut.irq_o.value) == want, \
                f"transfer {x.idx}: {x}: irq_o {int(self.dut.irq_o.value)}, " \
                f"model {want} (INTR_STATE {st:#x}, INTR_ENABLE {en:#x})"

    # --- checks ---------------------------------------------------------------------
    def check_key(self) -> None:
        got = int(self.dut.u_dut.key.value)
        want = words_be(self.model.value[k] for k in self.keys)
        assert got == want, (f"seed {self.seed}, after transfer {self.idx}: KEY inside "
                             f"{got:#066x}, model {want:#066x}")

    def readback(self) -> list[Xfer]:
        """Every register software may read, except the DATA_OUT windows (FIFO pops)."""
        return [self.xfer(False, r.addr) for r in self.regs
                if r.mask(lambda f: f.access != "WO") and r.addr not in self.win_out]

    async def barrier(self) -> None:
        self.check_key()
        await self.pump(self.readback())
        if self.rng.random() < 0.3:
            await self.reset()
            self.after_reset()

    # --- phase 1 traffic ------------------------------------------------------------
    def pick_reg(self) -> Reg:
        """A register; the windows less often (a DATA_OUT read or a push into a full
        FIFO costs WaitLimit cycles in phase 1)."""
        while True:
            r = self.rng.choice(self.regs)
            if not r.name.startswith("DATA_") or self.rng.random() < 0.25:
                return r

    def random_addr(self) -> int:
        rng = self.rng
        x = rng.random()
        reg = self.pick_reg()
        if x < 0.62:
            return reg.addr
        if x < 0.70:
            return reg.addr | rng.randint(1, 3)                           # unaligned
        if x < 0.80:
            return rng.choice(self.holes) | rng.choice((0, 0, 1, 2, 3))     # unmapped
        if x < 0.93:                                                       # aliased
            return (rng.getrandbits(32) & ~0xFF & ~DUMMY) | reg.addr
        return rng.getrandbits(32)                                         # anywhere

    def data_for(self, addr: int, size: int, write: bool) -> int:
        """Random write data; CTRL's pulses only where the transfer must fail."""
        data = self.rng.getrandbits(32)
        legal = size == 2 and not addr & 3 and self.decode(addr) == self.by_name["CTRL"].addr
        if write and legal and self.phase == 1:
            data &= ~self.pulses
        return data

    def random_size(self) -> int:
        return 2 if self.rng.random() < 0.88 else self.rng.choice((0, 1, 3, 4, 5, 6, 7))

    def dummy_group(self) -> list[Xfer]:
        """A single transfer or a short burst for the dummy slave."""
        rng = self.rng
        write = rng.random() < 0.5
        base = (rng.getrandbits(32) | DUMMY) & ~0x3F
        addrs = self.burst_addrs(base, rng.randint(1, 4), 2, False)
        data = [rng.getrandbits(32) for _ in addrs]
        if len(addrs) == 1:
            return [self.xfer(write, addrs[0], data[0])]
        return self.burst(write, addrs, data)

    def random_group(self) -> list[Xfer]:
        """A single transfer, a burst, or traffic for the dummy slave."""
        rng = self.rng
        x = rng.random()
        write = rng.random() < 0.5
        if x < 0.08:
            return self.dummy_group()
        if x < 0.22:                                       # a burst at the cipher
            size = 2 if rng.random() < 0.8 else rng.choice((0, 1))
            wrap = rng.random() < 0.3
            beats = rng.choice((4, 8)) if wrap else rng.randint(2, 8)
            start = self.random_addr() & ~DUMMY
            if wrap:
                start &= ~((1 << size) - 1)
            span = beats << size                            # no burst across 1 KiB
            if not wrap and (start & 0x3FF) + span > 0x400:
                start = (start & ~0x3FF) + 0x400 - span
            addrs = self.burst_addrs(start, beats, size, wrap)
            data = [self.data_for(a, size, write) for a in addrs]
            return self.burst(write, addrs, data, size)
        addr = self.random_addr()
        size = self.random_size()
        return [self.xfer(write, addr, self.data_for(addr, size, write), size)]

    def phase1_items(self, n: int) -> Iterator[Any]:
        """``n`` accepted transfers (the read-backs included; a cancelled one does not
        count), a barrier every READBACK."""
        start = self.transfers
        next_barrier = start + READBACK
        while self.transfers - start < n:
            yield from self.random_group()
            if self.transfers >= next_barrier:
                next_barrier += READBACK
                yield self.barrier
        yield self.barrier

    def check_phase1_coverage(self) -> None:
        want = [f"{k}:{r.name}" for r in self.regs for k in "wr"]
        want += ["wrong HSIZE", "unaligned", "unmapped", "write of RO", "read of WO",
                 "aliased (HADDR above [7:0])", "dummy slave", "SEQ", "BUSY", "IDLE",
                 "cancelled after ERROR", "address phase waited (HREADY low)",
                 "IDLE changed to NONSEQ while HREADY low", "back to back",
                 "push into a full FIFO: wait limit", "read of an empty DATA_OUT: wait limit",
                 "resets", "read error", "write error", "read ok", "write ok"]
        missing = self.stats.missing(want)
        assert not missing, f"seed {self.seed}: phase 1 never exercised: {missing}"

    # --- phase 2: the software and the abuse between its transfers -------------------
    def sw_x(self, write: bool, name_or_addr: str | int, data: int = 0,
             tag: str | None = None) -> Xfer:
        addr = self.by_name[name_or_addr].addr if isinstance(name_or_addr, str) else name_or_addr
        x = self.xfer(write, addr, data, keep=True)
        x.tag = tag
        return x

    def sw_burst(self, write: bool, base: str, data: list[int]) -> list[Xfer]:
        a = self.by_name[base].addr
        return self.burst(write, [a + 4 * i for i in range(len(data))], data, keep=True)

    def abuse(self) -> list[Xfer]:
        """Transfers that must fail, or must not disturb the software's messages."""
        rng = self.rng
        x = rng.random()
        readable = [r for r in self.regs if r.mask(lambda f: f.access != "WO")
                    and r.addr not in self.win_out]
        wo = [r for r in self.regs if not r.mask(lambda f: f.access != "WO")]
        ro = [r for r in self.regs if not r.mask(lambda f: f.access != "RO")]
        alias = (rng.getrandbits(32) & ~0xFF & ~DUMMY) if rng.random() < 0.2 else 0
        if x < 0.10:
            return self.dummy_group()
        if x < 0.25:                               # wrong size anywhere (pulses set)
            addr = rng.choice(self.regs).addr | rng.choice((0, 0, 1, 2, 3)) | alias
            return [self.xfer(rng.random() < 0.5, addr, rng.getrandbits(32),
                              rng.choice((0, 1, 3, 4, 5, 6, 7)))]
        if x < 0.35:                               # unaligned, data with pulses
            return [self.xfer(rng.random() < 0.5, rng.choice(self.regs).addr
                              | rng.randint(1, 3) | alias, rng.getrandbits(32))]
        if x < 0.43:
            return [self.xfer(rng.random() < 0.5, rng.choice(self.holes) | alias,
                              rng.getrandbits(32))]
        if x < 0.53:                               # reads of KEY / DATA_IN
            return [self.xfer(False, rng.choice(wo).addr | alias)]
        if x < 0.60:                               # writes of STATUS / DATA_OUT
            return [self.xfer(True, rng.choice(ro).addr | alias, rng.getrandbits(32))]
        if x < 0.82:                               # reads, sometimes a burst
            if rng.random() < 0.3:                 # from CTRL..IV3, into the hole at most
                a = rng.choice([r for r in readable if r.addr <= 0x2C]).addr | alias
                addrs = self.burst_addrs(a, rng.randint(2, 4), 2, False)
                return self.burst(False, addrs, [0] * len(addrs))
            return [self.xfer(False, rng.choice(readable).addr | alias)]
        if x < 0.90:
            name = rng.choice(("INTR_ENABLE", "INTR_STATE"))
            return [self.xfer(True, self.by_name[name].addr | alias, rng.getrandbits(32))]
        if not self.cmd_setup:                     # command registers: latched at LOAD_IV
            name = rng.choice(("IV0", "IV1", "IV2", "IV3", "MSG_LEN", "AAD_LEN", "CCM"))
            self.stats.count("command register written while a message runs")
            return [self.xfer(True, self.by_name[name].addr | alias, rng.getrandbits(32))]
        return [self.xfer(False, self.by_name["CTRL"].addr | alias)]

    async def sw(self, *groups: list[Xfer]) -> None:
        """The software's transfers (groups kept together), abuse in between."""
        items: list[Xfer] = []
        for g in groups:
            while self.rng.random() < 0.4:
                items += self.abuse()
            items += g
        await self.pump(items)

    async def read_reg(self, name: str) -> int:
        x = self.sw_x(False, name)
        await self.sw([x])
        assert x.outcome == "ok"
        return x.rdata

    def ctrl(self, **fields: int) -> int:
        return sum(self.fset(f"CTRL.{k}", v) for k, v in fields.items())

    async def new_key(self) -> bytes:
        from test_cipher_ahb import KEY_LEN

        rng = self.rng
        key = rng.randbytes(rng.choice((16, 24, 32)))
        k = key.ljust(32, b"\0")
        words = [int.from_bytes(k[4 * i:4 * i + 4], "little") for i in range(8)]
        if rng.random() < 0.5:
            await self.sw(self.sw_burst(True, "KEY0", words))
        else:
            await self.sw(*[[self.sw_x(True, f"KEY{i}", words[i])] for i in range(8)])
        await self.sw([self.sw_x(True, "CTRL", self.ctrl(KEY_LEN=KEY_LEN[len(key)], REKEY=1,
                                                         ENABLE=1, INTERLEAVE=1))])
        self.stats.count(f"key AES-{8 * len(key)}")
        return key

    async def load_cmd(self, m: dict, stream: int, *, interleave: int = 1,
                       mode_code: int | None = None) -> None:
        from test_cipher_ahb import KEY_LEN, MODE_CODE

        self.cmd_setup = True
        iv = m["iv"].ljust(16, b"\0")
        ivw = [int.from_bytes(iv[4 * i:4 * i + 4], "little") for i in range(4)]
        groups = [self.sw_burst(True, "IV0", ivw)] if self.rng.random() < 0.5 else \
            [[self.sw_x(True, f"IV{i}", ivw[i])] for i in range(4)]
        ccm = self.fset("CCM.NONCE_LEN", len(m["iv"]) if m["mode"] == "ccm" else 13) \
            | self.fset("CCM.TAG_LEN", m["tag_len"])
        groups += [[self.sw_x(True, "MSG_LEN", len(m["data"]))],
                   [self.sw_x(True, "AAD_LEN", len(m["aad"]))], [self.sw_x(True, "CCM", ccm)]]
        self.rng.shuffle(groups)
        code = MODE_CODE[m["mode"]] if mode_code is None else mode_code
        groups.append([self.sw_x(True, "CTRL", self.ctrl(
            DECRYPT=int(m["dec"]), MODE=code, KEY_LEN=KEY_LEN[len(m["key"])], ENABLE=1,
            LOAD_IV=1, STREAM=stream, INTERLEAVE=interleave))])
        await self.sw(*groups)
        self.cmd_setup = False

    async def write_block(self, s: int, beat: bytes, ready: bool) -> bool:
        """Words 0..3 of DATA_IN<s>; False if word 3 (blind) ran into the wait limit."""
        words = [int.from_bytes(beat[4 * i:4 * i + 4], "little") for i in range(4)]
        tag = "ready" if ready else None
        if self.rng.random() < 0.5:
            xs = self.sw_burst(True, f"DATA_IN{s}0", words)
            xs[3].tag = tag
            await self.sw(xs)
        else:
            xs = [self.sw_x(True, f"DATA_IN{s}{i}", words[i], tag if i == 3 else None)
                  for i in range(4)]
            await self.sw(*[[x] for x in xs])
        return xs[3].outcome == "ok"

    async def read_block(self, s: int, ready: bool) -> bytes | None:
        """Words 0..3 of DATA_OUT<s>; blind: word 0 first (it waits), None if it ran
        into the wait limit (nothing popped)."""
        if not ready:
            x0 = self.sw_x(False, f"DATA_OUT{s}0")
            await self.sw([x0])
            if x0.outcome != "ok":
                return None
        xs = [self.sw_x(False, f"DATA_OUT{s}{i}", tag="ready") for i in range(4)]
        if self.rng.random() < 0.5:
            xs = self.sw_burst(False, f"DATA_OUT{s}0", [0] * 4)
            for x in xs:
                x.tag = "ready"
            await self.sw(xs)
        else:
            await self.sw(*[[x] for x in xs])
        assert all(x.outcome == "ok" for x in xs)
        return b"".join(x.rdata.to_bytes(4, "little") for x in xs)

    def has(self, value: int, name: str) -> bool:
        return bool(self.fget(value, name))

    async def run_msgs(self, msgs: list[tuple[int, dict]], want_bits: set[str]) -> None:
        """Messages already started: blocks in and out until every stream is done;
        results against `cryptography`, DONE/PASS, ERROR's engine bits."""
        from test_cipher_ahb import expected, in_beats

        rng = self.rng
        st = [{"s": s, "m": m, "in": in_beats(m), "out": []} for s, m in msgs]
        lag = rng.choice((0.2, 0.6, 0.9))
        paused = False
        for _ in range(SW_LIMIT):
            status = await self.read_reg("STATUS")
            if paused and rng.random() < 0.3:
                await self.sw([self.sw_x(True, "CTRL", self.model.value["CTRL"]
                                         | self.ctrl(ENABLE=1))])
                paused = False
            busy = any(x["in"] or self.has(status, f"STATUS.BUSY{x['s']}") for x in st)
            if not busy and not any(self.has(status, f"STATUS.OUT_AVAIL{x['s']}") for x in st):
                break
            x = rng.choice(st)
            s = x["s"]
            can_in = bool(x["in"]) and self.has(status, f"STATUS.IN_FREE{s}")
            can_out = self.has(status, f"STATUS.OUT_AVAIL{s}")
            if not paused and rng.random() < 0.02:        # pause: ENABLE = 0 for a while
                await self.sw([self.sw_x(True, "CTRL", self.model.value["CTRL"]
                                         & ~self.ctrl(ENABLE=1))])
                paused = True
                self.stats.count("paused (ENABLE = 0)")
            if can_out and not (can_in and rng.random() < lag):
                blk = await self.read_block(s, True)
                assert blk is not None
                x["out"].append(blk)
            elif can_in:
                assert await self.write_block(s, x["in"][0], True)
                x["in"].pop(0)
            elif rng.random() < 0.3:                      # blind: may wait, may fail
                if x["in"] and rng.random() < 0.6:
                    if await self.write_block(s, x["in"][0], False):
                        x["in"].pop(0)
                else:
                    blk = await self.read_block(s, False)
                    if blk is not None:
                        x["out"].append(blk)
        else:
            raise AssertionError(f"seed {self.seed}, transfer {self.idx}: messages did not "
                                 f"finish after {SW_LIMIT} STATUS polls "
                                 f"({[(x['s'], x['m']['mode']) for x in st]})")
        if paused:
            await self.sw([self.sw_x(True, "CTRL", self.model.value["CTRL"] | self.ctrl(ENABLE=1))])
        for x in st:
            s, m = x["s"], x["m"]
            what = (f"seed {self.seed}, transfer {self.idx}: stream {s} {m['mode']} "
                    f"{'dec' if m['dec'] else 'enc'} AES-{8 * len(m['key'])} "
                    f"len {len(m['data'])} aad {len(m['aad'])}")
            want, want_pass = ([], False) if x.get("illegal") else expected(m)
            assert self.has(status, f"STATUS.DONE{s}"), f"{what}: DONE not set"
            assert self.has(status, f"STATUS.PASS{s}") == want_pass, f"{what}: PASS wrong"
            assert x["out"] == want, (f"{what}: got {[b.hex() for b in x['out']]}, "
                                      f"expected {[b.hex() for b in want]}")
            self.stats.count(f"message {m['mode']} {'dec' if m['dec'] else 'enc'}")
        await self.check_engine_bits(want_bits)

    async def check_engine_bits(self, want_bits: set[str]) -> None:
        err = await self.read_reg("ERROR")
        got = {b for b in ENGINE_BITS if self.has(err, b)}
        assert got == want_bits, (f"seed {self.seed}, transfer {self.idx}: ERROR {err:#x}: "
                                  f"engine bits {sorted(got)}, expected {sorted(want_bits)}")
        for b in want_bits:
            self.stats.count(b)

    async def clear_errors(self) -> None:
        await self.sw([self.sw_x(True, "ERROR", MASK32)], [self.sw_x(True, "INTR_STATE", MASK32)])

    def message(self, key: bytes, mode: str | None = None, dec: bool | None = None) -> dict:
        from test_cipher_ahb import MODE_CODE, random_message

        rng = self.rng
        mode = mode or rng.choice(list(MODE_CODE))
        dec = rng.random() < 0.5 if dec is None else dec
        m = random_message(rng, key, mode, dec,
                           max_blocks=FIFO_DEPTH if mode == "ccm" and dec else 4)
        if mode == "ccm" and dec and rng.random() < 0.25:   # a wrong tag
            tag = bytearray(m["tag"])
            tag[rng.randrange(len(tag))] ^= 1 << rng.randrange(8)
            m["tag"] = bytes(tag)
            self.stats.count("CCM tag corrupted")
        return m

    async def scenario(self, key: bytes, r: float) -> None:
        """r < 0.10: refused commands; < 0.16: an illegal mode; < 0.40: two streams;
        else one message."""
        from test_cipher_ahb import expected

        rng = self.rng
        await self.clear_errors()
        if r < 0.10:                                # refused commands
            kind = rng.choice(("no interleave", "ccm too long", "stream busy"))
            self.stats.count(f"refused: {kind}")
            if kind == "stream busy":
                m = self.message(key, rng.choice(("ecb", "cbc", "ctr", "cfb", "ofb")))
                m["data"] = rng.randbytes(16 * rng.randint(1, 3))    # still running
                s = rng.randint(0, 1)
                await self.load_cmd(m, s)
                await self.load_cmd(self.message(key), s)      # again: refused
                bits = {"ERROR.CMD_REJECT"}
                if not expected(m)[1]:
                    bits.add("ERROR.TAG_FAIL")
                await self.run_msgs([(s, m)], bits)
                return
            m = self.message(key, "ccm", True) if kind == "ccm too long" else self.message(key)
            if kind == "ccm too long":
                m["data"] = rng.randbytes(16 * FIFO_DEPTH + rng.randint(1, 40))
            s = 1 if kind == "no interleave" else rng.randint(0, 1)
            await self.load_cmd(m, s, interleave=0 if kind == "no interleave" else 1)
            status = await self.read_reg("STATUS")
            assert not self.has(status, f"STATUS.BUSY{s}"), \
                f"seed {self.seed}, transfer {self.idx}: refused command ({kind}) runs"
            await self.check_engine_bits({"ERROR.CMD_REJECT"})
            return
        if r < 0.16:                                # an illegal mode: consumed, dropped
            m = self.message(key, rng.choice(("ecb", "cbc")), rng.random() < 0.5)
            s = rng.randint(0, 1)
            await self.load_cmd(m, s, mode_code=rng.choice((6, 7)))
            self.stats.count("illegal mode")
            await self.run_msgs_illegal(s, m)
            return
        n = 2 if r < 0.40 else 1
        streams = [0, 1] if n == 2 else [rng.randint(0, 1)]
        msgs = [(s, self.message(key)) for s in streams]
        for s, m in msgs:
            await self.load_cmd(m, s)
        bits = {"ERROR.TAG_FAIL"} if any(not expected(m)[1] for _, m in msgs) else set()
        if n == 2:
            self.stats.count("two streams")
        await self.run_msgs(msgs, bits)

    async def run_msgs_illegal(self, s: int, m: dict) -> None:
        from test_cipher_ahb import in_beats

        for beat in in_beats(m):
            while True:
                status = await self.read_reg("STATUS")
                if self.has(status, f"STATUS.IN_FREE{s}"):
                    break
            assert await self.write_block(s, beat, True)
        for _ in range(SW_LIMIT):
            status = await self.read_reg("STATUS")
            if self.has(status, f"STATUS.DONE{s}"):
                break
        else:
            raise AssertionError(f"seed {self.seed}: illegal-mode message never DONE")
        assert not self.has(status, f"STATUS.PASS{s}")
        assert not self.has(status, f"STATUS.OUT_AVAIL{s}"), "output of an illegal command"
        await self.check_engine_bits({"ERROR.CMD_ILLEGAL"})

    async def phase2(self, n: int) -> None:
        await self.reset()
        self.after_reset()
        self.phase = 2
        self.volatile = frozenset(f.name for r in self.regs for f in r.fields
                                  if f.hw_writes) - {"ERROR.BUS_ERROR"}
        start = self.transfers
        key = await self.new_key()
        first = [0.3, 0.05, 0.12, 0.05]        # two streams, refused, illegal, refused
        while self.transfers - start < n or first:
            if self.rng.random() < 0.12:
                key = await self.new_key()
            await self.scenario(key, first.pop(0) if first else self.rng.random())
        # idle; every register as the model says; key inside; key wiped
        status = await self.read_reg("STATUS")
        idle = self.fset("STATUS.IN_FREE0") | self.fset("STATUS.IN_FREE1") \
            | (status & (self.fset("STATUS.DONE0") | self.fset("STATUS.DONE1")
                         | self.fset("STATUS.PASS0") | self.fset("STATUS.PASS1")))
        assert status == idle, f"seed {self.seed}: STATUS {status:#x} at the end, not idle"
        await self.pump(self.readback())
        self.check_key()
        await self.sw(*[[self.sw_x(True, k, 0)] for k in self.keys])
        self.check_key()
        assert int(self.dut.u_dut.key.value) == 0
        want = ["two streams", "illegal mode", "ERROR.CMD_REJECT", "ERROR.CMD_ILLEGAL",
                "blind window ok", "command register written while a message runs"]
        missing = self.stats.missing(want)
        if sum(1 for k in self.stats if k.startswith("message ")) < 4:
            missing.append("messages of 4 kinds")
        assert not missing, f"seed {self.seed}: phase 2 never exercised: {missing}"

    def report(self, what: str) -> None:
        self.dut._log.info("%s: seed %d, %d transfers, %d cycles; %s", what, self.seed,
                           self.transfers, self.cycle, self.stats.line())

    async def run(self, n: int) -> None:
        self.dut._log.info("AHB-Lite fuzz of ak_cipher_ahb: seed %d, %d + %d transfers",
                           self.seed, n, n // 2)
        await self.reset()
        self.after_reset()
        await self.pump(self.phase1_items(n))
        self.check_phase1_coverage()
        self.report("phase 1")
        await self.phase2(n // 2)
        self.report("phases 1 and 2")


@cocotb.test()
async def cocotb_cipher_ahb_ahb_fuzz(dut: Any) -> None:
    """Phase 1 (exact model, engine idle) and phase 2 (live engine, abuse mixed in)."""
    import test_cipher_ahb as ref

    assert (ref.FIFO_DEPTH, ref.WAIT_LIMIT) == (FIFO_DEPTH, WAIT_LIMIT), \
        "not the build of test_cipher_ahb.py"
    n, seed = settings(default_seed=1)
    fz = CipherAhbFuzz(dut, seed)
    await fz.run(n)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def test_response_checker() -> None:
    """The data-phase checker itself: each documented response matches only itself
    (a one-cycle ERROR, an ERROR with HREADY high first, a missing wait state and an
    extra one are all refused)."""
    ok, reg_err, size_err = ok_after(1), error_after(1), error_after(0)
    wait_err = error_after(WAIT_LIMIT)
    held: tuple[Alt, ...] = (ok_after(1, WAIT_LIMIT), wait_err)
    assert match([(0, 0), (1, 0)], [ok]) is ok
    assert match([(0, 0), (0, 1), (1, 1)], [reg_err]) is reg_err
    assert match([(0, 1), (1, 1)], [size_err]) is size_err
    assert match([(0, 0)] * WAIT_LIMIT + [(0, 1), (1, 1)], held) is wait_err
    assert match([(0, 0)] * 7 + [(1, 0)], held) is held[0]
    for bad, alts in (([(1, 0)], [ok]), ([(0, 0), (0, 0), (1, 0)], [ok]),
                      ([(1, 1)], [size_err]), ([(1, 1), (1, 1)], [size_err]),
                      ([(0, 1), (1, 1)], [reg_err]), ([(0, 0), (1, 1)], [reg_err]),
                      ([(0, 0), (0, 1), (1, 0)], [reg_err]), ([(0, 0), (1, 0)], [reg_err]),
                      ([(0, 0)] * (WAIT_LIMIT + 1) + [(1, 0)], held),
                      ([(0, 0)] * (WAIT_LIMIT - 1) + [(0, 1), (1, 1)], held)):
        assert match(bad, alts) is None, bad
    # an unfinished data phase fails as soon as it cannot become an allowed one
    assert feasible([(0, 0)] * WAIT_LIMIT, held) and feasible([(0, 0), (0, 1)], [reg_err])
    assert not feasible([(0, 0)] * (WAIT_LIMIT + 1), held)
    assert not feasible([(0, 0), (0, 0)], [ok]) and not feasible([(0, 1)], [reg_err])


def _run(n: int, seed: int) -> None:
    from aeskit.hw.manifest import sim_sources

    run_fuzz(toplevel="tb_cipher_ahb", sources=sim_sources("aeskit:bench:cipher_ahb_tb"),
             test_module="test_cipher_ahb_ahb_fuzz", test_dir=HERE,
             testcase="cocotb_cipher_ahb_ahb_fuzz", n=n, seed=seed,
             parameters={"FifoDepth": FIFO_DEPTH, "WaitLimit": WAIT_LIMIT})


def test_cipher_ahb_ahb_fuzz() -> None:
    """3,000 + 1,500 random AHB-Lite transfers on ak_cipher_ahb (same build as
    test_cipher_ahb.py)."""
    _run(N_FAST, seed=1)


@pytest.mark.slow
def test_cipher_ahb_ahb_fuzz_long() -> None:
    """100,000 + 50,000 transfers (make test-full)."""
    _run(N_SLOW, seed=2)
