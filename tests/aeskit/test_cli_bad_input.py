"""Every subcommand of ``aeskit`` against a table of bad inputs: exit 2, one line
``aeskit: error: ...`` on standard error and nothing on standard output, no traceback,
no file written or changed, and nothing built, simulated or synthesized (the library
calls that would start long work are replaced by tripwires). Then the help texts,
``--version``, and the file plumbing of encrypt/decrypt (``-`` for standard input and
output, the atomic output) with OpenSSL in place of the RTL, so no model is built."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path
from typing import Any

import pytest

import aeskit.asbus.evaluate
import aeskit.board.build
import aeskit.report
import aeskit.report.primitive_table
import aeskit.crypt.filecrypt
import aeskit.harness.modes
import aeskit.synth
from aeskit import __version__
from aeskit.cli import STALL_MAX, _HelpFormatter, build_parser, main
from aeskit.crypt.filecrypt import TagMismatch, reference_crypt

K16 = "00" * 16
IV = "00" * 16
NONCE = "00" * 13


def _unwritable_out(tmp: Path) -> str:
    """An output path whose folder refuses new files: a read-only folder, or, for root
    (whom permissions do not stop), a file in /sys."""
    if os.geteuid() != 0:
        ro = tmp / "ro"
        ro.mkdir()
        ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
        return str(ro / "out.bin")
    return "/sys/aeskit-test-out.bin"


def _paths(tmp: Path) -> dict[str, str]:
    (tmp / "in.bin").write_bytes(bytes(32))
    (tmp / "in17.bin").write_bytes(bytes(17))
    (tmp / "in15.bin").write_bytes(bytes(15))
    (tmp / "in7.bin").write_bytes(bytes(7))
    (tmp / "in0.bin").write_bytes(b"")
    (tmp / "in40.bin").write_bytes(bytes(40))
    (tmp / "old.bin").write_bytes(b"keep me")
    (tmp / "adir").mkdir()
    return {"IN": str(tmp / "in.bin"), "IN17": str(tmp / "in17.bin"),
            "IN15": str(tmp / "in15.bin"), "IN7": str(tmp / "in7.bin"),
            "IN0": str(tmp / "in0.bin"), "IN40": str(tmp / "in40.bin"),
            "OUT": str(tmp / "out.bin"), "OLD": str(tmp / "old.bin"),
            "DIR": str(tmp / "adir"), "MISSING": str(tmp / "nosuch.bin"),
            "NOFOLDER": str(tmp / "nosuch" / "out.bin"),
            "UNDERFILE": str(tmp / "in.bin" / "out.bin"), "RO": _unwritable_out(tmp)}


# (arguments after "encrypt"/"decrypt", what stderr must contain: all of the strings;
# for "output unwritable" the one that applies, see _expected_unwritable)
CRYPT_CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "no key": (["{IN}", "{OUT}"], ("the following arguments are required: --key",)),
    "no paths": (["--key", K16], ("the following arguments are required: IN, OUT",)),
    "key not hex": (["--key", "0g" * 16, "{IN}", "{OUT}"], ("--key: not hex",)),
    "key odd digits": (["--key", "0" * 31, "{IN}", "{OUT}"], ("odd number of hex digits",)),
    "key 15 bytes": (["--key", "00" * 15, "{IN}", "{OUT}"], ("16, 24 or 32 bytes",)),
    "key 33 bytes": (["--key", "00" * 33, "{IN}", "{OUT}"], ("16, 24 or 32 bytes",)),
    "key size not on core": (["--core", "tbox_unfolded", "--key", "00" * 24, "{IN}", "{OUT}"],
                             ("core tbox_unfolded does not support 192-bit keys",)),
    "unknown core": (["--core", "nosuch", "--key", K16, "{IN}", "{OUT}"],
                     ("unknown core 'nosuch'",)),
    "unknown mode": (["--mode", "ocb", "--key", K16, "{IN}", "{OUT}"],
                     ("argument --mode: invalid choice: 'ocb'",)),
    "iv not hex": (["--mode", "cbc", "--key", K16, "--iv", "zz" * 16, "{IN}", "{OUT}"],
                   ("--iv: not hex",)),
    "iv 8 bytes": (["--mode", "cbc", "--key", K16, "--iv", "00" * 8, "{IN}", "{OUT}"],
                   ("IV must be 16 bytes",)),
    "cbc without iv": (["--mode", "cbc", "--key", K16, "{IN}", "{OUT}"], ("needs --iv",)),
    "ecb with iv": (["--key", K16, "--iv", IV, "{IN}", "{OUT}"], ("ECB takes no IV",)),
    "ecb partial block": (["--key", K16, "{IN17}", "{OUT}"],
                          ("whole number of 16-byte blocks",)),
    "cbc-cs short": (["--mode", "cbc-cs1", "--key", K16, "--iv", IV, "{IN15}", "{OUT}"],
                     ("at least 16 bytes",)),
    "ccm without nonce": (["--mode", "ccm", "--key", K16, "{IN}", "{OUT}"],
                          ("needs --nonce",)),
    "ccm nonce not hex": (["--mode", "ccm", "--key", K16, "--nonce", "xy" * 13, "{IN}",
                           "{OUT}"], ("--nonce: not hex",)),
    "ccm nonce 6 bytes": (["--mode", "ccm", "--key", K16, "--nonce", "00" * 6, "{IN}",
                           "{OUT}"], ("nonce must be 7..13 bytes",)),
    "ccm tag 5": (["--mode", "ccm", "--key", K16, "--nonce", NONCE, "--tag-len", "5", "{IN}",
                   "{OUT}"], ("--tag-len must be one of",)),
    "tag not a number": (["--mode", "ccm", "--key", K16, "--nonce", NONCE, "--tag-len", "x",
                          "{IN}", "{OUT}"], ("argument --tag-len: invalid int value",)),
    "ccm with iv": (["--mode", "ccm", "--key", K16, "--nonce", NONCE, "--iv", IV, "{IN}",
                     "{OUT}"], ("not --iv",)),
    "tag-len outside ccm": (["--mode", "ctr", "--key", K16, "--iv", IV, "--tag-len", "8",
                             "{IN}", "{OUT}"], ("--tag-len is for CCM",)),
    "aad file outside ccm": (["--mode", "ctr", "--key", K16, "--iv", IV, "--aad-file", "{IN}",
                              "{IN}", "{OUT}"], ("--aad-file is for CCM",)),
    "nonce outside ccm": (["--mode", "ctr", "--key", K16, "--iv", IV, "--nonce", NONCE,
                           "{IN}", "{OUT}"], ("--nonce is for CCM",)),
    "gcm without iv": (["--mode", "gcm", "--key", K16, "{IN}", "{OUT}"], ("GCM needs --iv",)),
    "gcm iv not hex": (["--mode", "gcm", "--key", K16, "--iv", "0g", "{IN}", "{OUT}"],
                       ("--iv: not hex",)),
    "gcm tag 3": (["--mode", "gcm", "--key", K16, "--iv", "00" * 12, "--tag-len", "3", "{IN}",
                   "{OUT}"], ("--tag-len must be 4..16",)),
    "cmac with iv": (["--mode", "cmac", "--key", K16, "--iv", IV, "{IN}", "{OUT}"],
                     ("CMAC takes no --iv",)),
    "xts key 16 bytes": (["--mode", "xts", "--key", K16, "--tweak", IV, "{IN}", "{OUT}"],
                         ("XTS key must be K1 || K2, 32 or 64 bytes",)),
    "xts no tweak": (["--mode", "xts", "--key", K16 * 2, "{IN}", "{OUT}"],
                     ("XTS needs exactly one of --tweak",)),
    "xts tweak and unit": (["--mode", "xts", "--key", K16 * 2, "--tweak", IV, "--data-unit",
                            "3", "{IN}", "{OUT}"], ("XTS needs exactly one of --tweak",)),
    "xts tweak 8 bytes": (["--mode", "xts", "--key", K16 * 2, "--tweak", "00" * 8, "{IN}",
                           "{OUT}"], ("--tweak must be 16 bytes",)),
    "xts tweak not hex": (["--mode", "xts", "--key", K16 * 2, "--tweak", "q" * 32, "{IN}",
                           "{OUT}"], ("--tweak: not hex",)),
    "xts unit 15": (["--mode", "xts", "--key", K16 * 2, "--data-unit", "0", "--unit-size",
                     "15", "{IN}", "{OUT}"], ("--unit-size must be at least 16",)),
    "xts negative unit": (["--mode", "xts", "--key", K16 * 2, "--data-unit", "-1", "{IN}",
                           "{OUT}"], ("--data-unit must be 0 .. 2^128-1",)),
    "xts with iv": (["--mode", "xts", "--key", K16 * 2, "--tweak", IV, "--iv", IV, "{IN}",
                     "{OUT}"], ("XTS takes no --iv",)),
    "xts short input": (["--mode", "xts", "--key", K16 * 2, "--tweak", IV, "{IN15}", "{OUT}"],
                        ("XTS needs at least 16 bytes of input", "got 15 bytes")),
    "xts equal key halves": (["--mode", "xts", "--key", K16 * 2, "--tweak", IV, "{IN}",
                              "{OUT}"], ("XTS key halves K1 and K2 are equal",)),
    "xts equal 256-bit halves": (["--mode", "xts", "--key", "ab" * 64, "--data-unit", "0",
                                  "{IN}", "{OUT}"], ("XTS key halves K1 and K2 are equal",)),
    "xts empty input": (["--mode", "xts", "--key", K16 * 2, "--tweak", IV, "{IN0}", "{OUT}"],
                        ("XTS needs at least 16 bytes of input", "got 0 bytes")),
    "xts empty input, data unit": (["--mode", "xts", "--key", K16 * 2, "--data-unit", "0",
                                    "{IN0}", "{OUT}"],
                                   ("XTS needs at least 16 bytes of input", "got 0 bytes")),
    "xts short last unit": (["--mode", "xts", "--key", K16 * 2, "--data-unit", "0",
                             "--unit-size", "32", "{IN40}", "{OUT}"],
                            ("XTS data units must be at least 16 bytes",
                             "leaves a last unit of 8 bytes")),
    "cmac with aad": (["--mode", "cmac", "--key", K16, "--aad-file", "{IN}", "{IN}", "{OUT}"],
                      ("--aad-file is for CCM, GCM",)),
    "aad file missing": (["--mode", "ccm", "--key", K16, "--nonce", NONCE, "--aad-file",
                          "{MISSING}", "{IN}", "{OUT}"], ("AAD file", "does not exist")),
    "aad file a directory": (["--mode", "ccm", "--key", K16, "--nonce", NONCE, "--aad-file",
                              "{DIR}", "{IN}", "{OUT}"], ("is a directory",)),
    "stall 100": (["--key", K16, "--stall", "100", "{IN}", "{OUT}"],
                  (f"argument --stall: must be 0..{STALL_MAX}, got 100",)),
    "stall negative": (["--key", K16, "--stall", "-1", "{IN}", "{OUT}"],
                       (f"argument --stall: must be 0..{STALL_MAX}, got -1",)),
    "stall not a number": (["--key", K16, "--stall", "lots", "{IN}", "{OUT}"],
                           ("argument --stall: not a whole number",)),
    "input missing": (["--key", K16, "{MISSING}", "{OUT}"], ("does not exist",)),
    "input a directory": (["--key", K16, "{DIR}", "{OUT}"], ("is a directory",)),
    "output folder missing": (["--key", K16, "{IN}", "{NOFOLDER}"],
                              ("output folder", "does not exist")),
    "output folder missing, --force": (["--key", K16, "--force", "{IN}", "{NOFOLDER}"],
                                       ("output folder", "does not exist")),
    "output under a file": (["--key", K16, "{IN}", "{UNDERFILE}"], ("is not a directory",)),
    "output a directory": (["--key", K16, "{IN}", "{DIR}"], ("is a directory",)),
    "output a directory, --force": (["--key", K16, "--force", "{IN}", "{DIR}"],
                                    ("is a directory",)),
    "output exists": (["--key", K16, "{IN}", "{OLD}"], ("exists; pass --force",)),
    "output unwritable": (["--key", K16, "{IN}", "{RO}"],
                          ("is not writable", "cannot create a file in output folder")),
    "output unwritable, --force": (["--key", K16, "--force", "{IN}", "{RO}"],
                                   ("is not writable", "cannot create a file in output folder")),
    "unknown option": (["--key", K16, "--fresh", "{IN}", "{OUT}"],
                       ("unrecognized arguments: --fresh",)),
}

# (the whole command line, what stderr must contain: all of the strings)
OTHER_CASES: dict[str, tuple[list[str], tuple[str, ...]]] = {
    "no command": ([], ("the following arguments are required: COMMAND",)),
    "unknown command": (["nosuch"], ("argument COMMAND: invalid choice: 'nosuch'",)),
    "unknown top option": (["--nosuch", "cores"], ("unrecognized arguments: --nosuch",)),
    "cores extra": (["cores", "extra"], ("unrecognized arguments: extra",)),
    "cores option": (["cores", "--yaml"], ("unrecognized arguments: --yaml",)),
    "systems extra": (["systems", "--json", "extra"], ("unrecognized arguments: extra",)),
    "decrypt ccm short": (["decrypt", "--mode", "ccm", "--key", K16, "--nonce", NONCE,
                           "--tag-len", "8", "{IN7}", "{OUT}"], ("shorter than the 8-byte tag",)),
    "decrypt cmac short": (["decrypt", "--mode", "cmac", "--key", K16, "--tag-len", "8",
                            "{IN7}", "{OUT}"], ("shorter than the 8-byte tag",)),
    "synth no name": (["synth"], ("the following arguments are required: NAME",)),
    "synth unknown core": (["synth", "nosuch"], ("unknown core 'nosuch'",)),
    "synth --on a core": (["synth", "round", "--on", "pipe2"], ("--on applies to a system",)),
    "synth on unknown core": (["synth", "coproc", "--on", "nosuch"], ("unknown core 'nosuch'",)),
    "synth unknown device": (["synth", "round", "--device", "LFE5U-99F"],
                             ("argument --device: invalid choice: 'LFE5U-99F'",)),
    "synth seed": (["synth", "round", "--seed", "one"], ("argument --seed: not a whole number",)),
    "synth seed -1": (["synth", "round", "--seed", "-1"], ("argument --seed: must be 1 or more",)),
    "synth seed 0": (["synth", "round", "--seed", "0"], ("argument --seed: must be 1 or more",)),
    "synth out a file": (["synth", "round", "--out", "{IN}"], ("is not a directory",)),
    "synth out under a file": (["synth", "round", "--out", "{UNDERFILE}"],
                               ("is not a directory",)),
    "synth old --force": (["synth", "round", "--force"], ("unrecognized arguments: --force",)),
    "report unknown core": (["report", "--cores", "round,nosuch"], ("unknown core 'nosuch'",)),
    "report empty cores": (["report", "--cores", " , "], ("--cores: no core given",)),
    "report unknown section": (["report", "--sections", "paper999"],
                               ("unknown report section 'paper999'",)),
    "report empty sections": (["report", "--sections", ""], ("no report section given",)),
    "report jobs 0": (["report", "--jobs", "0"], ("argument --jobs: must be 1 or more",)),
    "report jobs text": (["report", "--jobs", "many"], ("argument --jobs: not a whole number",)),
    "report unknown device": (["report", "--device", "XC7A35T"],
                              ("argument --device: invalid choice",)),
    "report out a file": (["report", "--out", "{IN}"], ("is not a directory",)),
    "report old --force": (["report", "--force"], ("unrecognized arguments: --force",)),
    "primitives unknown": (["primitives", "--only", "sbox_table,nosuch"],
                           ("unknown variant 'nosuch'",)),
    "primitives empty": (["primitives", "--only", ","], ("--only: no variant given",)),
    "primitives jobs": (["primitives", "--jobs", "-1"], ("argument --jobs: must be 1 or more",)),
    "primitives old --force": (["primitives", "--force"], ("unrecognized arguments: --force",)),
    "asbus width 48": (["asbus", "--widths", "48"], ("width must be one of 32, 64, 128",)),
    "asbus width text": (["asbus", "--widths", "32,abc"], ("got 'abc'",)),
    "asbus unknown bus": (["asbus", "--buses", "asbus,pci"], ("got 'pci'",)),
    "asbus empty buses": (["asbus", "--buses", ""], ("bus must be",)),
    "asbus bad seeds": (["asbus", "--seeds", "3-1"], ("not a range of positive seeds",)),
    "asbus seed twice": (["asbus", "--seeds", "1,1"], ("names a seed twice",)),
    "asbus old --force": (["asbus", "--force"], ("unrecognized arguments: --force",)),
    "bench no name": (["bench"], ("the following arguments are required: BENCH",)),
    "bench unknown core": (["bench", "filepath", "--cores", "round,nosuch"],
                           ("--cores: unknown core 'nosuch'",)),
    "bench unknown mode": (["bench", "filepath", "--modes", "ecb,gcm"],
                           ("--modes: unknown mode 'gcm'",)),
    "bench size 0": (["bench", "filepath", "--size-mib", "0"], ("--size-mib must be more",)),
    # aeskit board (tests/aeskit/board/test_board_build.py builds)
    "board no name": (["board"], ("the following arguments are required: BOARD",)),
    "board unknown": (["board", "de10"], ("invalid choice: 'de10'",)),
    "board unknown core": (["board", "icebreaker", "--core", "nosuch"],
                           ("unknown core 'nosuch'",)),
    "board seed 0": (["board", "icebreaker", "--seed", "0"], ("--seed must be 1 or more",)),
    "board baud 0": (["board", "ulx3s", "--baud", "0"], ("--baud must be positive",)),
    "board baud too fast": (["board", "icebreaker", "--baud", "6000000"],
                            ("too fast for the 12 MHz clock",)),
    "board out is a file": (["board", "icebreaker", "--out", "{IN}"],
                            ("is not a directory",)),
    # aeskit store rekey (the rest: tests/aeskit/store/test_rekey.py)
    "store no action": (["store"], ("the following arguments are required: ACTION",)),
    "store rekey no commit": (["store", "rekey"],
                              ("the following arguments are required: --since",)),
    "store rekey unknown commit": (["store", "rekey", "--since", "nosuch", "--dry-run"],
                                   ("unknown commit 'nosuch'",)),
    "store rekey not a checkout": (["store", "rekey", "--since", "HEAD", "--repo", "{DIR}"],
                                   ("is not a git checkout",)),
    # aeskit uart: the whole table is tests/aeskit/board/test_protocol.py
    "uart no port": (["uart", "encrypt", "--key", K16, "{IN}", "{OUT}"],
                     ("the following arguments are required: --port",)),
    "uart key 15 bytes": (["uart", "--port", "/dev/null", "encrypt", "--key", "00" * 15,
                           "{IN}", "{OUT}"], ("16, 24 or 32 bytes",)),
}


def _tripwire(*_a: object, **_k: object) -> Any:
    raise AssertionError("bad input reached a build, simulation or synthesis")


@pytest.fixture
def tripwires(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every library entry point the subcommands hand long work to fails the test."""
    for mod, name in [(aeskit.crypt.filecrypt, "crypt_bytes"),
                      (aeskit.harness.modes, "build_mode_harness"),
                      (aeskit.synth, "synthesize"), (aeskit.report, "run_report"),
                      (aeskit.report.primitive_table, "collect"),
                      (aeskit.asbus.evaluate, "evaluate"),
                      (aeskit.board.build, "build")]:
        monkeypatch.setattr(mod, name, _tripwire)


