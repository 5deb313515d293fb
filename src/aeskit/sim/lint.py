"""Elaboration-time parameter checks of one RTL module, for tests.

Every aeskit module refuses an illegal parameter with an elaboration-time ``$fatal``
that names it; :func:`refused` runs Verilator's lint (which elaborates) on the module
with the given parameter overrides and the project's waiver file, and returns the
tool's output when elaboration failed. A test then asserts that the module's own
message is in it.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["refused"]


def refused(top: str, sources: Sequence[Path], parameters: Mapping[str, object],
            timeout: float = 300.0) -> str:
    """Lint ``top`` with ``parameters``; raise ``AssertionError`` if it is accepted,
    else return Verilator's output (stdout and stderr)."""
    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top,
           *(f"-G{k}={v}" for k, v in parameters.items()), str(WAIVERS),
           *map(str, sources)]
    res = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=timeout)
    out = res.stdout + res.stderr
    assert res.returncode != 0, f"{top} {dict(parameters)} accepted\n{out}"
    return out
