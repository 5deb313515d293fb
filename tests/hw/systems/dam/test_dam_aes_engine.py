"""ak_dam_aes_engine (paper 000's word-serial, fully pipelined AES-128 engine) on Verilator.

Random 128-bit keys (expanded by the golden model onto ``rk_i``, round key k in
``[128k +: 128]``, byte 4c + r in bits ``[8(4c+r) +: 8]``) and random states go
through the engine with random gaps between and inside states and random ``en_i``
stalls; every output beat is compared with :mod:`aeskit.model` (FIPS-197 C.1 is the
first state of every run). The input beats are built from the documented order, with
:func:`aeskit.asbus.model.beat_addresses` as the reference of the Fig. 7 schedule
(``PreScheduled = 1``: encryption in ShiftRows order, the read schedule; decryption in
InvShiftRows order, the write schedule; ``PreScheduled = 0``: natural column order);
output beats in natural order. Checked every cycle:

* each state's B = 128/W output beats in order, ``out_beat_o`` = beat index,
  ``out_tag_o`` = the tag given with the state's first beat, data = AES-128
  encryption (``Decrypt = 0``) or decryption (``Decrypt = 1``) of the input state;
* latency, exactly, as the RTL header documents it: at full rate (``en_i`` high, no
  gaps) beat j of a state is on ``out_valid_o`` ``10(B+1) - B + 1 + j`` cycles after
  the state's first beat entered (47 / 29 / 20 at W = 32 / 64 / 128) with
  ``PreScheduled = 1``; with ``PreScheduled = 0`` the engine collects the state
  first, ``B`` cycles more (docs/asbus.md: "round 1 starts B cycles later",
  51 / 31 / 21; the RTL header's "B - 1 more" disagrees, see the test below), and a
  new state every B cycles (one output beat per cycle, no gap);
* with gaps and stalls: counted in enabled cycles (``en_i`` high) from the state's
  *last* input beat, beat j leaves after ``8B + 12 + j`` (``PreScheduled = 1``) or
  ``9B + 12 + j`` (``0``) enabled cycles (the full-rate numbers minus the ``B - 1``
  cycles of the state's own beats; derived from the RTL structure: round 1 completes
  on the last beat, every later round takes B + 1 cycles, then substage 2 and the
  output register);
* ``en_i`` low freezes everything: all outputs hold their values in a stalled cycle;
* ``busy_o`` exactly while a state is inside: from the cycle after its first beat
  entered through the cycle of its last output beat;
* after reset ``out_valid_o`` and ``busy_o`` are low; ``in_data_i`` / ``in_tag_i``
  carry random garbage whenever ``in_valid_i`` is low.

Variants. The module has W (32/64/128), Decrypt (0/1) and PreScheduled (0/1): 12
engines, one C++ model each at 10-20 s of compiler time apiece on the 2-core machine
(the W = 128 ones the dearest), more than the budget of ``make test`` allows.
``test_dam_aes_engine`` builds four of them in one Verilator build (a generated
wrapper top with one instance per parameter set, driven concurrently): every width,
both directions and both schedules, every (Decrypt, PreScheduled) pair -- (32, enc,
pre-scheduled), (32, dec, natural), (64, enc, natural), (128, dec, pre-scheduled);
``test_dam_aes_engine_rest`` (slow, ``make test-full``) the other eight.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.asbus.model import MODE_STATE, beat_addresses, encode_len
from aeskit.model import AES, expand_key
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_dam_aes_engine")
TAGW = 8
#: (W, Decrypt, PreScheduled) of ``make test``: every width, both directions, both
#: schedules (ADAM's engines are pre-scheduled, XDAM's not), every (Decrypt,
#: PreScheduled) pair, the W = 128 engine (the dearest build) once
VARIANTS = [(32, 0, 1), (32, 1, 0), (64, 0, 0), (128, 1, 1)]
REST = [(w, d, p) for w in (32, 64, 128) for d in (0, 1) for p in (0, 1)
        if (w, d, p) not in VARIANTS]
FIPS_KEY = bytes(range(16))
FIPS_PT = bytes.fromhex("00112233445566778899aabbccddeeff")
FIPS_CT = bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")


# ----------------------------------------------------------------------------------
# generated wrapper: one instance per parameter set in one build
# ----------------------------------------------------------------------------------
def _ports(w: int) -> list[tuple[str, str, int]]:
    return [("input", "en_i", 1), ("input", "rk_i", 1408), ("input", "in_valid_i", 1),
            ("input", "in_data_i", w), ("input", "in_tag_i", TAGW),
            ("output", "out_valid_o", 1), ("output", "out_data_o", w),
            ("output", "out_tag_o", TAGW), ("output", "out_beat_o", 2),
            ("output", "busy_o", 1)]


def _prefix(v: tuple[int, int, int]) -> str:
    return f"e{v[0]}{'d' if v[1] else 'e'}{v[2]}_"


def _wrapper(name: str, variants: list[tuple[int, int, int]]) -> list[Path]:
    """The wrapper top and its Verilator configuration (only the wrapper's ports
    public, so the engines stay optimisable)."""
    return write_wrapper(
        name, "ak_dam_aes_engine",
        [Instance(_prefix(v), {"DataWidth": v[0], "Decrypt": v[1], "PreScheduled": v[2],
                               "TagWidth": TAGW}, _ports(v[0])) for v in variants],
        generator="tests/hw/systems/dam/test_dam_aes_engine.py", public_ports_only=True)


def _variants() -> list[tuple[int, int, int]]:
    return [tuple(int(x) for x in v.split(",")) for v in os.environ["AK_VARIANTS"].split(";")]


# ----------------------------------------------------------------------------------
# reference
# ----------------------------------------------------------------------------------
def _rk_value(key: bytes) -> int:
    """rk_i: round key k in [128k +: 128], byte i of the round key in [8i +: 8]."""
    return int.from_bytes(b"".join(expand_key(key)), "little")


def _in_beats(v: tuple[int, int, int], state: bytes) -> list[int]:
    """The input beats of a state in the order the engine variant expects."""
    w, dec, pre = v
    nb = w // 8
    if pre:
        order = beat_addresses(w, 0, encode_len(MODE_STATE, 1), read=not dec)
    else:
        order = [[j * nb + b for b in range(nb)] for j in range(128 // w)]
    return [sum(state[a] << (8 * b) for b, a in enumerate(beat)) for beat in order]


def _out_beats(v: tuple[int, int, int], key: bytes, state: bytes) -> list[int]:
    w, dec, _ = v
    nb = w // 8
    res = AES(key).decrypt(state) if dec else AES(key).encrypt(state)
    return [int.from_bytes(res[j * nb:(j + 1) * nb], "little") for j in range(128 // w)]


def full_rate_latency(v: tuple[int, int, int]) -> int:
    """First input beat to first output beat at full rate, as documented: 10(B+1)-B+1
    with PreScheduled = 1 (47/29/20), B more with PreScheduled = 0 (docs/asbus.md)."""
    b = 128 // v[0]
    return 10 * (b + 1) - b + 1 + (0 if v[2] else b)


def last_beat_latency(v: tuple[int, int, int]) -> int:
    """Enabled cycles from a state's last input beat to its first output beat."""
    b = 128 // v[0]
    return full_rate_latency(v) - (b - 1)


