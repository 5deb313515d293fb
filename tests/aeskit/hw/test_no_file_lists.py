"""No hand-written list of RTL files in Python: the manifests (``hw/**/*.core``) are the
only place one is written, and every consumer asks them (``aeskit.hw.manifest``) or the
registry.

Every Python file under ``src/`` and ``tests/`` is parsed (``ast``); docstrings and
comments may name files, code may not. An offender is

* a string constant ending in ``.sv`` whose file name is an RTL file of ``hw/``;
* a path built from ``HW_ROOT`` (or a ``"hw"`` segment) that ends in a ``.sv`` string
  or f-string (``HW_ROOT / "bus/asbus" / f"{m}.sv"``), whether or not the file exists;
* an f-string naming a ``.sv`` file under ``hw/`` (``f"hw/primitives/{m}.sv"``).

Test-only RTL (fixtures under ``tests/``) is not under ``hw/`` and may be named.
"""

from __future__ import annotations

import ast
from pathlib import Path

from aeskit import HW_ROOT, REPO_ROOT

ROOTS = ("src", "tests")
#: names that stand for the hw/ folder in a path expression
HW_NAMES = {"HW_ROOT", "HW"}


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                out.add(id(body[0].value))
    return out


def _ends_sv(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.endswith(".sv")
    if isinstance(node, ast.JoinedStr) and node.values:
        last = node.values[-1]
        return isinstance(last, ast.Constant) and str(last.value).endswith(".sv")
    return False


def _div_operands(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return [*_div_operands(node.left), *_div_operands(node.right)]
    return [node]


def _is_hw(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in HW_NAMES
    if isinstance(node, ast.Attribute):
        return node.attr in HW_NAMES
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value == "hw" or node.value.startswith("hw/")
    return False


def offenders_in(source: str, filename: str, rtl_names: set[str]) -> list[str]:
    """``filename:line: what`` for every hand-written RTL file name in ``source``."""
    tree = ast.parse(source, filename)
    docs = _docstrings(tree)
    found: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value.endswith(".sv") and Path(node.value).name in rtl_names:
                found.setdefault(node.lineno, f"RTL file named: {node.value!r}")
        elif isinstance(node, ast.JoinedStr) and _ends_sv(node):
            head = node.values[0]
            if isinstance(head, ast.Constant) and _is_hw(head):
                found.setdefault(node.lineno, f"f-string under hw/: {ast.unparse(node)}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            ops = _div_operands(node)
            if any(_is_hw(o) for o in ops[:-1]) and _ends_sv(ops[-1]):
                found.setdefault(node.lineno, f"path into hw/: {ast.unparse(node)}")
    return [f"{filename}:{line}: {what}" for line, what in sorted(found.items())]


def _rtl_names() -> set[str]:
    return {p.name for p in HW_ROOT.rglob("*.sv")}


def test_no_hand_written_sv_lists() -> None:
    names = _rtl_names()
    assert len(names) > 50, "hw/ holds the RTL"
    bad: list[str] = []
    files = [p for r in ROOTS for p in sorted((REPO_ROOT / r).rglob("*.py"))]
    assert len(files) > 100
    for p in files:
        bad += offenders_in(p.read_text(), str(p.relative_to(REPO_ROOT)), names)
    assert not bad, ("hand-written RTL file names (ask aeskit.hw.manifest or the "
                     "registry instead):\n  " + "\n  ".join(bad))


def test_the_check_finds_each_kind() -> None:
    """The check is not vacuous: each kind of offender is found, docstrings and
    comments are not, and test fixtures outside hw/ may be named."""
    src = '''"""A docstring may name ak_sbox.sv."""
from aeskit import HW_ROOT
A = [HW_ROOT / "primitives/sbox/ak_sbox.sv"]  # a comment: ak_sbox.sv
B = [HW_ROOT / "bus/asbus" / f"{m}.sv" for m in ("ak_asbus_arbiter",)]
C = "primitives/sbox/ak_inv_sbox.sv"
D = f"hw/primitives/{m}.sv"
E = ROOT / "hw" / "gone" / "ak_gone.sv"
F = FIX / "ak_fx_xor.sv"


def f() -> None:
    """ak_sbox.sv, in a function's docstring."""
'''
    got = offenders_in(src, "x.py", {f"{m}.sv" for m in ("ak_sbox", "ak_inv_sbox")})
    assert [g.split(":")[1] for g in got] == ["3", "4", "5", "6", "7"], got
