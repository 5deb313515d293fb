"""Every generated file of the repository, from one entry point.

``python -m aeskit.gen`` rewrites them all, ``python -m aeskit.gen --check`` writes
nothing and exits 1 if a committed file differs from what it would write. The steps
(:data:`STEPS`), each a function returning {repository-relative path: exact text}:

* ``rtl`` (:mod:`aeskit.gen.rtl`): the table RTL (:mod:`aeskit.gen.tables`: case-table
  and block-RAM S-boxes, the LUT inverter, paper 003's T-box RAM) and the field-arithmetic
  RTL (:mod:`aeskit.gen.render`: tower/composite fields, root search, isomorphisms and
  merged linear maps computed from the field definitions of :mod:`aeskit.gen.fields` and
  :mod:`aeskit.gen.maps`), each at its path under ``hw/`` beside the design that owns it;
* ``primitives-doc`` (:mod:`aeskit.gen.doc`): the generated block of docs/primitives.md;
* ``regs`` (:mod:`aeskit.gen.regs`): for every SystemRDL map under ``hw/`` (cipher_ahb,
  the co-processor, ...): the register block, packages, C header and register table
  (PeakRDL; per-map options in the .rdl, see :mod:`aeskit.gen.regs`);
* ``timing`` (:mod:`aeskit.gen.timing`): the WaveDrom timing diagrams of docs/timing;
* ``codes`` (:mod:`aeskit.gen.codes`): the mode and result codes from their one
  description, ``hw/modes/ak_mode_codes.rdl``: the SV package ``ak_mode_codes_pkg``,
  the C driver's ``sw/aeskit_codes.h`` and the Python ``aeskit.hw.codes``.

GF(2^8) arithmetic has one implementation, :mod:`aeskit.model.gf`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from aeskit import REPO_ROOT


def _rtl() -> dict[str, str]:
    from aeskit.gen import rtl

    return rtl.outputs()


def _doc() -> dict[str, str]:
    from aeskit.gen import doc

    return doc.outputs()


def _regs() -> dict[str, str]:
    from aeskit.gen import regs

    return regs.outputs()


def _timing() -> dict[str, str]:
    from aeskit.gen import timing

    return timing.outputs()


def _codes() -> dict[str, str]:
    from aeskit.gen import codes

    return codes.outputs()


#: step name -> function returning {repository-relative path: text}
STEPS: dict[str, Callable[[], dict[str, str]]] = {
    "rtl": _rtl,
    "primitives-doc": _doc,
    "regs": _regs,
    "timing": _timing,
    "codes": _codes,
}


def outputs() -> dict[str, str]:
    """Every generated file: repository-relative path -> exact text."""
    out: dict[str, str] = {}
    for step in STEPS.values():
        out.update(step())
    return out


def stale(root: Path = REPO_ROOT, texts: Mapping[str, str] | None = None) -> list[Path]:
    """Generated files under ``root`` whose text differs from the generator's (or from
    ``texts``, {relative path: text}, when given)."""
    want = outputs() if texts is None else texts
    bad = []
    for rel, text in want.items():
        p = root / rel
        if not p.is_file() or p.read_text() != text:
            bad.append(p)
    return bad


def write(root: Path = REPO_ROOT) -> list[Path]:
    """Write every generated file under ``root`` that is missing or differs; return the
    paths written (files already current are left untouched)."""
    out = []
    for rel, text in outputs().items():
        p = root / rel
        if p.is_file() and p.read_text() == text:
            continue
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        out.append(p)
    return out
