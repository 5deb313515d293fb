"""The synthesis flow's settings: the default device, package, speed grade and clock
target, the route budget, the routers and placers a design may name, the clock port,
and the flow version that digests them (part of every result's key: a changed
setting makes every result of its family stale, and nothing else does)."""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Callable

from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES
from aeskit.synth.family import FAMILY
from aeskit.synth.gates import ABC_GATES, FF_LEGALIZE, GE_WEIGHTS
from aeskit.synth.result import SynthError
from aeskit.synth.shim import NEXUS_PINS, shim_file

#: Bump whenever a script changes what the flow produces. The recorded flow
#: version also carries a digest of the settings below and of the gate library
#: (:func:`flow_version`), so changing one of those reruns cached results too.
FLOW_BASE = "aeskit-synth/2"  # 2: block-RAM output registers (aeskit.synth.outreg)

#: the default device (``synthesize(device=...)`` and ``--device`` choose another of
#: :data:`aeskit.synth.devices.DEVICES`)
DEVICE = DEFAULT_DEVICE
PACKAGE = "CABGA381"
SPEED_GRADE = 6
#: nextpnr --freq, the same for every design. For a single-clock design the placed
#: and routed result does not depend on it (checked; see docs/synthesis.md).
FREQ_TARGET_MHZ = 200.0

#: minutes nextpnr may take before a design counts as "does not route" (a result, like
#: a design that does not fit, not a failure of the job); AESKIT_ROUTE_BUDGET_MIN
#: overrides it. The longest converging run in results/ took 18 minutes
#: (tbox_unfolded_pp, router2, 1,088 s), the unrolled T-table cores 4-11 minutes;
#: router2 on a congested design runs for ever, and a budget of an hour made a fresh
#: report of the designs that never route take hours (issue 17: minutes).
ROUTE_BUDGET_MIN = 30.0


def route_budget_min() -> float:
    """The route budget in minutes (:data:`ROUTE_BUDGET_MIN` or the environment's)."""
    raw = os.environ.get("AESKIT_ROUTE_BUDGET_MIN", "").strip()
    if not raw:
        return ROUTE_BUDGET_MIN
    try:
        value = float(raw)
    except ValueError:
        raise SynthError(
            f"AESKIT_ROUTE_BUDGET_MIN must be a number of minutes, got {raw!r}") from None
    if value <= 0:
        raise SynthError(f"AESKIT_ROUTE_BUDGET_MIN must be positive, got {raw!r}")
    return value


#: nextpnr router: router1 (nextpnr's default, the better Fmax: 71 against 55 MHz on
#: tbox_folded, 94 against 73 on ttable_col) unless the netlist uses more than
#: ROUTER2_MIN_EBR block RAMs: the unfolded cores (152-160 of 208 EBR) leave router1
#: congested after an hour, router2 routes them. The rule depends on the design only.
ROUTER2_MIN_EBR = 100


#: nextpnr placers a design may name (``Design.placer``, ``CoreSpec.placer``,
#: ``SystemSpec.placer``); without one nextpnr's default, HeAP, places. HeAP packs a
#: design into about a fifth of the LFE5U-85F at ~83 % LUT density; on the
#: co-processor router2 never resolved the congestion that leaves (2,128 overused wires
#: at iteration 8, 1,537 at 91; --placer-heap-beta 0.5 and 0.35 give the identical
#: placement), while the electrostatic placer ``static`` spreads it and router2
#: finishes in 84 iterations (3 min 50 s in all).
PLACERS = ("heap", "sa", "static")


def router_for(ebr: int) -> str:
    """The nextpnr router the flow uses for a netlist with ``ebr`` DP16KD."""
    return "router2" if ebr > ROUTER2_MIN_EBR else "router1"


#: the clock port of the core contract; its net's achieved Fmax is the result
CLOCK_PORT = "clk_i"

Progress = Callable[[str], None]


#: the flow of the families without an out-of-context mode (iCE40, Nexus): bump when
#: its scripts, the generated shim top or the netlist fix-ups change what it produces
#: (2: Nexus CCU2 carry-ins tied to VLO unlinked)
SHIM_FLOW = "shim/2"


def flow_version(family: str = "ECP5") -> str:
    """``FLOW_BASE`` plus a digest of every setting that shapes the results of
    ``family``'s devices.

    ECP5: the digest names the default device, as it did before the device became a
    parameter, so the default device's cached results stay valid; the device of a
    result is its own cache key field (``device``). iCE40 and Nexus: the digest
    covers the family's devices (switch, package, speed grade), the shim flow
    (:data:`SHIM_FLOW`, the shim's RTL and the Nexus pins) and the shared settings."""
    if family == "ECP5":
        settings = repr((DEVICE, PACKAGE, SPEED_GRADE, FREQ_TARGET_MHZ, "router1",
                         "router2", ROUTER2_MIN_EBR, CLOCK_PORT,
                         ABC_GATES, FF_LEGALIZE, sorted(GE_WEIGHTS.items())))
    else:
        devices = [(d.name, d.nextpnr_flag, d.package, d.speed_grade)
                   for d in DEVICES.values() if d.family == family]
        if not devices:
            raise ValueError(f"unknown device family {family!r}")
        settings = repr((family, devices, SHIM_FLOW, _shim_digest(), sorted(NEXUS_PINS.items()),
                         FAMILY[family].pre_synth, FREQ_TARGET_MHZ, CLOCK_PORT,
                         ABC_GATES, FF_LEGALIZE, sorted(GE_WEIGHTS.items()),
                         *((("router", FAMILY[family].router),)
                           if FAMILY[family].router is not None else ())))
    return f"{FLOW_BASE}+{hashlib.sha256(settings.encode()).hexdigest()[:8]}"


@functools.lru_cache(maxsize=None)
def _shim_digest() -> str:
    try:
        return hashlib.sha256(shim_file().read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


FLOW_VERSION = flow_version()


def note(progress: Progress | None, msg: str) -> None:
    """Tell ``progress`` (the CLI's or the report's progress line), if any."""
    if progress is not None:
        progress(msg)
