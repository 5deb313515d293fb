"""``aeskit board`` (issue 52): the boards' pins, the constraint files, the timing
verdict and the command's refusals (fast); the iCEBreaker and ULX3S bitstreams
(slow, ``make test-full``: about 2 minutes each on the iCEBreaker, 3 on each ULX3S), with the bitstream's size and
header and the timing check asserted.

The expected pins are the boards' makers' own constraint files (ULX3S
``ulx3s_v20.lpf``: clk_25mhz G2, ftdi_txd M1 (the FPGA's receive line), ftdi_rxd L4,
led[0..7] B2 C2 C1 D2 D1 E2 E1 H3; iCEBreaker ``icebreaker.pcf``: CLK 35, RX 6, TX 9,
LEDR_N 11, LEDG_N 37, both LEDs lit low), not amaranth-boards read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aeskit.board.boards import BOARDS, BuildError, board_pins, constraints, get_board
from aeskit.board.build import build, timing_miss

ULX3S = {"clk_i": "G2", "uart_rx_i": "M1", "uart_tx_o": "L4",
         **{f"led_o[{i}]": s for i, s in enumerate("B2 C2 C1 D2 D1 E2 E1 H3".split())}}
ICEBREAKER = {"clk_i": "35", "uart_rx_i": "6", "uart_tx_o": "9", "led_o[0]": "11",
              "led_o[1]": "37"}


@pytest.mark.parametrize("name", ["ulx3s", "ulx3s-45f", "ulx3s-25f", "ulx3s-12f"])
def test_ulx3s_pins(name: str) -> None:
    bp = board_pins(get_board(name))
    assert {p.port: p.site for p in bp.pins} == ULX3S
    assert bp.clock_hz == 25_000_000 and bp.leds == 8 and not bp.led_active_low
    lpf = constraints(get_board(name), bp)
    for port, site in ULX3S.items():
        assert f'LOCATE COMP "{port}" SITE "{site}";' in lpf
        assert f'IOBUF PORT "{port}" IO_TYPE=LVCMOS33' in lpf
    assert 'FREQUENCY PORT "clk_i" 25 MHz;' in lpf


def test_icebreaker_pins() -> None:
    board = get_board("icebreaker")
    bp = board_pins(board)
    assert {p.port: p.site for p in bp.pins} == ICEBREAKER
    assert bp.clock_hz == 12_000_000 and bp.leds == 2 and bp.led_active_low
    pcf = constraints(board, bp).splitlines()
    assert "set_io clk_i 35" in pcf
    # the UART lines idle high: pulled up, as the board's own .pcf has them
    assert "set_io -pullup yes uart_rx_i 6" in pcf
    assert "set_io led_o[0] 11" in pcf and "set_io led_o[1] 37" in pcf


def test_every_board_is_on_the_fpga_amaranth_boards_names() -> None:
    """The flow's device of each board is the FPGA amaranth-boards says the board
    carries (``LFE5U-85F``, ``iCE40UP5K``), and its package nextpnr's name for it."""
    import importlib

    for b in BOARDS.values():
        module, _, cls = b.platform.partition(":")
        plat = getattr(importlib.import_module(f"amaranth_boards.{module}"), cls)()
        assert b.dev.name.replace("-", "") == plat.device.replace("-", ""), b.name
        assert b.package.upper().endswith(plat.package.upper().removeprefix("BG")), b.name
        assert board_pins(b).pins


def test_timing_verdict() -> None:
    assert timing_miss("b: c", 25.0, 25.0) is None
    assert timing_miss("b: c", 12.0, 18.19) is None
    msg = timing_miss("b: c", 25.0, 20.0)
    assert msg is not None and "\n" not in msg
    assert msg.startswith("b: c misses the 25 MHz board clock by 5.00 MHz")
    assert "10.00 ns over" in msg  # 1/20 MHz - 1/25 MHz = 50 - 40 ns


