"""Area and speed of aeskit designs: Yosys + nextpnr-ecp5 out of context, and a
generic gate count. See ``docs/synthesis.md``.

>>> from aeskit.hw import get_core
>>> from pathlib import Path
>>> from aeskit.synth import synthesize
>>> r = synthesize(get_core("round"), Path("build/synth/round"))   # doctest: +SKIP
>>> r.lut4, r.ff, r.fmax_mhz, r.ge                                  # doctest: +SKIP
"""

from aeskit.synth.flow import (
    CLOCK_PORT,
    DEVICE,
    FLOW_VERSION,
    FREQ_TARGET_MHZ,
    PACKAGE,
    SPEED_GRADE,
    Design,
    DoesNotFit,
    GateCount,
    SynthError,
    SynthResult,
    SynthTarget,
    gate_count,
    read_slang_command,
    stage_sources,
    synth_dir,
    synthesize,
    tool_versions,
    yosys_area,
    yosys_check,
)
from aeskit.synth.devices import DEFAULT_DEVICE, DEVICES, Device, UnknownDeviceError, get_device
from aeskit.synth.fit import Misfit, check_fit
from aeskit.synth.gates import GATE_LIBRARY, GE_WEIGHTS

__all__ = [
    "CLOCK_PORT",
    "DEFAULT_DEVICE",
    "DEVICE",
    "DEVICES",
    "FLOW_VERSION",
    "FREQ_TARGET_MHZ",
    "GATE_LIBRARY",
    "GE_WEIGHTS",
    "PACKAGE",
    "SPEED_GRADE",
    "Design",
    "Device",
    "DoesNotFit",
    "GateCount",
    "Misfit",
    "SynthError",
    "SynthResult",
    "SynthTarget",
    "UnknownDeviceError",
    "check_fit",
    "gate_count",
    "get_device",
    "read_slang_command",
    "stage_sources",
    "synth_dir",
    "synthesize",
    "tool_versions",
    "yosys_area",
    "yosys_check",
]
