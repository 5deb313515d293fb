"""ak_tbox_unfolded with IntraPipe = 1 (registry entry ``tbox_unfolded_pp``, paper
003's "intra-pp" unfolded core, registers before the RAMs and in the XOR tree) on Verilator; cocotb tests in ``tbox_cocotb.py``.

Registry build (NrMax = 10, AES-128):
* every ECB KAT/MMT record for 128-bit keys, both directions, and again with gaps and
  stalls;
* exact latency 30, interval 1, key setup 12 (encrypt, decrypt, mixed);
* a full-rate stream (one block offered every cycle) with random back-pressure:
  tags in sequence, nothing lost, doubled or reordered; one result per cycle unstalled;
* random blocks with key changes between streams, gaps and stalls;
* key reload behind blocks in flight; 192/256-bit keys and key_len_i = 3 refused;
  reset mid-stream.
Run-time key sizes: a NrMax = 14 build (simulation only: 224 EBR do not fit the
LFE5U-85F) runs the 192/256-bit KATs, exact timing for all sizes (latency 30/36/42)
and a random stream of mixed key sizes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import get_core

HERE = Path(__file__).resolve().parent
CORE = get_core("tbox_unfolded_pp")
ENV = {"AK_KEY_SIZES": "128", "AK_LAT_ROUND": 3, "AK_PIPELINED": 1}
ENV_ALL = {"AK_KEY_SIZES": "128,192,256", "AK_LAT_ROUND": 3, "AK_PIPELINED": 1}


def _run(testcase: str | list[str], params: dict | None = None, env_base: dict = ENV,
         **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    run_cocotb(toplevel=CORE.top, sources=CORE.file_paths(), test_module="tbox_cocotb",
               test_dir=HERE, parameters={**CORE.parameters, "TagWidth": 4, **(params or {})},
               testcase=testcase,
               extra_env={k: str(v) for k, v in {**env_base, **env}.items()})


def test_registry_claims() -> None:
    assert CORE.parameters == {"IntraPipe": 1, "NrMax": 10}
    assert CORE.latency == {128: 30} and CORE.interval == {128: 1}
    assert CORE.key_setup == {128: 12} and CORE.key_sizes == (128,)


def test_tbox_unfolded_pp_kat() -> None:
    _run(["cocotb_kat", "cocotb_exact_timing"], AK_KEY_SIZE=128)


def test_tbox_unfolded_pp_kat_stalled_control() -> None:
    _run(["cocotb_kat", "cocotb_key_reload", "cocotb_illegal_and_reset"],
         AK_KEY_SIZE=128, AK_GAP=0.3, AK_STALL=0.5)


def test_tbox_unfolded_pp_stream() -> None:
    _run(["cocotb_full_rate_tags", "cocotb_random"], AK_BLOCKS=3000, AK_STALL=0.4,
         AK_PER_KEY=400, AK_SEED=4)


def test_tbox_unfolded_pp_all_key_sizes() -> None:
    """NrMax = 14: key size chosen at run time."""
    _run(["cocotb_exact_timing", "cocotb_random"], params={"NrMax": 14}, env_base=ENV_ALL,
         AK_BLOCKS=2000, AK_STALL=0.3, AK_PER_KEY=200, AK_SEED=5)


@pytest.mark.slow
@pytest.mark.parametrize("key_size", [192, 256])
def test_tbox_unfolded_pp_all_key_sizes_kat(key_size: int) -> None:
    _run("cocotb_kat", params={"NrMax": 14}, env_base=ENV_ALL, AK_KEY_SIZE=key_size)
