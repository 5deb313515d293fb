"""The three tables of paper 000's evaluation as Markdown (``aeskit asbus``, the report).

* :func:`cycles_table`: measured cycles of every Table IV case beside the static model
  (:mod:`aeskit.busmodel`) and the paper (and measured against paper in %), with a
  sentence per (test, bus) that differs; after the cipher rows the stream tests
  (ASBUS only, compared with Table IV's cipher row);
* :func:`efficiency_table`: Table IV's efficiency columns as ASBUS/AXI ratios --
  valid-data bandwidth (AXI cycles / ASBUS cycles at one clock), slice efficiency
  (bandwidth per ECP5 LUT4 instead of per Virtex-6 slice), dynamic energy (toggles of
  all DUT nets over the test instead of XPower's power x time) and its inverse, the
  dynamic-energy efficiency -- beside the same ratios from the paper's Tables II-IV;
* :func:`area_table`: ADAM against XDAM per width (LUT4, FF, EBR, Fmax, I/O) with the
  ratios beside Table II's.
"""

from __future__ import annotations

from aeskit.asbus.cases import ENGINE_LATENCY, STREAM_MEM_BYTES, STREAM_TESTS, TESTS
from aeskit.asbus.area import AreaRecord
from aeskit.asbus.evaluate import AsbusRecord, Evaluation
from aeskit.asbus.paper_tables import PAPER_TABLE_II, paper_ratios

__all__ = ["area_table", "cycles_table", "efficiency_table", "render"]

NAME = {"asbus": "ASBUS", "axi": "AXI"}

#: why measured cycles differ from the static model (docs/asbus.md, "Measured cycles")
REASONS: dict[tuple[str, str], str] = {
    ("linear", "asbus"): "the model hides the read-back command completely; in the RTL the "
                         "read of the same bytes is dispatched after the write's last beat "
                         "and the SRAM answers one cycle later",
    ("block", "asbus"): "as linear: the slave computes the ten row addresses (one command "
                        "per direction), so the block costs what the linear transfer costs",
    ("cipher", "asbus"): "Table I leaves one engine latency exposed for one stream of 20 "
                         "states; the test writes 10 states (decrypted into memory) and "
                         "reads them back (encrypted), and the read needs the plaintext: "
                         "two engine latencies plus dispatch and memory",
    ("linear", "axi"): "XDAM accepts the next AW/AR while a burst streams and cocotbext-axi "
                       "keeps several bursts outstanding, so the address phases the model "
                       "charges hide; what is left is the response turnaround",
    ("block", "axi"): "one burst per row, overlapped as in the linear case: the block costs "
                      "about what the linear transfer costs, well below eq. 12",
    ("cipher", "axi"): "one burst per state, each state buffered and rescheduled before "
                       "round 1 (B cycles more engine latency), and the read waits for the "
                       "written plaintext as on ASBUS",
    ("cipher_stream", "asbus"): "the scenario Table I counts: 10 states written (decrypted) "
                                "and 10 other states read (encrypted), the read's command "
                                "phase under the write's data and its data right after, one "
                                "engine latency exposed; ours is "
                                f"{' / '.join(str(v) for v in ENGINE_LATENCY.values())} "
                                "cycles against 10 c_W = 50 / 30 / 20 (the last round leaves "
                                "column by column)",
    ("cipher_duplex", "asbus"): "as cipher_stream, but both masters request in the same "
                                "cycle: the read's data phase runs beside the write's (full "
                                "duplex), which Table I's one stream does not count",
}


def _f(v: float | int | None, fmt: str) -> str:
    return "-" if v is None else format(v, fmt)


def _ratio(a: float | int | None, b: float | int | None) -> float | None:
    if a is None or b is None or b == 0:
        return None
    return a / b


def _vs_paper(r: AsbusRecord | None) -> str:
    """Measured against the paper in %, signed."""
    if r is None or not r.paper_cycles:
        return "-"
    pct = 100 * (r.measured_cycles - r.paper_cycles) / r.paper_cycles
    return "0.0 %" if pct == 0 else f"{pct:+.1f} %"


def _tests(ev: Evaluation) -> list[str]:
    """The paper's tests, then the stream tests that have records."""
    stream = [t for t in STREAM_TESTS if any(r.test == t for r in ev.records)]
    return [*TESTS, *stream]


