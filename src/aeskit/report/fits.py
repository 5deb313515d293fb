"""The report's "Fits by device" table: per device, which cores fit, the smallest and
the fastest of them, or plainly that none does.

Two kinds of answer, each named in the table:

* **placed**: the device has rows in the report (the main device's ``rows``, a family
  device's ``family_rows``): a core fits when it placed and routed there (it has an
  Fmax); Mbit/s is measured on that device.
* **by resource count**: the smaller ECP5 parts (LFE5U-12F/25F/45F, same fabric and speed
  grade as the LFE5U-85F) when the report did not place the cores on them: a core fits
  when its LUT4, FF and DP16KD counts from the LFE5U-85F placement are within the part's
  capacity, and its Mbit/s is the LFE5U-85F's (a smaller die has shorter routes, so this
  is not an upper bound, but it is not a measurement on that part either). The
  LFE5U-12F is counted at Lattice's rating, about 12K LUT4 and 32 EBR: nextpnr places
  it on the 25F's die and would accept a design of up to 24,288 LUT4.

One row per core (its AES-128 row, else its first placed row), as in "Pick by need".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from aeskit.report.numbers import num

__all__ = ["FITS_TABLE", "FITS_TITLE", "HEADER", "DeviceFit", "fits", "fits_markdown"]

FITS_TITLE = "Fits by device"
FITS_TABLE = "table:fits"
HEADER = ("device", "judged by", "cores that fit", "smallest that fits (LUT4)",
          "fastest that fits (Mbit/s)")
#: the smaller ECP5 parts judged by resource count: (name, LUT4, FF, DP16KD)
SMALL_ECP5: tuple[tuple[str, int, int, int], ...] = (
    ("LFE5U-12F", 12000, 12000, 32),
    ("LFE5U-25F", 24288, 24288, 56),
    ("LFE5U-45F", 43848, 43848, 108),
)
PLACED = "placed"
BY_COUNT = "resource count (LFE5U-85F placement)"


@dataclass(frozen=True)
class DeviceFit:
    device: str
    judged_by: str
    total: int
    fitting: list[Mapping[str, Any]]

    @property
    def smallest(self) -> Mapping[str, Any] | None:
        return min(self.fitting, key=lambda r: (float(r["lut4"]), str(r["core"])),
                   default=None)

    @property
    def fastest(self) -> Mapping[str, Any] | None:
        return max(self.fitting, key=lambda r: (float(r.get("mbps") or 0.0), str(r["core"])),
                   default=None)

    def cells(self) -> list[str]:
        if not self.fitting:
            return [self.device, self.judged_by, f"none of {self.total}: no core fits",
                    "-", "-"]
        s, f = self.smallest, self.fastest
        assert s is not None and f is not None
        unit = "RAM" if self.device.startswith("iCE40") else "EBR"
        ram = f", {s['ebr']} {unit}" if s.get("ebr") else ""
        return [self.device, self.judged_by, f"{len(self.fitting)} of {self.total}",
                f"`{s['core']}` ({num(s['lut4'])}{ram})",
                f"`{f['core']}` ({num(f.get('mbps'))})"]


def _per_core(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """One row per core: its AES-128 row, else its first (placed or not)."""
    out: dict[str, Mapping[str, Any]] = {}
    for r in rows:
        core = str(r["core"])
        if core not in out or (r.get("key_size") == 128 and out[core].get("key_size") != 128):
            out[core] = r
    return list(out.values())


def _placed(r: Mapping[str, Any]) -> bool:
    return r.get("fmax_mhz") is not None and bool(r.get("lut4"))


def fits(report: Mapping[str, Any]) -> list[DeviceFit]:
    """Every device the report can answer for: the main device, the smaller ECP5
    parts (placed where ``family_rows`` has them, else by resource count when the main
    device is the LFE5U-85F), then each family device."""
    from aeskit.report import families

    rows = _per_core(report.get("rows") or [])
    main = str(rows[0].get("device") or "") if rows else ""
    out: list[DeviceFit] = []
    if rows:
        out.append(DeviceFit(main, PLACED, len(rows), [r for r in rows if _placed(r)]))
    fam = families.family_rows(report)
    placed_devices = [d for _, d in families.devices(report) if d != main]
    if main == "LFE5U-85F":
        for name, lut4, ff, ebr in SMALL_ECP5:
            if name in placed_devices:
                continue
            ok = [r for r in rows if _placed(r) and int(r["lut4"]) <= lut4
                  and int(r.get("ff") or 0) <= ff and int(r.get("ebr") or 0) <= ebr]
            out.append(DeviceFit(name, BY_COUNT, len(rows), ok))
    for device in placed_devices:
        mine = _per_core([r for r in fam if str(r["device"]) == device])
        out.append(DeviceFit(device, PLACED, len(mine), [r for r in mine if _placed(r)]))
    return out


INTRO = ("Which cores fit each device, one row per core (AES-128 where built). "
         "\"placed\": placed and routed on that device in this report; \"resource count\": "
         "the core's LUT4, FF and DP16KD from its LFE5U-85F placement against the part's "
         "capacity (the LFE5U-12F at Lattice's rating, about 12K LUT4 and 32 EBR), with "
         "the LFE5U-85F's Mbit/s.")


def fits_markdown(report: Mapping[str, Any]) -> str:
    devs = fits(report)
    if not devs:
        return "No placed core in this report: no device can be answered for."
    lines = [INTRO, "", "| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(d.cells()) + " |" for d in devs]
    return "\n".join(lines)
