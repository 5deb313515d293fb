"""Random resets and unknown initial state of ak_adam (paper 000's ADAM: ASBUS slave,
command queue, write and read data paths with the AES engines, SRAM, MBUS registers),
at 32 bits, on the build ``test_adam.py`` makes in ``make test``, driven by its AdamTB
(two ASBUS masters, the MBUS processor, memory-side wait states) and checked against
its model (:class:`aeskit.asbus.model.DamModel` with :mod:`aeskit.model`).

The SRAM is not reset (docs/asbus.md, ak_dam_mem): after a reset its contents are
what they were, and a check writes the memory before it reads it.

* ``cocotb_random_traffic`` rounds run in the background: a key, pitch and cipher
  setting over MBUS, the whole memory written in bypass, then random commands of both
  masters (linear, block and state transfers, reads and writes, some refused), with
  random wait states on both data phases, every read and the final memory against the
  model in grant order. ``rst_ni`` is asserted asynchronously
  (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at the MBUS configuration
  (the expanded key being written), the middle of a write burst, the middle of a read
  burst, a state transfer in the AES engines, and a data beat held by a wait state.
  While ``rst_ni`` is low and for the engine latency + 16 + 1..16 cycles after it: no
  GNT, no RESP, no ERR, and the SRAM does not change (no write from before the reset
  lands after it); until the next REQ no GNT, RESP or ERR at all. The MBUS registers
  read their reset values (CTRL, PITCH, ERRCNT 0; the key words are write only), and a new
  round of checked traffic is right. AK_RESETS resets (default 15), seed AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs and the SRAM before the reset (the
  seeds must give different ones); after the reset the idle state as above, the MBUS
  registers at reset, and two rounds of checked traffic (bypass, then cipher); the
  transcript (read data, refusals, cycles, the final memory) must be the same for every
  seed.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

import cocotb
import pytest

from aeskit.asbus.bench import adam_backdoor_dump
from aeskit.asbus.model import (MODE_LINEAR, MODE_STATE, AsbusCommand, DamModel, ProtocolError,
                                encode_len)
from aeskit.verif import sysreset as sr

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import test_adam as bench  # noqa: E402  ADAM's bench: random commands, the build

WIDTH = 32
PHASES = ("configuration", "write burst", "read burst", "cipher", "wait state")
#: the AES engine latency at 32 bits (docs/asbus.md: 47 cycles), rounded up
ENGINE = 48
MBUS_INPUTS = ("s_mbus_sel", "s_mbus_wr", "s_mbus_addr", "s_mbus_wdata")
INPUTS = ("s_asbus_req", "s_asbus_addr", "s_asbus_wr", "s_asbus_len", "s_asbus_wd_vld",
          "s_asbus_wdata", *MBUS_INPUTS, "wait_i")
QUIET_SIGNALS = {"s_asbus_gnt": 0, "s_asbus_resp": 0, "s_asbus_err": 0}


def _flush(tb) -> None:
    """At a reset: the masters forget every command, the processor its accesses, and
    every input goes low (the ASBUS masters and the MBUS processor are reset too)."""
    for ms in tb.m:
        ms.pending.clear()
        ms.writes.clear()
        ms.reads.clear()
        ms.current = None
        ms.gnt_seen = False
    tb.mbus_q.clear()
    tb._mbus_reads.clear()
    for name in INPUTS:
        tb._drive(name, 0)


async def _checked(tb, rng: random.Random, n_cmds: int, cipher: bool, what: str,
                   shared: dict, log: sr.Transcript | None = None) -> None:
    """One round of test_adam's random traffic: configure, write the whole memory in
    bypass, then ``n_cmds`` random commands of both masters; every result and the
    final memory against the model in grant order."""
    width, nb = tb.width, tb.nb
    model = DamModel(width, pitch=48, key=rng.randbytes(16), dec_en=cipher, enc_en=cipher)
    shared["cipher"] = False
    await bench._configure(tb, model)
    tb.mbus_write(0x00, 0)
    await tb.mbus_idle()
    init = [rng.getrandbits(width) for _ in range(model.mem_bytes // nb)]
    ln_all = encode_len(MODE_LINEAR, model.mem_bytes // nb)
    tb.issue(0, AsbusCommand(True, 0, ln_all, init), len(init))
    await tb.drain()
    model.dec_en = model.enc_en = False
    model.write(0, ln_all, init)
    tb.mbus_write(0x00, 3 if cipher else 0)
    await tb.mbus_idle()
    shared["cipher"] = cipher
    model.dec_en = model.enc_en = cipher
    issued = shared["issued"] = []
    for _ in range(n_cmds):
        cmd = bench._random_command(rng, width, model.mem_bytes, errors=True)
        if cmd.wr:
            try:
                beats = model.beats(cmd.len12) if (cmd.len12 >> 10) != 3 else 1
            except ValueError:
                beats = 1
            cmd.data = [rng.getrandbits(width) for _ in range(beats)]
            cmd.vld = [rng.getrandbits(nb) | (rng.random() < 0.5) * ((1 << nb) - 1)
                       for _ in range(beats)]
        beats = model.beats(cmd.len12) if (cmd.len12 >> 10) != 3 else 1
        issued.append(tb.issue(rng.randrange(2), cmd, beats,
                               start_after=tb.cycle + rng.randint(0, 30)))
    await tb.drain(timeout=100000)
    for ic in sorted(issued, key=lambda x: x.gnt_cycle):
        cmd = ic.cmd
        try:
            model.check(cmd.addr, cmd.len12)
        except ProtocolError:
            assert ic.error, f"{what}: {cmd} accepted, the model refuses it"
            continue
        assert not ic.error, f"{what}: {cmd} refused, the model accepts it"
        if cmd.wr:
            model.write(cmd.addr, cmd.len12, cmd.data,
                        None if (cmd.mode == MODE_STATE and model.dec_en) else cmd.vld)
        else:
            want = model.read(cmd.addr, cmd.len12)
            assert ic.rdata == want, (f"{what}: read {cmd.addr:#x} LEN {cmd.len12:#05x}: "
                                      f"{[hex(x) for x in ic.rdata]} / "
                                      f"{[hex(x) if x is not None else None for x in want]}")
        if log is not None:
            log.add(int(cmd.wr), hex(cmd.addr), hex(cmd.len12), int(ic.error), ic.gnt_cycle,
                    ic.done_cycle, " ".join(f"{x:x}" for x in ic.rdata))
    tb.mbus_write(0x00, 0)
    await tb.mbus_idle()
    shared["cipher"] = False
    mem = await bench._dump(tb, model)
    bench._check_mem(mem, model, what)
    if log is not None:
        log.add("memory", bytes(mem).hex())


async def _traffic(tb, rng: random.Random, shared: dict) -> None:
    while True:
        await _checked(tb, rng, rng.randint(5, 15), rng.random() < 0.6, "before the reset",
                       shared)


async def _check_mbus(tb, what: str, log: sr.Transcript | None = None) -> None:
    """CTRL, PITCH and ERRCNT read 0 after a reset. The 44 key words are write only
    (they always read 0), so a read of them would say nothing about their reset."""
    accs = [tb.mbus_read(a) for a in (0x00, 0x04, 0x08)]
    await tb.mbus_idle()
    bad = [(hex(a.addr), hex(a.rdata)) for a in accs if a.rdata != 0]
    assert not bad, f"{what}: MBUS registers not at reset (address, value): {bad}"
    if log is not None:
        log.add("mbus", *(a.rdata for a in accs))


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig in QUIET_SIGNALS:
            assert sr.sample(dut, sig) == 0, f"{what}: {sig} {sr.when(i)}"
    return check


async def _quiet(tb, rng: random.Random, what: str) -> None:
    """No GNT/RESP/ERR and an unchanged SRAM for the engine latency + 16 + 1..16 cycles."""
    before = adam_backdoor_dump(tb.dut, tb.width)
    await sr.expect_quiet(tb.dut, ENGINE + 16 + rng.randint(1, 16), QUIET_SIGNALS, what)
    after = adam_backdoor_dump(tb.dut, tb.width)
    changed = [a for a, (x, y) in enumerate(zip(before, after)) if x != y]
    assert not changed, f"{what}: the SRAM changed after the reset at {changed[:8]}"
    assert not tb.errors, f"{what}: {tb.errors}"


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    from aeskit.asbus.tb import AdamTB

    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 15)
    rng = random.Random(seed)
    tb = AdamTB(dut, wait_prob=(0.3, 0.3), seed=seed)
    await tb.start()
    shared: dict = {"issued": [], "cipher": False}

    def in_engine() -> bool:
        return shared["cipher"] and any(
            ic.cmd.mode == MODE_STATE and ic.gnt_cycle is not None and not ic.error
            and (ic.done_cycle is None or tb.cycle - ic.done_cycle < ENGINE // 2)
            for ic in shared["issued"])

    predicates = {
        "configuration": lambda: bool(tb.mbus_q),
        "write burst": lambda: any(ms.writes and ms.writes[0].taken > 0 for ms in tb.m),
        "read burst": lambda: any(ms.reads and ms.reads[0].rdata for ms in tb.m),
        "cipher": in_engine,
        "wait state": lambda: bool((tb._driven["wait_i"] & 1
                                    and any(ms.reads for ms in tb.m))
                                   or (tb._driven["wait_i"] & 2
                                       and any(ms.writes for ms in tb.m))),
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        what = f"seed {seed}, reset {i + 1} ({phase})"
        task = cocotb.start_soon(_traffic(tb, rng, shared))

        def before(task=task) -> None:
            sr.cancel(task)
            _flush(tb)
            shared["issued"], shared["cipher"] = [], False

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 200),
                            limit=50_000, what=what, before=before,
                            during=_in_reset(dut, what))
        guard = sr.Guard(dut, tuple(QUIET_SIGNALS), lambda: bool(int(dut.s_asbus_req.value)),
                         what)
        await _quiet(tb, rng, what)
        await _check_mbus(tb, what)
        await _checked(tb, rng, rng.randint(8, 16), rng.random() < 0.6, f"{what}, after",
                       shared)
        guard.check()
    dut._log.info("%d resets, %d cycles, wait cycles %s", resets, tb.cycle, tb.wait_cycles)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    from aeskit.asbus.tb import AdamTB

    seed = sr.env_int("AK_SEED", 1)
    tb = AdamTB(dut, wait_prob=(0.3, 0.3), seed=sr.TRAFFIC_SEED)
    text = await sr.initial_snapshot(
        dut, dict.fromkeys(INPUTS, 0),
        ("s_asbus_gnt", "s_asbus_rdata", "s_asbus_resp", "s_asbus_err", "s_mbus_rdata"), seed)
    sram = hashlib.sha256(bytes(adam_backdoor_dump(dut, tb.width))).hexdigest()[:16]
    Path(sr.INITIAL_FILE).write_text(f"seed {seed}\n{text} sram={sram}\n")
    await tb.start()
    what = f"+verilator+seed+{seed}"
    await _quiet(tb, random.Random(0), what)
    log = sr.Transcript(seed)
    await _check_mbus(tb, what, log)
    rng = random.Random(sr.TRAFFIC_SEED)
    shared: dict = {"issued": [], "cipher": False}
    for cipher in (False, True):
        await _checked(tb, rng, 30, cipher, what, shared, log)
    log.add("cycles", tb.cycle)
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit.sim.cocotb_run import run_cocotb

    # exactly test_adam.py's build at 32 bits
    return run_cocotb(toplevel="ak_adam", sources=bench.SOURCES,
                      test_module=Path(__file__).stem, test_dir=HERE,
                      parameters={"DataWidth": WIDTH}, testcase=testcase,
                      build_args=bench.ADAM_BENCH_ARGS, seed=seed,
                      extra_env={"AK_SEED": seed, **(env or {})})


def test_adam_random_resets() -> None:
    """15 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_adam_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_adam_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the MBUS registers'
    reset values and the model's results after it, identical transcripts."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_adam at 32 bits")
