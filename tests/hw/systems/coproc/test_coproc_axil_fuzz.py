"""AXI4-Lite bus fuzzing of ak_coproc's register block (``ak_coproc_sys`` on
tbox_folded, Verilator) with the engine :mod:`aeskit.verif.axil_fuzz` (its docstring
describes the driver, the model and the two phases).

What is particular to this endpoint: any address with a bit at or above the map's
width (bit 8) set goes to an unmapped offset (SLVERR); phase 2 fires START and CLEAR
with random job parameters, cocotbext-axi's AXI4 slave with random pauses as memory (as
in test_coproc.py); at the end a CLEAR wipes KEY and IV.

``AK_FUZZ_N`` / ``AK_FUZZ_SEED`` size the run: 3,000 phase-1 transactions in
``make test``, 100,000 in the slow variant. The file is both the pytest module and the
cocotb test module.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cocotb
import pytest

from aeskit.verif.axil_fuzz import (MASK32, N_FAST, N_SLOW, AxilFuzz, Reg, pauses, run_fuzz,
                                  settings)
from aeskit.hw.systems.coproc import ERR, KEY_LEN_CODE, MODE_CODE

HERE = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------------
# ak_coproc
# ----------------------------------------------------------------------------------
class CoprocFuzz(AxilFuzz):
    """ak_coproc: addresses with a bit at or above the map's width answer SLVERR;
    phase 2 fires START and CLEAR with the memory attached."""

    rdl = Path(__file__).resolve().parents[4] / "hw" / "systems" / "coproc" / "coproc.rdl"

    def __init__(self, dut: Any, seed: int) -> None:
        super().__init__(dut, seed)
        self.mem: Any = None
        for name in ("arready", "rvalid", "awready", "wready", "bvalid"):
            getattr(dut, f"m_axi_{name}").value = 0     # memory idle until phase 2

    def decode(self, addr: int) -> int | None:
        return None if addr >> self.width else addr

    def key_vector(self) -> int:
        # the write-only registers in address order: KEY, then TWEAK_KEY
        c = self.dut.u_coproc
        return int(c.reg_key.value) << 256 | int(c.reg_key2.value)

    async def start_phase2(self) -> None:
        from cocotbext.axi import AxiBus, AxiSlave
        from test_coproc import Memory

        logging.getLogger(f"cocotb.{self.dut._name}.m_axi").setLevel(logging.ERROR)
        self.mem = Memory()
        mem = AxiSlave(AxiBus.from_prefix(self.dut, "m_axi"), self.clk, self.dut.rst_ni,
                       target=self.mem, reset_active_level=False)
        for i, ch in enumerate((mem.read_if.ar_channel, mem.read_if.r_channel,
                                mem.write_if.aw_channel, mem.write_if.w_channel,
                                mem.write_if.b_channel)):
            ch.set_pause_generator(pauses(random.Random(self.seed * 8 + i), 20))
        # short jobs from here on: LEN, AAD_LEN and the buffers drawn by phase2_data
        for name in ("LEN", "AAD_LEN", "SRC_ADDR", "DST_ADDR", "AAD_ADDR", "IV_LEN", "IV_ADDR"):
            reg = self.by_name(name)
            await self.write(reg.addr, self.phase2_data(reg))

    def phase2_data(self, reg: Reg) -> int:
        """Jobs of at most 512 bytes (a partial-strobe write mixes bytes of two such
        values, so LEN stays below 1024): buffers mostly in memory, else in its SLVERR
        window, past its end or wrapping the address space; mostly legal modes, key
        lengths and CCM parameters; START (60 %) and CLEAR (15 %) on CTRL writes."""
        from test_coproc import BAD, MEM_SIZE

        rng = self.rng

        def pick(legal: Iterable[int], bits: int) -> int:
            return rng.choice(list(legal)) if rng.random() < 0.85 else rng.getrandbits(bits)

        if reg.name in ("LEN", "AAD_LEN", "IV_LEN"):
            return rng.choice((0, 16 * rng.randint(1, 32), 16 * rng.randint(1, 4),
                               rng.randrange(513)))
        if reg.name.endswith("_ADDR"):
            return rng.choice((rng.randrange(MEM_SIZE - 1024),) * 6 + (
                BAD + rng.randrange(-64, 64), MEM_SIZE - rng.randrange(64),
                MASK32 - rng.randrange(64)))
        if reg.name == "CTRL":
            return self.compose(reg, MODE=pick(MODE_CODE.values(), 3),
                                KEY_LEN=pick(KEY_LEN_CODE.values(), 2),
                                DECRYPT=rng.getrandbits(1), IRQ_EN=rng.getrandbits(1),
                                START=int(rng.random() < 0.6), CLEAR=int(rng.random() < 0.15))
        if reg.name == "CCM":
            return self.compose(reg, NONCE_LEN=pick(range(7, 14), 4),
                                TAG_LEN=pick(range(4, 17, 2), 5))
        return rng.getrandbits(32)

    async def settle(self) -> None:
        code = self.fget(await self.poll("STATUS.BUSY"), "STATUS.ERR_CODE")
        assert code in ERR.values(), f"seed {self.seed}, transaction {self.idx}: ERR_CODE {code}"
        self.count(f"idle with ERR_CODE {code}")

    async def finish_phase2(self) -> None:
        """Idle; CLEAR wipes KEY and IV; then every register as the model says."""
        await self.settle()
        ctrl = self.by_name("CTRL")
        clear = next(f.mask for f in ctrl.fields if f.name == "CTRL.CLEAR")
        await self.write(ctrl.addr, self.model.value["CTRL"] | clear)
        await self.settle()
        self.model.wipe()
        self.volatile -= {f.name for r in self.regs for f in r.fields if f.hw_clear}
        await super().finish_phase2()
        self.stats.update({"DMA reads": self.mem.reads, "DMA writes": self.mem.writes})
        assert self.mem.reads and self.mem.writes, f"seed {self.seed}: no job reached memory"


@cocotb.test()
async def cocotb_coproc_axil_fuzz(dut: Any) -> None:
    """Phase 1 (exact model) and phase 2 (START/CLEAR, memory attached) on ak_coproc."""
    n, seed = settings(default_seed=1)
    fz = CoprocFuzz(dut, seed)
    await fz.reset()
    await fz.run(n)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(n: int, seed: int) -> None:
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files

    run_fuzz(toplevel=SYS_TOP, sources=system_files(DEFAULT_CORE),
             test_module="test_coproc_axil_fuzz", test_dir=HERE,
             testcase="cocotb_coproc_axil_fuzz", n=n, seed=seed)


def test_coproc_axil_fuzz() -> None:
    """3,000 + 500 random AXI4-Lite transactions on ak_coproc (same build as
    test_coproc.py)."""
    _run(N_FAST, seed=1)


@pytest.mark.slow
def test_coproc_axil_fuzz_long() -> None:
    """100,000 + 16,666 transactions (make test-full)."""
    _run(N_SLOW, seed=2)
