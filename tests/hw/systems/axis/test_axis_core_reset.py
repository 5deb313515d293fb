"""Random resets and unknown initial state of ak_axis_core (AXI4-Stream in and out,
AXI4-Lite registers, mode engine) on pipe2, on the build ``test_axis_core.py`` makes in
``make test`` (``ak_axis_sys``), driven by its Bench (cocotbext-axi stream source and
sink and AXI4-Lite master, random pauses on every handshake) and checked against
``cryptography``.

* ``cocotb_random_resets``: the software sends random packets in the background (a key
  of a random size, then a mode, direction and IV and 1..3 packets of random lengths,
  partial last beats where the mode allows them; now and then a bad packet, ECB with a
  partial last beat, answered as documented). ``rst_ni`` is asserted asynchronously
  (:func:`aeskit.verif.sysreset.reset_when`), aimed in turn at a key load or the core's
  key expansion, a block entering the core, an output beat held by the sink, a packet
  in the middle of its input (a beat without tlast taken), an AXI4-Lite register
  access in flight, and a bad packet being dropped or closed. While ``rst_ni`` is low and for 50 + 1..16
  cycles after it: no output beat, no AXI4-Lite response, s_axis_tready high (empty
  FIFO), the control idle, nothing to the core; and no output beat at all until the
  first input beat after the reset. Every register reads its reset value (no key:
  STATUS.KEY_VALID 0); every third time a packet sent before a key is loaded is
  answered as documented (ERROR.NO_KEY, one zero beat with tuser and tlast); then a
  new key and the next packets give `cryptography`'s results, beat for beat as the
  input (the bench's monitor). AK_RESETS resets (default 18), seed AK_SEED.
* ``cocotb_initial_state``: from the register values of ``+verilator+seed`` (rst_ni
  high before the first evaluation): the outputs and the control state before the
  reset (the seeds must give different ones); after the reset the idle state as above,
  the registers at reset, a packet without a key answered as documented, and every
  mode in both directions (the key size rotating) right; the transcript must be the
  same for every seed.

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
import test_axis_core as bench  # noqa: E402  the wrapper's bench: Bench, expected()

#: the core of the make-test build
CORE = "pipe2"
PHASES = ("key setup", "blocks in flight", "output held", "packet in flight",
          "register access", "bad packet")
#: the control's states dropping a bad packet and closing its output (StDrop, StClose)
ST_BAD = (3, 4)
#: pipe2's shortest key setup
SETUP = 11
#: cycles checked right after a reset (more than a chunk through the core)
QUIET = 50


def _idle() -> dict[str, int]:
    """ak_axis_core as after a reset, nothing sent: no output beat, no AXI4-Lite
    response, the input FIFO empty (ready), the control idle, nothing to the core."""
    return {"m_axis_tvalid": 0, "s_axis_tready": 1, "s_axil_bvalid": 0, "s_axil_rvalid": 0,
            "u_axis.st_q": 0, "u_axis.in_pkt_q": 0, "ci_valid": 0, "co_valid": 0}


def _in_reset(dut, what: str):
    def check(i: int) -> None:
        for sig, want in (("m_axis_tvalid", 0), ("s_axil_bvalid", 0), ("s_axil_rvalid", 0),
                          ("s_axis_tready", 1)):
            assert sr.sample(dut, sig) == want, f"{what}: {sig} {sr.when(i)}"
    return check


def _sizes() -> list[int]:
    from aeskit.hw import get_core

    return [s // 8 for s in get_core(CORE).key_sizes]


async def _packets(b, rng: random.Random, key: bytes, mode: str, dec: bool, n: int,
                   what: str) -> list[bytes]:
    """``n`` random packets in ``mode`` under ``key`` (loaded), from a random IV; checked."""
    from cocotbext.axi import AxiStreamFrame

    iv = rng.randbytes(16)
    await b.config(bench.MODE_CODE[mode], dec, iv, bench.KEY_LEN[len(key)])
    datas = [rng.randbytes(bench.random_length(rng, mode, 6)) for _ in range(n)]
    outs = await b.packets([AxiStreamFrame(d) for d in datas])
    for d, o in zip(datas, outs):
        want = bench.expected(key, mode, dec, iv, d)
        assert o.tdata == want, (f"{what}: {mode} dec={dec} AES-{8 * len(key)} len {len(d)}: "
                                 f"{bytes(o.tdata).hex()} / {want.hex()}")
        assert not any(o.tuser if isinstance(o.tuser, list) else [o.tuser]), \
            f"{what}: tuser set on a good packet"
    return [bytes(o.tdata) for o in outs]


async def _bad_packet(b, rng: random.Random, key: bytes, what: str) -> None:
    """An ECB packet with a partial last beat: its whole blocks come out processed,
    then one zero beat with tuser and tlast; ERROR.PARTIAL (cleared again)."""
    from cocotbext.axi import AxiStreamFrame

    iv, dec = rng.randbytes(16), rng.random() < 0.5
    await b.config(bench.MODE_CODE["ecb"], dec, iv, bench.KEY_LEN[len(key)])
    d = rng.randbytes(16 * rng.randint(0, 5) + rng.randint(1, 15))
    (out,) = await b.packets([AxiStreamFrame(d)])
    good = d[:len(d) // 16 * 16]
    want = bench.expected(key, "ecb", dec, iv, good) if good else b""
    assert bytes(out.tdata) == want + bytes(16), f"{what}: bad packet answered wrong"
    tuser = out.tuser if isinstance(out.tuser, list) else [out.tuser] * len(out.tdata)
    assert tuser == [0] * len(want) + [1] * 16, f"{what}: tuser of a bad packet {tuser}"
    assert await b.read("ERROR") == b.f("ERROR.PARTIAL"), what
    await b.write("ERROR", 0xFFFFFFFF)


async def _traffic(b, rng: random.Random) -> None:
    """The software, forever: a key, then 1..3 rounds of 1..3 packets, or of a bad
    packet (:func:`_bad_packet`)."""
    while True:
        key = rng.randbytes(rng.choice(_sizes()))
        await b.load_key(key)
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.25:
                await _bad_packet(b, rng, key, "before the reset")
                continue
            await _packets(b, rng, key, rng.choice(list(bench.MODE_CODE)), rng.random() < 0.5,
                           rng.randint(1, 3), "before the reset")


async def _check_registers(b, reset: dict[str, int], what: str,
                           log: sr.Transcript | None = None) -> None:
    for reg, want in reset.items():
        got = await b.read(reg)
        assert got == want, f"{what}: {reg} = {got:#x} after the reset, expected {want:#x}"
        if log is not None:
            log.add(reg, hex(got))


@cocotb.test()
async def cocotb_random_resets(dut) -> None:
    from cocotbext.axi import AxiStreamFrame

    seed = sr.env_int("AK_SEED", 1)
    resets = sr.env_int("AK_RESETS", 18)
    rng = random.Random(seed)
    reset = sr.rdl_reset_reads(bench.RDL)
    b = await bench._bench(dut, seed)
    u = dut.u_axis
    sr.quiet_bus_models(dut, "s_axil", "s_axis", "m_axis")
    keyed = sr.Since(dut, lambda: bool(int(dut.ck_valid.value) and int(dut.ck_ready.value)))
    predicates = {
        "key setup": lambda: bool(int(u.key_pend_q.value)) or keyed.within(SETUP),
        "blocks in flight": lambda: bool(int(dut.ci_valid.value) and int(dut.ci_ready.value)),
        "output held": lambda: bool(int(dut.m_axis_tvalid.value)
                                    and not int(dut.m_axis_tready.value)),
        "packet in flight": lambda: bool(int(dut.s_axis_tvalid.value)
                                         and int(dut.s_axis_tready.value)
                                         and not int(dut.s_axis_tlast.value)),
        "register access": lambda: bool(int(dut.s_axil_awvalid.value)
                                        or int(dut.s_axil_arvalid.value)
                                        or int(dut.s_axil_bvalid.value)
                                        or int(dut.s_axil_rvalid.value)),
        "bad packet": lambda: int(u.st_q.value) in ST_BAD,
    }
    for i in range(resets):
        phase = PHASES[i % len(PHASES)]
        what = f"seed {seed}, reset {i + 1} ({phase})"
        task = cocotb.start_soon(_traffic(b, rng))

        def before(task=task) -> None:
            sr.cancel(task)
            b.src.clear()       # the frames queued before the reset are not sent after it
            keyed.clear()

        await sr.reset_when(dut, rng, predicates[phase], delay=rng.randint(0, 100),
                            limit=50_000, what=what, before=before,
                            during=_in_reset(dut, what))
        guard = sr.Guard(dut, ("m_axis_tvalid",),
                         lambda: bool(int(dut.s_axis_tvalid.value)
                                      and int(dut.s_axis_tready.value)), what)
        await sr.expect_quiet(dut, QUIET + rng.randint(1, 16), _idle(), what)
        b.sink.clear()
        b.in_pkts, b.out_pkts, b.violations = [[]], [[]], []
        await _check_registers(b, reset, what)
        if i % 3 == 0:
            # no key after a reset: the packet is dropped and closed by the tuser beat
            await b.config(bench.MODE_CODE["ctr"], False, bytes(16), 0)
            (out,) = await b.packets([AxiStreamFrame(rng.randbytes(rng.randint(1, 60)))])
            assert bytes(out.tdata) == bytes(16) and out.tuser == 1, \
                f"{what}: a packet without a key gave {bytes(out.tdata).hex()}"
            assert await b.read("ERROR") == b.f("ERROR.NO_KEY"), what
            await b.write("ERROR", 0xFFFFFFFF)
            b.in_pkts, b.out_pkts = [[]], [[]]
        # the next operation
        key = rng.randbytes(rng.choice(_sizes()))
        await b.load_key(key)
        await _packets(b, rng, key, rng.choice(list(bench.MODE_CODE)), rng.random() < 0.5,
                       rng.randint(1, 2), f"{what}, after")
        b.check_beats()
        guard.check()
    dut._log.info("%d resets, %d cycles", resets, b.cycle)


@cocotb.test()
async def cocotb_initial_state(dut) -> None:
    from cocotbext.axi import AxiStreamFrame

    seed = sr.env_int("AK_SEED", 1)
    inputs = {n: 0 for n in (
        "s_axil_awvalid", "s_axil_awaddr", "s_axil_awprot", "s_axil_wvalid", "s_axil_wdata",
        "s_axil_wstrb", "s_axil_bready", "s_axil_arvalid", "s_axil_araddr", "s_axil_arprot",
        "s_axil_rready", "s_axis_tvalid", "s_axis_tdata", "s_axis_tkeep", "s_axis_tlast",
        "m_axis_tready")}
    await sr.initial_snapshot(dut, inputs, (
        "s_axil_awready", "s_axil_wready", "s_axil_bvalid", "s_axil_arready", "s_axil_rvalid",
        "s_axil_rdata", "s_axis_tready", "m_axis_tvalid", "m_axis_tdata", "m_axis_tlast",
        "m_axis_tuser", "u_axis.st_q", "u_axis.chain_q", "u_axis.key_ok_q", "ci_valid",
        "ci_data"), seed)
    b = await bench._bench(dut, sr.TRAFFIC_SEED)
    what = f"+verilator+seed+{seed}"
    await sr.expect_quiet(dut, QUIET, _idle(), what)
    b.sink.clear()
    b.in_pkts, b.out_pkts, b.violations = [[]], [[]], []
    log = sr.Transcript(seed)
    await _check_registers(b, sr.rdl_reset_reads(bench.RDL), what, log)
    rng = random.Random(sr.TRAFFIC_SEED)
    # no key after the reset: a packet is dropped and closed by the tuser beat
    await b.config(bench.MODE_CODE["ctr"], False, bytes(16), 0)
    (out,) = await b.packets([AxiStreamFrame(rng.randbytes(40))])
    assert bytes(out.tdata) == bytes(16) and out.tuser == 1, f"{what}: a packet without a key"
    assert await b.read("ERROR") == b.f("ERROR.NO_KEY"), what
    await b.write("ERROR", 0xFFFFFFFF)
    b.in_pkts, b.out_pkts = [[]], [[]]
    sizes = _sizes()
    for j, (mode, dec) in enumerate((m, d) for m in bench.MODE_CODE for d in (False, True)):
        key = rng.randbytes(sizes[j % len(sizes)])
        await b.load_key(key)
        outs = await _packets(b, rng, key, mode, dec, 2, what)
        log.add(mode, int(dec), 8 * len(key), *(o.hex() for o in outs),
                int(get_sim_time("ns")))
    b.check_beats()
    log.write()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str, seed: int, env: dict | None = None) -> Path:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.hw.systems.axis import system_files
    from aeskit.sim.cocotb_run import run_cocotb

    # exactly test_axis_core.py's build of ak_axis_sys on CORE
    spec = get_core(CORE)
    files = system_files(spec, BUILD_ROOT / "axis_sys_src" / CORE)
    return run_cocotb(toplevel="ak_axis_sys", sources=files, test_module=Path(__file__).stem,
                      test_dir=HERE, parameters={}, testcase=testcase, seed=seed,
                      includes=spec.include_paths(),
                      extra_env={"AK_KEY_SIZES": ",".join(map(str, spec.key_sizes)),
                                 "AK_SEED": seed, **(env or {})})


def test_axis_core_random_resets() -> None:
    """18 random resets, seed 1."""
    _run("cocotb_random_resets", 1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_axis_core_random_resets_long(seed: int) -> None:
    """60 random resets per seed (make test-full)."""
    _run("cocotb_random_resets", seed, {"AK_RESETS": 60})


def test_axis_core_initial_state() -> None:
    """Five +verilator+seed values: different state before the reset, the registers'
    reset values and `cryptography`'s results after it, identical transcripts."""
    sr.run_seeds(lambda seed: _run("cocotb_initial_state", seed), "ak_axis_core on pipe2")
