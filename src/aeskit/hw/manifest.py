"""The FuseSoC manifests (CAPI2 ``.core`` files under ``hw/``): the only place a list
of RTL files is written.

Every design (primitive group, core, mode engine, bus endpoint, system, bench top)
has a ``.core`` file beside its RTL. This module reads them with PyYAML (the CAPI2
subset aeskit uses: a name, filesets with ``files``, ``file_type`` and ``depend``,
parameters and targets with a ``toplevel``) and resolves the dependencies into one
compile order (every dependency before its users, each file once). FuseSoC itself
reads the same files (``fusesoc --cores-root hw run --target lint <name>``); a test
checks that both agree.

Names are VLNVs without the version (``aeskit:core:round``); a dependency may carry
a version or a version operator (``>=aeskit:prim:sbox_table:0.1.0``), which this
reader ignores: every manifest of the repository has one version.

The compile order is FuseSoC's own: the dependency closure in layers (first the
manifests that depend on nothing, then those whose dependencies are all in earlier
layers, ...), each layer sorted by name, each manifest's files in its listed order.
So ``aeskit`` and ``fusesoc run`` hand the tools the same file list.

Manifests outside ``hw/`` (a core kept in its own folder, a test fixture) join through
*extra roots*: the folders named in the environment variable ``AESKIT_EXTRA_HW``
(separated by ``os.pathsep``) and those given to :func:`add_root`. Every function
below reads ``hw/`` plus the extra roots unless it is given one ``root``.

>>> [p.name for p in sources("aeskit:prim:key_step")][-1]
'ak_key_step_split.sv'
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import HW_ROOT

#: file types that are RTL (compiled by simulators and synthesis)
RTL_TYPES = ("systemVerilogSource", "verilogSource")


class ManifestError(RuntimeError):
    """A ``.core`` file is malformed, or a name or dependency does not exist."""


@dataclass(frozen=True)
class Manifest:
    """One ``.core`` file."""

    #: VLN without the version, e.g. ``aeskit:core:round``
    name: str
    version: str
    path: Path
    description: str
    #: own RTL files (absolute), in the order the manifest lists them
    files: tuple[Path, ...]
    #: own files of other types (``vlt`` waivers), absolute
    other_files: tuple[tuple[Path, str], ...]
    #: names of the manifests the RTL fileset depends on, in the listed order
    depends: tuple[str, ...]
    #: the default target's top module (None for a manifest with no RTL top)
    toplevel: str | None
    #: parameter name -> declaration (datatype, paramtype, description)
    parameters: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: target names
    targets: tuple[str, ...] = ()

    @property
    def folder(self) -> Path:
        return self.path.parent


def _strip_version(dep: str) -> str:
    dep = re.sub(r"^[<>=~^!]+", "", dep.strip())
    parts = dep.split(":")
    return ":".join(parts[:3])


def _parse(path: Path) -> Manifest:
    import yaml

    text = path.read_text()
    if not text.startswith("CAPI=2:"):
        raise ManifestError(f"{path}: not a CAPI2 core file (first line must be 'CAPI=2:')")
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as e:
        raise ManifestError(f"{path}: {e}") from None
    if not isinstance(doc, dict) or "name" not in doc:
        raise ManifestError(f"{path}: no 'name'")
    vlnv = str(doc["name"]).split(":")
    if len(vlnv) != 4:
        raise ManifestError(f"{path}: name {doc['name']!r} is not vendor:library:name:version")
    filesets = doc.get("filesets") or {}
    targets = doc.get("targets") or {}
    default = targets.get("default") or {}
    used = default.get("filesets") or []
    files: list[Path] = []
    other: list[tuple[Path, str]] = []
    deps: list[str] = []
    for fs_name in used:
        fs = filesets.get(fs_name)
        if fs is None:
            raise ManifestError(f"{path}: default target uses unknown fileset {fs_name!r}")
        ftype = fs.get("file_type", "")
        for f in fs.get("files") or []:
            if isinstance(f, dict):  # "- name: {file_type: ...}" form
                (fname, attrs), = f.items()
                ft = (attrs or {}).get("file_type", ftype)
            else:
                fname, ft = str(f), ftype
            p = (path.parent / fname).resolve()
            (files.append(p) if ft in RTL_TYPES else other.append((p, ft)))
        deps += [_strip_version(d) for d in fs.get("depend") or []]
    return Manifest(
        name=":".join(vlnv[:3]), version=vlnv[3], path=path.resolve(),
        description=str(doc.get("description", "")), files=tuple(files),
        other_files=tuple(other), depends=tuple(deps), toplevel=default.get("toplevel"),
        parameters=dict(doc.get("parameters") or {}), targets=tuple(targets),
    )


#: environment variable naming extra manifest roots (``os.pathsep``-separated folders)
EXTRA_ENV = "AESKIT_EXTRA_HW"
_added_roots: list[Path] = []


def extra_roots() -> tuple[Path, ...]:
    """The extra roots: ``$AESKIT_EXTRA_HW`` and then :func:`add_root`'s, each once."""
    env = [Path(p).resolve() for p in os.environ.get(EXTRA_ENV, "").split(os.pathsep) if p]
    out: list[Path] = []
    for p in (*env, *_added_roots):
        if p not in out and p != HW_ROOT.resolve():
            out.append(p)
    return tuple(out)


def add_root(folder: Path) -> None:
    """Read the manifests under ``folder`` too (for this process; a subprocess sees
    only ``$AESKIT_EXTRA_HW``)."""
    folder = Path(folder).resolve()
    if not folder.is_dir():
        raise ManifestError(f"extra manifest root {folder} is not a folder")
    if folder not in _added_roots:
        _added_roots.append(folder)


def roots() -> tuple[Path, ...]:
    """``hw/`` and the extra roots."""
    return (HW_ROOT, *extra_roots())


