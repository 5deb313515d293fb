"""ak_compact8_core (registry ``compact8``, the byte-serial core of issue 50) on Verilator.

* every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record, 128/192/256-bit
  keys, encrypt and decrypt sections, against NIST;
* exact cycle counts, never stalled, for every key size and direction pattern:
  latency and interval 32(Nr+1)+1 = 353/417/481, key setup 16(Nr+1)+1 = 177/209/241
  (the registry's claims, checked by the shared core bench);
* random blocks against the model with random keys, sizes, directions, gaps and
  stalls; tags through a TagWidth = 4 build;
* key reload behind blocks in flight, reset in the middle of a block, of a stalled
  result and of a key setup, the illegal key length;
* the block-RAM S-box build ``compact8_bram`` (SboxImpl 4) and the encrypt-only
  AES-128 configurations ``compact8_e128``, ``compact8_bram_e128`` with their
  refusals (rule C7).

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest

from aeskit.hw import get_core
from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (Claims, check_block, cocotb_exact_timing, cocotb_kat,
                                  cocotb_key_reload, cocotb_random, cocotb_refusal,
                                  cocotb_tags, refuse_key, reset_round, start)

NR = {16: 10, 24: 12, 32: 14}
#: latency and interval: Nr + 1 passes of 32 cycles and the final write's edge
CYCLES = {16: 353, 24: 417, 32: 481}
#: key setup: one key byte per cycle, 16(Nr+1), after the handshake cycle
SETUP = {16: 177, 24: 209, 32: 241}


@cocotb.test()
async def cocotb_kat_all(dut) -> None:
    """Every ECB KAT/MMT record of all three key sizes (one simulation)."""
    tb = await corebench.start_from_env(dut, seed=7)
    n = await corebench.kat(tb, (128, 192, 256), Claims.from_env())
    dut._log.info("%d blocks, %d keys", n, len(tb.keys))


@cocotb.test()
async def cocotb_reset_mid_block(dut) -> None:
    """Reset in the middle of a block, of a stalled result and of a key setup leaves
    the core idle and keyless; a clean block goes through afterwards."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    for where in (1, 17, 40, 177, 300, 352, 420, 700):
        await reset_round(tb, rng, where, (16, 24, 32), "re", stalled=lambda ks: CYCLES[ks] + 5,
                          setup_mod=230, final=where % 2 == 0)


@cocotb.test()
async def cocotb_illegal_key_len(dut) -> None:
    """key_len_i = 3: handshake completes, in_ready_o then stays low until a legal
    key is loaded; nothing is ever produced under the illegal key."""
    tb = await start(dut)
    await check_block(tb, bytes(16), bytes(16))
    for _ in range(2):
        await refuse_key(tb, bytes(range(32)), 3, 300)
    krec = await check_block(tb, bytes(range(24)), bytes(range(16)), decrypt=True)
    assert krec.setup_cycles == SETUP[24]


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
CORE = get_core("compact8")


def _run(testcase: str | list[str], tag_width: int = 1, **env: object) -> None:
    corebench.run(CORE, "test_compact8", HERE, testcase, tag_width=tag_width, **env)


def test_compact8_claims() -> None:
    assert CORE.top == "ak_compact8_core"
    assert CORE.latency == {8 * ks: n for ks, n in CYCLES.items()}
    assert CORE.interval == {8 * ks: n for ks, n in CYCLES.items()}
    assert CORE.key_setup == {8 * ks: n for ks, n in SETUP.items()}
    assert all(CYCLES[ks] == 32 * (NR[ks] + 1) + 1 for ks in NR)
    assert all(SETUP[ks] == 16 * (NR[ks] + 1) + 1 for ks in NR)
    assert set(CORE.key_sizes) == {128, 192, 256} and CORE.decrypt and CORE.in_flight == 1


# 97 s (every key size under stalls): make test-full; make test keeps exact timing, the
# stalled random run, the block-RAM build and a configuration
@pytest.mark.slow
def test_compact8_kat() -> None:
    _run("cocotb_kat_all", tag_width=4, AK_GAP=0.2, AK_STALL=0.3)


def test_compact8_exact_timing() -> None:
    _run("cocotb_exact_timing")


# make test: the stalled run; the unstalled one, the control cases the block-RAM build
# also runs and the table build's configuration are in make test-full
@pytest.mark.parametrize("blocks,gap,stall,tag_width",
                         [pytest.param(400, 0.0, 0.0, 1, marks=pytest.mark.slow),
                          (300, 0.3, 0.5, 4)],
                         ids=["g0-s0-t1", "g0.3-s0.5-t4"])
def test_compact8_random(blocks: int, gap: float, stall: float, tag_width: int) -> None:
    _run("cocotb_random", tag_width=tag_width, AK_BLOCKS=blocks, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=blocks + int(100 * gap) + int(10 * stall))


@pytest.mark.parametrize("case", [pytest.param("cocotb_key_reload", marks=pytest.mark.slow),
                                  pytest.param("cocotb_reset_mid_block", marks=pytest.mark.slow),
                                  "cocotb_illegal_key_len", "cocotb_tags"])
def test_compact8_control(case: str) -> None:
    _run(case, tag_width=4)


@pytest.mark.slow  # make test: compact8_bram_e128's configuration bench runs the ROM build
def test_compact8_bram() -> None:
    """The block-RAM S-box build (SboxImpl 4: ak_sbox_rom2 (port A), 512 x 8 {dec, byte},
    the datapath's and the key schedule's only S-box): every KAT of all key sizes
    under stalls, exact timing (unchanged by the S-box), 300 random stalled blocks and
    the reset and key-reload cases."""
    core = get_core("compact8_bram")
    assert core.top == CORE.top and core.parameters.get("SboxImpl") == 4
    assert (core.latency, core.interval, core.key_setup) == (CORE.latency, CORE.interval,
                                                             CORE.key_setup)
    corebench.run(core, "test_compact8", HERE, ["cocotb_kat_all", "cocotb_exact_timing",
                                                 "cocotb_random", "cocotb_key_reload",
                                                 "cocotb_reset_mid_block"],
                  tag_width=4, AK_GAP=0.2, AK_STALL=0.5, AK_BLOCKS=300, AK_SEED=43)


@pytest.mark.parametrize("name", [pytest.param("compact8_e128", marks=pytest.mark.slow),
                                  "compact8_bram_e128"])
def test_compact8_configuration(name: str) -> None:
    """Issue 48's configurations (Directions, KeySizes): the AES-128 KATs, exact
    timing as the full build's, random stalled blocks of what the build has, and its
    refusals (a decryption on the encrypt-only build, 192/256-bit keys: not accepted,
    nothing out, a legal key works again)."""
    core = get_core(name)
    assert core.key_sizes == (128,) and core.parameters["KeySizes"] == 1
    assert not core.decrypt and core.parameters["Directions"] == 1
    assert (core.latency[128], core.interval[128], core.key_setup[128]) == \
        (CORE.latency[128], CORE.interval[128], CORE.key_setup[128])
    corebench.run(core, "test_compact8", HERE, ["cocotb_kat", "cocotb_exact_timing",
                                                 "cocotb_random", "cocotb_refusal"],
                  tag_width=4, claims=Claims.of(core, window=core.in_flight),
                  AK_KEY_SIZE=128, AK_BLOCKS=300, AK_GAP=0.2, AK_STALL=0.5, AK_SEED=48)
