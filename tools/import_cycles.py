"""Import cycles among the modules of a Python package, from the source alone.

    python tools/import_cycles.py [src/aeskit]

prints every cycle (a strongly connected set of two or more modules) and exits 1 if
there is one, else prints "no import cycle" and exits 0. Every ``import`` and ``from
... import`` counts wherever it stands (a deferred import inside a function still ties
the two modules together); imports under ``if TYPE_CHECKING:`` do not (they never run).
``from pkg import name`` depends on the module ``pkg.name`` when there is one, else on
``pkg``. tests/aeskit/test_import_cycles.py runs it on ``src/aeskit``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def modules(package: Path) -> dict[str, Path]:
    """Dotted name -> file of every module of ``package`` (a folder with __init__.py)."""
    root = package.parent
    out = {}
    for p in sorted(package.rglob("*.py")):
        rel = p.relative_to(root).with_suffix("")
        parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
        out[".".join(parts)] = p
    return out


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def owner(target: str) -> str | None:
        while target and target not in mods:
            target = target.rpartition(".")[0]
        return target or None

    def visit(node: ast.AST) -> None:
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, ast.If) and "TYPE_CHECKING" in ast.unparse(ch.test):
                for e in ch.orelse:
                    visit(e)
                continue
            if isinstance(ch, ast.Import):
                targets = [a.name for a in ch.names]
            elif isinstance(ch, ast.ImportFrom):
                base = ch.module or ""
                if ch.level:
                    up = pkg.split(".")[:len(pkg.split(".")) - (ch.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                           for a in ch.names]
            else:
                visit(ch)
                continue
            for t in targets:
                m = owner(t)
                if m is not None and m != name:
                    found.add(m)

    visit(ast.parse(path.read_text(), str(path)))
    return found


def cycles(package: Path) -> list[list[str]]:
    """The import cycles of ``package``: each a sorted list of two or more modules."""
    mods = modules(package)
    graph = {n: _imports(n, p, mods) for n, p in mods.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph) + 100))
    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(found)


def main(argv: list[str]) -> int:
    package = Path(argv[0] if argv else Path(__file__).parents[1] / "src" / "aeskit")
    found = cycles(package)
    for c in found:
        print("import cycle: " + " <-> ".join(c))
    if not found:
        print(f"no import cycle in {package}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
