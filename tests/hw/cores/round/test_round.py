"""ak_round_core (the reference core, registry entry ``round``) on Verilator.

* every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record, 128/192/256-bit
  keys, encrypt and decrypt sections, against NIST and the model;
* exact cycle counts, never stalled: latency Nr, interval Nr (the registry's claim)
  and key setup Nr + 1, for every key size and direction;
* 20,000 random blocks (random keys reloaded every 1..8 blocks, random key sizes and
  directions) against the model, with random gaps on in_valid_i and stalls on
  out_ready_i, split over several pytest cases so that xdist can spread them;
* the same core with every other S-box implementation (registry entries
  ``round_comp``, ``round_canright``, ``round_lutinv``: parameter SboxImpl): every
  ECB KAT/MMT record of all key sizes, exact cycle counts and 3,000 random stalled
  blocks each;
* key reload behind blocks in flight, key and block presented in the same cycle,
  reset in the middle of a block and of a key setup, the illegal key length,
  tags through a TagWidth = 4 build; output stability under stall is asserted by
  the CoreTB monitor in every test.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import get_core
from aeskit.model import AES
from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (Claims, check_block, cocotb_exact_timing, cocotb_kat,
                                  cocotb_key_reload, cocotb_random, cocotb_tags, refuse_key,
                                  reset_round, start)

NR = {16: 10, 24: 12, 32: 14}
#: key setup of ak_round_core: Nr forward steps after the handshake cycle
SETUP = {16: 11, 24: 13, 32: 15}

# ----------------------------------------------------------------------------------
# cocotb tests: the shared core bench, and what is special about this core
# ----------------------------------------------------------------------------------


@cocotb.test()
async def cocotb_kat_all(dut) -> None:
    """Every ECB KAT/MMT record of every key size the build has (one simulation)."""
    tb = await corebench.start_from_env(dut, seed=7)
    claims = Claims.from_env()
    n = await corebench.kat(tb, claims.key_sizes, claims)
    dut._log.info("%d blocks, %d keys", n, len(tb.keys))


@cocotb.test()
async def cocotb_key_and_block_same_cycle(dut) -> None:
    """key_valid_i and in_valid_i together: the key goes first, the block waits and
    is then encrypted under the new key."""
    tb = await start(dut)
    old, new = bytes(range(16)), bytes(range(100, 132))
    await tb.load_key(old)
    tb.send(bytes(16))
    await tb.drain()
    tb.pause()
    await RisingEdge(dut.clk_i)  # the last result leaves: the core is idle from here
    block = bytes.fromhex("00112233445566778899aabbccddeeff")
    dut.key_i.value = int.from_bytes(new, "big")
    dut.key_len_i.value = 2
    dut.key_valid_i.value = 1
    dut.in_data_i.value = int.from_bytes(block, "big")
    dut.in_decrypt_i.value = 0
    dut.in_tag_i.value = 1
    dut.in_valid_i.value = 1
    dut.out_ready_i.value = 1
    await FallingEdge(dut.clk_i)
    assert int(dut.key_ready_o.value) == 1
    assert int(dut.in_ready_o.value) == 0, "in_ready_o must be low while key_valid_i is high"
    await RisingEdge(dut.clk_i)  # key handshake
    dut.key_valid_i.value = 0
    waited = 0
    while True:
        await FallingEdge(dut.clk_i)
        if int(dut.in_ready_o.value):
            break
        waited += 1
        assert waited < 100
    assert waited + 1 == SETUP[32]
    await RisingEdge(dut.clk_i)  # block handshake
    dut.in_valid_i.value = 0
    cycles = 0
    while True:
        await FallingEdge(dut.clk_i)
        cycles += 1
        if int(dut.out_valid_o.value):
            break
        assert cycles < 100
    assert cycles == NR[32]
    got = int(dut.out_data_o.value).to_bytes(16, "big")
    assert got == AES(new).encrypt(block), "block was not processed under the new key"
    await RisingEdge(dut.clk_i)  # result taken
    tb.resume()
    await tb.load_key(new)
    tb.send(block)
    await tb.drain()


@cocotb.test()
async def cocotb_reset_mid_block(dut) -> None:
    """Reset in the middle of a block, of a stalled result and of a key setup leaves
    the core idle and keyless; a clean block goes through afterwards."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    for where in range(1, 16, 3):
        await reset_round(tb, rng, where, (16, 24, 32), "re", stalled=lambda ks: NR[ks] + 5,
                          setup_mod=9, final=False)


@cocotb.test()
async def cocotb_illegal_key_len(dut) -> None:
    """key_len_i = 3: handshake completes, in_ready_o then stays low until a legal
    key is loaded; nothing is ever produced under the illegal key."""
    tb = await start(dut)
    await check_block(tb, bytes(16), bytes(16))
    for _ in range(2):
        await refuse_key(tb, bytes(range(32)), 3, 60)
    krec = await check_block(tb, bytes(range(24)), bytes(range(16)), decrypt=True)
    assert krec.setup_cycles == SETUP[24]


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
CORE = get_core("round")


def _run(testcase: str | list[str], tag_width: int = 1, simulator: str = "verilator",
         **env: object) -> None:
    corebench.run(CORE, "test_round", HERE, testcase, tag_width=tag_width, simulator=simulator,
                  **env)


