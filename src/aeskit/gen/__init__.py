"""Generator of the field-arithmetic S-box primitives (hw/primitives).

The tower/composite fields, the root search, the isomorphisms and every merged
linear map are computed here from the field definitions (:mod:`aeskit.gen.fields`,
:mod:`aeskit.gen.maps`); :mod:`aeskit.gen.render` writes the SystemVerilog. Run
``python -m aeskit.gen`` (or ``tools/gen_primitives.py``) to rewrite the files,
``--check`` to verify that the committed files are current.
"""

from __future__ import annotations

from pathlib import Path

from aeskit import HW_ROOT

PRIM_DIR = HW_ROOT / "primitives"


def rendered() -> dict[Path, str]:
    """Every generated file: path -> exact text (the RTL, and docs/primitives.md with
    its generated block replaced)."""
    from aeskit.gen import doc
    from aeskit.gen.render import FILES

    out = {PRIM_DIR / name: fn() for name, fn in FILES.items()}
    if doc.DOC.is_file():
        out[doc.DOC] = doc.splice(doc.DOC.read_text())
    return out


def stale() -> list[Path]:
    """Generated files whose committed text differs from the generator's."""
    return [p for p, text in rendered().items() if not p.is_file() or p.read_text() != text]


def write() -> list[Path]:
    out = []
    for p, text in rendered().items():
        p.write_text(text)
        out.append(p)
    return out
