"""A registry system (:class:`aeskit.hw.registry.SystemSpec`) as a synthesis
:class:`~aeskit.synth.flow.Design`: the CLI's ``aeskit synth <system> --on <core>`` and
the report's system rows build them here."""

from __future__ import annotations

from pathlib import Path

from aeskit.hw.registry import SystemSpec, get_core, get_system
from aeskit.synth.flow import Design

__all__ = ["system_design"]


def system_design(system: SystemSpec | str, core: str | None = None,
                  out_dir: Path | None = None) -> Design:
    """``system`` on ``core`` (default its ``default_core``). The design is named after
    the system, ``<system>_<core>`` on another core than the default; a rendered top
    goes into ``out_dir`` (default ``build/systems/<system>/<core>``)."""
    spec = get_system(system) if isinstance(system, str) else system
    on = core or spec.default_core
    get_core(on)  # an unknown core raises UnknownCoreError here
    files = tuple(spec.sources(on, out_dir))
    name = spec.name if on == spec.default_core else f"{spec.name}_{on}"
    return Design(name, spec.top, files, router=spec.router, placer=spec.placer)
