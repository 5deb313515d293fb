"""GCM/GMAC, XTS and CMAC on the mode engine (issue 15, "Measure and report").

Measured through the RTL mode engine (``aeskit.harness.modes``, the compiled
Verilator harness) on ``round``, ``pipe2`` and ``ttable_unrolled``, the same way
:mod:`aeskit.report.sections.paper001` measures ECB..CCM, and cached by the same hash
of the engine sources:

* cycles per 16-byte block, one stream and two streams together, for GCM
  encrypt/decrypt, XTS encrypt/decrypt (AES-128 and AES-256 only) and CMAC
  generate/verify, for every key size of the core;
* cycles per message (command to status, one stream, AES-128, the second of two
  identical runs so that key setup is not in it) of a 512-byte XTS data unit, a
  1,500-byte GCM packet with 20 bytes of AAD and a 64-byte CMAC message, beside CTR's
  for the same payload: the difference is the mode's cost per message (H = E(0) and
  E(J0) plus GHASH of the AAD and lengths for GCM, the tweak E2(i) for XTS, L = E(0) and
  the K1/K2 subkey for CMAC).

The GHASH multipliers' LUT4, FF and Fmax are the ones ``aeskit primitives`` measured
(:mod:`aeskit.report.gf128_table`), read from its cache only. The one synthesis this
section runs (cached like the report's others) is GCM at one block per cycle,
``ak_gcm_pipe`` on ``ttable_unrolled`` (docs/gcm_pipe.md), for issue 15's target.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from aeskit import BUILD_ROOT
from aeskit.hw.catalog.gf128 import MUL_VARIANTS, cycles_per_product, mul_name
from aeskit.hw.codes import MODE_LABEL, Mode
from aeskit.report.render import misfit_note
from aeskit.report.numbers import num
from aeskit.report.sections.paper001 import _g, _hash
from aeskit.synth.devices import DEFAULT_DEVICE

TITLE = "GCM, GMAC, XTS and CMAC on the mode engine"
ORDER = 16  # right after paper001 (15)

#: cores whose mode-engine cycles are measured (one per core class)
CORES = ("round", "pipe2", "ttable_unrolled")
MODES = ("gcm", "xts", "cmac")
#: display names (aeskit.hw.codes)
MODE_NAME = {m: MODE_LABEL[Mode[m.upper()]] for m in (*MODES, "ctr")}
#: (mode, decrypt) -> the direction's name in the tables
DIRECTION = {("gcm", False): "encrypt", ("gcm", True): "decrypt",
             ("xts", False): "encrypt", ("xts", True): "decrypt",
             ("cmac", False): "generate", ("cmac", True): "verify"}
#: XTS is defined for AES-128 and AES-256 only (IEEE 1619)
XTS_KEY_SIZES = (128, 256)
#: per-message measurement: mode -> (payload bytes, AAD bytes), all with AES-128
MESSAGES: dict[str, tuple[int, int]] = {"xts": (512, 0), "gcm": (1500, 20), "cmac": (64, 0)}
MSG_KEY_SIZE = 128
#: what the per-message overhead of each mode is made of
MSG_COST = {"gcm": "H = E(0) and E(J0), GHASH of the AAD and the length block, tag",
            "xts": "two key setups (K2 into the core, K1 back) around the tweak E_K2(i)",
            "cmac": "L = E(0) before the last block (K1/K2 are combinational)"}
#: the engine's GHASH multiplier (ak_mode_engine GhashDigitBits default)
GHASH_DIGIT_BITS = 16
GHASH_KARATSUBA = False
#: OpenTitan's documented GHASH rate (4 bits per cycle): cycles per 16-byte block
OPENTITAN_GHASH_CYCLES = 32
#: issue 15's target for GCM on ttable_unrolled
TARGET_CORE = "ttable_unrolled"
TARGET_GBPS = 20.0
TARGET_CPB = 1.0
CACHE_DIR = BUILD_ROOT / "modes_aead"
#: the line-rate GCM system (issue 49, docs/gcm_line.md), synthesized with ak_gcm_pipe
LINE_SYSTEM = "gcm_line"
#: issue 49's targets: Gbit/s of the system, and payload blocks per cycle over all
#: cycles of back-to-back packets without AAD, per payload size
LINE_TARGET_GBPS = 10.0
LINE_TARGET_RATE = {64: 0.6, 1500: 0.9}
#: bumped when what :func:`measure_aead` records changes (older caches are re-measured)
CACHE_VERSION = 1


def _key(mode: str, decrypt: bool) -> str:
    return f"{mode}-{'dec' if decrypt else 'enc'}"


def measure_aead(core: Any, key_sizes: list[int]) -> dict[str, Any]:
    """``cpb``: mode/direction -> key size -> [one stream, two streams] cycles per
    block; ``msg``: mode -> {bytes, aad, cycles, ctr} cycles per message (AES-128)."""
    from aeskit.harness.modes import Message, ModeHarness, measure_cycles_per_block

    cpb: dict[str, dict[str, list[float]]] = {}
    msg: dict[str, dict[str, int]] = {}
    with ModeHarness(core) as h:
        for ks in key_sizes:
            # key2 is XTS's tweak key; GCM and CMAC ignore it
            h.load_key(bytes(range(ks // 8)), bytes(range(100, 100 + ks // 8)))
            for mode in MODES:
                if mode == "xts" and ks not in XTS_KEY_SIZES:
                    continue
                for dec in (False, True):
                    if dec and mode == "xts" and not core.decrypt:
                        continue
                    cpb.setdefault(_key(mode, dec), {})[str(ks)] = [
                        measure_cycles_per_block(h, mode, decrypt=dec, streams=s)
                        for s in (1, 2)]
            if ks == MSG_KEY_SIZE:
                msg = _measure_messages(h, Message)
    return {"cpb": cpb, "msg": msg}


def _measure_messages(h: Any, message: Callable[..., Any]) -> dict[str, dict[str, int]]:
    """Command-to-status cycles of one message, the second of two identical runs."""

    def cycles(make: Callable[[], Any]) -> int:
        for _ in range(2):
            m = make()
            h.run([m])
            if m.error:
                raise RuntimeError(f"{m.mode} message flagged an error by the engine")
        return m.sts_cycle - m.cmd_cycle

    payload = {n: bytes((7 * i + 1) & 0xFF for i in range(n)) for n, _ in MESSAGES.values()}
    makers: dict[str, Callable[[], Any]] = {
        "xts": lambda: message("xts", False, payload[MESSAGES["xts"][0]], iv=bytes(range(16))),
        "gcm": lambda: message("gcm", False, payload[MESSAGES["gcm"][0]], iv=bytes(range(12)),
                               aad=bytes(range(MESSAGES["gcm"][1])), tag_len=16),
        "cmac": lambda: message("cmac", False, payload[MESSAGES["cmac"][0]], tag_len=16),
    }
    out: dict[str, dict[str, int]] = {}
    for mode, (n, aad) in MESSAGES.items():
        ctr = cycles(lambda n=n: message("ctr", False, payload[n], iv=bytes(16)))
        out[mode] = {"bytes": n, "aad": aad, "cycles": cycles(makers[mode]), "ctr": ctr}
    # CMAC chains its blocks like CBC encryption: CBC's cycles tell chaining from L
    out["cmac"]["cbc"] = cycles(
        lambda: message("cbc", False, payload[MESSAGES["cmac"][0]], iv=bytes(16)))
    return out


def _stored_synth(out_dir: Path, source_hash: str) -> dict[str, Any]:
    """``synth.json`` of a seed-1 default-device synthesis in ``out_dir`` if it is current
    for ``source_hash``: the local file, else the results store's record (restored into
    ``out_dir``); ``{}`` if neither. A current local file is recorded in the store."""
    from aeskit.synth import DEVICE, FLOW_VERSION, SynthResult, tool_versions
    from aeskit.synth import stored

    parts = stored.parts_of(source_hash, FLOW_VERSION, 1, DEVICE, tool_versions())
    s = stored.current(out_dir, parts)
    if s is not None:
        stored.save(SynthResult.from_json(s, out_dir), measured_now=False)
        return s
    return (stored.current(out_dir, parts) or {}) if stored.restore(out_dir, parts) else {}


def ghash_rows() -> tuple[list[dict[str, Any]], list[str]]:
    """The GF(2^128) multiplier rows ``aeskit primitives`` has measured and cached
    (in :func:`aeskit.report.gf128_table.measure`'s format), and the names of the
    variants with no current cached result. Only ``synth.json`` files made from the
    current bench sources by the current flow on the default device are used;
    ``proven`` comes from the table's ``gf128.json`` when it is there."""
    from aeskit.report import gf128_table
    from aeskit.synth import DEVICE, FLOW_VERSION

    from aeskit.store import lookup, record

    # the proofs' verdicts: from `aeskit primitives`' table, kept in the results store
    # under the bench designs' hashes (which cover the multipliers' RTL)
    parts = {"kind": "gf128_proven", "designs": sorted(
        gf128_table.bench_design(d, k).source_hash() for d, k in MUL_VARIANTS)}
    ident = "primitives/gf128/proven"
    proven: dict[str, Any] = {}
    try:
        proven = {r["name"]: r.get("proven")
                  for r in json.loads((gf128_table.OUT / "gf128.json").read_text())}
        record(ident, parts, proven, measured_now=False)
    except (OSError, ValueError, KeyError, TypeError):
        rec = lookup(ident, parts)
        proven = dict(rec.data) if rec is not None else {}
    rows, missing = [], []
    for d, k in MUL_VARIANTS:
        name = mul_name(d, k)
        s = _stored_synth(gf128_table.OUT / name, gf128_table.bench_design(d, k).source_hash())
        if (not s or s.get("flow_version") != FLOW_VERSION or s.get("device") != DEVICE):
            missing.append(name)
            continue
        cyc = cycles_per_product(d)
        fmax = round(s["fmax_mhz"], 2) if s.get("fmax_mhz") else None
        rows.append({"name": name, "digit_bits": d, "karatsuba": bool(k),
                     "proven": proven.get(name), "cycles": cyc, "lut4": s.get("lut4"),
                     "ff": s["ff"] - gf128_table.BENCH_FF if s.get("ff") is not None else None,
                     "fmax": fmax, "mbps": round(128 * fmax / cyc, 1) if fmax else None})
    return rows, missing


def collect(cores: list[Any], progress: Callable[[str], None] | None, force: bool,
            device: str = DEFAULT_DEVICE, seeds: tuple[int, ...] = (1,), *,
            key_sizes: tuple[int, ...] | None = None) -> Any:
    """Cycles of :func:`measure_aead` for the cores of :data:`CORES` among ``cores``
    (``key_sizes``: only these, default every size of the core), cached per core in
    ``build/modes_aead/`` by the engine-source hash of paper001; plus the cached GHASH
    multiplier figures (:func:`ghash_rows`). ``device`` is unused: nothing is
    synthesized here."""
    from aeskit.store import cached_file

    say = progress or (lambda _m: None)
    ghash, missing = ghash_rows()
    out: dict[str, Any] = {"cores": {}, "ghash": ghash, "ghash_missing": missing}
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    for core in cores:
        if core.name not in CORES:
            continue
        sizes = [ks for ks in core.key_sizes if key_sizes is None or ks in key_sizes]
        if not sizes:
            continue
        h = _hash(core)

        def compute(core: Any = core, h: str = h, sizes: list[int] = sizes) -> dict[str, Any]:
            say(f"{core.name}: GCM/XTS/CMAC cycles on the mode engine (compiled harness)")
            return {"hash": h, "version": CACHE_VERSION, "key_sizes": sizes,
                    **measure_aead(core, sizes)}

        data = cached_file(CACHE_DIR / f"{core.name}_aead.json",
                           {"kind": "modes_aead", "core": core.name, "hash": h,
                            "version": CACHE_VERSION, "key_sizes": sorted(sizes)},
                           compute, force=force)
        if core.name == TARGET_CORE:
            from aeskit.report.design_synth import synth_json

            out["gcm_pipe"] = synth_json(gcm_pipe_design(core), device, force, say,
                                         CACHE_DIR / "synth", seeds)
            # the line-rate system around it (issue 49), where `aeskit synth gcm_line`
            # keeps it (one result for the CLI and the report)
            from aeskit.synth.systems import system_design

            out["gcm_line"] = synth_json(
                system_design(LINE_SYSTEM, out_dir=CACHE_DIR / "src" / LINE_SYSTEM), device,
                force, say, BUILD_ROOT / "synth", seeds)
        out["cores"][core.name] = {
            "cpb": data["cpb"], "msg": data["msg"],
            "latency": {str(k): v for k, v in core.latency.items()},
            "interval": {str(k): v for k, v in core.interval.items()}}
    return out


def gcm_pipe_design(core: Any) -> Any:
    """``ak_gcm_pipe_sys``: ak_gcm_pipe (GCM at one block per cycle) on ``core``, as a
    synthesis Design (the system file rendered into build/gcm_pipe/<core>/syn)."""
    from aeskit.hw.systems.gcm_pipe import system_files
    from aeskit.synth.flow import Design

    files = system_files(core, BUILD_ROOT / "gcm_pipe" / core.name / "syn")
    # The core with packed T-table words (aeskit.hw.systems.gcm_pipe.system_core; 84 EBR): with
    # the registry's 32-bit words (156 EBR) router2 on the static placement routed seed 1
    # (57.6 MHz) but not seeds 2 and 3 within 30 minutes (28 Nov 2026).
    # 84 EBR is under the flow's router2 threshold, but router1 left 55,000 wires
    # overused after 11 minutes and router2 on HeAP's placement diverged (19,600 ->
    # 24,000 over 13 iterations); the static placer spreads it and router2 converges
    # in 58 iterations (27 Nov 2026, 5.7 min of nextpnr), as on the co-processor.
    # The core's block RAMs pinned (its ram_rows) were tried and not kept: router2 on
    # HeAP still diverges, and on static 49.6 MHz (seed 1) on this RTL against 46.6,
    # 45.3 after a restyle of the slice that left the logic as it was: placement noise.
    # With the GHASH interface registered (no net on all pipeline clock enables any
    # more) router2 on HeAP still had 12,840 overused wires at iteration 8 (stopped;
    # 57.8 MHz estimated after placement), so static stays
    return Design(f"gcm_pipe_{core.name}", "ak_gcm_pipe_sys", tuple(files),
                  tuple(core.include_paths()), router="router2", placer="static")


def gbps(fmax_mhz: float | None, cycles_per_block: float | None) -> float | None:
    """Gbit/s of 128-bit blocks at ``fmax_mhz`` and ``cycles_per_block``."""
    if not fmax_mhz or not cycles_per_block:
        return None
    return 128.0 * fmax_mhz / cycles_per_block / 1000.0


def _row(rows: list[dict[str, Any]], core: str, ks: int = 128) -> dict[str, Any]:
    return next((r for r in rows if r.get("core") == core and r.get("key_size") == ks), {})


def _cpb_table(name: str, cpb: dict[str, Any]) -> list[str]:
    out = ["", f"**`{name}`**, cycles per 16-byte block, never stalled (one stream / two "
           "streams together):", "",
           "| mode | direction | AES-128 | AES-192 | AES-256 |",
           "| --- | --- | ---: | ---: | ---: |"]
    for mode in MODES:
        for dec in (False, True):
            cells = cpb.get(_key(mode, dec)) or {}
            vals = [(f"{_g(cells[str(ks)][0])} / {_g(cells[str(ks)][1])}"
                     if str(ks) in cells else "-") for ks in (128, 192, 256)]
            out.append(f"| {MODE_NAME[mode]} | {DIRECTION[(mode, dec)]} | "
                       + " | ".join(vals) + " |")
    return out


def _gcm_two(entry: dict[str, Any], ks: int = 128) -> float | None:
    cell = ((entry.get("cpb") or {}).get("gcm-enc") or {}).get(str(ks))
    return cell[1] if cell else None


def gcm_system(systems: list[dict[str, Any]] | None, core: str) -> dict[str, Any] | None:
    """The ``systems`` entry (:mod:`aeskit.report.systems`) that runs GCM on ``core``:
    an engine configuration with GCM built, the most streams first; None when the report
    placed none."""
    cands = [s for s in systems or [] if s.get("core") == core and s.get("kind") == "engine"
             and "gcm" in (s.get("modes") or [])]
    return max(cands, key=lambda s: int(s.get("streams") or 0), default=None)


def render(rows: list[dict[str, Any]], data: Any,
           systems: list[dict[str, Any]] | None = None) -> str:
    """The section; ``systems`` is ``report.json``'s list (the report passes it to a
    section whose ``render`` takes it), for the clock of the system that runs GCM."""
    data = data or {}
    cores = data.get("cores") or {}
    out = [
        "The mode engine (docs/modes.md) runs GCM and GMAC (SP 800-38D; GMAC is GCM with",
        "no payload), XTS-AES (IEEE 1619, two keys, ciphertext stealing) and CMAC",
        "(SP 800-38B, K1/K2 derived in hardware) for two streams on any core of the",
        "registry, beside ECB..CCM. GHASH runs on one `ak_gf128_mul` with "
        f"DigitBits = {GHASH_DIGIT_BITS} ({cycles_per_product(GHASH_DIGIT_BITS)} cycles "
        "per block), fed from the MAC FIFO; CMAC's CBC-MAC runs on the MAC lane.",
        "Cycles are measured through the RTL (`aeskit.harness.modes`).",
    ]
    if not cores:
        out += ["", "Not measured (run the report without --no-synth)."]
    for name in CORES:
        if name in cores:
            out += _cpb_table(name, cores[name].get("cpb") or {})

    # per-message cycles
    msg_lines = []
    for name in CORES:
        for mode, m in ((cores.get(name) or {}).get("msg") or {}).items():
            what = f"{m['bytes']:,} bytes" + (f" + {m['aad']} AAD" if m.get("aad") else "")
            cost = MSG_COST[mode]
            if m.get("cbc") is not None and m["cbc"] != m["ctr"]:
                cost += (f"; CBC-MAC chains its blocks: CBC encryption of the same bytes "
                         f"takes {num(m['cbc'])} (+{num(m['cbc'] - m['ctr'])} of the "
                         "overhead)")
            msg_lines.append(f"| `{name}` | {MODE_NAME[mode]} | {what} | {num(m['cycles'])} | "
                             f"{num(m['ctr'])} | {num(m['cycles'] - m['ctr'])} | {cost} |")
    if msg_lines:
        out += ["", f"**Cycles per message** (AES-{MSG_KEY_SIZE}, one stream, command to "
                "status, the second of two identical runs so key setup is not counted), "
                "beside CTR on the same payload; the difference is the mode's cost per "
                "message:", "",
                "| core | mode | message | cycles | CTR cycles | overhead | made of |",
                "| --- | --- | --- | ---: | ---: | ---: | --- |", *msg_lines]

    # GCM throughput at the clock of the system that runs it
    bound = cycles_per_product(GHASH_DIGIT_BITS)
    gcm_lines = []
    for name in CORES:
        if name not in cores:
            continue
        r = _row(rows, name)
        fmax, two = r.get("fmax_mhz"), _gcm_two(cores[name])
        sysent = gcm_system(systems, name)
        sf = (sysent or {}).get("fmax_mhz")
        if sysent is None:
            sys_cell, at_sys = "not placed in this report", "-"
        else:
            from aeskit.report.design_synth import system_fmax_cell

            sys_cell = (f"`{sysent['name']}` ({num(sysent.get('lut4'))} LUT4): "
                        f"{system_fmax_cell(sysent)}")
            at_sys = num(gbps(sf, two), 2)
        note = misfit_note(r)
        gcm_lines.append(
            f"| `{name}` | {_g(two) if two is not None else '-'} | {sys_cell} | {at_sys} | "
            f"{note or num(fmax, 1)} | {num(gbps(fmax, two), 2)} | "
            f"{num(gbps(sf or fmax, bound), 2)} | "
            f"{num(gbps(sf or fmax, OPENTITAN_GHASH_CYCLES), 2)} |")
    pipe = data.get("gcm_pipe") or {}
    if pipe:
        from aeskit.report.design_synth import system_fmax_cell

        pf = pipe.get("fmax_mhz")
        crow = _row(rows, TARGET_CORE)
        gcm_lines.append(
            f"| `ak_gcm_pipe` on `{TARGET_CORE}` (docs/gcm_pipe.md) | 1 | "
            f"`ak_gcm_pipe_sys` ({num(pipe.get('lut4'))} LUT4, {num(pipe.get('ff'))} FF, "
            f"{num(pipe.get('ebr'))} EBR): {system_fmax_cell(pipe)} | "
            f"{num(gbps(pf, 1.0), 2)} | {misfit_note(crow) or num(crow.get('fmax_mhz'), 1)} | "
            f"{num(gbps(crow.get('fmax_mhz'), 1.0), 2)} | "
            f"{num(gbps(pf, 1.0), 2)} (aggregated, pipelined) | "
            f"{num(gbps(pf, OPENTITAN_GHASH_CYCLES), 2)} |")
    line = data.get(LINE_SYSTEM) or {}
    if line:
        from aeskit.report.design_synth import system_fmax_cell

        lf = line.get("fmax_mhz")
        gcm_lines.append(
            f"| `{LINE_SYSTEM}` system: `ak_gcm_pipe` behind AXI4-Stream and AXI4-Lite "
            f"on `{TARGET_CORE}` (docs/gcm_line.md; {num(line.get('lut4'))} LUT4, "
            f"{num(line.get('ff'))} FF, {num(line.get('ebr'))} EBR) | 1 | "
            f"{system_fmax_cell(line)} | {num(gbps(lf, 1.0), 2)} | "
            f"{num(gbps(lf, 1.0), 2)} (aggregated, pipelined) | "
            f"{num(gbps(lf, OPENTITAN_GHASH_CYCLES), 2)} |")
    if gcm_lines:
        out += ["", "**GCM throughput at the clock of the system that runs it** (AES-128, "
                "two streams, Gbit/s = 128 x Fmax / cycles per block / 1000). The system "
                "is the mode engine with GCM and the core (`ak_mode_sys`, an engine "
                "configuration of `report.json`'s `systems`), placed with the report's "
                "seeds; its clock, not the core's, is what a user gets. The core's own "
                "Fmax gives an upper bound beside it (the engine around a core costs clock: "
                "issue 47). A core whose system this report does not place has no system "
                "figure. The GHASH-only bounds are at the system's clock (the core's where "
                f"there is none): the engine's multiplier ({bound} cycles per block) and "
                f"OpenTitan's documented GHASH rate ({OPENTITAN_GHASH_CYCLES} cycles per "
                "block, 4 bits per cycle):", "",
                "| core | GCM cycles/block (two streams) | system: Fmax MHz | "
                "GCM Gbit/s at the system's clock | core alone: Fmax MHz | "
                "bound at the core's clock, Gbit/s | "
                f"GHASH bound, {bound} cycles/block, Gbit/s | "
                f"OpenTitan GHASH bound, {OPENTITAN_GHASH_CYCLES} cycles/block, Gbit/s |",
                "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |", *gcm_lines]

    # GHASH multiplier variants (aeskit primitives' cache)
    from aeskit.report.gf128_table import render_table

    ghash, missing = data.get("ghash") or [], data.get("ghash_missing")
    if missing is None:
        missing = [mul_name(d, k) for d, k in MUL_VARIANTS]
    engine_mul = mul_name(GHASH_DIGIT_BITS, GHASH_KARATSUBA)
    out += ["", "**GHASH multiplier variants** (`ak_gf128_mul`, hw/primitives/gf128; one "
            "product per 16-byte GHASH block, so cycles per product are cycles per block; "
            "ECP5 figures of the registered-input bench from `aeskit primitives`, "
            f"docs/primitives/gf128.md). The engine uses `{engine_mul}`.", ""]
    if ghash:
        out.append(render_table(ghash).rstrip("\n"))
    if missing:
        cmd = f"`aeskit primitives --only {','.join(missing)}`"
        out += ["", (f"Not measured yet: {', '.join(missing)}; measure them with {cmd}."
                     if ghash else
                     f"No cached figures of the multipliers; measure them with {cmd} "
                     "(this section does not synthesize).")]

    # issue 15's target
    t = cores.get(TARGET_CORE)
    out += ["", _target_sentence(t, _row(rows, TARGET_CORE), data.get("gcm_pipe") or {})]
    out += ["", _line_sentence(data.get(LINE_SYSTEM) or {})]
    return "\n".join(out)


def _line_sentence(line: dict[str, Any]) -> str:
    """Issue 49's targets for the line-rate system: its Gbit/s at one block per cycle
    (from its synthesis, if any) and the packet rates its test asserts."""
    from aeskit.hw.systems.gcm_line import THROUGHPUT, blocks_per_cycle

    mhz = LINE_TARGET_GBPS * 1000 / 128
    head = (f"**Target (issue 49): the line-rate GCM system `{LINE_SYSTEM}` at >= "
            f"{LINE_TARGET_GBPS:g} Gbit/s ({mhz:.1f} MHz at one block per cycle), "
            "packets overlapping.** ")
    lf = line.get("fmax_mhz")
    if lf:
        g = gbps(lf, 1.0) or 0.0
        speed = (("Met" if g >= LINE_TARGET_GBPS else "Not met") +
                 f": {lf:.1f} MHz, {g:.2f} Gbit/s"
                 + ("" if g >= LINE_TARGET_GBPS else f" (critical path: {_crit(line)})")
                 + ". ")
    else:
        speed = "Not synthesized in this report. "
    rates = []
    for nbytes, target in LINE_TARGET_RATE.items():
        n = max(c for b, c in THROUGHPUT if b == nbytes)
        r = blocks_per_cycle(nbytes, n)
        rates.append(f"{n} x {nbytes:,} B back to back {r:.3f} payload blocks per cycle over "
                     f"all cycles (target {target:g}: {'met' if r >= target else 'not met'})")
    return (head + speed + "Overlap (asserted exactly in tests/hw/systems/gcm_line): "
            + "; ".join(rates) + ".")


def systems(rows: list[dict[str, Any]], data: Any) -> list[dict[str, Any]]:
    """``report.json``'s ``systems`` entry of this section: the line-rate GCM system
    (its cycles per block: back-to-back 1,500-byte packets in the steady state)."""
    from aeskit.hw.systems.gcm_line import THROUGHPUT
    from aeskit.report.systems import registry_system, system_entry

    syn = (data or {}).get(LINE_SYSTEM)
    if not syn:
        return []
    per_packet = (THROUGHPUT[(1500, 12)] - THROUGHPUT[(1500, 4)]) / 8
    return [system_entry(registry_system(LINE_SYSTEM, "modes_aead"), syn, rows,
                         {"gcm-enc": per_packet / 94},
                         "tests/hw/systems/gcm_line: back-to-back 1,500-byte packets "
                         "without AAD, 95 cycles per 94 blocks in the steady state")]


def _core_bound(row: dict[str, Any]) -> str:
    """The core's own Fmax as a bound on GCM at one block per cycle (empty if the
    core's row has no Fmax or the core alone would reach the target)."""
    fmax = row.get("fmax_mhz")
    g = gbps(fmax, 1.0)
    if g is None or g >= TARGET_GBPS:
        return ""
    return (f"The core alone bounds it: `{TARGET_CORE}` runs at {fmax:.1f} MHz in this "
            f"report (median seed), {g:.2f} Gbit/s at one block per cycle, below "
            f"{TARGET_GBPS:g} Gbit/s with no GHASH at all (issue 14's target for the core "
            "is 200 MHz). ")


def _target_sentence(entry: dict[str, Any] | None, row: dict[str, Any],
                     pipe: dict[str, Any] | None = None) -> str:
    head = (f"**Target (issue 15): GCM on `{TARGET_CORE}` at one block per cycle, "
            f">= {TARGET_GBPS:g} Gbit/s.** ")
    pf = (pipe or {}).get("fmax_mhz")
    if pf:
        g = gbps(pf, 1.0)
        met = g is not None and g >= TARGET_GBPS
        return head + (
            ("Met" if met else "Not met") + f": `ak_gcm_pipe` on `{TARGET_CORE}` runs one "
            f"block per cycle (asserted in its test) at {pf:.1f} MHz, {g:.2f} Gbit/s"
            + ("." if met else
               f"; {TARGET_GBPS:g} Gbit/s needs {TARGET_GBPS * 1000 / 128:.0f} MHz. Its "
               f"critical path: {_crit(pipe)}. " + _core_bound(row) +
               f"The mode engine on the same core: {_engine_cpb(entry)}."))
    if not entry:
        return head + f"Not measured here (`{TARGET_CORE}` was not in this report's cores)."
    lat = (entry.get("latency") or {}).get("128")
    itv = (entry.get("interval") or {}).get("128")
    cell = ((entry.get("cpb") or {}).get("gcm-enc") or {}).get("128")
    if not cell or lat is None or itv is None:
        return head + "Not measured (no AES-128 GCM figures)."
    one, two = cell
    fmax = row.get("fmax_mhz")
    g2 = gbps(fmax, two)
    met = two <= TARGET_CPB and g2 is not None and g2 >= TARGET_GBPS
    at_fmax = (f", {g2:.2f} Gbit/s at its Fmax of {fmax:.1f} MHz "
               f"(one block per cycle would be {gbps(fmax, 1.0):.2f} Gbit/s)"
               if g2 is not None else
               f" ({misfit_note(row) or 'no Fmax in this report'}, so no Gbit/s)")
    return head + (
        ("Met" if met else "Not met") + ": the mode engine keeps two blocks per stream in "
        f"the core, so on `{TARGET_CORE}` (L = {lat}, I = {itv}) GCM runs at "
        f"max(L/2, I) = {_g(max(lat / 2, itv))} cycles per block for one stream; measured "
        f"{_g(one)} cycles per block for one stream and {_g(two)} for two streams "
        f"together{at_fmax}. "
        + ("" if met else
           "The target needs a dedicated pipelined GCM datapath with aggregated GHASH "
           "(H, H^2, ..., H^k, as many powers as the multiplier's latency needs), which is "
           "not built yet."))


def _engine_cpb(entry: dict[str, Any] | None) -> str:
    cell = (((entry or {}).get("cpb") or {}).get("gcm-enc") or {}).get("128")
    return (f"{_g(cell[0])} cycles per block for one stream, {_g(cell[1])} for two"
            if cell else "not measured")


def _crit(synth: dict[str, Any]) -> str:
    from aeskit.synth.critical import format_path

    return format_path(synth.get("critical_path")) if synth.get("critical_path") else \
        "not in this synthesis result"
