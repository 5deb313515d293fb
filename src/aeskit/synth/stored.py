"""Synthesis results in the results store (:mod:`aeskit.store`).

A synthesis record's ident is its output folder below ``build/`` (``synth/round``,
``synth/round~seed2``, ``p001/synth/cipher_ahb``, ...); its key parts are exactly what
the flow's local cache compares (:func:`aeskit.synth.flow._load_cached`): the design's
source hash, the flow version, the seed, the device and the tool versions. The data is
``synth.json`` without the machine's absolute ``out_dir``; the files are the small text
reports later readers open (Yosys's longest path).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aeskit.store import ident_of, lookup, record

if TYPE_CHECKING:
    from aeskit.synth.flow import SynthResult

__all__ = ["STORED_FILES", "parts_of", "restore", "save"]

#: artifacts of a synthesis kept with its record (read by report sections)
STORED_FILES = ("gates_ltp.txt",)


def parts_of(source_hash: str, flow_version: str, seed: int, device: str,
             versions: Mapping[str, str]) -> dict[str, Any]:
    """The key parts of a synthesis record."""
    return {"kind": "synth", "source_hash": source_hash, "flow_version": flow_version,
            "seed": seed, "device": device, "tool_versions": dict(versions)}


def save(result: SynthResult, *, measured_now: bool = True) -> None:
    """Record ``result`` in the active store (nothing without one, or for an output
    folder outside ``build/``)."""
    ident = ident_of(result.out_dir)
    if ident is None:
        return
    data = result.to_json()
    data.pop("out_dir", None)
    files: dict[str, str] = {}
    for name in STORED_FILES:
        p = Path(result.out_dir) / name
        if p.is_file() and p.stat().st_size < 200_000:
            files[name] = p.read_text(errors="replace")
    record(ident, parts_of(result.source_hash, result.flow_version, result.seed,
                           result.device, result.tool_versions), data, files,
           measured_now=measured_now)


def restore(out_dir: Path, parts: Mapping[str, Any]) -> bool:
    """Write the active store's current record for ``out_dir`` back into ``out_dir``
    (``synth.json`` and the stored files); True if there was one."""
    rec = lookup(ident_of(out_dir), parts)
    if rec is None:
        return False
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, text in rec.files.items():
        if "/" not in name and name in STORED_FILES:
            (out_dir / name).write_text(text)
    data = dict(rec.data)
    data["out_dir"] = str(out_dir)
    (out_dir / "synth.json").write_text(json.dumps(data, indent=2) + "\n")
    return True
