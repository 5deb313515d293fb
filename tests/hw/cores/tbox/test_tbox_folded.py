"""ak_tbox_folded (registry entry ``tbox_folded``, paper 003) on Verilator.

The cocotb tests live in ``tbox_cocotb.py`` (shared by the tbox cores); this file
builds the core and runs them:

* every ECB KAT/MMT record, 128/192/256-bit keys, both directions (one key size
  with gaps and stalls and TagWidth = 4);
* exact latency Nr, interval Nr and key setup 57/63/76, for every key size and
  direction pattern (the registry's claims);
* random blocks against the model with random keys/sizes/directions, gaps and stalls;
* key reload behind blocks in flight; illegal key length; reset mid-stream;
* CBC encryption at full speed: Nr cycles per block with the chaining XOR formed
  combinationally from out_data_o.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import get_core
from aeskit.testbench import corebench

HERE = Path(__file__).resolve().parent
CORE = get_core("tbox_folded")


def _run(testcase: str | list[str], tag_width: int = 1, **env: object) -> None:
    corebench.run(CORE, "tbox_cocotb", HERE, testcase, tag_width=tag_width,
                  AK_TIMING_BLOCKS=40, **env)


def test_registry_claims() -> None:
    assert CORE.latency == {128: 10, 192: 12, 256: 14}
    assert CORE.interval == {128: 10, 192: 12, 256: 14}
    assert CORE.key_setup == {128: 57, 192: 63, 256: 76}  # ak_rk_fill, see its header
    assert CORE.key_sizes == (128, 192, 256) and CORE.decrypt and CORE.sbox == "tbox-ram"


@pytest.mark.parametrize("key_size", [128, 192, 256])
def test_tbox_folded_kat(key_size: int) -> None:
    _run("cocotb_kat", tag_width=4, AK_KEY_SIZE=key_size)


def test_tbox_folded_kat_stalled() -> None:
    _run("cocotb_kat", tag_width=4, AK_KEY_SIZE=256, AK_GAP=0.3, AK_STALL=0.5)


def test_tbox_folded_timing_cbc_control() -> None:
    _run(["cocotb_exact_timing", "cocotb_cbc_rate", "cocotb_key_reload",
          "cocotb_illegal_and_reset"], tag_width=4)


@pytest.mark.parametrize("blocks,gap,stall", [(3000, 0.0, 0.0), (2000, 0.3, 0.5)])
def test_tbox_folded_random(blocks: int, gap: float, stall: float) -> None:
    _run("cocotb_random", tag_width=4, AK_BLOCKS=blocks, AK_GAP=gap, AK_STALL=stall,
         AK_SEED=blocks + int(10 * stall))
