"""aeskit: synthesizable AES hardware and the tool that verifies, simulates,
synthesizes and compares it."""

import os
from pathlib import Path

__version__ = "0.1.0"

#: Root of the source checkout (the folder holding ``hw/`` and ``src/``).
REPO_ROOT = Path(__file__).resolve().parents[2]
#: Root of the SystemVerilog sources.
HW_ROOT = REPO_ROOT / "hw"
#: Where builds, caches and reports go (never committed).
#: ``AESKIT_BUILD_ROOT`` moves it (e.g. to see what a fresh clone does, with no local
#: caches; keep it outside /tmp, which the YoWASP tools cannot see).
BUILD_ROOT = Path(os.environ.get("AESKIT_BUILD_ROOT") or REPO_ROOT / "build").resolve()
