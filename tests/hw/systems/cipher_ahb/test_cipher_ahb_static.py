"""cipher_ahb without simulation:

* (that the committed generated files are what ``python -m aeskit.gen`` makes of
  cipher_ahb.rdl is tests/aeskit/gen's staleness check);
* Verilator ``--lint-only -Wall`` and ``--cc -Wall`` of the top (pipe2 + mode engine +
  generated register block + bridge + FIFOs): zero warnings, with the one waiver file,
  whose cipher_ahb waivers are scoped to the generated files only;
* the hand-written files lint clean with no waiver at all (generated files excluded
  by giving Verilator only their own waivers);
* a bad FifoDepth is refused at elaboration with a message naming it.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from aeskit.hw.manifest import sources
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator

ROOT = Path(__file__).resolve().parents[4]
BUILD = ROOT / "build" / "lint" / "cipher_ahb"


def _sources() -> list[Path]:
    return sources("aeskit:system:cipher_ahb")


def _verilator(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    cwd.mkdir(parents=True, exist_ok=True)
    return subprocess.run([str(verilator()), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)


@pytest.mark.parametrize("mode", ["--lint-only", "--cc"])
def test_lint_zero_warnings(mode: str, tmp_path) -> None:
    files = [str(p) for p in _sources()]
    args = [mode, "-Wall", "--top-module", "ak_cipher_ahb", str(WAIVERS), *files]
    if mode == "--cc":
        args += ["--Mdir", str(tmp_path / "obj")]
    r = _verilator(args, tmp_path)
    out = r.stdout + r.stderr
    assert r.returncode == 0 and "%Warning" not in out and "%Error" not in out, out


def test_waivers_scoped_to_generated_files() -> None:
    lines = [ln for ln in WAIVERS.read_text().splitlines()
             if ln.startswith("lint_off") and "cipher_ahb" in ln]
    assert lines, "no cipher_ahb waivers found (update this test if none are needed)"
    for ln in lines:
        m = re.search(r'-file "([^"]+)"', ln)
        assert m and re.fullmatch(r"\*/gen/ak_cipher_ahb_\w+", m.group(1).removesuffix(".sv")), (
            f"waiver not scoped to a generated file: {ln}")


def test_bad_fifo_depth_refused(tmp_path) -> None:
    files = [str(p) for p in _sources()]
    r = _verilator(["--lint-only", "-Wall", "--top-module", "ak_cipher_ahb",
                    "-GFifoDepth=0", str(WAIVERS), *files], tmp_path)
    assert r.returncode != 0 and "FifoDepth must be >= 1, got 0" in r.stdout + r.stderr


def test_c_header_matches_rdl(tmp_path) -> None:
    """The generated C header compiles, and its struct offsets and field masks are the
    addresses and bit positions of cipher_ahb.rdl (compiled independently here)."""
    import shutil
    import sys
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_cipher_ahb import regmap

    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "no C compiler"
    addr, bit = regmap()
    checks = []
    for name, a in addr.items():
        m = re.fullmatch(r"(KEY|IV|DATA_IN[01]|DATA_OUT[01])(\d)", name)
        member = f"{m.group(1)}[{m.group(2)}]" if m else name
        checks.append(f"_Static_assert(offsetof(ak_cipher_ahb_regs_t, {member}) == {a}, "
                      f"\"{name}\");")
    for name, lsb in bit.items():
        reg, field = name.split(".")
        if reg in ("KEY", "IV", "DATA_IN0", "DATA_IN1", "DATA_OUT0", "DATA_OUT1"):
            continue
        checks.append(f"_Static_assert(AK_CIPHER_AHB_REGS__{reg}__{field}_bp == {lsb}, "
                      f"\"{name}\");")
    src = tmp_path / "t.c"
    src.write_text("#include <stddef.h>\n#include \"ak_cipher_ahb_regs.h\"\n"
                   + "\n".join(checks) + "\nint main(void) { return 0; }\n")
    r = subprocess.run([cc, "-std=c11", "-Wall", "-Werror", "-fsyntax-only",
                        "-I", str(ROOT / "hw" / "systems" / "cipher_ahb" / "gen"), str(src)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert len(checks) > 40


def test_yosys_read_slang(tmp_path) -> None:
    """Yosys (read_slang) elaborates the whole top: hierarchy, proc, check -assert,
    no warning."""
    from aeskit.toolchain.paths import yosys

    files = " ".join(str(p) for p in _sources())
    script = (f"read_slang -j 1 --top ak_cipher_ahb {files}; "
              "hierarchy -check -top ak_cipher_ahb; proc; check -assert")
    r = subprocess.run([*yosys(), "-p", script], cwd=tmp_path, capture_output=True,
                       text=True, timeout=600)
    log = r.stdout + r.stderr
    assert r.returncode == 0, log[-3000:]
    warnings = [ln for ln in log.splitlines()
                if "warning" in ln.lower() and "0 warnings" not in ln]
    assert not warnings, warnings
