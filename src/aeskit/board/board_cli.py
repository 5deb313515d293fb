"""``aeskit board``: the UART demo's bitstream for a board (:mod:`aeskit.board.build`).

Exit status: 0 the bitstream and its timing summary written; 1 the design does not
fit the board's FPGA, misses its clock, or a tool failed (one line; no bitstream);
2 a bad argument (unknown board or core, a seed below 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from aeskit.board.boards import BOARDS, BuildError, board_pins, get_board

__all__ = ["add_parser", "cmd_board"]


def _bad_argument(args: argparse.Namespace) -> str | None:
    """What is wrong with the arguments, before anything is built."""
    from aeskit.hw import CORES

    if args.seed < 1:
        return f"--seed must be 1 or more, got {args.seed}"
    if args.baud <= 0:
        return f"--baud must be positive, got {args.baud}"
    if args.core is not None and args.core not in {c.name for c in CORES}:
        return f"unknown core {args.core!r} (aeskit cores lists them)"
    if args.out is not None:
        from aeskit.paths import PathError, check_out_dir

        try:
            check_out_dir(args.out)
        except PathError as e:
            return str(e)
    bp = board_pins(get_board(args.board))
    if bp.clock_hz < 4 * args.baud:
        return (f"--baud {args.baud} is too fast for the {bp.clock_hz / 1e6:g} MHz clock of "
                f"{args.board} (at least 4 clock cycles a bit)")
    return None


def cmd_board(args: argparse.Namespace) -> int:
    from aeskit.board.build import build  # the synthesis tools only when building

    try:
        bad = _bad_argument(args)
    except BuildError as e:  # the board's pins cannot be read (amaranth-boards missing)
        bad = str(e)
    if bad is not None:
        print(f"aeskit: error: {bad}", file=sys.stderr)
        return 2
    try:
        result = build(args.board, args.core, seed=args.seed, baud=args.baud,
                       out_dir=Path(args.out) if args.out else None,
                       progress=lambda m: print(f"[aeskit] {m}", file=sys.stderr, flush=True))
    except BuildError as e:
        print(f"aeskit: error: {e}", file=sys.stderr)
        return 1
    print(result.summary())
    print(f"bitstream: {result.bitstream}")
    print(f"timing:    {result.out_dir / 'timing.txt'}")
    return 0


def add_parser(sub: Any) -> None:
    """``aeskit board`` on the subparsers ``sub`` of the aeskit parser."""
    s = sub.add_parser(
        "board", help="a bitstream of the UART demo for an FPGA board (docs/boards.md)",
        epilog="exit status: 0 bitstream written; 1 does not fit, misses the board clock "
               "or a tool failed (no bitstream); 2 a bad argument")
    s.add_argument("board", choices=list(BOARDS), metavar="BOARD",
                   help=f"one of: {', '.join(BOARDS)}")
    s.add_argument("--core", help="registry core of the demo (default: the board's: "
                   + ", ".join(f"{b.name} {b.default_core}" for b in BOARDS.values()
                               if "-" not in b.name) + ")")
    s.add_argument("--baud", type=int, default=115_200, help="UART bit rate (default: 115200)")
    s.add_argument("--seed", type=int, default=1, help="nextpnr placement seed (default: 1)")
    s.add_argument("--out", help="output folder (default: build/board/<board>/<core>)")
    s.set_defaults(func=cmd_board)
