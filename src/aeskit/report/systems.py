"""``report.json``'s ``systems``: one entry per system configuration the report
measured -- the registry's mode-engine configurations
(:data:`aeskit.hw.registry.ENGINE_CONFIGS`, each as ``ak_mode_sys``) and the registry
systems the sections synthesize (``cipher_ahb``, ``coproc``, ``axis_core``) -- with the
figures the sections' Markdown shows, so that a script reads them from the JSON.

A section contributes entries through an optional ``systems(rows, data)``
(:mod:`aeskit.report.sections`), each made by :func:`system_entry`; the Markdown table
of the engine configurations (:func:`engine_table`) is rendered from the same entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from aeskit.report.numbers import num

__all__ = ["CYCLES_KEY_SIZE", "SystemConfig", "core_row", "engine_table", "registry_system",
           "system_entry"]

#: the key size of an entry's ``cycles_per_block``
CYCLES_KEY_SIZE = 128


@dataclass(frozen=True)
class SystemConfig:
    """What was built: the entry's name, kind (``engine``: an engine configuration as
    ``ak_mode_sys``; ``system``: a registry system), synthesis design name and top, the
    section that measured it, the engine's ``Modes`` mask and ``Streams``, the core."""

    name: str
    kind: str
    design: str
    top: str
    section: str
    modes: int
    streams: int
    core: str


def registry_system(name: str, section: str) -> SystemConfig:
    """The :class:`SystemConfig` of the registry system ``name`` on its default core
    (its ``modes`` and ``streams`` from :class:`aeskit.hw.registry.SystemSpec`)."""
    from aeskit.hw.registry import get_system

    spec = get_system(name)
    return SystemConfig(name=spec.name, kind="system", design=spec.name, top=spec.top,
                        section=section, modes=spec.modes, streams=spec.streams,
                        core=spec.default_core)


def core_row(rows: list[dict[str, Any]], core: str) -> dict[str, Any] | None:
    """The report's row of ``core`` alone (its AES-128 row, else its first; the key
    sizes of a core share one synthesis), None when the report has no row of it."""
    mine = [r for r in rows if r.get("core") == core]
    return next((r for r in mine if r.get("key_size") == CYCLES_KEY_SIZE), mine[0] if mine
                else None)


def _fmax_fields(synth: Mapping[str, Any]) -> dict[str, Any]:
    from aeskit.report.render import misfit_note

    f = synth.get("fmax_mhz")
    return {"fmax_mhz": f, "fmax_min": synth.get("fmax_min", f),
            "fmax_max": synth.get("fmax_max", f), "fmax_seeds": synth.get("fmax_seeds", {}),
            "unrouted_seeds": synth.get("unrouted_seeds", {}),
            "does_not_fit": misfit_note(synth)}


def system_entry(cfg: SystemConfig, synth: Mapping[str, Any] | None,
                 rows: list[dict[str, Any]], cycles: dict[str, float] | None,
                 cycles_source: str | None = None) -> dict[str, Any]:
    """One entry of ``systems``: ``cfg``, the synthesis figures (the median seed's;
    None without a result), the core alone's LUT4 and Fmax from the report's rows,
    ``engine_lut4`` = system - core LUT4 (for a bus system: the engine and the bus
    logic), and ``cycles_per_block``: ``{"<mode>-<enc|dec>": cycles}`` per 16-byte
    block of a long message, AES-128, as the section measured it (None where the
    report measures none), with ``cycles_source`` saying how."""
    from aeskit.hw.registry import mode_names

    syn = synth or {}
    crow = core_row(rows, cfg.core) or {}
    lut4, core_lut4 = syn.get("lut4"), crow.get("lut4")
    return {
        "name": cfg.name, "kind": cfg.kind, "design": cfg.design, "top": cfg.top,
        "section": cfg.section, "modes": list(mode_names(cfg.modes)),
        "modes_mask": cfg.modes, "streams": cfg.streams, "core": cfg.core,
        "lut4": lut4, "ff": syn.get("ff"), "ebr": syn.get("ebr"), **_fmax_fields(syn),
        "core_lut4": core_lut4, "core_fmax_mhz": crow.get("fmax_mhz"),
        "engine_lut4": lut4 - core_lut4 if (lut4 is not None and core_lut4 is not None)
        else None,
        "cycles_per_block": cycles or None,
        "cycles_key_size": CYCLES_KEY_SIZE if cycles else None,
        "cycles_source": cycles_source if cycles else None,
    }


def _mode_list(modes: list[str]) -> str:
    from aeskit.hw.codes import MODE_LABEL, Mode

    return ", ".join(MODE_LABEL[Mode[m.upper()]] for m in modes)


def engine_table(entries: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[str]:
    """Markdown lines: per entry its modes, streams, core, LUT4 / FF / EBR, Fmax median
    (min-max), the core alone's LUT4 and Fmax beside it, and engine = system - core
    LUT4. Empty for no entries."""
    from aeskit.report.design_synth import system_fmax_cell

    if not entries:
        return []
    out = ["| configuration | modes | streams | core | LUT4 | FF | EBR |"
           " Fmax MHz, median (min-max) | core LUT4 | core Fmax MHz |"
           " engine LUT4 (system - core) |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for e in entries:
        crow = core_row(rows, e["core"])
        out.append(f"| `{e['name']}` | {_mode_list(e['modes'])} | {e['streams']} | "
                   f"{e['core']} | {num(e['lut4'], ',')} | {num(e['ff'], ',')} | {num(e['ebr'], ',')} | "
                   f"{system_fmax_cell(e)} | {num(e['core_lut4'], ',')} | "
                   f"{system_fmax_cell(crow) if crow else '-'} | {num(e['engine_lut4'], ',')} |")
    return out