def _snapshot(root: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``root`` (hidden ones too) with its contents."""
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None)
            for p in sorted(root.rglob("*"))}


def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own errors
        return int(exc.code or 0)


def _check_rejected(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                    monkeypatch: pytest.MonkeyPatch, argv: list[str],
                    wanted: tuple[str, ...]) -> None:
    paths = _paths(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = _snapshot(tmp_path)
    rc = _run([a.format(**paths) for a in argv])
    cap = capsys.readouterr()
    assert rc == 2, cap.err
    assert cap.out == ""
    assert "Traceback" not in cap.err
    assert cap.err.endswith("\n") and cap.err.count("\n") == 1, cap.err
    assert cap.err.startswith("aeskit: error: "), cap.err
    assert all(w in cap.err for w in wanted), cap.err
    assert _snapshot(tmp_path) == before


@pytest.mark.usefixtures("tripwires")
@pytest.mark.parametrize("cmd", ["encrypt", "decrypt"])
@pytest.mark.parametrize("case", list(CRYPT_CASES))
def test_crypt_bad_input(cmd: str, case: str, tmp_path: Path,
                         capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    argv, wanted = CRYPT_CASES[case]
    if case.startswith("output unwritable"):
        wanted = (_expected_unwritable(wanted),)
    _check_rejected(tmp_path, capsys, monkeypatch, [cmd, *argv], wanted)


def _expected_unwritable(choices: tuple[str, ...]) -> str:
    """A read-only folder is refused by the permission check; root passes that check
    and is refused when the temporary file cannot be created."""
    return choices[0] if os.geteuid() != 0 else choices[1]


@pytest.mark.usefixtures("tripwires")
@pytest.mark.parametrize("case", list(OTHER_CASES))
def test_other_bad_input(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    argv, wanted = OTHER_CASES[case]
    _check_rejected(tmp_path, capsys, monkeypatch, argv, wanted)


@pytest.mark.usefixtures("tripwires")
@pytest.mark.parametrize("argv", [["encrypt", "--key", K16, "{IN}", "{OUT}"],
                                  ["synth", "round", "--out", "{DIR}"],
                                  ["report", "--cores", "round"], ["primitives"],
                                  ["asbus", "--no-synth"]])
def test_the_tripwires_catch_good_input(argv: list[str], tmp_path: Path) -> None:
    """The tables above would notice a check that came too late."""
    paths = _paths(tmp_path)
    with pytest.raises(AssertionError, match="bad input reached"):
        main([a.format(**paths) for a in argv])


def test_every_subcommand_is_in_the_table() -> None:
    subs = set(_subparsers())
    covered = {argv[0] for argv, _ in OTHER_CASES.values() if argv} | {"encrypt", "decrypt"}
    assert subs <= covered, subs - covered


# --------------------------------------------------------------------------------
# help texts and --version
# --------------------------------------------------------------------------------
def _subparsers() -> dict[str, Any]:
    import argparse

    p = build_parser()
    sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


@pytest.mark.parametrize("name", list(_subparsers()))
def test_every_argument_has_help_and_a_visible_default(name: str) -> None:
    parser = _subparsers()[name]
    fmt = _HelpFormatter(parser.prog)
    for action in parser._actions:
        assert action.help, (name, action.dest)
        takes_value = action.option_strings and action.nargs != 0
        if takes_value and not action.required:
            assert "default" in (fmt._get_help_string(action) or ""), (name, action.dest)


def test_encrypt_help_shows_defaults_and_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    for cmd in ("encrypt", "decrypt"):
        assert _run([cmd, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "(default: round)" in text and "(default: ecb)" in text
        assert f"0..{STALL_MAX} (default: 0)" in text
        assert "- for standard input" in text and "- for standard output" in text
        assert "--force" in text and "--fresh" not in text
    for cmd in ("synth", "report", "primitives", "asbus"):
        assert _run([cmd, "--help"]) == 0
        text = capsys.readouterr().out
        assert "--fresh" in text and "--force" not in text


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(["--version"]) == 0
    assert capsys.readouterr().out == f"aeskit {__version__}\n"


# --------------------------------------------------------------------------------
# the file plumbing of encrypt/decrypt, OpenSSL standing in for the RTL
# --------------------------------------------------------------------------------
def _fake_engine(monkeypatch: pytest.MonkeyPatch, seen: list[Path] | None = None) -> None:
    """crypt_bytes through OpenSSL; ``seen`` gets the folder's files during the "run"."""

    def fake(core: object, mode: str, key: bytes, iv: bytes | None, data: bytes,
             decrypt: bool, *, progress: object = None, stall_pct: int = 0,
             gap_pct: int = 0, **extra: Any) -> bytes:
        if seen is not None:
            seen.extend(Path.cwd().iterdir())
        return reference_crypt(mode, key, iv, data, decrypt, **extra)

    monkeypatch.setattr(aeskit.crypt.filecrypt, "crypt_bytes", fake)
    monkeypatch.setattr(aeskit.harness.modes, "build_mode_harness", _tripwire)


def test_stdin_to_stdout(monkeypatch: pytest.MonkeyPatch,
                         capsysbinary: pytest.CaptureFixture[bytes], tmp_path: Path) -> None:
    _fake_engine(monkeypatch)
    monkeypatch.chdir(tmp_path)
    data = bytes(range(48))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["encrypt", "--mode", "ctr", "--key", K16, "--iv", IV, "-", "-"]) == 0
    cap = capsysbinary.readouterr()
    assert cap.out == reference_crypt("ctr", bytes(16), bytes(16), data, False)
    assert b"-> standard output" in cap.err
    assert list(tmp_path.iterdir()) == []