# ----------------------------------------------------------------------------------
# bench
# ----------------------------------------------------------------------------------
async def _drive(dut, inst: Prefixed, v: tuple[int, int, int], states: list[tuple[bytes, bytes]],
                 p_en: float, p_gap: float, p_idle: float, seed: int) -> list[int]:
    """Push ``states`` ((key, state) pairs; the key changes only with the engine empty)
    through the instance; check every cycle; return the cycles of the first output
    beat of every state minus the cycle of its first input beat.

    One loop turn per cycle: at the falling edge after edge ``e`` the outputs show the
    registers after the ``ecnt`` enabled edges so far; an output beat is due exactly
    when ``ecnt`` equals its target.
    """
    w = v[0]
    nb, nbeats = w // 8, 128 // w
    rng = random.Random(seed)
    lat_last = last_beat_latency(v)
    due: dict[int, tuple[int, int, int, int]] = {}   # target ecnt -> (state, j, data, tag)
    first_in: dict[int, int] = {}                   # state -> cycle of its first beat
    first_out: dict[int, int] = {}
    inside: list[tuple[int, int]] = []              # (ecnt after first beat, last target)
    got = 0
    nxt_state, nxt_beat = 0, 0
    beats: list[int] = []
    tag = 0
    key: bytes | None = None
    ecnt, cycle = 0, 0
    prev: tuple | None = None
    stalled = False
    total = len(states) * nbeats
    while got < total:
        await FallingEdge(dut.clk_i)
        cycle += 1
        out = (int(inst.out_valid_o.value), int(inst.out_data_o.value),
               int(inst.out_tag_o.value), int(inst.out_beat_o.value), int(inst.busy_o.value))
        where = f"{v} cycle {cycle} (enabled edges {ecnt})"
        if stalled:
            assert out == prev, f"{where}: outputs changed in a stalled cycle {prev} -> {out}"
        want = due.get(ecnt)
        assert out[0] == int(want is not None), (
            f"{where}: out_valid_o {out[0]}, expected {int(want is not None)}"
            + (f" (state {want[0]} beat {want[1]})" if want else ""))
        if want is not None:
            s, j, data, wtag = want
            assert out[1] == data, (f"{where}: state {s} beat {j}: out {out[1]:#0{nb * 2 + 2}x},"
                                    f" expected {data:#0{nb * 2 + 2}x}")
            assert out[3] == j, f"{where}: out_beat_o {out[3]}, expected {j}"
            assert out[2] == wtag, f"{where}: out_tag_o {out[2]:#x}, expected {wtag:#x}"
            if not stalled:
                got += 1
                first_out.setdefault(s, cycle)
        busy = any(a <= ecnt <= z for a, z in inside)
        assert out[4] == int(busy), f"{where}: busy_o {out[4]}, expected {int(busy)}"
        prev = out
        # inputs for the next edge
        en = rng.random() < p_en
        valid = False
        if nxt_state < len(states) and en:
            k, st = states[nxt_state]
            if nxt_beat == 0 and k != key and (inside and ecnt <= max(z for _, z in inside)):
                pass                    # a new key waits until the engine is empty
            elif rng.random() >= (p_gap if nxt_beat else p_idle):
                if nxt_beat == 0:
                    if k != key:
                        key = k
                        inst.rk_i.value = _rk_value(k)
                    beats = _in_beats(v, st)
                    tag = rng.getrandbits(TAGW)
                    first_in[nxt_state] = cycle
                    inside.append((ecnt + 1, 1 << 60))
                valid = True
                inst.in_data_i.value = beats[nxt_beat]
                inst.in_tag_i.value = tag if nxt_beat == 0 else rng.getrandbits(TAGW)
                if nxt_beat == nbeats - 1:
                    # the state's last beat: its output beats are due
                    for j, data in enumerate(_out_beats(v, k, st)):
                        assert ecnt + lat_last + j not in due, f"{where}: two beats due at once"
                        due[ecnt + lat_last + j] = (nxt_state, j, data, tag)
                    inside[-1] = (inside[-1][0], ecnt + lat_last + nbeats - 1)
                    nxt_state, nxt_beat = nxt_state + 1, 0
                else:
                    nxt_beat += 1
        if not valid:
            inst.in_data_i.value = rng.getrandbits(w)       # must be ignored
            inst.in_tag_i.value = rng.getrandbits(TAGW)
        inst.in_valid_i.value = int(valid)
        inst.en_i.value = int(en)
        stalled = not en
        if en:
            ecnt += 1
        assert cycle < 100 * total + 1000, f"{v}: no progress"
    # drained: nothing more comes out, busy_o falls after the last beat
    inst.in_valid_i.value = 0
    inst.en_i.value = 1
    for _ in range(3):
        await FallingEdge(dut.clk_i)
        assert int(inst.out_valid_o.value) == 0, f"{v}: a beat more than expected"
        assert int(inst.busy_o.value) == 0, f"{v}: busy_o after the last output beat"
    return [first_out[s] - first_in[s] for s in sorted(first_in)]


