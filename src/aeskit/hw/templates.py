"""Bench tops whose text varies per use, rendered from templates under ``hw/bench/``.

Most bench modules are plain ``.sv`` files. A few cannot be: the module they
instantiate is chosen per use (the mode-engine harness runs on ANY registry core,
the primitive table wraps any primitive, the test wrapper holds any list of
instances), and SystemVerilog cannot take a module name as a parameter. Those are
``<module>.sv.tpl`` files, listed by a manifest of their own (``file_type: user``, so
FuseSoC and the simulators never compile them) and rendered here:

* the template's header -- every line up to the first empty line -- documents the
  template and is not rendered;
* the body is a :class:`string.Template`: ``${name}`` is replaced by a value, ``$$``
  is a literal ``$``; a missing or unknown value is an error.

>>> text = render("aeskit:bench:lanes", "ak_lanes", name="ak_x16_affine", lanes=16, ...)
... # doctest: +SKIP
"""

from __future__ import annotations

import os
import string
from pathlib import Path

from aeskit.hw import manifest

__all__ = ["TemplateError", "render", "template_path", "write_if_changed"]

#: file type of a template in its manifest
TEMPLATE_TYPE = "user"
SUFFIX = ".sv.tpl"


class TemplateError(RuntimeError):
    """A template is missing, or a value is missing or not used."""


def template_path(name: str, module: str) -> Path:
    """The template of ``module`` (``<module>.sv.tpl``) listed by manifest ``name``."""
    for path, ftype in manifest.get(name).other_files:
        if ftype == TEMPLATE_TYPE and path.name == module + SUFFIX:
            return path
    raise TemplateError(f"manifest {name} lists no template {module}{SUFFIX}")


def _body(path: Path) -> str:
    text = path.read_text()
    head, sep, body = text.partition("\n\n")
    if not sep or not all(ln.startswith("//") for ln in head.splitlines()):
        raise TemplateError(f"{path}: a template starts with a '//' header block and an "
                            f"empty line")
    return body


def render(core: str, module: str, /, **values: object) -> str:
    """The text of ``module``'s template (listed by manifest ``core``) with ``values``
    filled in. Every placeholder needs a value and every value must be used."""
    path = template_path(core, module)
    tpl = string.Template(_body(path))
    wanted = set(tpl.get_identifiers())
    if wanted != set(values):
        raise TemplateError(f"{path}: placeholders {sorted(wanted)}, values given "
                            f"{sorted(values)}")
    return tpl.substitute({k: str(v) for k, v in values.items()})


def write_if_changed(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` atomically, and only when it differs (keeps build
    stamps valid and is safe with several workers writing the same file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_file() and path.read_text() == text:
        return path
    tmp = path.with_suffix(f"{path.suffix}.{os.getpid()}.tmp")
    tmp.write_text(text)
    tmp.replace(path)
    return path
