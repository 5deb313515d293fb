"""``aeskit store``: maintenance of the results store (``results/``).

``aeskit store rekey --since COMMIT [--dry-run]``: re-key in place the records that
were current at COMMIT and whose designs the changes since then provably leave as
they were (:mod:`aeskit.store.rekey`). Errors are one line ``aeskit: error: ...``,
exit 2 (bad input: an unknown commit, not a git checkout, an unwritable store,
uncommitted changes under ``hw/`` or ``src/``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT, REPO_ROOT


def _say(msg: str) -> None:
    print(f"[aeskit] {msg}", file=sys.stderr, flush=True)


def cmd_rekey(args: argparse.Namespace) -> int:
    from aeskit.store.rekey import RekeyError, rekey

    repo = Path(args.repo) if args.repo else REPO_ROOT
    results = Path(args.results) if args.results else repo / "results"
    scratch = Path(args.scratch) if args.scratch else BUILD_ROOT / "rekey"
    try:
        summary = rekey(repo, args.since, results, scratch, dry_run=args.dry_run,
                        progress=_say)
    except RekeyError as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 2
    for line in summary.lines():
        print(line)
    if args.dry_run:
        print("dry run: nothing written")
    return 0


def add_parser(sub: Any) -> None:
    s = sub.add_parser("store", help="maintain the results store (results/)")
    ssub = s.add_subparsers(dest="store", required=True, metavar="ACTION",
                            help="one of these; 'aeskit store ACTION --help' for its options")
    r = ssub.add_parser(
        "rekey", help="re-key the records that the changes since COMMIT provably leave "
                      "current (identical elaborated netlists), in place")
    r.add_argument("--since", required=True, metavar="COMMIT",
                   help="the commit the records were current at (e.g. the one before a "
                        "comment-only RTL edit)")
    r.add_argument("--dry-run", action="store_true", help="prove and count, write nothing")
    r.add_argument("--repo", metavar="DIR", help="the git checkout (default: this aeskit's)")
    r.add_argument("--results", metavar="DIR", help="the store (default: REPO/results)")
    r.add_argument("--scratch", metavar="DIR",
                   help="worktrees and netlist cache, not under /tmp, which YoWASP cannot read (default: build/rekey)")
    r.set_defaults(func=cmd_rekey)