def cycles_table(ev: Evaluation) -> str:
    """Table (a): cycles, measured / model / paper / measured vs paper, per bus;
    ASBUS/AXI ratios."""
    both = "asbus" in ev.buses and "axi" in ev.buses
    head = ["test", "width"]
    for b in ev.buses:
        head += [f"{NAME[b]} measured", f"{NAME[b]} model", f"{NAME[b]} paper",
                 f"{NAME[b]} vs paper"]
    if both:
        head += ["ASBUS/AXI measured", "ASBUS/AXI paper"]
    lines = ["| " + " | ".join(head) + " |", "| --- | " + " | ".join("---:" for _ in head[1:]) + " |"]
    for test in _tests(ev):
        for w in ev.widths:
            row = [test, str(w)]
            for b in ev.buses:
                r = ev.record(test, b, w)
                row += [_f(r and r.measured_cycles, "d"), _f(r and r.model_cycles, "g"),
                        _f(r and r.paper_cycles, "d"), _vs_paper(r)]
            if both and test in TESTS:
                a, x = ev.record(test, "asbus", w), ev.record(test, "axi", w)
                m = _ratio(a and a.measured_cycles, x and x.measured_cycles)
                row += [_f(m and 100 * m, ".1f") + " %",
                        f"{100 * paper_ratios(test, w).cycles:.2f} %"]
            elif both:
                row += ["-", "-"]
            lines.append("| " + " | ".join(row) + " |")
    notes = []
    for test in _tests(ev):
        for b in ev.buses:
            recs = [ev.record(test, b, w) for w in ev.widths]
            diffs = [(r.width, r.measured_cycles - r.model_cycles) for r in recs if r]
            if any(d != 0 for _, d in diffs):
                ds = " / ".join(f"{d:+g}" for _, d in diffs)
                ws = "/".join(str(w) for w, _ in diffs)
                notes.append(f"* {NAME[b]} {test}: measured - model = {ds} cycles ({ws} bits): "
                             f"{REASONS[(test, b)]}.")
    if notes:
        lines += ["", "Where measured and model differ:", "", *notes]
    if any(t in STREAM_TESTS for t in _tests(ev)):
        lines += ["", "cipher_stream / cipher_duplex: ADAM only (no AXI counterpart), "
                  f"compared with Table IV's cipher row; ADAM built with a {STREAM_MEM_BYTES}-"
                  "byte memory (their 20 states do not fit the paper's 256 bytes)."]
    return "\n".join(lines)


def efficiency_table(ev: Evaluation) -> str:
    """Table (b): VDB, SE, DE and DEE as ASBUS/AXI ratios, ours beside the paper's."""
    if not ("asbus" in ev.buses and "axi" in ev.buses):
        return "(needs both buses: ASBUS/AXI ratios)"
    head = ["test", "width", "toggles ASBUS", "toggles AXI", "VDB ours", "VDB paper",
            "SE ours (LUT4)", "SE paper (slices)", "DE ours (toggles)", "DE paper",
            "DEE ours", "DEE paper"]
    lines = ["| " + " | ".join(head) + " |", "| --- | " + " | ".join("---:" for _ in head[1:]) + " |"]
    for test in TESTS:
        for w in ev.widths:
            a, x = ev.record(test, "asbus", w), ev.record(test, "axi", w)
            if a is None or x is None:
                continue
            p = paper_ratios(test, w)
            vdb = x.measured_cycles / a.measured_cycles
            lut = _ratio(x.lut4, a.lut4)
            se = None if lut is None else vdb * lut
            de = _ratio(a.toggles, x.toggles)
            dee = None if not de else 1 / de
            lines.append("| " + " | ".join([
                test, str(w), f"{a.toggles:,}", f"{x.toggles:,}",
                f"{vdb:.2f}x", f"{p.vdb:.2f}x", _f(se, ".2f") + ("x" if se else ""),
                f"{p.se:.2f}x", _f(de and 100 * de, ".2f") + (" %" if de else ""),
                f"{100 * p.de:.2f} %", _f(dee, ".2f") + ("x" if dee else ""),
                f"{p.dee:.2f}x"]) + " |")
    lines += ["", "VDB = valid-data bandwidth at one clock (AXI cycles / ASBUS cycles); "
              "SE = VDB per LUT4 (paper: per slice); DE = dynamic energy, ASBUS / AXI "
              "(ours: toggles of all DUT nets over the measured cycles; paper: XPower "
              "dynamic power x cycles, the 71.27 / 60.17 / 48.38 % of the cipher test); "
              "DEE = 1 / DE. Paper columns are computed from its Tables II-IV."]
    return "\n".join(lines)


