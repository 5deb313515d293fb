"""aeskit.sim.lint.refused: an illegal parameter is reported with the module's
message; a legal one is an assertion failure (so a refusal test can fail)."""

from __future__ import annotations

import pytest

from aeskit.sim.lint import refused
from aeskit.hw.manifest import sources_of_module

FIFO = sources_of_module("ak_fifo")


def test_refused_returns_the_message() -> None:
    out = refused("ak_fifo", FIFO, {"Depth": 0})
    assert "Depth must be >= 1, got 0" in out


def test_accepted_parameters_fail() -> None:
    with pytest.raises(AssertionError, match="accepted"):
        refused("ak_fifo", FIFO, {"Depth": 4})
