"""Place and route: one nextpnr command line and one run for every family and every
use (the flow's out-of-context ECP5 placement, its I/O-shim placement on iCE40 and
Nexus, a board's pinned top), with the route budget and the verdicts that make a
failed run a result: the device is too small, routing did not converge within the
budget, or the router gave up on a net (:class:`NotPlaced`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from aeskit.synth import toolrun
from aeskit.synth.devices import Device
from aeskit.synth.family import FAMILY
from aeskit.synth.fit import (Misfit, misfit_from_nextpnr_log, misfit_from_route_failure,
                              misfit_from_route_timeout)
from aeskit.synth.result import SynthError, ToolTimeout
from aeskit.synth.settings import PLACERS

__all__ = ["NotPlaced", "PNR_FILES", "ROUTERS", "nextpnr_command", "place_and_route",
           "router_placer", "tool_label"]

#: the routers a design may name
ROUTERS = ("router1", "router2")
#: the files a placement writes (role -> name), as a result lists them
PNR_FILES = {"nextpnr_log": "nextpnr.log", "report": "report.json"}


class NotPlaced(SynthError):
    """nextpnr did not place and route the design, and that is a result: ``misfit``
    says why; ``seconds`` is the time it ran (the whole budget for a timeout, None
    when it stopped by itself)."""

    def __init__(self, misfit: Misfit, log_path: Path | None, seconds: float | None) -> None:
        self.misfit = misfit
        self.seconds = seconds
        super().__init__(misfit.detail or misfit.summary(), log_path)


def nextpnr_command(dev: Device, *, top: str, seed: int, freq_mhz: float, log_name: str,
                    place: Sequence[str] = (), router: str | None = None,
                    placer: str | None = None, timing_allow_fail: bool = True,
                    outputs: Sequence[str] = ()) -> list[str]:
    """The nextpnr command line for ``dev``: its device switch, ``place`` (package,
    speed grade, pin constraints), out of context where the family places so, the
    seed and the clock target, router and placer only when given, the netlist
    ``netlist.json`` with top ``top``, the report ``report.json``, ``outputs`` (e.g.
    ``--textcfg`` / ``--asc`` of a bitstream build) and the log."""
    fam = FAMILY[dev.family]
    prefix = toolrun.NEXTPNR[dev.family][1]
    return [*prefix(), *dev.nextpnr_flag.split(), *place,
            *(["--out-of-context"] if fam.out_of_context and not outputs else []),
            "--seed", str(seed), "--freq", f"{freq_mhz:g}",
            *(["--timing-allow-fail"] if timing_allow_fail else []),
            *(["--router", router] if router is not None else []),
            *(["--placer", placer] if placer is not None else []),
            "--json", "netlist.json", "--top", top, "--report", "report.json",
            *outputs, "--log", log_name, "-q"]


def place_and_route(cmd: list[str], dev: Device, cwd: Path, *, what: str,
                    budget_min: float, router_label: str, tool_label: str,
                    log_name: str = "nextpnr.log") -> float:
    """Run ``cmd`` (:func:`nextpnr_command`) in ``cwd`` within ``budget_min`` minutes and
    return its seconds. Raises :class:`NotPlaced` when the log shows the device too
    small, when routing runs past the budget (``router_label`` names the router in
    the verdict) or when the router gives up on a net (``tool_label``: the nextpnr
    and its version); :class:`SynthError` for any other failure."""
    log = cwd / log_name
    log.unlink(missing_ok=True)

    def log_text(default: str) -> str:
        return log.read_text(errors="replace") if log.is_file() else default

    try:
        return toolrun.run(cmd, cwd=cwd, log_path=log, what=what, timeout_s=60.0 * budget_min)
    except ToolTimeout as err:
        misfit = misfit_from_route_timeout(log_text(""), dev, budget_min, router_label)
        raise NotPlaced(misfit, err.log_path, 60.0 * budget_min) from err
    except SynthError as err:
        text = log_text(err.tail)
        found = (misfit_from_nextpnr_log(text, dev)
                 or misfit_from_route_failure(text, dev, tool_label))
        if found is None:
            raise
        raise NotPlaced(found, err.log_path, None) from err


def router_placer(core: Any, default_router: str | None,
                   ) -> tuple[str | None, str | None]:
    """The design's own router and placer (``router``, ``placer``), else
    ``default_router`` and nextpnr's placer; an unknown one is refused."""
    router = getattr(core, "router", None) or default_router
    if router is not None and router not in ROUTERS:
        raise SynthError(f"{core.name}: unknown nextpnr router {router!r}")
    placer = getattr(core, "placer", None)
    if placer is not None and placer not in PLACERS:
        raise SynthError(f"{core.name}: unknown nextpnr placer {placer!r} "
                         f"(one of {', '.join(PLACERS)})")
    return router, placer


def tool_label(tool: str, versions: Mapping[str, str]) -> str:
    """``nextpnr-nexus 0.11.1``: the tool and its version, for a verdict."""
    version = versions.get(tool, "").removeprefix("nextpnr-")
    return f"{tool} {version}".strip()
