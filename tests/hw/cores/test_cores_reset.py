"""Random resets and unknown initial state, for EVERY core of the registry.

Both checks are shared cocotb tests of :mod:`aeskit.testbench.corebench`, bound here once
(this file is the pytest module and the cocotb module) and run on every registry core
with its registry parameters and claims, at TagWidth 4 -- the build each core's own
bench already makes in the same tier, so no Verilator build is added:

* :func:`aeskit.testbench.corebench.random_resets`: random streams (key sizes, directions,
  tags, gaps, stalls) reset asynchronously at random cycles, aimed in turn at a key
  setup, blocks in flight and a stalled output; after each reset nothing stale comes
  out and the core is idle and keyless (docs/core-contract.md) until a new key, which
  takes the claimed setup, and its blocks come out equal to the model;
* :func:`aeskit.testbench.corebench.initial_state` under five ``+verilator+seed`` values
  (random initial register values; the seed is a run-time plusarg, one build): reset,
  idle and keyless, then a key of every claimed size and blocks of both directions
  with the claimed setup and latency, equal to the model. The seeds must give the
  core different outputs before the reset, or the check would run one state five times.

``make test`` runs both on :data:`FAST` only; ``make test-full`` on every core.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import CORES, get_core
from aeskit.testbench import corebench
from aeskit.sim.cocotb_run import CocotbTestFailure

# cocotb runs every test this module holds: the two shared tests
cocotb_random_resets = corebench.cocotb_random_resets
cocotb_initial_state = corebench.cocotb_initial_state

HERE = Path(__file__).resolve().parent
#: the one core of ``make test``: its TagWidth 4 model is built by its own bench in
#: ``make test`` anyway, and it is the cheapest such build (measured 2026-11-25, one
#: build at a time: ttable_col 9.1-9.7 s, tbox_folded 10.2 s, ttable_round 10.5 s,
#: round 11.1 s)
FAST = "ttable_col"
#: every core's bench runs TagWidth 4 (so the model is built once for both)
TAG_WIDTH = 4
#: the +verilator+seed values of the initial-state check (every other run uses 1)
SEEDS = (2, 3, 4, 5, 6)


def _cores() -> list[object]:
    """Every registry core; all but FAST marked slow (make test-full)."""
    return [c.name if c.name == FAST else pytest.param(c.name, marks=pytest.mark.slow)
            for c in CORES]


def _run(name: str, testcase: str, seed: int) -> Path:
    return corebench.run(get_core(name), Path(__file__).stem, HERE, testcase,
                         tag_width=TAG_WIDTH, seed=seed, AK_SEED=seed)


def test_fast_core_is_registered() -> None:
    assert FAST in {c.name for c in CORES}


@pytest.mark.parametrize("name", _cores())
def test_random_resets(name: str) -> None:
    """24 random resets (corebench.random_resets), seed 1."""
    _run(name, "cocotb_random_resets", seed=1)


@pytest.mark.parametrize("name", _cores())
def test_initial_state(name: str) -> None:
    """corebench.initial_state under every seed of SEEDS; the failures name their seed."""
    failures: list[str] = []
    outputs: dict[int, str] = {}
    for seed in SEEDS:
        try:
            results = _run(name, "cocotb_initial_state", seed)
        except CocotbTestFailure as exc:
            failures.append(f"+verilator+seed+{seed}: {exc}")
            continue
        outputs[seed] = (results.parent / corebench.INITIAL_OUTPUTS_FILE).read_text()
    assert not failures, f"{name}: {len(failures)} of {len(SEEDS)} seeds failed:\n" + \
        "\n".join(failures)
    assert len(set(outputs.values())) > 1, (
        f"{name}: every seed gave the same outputs before the reset, so the seed does not "
        f"randomise the initial state: {outputs}")
