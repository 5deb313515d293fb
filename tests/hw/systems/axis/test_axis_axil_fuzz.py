"""AXI4-Lite bus fuzzing of ak_axis_core's register block (``ak_axis_sys`` on pipe2,
the build of test_axis_core.py), with the engine :mod:`aeskit.verif.axil_fuzz` (its
docstring describes the driver, the model and the two phases).

What is particular to this endpoint:

* address decode: the wrapper passes only the low 7 address bits (the map's width) to
  the register block, so an address above the map aliases the register at its low 7
  bits (docs/axis_core.md, "Parameters": "the interconnect decodes the rest"); the
  unmapped offsets are the holes at 0x0C and 0x4C..0x5C (SLVERR); an unaligned address is its aligned
  register, WSTRB applied unshifted;
* the KEY and TWEAK_KEY words (write-only) are compared with the wrapper's ``key_regs``
  and ``tkey_regs`` vectors;
* phase 2 fires CTRL.LOAD_KEY with random KEY_LEN (also 3 and sizes the core lacks)
  and random MODE/DECRYPT while cocotbext-axi streams random packets through the
  wrapper (random pauses on both streams); after a LOAD_KEY the bench often waits for
  STATUS.KEY_BUSY = 0, and at the end: KEY_BUSY = 0, every input packet has come out
  as one output packet (no hang), every register as the model says.

``AK_FUZZ_N`` / ``AK_FUZZ_SEED`` size the run: 3,000 phase-1 transactions in
``make test``, 100,000 in the slow variant. The file is both the pytest module and the
cocotb test module.
"""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.triggers import ClockCycles

import aeskit.verif.axil_fuzz as fz

HERE = Path(__file__).resolve().parent
#: the core under the wrapper: the one test_axis_core.py builds in make test
CORE = "pipe2"


class AxisFuzz(fz.AxilFuzz):
    """ak_axis_core: addresses alias every 2**width bytes; phase 2 fires LOAD_KEY while
    packets stream through."""

    rdl = HERE.parents[3] / "hw" / "systems" / "axis" / "axis_core.rdl"

    def __init__(self, dut: Any, seed: int) -> None:
        super().__init__(dut, seed)
        dut.s_axis_tvalid.value = 0          # streams idle until phase 2
        dut.m_axis_tready.value = 1
        self.sent = self.received = 0
        self.streaming = False

    def decode(self, addr: int) -> int | None:
        return addr & ((1 << self.width) - 1)

    def key_vector(self) -> int:
        # the write-only registers in address order: KEY, then TWEAK_KEY
        a = self.dut.u_axis
        return int(a.key_regs.value) << 256 | int(a.tkey_regs.value)

    def phase2_data(self, reg: fz.Reg) -> int:
        """CTRL: mostly supported modes, every KEY_LEN code, LOAD_KEY half the time."""
        rng = self.rng
        if reg.name != "CTRL":
            return rng.getrandbits(32)
        return self.compose(reg, MODE=rng.choice((0, 1, 2, 3, 4, 0, 2, 5, 6, 7)),
                            DECRYPT=rng.getrandbits(1), KEY_LEN=rng.getrandbits(2),
                            LOAD_KEY=rng.getrandbits(1))

    async def settle(self) -> None:
        await self.poll("STATUS.KEY_BUSY")
        self.count("idle after LOAD_KEY")

    async def start_phase2(self) -> None:
        from cocotbext.axi import AxiStreamBus, AxiStreamSink, AxiStreamSource

        d = self.dut
        for side in ("s_axis", "m_axis"):
            logging.getLogger(f"cocotb.{d._name}.{side}").setLevel(logging.WARNING)
        src = AxiStreamSource(AxiStreamBus.from_prefix(d, "s_axis"), self.clk, d.rst_ni,
                              reset_active_level=False)
        sink = AxiStreamSink(AxiStreamBus.from_prefix(d, "m_axis"), self.clk, d.rst_ni,
                             reset_active_level=False)
        for i, bfm in enumerate((src, sink)):
            bfm.set_pause_generator(fz.pauses(random.Random(self.seed * 8 + i), 25))
        self.streaming = True
        cocotb.start_soon(self._send(src))
        cocotb.start_soon(self._receive(sink))

    async def _send(self, src: Any) -> None:
        """Random packets (1..100 bytes: partial last beats too) with random gaps."""
        from cocotbext.axi import AxiStreamFrame

        rng = random.Random(self.seed + 2)
        while self.streaming:
            await src.send(AxiStreamFrame(rng.randbytes(rng.randint(1, 100))))
            self.sent += 1
            await src.wait()
            await ClockCycles(self.clk, rng.randint(1, 30))

    async def _receive(self, sink: Any) -> None:
        while True:
            await sink.recv()
            self.received += 1

    async def finish_phase2(self) -> None:
        """Stop the stream; every packet out (one output packet each) within
        HANG_IDLE cycles; then the common end checks."""
        self.streaming = False
        for _ in range(fz.HANG_IDLE // 100):
            await ClockCycles(self.clk, 100)
            if self.received == self.sent:
                break
        assert self.received == self.sent, \
            f"seed {self.seed}: {self.sent} packets in, {self.received} out (hang)"
        assert self.sent, f"seed {self.seed}: no packet streamed in phase 2"
        self.stats["packets"] = self.sent
        await super().finish_phase2()


@cocotb.test()
async def cocotb_axis_axil_fuzz(dut: Any) -> None:
    """Phase 1 (exact model) and phase 2 (LOAD_KEY, packets streaming) on ak_axis_core."""
    n, seed = fz.settings(default_seed=3)
    f = AxisFuzz(dut, seed)
    await f.reset()
    await f.run(n)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(n: int, seed: int) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.hw.systems.axis import SYS_TOP, system_files

    spec = get_core(CORE)
    fz.run_fuzz(toplevel=SYS_TOP, sources=system_files(spec, BUILD_ROOT / "axis_sys_src" / CORE),
                test_module="test_axis_axil_fuzz", test_dir=HERE,
                testcase="cocotb_axis_axil_fuzz", n=n, seed=seed,
                includes=spec.include_paths())


def test_axis_axil_fuzz() -> None:
    """3,000 + 500 random AXI4-Lite transactions on ak_axis_core (same build as
    test_axis_core.py)."""
    _run(fz.N_FAST, seed=3)


@pytest.mark.slow
def test_axis_axil_fuzz_long() -> None:
    """100,000 + 16,666 transactions (make test-full)."""
    _run(fz.N_SLOW, seed=4)
