"""Measurement of the S-box library: ``aeskit primitives`` and the report section.

For every variant (:data:`VARIANTS`) it reports

* ``proven``: every equivalence proof of :mod:`aeskit.formal.proofs` that covers the
  variant succeeded (``None`` when no proof covers it);
* ``ge`` and ``depth``: the generic gate count and logic depth of ONE instance
  (:func:`aeskit.synth.gate_count`, the fixed gate library of docs/synthesis.md);
* ``lut4``, ``ebr`` and ``fmax``: ECP5 figures of a registered 128-bit instance -- a
  generated wrapper with 16 lanes of a byte primitive (4 of a 32-bit column map), an
  input register in front and an output register behind, so that Fmax is
  register-to-register through the primitive (:func:`aeskit.synth.synthesize`,
  cached in ``build/primitives/<name>/``), rendered from the template
  ``hw/bench/lanes/ak_lanes.sv.tpl``.

Every variant is a primitive of the registry (:data:`aeskit.hw.PRIMITIVES`, same
name): its files come from the manifests.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.hw import PRIMITIVES, PrimitiveSpec, templates
from aeskit.synth import Design, gate_count, synthesize

__all__ = ["Variant", "VARIANTS", "collect", "lane_wrapper", "render_table"]

OUT = BUILD_ROOT / "primitives"
#: the manifest of the lane wrapper's template
LANES = "aeskit:bench:lanes"

Progress = Callable[[str], None]


def _spec(name: str) -> PrimitiveSpec:
    for p in PRIMITIVES:
        if p.name == name:
            return p
    raise KeyError(f"variant {name!r} is not a primitive of the registry (aeskit.hw.PRIMITIVES)")


@dataclass(frozen=True)
class Variant:
    name: str
    kind: str
    top: str
    in_width: int = 8
    out_width: int = 8
    has_dec: bool = False
    clocked: bool = False
    parameters: dict[str, Any] = field(default_factory=dict)
    description: str = ""

    @property
    def files(self) -> tuple[Path, ...]:
        """The sources of the registry primitive of the same name, in compile order."""
        return tuple(_spec(self.name).file_paths())

    def design(self) -> Design:
        return Design(self.name, self.top, self.files, parameters=dict(self.parameters))


def _sel(name: str, inverse: bool, impl: int, text: str) -> Variant:
    top = "ak_inv_sbox_sel" if inverse else "ak_sbox_sel"
    return Variant(name, "inv_sbox" if inverse else "sbox", top, parameters={"Impl": impl},
                   description=f"{text} ({top} Impl={impl})")


VARIANTS: tuple[Variant, ...] = (
    Variant("sbox_table", "sbox", "ak_sbox", description="case table"),
    Variant("inv_sbox_table", "inv_sbox", "ak_inv_sbox", description="case table"),
    Variant("sbox_bram", "sbox", "ak_sbox_bram", clocked=True,
            description="block-RAM ROM, latency 1"),
    Variant("inv_sbox_bram", "inv_sbox", "ak_inv_sbox_bram", clocked=True,
            description="block-RAM ROM, latency 1"),
    _sel("sbox_comp", False, 1, "composite field, paper 000"),
    _sel("inv_sbox_comp", True, 1, "composite field, paper 000"),
    Variant("sbox_comp_encdec", "sbox_encdec", "ak_sbox_comp_encdec", has_dec=True,
            description="composite field, shared enc/dec"),
    Variant("sbox_comp_s1", "sbox_part", "ak_sbox_comp_s1",
            out_width=12, has_dec=True, description="substage 1 (paper 000)"),
    Variant("sbox_comp_s2", "sbox_part", "ak_sbox_comp_s2",
            in_width=12, has_dec=True, description="substage 2 (paper 000)"),
    _sel("sbox_canright", False, 2, "normal-basis tower"),
    _sel("inv_sbox_canright", True, 2, "normal-basis tower"),
    Variant("sbox_canright_encdec", "sbox_encdec", "ak_sbox_canright_encdec", has_dec=True,
            description="normal-basis tower, shared enc/dec (Canright style)"),
    Variant("nb_inv", "inversion", "ak_nb_inv", description="normal-basis tower inversion"),
    _sel("sbox_lutinv", False, 3, "LUT inverter + Affine, paper 001"),
    _sel("inv_sbox_lutinv", True, 3, "InvAffine + LUT inverter, paper 001"),
    Variant("sbox_lutinv_encdec", "sbox_encdec", "ak_sbox_lutinv_encdec", has_dec=True,
            description="LUT inverter, shared enc/dec (paper 001)"),
    Variant("gf_inv", "inversion", "ak_gf_inv", description="LUT inverter"),
    Variant("affine", "linear", "ak_affine", description="A x + 63"),
    Variant("inv_affine", "linear", "ak_inv_affine", description="A^-1 x + 05"),
    Variant("affine_mix_column", "linear", "ak_affine_mix_column", 32, 32,
            description="retimed Affine + MixColumns (paper 001)"),
    Variant("inv_mix_column_inv_affine", "linear", "ak_inv_mix_column_inv_affine", 32, 32,
            description="InvMixColumns + retimed InvAffine (paper 001)"),
    Variant("ueno_iso", "linear", "ak_ueno_iso", description="delta"),
    Variant("ueno_iso_inv", "linear", "ak_ueno_iso_inv", description="delta^-1"),
    Variant("ueno_affine", "linear", "ak_ueno_affine", has_dec=True,
            description="tower-field Affine / InvAffine"),
    Variant("ueno_enc_column", "linear", "ak_ueno_enc_column", 32, 32,
            description="unified affine U0..U3 (paper 002)"),
    Variant("ueno_dec_column", "linear", "ak_ueno_dec_column", 32, 32,
            description="unified affine V0..V3 (paper 002)"),
    Variant("mix_column", "mix_columns", "ak_mix_column", 32, 32, description="MixColumns"),
    Variant("inv_mix_column", "inv_mix_columns", "ak_inv_mix_column", 32, 32,
            description="InvMixColumns, factored (pre-map + MixColumns)"),
    Variant("inv_mix_column_direct", "inv_mix_columns", "ak_inv_mix_column_direct", 32, 32,
            description="InvMixColumns, direct (0e 0b 0d 09)"),
)


def lane_wrapper(v: Variant) -> Path:
    """Write the registered 128-bit instance of ``v`` (16 or 4 lanes) and return it."""
    lanes = 128 // max(v.in_width, 8) if v.in_width < 32 else 4
    if v.in_width == 12:
        lanes = 16
    name = f"ak_x{lanes}_{v.name}"
    text = templates.render(
        LANES, "ak_lanes", name=name, lanes=lanes, top=v.top,
        params="".join(f" #(.{k}({val}))" for k, val in v.parameters.items()),
        in_width=v.in_width, out_width=v.out_width, wi_msb=lanes * v.in_width - 1,
        wo_msb=lanes * v.out_width - 1, clk=".clk_i(clk_i), " if v.clocked else "",
        dec=", .dec_i(dec_q)" if v.has_dec else "")
    return templates.write_if_changed(OUT / "wrappers" / f"{name}.sv", text)


def _proven(v: Variant) -> bool | None:
    from aeskit.formal.proofs import proofs_for, run_proof

    ps = proofs_for(v.name)
    if not ps:
        return None
    return all(run_proof(p).proven for p in ps)


def _row_parts(v: Variant, inst: Design) -> dict[str, Any]:
    """What a row depends on: the primitive, its registered instance, every proof's two
    designs, the flow version and the tool versions (the results store's key)."""
    from aeskit.formal.proofs import proofs_for
    from aeskit.synth import FLOW_VERSION, tool_versions

    proofs = []
    for p in proofs_for(v.name):
        sides = [p.gold(), p.gate()]
        proofs.append([p.name, *(getattr(d, "source_hash", lambda: repr(d))() for d in sides)])
    return {"kind": "primitive_row", "name": v.name, "design": v.design().source_hash(),
            "instance": inst.source_hash(), "proofs": proofs, "flow_version": FLOW_VERSION,
            "tool_versions": tool_versions(), "description": v.description}


def measure(v: Variant, *, progress: Progress | None = None, force: bool = False) -> dict[str, Any]:
    """One row: proofs, gate count and the registered instance's ECP5 figures, cached
    (locally and in the results store) by :func:`_row_parts`."""
    from aeskit.store import cached_file

    w = lane_wrapper(v)
    inst = Design(f"{v.name}_x16", w.stem, (*v.files, w))
    parts = _row_parts(v, inst)
    return dict(cached_file(OUT / v.name / "row.json", parts,
                            lambda: {"parts": parts, "row": _measure(v, inst, progress, force)},
                            force=force)["row"])


def _measure(v: Variant, inst: Design, progress: Progress | None, force: bool) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    gc = gate_count(v.design(), OUT / v.name / "gates")
    res = synthesize(inst, OUT / v.name / "x16", progress=lambda m: say(f"{v.name}: {m}"),
                     force=force)
    return {"name": v.name, "kind": v.kind, "proven": _proven(v), "ge": round(gc.ge, 2),
            "depth": gc.depth, "lut4": res.lut4, "ebr": res.ebr,
            "fmax": round(res.fmax_mhz, 2) if res.fmax_mhz else None,
            "description": v.description, "top": v.top, "parameters": dict(v.parameters)}


def collect(*, progress: Progress | None = None, force: bool = False, jobs: int = 2,
            names: list[str] | None = None) -> list[dict[str, Any]]:
    """Measure every variant (cached synthesis); a list of rows in :data:`VARIANTS` order."""
    todo = [v for v in VARIANTS if names is None or v.name in names]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futs = [pool.submit(measure, v, progress=progress, force=force) for v in todo]
        rows = [f.result() for f in futs]
    (OUT / "primitives.json").write_text(json.dumps(rows, indent=2))
    return rows


def _fmt(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "NO"
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def render_table(rows: list[dict[str, Any]]) -> str:
    """Markdown table of :func:`collect`'s rows."""
    head = ("| variant | kind | proven | GE | depth | LUT4 (x16) | EBR | Fmax MHz (x16) | what |\n"
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n")
    return head + "\n".join(
        f"| {r['name']} | {r['kind']} | {_fmt(r['proven'])} | {_fmt(r['ge'])} | {_fmt(r['depth'])} "
        f"| {_fmt(r['lut4'])} | {_fmt(r['ebr'])} | {_fmt(r['fmax'])} | {r['description']} |"
        for r in rows) + "\n"
