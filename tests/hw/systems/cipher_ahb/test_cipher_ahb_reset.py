"""Random resets and unknown initial state of ak_cipher_ahb (AHB-Lite, registers,
FIFOs, mode engine, pipe2), on the build ``test_cipher_ahb.py`` makes in ``make test``
(bench top tb_cipher_ahb, FifoDepth 2, WaitLimit 96), driven by its Bench (the software
sequence of docs/cipher_ahb.md through cocotbext-ahb, random IDLE/BUSY cycles and
dummy-slave wait states) and checked against ``cryptography``.

* ``cocotb_random_resets``: the software runs random messages in the background (a new
  key of a random size, then 1..3 rounds of one message on stream 0 or, with
  INTERLEAVE, one on each stream; every mode and direction, random lengths, CCM
  decryptions with their tags; the reader lags behind at random, so the FIFOs and the
  engine fill up; or one message with each result read right after its block, so the
  reads wait in FIFO wait states). ``rst_ni`` is asserted asynchronously
  (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at a key setup (REKEY pending
  or the core expanding), a block entering the core, an output held back (engine output
  waiting for a full FIFO, or a full output FIFO), a bus transfer in its data phase,
  and a transfer held by FIFO wait states. While ``rst_ni`` is low and for the longest
  latency + 1..16 cycles after: no interrupt, HREADY high and OKAY, no engine output,
  nothing readable, nothing to the core. Then every readable register reads its reset
  value through the bus (STATUS: only IN_FREE0/1), every third time a read of DATA_OUT
  ends in an ERROR response (nothing readable; ERROR.BUS_ERROR is cleared again), and
  a new key and the next message(s) give `cryptography`'s results. AK_RESETS resets
  (default 15), seed AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs and the glue's state before the reset
  (the seeds must give different ones); after the reset the idle state as above, the
  registers at reset, and every mode in both directions (the key size rotating, the
  last pair on two streams) right; the transcript must be the same for every seed.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.utils import get_sim_time

from aeskit.verif import sysreset as sr

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import test_cipher_ahb as bench  # noqa: E402  the cipher's bench: Bench, expected()

PHASES = ("key setup", "blocks in flight", "output held", "bus transfer", "wait states")
#: pipe2's longest latency and shortest key setup (cycles)
LATENCY = 28
SETUP = 11
#: registers software can read, in map order (KEY, DATA_IN: write only; DATA_OUT: FIFO)
READABLE = ("CTRL", "CCM", "AAD_LEN", "MSG_LEN", "STATUS", "ERROR", "INTR_STATE",
            "INTR_ENABLE", "IV0", "IV1", "IV2", "IV3")
#: STATUS after a reset: idle, nothing done, both input FIFOs free
RESET_STATUS = {"STATUS.IN_FREE0": 1, "STATUS.IN_FREE1": 1}


def _message(b, rng: random.Random, key: bytes, mode: str, dec: bool) -> dict:
    return bench.random_message(rng, key, mode, dec,
                                bench.FIFO_DEPTH if mode == "ccm" and dec
                                else bench.FIFO_DEPTH + 3)


async def _run_checked(b, msgs: list[tuple[int, dict]], lag: float, what: str) -> list:
    res = await b.run(msgs, lag=lag)
    for (got, ok), (s, m) in zip(res, msgs):
        want, want_pass = bench.expected(m)
        tag = f"{what}: stream {s} {m['mode']} {'dec' if m['dec'] else 'enc'} " \
              f"AES-{8 * len(m['key'])} len {len(m['data'])}"
        assert ok == want_pass, f"{tag}: pass {ok}, expected {want_pass}"
        assert got == want, f"{tag}: got {[g.hex() for g in got]}, expected " \
                            f"{[w.hex() for w in want]}"
    return res


async def _lockstep(b, rng: random.Random, key: bytes) -> None:
    """One message (not CCM) on stream 0, each result read right after its block is
    written, without polling STATUS: the first DATA_OUT read waits (FIFO wait states)
    until the engine has the block's result."""
    m = _message(b, rng, key, rng.choice(("ecb", "cbc", "ctr", "cfb", "ofb")),
                 rng.random() < 0.5)
    await b.load_cmd(m, 0)
    got = []
    for beat in bench.in_beats(m):
        await b.write_block(0, beat)
        got.append(await b.read_block(0))
    for _ in range(100):
        if b.has(await b.status(), "STATUS.DONE0"):
            break
    else:
        raise AssertionError("lockstep message: DONE0 never set")
    assert got == bench.expected(m)[0], f"lockstep {m['mode']} dec={m['dec']}"


