"""The committed results store against the checkout: what a fresh clone's `make report`
does for the core `round` (no build folder, every figure from results/), then the page
in a real browser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

from aeskit import BUILD_ROOT
from aeskit.store import RESULTS_HINT


def _fresh_report(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``aeskit report --cores round --families none --jobs 1 ARGS`` into ``root/report``
    with ``root`` as a fresh build folder and the store read-only."""
    env = dict(os.environ, AESKIT_BUILD_ROOT=str(root), AESKIT_STORE_WRITE="0")
    return subprocess.run(
        [sys.executable, "-m", "aeskit.cli", "report", "--cores", "round", "--families", "none",
         "--jobs", "1", "--out", str(root / "report"), *args],
        env=env, capture_output=True, text=True, timeout=900)


def test_a_fresh_build_folder_reports_round_from_the_store_alone() -> None:
    root = BUILD_ROOT / "tests" / f"fresh-{uuid.uuid4().hex[:8]}"
    out = root / "report"
    try:
        proc = _fresh_report(root, "--sections", "none", "--seeds", "1-3", "--check-browser")
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        rep = json.loads((out / "report.json").read_text())
        # every figure came from results/: nothing was simulated or synthesized
        assert rep["provenance"]["measured"] == 0, RESULTS_HINT
        assert rep["provenance"]["reused"] == 4  # the simulation and three seeds
        for row in rep["rows"]:
            assert row["provenance"]["sim"].startswith("reused ")
            assert row["provenance"]["synth"].startswith("reused ")
            assert row["tests_ok"] and row["claims_ok"] and row["fmax_mhz"]
            assert sorted(row["fmax_seeds"]) == ["1", "2", "3"]
        assert "browser check" in proc.stdout and "OK" in proc.stdout
        # the plan printed before the run said so too
        assert "sim 1/1 current; synth 3/3 current; nothing to measure" in proc.stderr \
            + proc.stdout
        assert (out / "screenshot.png").stat().st_size > 10_000
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_a_fresh_build_folder_reports_the_asbus_section_from_the_store_alone() -> None:
    """Paper 000's section on a fresh clone: syntheses and simulations come from
    results/, and the I/O column (the top's port widths, read from the netlist a
    restored result does not have) comes from Yosys's elaboration of the top instead of
    failing the section."""
    import re

    root = BUILD_ROOT / "tests" / f"fresh-{uuid.uuid4().hex[:8]}"
    out = root / "report"
    try:
        proc = _fresh_report(root, "--sections", "asbus", "--seeds", "1")
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
        assert "FAILED" not in proc.stdout + proc.stderr
        rep = json.loads((out / "report.json").read_text())
        assert rep["provenance"]["measured"] == 0, RESULTS_HINT
        text = next(s["markdown"] for s in rep["sections"] if s["title"].startswith("Paper 000"))
        rows = re.findall(r"^\| (32|64|128) \| (ADAM|XDAM) \|(.*)$", text, re.M)
        assert len(rows) == 6, text[-2000:]
        for _, _, rest in rows:
            io = rest.split("|")[4].strip()  # LUT4, FF, EBR, Fmax, I/O
            assert io.isdigit() and int(io) > 100, rest
    finally:
        shutil.rmtree(root, ignore_errors=True)
