"""The paper-001 report section (aeskit.report.sections.paper001): the paper's figures
are self-consistent, the measured mode-engine cycles are what the section renders, and
its verdict follows from the numbers it is given."""

from __future__ import annotations

from aeskit.hw import get_core
from aeskit.report.sections import paper001 as sec


def test_paper_figures_are_nr_cycles_at_333_mhz() -> None:
    for ks, nr in sec.ROUNDS.items():
        assert abs(sec.paper_cycles(ks) - nr) < 0.02, (ks, sec.paper_cycles(ks))


def test_measured_modes_on_pipe2() -> None:
    """The section's measurement through the compiled harness: two streams at Nr,
    single CBC encryption at 2 Nr, CCM at 2 Nr per 16 bytes."""
    core = get_core("pipe2")
    modes = sec.measure_modes(core)
    rows = [{"core": "pipe2", "key_size": ks, "interval": nr, "latency": 2 * nr,
             "lut4": 5000, "ff": 1500, "ebr": 0, "fmax_mhz": 100.0}
            for ks, nr in sec.ROUNDS.items()]
    md = sec.render(rows, {"pipe2": modes})
    for ks, nr in sec.ROUNDS.items():
        assert modes["cbc-enc"][str(ks)] == [2 * nr, nr]
        assert modes["ccm-dec"][str(ks)] == [2 * nr, 2 * nr]
        assert f"AES-{ks}: two streams all at Nr = {nr}" in md
        assert "as in the paper" in md
    # Mbit/s at Fmax: 128 x 100 MHz / 10 cycles
    assert "| 128 | 4.27 | 10.0 | 20 | 10 | 5,000 | 1,500 | 0 | 100.0 | 1,280 | 640 |" in md


def test_verdict_follows_the_numbers() -> None:
    modes = {f"{m}-{d}": {str(ks): [2 * nr, nr] for ks, nr in sec.ROUNDS.items()}
             for m in sec.MODES for d in ("enc", "dec")}
    for d in ("enc", "dec"):
        modes[f"ccm-{d}"] = {str(ks): [2 * nr, 2 * nr] for ks, nr in sec.ROUNDS.items()}
    assert "AES-128: two streams all at Nr" in sec.render([], {"pipe2": modes})
    modes["ctr-enc"]["128"] = [10, 11]
    md = sec.render([], {"pipe2": modes})
    assert "AES-128: two streams NOT all at Nr" in md and "differs from the paper" in md


def test_engine_area_line() -> None:
    md = sec.render([], {"synth": {"mode_sys_pipe2": {"lut4": 12345, "ff": 4321, "ebr": 0,
                                                      "fmax_mhz": 55.55}}})
    assert "12,345 LUT4, 4,321 FF, 0 EBR, Fmax 55.5 MHz" in md or \
        "12,345 LUT4, 4,321 FF, 0 EBR, Fmax 55.6 MHz" in md


def test_cipher_ahb_area_line() -> None:
    md = sec.render([], {"synth": {"cipher_ahb": {"lut4": 23456, "ff": 7654, "ebr": 0,
                                                  "fmax_mhz": 33.25}}})
    assert "`cipher_ahb`" in md and "23,456 LUT4, 7,654 FF, 0 EBR, Fmax 33.2 MHz" in md
    assert "cipher_ahb" not in sec.render([], {"synth": {}})


def test_cipher_ahb_design_files_exist() -> None:
    d = sec.cipher_ahb_design()
    assert d.top == "ak_cipher_ahb"
    assert all(p.is_file() for p in d.file_paths())
    modules = [p.stem for p in d.file_paths()]
    assert modules.index("ak_cipher_ahb_regs_pkg") < modules.index("ak_cipher_ahb_regs")
