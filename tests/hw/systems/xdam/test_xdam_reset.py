"""Random resets and unknown initial state of ak_xdam (paper 000's XDAM: AXI4 slave,
command queue, the ADAM data paths and AES engines, SRAM, MBUS registers), at 32 bits,
on the build ``test_xdam.py`` makes in ``make test`` (only the ports visible), driven
by its XdamTB (cocotbext-axi AxiMaster, back-pressure on W, B and R) and checked
against a byte model with :mod:`aeskit.model`.

The SRAM is not reset (ak_dam_mem): a check writes the memory before it reads it.

* ``cocotb_random_resets``: checked rounds run in the background (a key over MBUS, the
  whole memory written in bypass, then random bursts in bypass or through the engines:
  writes decrypted, reads encrypted, whole states). ``rst_ni`` is asserted
  asynchronously (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at the MBUS
  configuration (the expanded key being written), the middle of a write burst, the
  middle of a read burst, a response held by the master (RVALID or BVALID without
  READY), and states in the AES engines (a cipher write answered less than 40 cycles
  ago, or a cipher read accepted less than 30 cycles ago). While ``rst_ni`` is low and
  for the engine latency + 16 + 1..16 cycles after: no B, no R, no W taken, AW and AR
  ready (empty queue); until the next AW or AR no B or R at all. The memory read
  right after the reset and again after that window is the same (no write from before
  the reset lands after it); the MBUS registers read their reset values (CTRL, PITCH,
  ERRCNT: 0; the key words are write only); a new checked round is right. AK_RESETS resets
  (default 15), seed AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs before the reset (the seeds must give
  different ones); after the reset the idle state as above, the MBUS registers at
  reset, and a bypass and a cipher round; the transcript (read data, responses, the
  final memory, cycles) must be the same for every seed.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb.utils import get_sim_time

from aeskit.model import AES
from aeskit.verif import sysreset as sr

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
import test_xdam as bench  # noqa: E402  XDAM's bench: pauses, the build

WIDTH = 32
MEM = bench.MEM
PHASES = ("configuration", "write burst", "read burst", "response held", "cipher")
#: the cipher latency at 32 bits (docs/asbus.md: 51 cycles), rounded up
ENGINE = 52
INPUTS = ("s_axi_awid", "s_axi_awaddr", "s_axi_awlen", "s_axi_awsize", "s_axi_awburst",
          "s_axi_awvalid", "s_axi_wdata", "s_axi_wstrb", "s_axi_wlast", "s_axi_wvalid",
          "s_axi_bready", "s_axi_arid", "s_axi_araddr", "s_axi_arlen", "s_axi_arsize",
          "s_axi_arburst", "s_axi_arvalid", "s_axi_rready", "s_mbus_sel", "s_mbus_wr",
          "s_mbus_addr", "s_mbus_wdata", "wait_i")
IDLE = {"s_axi_bvalid": 0, "s_axi_rvalid": 0, "s_axi_wready": 0, "s_axi_awready": 1,
        "s_axi_arready": 1}


async def _mbus_read(tb, addr: int) -> int:
    """One MBUS read (the register appears on s_mbus_rdata the cycle after)."""
    d = tb.dut
    await RisingEdge(d.clk_i)
    d.s_mbus_sel.value = 1
    d.s_mbus_wr.value = 0
    d.s_mbus_addr.value = addr
    await RisingEdge(d.clk_i)
    d.s_mbus_sel.value = 0
    await FallingEdge(d.clk_i)
    return int(d.s_mbus_rdata.value)


async def _check_mbus(tb, what: str, log: sr.Transcript | None = None) -> None:
    # CTRL, PITCH, ERRCNT; the 44 key words are write only (they always read 0), so a
    # read of them would say nothing about their reset
    vals = {a: await _mbus_read(tb, a) for a in (0x00, 0x04, 0x08)}
    bad = {hex(a): hex(v) for a, v in vals.items() if v}
    assert not bad, f"{what}: MBUS registers not at reset: {bad}"
    if log is not None:
        log.add("mbus", *vals.values())


def _pauses(tb, rng: random.Random) -> None:
    axi = tb.axi
    for ch in (axi.write_if.w_channel, axi.write_if.b_channel, axi.read_if.r_channel):
        ch.set_pause_generator(bench._pauses(rng, 0.3))


async def _checked(tb, rng: random.Random, n: int, cipher: bool, what: str, shared: dict,
                   log: sr.Transcript | None = None) -> None:
    """test_xdam's random bursts: the whole memory written in bypass, then ``n`` random
    bursts (with ``cipher`` whole states through the engines), each against the byte
    model, then the memory."""
    from cocotbext.axi import AxiResp

    nb, axi = tb.nb, tb.axi
    key = rng.randbytes(16)
    shared["cipher"] = False
    await tb.configure(key, False, False)
    mem = bytearray(rng.randbytes(MEM))
    r = await axi.write(0, bytes(mem))
    assert r.resp == AxiResp.OKAY, what
    await tb.configure(key, cipher, cipher)
    shared["cipher"] = cipher
    aes = AES(key)
    for _ in range(n):
        if cipher:
            k = rng.randint(1, 2)
            a = 16 * rng.randrange(0, MEM // 16 - k + 1)
            ln = 16 * k
        else:
            beats = rng.randint(1, 16)
            a = nb * rng.randrange(0, MEM // nb - beats + 1)
            ln = beats * nb
        if rng.random() < 0.5:
            data = rng.randbytes(ln)
            r = await axi.write(a, data)
            assert r.resp == AxiResp.OKAY, f"{what}: write {a:#x}+{ln}: {r.resp}"
            if cipher:
                data = b"".join(aes.decrypt(data[i:i + 16]) for i in range(0, ln, 16))
            mem[a:a + ln] = data
            if log is not None:
                log.add("w", hex(a), ln, int(get_sim_time("ns")))
        else:
            r = await axi.read(a, ln)
            assert r.resp == AxiResp.OKAY, f"{what}: read {a:#x}+{ln}: {r.resp}"
            want = bytes(mem[a:a + ln])
            if cipher:
                want = b"".join(aes.encrypt(want[i:i + 16]) for i in range(0, ln, 16))
            assert bytes(r.data) == want, f"{what}: read {a:#x}+{ln}"
            if log is not None:
                log.add("r", hex(a), ln, bytes(r.data).hex(), int(get_sim_time("ns")))
    shared["cipher"] = False
    got = await tb.dump()
    assert got == bytes(mem), f"{what}: memory differs from the model"
    if log is not None:
        log.add("memory", got.hex())


async def _traffic(tb, rng: random.Random, shared: dict) -> None:
    while True:
        await _checked(tb, rng, rng.randint(4, 12), rng.random() < 0.6, "before the reset",
                       shared)


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig in ("s_axi_bvalid", "s_axi_rvalid", "s_axi_wready"):
            assert sr.sample(dut, sig) == 0, f"{what}: {sig} {sr.when(i)}"
    return check


async def _quiet_and_memory(tb, rng: random.Random, what: str) -> None:
    """The idle state for the engine latency + 16 + 1..16 cycles, and the memory read
    through the bus at once and again after that window: the same."""
    start = tb.cycle
    first = await tb.dump()
    await sr.expect_quiet(tb.dut, max(0, ENGINE + 16 - (tb.cycle - start)) + rng.randint(1, 16),
                          IDLE, what)
    second = await tb.dump()
    changed = [a for a in range(MEM) if first[a] != second[a]]
    assert not changed, f"{what}: the memory changed after the reset at {changed[:8]}"


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 15)
    rng = random.Random(seed)
    tb = bench.XdamTB(dut)
    await tb.start()
    _pauses(tb, rng)
    shared: dict = {"cipher": False}
    sr.quiet_bus_models(dut, "s_axi")
    wrote = sr.Since(dut, lambda: bool(int(dut.s_axi_bvalid.value)
                                       and int(dut.s_axi_bready.value)))
    asked = sr.Since(dut, lambda: bool(int(dut.s_axi_arvalid.value)
                                       and int(dut.s_axi_arready.value)))
    predicates = {
        "configuration": lambda: bool(int(dut.s_mbus_sel.value)),
        "write burst": lambda: bool(int(dut.s_axi_wvalid.value) and int(dut.s_axi_wready.value)
                                    and not int(dut.s_axi_wlast.value)),
        "read burst": lambda: bool(int(dut.s_axi_rvalid.value) and int(dut.s_axi_rready.value)
                                   and not int(dut.s_axi_rlast.value)),
        "response held": lambda: bool((int(dut.s_axi_rvalid.value)
                                       and not int(dut.s_axi_rready.value))
                                      or (int(dut.s_axi_bvalid.value)
                                          and not int(dut.s_axi_bready.value))),
        "cipher": lambda: shared["cipher"] and (wrote.within(40) or asked.within(30)),
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        what = f"seed {seed}, reset {i + 1} ({phase})"
        task = cocotb.start_soon(_traffic(tb, rng, shared))

        def before(task=task) -> None:
            sr.cancel(task)
            for name in ("s_mbus_sel", "s_mbus_wr", "wait_i"):
                getattr(dut, name).value = 0
            shared["cipher"] = False
            wrote.clear()
            asked.clear()

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 200),
                            limit=50_000, what=what, before=before,
                            during=_in_reset(dut, what))
        guard = sr.Guard(dut, ("s_axi_bvalid", "s_axi_rvalid"),
                         lambda: bool(int(dut.s_axi_awvalid.value)
                                      or int(dut.s_axi_arvalid.value)), what)
        await sr.expect_quiet(dut, 4, IDLE, what)
        guard.check()
        await _quiet_and_memory(tb, rng, what)
        await _check_mbus(tb, what)
        await _checked(tb, rng, rng.randint(6, 12), rng.random() < 0.6, f"{what}, after",
                       shared)
    dut._log.info("%d resets, %d cycles", resets, tb.cycle)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    seed = sr.env_int("AK_SEED", 1)
    await sr.initial_snapshot(dut, dict.fromkeys(INPUTS, 0), (
        "s_axi_awready", "s_axi_wready", "s_axi_bvalid", "s_axi_bid", "s_axi_bresp",
        "s_axi_arready", "s_axi_rvalid", "s_axi_rdata", "s_axi_rid", "s_axi_rlast",
        "s_mbus_rdata"), seed)
    tb = bench.XdamTB(dut)
    await tb.start()
    rng = random.Random(sr.TRAFFIC_SEED)
    _pauses(tb, rng)
    what = f"+verilator+seed+{seed}"
    await sr.expect_quiet(dut, ENGINE + 16, IDLE, what)
    log = sr.Transcript(seed)
    await _check_mbus(tb, what, log)
    shared: dict = {"cipher": False}
    for cipher in (False, True):
        await _checked(tb, rng, 16, cipher, what, shared, log)
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit.asbus.run import ADAM_BUILD_ARGS
    from aeskit.sim.cocotb_run import run_cocotb

    # exactly test_xdam.py's build at 32 bits
    return run_cocotb(toplevel="ak_xdam", sources=bench.XDAM_BENCH_SOURCES,
                      test_module=Path(__file__).stem, test_dir=HERE,
                      parameters={"DataWidth": WIDTH}, testcase=testcase,
                      build_args=("--no-public-flat-rw", *ADAM_BUILD_ARGS), seed=seed,
                      extra_env={"AK_SEED": seed, **(env or {})})


def test_xdam_random_resets() -> None:
    """15 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_xdam_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_xdam_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the MBUS registers'
    reset values and the model's results after it, identical transcripts."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_xdam at 32 bits")
