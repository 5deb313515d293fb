"""``aeskit uart``: encrypt, decrypt or CMAC a file on an FPGA board that runs the UART
demo (docs/uart_demo.md), over its USB-UART.

The arguments are checked as ``aeskit encrypt`` checks them (the same functions:
:func:`aeskit.crypt.filecrypt.check_args`, :func:`~aeskit.crypt.filecrypt.parse_hex`,
:mod:`aeskit.paths`), before the port is opened; the output is written only when the
board answered every frame. Errors are one line ``aeskit: error: ...``: exit 2 for a
bad argument or input, 1 when the board cannot be reached, does not answer or answers
an error (nothing written).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from aeskit.board import protocol
from aeskit.board.transport import BoardError, SerialTransport, run
from aeskit.paths import (STDIO, OutputExists, OutputFile, PathError, check_input,
                          check_output, read_input)

#: the core of the demo's default build (aeskit.hw.systems.uart_demo.DEFAULT_CORE)
DEFAULT_CORE = "compact32_bram_e128"
OPS = ("encrypt", "decrypt", "cmac")
MODES = ("ecb", "cbc", "ctr")


def _error(msg: object, code: int = 2) -> int:
    print(f"aeskit: error: {msg}", file=sys.stderr)
    return code


class _Progress:
    """``[aeskit] uart: N/M bytes`` on stderr, at most once a second and at the end."""

    def __init__(self) -> None:
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - self.last >= 1.0:
            self.last = now
            print(f"[aeskit] uart: {done}/{total} bytes", file=sys.stderr, flush=True)


def _check(args: argparse.Namespace, op: str) -> tuple[bytes, bytes | None, bytes]:
    """Every argument, path and the input's length; CryptInputError, UnknownCoreError
    or PathError before the port is opened. The key, IV and data."""
    from aeskit.hw import get_core
    from aeskit.crypt.filecrypt import check_args, parse_hex

    check_input(args.input)
    check_output(args.output, overwrite=args.force)
    core = get_core(args.core)
    key = parse_hex(args.key, "--key")
    iv = parse_hex(args.iv, "--iv") if getattr(args, "iv", None) is not None else None
    data = read_input(args.input)
    mode = "cmac" if op == "cmac" else args.mode
    check_args(core, mode, key, iv, op == "decrypt", len(data),
               tag_len=args.tag_len if op == "cmac" else None)
    return key, iv, data


def cmd_uart(args: argparse.Namespace, op: str) -> int:
    from aeskit.hw import UnknownCoreError
    from aeskit.crypt.filecrypt import CryptInputError

    try:
        key, iv, data = _check(args, op)
    except OutputExists as exc:
        return _error(f"{exc}; pass --force to overwrite")
    except (CryptInputError, UnknownCoreError, PathError) as exc:
        return _error(exc)
    progress = _Progress()
    if op == "cmac":
        operation = protocol.cmac(key, data, progress=progress)
    else:
        operation = protocol.crypt(args.mode, key, iv, data, op == "decrypt",
                                   progress=progress)
    t0 = time.monotonic()
    try:
        port = SerialTransport(args.port, args.baud)
        try:
            with OutputFile(args.output, overwrite=args.force) as out:
                result = run(operation, port, args.timeout)
                if op == "cmac":
                    result = result[:args.tag_len]
                out.commit(result)
        finally:
            port.close()
    except (BoardError, protocol.ProtocolError, PathError) as exc:
        return _error(f"{exc}; nothing written", 1)
    what = "CMAC of" if op == "cmac" else f"{op}ed ({args.mode.upper()})"
    dest = "standard output" if args.output == STDIO else args.output
    print(f"[aeskit] uart: {what} {len(data)} bytes on the board at {args.port} in "
          f"{time.monotonic() - t0:.1f} s -> {dest}", file=sys.stderr)
    return 0


def add_parser(sub: Any) -> None:
    """``aeskit uart`` on the subparsers ``sub`` of the aeskit parser."""
    u = sub.add_parser("uart", help="encrypt, decrypt or CMAC a file on an FPGA board "
                                    "running the UART demo (docs/uart_demo.md)",
                       epilog="exit status: 0 done (the output written); 1 the board "
                              "could not be reached, did not answer or answered an error "
                              "(nothing written); 2 a bad argument or input")
    u.add_argument("--port", required=True,
                   help="the board's serial port, e.g. /dev/ttyUSB0 or COM3 (required)")
    u.add_argument("--baud", type=int, default=115_200, help="UART bit rate (default: 115200)")
    u.add_argument("--timeout", type=float, default=2.0,
                   help="seconds to wait for each answer (default: 2)")
    u.add_argument("--core", default=DEFAULT_CORE,
                   help="the core the board's demo was built with (its key sizes and "
                        "directions are checked before anything is sent; default: "
                        f"{DEFAULT_CORE})")
    ops = u.add_subparsers(dest="uart_op", required=True, metavar="OP",
                           help="encrypt, decrypt or cmac")
    for op in OPS:
        s = ops.add_parser(op,
                           help="the 16-byte AES-CMAC tag of IN (OUT: the tag)" if op == "cmac"
                           else f"{op} IN (ECB, CBC: whole blocks; CTR: any length)")
        if op != "cmac":
            s.add_argument("--mode", default="ecb", choices=MODES,
                           help="the block cipher mode (default: ecb)")
            s.add_argument("--iv", help="hex, 32 digits: the CBC IV or the CTR initial "
                                        "counter block (ECB takes none)")
        else:
            s.add_argument("--tag-len", type=int, default=16, metavar="N",
                           help="tag bytes written, 4..16 (default: 16)")
        s.add_argument("--key", required=True, help="hex, 32/48/64 digits (required)")
        s.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
        s.add_argument("input", metavar="IN", help="input file, - for standard input")
        s.add_argument("output", metavar="OUT",
                       help="output file, - for standard output; written only when all "
                            "went well")
        s.set_defaults(func=lambda a, o=op: cmd_uart(a, o))