async def _reset(dut, insts) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    for inst in insts:
        inst.en_i.value = 1
        inst.in_valid_i.value = 0
        inst.in_data_i.value = 0
        inst.in_tag_i.value = 0
        inst.rk_i.value = 0
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    for inst in insts:
        assert int(inst.out_valid_o.value) == 0 and int(inst.busy_o.value) == 0
    dut.rst_ni.value = 1


def _states(rng: random.Random, n: int, keys: int) -> list[tuple[bytes, bytes]]:
    out = [(FIPS_KEY, FIPS_PT)]
    ks = [rng.randbytes(16) for _ in range(keys)]
    for i in range(n):
        out.append((ks[i * keys // n], rng.randbytes(16)))
    return out


@cocotb.test()
async def cocotb_full_rate(dut) -> None:
    """en_i high, states back to back: the documented latency exactly for every state,
    one output beat per cycle; the FIPS-197 C.1 vector first (encryption: C.1's
    ciphertext out; decryption: C.1's ciphertext in, its plaintext out)."""
    variants = _variants()
    insts = [Prefixed(dut, _prefix(v)) for v in variants]
    await _reset(dut, insts)
    rng = random.Random(7)
    tasks = []
    for v, inst in zip(variants, insts):
        sts = [(FIPS_KEY, FIPS_CT if v[1] else FIPS_PT)]
        sts += [(FIPS_KEY, rng.randbytes(16)) for _ in range(24)]
        tasks.append(cocotb.start_soon(_drive(dut, inst, v, sts, 1.0, 0.0, 0.0, seed=1)))
    for v, task in zip(variants, tasks):
        lats = await task
        assert set(lats) == {full_rate_latency(v)}, f"{v}: first-beat latencies {sorted(set(lats))}"
    assert _out_beats((128, 0, 0), FIPS_KEY, FIPS_PT) == [int.from_bytes(FIPS_CT, "little")]


@cocotb.test()
async def cocotb_random(dut) -> None:
    """Random keys (changed with the engine empty), random states, random gaps inside
    and between states, en_i low 25 % of the cycles."""
    variants = _variants()
    insts = [Prefixed(dut, _prefix(v)) for v in variants]
    await _reset(dut, insts)
    n = int(os.environ.get("AK_STATES", "150"))
    seed = int(os.environ.get("AK_SEED", "1"))
    tasks = []
    for i, (v, inst) in enumerate(zip(variants, insts)):
        rng = random.Random(seed * 100 + i)
        sts = _states(rng, n, 4)
        tasks.append(cocotb.start_soon(_drive(dut, inst, v, sts, 0.75, 0.2, 0.4,
                                              seed=seed * 100 + i + 50)))
    for task in tasks:
        await task


def _run(name: str, variants: list[tuple[int, int, int]], **env) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    vlt, sv = _wrapper(name, variants)
    run_cocotb(toplevel=name, sources=[vlt, *SOURCES, sv], test_module="test_dam_aes_engine",
               test_dir=HERE, parameters={},
               build_args=("--no-public-flat-rw", "-CFLAGS", "-O0"),
               extra_env={"AK_VARIANTS": ";".join(",".join(map(str, v)) for v in variants),
                          **env})


def test_dam_aes_engine() -> None:
    _run("ak_dam_aes_engine_tb", VARIANTS)


@pytest.mark.slow
def test_dam_aes_engine_rest() -> None:
    _run("ak_dam_aes_engine_tb_rest", REST, AK_STATES=400, AK_SEED=2)


def test_latency_numbers() -> None:
    """The full-rate numbers of the docs: 47 / 29 / 20 (ASBUS, pre-scheduled) and
    51 / 31 / 21 (AXI, B more)."""
    assert [full_rate_latency((w, 0, 1)) for w in (32, 64, 128)] == [47, 29, 20]
    assert [full_rate_latency((w, 1, 0)) for w in (32, 64, 128)] == [51, 31, 21]


@pytest.mark.parametrize("param,value", [("DataWidth", 48), ("TagWidth", 0)])
def test_bad_parameter_is_refused(param: str, value: int) -> None:
    from aeskit.sim.lint import refused

    out = refused("ak_dam_aes_engine", SOURCES, {param: value})
    assert f"{param}={value}" in out, out
