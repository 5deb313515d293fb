"""The aeskit command line: a thin layer over the library."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Sequence

from aeskit import BUILD_ROOT
from aeskit.hw import CORES, SYSTEMS, UnknownCoreError, get_core
from aeskit.hw.registry import registry_json


def _progress(msg: str) -> None:
    print(f"[aeskit] {msg}", file=sys.stderr, flush=True)


def _fmt_cycles(d: dict[int, int]) -> str:
    return "/".join(str(d[k]) for k in sorted(d)) if d else "-"


def _print_table(rows: list[tuple[str, ...]]) -> None:
    """Left-aligned columns, the first row a header underlined with dashes."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        print("  ".join(v.ljust(w) for v, w in zip(r, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))


def cmd_cores(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(registry_json(), indent=2))
        return 0
    rows = [("name", "top", "keys", "dec", "sbox", "latency", "interval", "paper")]
    for c in CORES:
        rows.append((c.name, c.top, "/".join(map(str, c.key_sizes)), "yes" if c.decrypt else "no",
                     c.sbox, _fmt_cycles(c.latency), _fmt_cycles(c.interval), c.paper))
    _print_table(rows)
    return 0


def cmd_crypt(args: argparse.Namespace, decrypt: bool) -> int:
    from aeskit.sim.filecrypt import (CryptInputError, TagMismatch, check_args, crypt_bytes,
                                  parse_hex, reference_crypt)

    try:
        core = get_core(args.core)
        key = parse_hex(args.key, "--key")
        iv = parse_hex(args.iv, "--iv") if args.iv is not None else None
        nonce = parse_hex(args.nonce, "--nonce") if args.nonce is not None else None
        tag_len = args.tag_len if args.tag_len is not None else (16 if args.mode == "ccm"
                                                                 else None)
        src, dst = Path(args.input), Path(args.output)
        if not src.is_file():
            raise CryptInputError(f"input file {src} does not exist")
        if dst.exists() and not args.force:
            raise CryptInputError(f"output file {dst} exists; pass --force to overwrite")
        aad = b""
        if args.aad_file is not None:
            if not Path(args.aad_file).is_file():
                raise CryptInputError(f"AAD file {args.aad_file} does not exist")
            aad = Path(args.aad_file).read_bytes()
        if args.tag_len is not None and args.mode != "ccm":
            raise CryptInputError(f"--tag-len is for CCM, not {args.mode.upper()}")
        data = src.read_bytes()
        check_args(core, args.mode, key, iv, decrypt, len(data), nonce=nonce, tag_len=tag_len,
                   aad_len=len(aad) if args.aad_file is not None else 0)
    except (CryptInputError, UnknownCoreError) as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 2
    extra = {"nonce": nonce, "aad": aad, "tag_len": tag_len}
    t0 = time.monotonic()
    try:
        out = crypt_bytes(core, args.mode, key, iv, data, decrypt, progress=_progress,
                          stall_pct=args.stall, gap_pct=args.stall, **extra)
    except TagMismatch:
        print(f"aeskit: error: CCM authentication failed: the tag of {src} does not match "
              f"(wrong key, nonce, associated data or tag length, or the data was "
              f"modified); nothing written", file=sys.stderr)
        return 1
    dt = time.monotonic() - t0
    if args.check:
        ref = reference_crypt(args.mode, key, iv, data, decrypt, **extra)
        if ref != out:
            bad = next((i for i in range(min(len(ref), len(out))) if ref[i] != out[i]),
                       min(len(ref), len(out)))
            print(f"aeskit: CHECK FAILED: RTL output differs from OpenSSL at byte {bad} "
                  f"(block {bad // 16}); nothing written", file=sys.stderr)
            return 1
    tmp = dst.with_name(dst.name + ".part")
    tmp.write_bytes(out)
    tmp.replace(dst)
    verdict = ", matches OpenSSL" if args.check else ""
    _progress(f"{'decrypted' if decrypt else 'encrypted'} {len(data)} bytes through the mode "
              f"engine on core {core.name} ({args.mode.upper()}) in {dt:.1f} s{verdict} "
              f"-> {dst}")
    return 0


#: exit code of ``aeskit synth`` for a design that does not fit the device
EXIT_DOES_NOT_FIT = 3


