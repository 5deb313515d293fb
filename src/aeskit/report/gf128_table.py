"""Measurement of the GF(2^128) multipliers (hw/primitives/gf128) for ``aeskit primitives``.

The S-box table (:mod:`aeskit.report.primitive_table`) measures byte and column maps
as 16 lanes of a 128-bit wrapper; a GF(2^128) multiplier is one 128 x 128-bit unit with
a handshake, so it has a table of its own. For every ak_gf128_mul variant of the
registry (:data:`aeskit.hw.catalog.gf128.MUL_VARIANTS`):

* ``proven``: every proof of :mod:`aeskit.formal.proofs` that covers it succeeded;
* ``cycles``: cycles per product (start to done_o, and between back-to-back starts);
* ``lut4``, ``ff`` and ``fmax``: ECP5 figures of the synthesis bench
  ``ak_gf128_mul_syn`` (inputs registered, so Fmax is register to register through the
  multiplier; :func:`aeskit.synth.synthesize`, cached in ``build/primitives/gf128/``);
  ``ff`` is the multiplier's own (the bench's 257 input flip-flops subtracted);
* ``mbps``: 128 bits per product at Fmax: ``128 * fmax / cycles`` Mbit/s.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.hw import manifest
from aeskit.hw.catalog.gf128 import MUL_VARIANTS, cycles_per_product, mul_name
from aeskit.report.primitive_table import _fmt  # the S-box table's cell format
from aeskit.synth import Design, synthesize

__all__ = ["BENCH_FF", "collect", "measure", "render_table", "variant_names"]

OUT = BUILD_ROOT / "primitives" / "gf128"
BENCH = "aeskit:bench:gf128_syn"
#: flip-flops the synthesis bench adds in front of the multiplier (a, b, start)
BENCH_FF = 257

Progress = Callable[[str], None]


def variant_names() -> list[str]:
    return [mul_name(d, k) for d, k in MUL_VARIANTS]


def bench_design(d: int, k: bool) -> Design:
    return Design(f"{mul_name(d, k)}_syn", "ak_gf128_mul_syn", tuple(manifest.sources(BENCH)),
                  parameters={"DigitBits": d, "Karatsuba": int(k)})


def _proven(name: str, check: bool) -> bool | None:
    if not check:
        return None
    from aeskit.formal.proofs import proofs_for, run_proof

    ps = proofs_for(name)
    return all(run_proof(p).proven for p in ps) if ps else None


def measure(d: int, k: bool, *, progress: Progress | None = None, force: bool = False,
            prove: bool = True) -> dict[str, Any]:
    say = progress or (lambda _m: None)
    name = mul_name(d, k)
    res = synthesize(bench_design(d, k), OUT / name, progress=lambda m: say(f"{name}: {m}"),
                     force=force)
    cyc = cycles_per_product(d)
    fmax = round(res.fmax_mhz, 2) if res.fmax_mhz else None
    return {"name": name, "digit_bits": d, "karatsuba": bool(k), "proven": _proven(name, prove),
            "cycles": cyc, "lut4": res.lut4, "ff": res.ff - BENCH_FF, "fmax": fmax,
            "mbps": round(128 * fmax / cyc, 1) if fmax else None}


def collect(*, progress: Progress | None = None, force: bool = False, prove: bool = True,
            names: list[str] | None = None) -> list[dict[str, Any]]:
    """Measure every variant, one synthesis at a time (cached); rows in
    :data:`MUL_VARIANTS` order, also written to ``build/primitives/gf128/gf128.json``."""
    rows = [measure(d, k, progress=progress, force=force, prove=prove)
            for d, k in MUL_VARIANTS if names is None or mul_name(d, k) in names]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "gf128.json").write_text(json.dumps(rows, indent=2))
    return rows


def render_table(rows: list[dict[str, Any]]) -> str:
    """Markdown table of :func:`collect`'s rows."""
    head = ("| variant | DigitBits | Karatsuba | proven | cycles/product | LUT4 | FF "
            "| Fmax MHz | Mbit/s at Fmax |\n"
            "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
    return head + "\n".join(
        f"| {r['name']} | {r['digit_bits']} | {'yes' if r['karatsuba'] else 'no'} "
        f"| {_fmt(r['proven'])} | {r['cycles']} | {_fmt(r['lut4'])} | {_fmt(r['ff'])} "
        f"| {_fmt(r['fmax'])} | {_fmt(r['mbps'])} |" for r in rows) + "\n"
