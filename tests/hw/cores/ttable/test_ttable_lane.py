"""ak_ttable_lane and the unrolled core's table layout parameters, at elaboration.

The lane's behaviour (both cascades, packed and 32-bit words) is checked through the
cores that build it: ``ttable_col`` and ``ttable_round`` (default cascade, 32-bit
words), ``ttable_unrolled`` (split-key cascade, 32-bit words) and
``ttable_unrolled_256`` (split-key cascade, two packed stages), and the encrypt-only
``ttable_col_e128`` / ``ttable_round_e128`` (packed words with the last round, make
test-full), each against NIST vectors and the golden model (their own test files or
tests/hw/cores/test_cores_bulk.py). Here (Verilator lint elaborates):

* a packed lane without the split-key cascade is refused with the module's message,
  and so is a packed lane with last-round tables that are not encryption tables only;
  with encryption tables only it elaborates lint-clean;
* ``PackedStages`` outside 0 .. Nr-1 is refused, and its ends (0 and Nr-1, the packed
  pipeline) elaborate lint-clean;
* the registry's block-RAM count per key size is the DP16KD arithmetic of the
  default layout, written out by hand.
"""

from __future__ import annotations

import subprocess

import pytest

from aeskit.hw import get_core
from aeskit.hw.catalog.ttable import unrolled_ebr


def _lint(top: str, params: dict[str, int]) -> subprocess.CompletedProcess[str]:
    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.toolchain.paths import verilator

    files = get_core("ttable_unrolled").file_paths()
    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", top,
           *(f"-G{k}={v}" for k, v in params.items()), str(WAIVERS), *map(str, files)]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def test_packed_lane_needs_split_key() -> None:
    res = _lint("ak_ttable_lane", {"MidTables": 1, "LastTables": 0, "Packed": 1,
                                   "SplitKey": 0})
    out = res.stdout + res.stderr
    assert res.returncode != 0 and "Packed = 1 needs SplitKey = 1" in out, out


@pytest.mark.parametrize("enc,dec,ok", [(1, 1, False), (0, 1, False), (1, 0, True)])
def test_packed_lane_with_last_round(enc: int, dec: int, ok: bool) -> None:
    res = _lint("ak_ttable_lane", {"EncTables": enc, "DecTables": dec, "MidTables": 1,
                                   "LastTables": 1, "Packed": 1, "SplitKey": 1})
    out = res.stdout + res.stderr
    if ok:
        assert res.returncode == 0 and "%Warning" not in out, out
    else:
        assert res.returncode != 0 and "Packed with LastTables needs EncTables only" in out, out


@pytest.mark.parametrize("key_len,packed", [(0, -1), (0, 10), (2, 14)])
def test_bad_packed_stages_is_refused(key_len: int, packed: int) -> None:
    res = _lint("ak_ttable_unrolled", {"KeyLen": key_len, "PackedStages": packed})
    out = res.stdout + res.stderr
    assert res.returncode != 0 and "PackedStages must be 0 .. Nr-1" in out, out


@pytest.mark.parametrize("key_len,packed", [(0, 0), (0, 9), (2, 13)])
def test_packed_stages_ends_elaborate(key_len: int, packed: int) -> None:
    res = _lint("ak_ttable_unrolled", {"KeyLen": key_len, "PackedStages": packed})
    assert res.returncode == 0, res.stdout + res.stderr


def test_unrolled_block_ram_counts() -> None:
    # AES-128: 9 middle stages x 16 + last 8 + buffer 4; AES-192: 11 x 16 + 12;
    # AES-256: 11 x 16 + 2 packed x 8 + 12
    assert [unrolled_ebr(k) for k in (0, 1, 2)] == [156, 188, 204]
    # encrypt only: every middle stage packed, 9 x 8 + 8 + 4
    assert unrolled_ebr(0, decrypt=False) == 84
    for name, ebr in (("ttable_unrolled", 156), ("ttable_unrolled_192", 188),
                      ("ttable_unrolled_256", 204), ("ttable_unrolled_e128", 84)):
        assert f"({ebr} DP16KD)" in get_core(name).description
