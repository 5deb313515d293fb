"""Per-map options of aeskit.gen.regs: the C standard of the generated C header
(``// aeskit-cheader-std:``). The co-processor's header is C99 (its driver, sw/, is
C99 and includes it as is); the other maps keep peakrdl-cheader's default (C11
``static_assert`` packing check)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from aeskit import HW_ROOT
from aeskit.gen import regs

COPROC = HW_ROOT / "systems" / "coproc" / "coproc.rdl"
CIPHER_AHB = HW_ROOT / "systems" / "cipher_ahb" / "cipher_ahb.rdl"


def test_cheader_std_option() -> None:
    assert regs.regmap(COPROC).cheader_std == "gnu99"
    assert regs.regmap(CIPHER_AHB).cheader_std == ""


def test_bad_cheader_std_is_refused(tmp_path: Path) -> None:
    rdl = tmp_path / "x.rdl"
    rdl.write_text("// aeskit-cpuif: axi4-lite\n// aeskit-cheader-std: c99\naddrmap x {};\n")
    with pytest.raises(ValueError, match="aeskit-cheader-std must be one of .*gnu99"):
        regs.regmap(rdl)


def test_generated_headers_follow_their_standard(tmp_path: Path) -> None:
    """The coproc header (as generated now) has no <assert.h> / static_assert and
    compiles alone as C99 with -Wall -Wextra -Werror -pedantic; cipher_ahb's keeps its
    C11 packing check."""
    out = {**regs.map_outputs(regs.regmap(COPROC)), **regs.map_outputs(regs.regmap(CIPHER_AHB))}
    coproc_h = out["hw/systems/coproc/gen/ak_coproc_regs.h"]
    assert "static_assert" not in coproc_h and "assert.h" not in coproc_h
    assert "static_assert(sizeof(" in out["hw/systems/cipher_ahb/gen/ak_cipher_ahb_regs.h"]
    cc = shutil.which("cc") or shutil.which("gcc")
    # the set-up needs a C/C++ compiler anyway (Verilator builds): a missing one fails
    assert cc is not None, "no host C compiler (README: the set-up needs one)"
    (tmp_path / "ak_coproc_regs.h").write_text(coproc_h)
    src = tmp_path / "use.c"
    src.write_text('#include "ak_coproc_regs.h"\n'
                   "int regs_size(void);\n"
                   "int regs_size(void) { return (int)sizeof(ak_coproc_regs_t); }\n")
    res = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
                          f"-I{tmp_path}", "-c", str(src), "-o", str(tmp_path / "use.o")],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0, res.stderr
