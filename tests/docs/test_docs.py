"""Every hex value in docs/core-contract.md's worked example is checked against OpenSSL,
and the port-level packing it describes is what the harness drives."""

from __future__ import annotations

import re

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit import REPO_ROOT
from aeskit.hw import get_core
from aeskit.harness.core import Harness

DOC = REPO_ROOT / "docs" / "core-contract.md"
ROW = re.compile(r"^\| C\.(\d) AES-(\d+) \| (\d) \| `([0-9a-f_]+)` \| `([0-9a-f_]+)` \|$", re.M)


def _rows() -> list[tuple[int, int, bytes, bytes]]:
    rows = []
    for m in ROW.finditer(DOC.read_text()):
        ks, code = int(m.group(2)), int(m.group(3))
        key_port = bytes.fromhex(m.group(4).replace("_", ""))
        out = bytes.fromhex(m.group(5).replace("_", ""))
        rows.append((ks, code, key_port, out))
    return rows


def test_worked_example_matches_openssl() -> None:
    rows = _rows()
    assert [r[0] for r in rows] == [128, 192, 256]
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    for ks, code, key_port, out in rows:
        assert code == {128: 0, 192: 1, 256: 2}[ks]
        assert len(key_port) == 32
        key = key_port[: ks // 8]
        assert key_port[ks // 8:] == bytes(32 - ks // 8), "unused key bits documented as zero"
        enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
        assert enc.update(pt) + enc.finalize() == out


def test_worked_example_on_round_core() -> None:
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    with Harness(get_core("round")) as h:
        for ks, _code, key_port, out in _rows():
            h.load_key(key_port[: ks // 8])
            got, _ = h.run([pt])
            assert got == [out]
            back, _ = h.run(got, decrypt=True)
            assert back == [pt]


def test_docs_links_exist() -> None:
    for md in [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#:]+)\)", md.read_text()):
            assert (md.parent / target).exists(), f"{md.name}: broken link {target}"


def test_timing_diagrams_rendered() -> None:
    from aeskit.gen.timing import TIMING_DIR, render_timing

    assert list(TIMING_DIR.glob("*.json")), "no timing diagrams"
    stale = render_timing(check=True)
    assert not stale, f"run `make docs`: stale or missing SVG for {[p.name for p in stale]}"
