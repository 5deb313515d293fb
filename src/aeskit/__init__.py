"""aeskit: synthesizable AES hardware and the tool that verifies, simulates,
synthesizes and compares it."""

from pathlib import Path

__version__ = "0.1.0"

#: Root of the source checkout (the folder holding ``hw/`` and ``src/``).
REPO_ROOT = Path(__file__).resolve().parents[2]
#: Root of the SystemVerilog sources.
HW_ROOT = REPO_ROOT / "hw"
#: Where builds, caches and reports go (never committed).
BUILD_ROOT = REPO_ROOT / "build"
