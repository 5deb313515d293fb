"""Area and speed of ADAM and XDAM (paper 000, Table II) in the project's ECP5 flow.

Each (bus, width) is synthesized once (Yosys ``synth_ecp5``) and placed with every
placement seed asked for (nextpnr-ecp5 out of context, router2; default seeds 1, 2, 3
like the report's cores: :func:`aeskit.synth.seeds.synthesize_seeds`), cached by the
flow in ``build/asbus/synth/<adam|xdam>_<W>/`` (seed 1) and ``..._<W>~seed<k>/``. The
record's area and Fmax are those of the median seed, the other seeds' Fmax beside
them. The I/O count is the sum of the top-level port widths of the synthesized
netlist (``netlist.json``): what the paper's "IOs" column counts for a design with
every port at a pin.

Router: router2 for all six, so that ADAM and XDAM are routed alike. router1 (the
flow's rule for designs without block RAM) still had about 500 arcs overused after
35 minutes on ADAM at 32 bits (16,000 LUT4 of unrolled composite-field S-boxes).

>>> from aeskit.asbus.area import synth_area
>>> a = synth_area("asbus", 32)          # doctest: +SKIP
>>> a.lut4, a.ff, a.fmax_mhz, a.io       # doctest: +SKIP
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.asbus.run import ADAM_SOURCES, XDAM_SOURCES
from aeskit.synth.seeds import DEFAULT_SEEDS

__all__ = ["AREA_DIR", "AreaRecord", "dam_design", "netlist_io_count", "synth_area"]

AREA_DIR = BUILD_ROOT / "asbus" / "synth"
#: bus -> (system name, top module)
SYSTEMS: dict[str, tuple[str, str]] = {"asbus": ("adam", "ak_adam"), "axi": ("xdam", "ak_xdam")}


@dataclass(frozen=True)
class AreaRecord:
    """One system at one width after place and route."""

    bus: str
    system: str
    width: int
    lut4: int
    ff: int
    ebr: int
    fmax_mhz: float | None
    io: int
    #: the lowest and highest Fmax over the placement seeds, and each seed's
    fmax_min: float | None = None
    fmax_max: float | None = None
    fmax_seeds: dict[str, float | None] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def dam_design(bus: str, width: int) -> Any:
    """``ak_adam`` (``bus="asbus"``) or ``ak_xdam`` (``"axi"``) at ``W = width`` as a
    synthesis :class:`aeskit.synth.Design`."""
    from aeskit.synth import Design

    if bus not in SYSTEMS:
        raise ValueError(f"bus must be one of {sorted(SYSTEMS)}, got {bus!r}")
    name, top = SYSTEMS[bus]
    files = ADAM_SOURCES if bus == "asbus" else XDAM_SOURCES
    return Design(f"{name}_{width}", top, tuple(files), parameters={"DataWidth": width},
                  router="router2")


def netlist_io_count(netlist: Path, top: str) -> int:
    """Sum of the bit widths of ``top``'s ports in a Yosys JSON netlist."""
    data = json.loads(Path(netlist).read_text())
    modules = data.get("modules", {})
    if top not in modules:
        raise ValueError(f"{netlist}: no module {top!r} (has {sorted(modules)[:5]} ...)")
    return sum(len(p["bits"]) for p in modules[top].get("ports", {}).values())


def synth_area(bus: str, width: int, *, force: bool = False,
               progress: Callable[[str], None] | None = None,
               seeds: Iterable[int] = DEFAULT_SEEDS) -> AreaRecord:
    """Synthesize (or load from the cache) one system, placed with every seed of
    ``seeds``; see the module doc."""
    from aeskit.synth import DEVICE
    from aeskit.synth.seeds import synthesize_seeds

    design = dam_design(bus, width)
    r = synthesize_seeds(design, DEVICE, seeds, AREA_DIR, force=force, progress=progress)
    out = Path(r["out_dir"])
    netlist = out / "netlist.json"
    if netlist.is_file():
        io = netlist_io_count(netlist, design.top)
    else:
        # a result restored from the results store has no netlist (tens of MB): the
        # ports of the top as Yosys elaborates them are the same ports
        from aeskit.synth.flow import top_ports

        io = sum(p.width for p in top_ports(design, AREA_DIR / design.name / "ports",
                                            progress))
    return AreaRecord(bus, SYSTEMS[bus][0], width, int(r["lut4"]), int(r["ff"]),
                      int(r["ebr"]), r.get("fmax_mhz"), io, r.get("fmax_min"),
                      r.get("fmax_max"), dict(r.get("fmax_seeds", {})))