def test_output_is_atomic(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    """While the engine runs, only a hidden temporary file is in the folder; --force
    replaces the old output and keeps its permissions; nothing is left over."""
    seen: list[Path] = []
    _fake_engine(monkeypatch, seen)
    monkeypatch.chdir(tmp_path)
    Path("in.bin").write_bytes(bytes(32))
    Path("out.bin").write_bytes(b"old")
    Path("out.bin").chmod(0o640)
    assert main(["encrypt", "--key", K16, "--force", "in.bin", "out.bin"]) == 0
    temps = [p.name for p in seen if p.name not in ("in.bin", "out.bin")]
    assert len(temps) == 1 and temps[0].startswith(".out.bin.") and temps[0].endswith(".part")
    assert Path("out.bin").read_bytes() == reference_crypt("ecb", bytes(16), None, bytes(32),
                                                           False)
    assert stat.S_IMODE(Path("out.bin").stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin", "out.bin"]


@pytest.mark.parametrize("failure", ["tag", "crash"])
def test_failed_run_leaves_nothing(failure: str, monkeypatch: pytest.MonkeyPatch,
                                   tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def fail(*_a: object, **_k: object) -> bytes:
        raise TagMismatch() if failure == "tag" else RuntimeError("simulated crash")

    monkeypatch.setattr(aeskit.crypt.filecrypt, "crypt_bytes", fail)
    monkeypatch.chdir(tmp_path)
    Path("in.bin").write_bytes(bytes(32))
    argv = ["decrypt", "--mode", "ccm", "--key", K16, "--nonce", NONCE, "--force",
            "in.bin", "out.bin"]
    if failure == "tag":
        assert main(argv) == 1
        assert "CCM authentication failed" in capsys.readouterr().err
    else:
        with pytest.raises(RuntimeError):
            main(argv)
    assert [p.name for p in tmp_path.iterdir()] == ["in.bin"]


@pytest.mark.parametrize("kw", [{"stall_pct": 100}, {"stall_pct": -1}, {"gap_pct": 100}])
def test_library_refuses_a_stall_outside_its_range(kw: dict[str, int]) -> None:
    """The library call (not only the CLI) refuses a percentage that would hang the
    harness, before anything is built."""
    from aeskit.hw import get_core
    from aeskit.crypt.filecrypt import crypt_bytes

    with pytest.raises(ValueError, match="must be 0..99"):
        crypt_bytes(get_core("round"), "ecb", bytes(16), None, bytes(16), False, **kw)
