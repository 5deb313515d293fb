"""aeskit.report.primitive_table: every variant is a primitive of the registry (its
files come from the manifests), and the registered lane wrappers rendered from
hw/bench/lanes/ak_lanes.sv.tpl lint clean (Verilator -Wall) for each kind of
primitive: plain, with dec_i, clocked, with a parameter, with a 12-bit port."""

from __future__ import annotations

import subprocess

import pytest

from aeskit.hw import PRIMITIVES
from aeskit.report import primitive_table as pt
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.toolchain.paths import verilator


def test_variants_are_registry_primitives() -> None:
    prims = {p.name: p for p in PRIMITIVES}
    for v in pt.VARIANTS:
        assert v.name in prims, v.name
        assert (prims[v.name].top, prims[v.name].parameters) == (v.top, v.parameters), v.name
        assert v.files and v.files[-1].exists()


@pytest.mark.parametrize("name", ["affine", "ueno_affine", "sbox_bram", "sbox_comp",
                                  "sbox_comp_s1", "mix_column"])
def test_lane_wrapper_lints_clean(name: str) -> None:
    v = next(v for v in pt.VARIANTS if v.name == name)
    w = pt.lane_wrapper(v)
    text = w.read_text()
    assert f"module {w.stem} (" in text and f"  {v.top}" in text
    assert ("dec_i(dec_q)" in text) == v.has_dec and (".clk_i(clk_i)" in text) == v.clocked
    res = subprocess.run([verilator(), "--lint-only", "-Wall", "--top-module", w.stem,
                          str(WAIVERS), *map(str, v.files), str(w)],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0 and "%Warning" not in res.stderr, res.stderr