async def _traffic(b, rng: random.Random) -> None:
    """The software, forever: a key, then 1..3 rounds of one or two messages, or of one
    message in lockstep (:func:`_lockstep`)."""
    while True:
        ileave = rng.random() < 0.5
        key = rng.randbytes(rng.choice((16, 24, 32)))
        await b.load_key(key, b.f("CTRL.INTERLEAVE") if ileave else 0)
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.3:
                await _lockstep(b, rng, key)
                continue
            msgs = [(0, _message(b, rng, key, rng.choice(list(bench.MODE_CODE)),
                                 rng.random() < 0.5))]
            if ileave and rng.random() < 0.7:
                msgs.append((1, _message(b, rng, key, rng.choice(list(bench.MODE_CODE)),
                                         rng.random() < 0.5)))
            await _run_checked(b, msgs, rng.choice((0.3, 0.95)), "before the reset")


def _idle() -> dict[str, int]:
    """ak_cipher_ahb as after a reset, with no bus transfer: no interrupt, the bus ready,
    nothing from the engine, nothing readable, nothing to the core."""
    return {"irq_o": 0, "ahb_hready": 1, "ahb_hresp": 0, "u_dut.e_out_valid": 0,
            "u_dut.out_avail": 0, "u_dut.ci_valid": 0, "u_dut.k_valid": 0}


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig, want in (("irq_o", 0), ("ahb_hresp", 0), ("u_dut.e_out_valid", 0),
                          ("u_dut.out_avail", 0), ("u_dut.s_ahb_hreadyout", 1)):
            assert sr.sample(dut, sig) == want, f"{what}: {sig} {sr.when(i)}"
    return check


