"""UVM tests of ADAM (register them with ``pyuvm.test()`` in a cocotb test module).

* :class:`AdamPaperUvm` -- the paper's three cases (Sec. 6) at the DUT's width: the
  processor configures key, pitch and CTRL; the writer agent (master 0) writes the
  160 bytes, the reader agent (master 1) reads them back, both REQs in the same cycle.
  The scoreboard checks data and memory; the test checks the measured cycles (first
  REQ to the last read beat, from the responses) against
  :func:`aeskit.asbus.cases.expected_asbus_cycles` exactly.
* :class:`AdamRandomUvm` -- per phase (bypass, then cipher with a random key): the
  memory initialised with one linear write, then both masters issue random commands
  at once (every mode, random lengths, addresses, byte valids, idle gaps, a share of
  illegal commands), with the memory-PHY agent adding wait states on both data
  phases (cipher phase: also a bypass write right behind a one-state cipher write to
  the same bytes, write-after-write order); then every illegal command of :data:`~aeskit.asbus.uvm.sequences.ILLEGAL`
  as a write and a read between good reads; at the end the processor reads ERRCNT,
  CTRL and PITCH back. ``AK_COMMANDS`` (per master and phase), ``AK_WAIT``, ``AK_SEED``
  from the environment.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_test

from aeskit.asbus.bench import adam_backdoor_dump
from aeskit.asbus.cases import TESTS, expected_asbus_cycles, paper_case
from aeskit.asbus.model import MODE_LINEAR, MODE_STATE, DamModel, encode_len
from aeskit.asbus.tb import AdamTB
from aeskit.asbus.uvm.env import AdamEnv
from aeskit.asbus.uvm.items import AsbusItem
from aeskit.asbus.uvm.sequences import (ILLEGAL, AsbusCommandSeq, MbusAccessSeq, MbusConfigSeq,
                                        WaitSeq, init_command, random_commands)

__all__ = ["AdamPaperUvm", "AdamRandomUvm", "AdamUvmBase"]

MEM_BYTES = 256
#: cycles after the last write beat until the decrypting engine has written its last
#: plaintext (engine latency 47 / 29 / 20 + one state, rounded up)
DRAIN_CYCLES = 64


class AdamUvmBase(uvm_test):
    """Builds the bench (AdamTB on ``cocotb.top``) and the env; ``run_phase`` starts the
    clock and reset, runs :meth:`scenario` under an objection and lets the pipelines
    drain."""

    phy_active = False

    def build_phase(self) -> None:
        dut = cocotb.top
        self.tb = AdamTB(dut, mem_bytes=MEM_BYTES, seed=int(os.environ.get("AK_SEED", "1")))
        width = self.tb.width
        for key, val in (("BFM", self.tb), ("width", width), ("mem_bytes", MEM_BYTES),
                         ("backdoor", lambda: adam_backdoor_dump(dut, width, MEM_BYTES)),
                         ("phy_active", self.phy_active)):
            ConfigDB().set(None, "*", key, val)
        self.env = AdamEnv("env", self)
        self.sent: list[AsbusItem] = []         # every command the sequences sent

    async def run_phase(self) -> None:
        self.raise_objection()
        await self.tb.start()
        await self.scenario()
        await self.quiesce()                           # monitors see the last SRAM writes
        self.drop_objection()

    def check_phase(self) -> None:
        seen = len(self.env.scoreboard.asbus)
        assert seen == len(self.sent), (f"the ASBUS monitors rebuilt {seen} commands, the "
                                        f"sequences sent {len(self.sent)}")
        # the monitors, which only watch pins, agree with what the drivers did
        seen_at = {(it.master, it.gnt_cycle): it for it in self.env.scoreboard.asbus}
        full = (1 << (self.tb.width // 8)) - 1
        for item in self.sent:
            assert item.done_cycle is not None, f"{item}: no response"
            mon = seen_at.get((item.master, item.gnt_cycle))
            assert mon is not None, f"{item}: not seen by the monitor"
            assert (mon.wr, mon.addr, mon.len12, mon.error, mon.rdata, mon.req_cycle,
                    mon.done_cycle) == (item.wr, item.addr, item.len12, item.error,
                                        item.rdata, item.req_cycle, item.done_cycle), \
                f"monitor {mon} / driver {item}"
            if item.wr and not item.error:
                assert mon.data == item.data, f"{item}: write beats on the pins differ"
                assert mon.vld == (item.vld or [full] * len(item.data)), f"{item}: WD_VLD"

    async def quiesce(self) -> None:
        """Wait until no command is outstanding and the engines have drained."""
        await self.tb.drain()
        await ClockCycles(self.tb.dut.clk_i, DRAIN_CYCLES)

    async def scenario(self) -> None:
        raise NotImplementedError

    async def config(self, model: DamModel, ctrl: int | None = None) -> None:
        await MbusConfigSeq("config", model, ctrl).start(self.env.cpu.seqr)

    async def both(self, writer: list[AsbusItem], reader: list[AsbusItem]) -> None:
        """Run a command list on each master at once; return when both are done."""
        self.sent.extend(writer + reader)
        tasks = [cocotb.start_soon(AsbusCommandSeq("writer", writer).start(self.env.writer.seqr)),
                 cocotb.start_soon(AsbusCommandSeq("reader", reader).start(self.env.reader.seqr))]
        for t in tasks:
            await t


class AdamPaperUvm(AdamUvmBase):
    async def scenario(self) -> None:
        width = self.tb.width
        for test in TESTS:
            model, wcmd, rcmd = paper_case(test, width, seed=int(os.environ.get("AK_SEED", "0")))
            await self.config(model)
            w, r = AsbusItem.from_command(wcmd), AsbusItem.from_command(rcmd)
            await self.both([w], [r])
            assert w.req_cycle is not None and w.done_cycle is not None
            assert r.done_cycle is not None
            got = (w.done_cycle - w.req_cycle + 1, r.done_cycle - w.req_cycle + 1)
            want = expected_asbus_cycles(test, width)
            assert got == want, f"{test} {width}: (write, whole) cycles {got}, expected {want}"
            self.logger.info("%s %d-bit: %d cycles (write %d)", test, width, got[1], got[0])


class AdamRandomUvm(AdamUvmBase):
    phy_active = True

    async def waw_after_state(self, rng: random.Random) -> None:
        """Directed: a bypass write queued right behind a cipher state on the same 16 bytes
        (the plaintext must land first: write-after-write order), then read back."""
        width, nb = self.tb.width, self.tb.width // 8
        await self.quiesce()
        state = AsbusItem("waw-state", wr=True, addr=0xD0, len12=encode_len(MODE_STATE, 1),
                          data=[rng.getrandbits(width) for _ in range(128 // width)])
        bypass = AsbusItem("waw-bypass", wr=True, addr=0xD0,
                           len12=encode_len(MODE_LINEAR, 16 // nb),
                           data=[rng.getrandbits(width) for _ in range(16 // nb)],
                           vld=[(1 << nb) - 1] * (16 // nb))
        # a longer write first, so that both are queued when the state's beat is taken
        filler = AsbusItem("waw-filler", wr=True, addr=0x00, len12=encode_len(MODE_LINEAR, 8),
                           data=[rng.getrandbits(width) for _ in range(8)],
                           vld=[(1 << nb) - 1] * 8)
        await self.both([filler, state, bypass], [])
        await self.both([], [AsbusItem("waw-read", wr=False, addr=0xD0,
                                       len12=encode_len(MODE_LINEAR, 16 // nb))])

    async def scenario(self) -> None:
        width = self.tb.width
        seed = int(os.environ.get("AK_SEED", "1"))
        n = int(os.environ.get("AK_COMMANDS", "40"))
        wait = float(os.environ.get("AK_WAIT", "0.3"))
        rng = random.Random(f"uvm-{seed}-{width}")
        pitch = 48
        for phase in range(2):
            cipher = bool(phase)
            model = DamModel(width, pitch=pitch, key=rng.randbytes(16), dec_en=cipher,
                             enc_en=cipher)
            await self.quiesce()
            await self.config(model, ctrl=0)                        # bypass for the init
            await self.both([init_command(rng, width, MEM_BYTES)], [])
            await MbusAccessSeq("ctrl", [(0x00, 3 if cipher else 0)]).start(self.env.cpu.seqr)
            await WaitSeq("wait", wait, wait).start(self.env.phy.seqr)
            await self.both(random_commands(rng, width, n, pitch=pitch),
                            random_commands(rng, width, n, pitch=pitch))
            await WaitSeq("nowait", 0.0, 0.0).start(self.env.phy.seqr)
            if cipher:
                await self.waw_after_state(rng)
        if wait:
            assert all(self.tb.wait_cycles), f"no wait states driven: {self.tb.wait_cycles}"
        # every illegal command as a write and as a read, with a good read beside it
        good = encode_len(MODE_LINEAR, 2)
        for k, (_, addr, ln) in enumerate(ILLEGAL):
            for wr in (True, False):
                beats = [rng.getrandbits(width)] if wr else []
                bad = AsbusItem("illegal", wr=wr, addr=addr, len12=ln, data=beats,
                                vld=[(1 << (width // 8)) - 1] * len(beats))
                ok = AsbusItem("good", wr=False, addr=16 * k, len12=good)
                await self.both([bad], [ok]) if wr else await self.both([ok], [bad])
                assert bad.error and not ok.error, f"illegal {addr:#x} LEN {ln:#05x} not refused"
        await self.quiesce()
        await MbusAccessSeq("readback", [(0x08, None), (0x00, None), (0x04, None)]).start(
            self.env.cpu.seqr)
