"""The core contract checker (hw/bench/contract/ak_core_contract_chk.sv) in simulation,
bound as every core simulation binds it (:mod:`aeskit.hw.contract`), on the bench core
``ak_contract_fault_core``: with Fault = 0 random traffic (keys of every size, blocks,
random tags, gaps and stalls, resets) passes; with Fault = n the simulation stops on
the assertion of rule Cn, named on the simulator's output (``make test``: faults 0 and 2, ``make test-full`` all).
This file is both the
pytest module and the cocotb module.

The same faults against the proof are in tests/aeskit/formal/test_contract.py."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import contract
from aeskit.hw.contract import fault_core
from aeskit.sim.cocotb_run import CocotbTestFailure, run_cocotb

HERE = Path(__file__).resolve().parent
CYCLES = 3000


@cocotb.test()
async def cocotb_random_traffic(dut: Any) -> None:
    """Random keys, blocks, tags, gaps and stalls, a reset now and then."""
    rng = random.Random(int(os.environ.get("AK_SEED", "1")))
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for sig in (dut.key_valid_i, dut.in_valid_i, dut.out_ready_i, dut.in_decrypt_i):
        sig.value = 0
    dut.key_i.value = 0
    dut.key_len_i.value = 0
    dut.in_data_i.value = 0
    dut.in_tag_i.value = 0
    dut.rst_ni.value = 0
    for _ in range(2):
        await RisingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    for cycle in range(CYCLES):
        await FallingEdge(dut.clk_i)
        if rng.random() < 0.003:
            dut.rst_ni.value = 0
            await FallingEdge(dut.clk_i)
            dut.rst_ni.value = 1
        dut.key_valid_i.value = int(rng.random() < 0.05 or cycle < 4)
        dut.key_len_i.value = rng.randrange(3)
        dut.key_i.value = rng.getrandbits(256)
        dut.in_valid_i.value = int(rng.random() < 0.7)
        dut.in_data_i.value = rng.getrandbits(128)
        dut.in_tag_i.value = rng.getrandbits(len(dut.in_tag_i))
        dut.in_decrypt_i.value = rng.getrandbits(1)
        dut.out_ready_i.value = int(rng.random() < 0.6)
    await RisingEdge(dut.clk_i)


def _run(fault: int) -> None:
    core = fault_core(fault)
    run_cocotb(toplevel=core.top, sources=contract.sources(core),
               test_module="test_core_contract", test_dir=HERE,
               parameters={**core.parameters, "TagWidth": 2},
               build_args=contract.verilator_args(core), testcase="cocotb_random_traffic")


def test_contract_holds_on_a_good_core() -> None:
    _run(0)


#: make test breaks C2 (the shadow FIFO, which the proof does not use) in simulation;
#: every rule is broken against the proof in make test (about 1 s each)
@pytest.mark.parametrize("fault", [pytest.param(f, marks=() if f == 2 else pytest.mark.slow)
                                   for f in range(1, 7)])
def test_each_broken_rule_stops_the_simulation(fault: int,
                                               capfd: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CocotbTestFailure):
        _run(fault)
    out, err = capfd.readouterr()
    assert f"core contract C{fault}" in out + err


@pytest.mark.parametrize("core", ["round", "ttable_unrolled", "fault"])
def test_lint_clean(core: str) -> None:
    """``verilator --lint-only -Wall`` of the checker bound into a core (the waiver
    file only), and of the bench core with every fault."""
    import subprocess

    from aeskit.hw import get_core
    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.toolchain.paths import verilator

    specs = [fault_core(f) for f in range(7)] if core == "fault" else [get_core(core)]
    for spec in specs:
        params = [f"-G{k}={v}" for k, v in spec.parameters.items()]
        res = subprocess.run([verilator(), "--lint-only", "-Wall", str(WAIVERS),
                              *map(str, contract.sources(spec)),
                              *contract.verilator_args(spec), *params,
                              "--top-module", spec.top],
                             capture_output=True, text=True, check=False)
        assert res.returncode == 0 and "%Warning" not in res.stderr, res.stderr
