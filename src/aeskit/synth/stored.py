"""Synthesis results in the results store (:mod:`aeskit.store`).

A synthesis record's ident is its output folder below ``build/`` (``synth/round``,
``synth/round~seed2``, ``p001/synth/cipher_ahb``, ...); its key parts
(:func:`parts_of`) are the design's source hash, the flow version, the seed, the
device and the tool versions. ``synth.json`` in the output folder carries the same key
(:data:`aeskit.store.KEY_FIELD`), and :func:`current` is how every reader (the flow's
cache, the report's sections, the report's plan) asks whether a folder's result is
current: :func:`aeskit.store.is_current`, the store's one rule. The record's data is
``synth.json`` without the machine's absolute ``out_dir`` and without the key; the
files are the small text reports later readers open (Yosys's longest path).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aeskit.store import KEY_FIELD, digest, ident_of, is_current, lookup, record

if TYPE_CHECKING:
    from aeskit.synth.result import SynthResult

__all__ = ["STORED_FILES", "current", "key_of", "parts_of", "restore", "save", "write"]

#: artifacts of a synthesis kept with its record (read by report sections)
STORED_FILES = ("gates_ltp.txt",)


def parts_of(source_hash: str, flow_version: str, seed: int, device: str,
             versions: Mapping[str, str]) -> dict[str, Any]:
    """The key parts of a synthesis record."""
    return {"kind": "synth", "source_hash": source_hash, "flow_version": flow_version,
            "seed": seed, "device": device, "tool_versions": dict(versions)}


def key_of(data: Mapping[str, Any]) -> str | None:
    """The key a ``synth.json`` carries. One written before ``synth.json`` carried its
    key is keyed from its own fields (:func:`parts_of`): the one-off migration of the
    old field-by-field comparison, which gives the same verdict."""
    k = data.get(KEY_FIELD)
    if isinstance(k, str):
        return k
    try:
        return digest(parts_of(data["source_hash"], data["flow_version"], data["seed"],
                               data["device"], data["tool_versions"]))
    except (KeyError, TypeError, AttributeError):
        return None


def current(out_dir: Path, parts: Mapping[str, Any]) -> dict[str, Any] | None:
    """``out_dir/synth.json`` if it is current for ``parts``, else None."""
    try:
        data = json.loads((Path(out_dir) / "synth.json").read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not is_current(key_of(data), parts):
        return None
    return data


def write(result: SynthResult) -> None:
    """Write ``result`` to its folder's ``synth.json`` with its key, atomically."""
    data = {**result.to_json(), KEY_FIELD: digest(_parts(result))}
    tmp = Path(result.out_dir) / "synth.json.tmp"
    tmp.write_text(json.dumps(data, indent=2, default=str) + "\n")
    os.replace(tmp, Path(result.out_dir) / "synth.json")


def _parts(result: SynthResult) -> dict[str, Any]:
    return parts_of(result.source_hash, result.flow_version, result.seed, result.device,
                    result.tool_versions)


def save(result: SynthResult, *, measured_now: bool = True) -> None:
    """Record ``result`` in the active store (nothing without one, or for an output
    folder outside ``build/``)."""
    ident = ident_of(result.out_dir)
    if ident is None:
        return
    data = result.to_json()
    data.pop("out_dir", None)
    data.pop(KEY_FIELD, None)
    files: dict[str, str] = {}
    for name in STORED_FILES:
        p = Path(result.out_dir) / name
        if p.is_file() and p.stat().st_size < 200_000:
            files[name] = p.read_text(errors="replace")
    record(ident, _parts(result), data, files, measured_now=measured_now)


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
    data[KEY_FIELD] = rec.key
    (out_dir / "synth.json").write_text(json.dumps(data, indent=2) + "\n")
    return True


def write_result(result: SynthResult) -> None:
    """Write ``synth.json`` and record the result in the active results store."""
    write(result)
    save(result)
