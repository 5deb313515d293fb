"""Key hygiene for EVERY core of the registry (:mod:`aeskit.verif.keywipe`): after the
documented wipe (docs/core-contract.md: an all-zero key of the largest size, its setup,
a reset) no register and no RAM word holds a word of the old key's schedule; all
internal state is read through the simulator. The build is the one of the core's own
bench and of test_cores_reset.py (registry parameters, TagWidth 4).

``make test`` runs the block-RAM core ``ttable_col`` (round keys in RAM, which no reset
clears), ``round`` (flip-flops only) and its configuration ``round_e128``; ``make
test-full`` every core. This file is
the pytest module and the cocotb module."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import cocotb
import pytest

from aeskit.hw import CORES, get_core
from aeskit.testbench import corebench
from aeskit.sim.cocotb_run import CocotbTestFailure
from aeskit.verif.keywipe import wipe_check

HERE = Path(__file__).resolve().parent
#: round_e128: a configuration (encrypt only, AES-128: the wipe loads its largest
#: size, 128 bits), on the model its refusal and configuration benches build anyway
FAST = ("ttable_col", "round", "round_e128")
TAG_WIDTH = 4


@cocotb.test()
async def cocotb_key_wipe(dut: Any) -> None:
    core = get_core(os.environ["AK_CORE"])
    tb = await corebench.start(dut)
    for line in await wipe_check(tb, list(core.key_sizes), core.decrypt,
                                 int(os.environ.get("AK_SEED", "1")),
                                 zero_key=os.environ.get("AK_WIPE_ZERO_KEY", "1") == "1"):
        dut._log.info(line)


@pytest.mark.parametrize("name", [c.name if c.name in FAST else
                                  pytest.param(c.name, marks=pytest.mark.slow)
                                  for c in CORES])
def test_key_wipe(name: str) -> None:
    corebench.run(get_core(name), Path(__file__).stem, HERE, "cocotb_key_wipe",
                  tag_width=TAG_WIDTH, AK_SEED=1)


def test_a_reset_alone_leaves_round_keys_in_block_ram() -> None:
    """Why the wipe loads a zero key: ttable_col keeps its round keys in block RAM,
    which a reset does not clear; the scan finds them after a reset alone (so it can
    fail)."""
    with pytest.raises(CocotbTestFailure, match="still hold words of the old key"):
        corebench.run(get_core("ttable_col"), Path(__file__).stem, HERE, "cocotb_key_wipe",
                      tag_width=TAG_WIDTH, AK_SEED=1, AK_WIPE_ZERO_KEY=0)