def _roots(root: Path | None) -> tuple[Path, ...]:
    return roots() if root is None else (Path(root),)


def manifest_paths(root: Path | None = None) -> list[Path]:
    """The ``.core`` files under ``root`` (default: :func:`roots`), sorted per root.
    A folder below a root that holds a file ``FUSESOC_IGNORE`` is skipped with
    everything below it, as FuseSoC does when it scans a cores root; a root itself
    is read even when it holds one (a fixture hidden from ``fusesoc --cores-root .``
    that a test names as a root)."""
    out: list[Path] = []
    for r in _roots(root):
        for p in sorted(r.rglob("*.core")):
            rel = p.parent.relative_to(r).parts
            if not any((r.joinpath(*rel[:i]) / "FUSESOC_IGNORE").exists()
                       for i in range(1, len(rel) + 1)):
                out.append(p)
    return out


def manifests(root: Path | None = None) -> dict[str, Manifest]:
    """Every manifest under ``root`` (default: :func:`roots`) by name. Two manifests
    with one name are an error."""
    return _manifests(_roots(root))


@functools.cache
def _manifests(roots_: tuple[Path, ...]) -> dict[str, Manifest]:
    # cached per set of roots; the files do not change while aeskit runs
    out: dict[str, Manifest] = {}
    for r in roots_:
        for p in manifest_paths(r):
            m = _parse(p)
            if m.name in out:
                raise ManifestError(f"manifest name {m.name} is declared twice: "
                                    f"{out[m.name].path} and {p}")
            out[m.name] = m
    return out


def get(name: str, root: Path | None = None) -> Manifest:
    ms = manifests(root)
    key = _strip_version(name)
    if key not in ms:
        where = ", ".join(str(r) for r in _roots(root))
        raise ManifestError(f"no manifest named {key!r} under {where}")
    return ms[key]


def _order_key(name: str) -> str:
    # FuseSoC sorts by its solver's package name: vendor_library_name, "-" -> "__"
    return name.replace(":", "_").replace("-", "__")


def resolve(name: str, root: Path | None = None) -> list[Manifest]:
    """``name`` and everything it depends on, dependencies first, each manifest once,
    in FuseSoC's order: layers of the dependency closure (a manifest comes in the
    first layer after all its dependencies), each layer sorted by name. A cycle is an
    error."""
    closure: dict[str, Manifest] = {}

    def visit(n: str, stack: tuple[str, ...]) -> None:
        if n in stack:
            raise ManifestError("dependency cycle: " + " -> ".join((*stack, n)))
        if n in closure:
            return
        m = get(n, root)
        for d in m.depends:
            visit(d, (*stack, n))
        closure[n] = m

    visit(_strip_version(name), ())
    order: list[Manifest] = []
    placed: set[str] = set()
    while len(placed) < len(closure):
        layer = sorted((n for n, m in closure.items()
                        if n not in placed and set(m.depends) <= placed), key=_order_key)
        order += [closure[n] for n in layer]
        placed.update(layer)
    return order


def sources(name: str, root: Path | None = None) -> list[Path]:
    """The RTL files of ``name`` and its dependencies in compile order (each once)."""
    out: list[Path] = []
    for m in resolve(name, root):
        out += [f for f in m.files if f not in out]
    return out


def verilator_configs(name: str, root: Path | None = None) -> list[Path]:
    """The Verilator configuration files (``file_type: vlt``) of ``name``'s default
    target and its dependencies, in the same order (a bench's ``public_flat_rw`` list)."""
    out: list[Path] = []
    for m in resolve(name, root):
        out += [f for f, ft in m.other_files if ft == "vlt" and f not in out]
    return out


def sim_sources(name: str, root: Path | None = None) -> list[Path]:
    """What a simulator is given for ``name``: its Verilator configuration files, then
    its RTL sources in compile order."""
    return [*verilator_configs(name, root), *sources(name, root)]


def _owner_index(root: Path | None = None) -> dict[Path, str]:
    return _owner_index_of(_roots(root))


@functools.cache
def _owner_index_of(roots_: tuple[Path, ...]) -> dict[Path, str]:
    idx: dict[Path, str] = {}
    for m in _manifests(roots_).values():
        for f in (*m.files, *(p for p, _ in m.other_files)):
            if f in idx:
                raise ManifestError(f"{f} is listed by two manifests: {idx[f]} and {m.name}")
            idx[f] = m.name
    return idx


def owner(path: Path, root: Path | None = None) -> str:
    """The name of the manifest that lists ``path``."""
    p = Path(path).resolve()
    try:
        return _owner_index(root)[p]
    except KeyError:
        raise ManifestError(f"{p} belongs to no manifest under "
                            f"{', '.join(map(str, _roots(root)))}") from None


def module_file(module: str, root: Path | None = None) -> Path:
    """The RTL file that holds ``module`` (one module per file, named after it). Two
    files of that name in the manifests are an error (a stand-in for a module, such as
    a formal cut, is named differently from the module it replaces)."""
    hits = [f for f in _owner_index(root) if f.stem == module and f.suffix in (".sv", ".v")]
    if len(hits) > 1:
        raise ManifestError(f"module {module!r} has {len(hits)} files in the manifests: "
                            + ", ".join(map(str, hits)))
    if hits:
        return hits[0]
    raise ManifestError(f"no manifest under {', '.join(map(str, _roots(root)))} lists a "
                        f"file for module {module!r}")


def sources_of_module(module: str, root: Path | None = None) -> list[Path]:
    """Compile order for ``module`` alone: the sources of the manifest that lists its
    file (the other files of that manifest come along; a simulator or Yosys given
    ``module`` as top ignores them)."""
    return sources(owner(module_file(module, root), root), root)