def test_a_build_removes_only_its_own_files(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """--out may be a folder of the user's: a build (here stopped at Yosys) removes
    its own earlier outputs and nothing else."""
    import aeskit.board.build as b

    mine = tmp_path / "notes.txt"
    mine.write_text("keep")
    (tmp_path / "icebreaker.bin").write_bytes(b"old")

    def stop(*_a: object, **_k: object) -> None:
        raise b.SynthError("stopped here")

    monkeypatch.setattr(b.toolrun, "run_yosys", stop)
    with pytest.raises(BuildError, match="stopped here"):
        build("icebreaker", out_dir=tmp_path)
    assert mine.read_text() == "keep"
    assert not (tmp_path / "icebreaker.bin").exists()


def test_build_refusals(tmp_path: Path) -> None:
    with pytest.raises(BuildError, match="unknown board 'de10'"):
        build("de10", out_dir=tmp_path)
    with pytest.raises(BuildError, match="seed must be 1 or more"):
        build("icebreaker", seed=0, out_dir=tmp_path)
    with pytest.raises(BuildError, match="needs a clock of at least"):
        build("icebreaker", baud=6_000_000, out_dir=tmp_path)


def test_cli_builds_and_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``aeskit board``: the build's summary on stdout, exit 0; a build that ends in a
    verdict (does not fit, misses the clock) is one line and exit 1. The refusals of
    bad arguments are in tests/aeskit/test_cli_bad_input.py."""
    import aeskit.board.build as b
    from aeskit.cli import main

    seen: dict[str, object] = {}

    def fake(board: str, core: str | None, **kw: object) -> b.BoardBuild:
        seen.update(board=board, core=core, **kw)
        bit = tmp_path / "x.bin"
        bit.write_bytes(b"\x00" * 10)
        return b.BoardBuild(board, core or "compact32_bram_e128", "iCE40-UP5K", 12.0, 115_200,
                            18.2, {"ICESTORM_LC": (4410, 5280)}, bit, 10, "0" * 64, 1, tmp_path)

    monkeypatch.setattr(b, "build", fake)
    assert main(["board", "icebreaker", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "18.2 MHz achieved for the 12 MHz board clock" in out and "ICESTORM_LC 4,410/5,280" in out
    assert seen["board"] == "icebreaker" and seen["core"] is None and seen["seed"] == 2

    def misses(*_a: object, **_k: object) -> b.BoardBuild:
        raise BuildError(timing_miss("icebreaker: x", 12.0, 10.0) or "")

    monkeypatch.setattr(b, "build", misses)
    assert main(["board", "icebreaker"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "misses the 12 MHz board clock by 2.00 MHz" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("leds, low", [(2, 1), (8, 0)])
def test_board_top_lint(leds: int, low: int, tmp_path: Path) -> None:
    """``verilator --lint-only -Wall`` of ak_board_top with the demo on its iCEBreaker
    core, as the two boards configure it: zero warnings; Yosys's ``check -assert``."""
    import subprocess

    from aeskit.board.build import BOARD_TOP
    from aeskit.hw import manifest
    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.hw.systems.uart_demo import system_files
    from aeskit.toolchain.paths import verilator

    files = [*system_files("compact32_bram_e128", tmp_path / "src"), *manifest.sources(BOARD_TOP)]
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", "ak_board_top",
           f"-GLeds={leds}", f"-GLedActiveLow={low}", "-GClkHz=25000000", str(WAIVERS),
           *(str(f) for f in files)]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out, out
    # and Yosys read_slang + hierarchy + check -assert, as the build reads it
    from aeskit.synth import Design, yosys_check

    yosys_check(Design("board_top", "ak_board_top", tuple(files),
                       parameters={"Leds": leds, "LedActiveLow": low, "ClkHz": 25_000_000}))


def _check_build(name: str, out: Path, size: int | None, magic: bytes) -> None:
    r = build(name, out_dir=out)
    data = r.bitstream.read_bytes()
    assert len(data) == r.bitstream_bytes > 0
    if size is not None:
        assert len(data) == size
    assert magic in data[:64]
    assert r.fmax_mhz >= r.clock_mhz and r.slack_ns > 0
    rec = json.loads((out / "board.json").read_text())
    assert rec["bitstream_bytes"] == len(data) and rec["fmax_mhz"] == r.fmax_mhz
    timing = (out / "timing.txt").read_text()
    assert f"clock {r.clock_mhz:g} MHz" in timing and "slack" in timing


@pytest.mark.slow
def test_icebreaker_bitstream(tmp_path: Path) -> None:
    # an iCE40-UP5K configuration image is 104,090 bytes; after icepack's comment
    # field it opens with the preamble 7E AA 99 7E (iCE40 programming guide)
    _check_build("icebreaker", tmp_path / "ice", 104_090, bytes.fromhex("7eaa997e"))


@pytest.mark.slow
@pytest.mark.parametrize("name", [b for b in BOARDS if b.startswith("ulx3s")])
def test_ulx3s_bitstream(name: str, tmp_path: Path) -> None:
    # an ECP5 bitstream: the preamble FF FF BD B3 (ECP5 sysCONFIG guide); compressed,
    # so its size depends on the design
    _check_build(name, tmp_path / name, None, bytes.fromhex("ffffbdb3"))
