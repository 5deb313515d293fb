"""The encodings (issue 47): ``hw/modes/ak_mode_codes.rdl`` is their one description.

* the files the ``codes`` step writes (SV package, C header, Python module) are current;
* each of them, parsed, says exactly what the .rdl says (read here with
  systemrdl-compiler directly, not through the generator): the SV package's enums and
  widths, the C header's enumerators (parsed, and compiled and printed through the
  driver's own header), the Python IntEnums;
* no hand copy is left: the systems' SV declares no mode or error constant of its own,
  and no Python file under src/ or tests/ spells the mode table as a literal;
* the enum-only .rdl is not a register map, and an enum the generator has no target for
  is an error.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from enum import IntEnum
from pathlib import Path

import pytest

from aeskit import REPO_ROOT
from aeskit.gen import codes, regs, stale
from aeskit.hw import codes as hw_codes
from aeskit.hw import manifest

SW = REPO_ROOT / "sw"


def _rdl_enums() -> dict[str, dict[str, int]]:
    """enum name -> {member: value}, straight from the .rdl."""
    from systemrdl import RDLCompiler
    from systemrdl.rdltypes import UserEnum

    rdlc = RDLCompiler()
    rdlc.compile_file(str(codes.RDL))
    out: dict[str, dict[str, int]] = {}
    for name in rdlc.namespace.type_ns_stack[0]:
        typ = rdlc.namespace.lookup_type(name)
        if isinstance(typ, type) and issubclass(typ, UserEnum):
            out[name] = {m.name: int(m.value) for m in typ}
    return out


RDL = _rdl_enums()


def test_generated_code_files_are_current() -> None:
    assert stale(texts=codes.outputs()) == []


def test_rdl_has_the_documented_codes() -> None:
    """The .rdl holds the enums the generator targets, each value unique."""
    assert set(RDL) == set(codes.TARGETS)
    for name, members in RDL.items():
        assert len(set(members.values())) == len(members), name


def test_python_enums_equal_rdl() -> None:
    for name, members in RDL.items():
        cls = getattr(hw_codes, codes.TARGETS[name].py_class)
        assert issubclass(cls, IntEnum)
        assert {m.name: int(m) for m in cls} == members, name


def _sv_enums(text: str) -> dict[str, tuple[str, dict[str, int]]]:
    """typedef name -> (width expression, {member: value}) of a package's enums."""
    out = {}
    for m in re.finditer(r"typedef\s+enum\s+logic\s*\[([^\]]+)-1:0\]\s*\{(.*?)\}\s*(\w+)\s*;",
                         text, re.S):
        width, body, name = m.groups()
        members = {}
        for item in re.finditer(r"(\w+)\s*=\s*(\d+)'d(\d+)", body):
            members[item.group(1)] = int(item.group(3))
        out[name] = (width.strip(), members)
    return out


def test_sv_package_equals_rdl() -> None:
    text = (REPO_ROOT / codes.sv_pkg_path()).read_text()
    assert re.search(rf"^package {codes.SV_PKG_NAME};", text, re.M)
    params = {m.group(1): int(m.group(2))
              for m in re.finditer(r"localparam\s+int\s+(\w+)\s*=\s*(\d+);", text)}
    got = _sv_enums(text)
    want = {n: ms for n, ms in RDL.items() if codes.TARGETS[n].sv}
    assert set(got) == set(want)
    for name, members in want.items():
        width_param, sv_members = got[name]
        prefix = codes.camel(name.removeprefix("ak_").removesuffix("_e"))
        assert sv_members == {prefix + codes.camel(k): v for k, v in members.items()}, name
        assert params[width_param] == max(members.values()).bit_length(), name


def _c_enums(text: str) -> dict[str, dict[str, int]]:
    """typedef name -> {enumerator: value} of the header's ``typedef enum`` blocks."""
    body_free = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = {}
    for m in re.finditer(r"typedef\s+enum\s*\{(.*?)\}\s*(\w+)\s*;", body_free, re.S):
        out[m.group(2)] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(\d+)", m.group(1))}
    return out


