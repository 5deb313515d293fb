"""aeskit.report.gf128_table: its variants are the registry's ak_gf128_mul variants,
the synthesis bench lints clean for each, and the table renders (no synthesis here;
``aeskit primitives`` runs it)."""

from __future__ import annotations

import subprocess

import pytest

from aeskit.hw import PRIMITIVES
from aeskit.hw.catalog.gf128 import MUL_VARIANTS
from aeskit.report import gf128_table as gt
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator


def test_variants_are_registry_primitives() -> None:
    prims = {p.name: p for p in PRIMITIVES}
    for name, (d, k) in zip(gt.variant_names(), MUL_VARIANTS):
        assert prims[name].top == "ak_gf128_mul"
        assert prims[name].parameters == {"DigitBits": d, "Karatsuba": int(k)}


@pytest.mark.parametrize("d,k", MUL_VARIANTS, ids=gt.variant_names())
def test_bench_lints_clean(d: int, k: bool) -> None:
    des = gt.bench_design(d, k)
    res = subprocess.run([verilator(), "--lint-only", "-Wall", "--top-module", des.top,
                          f"-GDigitBits={d}", f"-GKaratsuba={int(k)}", str(WAIVERS),
                          *map(str, des.files)], capture_output=True, text=True, check=False)
    assert res.returncode == 0 and "%Warning" not in res.stderr, res.stderr


def test_render() -> None:
    rows = [{"name": "gf128_mul_d8", "digit_bits": 8, "karatsuba": False, "proven": True,
             "cycles": 16, "lut4": 1000, "ff": 400, "fmax": 150.0, "mbps": 1200.0}]
    text = gt.render_table(rows)
    assert "| gf128_mul_d8 | 8 | no | yes | 16 | 1000 | 400 | 150.0 | 1200.0 |" in text
