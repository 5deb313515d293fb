"""ak_ghash_pipe (GHASH at one block per cycle, aggregated over H .. H^Stages) on
Verilator, in cocotb, for Stages = 8 (the default; 2, 4, 16 and 32 in test-full).

Per hash subkey (random, and a few special ones: 1, x^127, SP 800-38D test case 2's H)
random hashes of 1..3*Stages+5 blocks with random gaps between the blocks (none half
the time). Checked against ``aeskit.model.gcm.ghash`` (independent of the RTL):

* y_o equals GHASH_H(blocks), and holds until the next start (a block offered in the
  start cycle, half of the time, is ignored);
* done_o pulses exactly Stages + 2 cycles after the last block, once;
* ready_o is low from the start to done_o, and low again while the powers of a new
  H are computed (exactly 8 * (Stages - 1) + the hand-offs; only its rise is waited for).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

HERE = Path(__file__).resolve().parent
TC2_H = bytes.fromhex("66e94bd4ef8a2c3b884cfa59ca342b2e")


@cocotb.test()
async def cocotb_ghash_pipe(dut) -> None:
    from aeskit.model.gcm import ghash

    stages = int(os.environ["AK_STAGES"])
    rng = random.Random(int(os.environ["AK_SEED"]))
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    for name in ("h_valid_i", "h_i", "start_i", "n_i", "blk_valid_i", "blk_i"):
        getattr(dut, name).value = 0
    dut.rst_ni.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    assert int(dut.ready_o.value) == 0 and int(dut.done_o.value) == 0
    dut.rst_ni.value = 1
    subkeys = [(1).to_bytes(16, "big"), (1 << 127).to_bytes(16, "big"), TC2_H] + \
        [rng.randbytes(16) for _ in range(int(os.environ["AK_KEYS"]))]
    hashes = 0
    for h in subkeys:
        await FallingEdge(dut.clk_i)
        dut.h_valid_i.value = 1
        dut.h_i.value = int.from_bytes(h, "big")
        await FallingEdge(dut.clk_i)
        dut.h_valid_i.value = 0
        for _ in range(20 * stages + 50):
            if int(dut.ready_o.value):
                break
            await FallingEdge(dut.clk_i)
        assert int(dut.ready_o.value), "the powers of H never became ready"
        for _ in range(int(os.environ["AK_HASHES"])):
            n = rng.randint(1, 3 * stages + 5)
            blocks = [rng.randbytes(16) for _ in range(n)]
            gaps = rng.random() < 0.5
            dut.start_i.value = 1
            dut.n_i.value = n
            # a block offered in the start cycle is not one of the hash's blocks
            dut.blk_valid_i.value = int(rng.random() < 0.5)
            dut.blk_i.value = rng.getrandbits(128)
            await FallingEdge(dut.clk_i)
            dut.start_i.value = 0
            assert int(dut.ready_o.value) == 0, "ready_o high during a hash"
            for b in blocks:
                while gaps and rng.random() < 0.4:
                    dut.blk_valid_i.value = 0
                    dut.blk_i.value = rng.getrandbits(128)  # ignored without valid
                    await FallingEdge(dut.clk_i)
                    assert int(dut.done_o.value) == 0
                dut.blk_valid_i.value = 1
                dut.blk_i.value = int.from_bytes(b, "big")
                await FallingEdge(dut.clk_i)
                assert int(dut.done_o.value) == 0, "done_o before the last block + Stages"
            dut.blk_valid_i.value = 0
            for k in range(1, stages + 3):
                done = int(dut.done_o.value)
                assert done == (k == stages + 2), f"done_o {done} {k} cycles after the last"
                if not done:
                    await FallingEdge(dut.clk_i)
            want = int.from_bytes(ghash(h, blocks), "big")
            assert int(dut.y_o.value) == want, f"GHASH of {n} blocks, H {h.hex()}"
            assert int(dut.ready_o.value) == 1
            await FallingEdge(dut.clk_i)
            assert int(dut.done_o.value) == 0 and int(dut.y_o.value) == want
            hashes += 1
    dut._log.info(f"{hashes} hashes checked")


@pytest.mark.parametrize("stages", [8, *(pytest.param(s, marks=pytest.mark.slow)
                                        for s in (2, 4, 16, 32))])
def test_ghash_pipe(stages: int) -> None:
    from aeskit.hw import manifest
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_ghash_pipe", sources=manifest.sources("aeskit:mode:gcm_pipe"),
               test_module="test_ghash_pipe", test_dir=HERE, parameters={"Stages": stages},
               extra_env={"AK_STAGES": stages, "AK_SEED": stages, "AK_KEYS": 5,
                          "AK_HASHES": 40})


@pytest.mark.parametrize("stages", [1, 3, 256])
def test_bad_stages_refused(stages: int) -> None:
    """Elaboration stops with the module's message (Verilator lint elaborates)."""
    import subprocess

    from aeskit.hw import manifest
    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_ghash_pipe",
           f"-GStages={stages}", str(WAIVERS),
           *map(str, manifest.sources("aeskit:mode:gcm_pipe"))]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert res.returncode != 0
    assert f"Stages must be a power of two in 2..128, got {stages}" in res.stdout + res.stderr
