"""Documentation helpers: WaveDrom timing diagrams rendered to SVG.

Timing diagrams live as WaveDrom JSON in ``docs/timing/*.json``; ``render_timing``
writes the SVG beside each source (``make docs``), and a test checks that every
committed SVG is what its source renders to.
"""

from __future__ import annotations

from pathlib import Path

from aeskit import REPO_ROOT

TIMING_DIR = REPO_ROOT / "docs" / "timing"


def render_svg(source: Path) -> str:
    import wavedrom

    return str(wavedrom.render(source.read_text()).tostring())


def render_timing(check: bool = False) -> list[Path]:
    """Render every ``docs/timing/*.json``; with ``check``, return the stale SVGs instead."""
    stale = []
    for src in sorted(TIMING_DIR.glob("*.json")):
        svg = src.with_suffix(".svg")
        text = render_svg(src)
        if check:
            if not svg.exists() or svg.read_text() != text:
                stale.append(svg)
        else:
            svg.write_text(text)
    return stale