def _fmax(ar: AreaRecord) -> str:
    """The median seed's Fmax, ``(min-max)`` of the seeds beside it when there are
    several."""
    if ar.fmax_mhz is None:
        return "-"
    if len(ar.fmax_seeds) < 2 or ar.fmax_min is None or ar.fmax_max is None:
        return f"{ar.fmax_mhz:.1f}"
    return f"{ar.fmax_mhz:.1f} ({ar.fmax_min:.1f}-{ar.fmax_max:.1f})"


def area_table(ev: Evaluation) -> str:
    """Table (c): ADAM against XDAM per width, ratios beside Table II's."""
    if not ev.areas:
        return "(synthesis skipped: --no-synth)"
    head = ["width", "system", "LUT4", "FF", "EBR", "Fmax MHz", "I/O",
            "paper slices", "paper MOF MHz", "paper IOs"]
    lines = ["| " + " | ".join(head) + " |", "| --- | --- | " + " | ".join("---:" for _ in head[2:]) + " |"]
    for w in ev.widths:
        for b in ev.buses:
            ar = ev.areas.get((b, w))
            if ar is None:
                continue
            pa = PAPER_TABLE_II[(b, w)]
            lines.append(f"| {w} | {ar.system.upper()} | {ar.lut4:,} | {ar.ff:,} | {ar.ebr} | "
                         f"{_fmax(ar)} | {ar.io} | {pa.slices:,} | "
                         f"{pa.mof_mhz:.1f} | {pa.ios} |")
        a, x = ev.areas.get(("asbus", w)), ev.areas.get(("axi", w))
        if a and x:
            pa, px = PAPER_TABLE_II[("asbus", w)], PAPER_TABLE_II[("axi", w)]
            lines.append(
                f"| {w} | ADAM/XDAM | {_f(_ratio(a.lut4, x.lut4), '.3f')} | "
                f"{_f(_ratio(a.ff, x.ff), '.3f')} | - | {_f(_ratio(a.fmax_mhz, x.fmax_mhz), '.3f')} | "
                f"{_f(_ratio(a.io, x.io), '.3f')} | {pa.slices / px.slices:.3f} | "
                f"{pa.mof_mhz / px.mof_mhz:.3f} | {pa.ios / px.ios:.3f} |")
    seeds = sorted({int(k) for ar in ev.areas.values() for k in ar.fmax_seeds} or {1})
    placed = (f"seed {seeds[0]}" if len(seeds) == 1 else
              f"seeds {', '.join(map(str, seeds))}: LUT4, FF and Fmax of the median seed, "
              "the lowest and highest Fmax in brackets; the ratio row compares medians")
    lines += ["", "Ours: Yosys synth_ecp5 + nextpnr-ecp5 (LFE5U-85F, out of context, router2, "
              f"{placed}); I/O = sum of the top-level port widths of the netlist. Paper: "
              "Virtex-6 slices and MOF (Table II); the ADAM/XDAM rows are the ratios."]
    target = fmax_target_sentence(ev)
    if target:
        lines += ["", target]
    return "\n".join(lines)


def fmax_target_sentence(ev: Evaluation) -> str:
    """Issue 14's target, ADAM's Fmax >= XDAM's at every width (the median seeds'), as a
    sentence: met or not, with the ratio per width; empty without both buses placed."""
    parts, met = [], True
    for w in ev.widths:
        a, x = ev.areas.get(("asbus", w)), ev.areas.get(("axi", w))
        r = _ratio(a and a.fmax_mhz, x and x.fmax_mhz)
        if r is None:
            continue
        met = met and r >= 1.0
        parts.append(f"{w} bits {r:.3f} ({'met' if r >= 1.0 else 'not met'})")
    if not parts:
        return ""
    return ("**Target (issue 14): ADAM's Fmax >= XDAM's at every width** (ADAM/XDAM of the "
            f"median seeds): {'met' if met else 'not met'}; " + ", ".join(parts) + ". "
            "docs/asbus.md says what bounds both systems (the AES engine they share).")


def render(ev: Evaluation) -> str:
    """All three tables with headings."""
    return "\n\n".join([
        "### (a) Cycles: measured, model (Table I), paper (Table IV)", cycles_table(ev),
        "### (b) Efficiency, ASBUS / AXI (Table IV)", efficiency_table(ev),
        "### (c) Area and speed, ADAM / XDAM (Table II)", area_table(ev)]) + "\n"