def cmd_systems(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps([s.to_json() for s in SYSTEMS], indent=2))
        return 0
    rows = [("name", "top", "core", "any core", "interfaces", "paper")]
    for s in SYSTEMS:
        rows.append((s.name, s.top, s.default_core, "yes" if s.builder else "no",
                     s.interfaces, s.paper))
    _print_table(rows)
    return 0


def _synth_target(name: str, on: str | None):  # type: ignore[no-untyped-def]
    """The core ``name``, or the system ``name`` on core ``on`` as a synthesis Design."""
    from aeskit.synth.systems import system_design

    if any(s.name == name for s in SYSTEMS):
        return system_design(name, on)
    if on is not None:
        raise ValueError(f"--on applies to a system ({', '.join(s.name for s in SYSTEMS)}), "
                         f"not to the core {name}")
    return get_core(name)


def cmd_synth(args: argparse.Namespace) -> int:
    from aeskit.synth import DoesNotFit, SynthError, synth_dir, synthesize
    from aeskit.toolchain.paths import ToolNotFoundError

    try:
        core = _synth_target(args.core, args.on)
    except (UnknownCoreError, ValueError) as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 2
    out_dir = Path(args.out) if args.out else synth_dir(core.name, args.device)
    try:
        res = synthesize(core, out_dir, seed=args.seed, device=args.device,
                         progress=_progress, force=args.force)
    except DoesNotFit as exc:
        print(f"aeskit: {exc.message}", file=sys.stderr)
        return EXIT_DOES_NOT_FIT
    except (SynthError, ToolNotFoundError, OSError) as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(res.to_json(), indent=2))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from aeskit.report import run_report
    from aeskit.synth.devices import DEFAULT_DEVICE

    names = [n.strip() for n in args.cores.split(",")] if args.cores else [c.name for c in CORES]
    try:
        cores = [get_core(n) for n in names if n]
    except UnknownCoreError as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else BUILD_ROOT / (
        "report" if args.device == DEFAULT_DEVICE else f"report@{args.device}")
    sections = [n.strip() for n in args.sections.split(",") if n.strip()] if args.sections \
        else None
    try:
        ok = run_report(cores, out, jobs=args.jobs, force=args.force, skip_synth=args.no_synth,
                        progress=_progress, sections=sections, device=args.device)
    except ValueError as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 2
    return 0 if ok else 1


def cmd_primitives(args: argparse.Namespace) -> int:
    from aeskit.report.primitive_table import collect, render_table

    names = [n.strip() for n in args.only.split(",")] if args.only else None
    rows = collect(progress=_progress, force=args.force, jobs=args.jobs, names=names)
    keys = ("name", "kind", "proven", "ge", "depth", "lut4", "fmax")
    print(json.dumps([{k: r[k] for k in keys} for r in rows], indent=2) if args.json
          else render_table(rows), end="" if not args.json else "\n")
    return 0 if all(r["proven"] is not False for r in rows) else 1


def cmd_asbus(args: argparse.Namespace) -> int:
    from aeskit.asbus.evaluate import EvaluationError, evaluate, parse_buses, parse_widths
    from aeskit.asbus.tables import render

    try:
        widths, buses = parse_widths(args.widths), parse_buses(args.buses)
    except EvaluationError as exc:
        print(f"aeskit asbus: error: {exc}", file=sys.stderr)
        return 2
    ev = evaluate(widths, buses, synth=not args.no_synth, force=args.force,
                  progress=_progress)
    if args.json:
        print(json.dumps([r.as_dict() for r in ev.records], indent=2))
    else:
        print(render(ev), end="")
    return 0


