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
    GateCount,
    SynthError,
    SynthResult,
    SynthTarget,
    gate_count,
    read_slang_command,
    stage_sources,
    synthesize,
    tool_versions,
    yosys_check,
)
from aeskit.synth.gates import GATE_LIBRARY, GE_WEIGHTS

__all__ = [
    "CLOCK_PORT",
    "DEVICE",
    "FLOW_VERSION",
    "FREQ_TARGET_MHZ",
    "GATE_LIBRARY",
    "GE_WEIGHTS",
    "PACKAGE",
    "SPEED_GRADE",
    "Design",
    "GateCount",
    "SynthError",
    "SynthResult",
    "SynthTarget",
    "gate_count",
    "read_slang_command",
    "stage_sources",
    "synthesize",
    "tool_versions",
    "yosys_check",
]
