"""ak_tbox_unfolded on Verilator, both registry configurations of paper 003's unfolded
core; cocotb tests in ``tbox_cocotb.py``.

* ``tbox_unfolded``: IntraPipe = 0 ("inter-pp": one register per round), latency 10;
* ``tbox_unfolded_pp``: IntraPipe = 1 ("intra-pp": registers before the RAMs and in the
  XOR tree too), latency 30.

For each: every ECB KAT/MMT vector (AES-128) both directions; exact latency, interval 1
and key setup 57 (encrypt, decrypt, mixed); random stalls and gaps; key reload, illegal
key length and reset mid-stream; a full-rate stream with random back-pressure checking
tags in sequence. An NrMax = 14 build (not registered: 224 EBR exceed the LFE5U-85F)
runs exact timing for all key sizes and a random stream of mixed key sizes; its
192/256-bit KATs are in the long regression.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import CoreSpec, get_core
from aeskit.hw.catalog.memory_primitives import rk_fill_cycles
from aeskit.testbench import corebench
from aeskit.testbench.corebench import Claims

HERE = Path(__file__).resolve().parent

# registry name -> (IntraPipe, cycles per round, latency of AES-128)
VARIANTS = {"tbox_unfolded": (0, 1, 12), "tbox_unfolded_pp": (1, 3, 32)}
#: cycles the output buffer (ak_pipe_outbuf) adds to the round units' latency
OUTBUF_CYCLES = 2


def _claims(core: CoreSpec, all_sizes: bool) -> Claims:
    """The registry's claims (AES-128); for the NrMax = 14 build (not registered) the
    same rule for every key size: latency cycles-per-round * Nr + the output buffer,
    interval 1, the key setup of the word-serial ak_rk_fill."""
    if not all_sizes:
        return Claims.of(core)
    sizes = (128, 192, 256)
    nr = {128: 10, 192: 12, 256: 14}
    return Claims.of(core, key_sizes=sizes,
                     latency={k: VARIANTS[core.name][1] * nr[k] + OUTBUF_CYCLES for k in sizes},
                     interval={k: 1 for k in sizes}, setup={k: rk_fill_cycles(k) for k in sizes})


def _run(core: CoreSpec, testcase: str | list[str], params: dict | None = None,
         all_sizes: bool = False, **env: object) -> None:
    corebench.run(core, "tbox_cocotb", HERE, testcase, tag_width=4, params=params,
                  claims=_claims(core, all_sizes), **{"AK_TIMING_BLOCKS": 40, **env})


@pytest.fixture(params=list(VARIANTS))
def core(request: pytest.FixtureRequest) -> CoreSpec:
    return get_core(request.param)


def test_registry_claims(core: CoreSpec) -> None:
    intra, _, latency = VARIANTS[core.name]
    params = dict(core.parameters)
    # the key store's write chain changes no cycle (ak_rk_store), only the netlist
    assert 0 <= params.pop("RkGroup", 0) <= 10
    assert params == {"IntraPipe": intra, "NrMax": 10}
    assert core.latency == {128: latency} and core.interval == {128: 1}
    assert latency == 10 * VARIANTS[core.name][1] + OUTBUF_CYCLES
    assert core.key_setup == {128: 57} and core.key_sizes == (128,)


def test_kat(core: CoreSpec) -> None:
    _run(core, ["cocotb_kat", "cocotb_exact_timing"], AK_KEY_SIZE=128)


def test_kat_stalled_control(core: CoreSpec) -> None:
    _run(core, ["cocotb_kat", "cocotb_key_reload", "cocotb_illegal_and_reset"],
         AK_KEY_SIZE=128, AK_GAP=0.3, AK_STALL=0.5)


def test_stream(core: CoreSpec) -> None:
    _run(core, ["cocotb_full_rate_tags", "cocotb_random"], AK_BLOCKS=3000, AK_STALL=0.4,
         AK_PER_KEY=400, AK_SEED=4)


# the NrMax = 14 build of the intra-pipelined variant (a 2-minute build) in test-full
@pytest.mark.parametrize("core", ["tbox_unfolded",
                                  pytest.param("tbox_unfolded_pp", marks=pytest.mark.slow)],
                         indirect=True)
def test_all_key_sizes(core: CoreSpec) -> None:
    """NrMax = 14: key size chosen at run time."""
    _run(core, ["cocotb_exact_timing", "cocotb_random"], params={"NrMax": 14}, all_sizes=True,
         AK_BLOCKS=2000, AK_STALL=0.3, AK_PER_KEY=200, AK_SEED=5)


@pytest.mark.slow
@pytest.mark.parametrize("key_size", [192, 256])
def test_all_key_sizes_kat(core: CoreSpec, key_size: int) -> None:
    _run(core, "cocotb_kat", params={"NrMax": 14}, all_sizes=True, AK_KEY_SIZE=key_size)
