"""The paper-002 report section (aeskit.report.sections.paper002): the transcribed paper
figures are self-consistent, and the comparison table and the per-row sentences follow
from the measured numbers they are given."""

from __future__ import annotations

import pytest

from aeskit.report.sections import paper002 as sec


@pytest.mark.parametrize("table", list(sec.PAPER))
def test_paper_figures_are_consistent(table: str) -> None:
    """Throughput = 128 bit x f / cycles (11, Lutz 10) and efficiency = throughput /
    area reproduce the printed columns -- a check of the OCR transcription. The one
    exception the paper itself has (Table 1, NanGate 15 nm, Lutz: 11 cycles) is named."""
    for proc, cores in sec.PAPER[table].items():
        for core, (ge, ns, mhz, gbps, eff) in cores.items():
            cycles = 10 if core == "lutz" else 11
            if table.startswith("Table 1") and proc == "NanGate 15-nm" and core == "lutz":
                cycles = 11
            assert abs(128 * mhz / cycles / 1000 - gbps) < 0.011, (table, proc, core)
            assert abs(gbps * 1e6 / ge - eff) < 0.02 * eff, (table, proc, core)
            assert abs(1000.0 / mhz - ns / (10 if core == "lutz" else 11)) < 0.02, \
                (table, proc, core)


def _rows(fmax: dict[str, float], lut4: dict[str, int]) -> list[dict]:
    rows = []
    for c in sec.CORES:
        cyc = 10 if c == "lutz" else 11
        rows.append({"core": c, "key_size": 128, "interval": cyc, "interval_dec": cyc,
                     "latency": cyc, "claimed_interval": cyc, "lut4": lut4[c], "ff": 900,
                     "fmax_mhz": fmax[c], "ge": 10.0 * lut4[c], "depth": 20 + lut4[c] % 7})
    return rows


def test_render_computes_gains_from_the_numbers() -> None:
    fmax = {"ueno": 100.0, "ueno_mux": 90.0, "satoh": 50.0, "lutz": 40.0, "liu": 45.0}
    lut4 = {"ueno": 4000, "ueno_mux": 3000, "satoh": 4000, "lutz": 5000, "liu": 3500}
    rows = _rows(fmax, lut4)
    data = {"cbc": {c: {"128": {"enc": r["interval"], "dec": r["interval"]}}
                    for c, r in zip(sec.CORES, rows)},
            "dp": {c: {"fmax_mhz": 2 * fmax[c], "lut4": lut4[c], "ff": 900, "ge": 1.0e4,
                       "depth": 10} for c in sec.CORES}}
    md = sec.render(rows, data)
    # per LUT4: ueno 100/4000 vs the best baseline, liu 45/3500 (satoh 50/4000, lutz
    # 40*11/10/5000 are lower): +94 %
    gain = round(100 * ((100 / 4000) / (45 / 3500) - 1))
    assert gain == 94
    assert f"is {gain} % vs the best conventional (liu" in md
    assert "above the claimed 53-72 %" in md
    # ueno_mux: 90/3000 vs liu 45/3500
    assert f"is {round(100 * ((90 / 3000) / (45 / 3500) - 1))} % vs the best conventional (liu" \
        in md
    assert "| This work (ueno) | 11 / 11 | 11 / 11 | 4,000 |" in md
    assert "| Lutz et al. [15] | 10 / 10 | 10 / 10 | 5,000 |" in md
    # the depth model: 128e6 / (cycles x depth x GE), best baseline by that measure
    dm = {c: 128e6 / ((10 if c == "lutz" else 11) * (20 + lut4[c] % 7) * 10.0 * lut4[c])
          for c in lut4}
    best = max(("satoh", "lutz", "liu"), key=dm.get)
    assert f"depth model {round(100 * (dm['ueno'] / dm[best] - 1))} % vs the best " \
        f"conventional ({best})" in md
    # a different measurement gives a different verdict
    fmax2 = {"ueno": 60.0, "ueno_mux": 30.0, "satoh": 50.0, "lutz": 40.0, "liu": 45.0}
    md2 = sec.render(_rows(fmax2, lut4), None)
    assert f"is {round(100 * ((60 / 4000) / (45 / 3500) - 1))} % vs the best conventional (liu" \
        in md2
    assert "below the claimed 53-72 %" in md2
    assert "CBC not measured" in md2


def test_datapath_design_stubs_the_key_step() -> None:
    from aeskit.hw import get_core, manifest

    d = sec.datapath_design(get_core("ueno"))
    stub = manifest.get(sec.KEY_STEP_STUB)
    assert d.files[0] in stub.files and d.files[0].parent == stub.folder
    # the stub is the only ak_key_step_split: the real one and what only it needs are
    # left out
    assert manifest.module_file("ak_sub_word") not in d.files
    assert manifest.module_file("ak_key_step_split") not in d.files
    assert "module ak_key_step_split (" in d.files[0].read_text()
    assert manifest.module_file("ak_ueno_round") in d.files and d.top == "ak_ueno_core"


def test_key_schedule_verdict_follows_the_measurements() -> None:
    """Point 1 of the evidence names the cores whose clock the key schedule sets (the
    stub raises Fmax by more than 5 % or shortens the longest gate path by more than
    one gate), or says that it sets none."""
    fmax = {"ueno": 68.0, "ueno_mux": 68.0, "satoh": 52.0, "lutz": 55.0, "liu": 51.0}
    lut4 = {c: 9000 for c in fmax}
    rows = _rows(fmax, lut4)

    def data(dp_fmax: dict[str, float], dp_len: dict[str, int]) -> dict:
        return {"dp": {c: {"fmax_mhz": dp_fmax[c], "lut4": 9000, "ff": 900, "ge": 1.0e4,
                           "depth": 10} for c in sec.CORES},
                "ltp": {c: {"full": {"length": 30, "from": "state_q", "to": "state_q"},
                            "dp": {"length": dp_len[c], "from": "state_q", "to": "state_q"}}
                        for c in sec.CORES}}

    # within 5 % and one gate: no core is bound by its key schedule
    near = {c: f * 1.04 for c, f in fmax.items()}
    md = sec.render(rows, data(near, {c: 29 for c in fmax}))
    assert "The key schedule does not set the clock of any full core." in md
    assert "The key schedule sets the clock" not in md
    # satoh 10 % faster with the stub, lutz two gates shorter: those two are named
    far = dict(near, satoh=fmax["satoh"] * 1.10)
    md2 = sec.render(rows, data(far, dict({c: 29 for c in fmax}, lutz=28)))
    assert "The key schedule sets the clock of satoh, lutz." in md2
    assert "does not set the clock" not in md2
