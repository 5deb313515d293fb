"""The paper-002 cores on Verilator: ``ueno`` (Ueno et al.'s unified datapath) and the
conventional datapaths of the paper's Section 2 that it is compared with
(``satoh``, ``lutz``, ``liu``), and ``ueno_mux`` (ueno with output multiplexers instead of
the demultiplexer, an FPGA variant). One parametrized bench (cocotb tests in
``p002_cocotb.py``) for all of them; the claims (latency, interval, key setup) are
read from the registry and checked exactly:

* every ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT record for 128/192/256-bit
  keys, encrypt and decrypt sections, against the NIST files (once more for 192 bits
  with input gaps and output stalls);
* exact latency, ECB interval and key setup, never stalled, every key size and
  direction pattern;
* CBC encryption and decryption at full speed (a zero-latency mode engine chaining
  through out_data_o): results against the model, cycles per block == interval;
* random blocks against the model with random keys/sizes/directions/tags, random
  input gaps and output stalls (6,000 per core);
* key reload behind blocks, the illegal key length, reset mid-block / mid-setup,
  tags;
* the CBC Monte Carlo test (CAVP CBCMCT files) through the compiled harness with
  gaps and stalls: the first outer iteration here, all 100 in ``-m slow``.

``make test`` runs the AES-128 KAT on every core, the stalled random run on every core
but ``ueno_mux``, and the rest on ``ueno`` and ``lutz`` (the two key schedules);
``make test-full`` all of it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aeskit.hw import CORES, get_core
from aeskit.model.mct import run_mct
from aeskit.testbench import corebench
from aeskit.harness.core import Harness, RtlCipher
from aeskit.vectors import mct_vectors

HERE = Path(__file__).resolve().parent
PAPER = "002 Ueno et al."
#: the paper-002 cores of the registry (the test fails if one is missing)
NAMES = ["ueno", "ueno_mux", "satoh", "lutz", "liu"]
P002 = [c.name for c in CORES if c.paper == PAPER and "Directions" not in c.parameters]
#: their encrypt-only AES-128 configurations (docs/core-contract.md "Configurations")
CONFIGS = [f"{n}_e128" for n in NAMES if n != "ueno_mux"]


def _run(name: str, testcase: str | list[str], tag_width: int = 1, **env: object) -> None:
    corebench.run(get_core(name), "p002_cocotb", HERE, testcase, tag_width=tag_width, **env)


def test_registry_entries() -> None:
    """The four cores are registered with the cycle counts the paper gives: 11 cycles
    per AES-128 block (Nr + 1: a pre-round cycle) for ueno, satoh and liu, 10 (Nr:
    initial AddRoundKey and round 1 in one cycle) for lutz; key setup Nr + 1."""
    assert P002 == [n for n in NAMES if n in P002] and set(P002) == set(NAMES), P002
    for name in NAMES:
        core = get_core(name)
        extra = 0 if name == "lutz" else 1
        want = {128: 10 + extra, 192: 12 + extra, 256: 14 + extra}
        assert core.latency == want and core.interval == want, name
        assert core.key_setup == {128: 11, 192: 13, 256: 15}, name
        assert core.key_sizes == (128, 192, 256) and core.decrypt and core.in_flight == 1


#: ueno_mux is ueno with output multiplexers instead of the demultiplexer (the same RTL,
#: another parameter value): make test runs its AES-128 KAT, make test-full the rest of
#: its matrix
VARIANT = "ueno_mux"
#: the unstalled random run, the CBC MCT's first iteration, the KATs and the
#: timing/control bench: make test runs them on ueno and lutz (the two key schedules),
#: make test-full on every core; make test keeps one cocotb build of each other core:
#: the stalled random run (satoh, liu) or the AES-128 KAT (ueno_mux, the same RTL as
#: ueno); the registry's battery runs every core's KAT/MMT at every key size through
#: the compiled harness, exact timing in the contract bench
MAIN = ("ueno", "lutz")
KAT_CASES = [(n, ks) if n in MAIN or (n == VARIANT and ks == 128)
             else pytest.param(n, ks, marks=pytest.mark.slow)
             for ks in (128, 192, 256) for n in NAMES]
VARIANT_SLOW = [pytest.param(n, marks=pytest.mark.slow) if n == VARIANT else n for n in NAMES]
MAIN_ONLY = [n if n in MAIN else pytest.param(n, marks=pytest.mark.slow) for n in NAMES]


@pytest.mark.parametrize("name,key_size", KAT_CASES, ids=[f"{ks}-{n}" for ks in (128, 192, 256)
                                                          for n in NAMES])
def test_kat(name: str, key_size: int) -> None:
    _run(name, "cocotb_kat", AK_KEY_SIZE=key_size)


@pytest.mark.parametrize("name", MAIN_ONLY)
def test_kat_stalled(name: str) -> None:
    _run(name, "cocotb_kat", tag_width=4, AK_KEY_SIZE=192, AK_GAP=0.3, AK_STALL=0.5)


@pytest.mark.parametrize("name", MAIN_ONLY)
def test_timing_cbc_control(name: str) -> None:
    _run(name, ["cocotb_exact_timing", "cocotb_cbc_rate", "cocotb_key_reload",
                "cocotb_illegal_and_reset", "cocotb_tags"], tag_width=4)


#: (blocks, gap probability, stall probability, TagWidth)
RANDOM_RUNS = [(3000, 0.0, 0.0, 1), (3000, 0.3, 0.5, 4)]


RANDOM_CASES = [pytest.param(n, *run, marks=pytest.mark.slow)
                if n == VARIANT or (run[2] == 0.0 and n not in MAIN) else (n, *run)
                for run in RANDOM_RUNS for n in NAMES]


@pytest.mark.parametrize("name,blocks,gap,stall,tag_width", RANDOM_CASES,
                         ids=[f"g{g}-s{s}-{n}" for _, g, s, _ in RANDOM_RUNS for n in NAMES])
def test_random(name: str, blocks: int, gap: float, stall: float, tag_width: int) -> None:
    _run(name, "cocotb_random", tag_width=tag_width, AK_BLOCKS=blocks, AK_GAP=gap,
         AK_STALL=stall, AK_SEED=NAMES.index(name) * 100 + int(10 * stall))


def _cbc_mct(name: str, iterations: int) -> None:
    core = get_core(name)
    with Harness(core) as h:
        for ks in (128, 192, 256):
            for decrypt in (False, True):
                vecs = [v for v in mct_vectors("CBC", ks) if v.decrypt == decrypt]
                assert len(vecs) == 100, f"CBC MCT {ks} decrypt={decrypt}: {len(vecs)} records"
                seed = random.Random(f"{name}{ks}{decrypt}")
                res = run_mct("CBC", lambda k: RtlCipher(h, k, gap_pct=10, stall_pct=10,
                                                         seed=seed.getrandbits(32)),
                              vecs[0].key, vecs[0].iv, vecs[0].input, decrypt, iterations)
                assert len(res) == iterations
                for r, v in zip(res, vecs):
                    assert (r.key, r.iv, r.input) == (v.key, v.iv, v.input), \
                        f"{v.file}:{v.line}: MCT inputs diverged"
                    assert r.output == v.output, f"{v.file}:{v.line}: {name} CBC MCT mismatch"


@pytest.mark.parametrize("name", MAIN_ONLY)
def test_cbc_mct_first_iteration(name: str) -> None:
    _cbc_mct(name, 1)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_cbc_mct_full(name: str) -> None:
    _cbc_mct(name, 100)


@pytest.mark.slow
@pytest.mark.parametrize("name", CONFIGS)
def test_configuration(name: str) -> None:
    """The encrypt-only AES-128 build of each core (ak_round_ctrl's Directions and
    KeySizes): the AES-128 encryption KATs, exact timing as the full build's and 3,000
    random stalled blocks; refusals in tests/hw/bench/contract/test_core_refusal.py."""
    core, base = get_core(name), get_core(name.removesuffix("_e128"))
    assert core.key_sizes == (128,) and not core.decrypt and core.paper == PAPER
    assert (core.latency[128], core.key_setup[128]) == (base.latency[128],
                                                        base.key_setup[128])
    corebench.run(core, "p002_cocotb", HERE, ["cocotb_kat", "cocotb_exact_timing",
                                               "cocotb_random"],
                  tag_width=4, AK_KEY_SIZE=128, AK_BLOCKS=3000, AK_GAP=0.2, AK_STALL=0.5,
                  AK_SEED=61)
