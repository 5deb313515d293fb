"""ak_axis_core lint in its non-default builds (the manifest's lint target covers the
default one): Verilator ``--lint-only -Wall`` and ``--cc -Wall`` (scheduling warnings)
with the one waiver file, zero warnings, for the streamed build of a deep pipeline
(PlainStream, FifoDepth 128: the registered-read FIFO), the same without the AEAD
modes and with FifoDepth 1024, a small odd depth (distributed RAM, the segment FIFO
as deep as the FIFO) with HoldBeats, a depth of one, and key slots (``KeySlots`` 4 as
``ak_axis_sys`` builds it; 8 on the streamed build with 128-bit keys, the registered-read
FIFO carrying tdest; 2 without the AEAD modes); and Yosys ``read_slang``
(``hierarchy -check; proc; check -assert``, no warning) of the streamed build and of the
8-slot one.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator, yosys

TOP = "ak_axis_core"
#: the non-default parameter sets (the registry's streamed build first)
BUILDS = {
    "stream-d128": {"FifoDepth": 128, "PlainStream": 1, "InFlight": 85, "KeyLens": "3'b001"},
    "stream-d1024-ecb-ofb": {"FifoDepth": 1024, "PlainStream": 1, "Modes": "9'h01f"},
    "d7-hold4": {"FifoDepth": 7, "HoldBeats": 4},
    "d1": {"FifoDepth": 1},
    "slots4": {"KeySlots": 4},
    "slots8-stream-d128": {"KeySlots": 8, "FifoDepth": 128, "PlainStream": 1, "InFlight": 85,
                           "KeyLens": "3'b001"},
    "slots2-ecb-ofb": {"KeySlots": 2, "Modes": "9'h01f"},
}
BUILD_LINT = Path(__file__).resolve().parents[4] / "build" / "lint"


def _files() -> list[str]:
    from aeskit.hw.systems.axis import wrapper_paths

    return [str(p) for p in wrapper_paths()]


def _warnings(out: str) -> list[str]:
    return [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]


@pytest.mark.parametrize("mode", ["--lint-only", "--cc"])
@pytest.mark.parametrize("build", sorted(BUILDS))
def test_verilator(build: str, mode: str, tmp_path: Path) -> None:
    cmd = [verilator(), mode, "-Wall", "--top-module", TOP]
    if mode == "--cc":
        cmd += ["--Mdir", str(tmp_path)]
    cmd += [f"-G{k}={v}" for k, v in BUILDS[build].items()]
    cmd += [str(WAIVERS), *_files()]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and not _warnings(out), f"{build}: verilator {mode}\n{out}"


def test_yosys_read_slang_stream() -> None:
    _read_slang("stream-d128")


def test_yosys_read_slang_slots() -> None:
    _read_slang("slots8-stream-d128")


def _read_slang(build: str) -> None:
    params = " ".join(f"-G {k}={v}" for k, v in BUILDS[build].items())
    script = (f"read_slang -j 1 --top {TOP} {params} {' '.join(_files())}; "
              f"hierarchy -check -top {TOP}; proc; check -assert")
    BUILD_LINT.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(yosys() + ["-p", script], capture_output=True, text=True,
                         timeout=600, cwd=BUILD_LINT)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines()
                if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    assert res.returncode == 0 and "Build succeeded: 0 errors, 0 warnings" in out \
        and not warnings, "\n".join(warnings or out.splitlines()[-40:])
