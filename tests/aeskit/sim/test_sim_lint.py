"""aeskit.sim.lint.refused: an illegal parameter is reported with the module's
message; a legal one is an assertion failure (so a refusal test can fail)."""

from __future__ import annotations

import pytest

from aeskit.sim.lint import refused
from aeskit.hw.manifest import sources_of_module

FIFO = sources_of_module("ak_xdam_fifo")


def test_refused_returns_the_message() -> None:
    out = refused("ak_xdam_fifo", FIFO, {"Depth": 3})
    assert "Depth=3 not a power of two" in out


def test_accepted_parameters_fail() -> None:
    with pytest.raises(AssertionError, match="accepted"):
        refused("ak_xdam_fifo", FIFO, {"Depth": 4})
