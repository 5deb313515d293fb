"""No import cycle in ``src/aeskit`` (issue 51): ``python tools/import_cycles.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_cycles", REPO / "tools" / "import_cycles.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_no_import_cycle_in_aeskit() -> None:
    tool = _tool()
    assert len(tool.modules(REPO / "src" / "aeskit")) > 100
    assert tool.cycles(REPO / "src" / "aeskit") == []


def test_the_checker_finds_deferred_and_relative_cycles_and_skips_type_checking(
        tmp_path: Path) -> None:
    tool = _tool()
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from p.sub import b\n")
    (pkg / "a.py").write_text("def f():\n    from p.sub import b\n    return b\n")
    (pkg / "sub" / "b.py").write_text("from .. import a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\n"
                              "if TYPE_CHECKING:\n    from p import d\n")
    (pkg / "d.py").write_text("import p.c\n")
    assert tool.cycles(pkg) == [["p.a", "p.sub.b"]]
    assert tool.main([str(pkg)]) == 1
    (pkg / "sub" / "b.py").write_text("X = 1\n")
    assert tool.cycles(pkg) == [] and tool.main([str(pkg)]) == 0
