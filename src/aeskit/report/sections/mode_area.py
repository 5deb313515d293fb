"""What each mode costs in the systems a user integrates (issue 49): the co-processor
(``coproc``) and the AXI4-Stream wrapper (``axis_core``), each on its registry default
core, built with every mode and with one of CCM, GCM/GMAC, CMAC and XTS left out (the
systems' ``Modes`` parameter; a mode left out is refused with the documented error),
and with the five block modes only. A mode's cost is the full build minus the build
without it.

Counted by Yosys alone (``synth_ecp5``, :func:`aeskit.synth.yosys_area`), not placed:
six builds per system would cost an hour of place and route, and the differences
between builds of one design are what the table is for (nextpnr's packing moves a
placed design's LUT4 by a few percent; the systems' placed figures are in the
co-processor section). Each count is kept in the results store, keyed by the build's
sources, the flow version and the Yosys version.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable

from aeskit import BUILD_ROOT
from aeskit.report.numbers import num
from aeskit.synth.devices import DEFAULT_DEVICE

TITLE = "Area of each mode per system"
ORDER = 32

#: the systems measured, each on its registry default core
SYSTEMS = ("coproc", "axis_core")
#: mode code of each mode a build may leave out (aeskit.hw.registry.mode_names order)
ADDED = {"ccm": 5, "gcm": 6, "cmac": 7, "xts": 8}
#: ECB, CBC, CTR, CFB, OFB
BLOCK_MODES = 0x01F
CACHE_DIR = BUILD_ROOT / "mode_area"


def builds(full: int) -> list[tuple[str, int]]:
    """(label, Modes mask) of every build measured for a system whose full build has
    ``full``: the full build, each added mode left out (those it has), the block modes
    only."""
    out = [("all", full)]
    out += [(f"no {m}", full & ~(1 << bit)) for m, bit in ADDED.items() if full >> bit & 1]
    if full & BLOCK_MODES not in {m for _, m in out}:
        out.append(("block modes", full & BLOCK_MODES))
    return out


def design(system: str, modes: int) -> Any:
    """The synthesis design of registry ``system`` on its default core, built with the
    ``modes`` mask (rendered with that ``Modes``), named ``<system>_m<mask>``."""
    from aeskit.hw.registry import get_system
    from aeskit.synth.systems import system_design

    spec = dataclasses.replace(get_system(system), name=f"{system}_m{modes:03x}", modes=modes)
    return system_design(spec, out_dir=CACHE_DIR / "src" / spec.name)


def collect(cores: list[Any], progress: Callable[[str], None] | None, force: bool,
            device: str = DEFAULT_DEVICE) -> Any:
    """The Yosys counts of every build of :data:`SYSTEMS` (:func:`builds`), each cached
    in the store. ECP5 only (the counts are synth_ecp5's): None on another device."""
    from aeskit.hw.registry import get_system
    from aeskit.store import cached_file
    from aeskit.synth import SynthError, yosys_area
    from aeskit.synth.devices import get_device
    from aeskit.synth.settings import flow_version
    from aeskit.synth.toolrun import checked_hash, tool_versions

    if get_device(device).family != "ECP5":
        return None
    say = progress or (lambda _m: None)
    yosys = {k: v for k, v in tool_versions("ECP5").items() if "yosys" in k}
    out: dict[str, Any] = {}
    for system in SYSTEMS:
        rows = []
        for label, modes in builds(get_system(system).modes):
            d = design(system, modes)

            def compute(d: Any = d) -> dict[str, int]:
                say(f"{d.name}: yosys synth_ecp5 (area of the modes built)")
                return yosys_area(d, CACHE_DIR / "synth" / d.name)

            parts = {"kind": "mode_area", "design": d.name, "source_hash": checked_hash(d),
                     "flow_version": flow_version("ECP5"), "tool_versions": yosys}
            try:
                area = cached_file(CACHE_DIR / f"{d.name}.json", parts, compute, force=force)
            except SynthError as err:
                area = {"error": str(err).splitlines()[0]}
            rows.append({"label": label, "modes": modes, **area})
        out[system] = {"core": get_system(system).default_core, "builds": rows}
    return out


def cost(rows: list[dict[str, Any]], label: str) -> dict[str, int | None]:
    """LUT4 / FF / DP16KD of the full build minus the build ``label`` (None where
    either is missing)."""
    full = next((r for r in rows if r["label"] == "all"), None)
    other = next((r for r in rows if r["label"] == label), None)
    out: dict[str, int | None] = {}
    for k in ("LUT4", "FF", "DP16KD"):
        a = full.get(k) if full else None
        b = other.get(k) if other else None
        out[k] = a - b if isinstance(a, int) and isinstance(b, int) else None
    return out


def render(rows: list[dict[str, Any]], data: Any) -> str:
    from aeskit.hw.registry import mode_names

    if not data:
        return ("Not measured: the counts are Yosys `synth_ecp5`'s, on the ECP5 device "
                "only (run the report on an ECP5 device, without `--no-synth`).")
    out = [
        "Each system on its default core, built with every mode and with one mode left "
        "out (its `Modes` parameter; a mode left out is refused with the documented "
        "error), and with the five block modes only. Yosys `synth_ecp5` counts, not "
        "placed (LUT4 sites: a carry or distributed-RAM cell counts two, so they are "
        "higher than the placed LUT4 of the other tables); a mode's cost is the full "
        "build minus the build without it. ABC maps each build on its own, so a small "
        "cost (a few hundred LUT4, or below zero) is within the mapper's variation "
        "between two netlists, not a measured saving.",
        "",
        "| system | core | build | modes built | LUT4 | FF | EBR | the left-out modes cost "
        "(LUT4 / FF / EBR) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for system, per in data.items():
        for r in per["builds"]:
            if "error" in r:
                figures = f"| {r['error']} | | |"
            else:
                figures = (f"| {num(r.get('LUT4'))} | {num(r.get('FF'))} | "
                           f"{num(r.get('DP16KD'))} |")
            if r["label"] == "all":
                c = "-"
            else:
                d = cost(per["builds"], r["label"])
                c = " / ".join(num(d[k]) for k in ("LUT4", "FF", "DP16KD"))
            modes = ", ".join(m.upper() for m in mode_names(r["modes"]))
            out.append(f"| `{system}` | {per['core']} | {r['label']} | {modes} {figures} "
                       f"{c} |")
    return "\n".join(out)
