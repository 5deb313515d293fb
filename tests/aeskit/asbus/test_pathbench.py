"""aeskit.asbus.pathbench and aeskit.asbus.model.random_legal_command: the random
commands of the data-path and system benches are legal and cover what the benches
claim to cover."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from aeskit.asbus.model import (MODE_LINEAR, MODE_STATE, DamModel, beat_addresses,
                                random_legal_command)
from aeskit.asbus.pathbench import command_ports, path_aw, path_fields, random_path_command

MEM = 256


@pytest.mark.parametrize("width", [32, 64, 128])
@pytest.mark.parametrize("pre", [False, True])
@pytest.mark.parametrize("write", [False, True])
def test_random_path_commands(width: int, pre: bool, write: bool) -> None:
    rng = random.Random(width * 4 + pre * 2 + write)
    nb, per = width // 8, 128 // width
    kinds: Counter[str] = Counter()
    for _ in range(500):
        c = random_path_command(rng, width, pre, write=write, mem_bytes=MEM, mw=2)
        model = DamModel(width, mem_bytes=MEM, pitch=c.pitch)
        model.check(c.addr, c.len12)                       # legal
        assert c.n == model.beats(c.len12) == len(c.lanes)
        assert c.lanes == beat_addresses(width, c.addr, c.len12, pitch=c.pitch, read=not write)
        assert (len(c.beats), len(c.vld)) == ((c.n, c.n) if write else (0, 0))
        assert all(0 <= b < 1 << width for b in c.beats) and all(0 <= v < 1 << nb for v in c.vld)
        assert 0 <= c.master < 4
        assert not (c.cipher and c.discard)
        if not pre:
            assert c.mode == MODE_LINEAR
            if c.cipher:                                   # whole states, 16-byte aligned
                assert c.addr % 16 == 0 and c.n % per == 0
        elif c.cipher:
            assert c.mode == MODE_STATE
        f = path_fields(width, c)
        assert f["word_i"] * nb == c.addr and f["pitch_i"] * nb == c.pitch
        assert f["mode_i"] == c.mode
        kinds[c.kind] += 1
    want = {"linear", "cipher", "discard"} | ({"block", "state_bypass"} if pre else set())
    assert set(kinds) == want, kinds


def test_command_ports() -> None:
    aw = path_aw(64, MEM)
    assert aw == 5
    ports = dict((name, (d, w)) for d, name, w in command_ports(64, MEM, 3))
    assert ports["word_i"] == ("input", aw) and ports["pitch_i"] == ("input", aw)
    assert ports["master_i"] == ("input", 3) and ports["rk_i"] == ("input", 1408)


@pytest.mark.parametrize("width", [32, 64, 128])
def test_random_legal_command(width: int) -> None:
    rng = random.Random(width)
    modes: Counter[int] = Counter()
    for _ in range(2000):
        pitch = rng.choice((0, 16, 48, width // 8))
        addr, ln = random_legal_command(rng, width, MEM, pitch)
        DamModel(width, mem_bytes=MEM, pitch=pitch).check(addr, ln)
        modes[ln >> 10] += 1
    assert set(modes) == {0, 1, 2}, modes
