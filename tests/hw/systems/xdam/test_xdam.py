"""ak_xdam (paper 000's XDAM: the AXI4 baseline of ADAM) on Verilator, driven by
cocotbext-axi.

At 32, 64 and 128 bits:

* the paper's test cases as AXI traffic (bursts of at most 16 beats; the block as one
  burst per row; the cipher test as one burst per state, ciphertext in natural order,
  buffered and rescheduled by the engine): returned data and memory against the model,
  measured cycles (first AWVALID to the last R beat) beside the static model and the
  paper;
* random bursts with random strobes under back-pressure on W, B and R, and two
  concurrent masters (AXI IDs) on disjoint halves of the memory;
* refused bursts (too long, out of range, beyond the memory, cipher bursts that are
  not whole states): SLVERR, memory unchanged.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Combine
from cocotbext.axi import AxiResp

from aeskit import BUILD_ROOT
from aeskit.asbus.bench import XdamTB, xdam_paper_cases
from aeskit.asbus.run import ADAM_BUILD_ARGS
from aeskit.hw.manifest import sim_sources, sources
from aeskit.model import AES

HERE = Path(__file__).resolve().parent
SOURCES = sources("aeskit:system:xdam")
MEM = 256


async def _tb(dut, **kw) -> XdamTB:
    tb = XdamTB(dut, **kw)
    await tb.start()
    return tb


@cocotb.test()
async def cocotb_paper_cases(dut) -> None:
    """Sec. 6 on AXI (aeskit.asbus.bench): write 160 bytes, read them back, three cases;
    data and memory checked there, cycles recorded."""
    tb = await _tb(dut)
    recs = await xdam_paper_cases(tb, seed=int(os.environ.get("AK_SEED", "0")))
    for rec in recs:
        # at least the data beats, the command and the engine's latency
        nb_beats = 2 * 160 * 8 // tb.width
        assert rec.measured_cycles > nb_beats
        dut._log.info("%s %d-bit AXI: measured %d, model %s, paper %d", rec.test, tb.width,
                      rec.measured_cycles, rec.model_cycles, rec.paper_cycles)
    out = os.environ.get("AK_RESULTS")
    if out:
        Path(out).write_text(json.dumps([r.as_dict() for r in recs], indent=1))


def _pauses(rng: random.Random, p: float):
    return itertools.cycle([rng.random() < p for _ in range(997)])


@cocotb.test()
async def cocotb_random_bursts(dut) -> None:
    """Random bursts, strobes and back-pressure; then two masters (IDs) at once on
    disjoint halves; memory and every read against a byte model."""
    tb = await _tb(dut)
    nb = tb.nb
    rng = random.Random(int(os.environ.get("AK_SEED", "5")))
    axi = tb.axi
    axi.write_if.w_channel.set_pause_generator(_pauses(rng, 0.3))
    axi.write_if.b_channel.set_pause_generator(_pauses(rng, 0.3))
    axi.read_if.r_channel.set_pause_generator(_pauses(rng, 0.3))
    n = int(os.environ.get("AK_COMMANDS", "60"))
    for cipher in (False, True):
        key = rng.randbytes(16)
        await tb.configure(key, False, False)
        mem = bytearray(rng.randbytes(MEM))
        await axi.write(0, bytes(mem))
        await tb.configure(key, cipher, cipher)
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
                assert r.resp == AxiResp.OKAY
                if cipher:
                    data = b"".join(aes.decrypt(data[i:i + 16]) for i in range(0, ln, 16))
                mem[a:a + ln] = data
            else:
                r = await axi.read(a, ln)
                assert r.resp == AxiResp.OKAY
                want = bytes(mem[a:a + ln])
                if cipher:
                    want = b"".join(aes.encrypt(want[i:i + 16]) for i in range(0, ln, 16))
                assert bytes(r.data) == want, f"read {a:#x}+{ln}"
        assert await tb.dump() == bytes(mem)
    # two masters at once, disjoint halves, bypass
    await tb.configure(bytes(16), False, False)
    mem = bytearray(await tb.dump())

    async def master(ident: int, base: int) -> None:
        r2 = random.Random(ident)
        for _ in range(20):
            beats = r2.randint(1, 8)
            a = base + nb * r2.randrange(0, (MEM // 2) // nb - beats + 1)
            data = r2.randbytes(beats * nb)
            w = await axi.write(a, data, awid=ident)
            assert w.resp == AxiResp.OKAY
            mem[a:a + len(data)] = data
            rd = await axi.read(a, len(data), arid=ident)
            assert bytes(rd.data) == data

    await Combine(cocotb.start_soon(master(1, 0)), cocotb.start_soon(master(2, MEM // 2)))
    assert await tb.dump() == bytes(mem)


@cocotb.test()
async def cocotb_refused_bursts(dut) -> None:
    """SLVERR and memory unchanged: 17-beat burst, out of range, cipher burst that is
    not whole aligned states."""
    tb = await _tb(dut)
    nb = tb.nb
    rng = random.Random(11)
    await tb.configure(bytes(16), False, False)
    mem = rng.randbytes(MEM)
    await tb.axi.write(0, mem)
    cases = [(0, 17 * nb, False), (MEM - nb, 2 * nb, False), (MEM, nb, False)]
    for a, ln, cipher in cases + [(8 if nb <= 8 else 16, 8 if nb <= 8 else 16 * 3, True)]:
        if cipher:
            await tb.configure(bytes(16), True, True)
            a, ln = (8, 8) if nb <= 8 else (0, 32)
            if nb == 16:
                continue   # every 128-bit burst is whole states
        # one burst for the whole range (17 beats included)
        tb.axi.write_if.max_burst_len = tb.axi.read_if.max_burst_len = 256
        w = await tb.axi.write(a, rng.randbytes(ln))
        r = await tb.axi.read(a, ln)
        tb.axi.write_if.max_burst_len = tb.axi.read_if.max_burst_len = 16
        assert w.resp == AxiResp.SLVERR, f"write {a:#x}+{ln}: {w.resp}"
        assert r.resp == AxiResp.SLVERR, f"read {a:#x}+{ln}: {r.resp}"
        if cipher:
            await tb.configure(bytes(16), False, False)
    assert await tb.dump() == mem


#: the paper cases leave their cycle records here (docs/asbus.md quotes them)
RESULTS = BUILD_ROOT / "asbus"
#: the bench build: ak_xdam with a Verilator configuration that makes only its ports public
XDAM_BENCH_SOURCES = sim_sources("aeskit:bench:xdam_bench")


def _run(width: int, tests: list[str], **env) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    RESULTS.mkdir(parents=True, exist_ok=True)
    # the bench reaches only the ports: build like the ADAM benches (aeskit.asbus.bench_build)
    run_cocotb(toplevel="ak_xdam", sources=XDAM_BENCH_SOURCES, test_module="test_xdam",
               test_dir=HERE, parameters={"DataWidth": width}, testcase=tests,
               build_args=("--no-public-flat-rw", *ADAM_BUILD_ARGS),
               extra_env={"AK_RESULTS": str(RESULTS / f"xdam-{width}.json"),
                          **{k: str(v) for k, v in env.items()}})


# 32 bits in make test; the wider builds (64, 128: 1-2 minutes each) in make test-full
@pytest.mark.parametrize("width", [32, pytest.param(64, marks=pytest.mark.slow),
                                   pytest.param(128, marks=pytest.mark.slow)])
def test_xdam(width: int) -> None:
    _run(width, ["cocotb_paper_cases", "cocotb_random_bursts", "cocotb_refused_bursts"])
