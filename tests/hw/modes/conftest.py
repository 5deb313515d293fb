"""Shared set-up of the mode-engine tests: one compiled harness per core and module."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from aeskit.harness.modes import ModeHarness


@pytest.fixture(scope="module")
def harnesses() -> Iterator[Callable[[str], ModeHarness]]:
    """``harnesses(core)``: the module's running harness for ``core`` (opened once)."""
    opened: dict[str, ModeHarness] = {}

    def get(name: str) -> ModeHarness:
        if name not in opened:
            opened[name] = ModeHarness(name)
        return opened[name]

    yield get
    for h in opened.values():
        h.close()
