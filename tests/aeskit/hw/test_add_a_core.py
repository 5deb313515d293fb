"""The "add a core" walk of docs/architecture.md, tried on a fixture core.

``fixtures/newcomer/`` is a new core made by those steps, in one folder outside
``hw/``: RTL (``ak_newcomer_core.sv``, the reference core under another name),
manifest (``newcomer.core``, depending on ``aeskit:core:round``), registry entry
(``catalog.py``) and doc page (``newcomer.md``); this file is its test. Named in
``AESKIT_EXTRA_HW``, the folder joins the manifests and the registry, and then with
no other change:

* FuseSoC lints it (``--cores-root hw --cores-root <folder>``);
* ``aeskit cores`` and ``aeskit cores --json`` list it, with its manifest and files;
* the bulk harness builds it and encrypts NIST KAT blocks and random blocks checked
  against ``cryptography`` (OpenSSL), and the every-core bulk tests collect it;
* ``aeskit report --cores newcomer --no-synth`` measures it and its claims hold.

Everything that reads the registry runs in a subprocess with the variable set (the
registry is fixed at import; this process's registry must not change).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from aeskit import BUILD_ROOT, HW_ROOT, REPO_ROOT
from aeskit.hw import core_names, manifest

FOLDER = Path(__file__).resolve().parent / "fixtures" / "newcomer"
OUT = BUILD_ROOT / "test_add_a_core"
BIN = Path(sys.executable).parent


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = str(BIN) + os.pathsep + env.get("PATH", "")
    env[manifest.EXTRA_ENV] = str(FOLDER)
    return env


def _run(*args: str, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    res = subprocess.run(list(args), cwd=REPO_ROOT, env=_env(), capture_output=True,
                         text=True, timeout=timeout)
    assert res.returncode == 0, f"{' '.join(args)} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res


def test_the_folder_has_every_step() -> None:
    assert sorted(p.name for p in FOLDER.iterdir() if p.name != "__pycache__") == [
        "ak_newcomer_core.sv", "catalog.py", "newcomer.core", "newcomer.md"]


def test_fixture_stays_out_of_the_default_registry() -> None:
    """Without the variable nothing of the fixture is visible."""
    if os.environ.get(manifest.EXTRA_ENV):
        pytest.skip(f"{manifest.EXTRA_ENV} is set in this environment")
    assert "newcomer" not in core_names()
    assert "aeskit:core:newcomer" not in manifest.manifests()


def test_fusesoc_lints_it() -> None:
    res = _run(str(BIN / "fusesoc"), "--cores-root", str(HW_ROOT), "--cores-root", str(FOLDER),
               "run", "--build-root", str(OUT / "fusesoc"), "--target", "lint",
               "aeskit:core:newcomer")
    assert "%Warning" not in res.stdout + res.stderr


def test_cli_lists_it() -> None:
    table = _run(str(BIN / "aeskit"), "cores").stdout
    assert any(line.split()[:2] == ["newcomer", "ak_newcomer_core"] for line in table.splitlines())
    cores = json.loads(_run(str(BIN / "aeskit"), "cores", "--json").stdout)
    entry = next(c for c in cores if c["name"] == "newcomer")
    assert entry["manifest"] == "aeskit:core:newcomer"
    assert entry["top"] == "ak_newcomer_core"
    files = [Path(f) for f in entry["files"]]
    # the manifest's own file last, the reference core's files (its dependency) before
    assert files[-1] == FOLDER / "ak_newcomer_core.sv"
    assert files[:-1] == manifest.sources("aeskit:core:round", HW_ROOT)
    assert entry["latency"] == {"128": 10, "192": 12, "256": 14}


HARNESS_SCRIPT = textwrap.dedent("""
    import random
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    from aeskit.hw.registry import get_core
    from aeskit.harness.core import Harness
    from aeskit.vectors import block_vectors

    core = get_core("newcomer")
    checked = 0
    with Harness(core) as h:
        for ks in (128, 192, 256):
            kat = [v for v in block_vectors("ECB", key_size=ks)][:4]
            assert kat, ks
            for v in kat:
                src, exp = (v.ciphertext, v.plaintext) if v.decrypt else (v.plaintext, v.ciphertext)
                h.load_key(v.key)
                got, _ = h.run([src[i:i + 16] for i in range(0, len(src), 16)], v.decrypt)
                assert b"".join(got) == exp, (v.file, v.line)
                checked += 1
            rng = random.Random(ks)
            key = rng.randbytes(ks // 8)
            blocks = [rng.randbytes(16) for _ in range(200)]
            h.load_key(key)
            got, st = h.run(blocks, gap_pct=30, stall_pct=30, seed=ks)
            enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
            assert b"".join(got) == enc.update(b"".join(blocks)) + enc.finalize(), ks
            checked += 1
            _, st = h.run(blocks[:20])
            assert st.latency_max == core.latency[ks] and st.interval == core.interval[ks]
    print("checked", checked)
""")


def test_bulk_harness_runs_it() -> None:
    res = _run(sys.executable, "-c", HARNESS_SCRIPT)
    assert res.stdout.split() == ["checked", "15"]
    # and the every-core bulk regression collects it like any core of the registry
    coll = _run(sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                "tests/hw/cores/test_cores_bulk.py")
    assert "test_random_blocks_short[newcomer]" in coll.stdout
    assert "test_mct_first_outer_iteration[newcomer]" in coll.stdout


def test_report_measures_it() -> None:
    out = OUT / "report"
    _run(str(BIN / "aeskit"), "report", "--cores", "newcomer", "--no-synth",
         "--sections", "primitives", "--out", str(out))
    rows = json.loads((out / "report.json").read_text())["rows"]
    assert [(r["core"], r["key_size"]) for r in rows] == \
        [("newcomer", 128), ("newcomer", 192), ("newcomer", 256)]
    for r in rows:
        assert r["tests_ok"] and r["tests_total"] > 500, r
        assert r["claims_ok"], r
        assert r["lut4"] is None  # no synthesis ran
    assert "newcomer" in (out / "report.md").read_text()
