"""The section "FPGA families": per device a table of every core (a design that does
not fit says so, with its utilisation), from ``report["family_rows"]`` (one dict per
core, key size and device). Each device's throughput-vs-area panel is part of the
report's first plot (:mod:`aeskit.report.tradeoff`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aeskit.report.numbers import num

from aeskit.report.provenance import measured

TITLE = "FPGA families"
FAMILY_ORDER: tuple[str, ...] = ("ECP5", "iCE40", "Nexus")
HEADER: list[str] = ["core", "key", "logic cells", "FF", "EBR", "DSP", "Fmax MHz",
                     "interval", "Mbps", "Mbps/LUT", "utilisation", "measured"]
NONE_TEXT = "No FPGA family results in this report (report.json has no family_rows)."
NOT_RUN = "not run on this device"


@dataclass(frozen=True)
class DeviceTable:
    """One device's table (cells as text)."""

    family: str
    device: str
    rows: list[list[str]]

    @property
    def heading(self) -> str:
        return f"{self.device} ({self.family})"


def table_id(device: str) -> str:
    return f"table:family:{device}"


def family_rows(report: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(report.get("family_rows") or [])


def devices(report: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(family, device)`` of every device in ``family_rows``: ECP5, iCE40, Nexus
    (other families after them), devices in order of appearance."""
    seen: dict[str, str] = {}
    for r in family_rows(report):
        seen.setdefault(str(r["device"]), str(r.get("family") or "?"))

    def rank(fam: str) -> int:
        return FAMILY_ORDER.index(fam) if fam in FAMILY_ORDER else len(FAMILY_ORDER)

    order = list(seen)
    return sorted(((seen[d], d) for d in order), key=lambda fd: (rank(fd[0]), order.index(fd[1])))


def _n(v: Any, f: str = ",d") -> str:
    return num(v, f, missing="–")


def utilisation_text(util: Mapping[str, Any] | None) -> str:
    """``LUT4 13,685/5,280 (259 %), FF 700/5,280 (13 %)``; ``–`` when empty."""
    parts = []
    for res, pair in (util or {}).items():
        try:
            used, avail = pair
        except (TypeError, ValueError):
            continue
        pct = f" ({100.0 * used / avail:.0f} %)" if avail else ""
        parts.append(f"{res} {_n(used)}/{_n(avail)}{pct}")
    return ", ".join(parts) or "–"


def row_cells(r: Mapping[str, Any]) -> list[str]:
    fmax = r.get("fmax_mhz")
    fmax_text = (_n(fmax, ".1f") if fmax is not None
                 else str(r.get("does_not_fit") or "no Fmax (did not route)"))
    return [str(r["core"]), str(r.get("key_size", "–")), _n(r.get("lut4")), _n(r.get("ff")),
            _n(r.get("ebr")), _n(r.get("dsp")), fmax_text, _n(r.get("interval"), "g"),
            _n(r.get("mbps"), ",.0f"), _n(r.get("mbps_per_lut"), ".3f"),
            utilisation_text(r.get("utilisation")), measured(r)]


def device_tables(report: Mapping[str, Any]) -> list[DeviceTable]:
    """Every device's table. Every core and key size of the report (its main
    rows and any family row) has a row on every device; one without a result on a
    device reads "not run on this device"."""
    fam_rows = family_rows(report)
    designs: list[tuple[str, Any]] = []
    for r in [*report.get("rows", []), *fam_rows]:
        key = (str(r["core"]), r.get("key_size"))
        if key not in designs:
            designs.append(key)
    out: list[DeviceTable] = []
    for family, device in devices(report):
        mine = {(str(r["core"]), r.get("key_size")): r for r in fam_rows
                if str(r["device"]) == device}
        cells = []
        for core, ks in designs:
            r = mine.get((core, ks))
            if r is None:
                cells.append([core, str(ks), *(["–"] * 4), NOT_RUN, *(["–"] * 5)])
            else:
                cells.append(row_cells(r))
        out.append(DeviceTable(family, device, cells))
    return out


def _md_table(rows: list[list[str]]) -> list[str]:
    return (["| " + " | ".join(HEADER) + " |", "|" + " --- |" * len(HEADER)]
            + ["| " + " | ".join(c.replace("|", "/") for c in r) + " |" for r in rows])


INTRO = ("Every core on each device of the families the flow knows. Logic cells: the "
         "family's LUT4 cells (iCE40: logic cells). A design that does not fit shows "
         "what it needs against what the device has. The designs that fit and route are "
         "also in the panels of \"Throughput against area\".")


def families_markdown(report: Mapping[str, Any]) -> str:
    tables = device_tables(report)
    if not tables:
        return NONE_TEXT
    lines = [INTRO]
    for t in tables:
        lines += ["", f"### {t.heading}", "", *_md_table(t.rows)]
    return "\n".join(lines)


#: the starts of a table cell that says a design has no Fmax on the device
MISFIT_PREFIXES: tuple[str, ...] = ("does not fit", "does not route")


def families_html(report: Mapping[str, Any]) -> str:
    import html

    tables = device_tables(report)
    if not tables:
        return f"<p>{html.escape(NONE_TEXT)}</p>"
    out = [f"<p>{html.escape(INTRO)}</p>"]
    head = "".join(f"<th>{html.escape(h)}</th>" for h in HEADER)
    for t in tables:
        body = "".join(
            "<tr" + (' class="misfit"' if r[6].startswith(MISFIT_PREFIXES) else "") + ">"
            + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in t.rows)
        out.append(f"<h3>{html.escape(t.heading)}</h3>\n"
                   f'<table data-aeskit="{html.escape(table_id(t.device))}"><tr>{head}</tr>'
                   f"{body}</table>")
    return "\n".join(out)
