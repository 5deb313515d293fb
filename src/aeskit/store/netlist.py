"""A design's elaborated netlist as text, for proving two source trees build the same
hardware (:mod:`aeskit.store.rekey`).

The design is read as the synthesis flow reads it (:func:`aeskit.synth.toolrun.read_slang_command`:
the same staging, defines, include folders, parameter overrides and top) and written as
RTLIL twice: as read (after ``hierarchy -top``: the design the flow's ``synth_ecp5``,
``synth_ice40`` or ``synth_nexus`` starts from) and elaborated (``proc; flatten;
opt_clean``). Every ``src`` attribute line (``attribute \\src "file:line.col-line.col"``)
is dropped and nothing else is normalised: two designs whose texts are equal byte for
byte are the same netlist, whatever their comments and line numbers.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["VIEWS", "SourceSet", "elaborate", "strip_src"]

#: an RTLIL ``src`` attribute line (the only thing that carries file names and lines)
_SRC_LINE = re.compile(r"^[ \t]*attribute \\src \".*\"\n", re.MULTILINE)


@dataclass(frozen=True)
class SourceSet:
    """What the synthesis flow reads of a design (a :class:`aeskit.synth.SynthTarget`)."""

    name: str
    top: str
    files: tuple[Path, ...]
    include_dirs: tuple[Path, ...] = ()
    parameters: Mapping[str, Any] = field(default_factory=dict)

    def file_paths(self) -> list[Path]:
        return [Path(f) for f in self.files]

    def include_paths(self) -> list[Path]:
        return [Path(d) for d in self.include_dirs]

    def source_hash(self) -> str:  # SynthTarget's; unused here
        return ""


def strip_src(rtlil: str) -> str:
    """``rtlil`` without its ``src`` attribute lines."""
    return _SRC_LINE.sub("", rtlil)


#: the two views of a design that are proven: the synthesis flow's (``SYNTHESIS``
#: defined, as :func:`~aeskit.synth.toolrun.read_slang_command` reads it) and the
#: simulators' (no ``SYNTHESIS``: parameter checks, assertions and other code under
#: ``ifndef SYNTHESIS`` elaborate too)
VIEWS = ("synthesis", "simulation")


def elaborate(design: SourceSet, work_dir: Path, view: str = "synthesis") -> str:
    """The netlist of ``design`` as read and as elaborated, RTLIL text without ``src``
    attributes.
    ``work_dir`` (below ``/work``: YoWASP cannot see ``/tmp``) is emptied and used for
    the staged sources and the log. Raises :class:`aeskit.synth.SynthError` when Yosys
    fails (its log tail in the message)."""
    from aeskit.synth.toolrun import run_yosys

    work = Path(work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    script = "\n".join([
        _read_line(design, work, view),
        f"hierarchy -top {design.top}",
        "write_rtlil read.il",
        "proc",
        "flatten",
        "opt_clean",
        "write_rtlil netlist.il",
        "",
    ])
    run_yosys(script, work / "elab.ys", work / "elab.log", cwd=work,
              what=f"yosys elaboration of {design.name}")
    return (strip_src((work / "read.il").read_text()) + "\n# ---- elaborated ----\n"
            + strip_src((work / "netlist.il").read_text()))


def _read_line(design: SourceSet, work: Path, view: str) -> str:
    from aeskit.synth.toolrun import read_slang_command

    line = read_slang_command(design, work)
    if view == "synthesis":
        return line
    if view != "simulation":
        raise ValueError(f"unknown view {view!r}")
    define = " -D SYNTHESIS "
    if define not in line:
        raise ValueError("read_slang_command no longer defines SYNTHESIS")
    return line.replace(define, " ", 1)
