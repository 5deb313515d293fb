#!/usr/bin/env python3
"""Generate the field-arithmetic S-box primitives of hw/primitives (composite field,
normal-basis tower, LUT inverter, affine maps, block-RAM tables, paper-002 maps).

Thin wrapper around ``python -m aeskit.gen``; see :mod:`aeskit.gen`.

Usage::

    python tools/gen_primitives.py           # (re)write the files
    python tools/gen_primitives.py --check   # exit 1 if a committed file differs
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from aeskit.gen.__main__ import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
