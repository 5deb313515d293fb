"""The VCD toggle counter against counts made independently from the bit sequences a
test VCD was generated from (lists of bits, compared element by element)."""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import pytest

from aeskit.sim.vcd_toggles import VcdError, count_toggles

_CODES = [chr(c) for c in range(33, 127)]


@dataclass
class Net:
    code: str
    width: int
    names: list[str]           # hierarchical names (aliases share the code)
    values: list[list[str]]    # per time step: bits, MSB first ("0", "1", "x")


def _make(rng: random.Random, steps: int, four_state: bool) -> list[Net]:
    nets = []
    for i in range(12):
        w = rng.choice([1, 1, 2, 5, 8, 33, 70])
        scope = "TOP.dut" if i < 9 else "TOP.tb"
        names = [f"{scope}.n{i}"]
        if i in (2, 5):                       # an alias in another scope inside the DUT
            names.append(f"TOP.dut.sub.n{i}_alias")
        if i == 7:                            # the DUT port seen from outside: alias
            names.append(f"TOP.n{i}")
        vals = []
        cur = [rng.choice("01") for _ in range(w)]
        for _ in range(steps):
            cur = list(cur)
            for b in range(w):
                r = rng.random()
                if r < 0.3:
                    cur[b] = "1" if cur[b] == "0" else "0"
                elif four_state and r < 0.35:
                    cur[b] = "x"
                elif cur[b] == "x":
                    cur[b] = rng.choice("01")
            vals.append(cur)
        nets.append(Net(_CODES[i], w, names, vals))
    return nets


def _vcd(nets: list[Net], times: list[int], unit: str, rng: random.Random) -> str:
    """A VCD; vectors sometimes shortened (leading zeros dropped), unchanged values
    sometimes written again, one net written only when it changes."""
    out = [f"$timescale 1{unit} $end"]
    tree: dict[tuple[str, ...], list[tuple[Net, str]]] = {}
    for n in nets:
        for name in n.names:
            *path, leaf = name.split(".")
            tree.setdefault(tuple(path), []).append((n, leaf))
    for path, decls in sorted(tree.items()):
        for p in path:
            out.append(f"$scope module {p} $end")
        for n, leaf in decls:
            out.append(f"$var wire {n.width} {n.code} {leaf} $end")
        out.extend("$upscope $end" for _ in path)
    out.append("$enddefinitions $end")
    for k, t in enumerate(times):
        out.append(f"#{t}")
        if k == 0:
            out.append("$dumpvars")
        for n in nets:
            v = n.values[k]
            if k and v == n.values[k - 1] and rng.random() < 0.7:
                continue
            s = "".join(v)
            if n.width == 1:
                out.append(f"{s}{n.code}")
            else:
                short = s.lstrip("0")
                if rng.random() < 0.5 and s[0] == "0" and short[:1] in ("", "1"):
                    s = short or "0"
                out.append(f"b{s} {n.code}")
        if k == 0:
            out.append("$end")
    return "\n".join(out) + "\n"


def _expected(nets: list[Net], times: list[int], window: tuple[int, int], scope: str,
              scale: int = 1) -> int:
    total = 0
    for n in nets:
        if not any(name.startswith(scope + ".") for name in n.names):
            continue
        for k in range(1, len(times)):
            if window[0] <= times[k] * scale < window[1]:
                total += sum(1 for a, b in zip(n.values[k - 1], n.values[k]) if a != b)
    return total


@pytest.mark.parametrize("seed", range(6))
def test_counts_match_bit_sequences(seed: int) -> None:
    rng = random.Random(seed)
    steps = 60
    nets = _make(rng, steps, four_state=seed % 2 == 1)
    times = sorted(rng.sample(range(1, 5000), steps - 1))
    times = [0, *times]
    unit, scale = [("ps", 1), ("ns", 1000)][seed % 2]
    text = _vcd(nets, times, unit, rng)
    windows = [(0, times[20] * scale), (times[20] * scale, times[45] * scale),
               (times[10] * scale, times[-1] * scale + 1), (times[30] * scale, times[30] * scale)]
    got = count_toggles(io.StringIO(text), windows, scope="TOP.dut")
    want = [_expected(nets, times, w, "TOP.dut", scale) for w in windows]
    assert got.windows == want
    assert want[2] > 0 and want[3] == 0
    inside = [n for n in nets if any(x.startswith("TOP.dut.") for x in n.names)]
    assert got.nets == len(inside)
    assert got.bits == sum(n.width for n in inside)
    # no scope: every net
    everything = count_toggles(io.StringIO(text), [(0, times[-1] * scale + 1)])
    assert everything.windows == [_expected(nets, times, (0, times[-1] * scale + 1), "TOP", scale)]


def test_first_value_is_not_a_toggle_and_width_extension() -> None:
    text = ("$timescale 1ps $end\n$scope module TOP $end\n$var wire 8 ! a [7:0] $end\n"
            "$var wire 4 # b [3:0] $end\n$upscope $end\n$enddefinitions $end\n"
            "#0\n$dumpvars\nb11111111 !\nbx #\n$end\n#10\nb1 !\nb1 #\n#20\nbz1 #\n")
    got = count_toggles(io.StringIO(text), [(0, 11), (11, 100)], scope="TOP")
    # a: ff -> 01: 7 bits; b: xxxx -> 0001: 4 bits; b: 0001 -> zzz1: 3 bits
    assert got.windows == [11, 3]


@pytest.mark.parametrize("text, msg", [
    ("$timescale 1ps $end\n$enddefinitions $end\n#0\n1!\n", "undeclared"),
    ("$timescale 1ps $end\n$scope module T $end\n", "enddefinitions"),
    ("$timescale 3ps $end\n$enddefinitions $end\n", "timescale"),
    ("$timescale 1ps $end\n$var wire 1 ! a $end\n$enddefinitions $end\n#0\nq!\n", "unexpected"),
])
def test_malformed(text: str, msg: str) -> None:
    with pytest.raises(VcdError, match=msg):
        count_toggles(io.StringIO(text), [(0, 10)])


def test_bad_windows() -> None:
    with pytest.raises(ValueError, match="no windows"):
        count_toggles(io.StringIO(""), [])
    with pytest.raises(ValueError, match="ends before"):
        count_toggles(io.StringIO(""), [(5, 1)])
