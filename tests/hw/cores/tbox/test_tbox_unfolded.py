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

HERE = Path(__file__).resolve().parent

# registry name -> (IntraPipe, cycles per round, latency of AES-128)
VARIANTS = {"tbox_unfolded": (0, 1, 12), "tbox_unfolded_pp": (1, 3, 32)}
#: cycles the output buffer (ak_pipe_outbuf) adds to the round units' latency
OUTBUF_CYCLES = 2


def _run(core: CoreSpec, testcase: str | list[str], params: dict | None = None,
         all_sizes: bool = False, **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    base = {"AK_KEY_SIZES": "128,192,256" if all_sizes else "128",
            "AK_LAT_ROUND": VARIANTS[core.name][1], "AK_LAT_EXTRA": OUTBUF_CYCLES,
            "AK_PIPELINED": 1}
    run_cocotb(toplevel=core.top, sources=core.file_paths(), test_module="tbox_cocotb",
               test_dir=HERE, parameters={**core.parameters, "TagWidth": 4, **(params or {})},
               testcase=testcase,
               extra_env={k: str(v) for k, v in {**base, **env}.items()})


@pytest.fixture(params=list(VARIANTS))
def core(request: pytest.FixtureRequest) -> CoreSpec:
    return get_core(request.param)


def test_registry_claims(core: CoreSpec) -> None:
    intra, _, latency = VARIANTS[core.name]
    assert core.parameters == {"IntraPipe": intra, "NrMax": 10}
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


def test_all_key_sizes(core: CoreSpec) -> None:
    """NrMax = 14: key size chosen at run time."""
    _run(core, ["cocotb_exact_timing", "cocotb_random"], params={"NrMax": 14}, all_sizes=True,
         AK_BLOCKS=2000, AK_STALL=0.3, AK_PER_KEY=200, AK_SEED=5)


@pytest.mark.slow
@pytest.mark.parametrize("key_size", [192, 256])
def test_all_key_sizes_kat(core: CoreSpec, key_size: int) -> None:
    _run(core, "cocotb_kat", params={"NrMax": 14}, all_sizes=True, AK_KEY_SIZE=key_size)