def test_registry_claims_match() -> None:
    assert CORE.top == "ak_round_core"
    assert CORE.latency == {128: 10, 192: 12, 256: 14}
    assert CORE.interval == {128: 10, 192: 12, 256: 14}
    assert CORE.key_setup == {8 * ks: n for ks, n in SETUP.items()}
    assert set(CORE.key_sizes) == {128, 192, 256} and CORE.decrypt


@pytest.mark.parametrize("key_size", [128, 192, 256])
def test_round_kat(key_size: int) -> None:
    _run("cocotb_kat", AK_KEY_SIZE=key_size)


def test_round_kat_stalled() -> None:
    _run("cocotb_kat", tag_width=4, AK_KEY_SIZE=192, AK_GAP=0.3, AK_STALL=0.5)


def test_round_exact_timing() -> None:
    _run("cocotb_exact_timing")


#: 20,000 random blocks in all: (blocks, gap probability, stall probability, TagWidth)
RANDOM_RUNS = [
    (5000, 0.0, 0.0, 1),
    (5000, 0.0, 0.5, 4),
    (4000, 0.5, 0.5, 4),
    (3000, 0.2, 0.2, 1),
    (3000, 0.1, 0.8, 4),
]


@pytest.mark.parametrize("blocks,gap,stall,tag_width", RANDOM_RUNS,
                         ids=[f"g{g}-s{s}-t{t}" for _, g, s, t in RANDOM_RUNS])
def test_round_random(blocks: int, gap: float, stall: float, tag_width: int) -> None:
    _run("cocotb_random", tag_width=tag_width, AK_BLOCKS=blocks, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=blocks + int(100 * gap) + int(10 * stall))


def test_round_random_total() -> None:
    assert sum(r[0] for r in RANDOM_RUNS) >= 20_000


def test_round_icarus() -> None:
    """The same RTL and test bench on Icarus Verilog 11 (slow there: a short subset)."""
    from aeskit.toolchain.paths import iverilog

    if iverilog() is None:
        pytest.skip("Icarus Verilog not installed")
    _run(["cocotb_exact_timing", "cocotb_key_and_block_same_cycle", "cocotb_illegal_key_len"],
         tag_width=4, simulator="icarus")


#: the round core with the other S-box implementations (registry names)
VARIANTS = ["round_comp", "round_canright", "round_lutinv"]


# the S-box of each variant is proven equal to the table for every Impl (ak_sbox_sel,
# tests/aeskit/formal); make test runs the core on lutinv, test-full on all three
# every variant in make test-full: their S-boxes are proven equal to the table
# (ak_sbox_sel) in make test, and the registry battery lints and bulk-tests them
@pytest.mark.parametrize("variant", [pytest.param(v, marks=pytest.mark.slow) for v in VARIANTS])
def test_round_sbox_variant(variant: str) -> None:
    """KATs of all key sizes under stalls, exact timing (unchanged by the S-box) and
    3,000 random stalled blocks with the S-box chosen by SboxImpl."""
    core = get_core(variant)
    assert core.top == CORE.top and core.parameters.get("SboxImpl") in (1, 2, 3)
    assert (core.latency, core.interval, core.key_setup) == (CORE.latency, CORE.interval,
                                                             CORE.key_setup)
    corebench.run(core, "test_round", HERE, ["cocotb_kat_all", "cocotb_exact_timing",
                                              "cocotb_random"],
                  tag_width=4, AK_GAP=0.2, AK_STALL=0.5, AK_BLOCKS=3000,
                  AK_SEED=40 + core.parameters["SboxImpl"])


@pytest.mark.parametrize("case", ["cocotb_key_reload", "cocotb_key_and_block_same_cycle",
                                  "cocotb_reset_mid_block", "cocotb_illegal_key_len",
                                  "cocotb_tags"])
def test_round_control(case: str) -> None:
    _run(case, tag_width=4)


#: the configurations of the reference core (registry names, docs/core-contract.md
#: "Configurations"): encrypt-only AES-128, encrypt-only, AES-128 only
CONFIGS = ["round_e128", "round_e", "round_128"]


# make test: round_e128 (its TagWidth 4 model is the one the refusal and key-wipe
# benches build); make test-full: the other two
@pytest.mark.parametrize("config", [c if c == "round_e128" else
                                    pytest.param(c, marks=pytest.mark.slow) for c in CONFIGS])
def test_round_configuration(config: str) -> None:
    """KATs of the sizes built (the directions built), exact timing (the cycle counts of
    a size do not change with the build) and 3,000 random stalled blocks; what the
    build lacks is refused in tests/hw/bench/contract/test_core_refusal.py."""
    core = get_core(config)
    assert core.top == CORE.top and set(core.parameters) == {"Directions", "KeySizes"}
    for k in core.key_sizes:
        assert (core.latency[k], core.interval[k], core.key_setup[k]) == \
            (CORE.latency[k], CORE.interval[k], CORE.key_setup[k])
    corebench.run(core, "test_round", HERE, ["cocotb_kat_all", "cocotb_exact_timing",
                                              "cocotb_random"],
                  tag_width=4, AK_GAP=0.2, AK_STALL=0.5, AK_BLOCKS=3000, AK_SEED=60)