async def _check_registers(b, reset: dict[str, int], what: str,
                           log: sr.Transcript | None = None) -> None:
    for reg in READABLE:
        _, v = await b.read(reg)
        assert v == reset[reg], f"{what}: {reg} = {v:#x} after the reset, expected " \
                                f"{reset[reg]:#x}"
        if log is not None:
            log.add(reg, hex(v))


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 15)
    rng = random.Random(seed)
    reset = sr.rdl_reset_reads(bench.RDL, RESET_STATUS)
    b = bench.Bench(dut, seed)
    await b.start()
    u = dut.u_dut
    keyed = sr.Since(dut, lambda: bool(int(u.k_valid.value) and int(u.k_ready.value)))
    predicates = {
        "key setup": lambda: bool(int(u.key_pend_q.value)) or keyed.within(SETUP),
        "blocks in flight": lambda: bool(int(u.ci_valid.value) and int(u.ci_ready.value)),
        "output held": lambda: bool((int(u.e_out_valid.value) & ~int(u.e_out_ready.value))
                                    | int(u.out_full.value)),
        "bus transfer": lambda: bool(int(u.xfer.value)),
        "wait states": lambda: bool(int(u.xfer.value) and int(u.hold.value)),
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        what = f"seed {seed}, reset {i + 1} ({phase})"
        task = cocotb.start_soon(_traffic(b, rng))

        def before(task=task) -> None:
            sr.cancel(task)
            b.ahb._reset_bus()   # the master leaves the bus IDLE
            keyed.clear()

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 100),
                            limit=50_000, what=what, before=before,
                            during=_in_reset(dut, what))
        await sr.expect_quiet(dut, LATENCY + rng.randint(1, 16), _idle(), what)
        await _check_registers(b, reset, what)
        if i % 3 == 0:
            # nothing is readable: the read of DATA_OUT waits out its limit, then ERROR
            resp, _ = await b.read("DATA_OUT00", ok=False)
            assert resp == 1, f"{what}: DATA_OUT00 readable after the reset"
            _, err = await b.read("ERROR")
            assert err == b.f("ERROR.BUS_ERROR"), f"{what}: ERROR = {err:#x}"
            await b.write("ERROR", 0xFFFFFFFF)
            await b.write("INTR_STATE", 0xFFFFFFFF)
        # the next operation
        ileave = rng.random() < 0.5
        key = rng.randbytes(rng.choice((16, 24, 32)))
        await b.load_key(key, b.f("CTRL.INTERLEAVE") if ileave else 0)
        msgs = [(0, _message(b, rng, key, rng.choice(list(bench.MODE_CODE)),
                             rng.random() < 0.5))]
        if ileave:
            msgs.append((1, _message(b, rng, key, rng.choice(list(bench.MODE_CODE)),
                                     rng.random() < 0.5)))
        await _run_checked(b, msgs, rng.choice((0.3, 0.95)), f"{what}, after")
    dut._log.info("%d resets; coverage %s", resets, b.cov)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    b = bench.Bench(dut, sr.TRAFFIC_SEED)   # its master drives the bus IDLE at once
    await sr.initial_snapshot(
        dut, {"tb_wait_i": 0},
        ("ahb_hrdata", "ahb_hready", "ahb_hresp", "irq_o", "u_dut.key_pend_q",
         "u_dut.pend_q", "u_dut.run_q", "u_dut.done_q", "u_dut.stage_q", "u_dut.iv_q",
         "u_dut.e_out_valid", "u_dut.out_avail", "u_dut.ci_valid", "u_dut.ci_data"), seed)
    await b.start()
    what = f"+verilator+seed+{seed}"
    await sr.expect_quiet(dut, LATENCY + 8, _idle(), what)
    log = sr.Transcript(seed)
    await _check_registers(b, sr.rdl_reset_reads(bench.RDL, RESET_STATUS), what, log)
    rng = random.Random(sr.TRAFFIC_SEED)
    sizes = (16, 24, 32)
    jobs = [(mode, dec) for mode in bench.MODE_CODE for dec in (False, True)]
    for j, (mode, dec) in enumerate(jobs):
        key = rng.randbytes(sizes[j % 3])
        last = j == len(jobs) - 1
        await b.load_key(key, b.f("CTRL.INTERLEAVE") if last else 0)
        msgs = [(0, _message(b, rng, key, mode, dec))]
        if last:
            msgs.append((1, _message(b, rng, key, *jobs[0])))
        res = await _run_checked(b, msgs, 0.5, what)
        for (got, ok), (s, m) in zip(res, msgs):
            log.add(s, m["mode"], int(m["dec"]), len(m["data"]), ok,
                    b"".join(got).hex(), int(get_sim_time("ns")))
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit.sim.cocotb_run import run_cocotb

    # exactly test_cipher_ahb.py's build (FifoDepth 2)
    depth = 2
    return run_cocotb(toplevel="tb_cipher_ahb", sources=bench.sources(),
                      test_module=Path(__file__).stem, test_dir=HERE,
                      parameters={"FifoDepth": depth, "WaitLimit": bench.WAIT_LIMIT},
                      testcase=testcase, seed=seed,
                      extra_env={"AK_FIFO_DEPTH": depth, "AK_SEED": seed, **(env or {})})


def test_cipher_ahb_random_resets() -> None:
    """15 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_cipher_ahb_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_cipher_ahb_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the registers'
    reset values and `cryptography`'s results after it, identical transcripts."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_cipher_ahb")