def _device_argument(p: argparse.ArgumentParser) -> None:
    from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES

    p.add_argument("--device", choices=list(DEVICES), default=DEFAULT_DEVICE,
                   help=f"ECP5 device to place and route on (default {DEFAULT_DEVICE})")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="aeskit", description=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)

    s = sub.add_parser("cores", help="list the core registry")
    s.add_argument("--json", action="store_true", help="machine-readable, with absolute paths")
    s.set_defaults(func=cmd_cores)

    s = sub.add_parser("systems", help="list the bus systems and peripherals around the cores")
    s.add_argument("--json", action="store_true", help="machine-readable")
    s.set_defaults(func=cmd_systems)

    for name in ("encrypt", "decrypt"):
        s = sub.add_parser(name, help=f"{name} a file through the RTL mode engine on an RTL "
                                       f"core in simulation")
        s.add_argument("--core", default="round")
        s.add_argument("--mode", default="ecb",
                       choices=["ecb", "cbc", "cbc-cs1", "cbc-cs2", "cbc-cs3", "ctr", "cfb",
                                "ofb", "ccm"])
        s.add_argument("--key", required=True, help="hex, 32/48/64 digits")
        s.add_argument("--iv", help="hex, 32 digits (CBC/CFB/OFB IV or CTR initial counter "
                                    "block)")
        s.add_argument("--nonce", help="CCM: hex, 7..13 bytes (14..26 digits)")
        s.add_argument("--aad-file", metavar="F", help="CCM: associated data (default none)")
        s.add_argument("--tag-len", type=int, metavar="N",
                       help="CCM: tag bytes, 4..16 even (default 16); encrypt appends the "
                            "tag to OUT, decrypt expects it at the end of IN")
        s.add_argument("--check", action="store_true", help="compare with OpenSSL "
                                                            "(nothing written on a mismatch)")
        s.add_argument("--force", action="store_true", help="overwrite OUT")
        s.add_argument("--stall", type=int, default=0, metavar="PCT",
                       help="random input gaps and output stalls, percent (default 0)")
        s.add_argument("input", metavar="IN")
        s.add_argument("output", metavar="OUT")
        s.set_defaults(func=lambda a, d=(name == "decrypt"): cmd_crypt(a, d))

    s = sub.add_parser("synth", help="synthesize a core or a system for ECP5 and count "
                                     "gates (exit 3: it does not fit the device)")
    s.add_argument("core", metavar="NAME", help="a core (aeskit cores) or a system "
                                                "(aeskit systems)")
    s.add_argument("--on", metavar="CORE", help="a system's core (default: its "
                                                "default_core, aeskit systems)")
    s.add_argument("--seed", type=int, default=1)
    _device_argument(s)
    s.add_argument("--out", help="output folder (default: build/synth/<core>, "
                                 "<core>@<device> for another device than the default)")
    s.add_argument("--force", action="store_true", help="ignore the cache")
    s.set_defaults(func=cmd_synth)

    s = sub.add_parser("report", help="measure and compare cores -> build/report/")
    s.add_argument("--cores", help="comma-separated subset (default: all)")
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--out", help="output folder (default: build/report, report@<device> "
                                 "for another device than the default)")
    _device_argument(s)
    s.add_argument("--force", action="store_true", help="ignore the cache")
    s.add_argument("--no-synth", action="store_true", help="simulation measurements only")
    s.add_argument("--sections", help="comma-separated subset of the extra sections, by "
                                      "module name (e.g. paper001,paper003; default: all)")
    s.set_defaults(func=cmd_report)

    s = sub.add_parser("primitives", help="S-box/linear-map variants: proofs, GE, depth, "
                                          "ECP5 LUT4 and Fmax of a registered 16-lane instance")
    s.add_argument("--json", action="store_true", help="machine-readable list")
    s.add_argument("--only", help="comma-separated variant names (default: all)")
    s.add_argument("--jobs", type=int, default=2)
    s.add_argument("--force", action="store_true", help="ignore the synthesis cache")
    s.set_defaults(func=cmd_primitives)

    s = sub.add_parser("asbus", help="paper 000: ADAM (ASBUS) against XDAM (AXI): cycles, "
                                     "toggles and area of the paper's test cases")
    s.add_argument("--widths", default="32,64,128", help="comma-separated, of 32,64,128 "
                                                         "(default: all)")
    s.add_argument("--buses", default="asbus,axi", help="comma-separated, of asbus,axi "
                                                        "(default: both)")
    s.add_argument("--no-synth", action="store_true", help="skip synthesis (lut4/fmax null)")
    s.add_argument("--json", action="store_true", help="one record per test, bus and width")
    s.add_argument("--force", action="store_true", help="ignore the caches")
    s.set_defaults(func=cmd_asbus)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