def _c_want() -> dict[str, dict[str, int]]:
    want: dict[str, dict[str, int]] = {}
    for name, members in RDL.items():
        t = codes.TARGETS[name]
        for k, v in members.items():
            c = "AESKIT_OK" if k == "OK" else t.c_prefix + k
            want.setdefault(t.c_type, {})[c] = v
    return want


def test_c_header_equals_rdl() -> None:
    got = _c_enums((REPO_ROOT / codes.C_HEADER).read_text())
    assert got == _c_want()
    # the driver's header takes its enums from the generated one, and defines none
    drv = (SW / "aeskit_coproc.h").read_text()
    assert '#include "aeskit_codes.h"' in drv
    assert not set(_c_enums(drv)) & set(got)


def test_c_values_through_the_driver_header(tmp_path: Path) -> None:
    """Compiled (C99, -Werror) and run: every enumerator of the driver's header has the
    value of the .rdl."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    want = {k: v for members in _c_want().values() for k, v in members.items()}
    src = tmp_path / "codes.c"
    src.write_text("#include <stdio.h>\n#include \"aeskit_coproc.h\"\nint main(void) {\n"
                   + "".join(f'  printf("{k} %d\\n", (int){k});\n' for k in want)
                   + "  return 0;\n}\n")
    exe = tmp_path / "codes"
    subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic",
                    f"-I{SW}", "-o", str(exe), str(src)], check=True, capture_output=True)
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout
    got = {k: int(v) for k, v in (ln.split() for ln in out.splitlines())}
    assert got == want


#: the systems' tops that use the codes
SYSTEM_TOPS = ("ak_coproc", "ak_axis_core", "ak_cipher_ahb", "ak_aes_lite")
#: their hand-written SV files (the folders of their tops, generated files aside)
SYSTEM_SV = sorted(p for top in SYSTEM_TOPS for p in manifest.module_file(top).parent.glob("*.sv"))


@pytest.mark.parametrize("path", SYSTEM_SV, ids=lambda p: p.name)
def test_no_hand_copied_codes_in_the_systems(path: Path) -> None:
    text = path.read_text()
    consts = re.findall(r"localparam[^;]*\b((?:Mode|Err|CoprocErr)[A-Z]\w*)\s*=", text)
    assert not consts, f"{path.name} declares its own codes {consts}: use ak_mode_codes_pkg"


def test_systems_import_the_package() -> None:
    for top in SYSTEM_TOPS:
        assert f"import {codes.SV_PKG_NAME}::*;" in manifest.module_file(top).read_text(), top


#: a literal mode table: a dict whose keys are mode names and values small integers
_MODE_LITERAL = re.compile(r"\{\s*\"ecb\"\s*:\s*0\s*,\s*\"cbc\"\s*:\s*1")
#: a literal error table
_ERR_LITERAL = re.compile(r"\"LEN_ALIGN\"\s*:\s*1\b")


def test_no_hand_copied_tables_in_python() -> None:
    bad = []
    for root in ("src", "tests"):
        for p in (REPO_ROOT / root).rglob("*.py"):
            text = p.read_text()
            if _MODE_LITERAL.search(text) or _ERR_LITERAL.search(text):
                bad.append(p.relative_to(REPO_ROOT).as_posix())
    assert not bad, f"hand-copied code tables (use aeskit.hw.codes): {bad}"


def test_codes_rdl_is_not_a_register_map() -> None:
    assert codes.RDL not in [m.rdl for m in regs.maps()]


def test_enum_without_target_is_refused(tmp_path: Path) -> None:
    rdl = tmp_path / "x.rdl"
    rdl.write_text(codes.RDL.read_text() + "\nenum ak_new_e { A = 0; };\n")
    with pytest.raises(ValueError, match="ak_new_e"):
        codes.enums(rdl)


def test_missing_enum_is_refused(tmp_path: Path) -> None:
    rdl = tmp_path / "x.rdl"
    rdl.write_text("enum ak_mode_e { ECB = 0; };\n")
    with pytest.raises(ValueError, match="lacks"):
        codes.enums(rdl)
