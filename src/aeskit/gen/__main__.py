"""``python -m aeskit.gen [--check] [--html DIR]``: (re)write or check every generated
file (see :mod:`aeskit.gen`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from aeskit import REPO_ROOT
from aeskit.gen import stale, write


def _rel(p: Path) -> str:
    return p.relative_to(REPO_ROOT).as_posix() if p.is_relative_to(REPO_ROOT) else str(p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m aeskit.gen",
        description="generate every generated file: table and field-arithmetic RTL, "
                    "the register blocks, generated doc blocks, timing diagrams")
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a committed file differs")
    ap.add_argument("--html", metavar="DIR", type=Path,
                    help="also write the peakrdl-html register documentation of "
                         "every register map to DIR/<map> (not committed)")
    args = ap.parse_args(argv)
    if args.html:
        from aeskit.gen.regs import write_html

        for page in write_html(args.html):
            print(f"aeskit.gen: wrote {page}")
    if args.check:
        bad = stale()
        for p in bad:
            print(f"aeskit.gen: {_rel(p)} is out of date", file=sys.stderr)
        return 1 if bad else 0
    written = write()
    for p in written:
        print(f"aeskit.gen: wrote {_rel(p)}")
    if not written:
        print("aeskit.gen: every generated file is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
