"""What a report will reuse and what it will measure, before it runs (the core rows:
simulation and synthesis; a section's steps check their own caches as they run)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.hw.registry import CoreSpec
from aeskit.store import Store, file_key, ident_of, is_current

__all__ = ["Plan", "plan"]


@dataclass
class Plan:
    """Per job kind: results current in ``build/`` or the store, and those to measure."""

    current: dict[str, int] = field(default_factory=dict)
    todo: dict[str, list[str]] = field(default_factory=dict)

    def summary(self) -> str:
        parts = []
        for kind in sorted(set(self.current) | set(self.todo)):
            have, miss = self.current.get(kind, 0), len(self.todo.get(kind, []))
            parts.append(f"{kind} {have}/{have + miss} current")
        todo = [t for ts in self.todo.values() for t in ts]
        shown = ", ".join(todo[:12]) + (f" and {len(todo) - 12} more" if len(todo) > 12 else "")
        return "; ".join(parts) + (f"; to measure: {shown}" if todo else "; nothing to measure")


def plan(cores: list[CoreSpec], *, seeds: tuple[int, ...], device: str,
         families: tuple[str, ...], store: Store | None, skip_synth: bool) -> Plan:
    """Which core-row results are current (in the local cache or the store) for this
    checkout, and which the report will measure."""
    from aeskit.report.measure import measure_parts
    from aeskit.synth import stored, synth_dir
    from aeskit.synth.devices import get_device
    from aeskit.synth.flow import flow_version, tool_versions

    p = Plan()

    def note(kind: str, ok: bool, what: str) -> None:
        if ok:
            p.current[kind] = p.current.get(kind, 0) + 1
        else:
            p.todo.setdefault(kind, []).append(what)

    def in_store(ident: str | None, parts: dict[str, Any]) -> bool:
        if store is None or ident is None:
            return False
        return store.get(ident, parts) is not None

    for core in cores:
        sim = BUILD_ROOT / "cache" / core.name / "sim.json"
        note("sim", is_current(file_key(sim), measure_parts(core))
             or in_store(ident_of(sim), measure_parts(core)), core.name)
        if skip_synth:
            continue
        for dev_name, dev_seeds in ((device, seeds), *((f, (1,)) for f in families)):
            family = get_device(dev_name).family
            versions = tool_versions(family)
            for seed in dev_seeds:
                out = synth_dir(core.name, dev_name, seed=seed)
                parts = stored.parts_of(core.source_hash(), flow_version(family), seed,
                                        dev_name, versions)
                ok = (stored.current(out, parts) is not None
                      or in_store(ident_of(out), parts))
                note("synth" if dev_name == device else f"synth@{dev_name}", ok,
                     f"{core.name}@{dev_name}~{seed}" if dev_name != device
                     else f"{core.name}~{seed}")
    return p
