"""``python -m aeskit.gen [--check]``: (re)write or check the generated primitives."""

from __future__ import annotations

import argparse
import sys

from aeskit.gen import stale, write


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m aeskit.gen",
                                 description="generate the field-arithmetic S-box primitives")
    ap.add_argument("--check", action="store_true",
                    help="do not write; exit 1 if a committed file differs")
    args = ap.parse_args(argv)
    if args.check:
        bad = stale()
        for p in bad:
            print(f"aeskit.gen: {p} is out of date", file=sys.stderr)
        return 1 if bad else 0
    for p in write():
        print(f"aeskit.gen: wrote {p}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
