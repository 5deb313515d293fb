"""ak_pipe_outbuf (the credit-counted output buffer of the unrolled cores) on Verilator.

The bench plays the core around the buffer: it admits a block when ``space_o`` is high
and a random source offers one, and a Python model of a never-stalling pipeline of
latency ``AK_LAT`` presents the block on ``wvalid_i``/``wdata_i`` exactly ``AK_LAT``
edges after its admission. ``out_ready_i`` is random. Checked every cycle:

* every admitted block comes out once, in order, with its data (random values);
* ``out_valid_o`` first high two edges after the block's write edge when the buffer
  was empty (the documented two cycles);
* the pipeline never delivers a block into a full memory (the credits hold: blocks
  admitted and not taken never exceed Depth), and ``space_o`` equals the documented
  expression of the bench's own count (with ``RegisteredSpace = 1``: the count alone,
  whatever ``out_ready_i`` does in that cycle);
* ``empty_o`` exactly when no admitted block is outstanding;
* with ``out_ready_i`` always high and Depth >= latency + 2: one block per cycle;
* after reset: ``out_valid_o`` low, ``empty_o`` and ``space_o`` high.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from collections import deque
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge, Timer

from aeskit.hw import PRIMITIVES

HERE = Path(__file__).resolve().parent
WIDTH = 12


def _env(name: str) -> int:
    return int(os.environ[name])


async def _reset(dut) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.accept_i.value = 0
    dut.wvalid_i.value = 0
    dut.wdata_i.value = 0
    dut.out_ready_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    assert dut.out_valid_o.value == 0 and dut.empty_o.value == 1 and dut.space_o.value == 1
    dut.rst_ni.value = 1


async def _run(dut, n: int, p_offer: float, p_ready: float, seed: int) -> list[int]:
    """Push n blocks; return the edge numbers at which blocks were taken.

    One loop turn per cycle: at the falling edge after edge ``e`` the outputs show the
    state after ``e``; the bench checks them and drives the inputs sampled at ``e+1``.
    The head block (written at edge W; the block before it taken at edge T) must be
    valid exactly from the falling edge after edge max(W+1, T) on.
    """
    depth, lat = _env("AK_DEPTH"), _env("AK_LAT")
    reg_space = bool(_env("AK_REG_SPACE"))
    rng = random.Random(seed)
    pipe: deque[tuple[int, int]] = deque()    # (edge at which wvalid is sampled, data)
    expect: deque[tuple[int, int]] = deque()  # (data, write edge), in admission order
    outstanding = 0
    sent = 0
    last_taken = -1
    taken: list[int] = []
    edge = 0
    while len(taken) < n:
        await FallingEdge(dut.clk_i)
        valid = bool(dut.out_valid_o.value)
        want_valid = bool(expect) and edge >= max(expect[0][1] + 1, last_taken)
        assert valid == want_valid, (
            f"after edge {edge}: out_valid_o {int(valid)}, expected {int(want_valid)}"
            + (f" (head written at edge {expect[0][1]})" if expect else ""))
        nxt = edge + 1
        ready = rng.random() < p_ready
        out_fire = valid and ready
        want_space = (outstanding != depth) or (out_fire and not reg_space)
        dut.out_ready_i.value = int(ready)
        await Timer(1, unit="ns")   # let space_o settle after out_ready_i
        assert bool(dut.space_o.value) == want_space, f"edge {nxt}: space_o"
        assert bool(dut.empty_o.value) == (outstanding == 0), f"edge {nxt}: empty_o"
        accept = sent < n and want_space and rng.random() < p_offer
        data = rng.getrandbits(WIDTH)
        dut.accept_i.value = int(accept)
        if pipe and pipe[0][0] == nxt:
            dut.wvalid_i.value = 1
            dut.wdata_i.value = pipe.popleft()[1]
        else:
            dut.wvalid_i.value = 0
            dut.wdata_i.value = rng.getrandbits(WIDTH)   # must be ignored
        if out_fire:
            got = int(dut.out_data_o.value)
            want, _ = expect.popleft()
            assert got == want, f"edge {nxt}: out {got:#x}, expected {want:#x}"
            taken.append(nxt)
            last_taken = nxt
        if accept:
            pipe.append((nxt + lat, data))
            expect.append((data, nxt + lat))
            sent += 1
        outstanding += int(accept) - int(out_fire)
        assert 0 <= outstanding <= depth
        await RisingEdge(dut.clk_i)
        edge = nxt
    return taken


@cocotb.test()
async def cocotb_random(dut) -> None:
    await _reset(dut)
    await _run(dut, _env("AK_BLOCKS"), p_offer=0.8, p_ready=0.5, seed=_env("AK_SEED"))


@cocotb.test()
async def cocotb_full_rate(dut) -> None:
    """out_ready_i always high, a block offered at every edge."""
    depth, lat = _env("AK_DEPTH"), _env("AK_LAT")
    await _reset(dut)
    taken = await _run(dut, 64, p_offer=1.0, p_ready=1.0, seed=1)
    gaps = {b - a for a, b in zip(taken, taken[1:])}
    if depth >= lat + 2:
        assert gaps == {1}, f"full rate not reached: gaps {sorted(gaps)}"
    else:
        assert max(gaps) > 1, "a buffer shallower than the latency cannot keep full rate"


def _prim():
    return next(p for p in PRIMITIVES if p.top == "ak_pipe_outbuf")


# (16, 12) and (128, 83) are the depths the unrolled cores use, (8, 5) with a registered
# space_o ttable_col's; the small ones in test-full
@pytest.mark.parametrize("depth,lat,reg_space", [
    (16, 12, 0), pytest.param(4, 1, 0, marks=pytest.mark.slow),
    pytest.param(8, 9, 0, marks=pytest.mark.slow), (128, 83, 0), (8, 5, 1),
    pytest.param(8, 9, 1, marks=pytest.mark.slow)])
def test_pipe_outbuf(depth: int, lat: int, reg_space: int) -> None:
    """(16, 12) and (128, 83): the buffers of tbox_unfolded and ttable_unrolled;
    (8, 9): too shallow for full rate, so credits must throttle the source."""
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel="ak_pipe_outbuf", sources=_prim().file_paths(),
               test_module="test_pipe_outbuf", test_dir=HERE,
               parameters={"DataWidth": WIDTH, "Depth": depth, "RegisteredSpace": reg_space},
               extra_env={"AK_DEPTH": depth, "AK_LAT": lat, "AK_BLOCKS": 1500,
                          "AK_SEED": depth + lat, "AK_REG_SPACE": reg_space})


@pytest.mark.parametrize("param,value", [("Depth", 12), ("Depth", 1), ("DataWidth", 0)])
def test_bad_parameter_is_refused(param: str, value: int) -> None:
    """Elaboration stops with the module's message (Verilator lint elaborates)."""
    import subprocess

    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_pipe_outbuf",
           f"-G{param}={value}", str(WAIVERS), *map(str, _prim().file_paths())]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and f"{param} must be" in out, out
