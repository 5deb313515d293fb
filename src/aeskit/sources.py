"""The one source hash of a hardware design (a registry core or configuration, a system,
a primitive, a test fixture): what every cached or stored result of that design is
keyed by (:func:`aeskit.store.is_current` compares digests that contain it).

It covers the top module's name, its parameter overrides, the nextpnr router, placer
and block-RAM rows when the design sets them (they change the placed result), every
file of the design in compile order (name and bytes), and the HDL files (``.sv``,
``.svh``, ``.v``, ``.vh``) below its include folders (relative path and bytes).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Protocol

__all__ = ["HDL_SUFFIXES", "Sourced", "source_hash"]

#: the files of an include folder that are hashed (and copied by the synthesis flow)
HDL_SUFFIXES = (".sv", ".svh", ".v", ".vh")


class Sourced(Protocol):
    """What :func:`source_hash` reads of a design."""

    top: str
    router: str | None
    placer: str | None
    ram_rows: Any

    @property
    def parameters(self) -> Any: ...

    def file_paths(self) -> list[Path]: ...

    def include_paths(self) -> list[Path]: ...


def source_hash(design: Sourced) -> str:
    """16 hex digits of SHA-256 over everything that defines ``design``'s hardware."""
    h = hashlib.sha256()
    h.update(design.top.encode())
    h.update(repr(sorted(dict(design.parameters).items())).encode())
    if design.router is not None:
        h.update(f"router={design.router}".encode())
    if design.placer is not None:
        h.update(f"placer={design.placer}".encode())
    if design.ram_rows is not None:
        h.update(f"ram_rows={tuple(design.ram_rows)}".encode())
    for p in design.file_paths():
        h.update(p.name.encode())
        h.update(p.read_bytes())
    for d in design.include_paths():
        for p in sorted(d.rglob("*")):
            if p.is_file() and p.suffix in HDL_SUFFIXES:
                h.update(str(p.relative_to(d)).encode())
                h.update(p.read_bytes())
    return h.hexdigest()[:16]
