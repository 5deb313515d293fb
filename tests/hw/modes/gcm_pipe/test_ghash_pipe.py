"""ak_ghash_pipe (GHASH at one block per cycle, aggregated over H .. H^Stages) on
Verilator, in cocotb, for Stages = 8 (the default; 2, 4, 16 and 32 in test-full).

Per hash subkey (random, and a few special ones: 1, x^127, SP 800-38D test case 2's H)
a stream of random hashes of 1..3*Stages+5 blocks, the first block of each flagged with
its block count, with random gaps between the blocks half of the time and none at all
(one hash's first block in the cycle after the previous one's last) the other half.
Checked against ``aeskit.model.gcm.ghash`` (independent of the RTL):

* one done_o per hash, in order, each exactly Stages + 2 cycles after the hash's last
  block, with y_o = GHASH_H(blocks), and y_o holds until the next done_o;
* ready_o is low while the powers of a new H are computed (only its rise is waited for).

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
    for name in ("h_valid_i", "h_i", "blk_valid_i", "blk_first_i", "blk_n_i", "blk_i"):
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
        msgs = [[rng.randbytes(16) for _ in range(rng.randint(1, 3 * stages + 5))]
                for _ in range(int(os.environ["AK_HASHES"]))]
        gaps = rng.random() < 0.5
        # cycle -> expected y (the hash's last block + Stages + 2)
        want: dict[int, int] = {}
        cyc, seen, last_y = 0, 0, None
        stream = [(m, k) for m in msgs for k in range(len(m))]
        pos = 0
        while pos < len(stream) or want:
            assert cyc < 100000, "hang"
            done = int(dut.done_o.value)
            y = int(dut.y_o.value)
            if done:
                assert cyc in want, f"done_o at cycle {cyc}, expected at {sorted(want)}"
                assert y == want.pop(cyc), f"GHASH of hash {seen}, H {h.hex()}"
                seen += 1
                last_y = y
            else:
                assert not any(c <= cyc for c in want), f"no done_o at cycle {cyc}"
                if last_y is not None:
                    assert y == last_y, "y_o changed without done_o"
            if pos < len(stream) and not (gaps and rng.random() < 0.4):
                m, k = stream[pos]
                dut.blk_valid_i.value = 1
                dut.blk_first_i.value = int(k == 0)
                dut.blk_n_i.value = len(m) if k == 0 else rng.getrandbits(32)
                dut.blk_i.value = int.from_bytes(m[k], "big")
                if k == len(m) - 1:
                    want[cyc + stages + 2] = int.from_bytes(ghash(h, m), "big")
                pos += 1
            else:
                dut.blk_valid_i.value = 0
                dut.blk_first_i.value = rng.getrandbits(1)  # ignored without valid
                dut.blk_i.value = rng.getrandbits(128)
            await FallingEdge(dut.clk_i)
            cyc += 1
        dut.blk_valid_i.value = 0
        assert seen == len(msgs)
        hashes += seen
    dut._log.info(f"{hashes} hashes checked")


@pytest.mark.parametrize("stages", [8, *(pytest.param(s, marks=pytest.mark.slow)
                                        for s in (2, 4, 16, 32))])
def test_ghash_pipe(stages: int) -> None:
    from aeskit.hw import manifest
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_ghash_pipe", sources=manifest.sources("aeskit:mode:gcm_pipe"),
               test_module="test_ghash_pipe", test_dir=HERE, parameters={"Stages": stages},
               extra_env={"AK_STAGES": stages, "AK_SEED": stages, "AK_KEYS": 5,
                          "AK_HASHES": 60})


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
