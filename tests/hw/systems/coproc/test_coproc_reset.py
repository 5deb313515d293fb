"""Random resets and unknown initial state of ak_coproc (AXI4-Lite registers, AXI4 DMA
master, interrupt, mode engine) on tbox_folded, on the build ``test_coproc.py`` makes in
``make test`` (``ak_coproc_sys``), driven by its Bench (cocotbext-axi: the software on
``s_axil``, memory behind an AxiSlave with random pauses on all five channels) and
checked against ``cryptography``.

* ``cocotb_random_resets``: the software runs random jobs in the background (every
  mode, direction and key size, random lengths and alignments, CCM with AAD; now and
  then a CLEAR). ``rst_ni`` is asserted asynchronously
  (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at a key load or the core's
  key expansion, a block entering the core, an output held back (a W beat held by the
  memory, or the engine's output waiting for the writer), the middle of a DMA burst (an
  R or W beat that is not the last), an AXI4-Lite register access in flight, and a
  CLEAR. While ``rst_ni`` is low and for 80 + 1..16 cycles after it: no DMA request (AR,
  AW, W), no AXI4-Lite response, no interrupt, the job machine idle, nothing to the
  core; and until the next START no DMA request and no interrupt at all. Every
  register reads its reset value (STATUS 0: idle, not done, code 0; CYCLES 0; KEY 0;
  ID, VERSION), and the next job gives `cryptography`'s result, nothing outside its
  destination written, exactly one interrupt. AK_RESETS resets (default 18), seed
  AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs and the job state before the reset
  (the seeds must give different ones); after the reset the idle state as above, the
  registers at reset, one job of every mode and direction (the key size rotating), a
  CLEAR and one more job right, one interrupt per job; the transcript (results,
  codes, CYCLES) must be the same for every seed.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cocotb
import pytest

from aeskit.verif import sysreset as sr
from aeskit.hw.systems.coproc import MODE_CODE, RDL, regmap

HERE = Path(__file__).resolve().parent
RM = regmap()
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import test_coproc as bench  # noqa: E402  the co-processor's bench: Bench, expected()

PHASES = ("key setup", "blocks in flight", "output held", "DMA burst", "register access",
          "CLEAR")
#: job states (ak_coproc's state_e): SKey, and the three CLEAR states
S_KEY = 2
S_CLEAR = (8, 9, 10)
#: tbox_folded's shortest key setup
SETUP = 57
#: cycles checked right after a reset (more than a key setup and a DMA burst)
QUIET = 80
ZERO_AFTER_RESET = ("m_axi_arvalid", "m_axi_awvalid", "m_axi_wvalid", "irq_o",
                    "u_coproc.e_out_valid", "ci_valid")


def _idle() -> dict[str, int]:
    """ak_coproc as after a reset, no register access: no DMA request, no AXI4-Lite
    response, no interrupt, the job machine idle, nothing to or from the core."""
    return {"m_axi_arvalid": 0, "m_axi_awvalid": 0, "m_axi_wvalid": 0, "irq_o": 0,
            "s_axil_bvalid": 0, "s_axil_rvalid": 0, "u_coproc.state_q": 0,
            "u_coproc.e_out_valid": 0, "ci_valid": 0, "co_valid": 0}


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig in ("m_axi_arvalid", "m_axi_awvalid", "m_axi_wvalid", "irq_o",
                    "s_axil_bvalid", "s_axil_rvalid", "u_coproc.state_q"):
            assert sr.sample(dut, sig) == 0, f"{what}: {sig} {sr.when(i)}"
    return check


async def _job(tb, rng: random.Random, mode: str, dec: bool, klen: int, max_len: int,
               what: str) -> tuple[int, bytes]:
    """One random job (test_coproc's _one_random, returning the code and the output)."""
    key = rng.randbytes(klen)
    iv, data, aad, t = bench._rand_msg(rng, mode, max_len)
    if mode == "ccm" and dec:
        data = bench.expected("ccm", False, key, iv, data, aad, t)  # ciphertext + tag
    want = bench.expected(mode, dec, key, iv, data, aad, t)
    code, got = await tb.crypt(mode, dec, key, iv, data, aad, t)
    tag = f"{what}: {mode} dec={dec} key={8 * klen} len={len(data)}"
    assert code == 0, f"{tag}: ERR_CODE {code}"
    assert got == want, f"{tag}: wrong output"
    return code, got


async def _clear(tb) -> None:
    await tb.wr("CTRL", RM.value(CTRL__CLEAR=1))
    for _ in range(1000):
        if RM.get(await tb.rd("STATUS"), "STATUS.BUSY") == 0:
            return
    raise AssertionError("CLEAR does not end")


async def _traffic(tb, rng: random.Random) -> None:
    """The software, forever: random jobs, now and then a CLEAR."""
    while True:
        if rng.random() < 0.2:
            await _clear(tb)
        await _job(tb, rng, rng.choice(list(MODE_CODE)), rng.random() < 0.5,
                   rng.choice((16, 24, 32)), rng.choice((16, 48, 100, 200)),
                   "before the reset")


async def _check_registers(tb, reset: dict[str, int], what: str,
                           log: sr.Transcript | None = None) -> None:
    for reg, want in reset.items():
        got = await tb.rd(reg)
        assert got == want, f"{what}: {reg} = {got:#x} after the reset, expected {want:#x}"
        if log is not None:
            log.add(reg, hex(got))


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 18)
    rng = random.Random(seed)
    reset = sr.rdl_reset_reads(RDL)
    tb = await bench.start(dut, seed=seed)
    c = dut.u_coproc
    sr.quiet_bus_models(dut, "s_axil", "m_axi")
    keyed = sr.Since(dut, lambda: bool(int(dut.ck_valid.value) and int(dut.ck_ready.value)))
    predicates = {
        "key setup": lambda: int(c.state_q.value) == S_KEY or keyed.within(SETUP),
        "blocks in flight": lambda: bool(int(dut.ci_valid.value) and int(dut.ci_ready.value)),
        "output held": lambda: bool((int(dut.m_axi_wvalid.value)
                                     and not int(dut.m_axi_wready.value))
                                    or (int(c.e_out_valid.value)
                                        and not int(c.e_out_ready.value))),
        "DMA burst": lambda: bool((int(dut.m_axi_rvalid.value) and int(dut.m_axi_rready.value)
                                   and not int(dut.m_axi_rlast.value))
                                  or (int(dut.m_axi_wvalid.value)
                                      and int(dut.m_axi_wready.value)
                                      and not int(dut.m_axi_wlast.value))),
        "register access": lambda: bool(int(dut.s_axil_awvalid.value)
                                        or int(dut.s_axil_arvalid.value)
                                        or int(dut.s_axil_bvalid.value)
                                        or int(dut.s_axil_rvalid.value)),
        "CLEAR": lambda: int(c.state_q.value) in S_CLEAR,
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        what = f"seed {seed}, reset {i + 1} ({phase})"
        task = cocotb.start_soon(_traffic(tb, rng))

        def before(task=task) -> None:
            sr.cancel(task)
            keyed.clear()

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 150),
                            limit=50_000, what=what, before=before,
                            during=_in_reset(dut, what))
        guard = sr.Guard(dut, ZERO_AFTER_RESET, lambda: bool(int(c.start_p.value)), what)
        writes = tb.mem.writes
        await sr.expect_quiet(dut, QUIET + rng.randint(1, 16), _idle(), what)
        assert tb.mem.writes == writes, f"{what}: memory written after the reset"
        await _check_registers(tb, reset, what)
        # the next job: right, nothing outside its destination, one interrupt
        await _job(tb, rng, rng.choice(list(MODE_CODE)), rng.random() < 0.5,
                   rng.choice((16, 24, 32)), rng.choice((16, 48, 100)), f"{what}, after")
        guard.check()
    dut._log.info("%d resets, %d cycles, %d interrupts", resets, tb.edge, tb.irqs)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    inputs = {n: 0 for n in (
        "s_axil_awaddr", "s_axil_awprot", "s_axil_awvalid", "s_axil_wdata", "s_axil_wstrb",
        "s_axil_wvalid", "s_axil_bready", "s_axil_araddr", "s_axil_arprot", "s_axil_arvalid",
        "s_axil_rready", "m_axi_awready", "m_axi_wready", "m_axi_bid", "m_axi_bresp",
        "m_axi_bvalid", "m_axi_arready", "m_axi_rid", "m_axi_rdata", "m_axi_rresp",
        "m_axi_rlast", "m_axi_rvalid")}
    await sr.initial_snapshot(dut, inputs, (
        "s_axil_awready", "s_axil_wready", "s_axil_bvalid", "s_axil_arready", "s_axil_rvalid",
        "s_axil_rdata", "m_axi_awvalid", "m_axi_awaddr", "m_axi_wvalid", "m_axi_wdata",
        "m_axi_arvalid", "m_axi_araddr", "irq_o", "u_coproc.state_q", "u_coproc.key_q",
        "u_coproc.cyc_q", "ci_valid", "ci_data"), seed)
    tb = await bench.start(dut, seed=sr.TRAFFIC_SEED)
    irqs = tb.irqs   # (the bench counts a random irq_o before the reset as one)
    what = f"+verilator+seed+{seed}"
    await sr.expect_quiet(dut, QUIET, _idle(), what)
    log = sr.Transcript(seed)
    await _check_registers(tb, sr.rdl_reset_reads(RDL), what, log)
    rng = random.Random(sr.TRAFFIC_SEED)
    sizes = (16, 24, 32)
    for j, (mode, dec) in enumerate((m, d) for m in MODE_CODE for d in (False, True)):
        code, got = await _job(tb, rng, mode, dec, sizes[j % 3], 64, what)
        log.add(mode, int(dec), 8 * sizes[j % 3], code, got.hex(), await tb.rd("CYCLES"))
    # CLEAR: IV wiped (KEY reads 0 anyway), no interrupt, and a job after it
    await _clear(tb)
    for i in range(4):
        assert await tb.rd(f"IV{i}") == 0, f"{what}: IV{i} after CLEAR"
    code, got = await _job(tb, rng, "cbc", True, 32, 64, what)
    log.add("after CLEAR", code, got.hex(), await tb.rd("CYCLES"))
    assert tb.irqs - irqs == 13, f"{what}: {tb.irqs - irqs} interrupts for 13 jobs"
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.coproc import DEFAULT_CORE, SYS_TOP, system_files

    # exactly test_coproc.py's build
    return run_cocotb(toplevel=SYS_TOP, sources=system_files(DEFAULT_CORE),
                      test_module=Path(__file__).stem, test_dir=HERE, parameters={},
                      testcase=testcase, seed=seed, extra_env={"AK_SEED": seed, **(env or {})})


def test_coproc_random_resets() -> None:
    """18 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_coproc_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_coproc_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the registers'
    reset values and `cryptography`'s results after it, identical transcripts."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_coproc on tbox_folded")
