"""What a core's build lacks is refused, never silently wrong (docs/core-contract.md,
"Configurations"): :func:`aeskit.testbench.corebench.refusal` on every registry core that
lacks a key size or decryption (the configurations such as ``round_e128``, the
single-size unrolled T-table cores), and on ``round`` (the illegal code 3 only). Each
case offers the refused request, checks for 40 cycles that it is not accepted and
nothing comes out, and (a key) that a legal key works again; the bound contract
checker's rule C7 watches meanwhile.

``make test``: ``round`` and ``round_e128``; ``make test-full``: the others (each a
Verilator build of about ten seconds to a minute). This file is both the pytest module
and the cocotb module."""

from __future__ import annotations

from pathlib import Path

import pytest

from aeskit.hw import CORES, get_core
from aeskit.hw.registry import KEY_SIZES_ALL
from aeskit.testbench import corebench

# cocotb runs every test this module holds: the shared one
cocotb_refusal = corebench.cocotb_refusal

HERE = Path(__file__).resolve().parent
FAST = ("round", "round_e128")
#: every core's bench runs TagWidth 4 (the build is shared with its other benches)
TAG_WIDTH = 4


def _lacking() -> list[str]:
    """The registry cores that lack a key size or decryption."""
    return [c.name for c in CORES if not c.decrypt or tuple(c.key_sizes) != KEY_SIZES_ALL]


def _cases() -> list[object]:
    names = ["round", *_lacking()]
    return [n if n in FAST else pytest.param(n, marks=pytest.mark.slow) for n in names]


def test_configurations_are_registered() -> None:
    """Every fast case exists, and the configurations lack what their names say."""
    lacking = set(_lacking())
    assert set(FAST) - {"round"} <= lacking
    e128 = get_core("round_e128")
    assert e128.key_sizes == (128,) and not e128.decrypt
    assert e128.parameters == {"Directions": 1, "KeySizes": 1}


@pytest.mark.parametrize("name", _cases())
def test_refusal(name: str) -> None:
    corebench.run(get_core(name), Path(__file__).stem, HERE, "cocotb_refusal",
                  tag_width=TAG_WIDTH, AK_SEED=1)
