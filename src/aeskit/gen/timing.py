"""Documentation helpers: WaveDrom timing diagrams rendered to SVG.

Timing diagrams live as WaveDrom JSON in ``docs/timing/*.json``; ``render_timing``
writes the SVG beside each source (``python -m aeskit.gen``, ``make docs``), and the
staleness check of :mod:`aeskit.gen` compares every committed SVG with what its
source renders to.
"""

from __future__ import annotations

from pathlib import Path

from aeskit import REPO_ROOT

TIMING_DIR = REPO_ROOT / "docs" / "timing"


def render_svg(source: Path) -> str:
    import wavedrom

    return str(wavedrom.render(source.read_text()).tostring())


def outputs() -> dict[str, str]:
    """Repository-relative path -> text of the SVG of every ``docs/timing/*.json``."""
    return {src.with_suffix(".svg").relative_to(REPO_ROOT).as_posix(): render_svg(src)
            for src in sorted(TIMING_DIR.glob("*.json"))}


def render_timing(check: bool = False) -> list[Path]:
    """Render every ``docs/timing/*.json``; with ``check``, return the stale SVGs instead."""
    stale = []
    for rel, text in outputs().items():
        svg = REPO_ROOT / rel
        if check:
            if not svg.exists() or svg.read_text() != text:
                stale.append(svg)
        else:
            svg.write_text(text)
    return stale
