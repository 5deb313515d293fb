"""ak_adam (paper 000's ADAM: ASBUS DMA + AES engines + memory) on Verilator.

At 32, 64 and 128 bits:

* the paper's test cases (Sec. 6): 40 words linear, a 10 x 4-word block, 10 AES states
  (decrypted on the way in, encrypted on the way out), each written by master 0 and
  read back by master 1; memory contents (read back in bypass) and returned data
  against the model (:mod:`aeskit.asbus.model` + :mod:`aeskit.model`), measured
  cycles exactly as the cycle-accurate expectation below and beside the static model
  and the paper;
* the state-transfer byte order of Fig. 7 in bypass (bytes land at their addresses);
* random traffic: two masters contending with random modes, lengths, addresses and
  random wait states on both data phases, every result against the model in grant
  order; and the protocol errors (error answer, memory unchanged);
* MBUS registers read back;
* on a second build with a 512-byte memory (``MemBytes`` =
  :data:`aeskit.asbus.cases.STREAM_MEM_BYTES`), the cipher test in the scenario Table I
  counts (``cipher_stream``: master 1 reads 10 other states while master 0 writes, its
  REQ timed so that a bypass read's first beat would follow the write's last beat,
  which a bypass run checks; and ``cipher_duplex``: both REQ in the same cycle): data
  and memory checked, cycles exactly as expected and ``cipher_stream`` within 5 % of
  Table IV's cipher cycles.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import ClockCycles

from aeskit import BUILD_ROOT
from aeskit.asbus.bench import adam_backdoor_dump, adam_paper_cases, adam_stream_case, check_mem
from aeskit.asbus.cases import (STREAM_MEM_BYTES, STREAM_TESTS, expected_asbus_cycles,
                                expected_stream_cycles, stream_case, stream_read_delay)
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, AsbusCommand, DamModel,
                                ProtocolError, beat_addresses, encode_len)
from aeskit.asbus.bench_build import ADAM_BENCH_ARGS, ADAM_BENCH_SOURCES, stream_parameters
from aeskit.asbus.tb import AdamTB
from aeskit.busmodel import PAPER_TABLE_IV_CYCLES, WIDTHS

HERE = Path(__file__).resolve().parent
SOURCES = list(ADAM_BENCH_SOURCES)
#: cycles after the last write beat until the decrypting engine has written its last
#: plaintext (engine latency + one state, rounded up)
DRAIN_CYCLES = 64

# ----------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------
async def _tb(dut, **kw) -> AdamTB:
    tb = AdamTB(dut, **kw)
    await tb.start()
    return tb


async def _configure(tb: AdamTB, model: DamModel) -> None:
    tb.configure(model)
    await tb.mbus_idle()


async def _dump(tb: AdamTB, model: DamModel) -> list[int]:
    """All memory bytes, read through the hierarchy once the engines have drained (no
    bus transfer: the bus reads are checked by the paper cases and the random reads)."""
    await ClockCycles(tb.dut.clk_i, DRAIN_CYCLES)
    return adam_backdoor_dump(tb.dut, tb.width, model.mem_bytes)


def _check_mem(got: list[int], model: DamModel, what: str) -> None:
    check_mem(got, model, what)


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_paper_cases(dut) -> None:
    """The three Sec. 6 cases (aeskit.asbus.bench): write by master 0, read back by
    master 1, data and memory checked there; cycles exactly as expected here."""
    tb = await _tb(dut)
    width = tb.width
    results = await adam_paper_cases(tb, seed=int(os.environ.get("AK_SEED", "0")))
    for rec, write_cycles, measured in results:
        exp_write, exp_whole = expected_asbus_cycles(rec.test, width)
        assert (write_cycles, measured) == (exp_write, exp_whole), (
            f"{rec.test} {width}: measured write {write_cycles} / whole {measured} cycles, "
            f"expected {exp_write} / {exp_whole}")
        dut._log.info("%s %d-bit: measured %d (write %d), model %s, paper %d", rec.test, width,
                      measured, write_cycles, rec.model_cycles, rec.paper_cycles)
    out = os.environ.get("AK_RESULTS")
    if out:
        Path(out).write_text(json.dumps([r.as_dict() for r, _, _ in results], indent=1))


@cocotb.test()
async def cocotb_state_bypass_fig7(dut) -> None:
    """State transfers with the engines off: the write schedule puts every bus byte at
    the address Fig. 7(b) gives it, the read returns the Fig. 7(c) order."""
    tb = await _tb(dut)
    width, nb = tb.width, tb.nb
    model = DamModel(width)
    await _configure(tb, model)
    ln = encode_len(MODE_STATE, 2)
    lanes_w = beat_addresses(width, 0x20, ln)
    # each byte carries its own memory address: the schedule is visible in memory
    data = [sum((a & 0xFF) << (8 * b) for b, a in enumerate(beat)) for beat in lanes_w]
    w = tb.issue(0, AsbusCommand(True, 0x20, ln, data), len(data))
    r = tb.issue(1, AsbusCommand(False, 0x20, ln), len(data))
    await tb.drain()
    got = await _dump(tb, model)
    assert got[0x20:0x40] == list(range(0x20, 0x40)), [hex(x) for x in got[0x20:0x40]]
    lanes_r = beat_addresses(width, 0x20, ln, read=True)
    want = [sum((a & 0xFF) << (8 * b) for b, a in enumerate(beat)) for beat in lanes_r]
    assert r.rdata == want
    assert not w.error and not r.error
    # Fig. 7(c), first 64-bit beat of a state at 0: bytes s00 s11 s22 s33 s01 s12 s23 s30
    first = [(want[0] >> (8 * b)) & 0xFF for b in range(nb)]
    assert first[:4] == [0x20, 0x25, 0x2A, 0x2F]


def _random_command(rng: random.Random, width: int, mem: int, errors: bool) -> AsbusCommand:
    nb = width // 8
    mode = rng.choice((MODE_LINEAR, MODE_LINEAR, MODE_BLOCK, MODE_STATE))
    if errors and rng.random() < 0.1:
        addr = rng.choice((mem, mem + 16, rng.randrange(0, mem, 1)))
        ln = rng.choice((3 << 10 | rng.randrange(1024), encode_len(MODE_LINEAR, 1024),
                         encode_len(MODE_BLOCK, rows=64, words=16), encode_len(mode, 1)
                         if mode != MODE_BLOCK else encode_len(MODE_BLOCK, rows=2, words=2)))
    elif mode == MODE_LINEAR:
        n = rng.randint(1, 12)
        addr = nb * rng.randrange(0, mem // nb - n + 1)
        ln = encode_len(MODE_LINEAR, n)
    elif mode == MODE_BLOCK:
        rows, words = rng.randint(1, 4), rng.randint(1, 3)
        addr = nb * rng.randrange(0, (mem - 3 * 48 - words * nb) // nb)
        ln = encode_len(MODE_BLOCK, rows=rows, words=words)
    else:
        n = rng.randint(1, 3)
        addr = 16 * rng.randrange(0, mem // 16 - n + 1)
        ln = encode_len(MODE_STATE, n)
    return AsbusCommand(rng.random() < 0.5, addr, ln)


@cocotb.test()
async def cocotb_random_traffic(dut) -> None:
    """Two masters contending (each issues writes and reads), random modes, lengths,
    addresses, cipher on or off, wait states on both data phases, some protocol
    errors; every read and the final memory against the model in grant order."""
    seed = int(os.environ.get("AK_SEED", "1"))
    n_cmds = int(os.environ.get("AK_COMMANDS", "120"))
    wait = float(os.environ.get("AK_WAIT", "0.3"))
    tb = await _tb(dut, wait_prob=(wait, wait), seed=seed)
    width, nb = tb.width, tb.nb
    rng = random.Random(seed)
    for phase in range(2):
        model = DamModel(width, pitch=48, key=rng.randbytes(16), dec_en=bool(phase),
                         enc_en=bool(phase))
        await _configure(tb, model)
        # known memory first (bypass: CTRL written last by configure, so clear it)
        tb.mbus_write(0x00, 0)
        await tb.mbus_idle()
        init = [rng.getrandbits(width) for _ in range(model.mem_bytes // nb)]
        ln_all = encode_len(MODE_LINEAR, model.mem_bytes // nb)
        tb.issue(0, AsbusCommand(True, 0, ln_all, init), len(init))
        await tb.drain()
        model.dec_en = model.enc_en = False
        model.write(0, ln_all, init)
        tb.mbus_write(0x00, 3 if phase else 0)
        await tb.mbus_idle()
        model.dec_en = model.enc_en = bool(phase)
        issued = []
        for _ in range(n_cmds):
            cmd = _random_command(rng, width, model.mem_bytes, errors=True)
            if cmd.wr:
                try:
                    beats = model.beats(cmd.len12) if (cmd.len12 >> 10) != 3 else 1
                except ValueError:
                    beats = 1
                cmd.data = [rng.getrandbits(width) for _ in range(beats)]
                cmd.vld = [rng.getrandbits(nb) | (rng.random() < 0.5) * ((1 << nb) - 1)
                           for _ in range(beats)]
            beats = model.beats(cmd.len12) if (cmd.len12 >> 10) != 3 else 1
            master = rng.randrange(2)
            issued.append(tb.issue(master, cmd, beats,
                                   start_after=tb.cycle + rng.randint(0, 30)))
        await tb.drain(timeout=100000)
        # replay in grant order on the model
        n_err = 0
        for ic in sorted(issued, key=lambda x: x.gnt_cycle):
            cmd = ic.cmd
            try:
                model.check(cmd.addr, cmd.len12)
            except ProtocolError:
                assert ic.error, f"{cmd} accepted, the model refuses it"
                n_err += 1
                continue
            assert not ic.error, f"{cmd} refused, the model accepts it"
            if cmd.wr:
                model.write(cmd.addr, cmd.len12, cmd.data,
                            None if (cmd.mode == MODE_STATE and model.dec_en) else cmd.vld)
            else:
                want = model.read(cmd.addr, cmd.len12)
                assert ic.rdata == want, (f"read {cmd.addr:#x} LEN {cmd.len12:#05x}: "
                                          f"{[hex(x) for x in ic.rdata]} / "
                                          f"{[hex(x) if x is not None else None for x in want]}")
        tb.mbus_write(0x00, 0)
        await tb.mbus_idle()
        _check_mem(await _dump(tb, model), model, f"random phase {phase}")
        dut._log.info("phase %d: %d commands (%d errors), wait cycles %s, %d cycles", phase,
                      len(issued), n_err, tb.wait_cycles, tb.cycle)


ERROR_CASES = [
    # (name, addr, LEN) -- every one must be refused by the 256-byte memory
    ("linear LEN=0 (1024 beats)", 0, encode_len(MODE_LINEAR, 1024)),
    ("linear out of range", 0xF0, encode_len(MODE_LINEAR, 8)),
    ("address beyond memory", 0x100, encode_len(MODE_LINEAR, 1)),
    ("linear not beat aligned", 0x02, encode_len(MODE_LINEAR, 1)),
    ("block width field 0 (16 words) x 64 rows", 0, encode_len(MODE_BLOCK, rows=64, words=16)),
    ("block taller than memory", 0, encode_len(MODE_BLOCK, rows=20, words=1)),
    ("state not 16-byte aligned", 0x08, encode_len(MODE_STATE, 1)),
    ("state LEN=0 (1024 states)", 0, encode_len(MODE_STATE, 1024)),
    ("state out of range", 0xF0, encode_len(MODE_STATE, 2)),
    ("reserved mode 3", 0, 0xC01),
]


@cocotb.test()
async def cocotb_protocol_errors(dut) -> None:
    """Every error case, as a write and as a read, between good commands: ERR to the
    right master, no data beat, memory unchanged, ERRCNT counts them; a block whose
    width field is 0 (16 words) that fits is accepted."""
    tb = await _tb(dut)
    width, nb = tb.width, tb.nb
    model = DamModel(width, pitch=16)
    await _configure(tb, model)
    rng = random.Random(3)
    init = [rng.getrandbits(width) for _ in range(256 // nb)]
    ln_all = encode_len(MODE_LINEAR, 256 // nb)
    tb.issue(0, AsbusCommand(True, 0, ln_all, init), len(init))
    await tb.drain()
    model.write(0, ln_all, init)
    n = 0
    for name, addr, ln in ERROR_CASES:
        with pytest.raises(ProtocolError):
            model.check(addr, ln)
        for wr in (True, False):
            master = n % 2
            beats = 1
            cmd = AsbusCommand(wr, addr, ln, [rng.getrandbits(width)] if wr else [])
            good = tb.issue(1 - master, AsbusCommand(False, 0, encode_len(MODE_LINEAR, 2)), 2)
            bad = tb.issue(master, cmd, beats)
            await tb.drain()
            assert bad.error, f"{name} ({'write' if wr else 'read'}) was not refused"
            assert bad.taken == 0 and not bad.rdata
            assert not good.error and good.rdata == model.read(0, encode_len(MODE_LINEAR, 2))
            n += 1
    _check_mem(await _dump(tb, model), model, "after the error cases")
    assert all(x is not None for x in model.mem)
    tb.mbus_read(0x08)
    await tb.mbus_idle()
    assert tb.mbus_rdata[-1] == n, f"ERRCNT {tb.mbus_rdata[-1]}, expected {n}"
    # the width field 0 means 16 words: a 1-row, 16-word block fits below 256 bytes
    ln = encode_len(MODE_BLOCK, rows=1, words=16)
    if 16 * nb <= 256:
        data = [rng.getrandbits(width) for _ in range(16)]
        w = tb.issue(0, AsbusCommand(True, 0, ln, data), 16)
        await tb.drain()
        assert not w.error
        model.write(0, ln, data)
        _check_mem(await _dump(tb, model), model, "16-word block")


@cocotb.test()
async def cocotb_mbus_registers(dut) -> None:
    """CTRL and PITCH read back as written; the 44 key words are write only (they read
    0; that they are held is the cipher cases' business); unmapped reads 0."""
    tb = await _tb(dut)
    rng = random.Random(9)
    words = [rng.getrandbits(32) for _ in range(44)]
    for i, w in enumerate(words):
        tb.mbus_write(0x40 + 4 * i, w)
    tb.mbus_write(0x00, 3)
    tb.mbus_write(0x04, 0x1230)
    for i in range(44):
        tb.mbus_read(0x40 + 4 * i)
    for a in (0x00, 0x04, 0x0C, 0xF0):
        tb.mbus_read(a)
    await tb.mbus_idle()
    assert tb.mbus_rdata == [0] * 44 + [3, 0x1230, 0, 0]


async def _stream_timing_probe(tb: AdamTB) -> None:
    """``cipher_stream``'s schedule with the encrypting engine off (CTRL = DEC_EN): the
    read of the other states is a bypass read, and its first beat must come in the
    cycle right after the write's last beat (the timing rule of the stream)."""
    case = stream_case("cipher_stream", tb.width)
    model = case.model
    model.enc_en = False
    await _configure(tb, model)
    p = tb.issue(1, case.preload, model.beats(case.preload.len12))
    await tb.drain()
    model.write(case.preload.addr, case.preload.len12, case.preload.data)
    start = tb.cycle + 1
    w = tb.issue(0, case.write, model.beats(case.write.len12), start_after=start)
    r = tb.issue(1, case.read, model.beats(case.read.len12),
                 start_after=start + stream_read_delay("cipher_stream", tb.width))
    await tb.drain()
    assert not p.error and not w.error and not r.error
    assert r.rdata == model.read(case.read.addr, case.read.len12), "bypass read data"
    assert r.first_cycle == w.done_cycle + 1, (
        f"bypass read's first beat in cycle {r.first_cycle}, the write's last in "
        f"{w.done_cycle}: not back to back")
    assert r.done_cycle - r.first_cycle + 1 == r.beats, "bypass read beats not back to back"


@cocotb.test()
async def cocotb_cipher_stream(dut) -> None:
    """The stream tests (aeskit.asbus.bench.adam_stream_case: data and memory checked
    there) on the 512-byte build: cycles exactly as expected; cipher_stream within 5 %
    of Table IV's ASBUS cipher cycles."""
    tb = await _tb(dut, mem_bytes=STREAM_MEM_BYTES)
    width = tb.width
    await _stream_timing_probe(tb)
    seed = int(os.environ.get("AK_SEED", "0"))
    results = [await adam_stream_case(tb, test, seed=seed) for test in STREAM_TESTS]
    paper = PAPER_TABLE_IV_CYCLES[("cipher", "asbus")][WIDTHS.index(width)]
    for rec, write_cycles, measured in results:
        want = expected_stream_cycles(rec.test, width)
        assert (write_cycles, measured) == want, (
            f"{rec.test} {width}: measured write {write_cycles} / whole {measured} cycles, "
            f"expected {want[0]} / {want[1]}")
        dut._log.info("%s %d-bit: measured %d (write %d), model %s, paper %d (%+.1f %%)",
                      rec.test, width, measured, write_cycles, rec.model_cycles, paper,
                      100 * (measured - paper) / paper)
    stream = next(m for rec, _, m in results if rec.test == "cipher_stream")
    assert abs(stream - paper) <= 0.05 * paper, (
        f"cipher_stream {width}: {stream} cycles, not within 5 % of the paper's {paper}")
    out = os.environ.get("AK_RESULTS")
    if out:
        Path(out).write_text(json.dumps([r.as_dict() for r, _, _ in results], indent=1))


# ----------------------------------------------------------------------------------
# pytest
# ----------------------------------------------------------------------------------
#: the paper cases leave their cycle records here (docs/asbus.md quotes them)
RESULTS = BUILD_ROOT / "asbus"


def _run(width: int, tests: list[str], *, stream: bool = False, **env) -> None:
    """Run cocotb ``tests`` on the bench build at ``width`` (``stream``: the build with
    the larger memory, records to ``adam-stream-<W>.json``)."""
    from aeskit.sim.cocotb_run import run_cocotb

    RESULTS.mkdir(parents=True, exist_ok=True)
    params = stream_parameters(width) if stream else {"DataWidth": width}
    name = f"adam-stream-{width}.json" if stream else f"adam-{width}.json"
    run_cocotb(toplevel="ak_adam", sources=SOURCES, test_module="test_adam", test_dir=HERE,
               parameters=params, testcase=tests, build_args=ADAM_BENCH_ARGS,
               extra_env={"AK_RESULTS": str(RESULTS / name),
                          **{k: str(v) for k, v in env.items()}})


# 32 bits in make test; the wider builds (64, 128: 1-2 minutes each) in make test-full
@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow),
                                   pytest.param(128, marks=pytest.mark.slow)])
def test_adam(width: int) -> None:
    _run(width, ["cocotb_paper_cases", "cocotb_state_bypass_fig7", "cocotb_random_traffic",
                 "cocotb_protocol_errors", "cocotb_mbus_registers"])


# its own build (MemBytes 512, about a minute at 32 bits); 64 and 128 in make test-full
@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow),
                                   pytest.param(128, marks=pytest.mark.slow)])
def test_adam_cipher_stream(width: int) -> None:
    _run(width, ["cocotb_cipher_stream"], stream=True)


@pytest.mark.slow
@pytest.mark.parametrize("width", [32, 64, 128])
def test_adam_random_long(width: int) -> None:
    _run(width, ["cocotb_random_traffic"], AK_COMMANDS=2000, AK_SEED=width, AK_WAIT=0.5)
