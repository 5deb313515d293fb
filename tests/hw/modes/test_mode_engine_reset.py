"""Random resets and unknown initial state of the mode engine (ak_mode_engine with its
streams), on pipe2 as ``ak_mode_sys`` -- the build ``test_mode_engine.py`` makes in
``make test`` (same sources, ``--public-flat-rw``), driven by its EngineTB and checked
by its model (:mod:`aeskit.model`).

* ``cocotb_random_resets``: random messages of every mode on both streams (random
  keys of every size, lengths, directions, CCM with good and bad tags, random input
  gaps and output/status stalls) run in the background; ``rst_ni`` is asserted
  asynchronously (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at a key
  setup in the core, a block entering the core (blocks in flight), an output beat held
  by a stall, a status held by a stall and an input beat offered and not yet taken.
  While ``rst_ni`` is low and for the longest
  latency + 1..16 cycles after it: no output beat, no status, no request to the core,
  nothing from the core; both streams take commands (``cmd_ready_o``), take no data
  (``in_ready_o`` low) and the key port is ready. Then a new key and 1..2 messages per
  stream, equal to the model. AK_RESETS resets (default 15), seed AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs before the reset (the seeds must give
  different ones), then reset, the idle state as above, and for every key size every
  mode in both directions on both streams against the model; the transcript (outputs,
  pass bits, cycles) must be the same for every seed.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cocotb
import pytest

from aeskit.model import AES
from aeskit.model import modes as M
from aeskit.verif import sysreset as sr

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import test_mode_engine as bench  # noqa: E402  the engine's bench: EngineTB, model

#: the core of the make-test build (test_mode_engine builds pipe2 and round)
CORE = "pipe2"
#: what a reset is aimed at, in turn
PHASES = ("key setup", "blocks in flight", "output stalled", "status stalled",
          "input waiting")
KEY_SIZES = (16, 24, 32)


def _claims() -> tuple[dict[int, int], dict[int, int]]:
    from aeskit.hw import get_core

    c = get_core(CORE)
    return c.latency, c.key_setup


def _message(rng: random.Random, key: bytes, mode: str, dec: bool, max_len: int) -> dict:
    """A message of ``mode`` (the fields EngineTB.run reads)."""
    n = rng.randint(0, max_len)
    if mode in ("ecb", "cbc"):
        n -= n % 16
    m = {"mode": mode, "dec": dec, "data": rng.randbytes(n), "iv": rng.randbytes(16),
         "aad": b"", "tag_len": 0, "tag": b""}
    if mode == "ccm":
        m["iv"] = rng.randbytes(rng.randint(7, 13))
        m["tag_len"] = rng.choice([4, 8, 16])
        m["aad"] = rng.randbytes(rng.choice([0, 5, 16, 20]))
        if dec:
            ref = M.ccm_encrypt(AES(key), m["iv"], m["aad"], m["data"], m["tag_len"])
            m["data"], m["tag"] = ref[:n], ref[n:]
            if rng.random() < 0.3:
                m["tag"] = bytes([m["tag"][0] ^ 1]) + m["tag"][1:]
    return m


def _idle() -> dict[str, int]:
    """The engine as after a reset, nothing sent: no output, no status, commands taken,
    no data taken, key port ready, nothing to or from the core."""
    return {"out_valid_o": 0, "sts_valid_o": 0, "cmd_ready_o": 3, "in_ready_o": 0,
            "key_ready_o": 1, "u_engine.core_in_valid_o": 0, "u_engine.core_out_valid_i": 0}


def _inputs_idle(dut) -> None:
    for sig in ("key_valid_i", "cmd_valid_i", "in_valid_i"):
        getattr(dut, sig).value = 0
    dut.out_ready_i.value = 3
    dut.sts_ready_i.value = 3


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig in ("out_valid_o", "sts_valid_o", "u_engine.core_in_valid_o"):
            assert sr.sample(dut, sig) == 0, f"{what}: {sig} high {sr.when(i)}"
    return check


async def _traffic(tb, rng: random.Random) -> None:
    """Random messages forever (each round: a new key, 1..3 messages per stream, a gap
    and a stall probability), every result checked against the model."""
    while True:
        tb.gap, tb.stall = rng.choice((0.0, 0.3, 0.6)), rng.choice((0.3, 0.6, 0.9))
        key = rng.randbytes(rng.choice(KEY_SIZES))
        await tb.load_key(key)
        queues = [[bench._random_message(rng, key) for _ in range(rng.randint(1, 3))]
                  for _ in range(2)]
        await tb.run(queues)
        bench._check(key, queues[0] + queues[1])


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 15)
    rng = random.Random(seed)
    latency, setup = _claims()
    lat = max(latency.values())
    tb = bench.EngineTB(dut, seed=seed)
    await tb.start()
    eng = dut.u_engine
    keyed = sr.Since(dut, lambda: bool(int(eng.core_key_valid_o.value)
                                       and int(eng.core_key_ready_i.value)))
    predicates = {
        "key setup": lambda: (keyed.within(min(setup.values()))
                              or bool(int(dut.key_valid_i.value)
                                      and not int(dut.key_ready_o.value))),
        "blocks in flight": lambda: bool(int(eng.core_in_valid_o.value)
                                         and int(eng.core_in_ready_i.value)),
        "output stalled": lambda: bool(int(dut.out_valid_o.value)
                                       & ~int(dut.out_ready_i.value) & 3),
        "status stalled": lambda: bool(int(dut.sts_valid_o.value)
                                       & ~int(dut.sts_ready_i.value) & 3),
        "input waiting": lambda: bool(int(dut.in_valid_i.value)
                                      & ~int(dut.in_ready_o.value) & 3),
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        task = cocotb.start_soon(_traffic(tb, rng))
        what = f"seed {seed}, reset {i + 1} ({phase})"

        def before(task=task) -> None:
            sr.cancel(task)
            _inputs_idle(dut)
            keyed.clear()

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 60),
                            limit=20_000, what=what, before=before,
                            during=_in_reset(dut, what))
        await sr.expect_quiet(dut, lat + rng.randint(1, 16), _idle(), what)
        # the next operation: a new key, 1..2 messages per stream, against the model
        tb.gap, tb.stall = rng.choice((0.0, 0.3)), rng.choice((0.0, 0.3, 0.6))
        key = rng.randbytes(rng.choice(KEY_SIZES))
        await tb.load_key(key)
        queues = [[bench._random_message(rng, key) for _ in range(rng.randint(1, 2))]
                  for _ in range(2)]
        await tb.run(queues)
        bench._check(key, queues[0] + queues[1])
    dut._log.info("%d resets, %d cycles", resets, tb.cycle)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    latency, _ = _claims()
    lat = max(latency.values())
    inputs = {n: 0 for n in ("key_valid_i", "key_i", "key_len_i", "cmd_valid_i", "cmd_mode_i",
                             "cmd_decrypt_i", "cmd_iv_i", "cmd_iv_len_i", "cmd_nonce_len_i",
                             "cmd_tag_len_i",
                             "cmd_aad_len_i", "cmd_msg_len_i", "in_valid_i", "in_data_i")}
    inputs.update(out_ready_i=3, sts_ready_i=3)
    await sr.initial_snapshot(dut, inputs, (
        "key_ready_o", "cmd_ready_o", "in_ready_o", "out_valid_o", "out_data_o", "out_tag_o",
        "sts_valid_o", "sts_pass_o", "sts_error_o", "u_engine.core_in_valid_o",
        "u_engine.core_in_data_o", "u_engine.core_out_valid_i", "u_engine.core_out_data_i"),
        seed)
    rng = random.Random(sr.TRAFFIC_SEED)
    tb = bench.EngineTB(dut, gap=0.2, stall=0.3, seed=sr.TRAFFIC_SEED)
    await tb.start()
    await sr.expect_quiet(dut, lat + 8, _idle(), f"+verilator+seed+{seed}")
    log = sr.Transcript(seed)
    for ks in KEY_SIZES:
        key = rng.randbytes(ks)
        await tb.load_key(key)
        msgs = [_message(rng, key, mode, dec, 40) for mode in bench.MODE_CODE
                for dec in (False, True)]
        rng.shuffle(msgs)
        queues = [msgs[0::2], msgs[1::2]]
        cycles = await tb.run(queues)
        bench._check(key, msgs)
        log.add(f"key {8 * ks}: {cycles} cycles")
        for m in msgs:
            log.add(m["mode"], int(m["dec"]), len(m["data"]), m["pass"],
                    b"".join(b for _, b in m["got"]).hex())
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.harness.modes import system_files

    # exactly test_mode_engine.py's build of ak_mode_sys on CORE
    files = system_files(get_core(CORE), BUILD_ROOT / "mode_sys_src" / CORE)
    return run_cocotb(toplevel="ak_mode_sys", sources=files, test_module=Path(__file__).stem,
                      test_dir=HERE, parameters={}, build_args=["--public-flat-rw"],
                      testcase=testcase, seed=seed,
                      extra_env={"AK_SEED": seed, **(env or {})})


def test_mode_engine_random_resets() -> None:
    """15 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_mode_engine_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_mode_engine_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the model's
    results and identical transcripts after it."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_mode_engine on pipe2")
