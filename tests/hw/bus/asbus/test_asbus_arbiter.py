"""ak_asbus_arbiter (the ASBUS slave's fixed-priority arbiter) on Verilator.

The arbiter is combinational (latency 0, RTL header). For N = 1, 3 and 16 the bench
drives ``req_i``, ``mask_i`` and ``enable_i`` and, after the inputs settle, compares
``gnt_o`` and ``any_o`` with an independent Python model of the documented rule
(docs/asbus.md "Command phase": the highest-priority requesting master whose GNT is not
already high wins, master 0 highest; no grant while the slave disables it):

* N = 1 and N = 3: every (req, mask, enable) combination, exhaustively;
* N = 16: every single-request and every single-unmasked pattern, then random
  request/mask patterns with a random enable (every cycle a new pattern);
* every pattern: ``gnt_o`` is zero or one-hot, a subset of ``req & ~mask``, never a
  masked master, and ``any_o`` is high exactly when some master is a candidate;
* a clocked use as in the slave: ``mask_i`` is the previous cycle's grant (GNT high
  one cycle after the winning REQ) and every master holds REQ until it sees its GNT,
  with random new requests and random enable (the queue-full stall); the bench's
  model of the slave's GNT register predicts every grant, so a master that holds REQ
  is never granted in two consecutive cycles and lower masters are served in the
  cycle a higher one is masked;
* N = 0 and N = 17 are refused at elaboration with the module's message.

The three N are instances of one generated wrapper top (one Verilator build).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import itertools
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from aeskit.testbench.wrapper import Instance, Prefixed, write_wrapper
from aeskit.hw.manifest import sources_of_module

HERE = Path(__file__).resolve().parent
SOURCES = sources_of_module("ak_asbus_arbiter")
NS = (1, 3, 16)


def _wrapper(name: str) -> list[Path]:
    """A generated top with one arbiter per N (ports prefixed ``n<N>_``)."""
    return write_wrapper(
        name, "ak_asbus_arbiter",
        [Instance(f"n{n}_", {"N": n},
                  [("input", "req_i", n), ("input", "mask_i", n), ("input", "enable_i", 1),
                   ("output", "gnt_o", n), ("output", "any_o", 1)], clocked=False)
         for n in NS],
        generator="tests/hw/bus/asbus/test_asbus_arbiter.py")


def model(n: int, req: int, mask: int, enable: bool) -> tuple[int, bool]:
    """(grant one-hot, any) of the documented rule: the lowest-numbered master that
    requests and is not masked, while enabled."""
    if not enable:
        return 0, False
    for i in range(n):
        if (req >> i) & 1 and not (mask >> i) & 1:
            return 1 << i, True
    return 0, False


async def _apply(dut, n: int, req: int, mask: int, enable: bool) -> None:
    dut.req_i.value = req
    dut.mask_i.value = mask
    dut.enable_i.value = int(enable)
    await Timer(1, unit="ns")
    gnt, anyo = int(dut.gnt_o.value), int(dut.any_o.value)
    want_gnt, want_any = model(n, req, mask, enable)
    what = f"N={n} req={req:#x} mask={mask:#x} enable={int(enable)}"
    assert gnt == want_gnt, f"{what}: gnt {gnt:#x}, expected {want_gnt:#x}"
    assert anyo == int(want_any), f"{what}: any {anyo}, expected {int(want_any)}"
    # structural properties, independent of the model
    assert gnt & (gnt - 1) == 0, f"{what}: grant {gnt:#x} not one-hot"
    assert gnt & ~(req & ~mask) == 0, f"{what}: grant {gnt:#x} to a non-candidate"


def _patterns(n: int, rng: random.Random):
    full = (1 << n) - 1
    if n <= 3:
        for req, mask, en in itertools.product(range(1 << n), range(1 << n), (0, 1)):
            yield req, mask, bool(en)
        return
    for i in range(n):
        yield 1 << i, 0, True                        # a single request
        yield full, full & ~(1 << i), True           # everyone requests, one unmasked
        yield full & ~((1 << i) - 1), 0, True        # masters i.. request
        yield full, (1 << i) - 1, True               # the i highest ones masked
    for _ in range(4000):
        req = rng.getrandbits(n) & rng.getrandbits(n) if rng.random() < 0.3 else rng.getrandbits(n)
        yield req, rng.getrandbits(n), rng.random() < 0.85


@cocotb.test()
async def cocotb_patterns(top) -> None:
    for n in NS:
        dut = Prefixed(top, f"n{n}_")
        rng = random.Random(int(os.environ["AK_SEED"]) + n)
        count = 0
        for req, mask, en in _patterns(n, rng):
            await _apply(dut, n, req, mask, en)
            count += 1
        assert count >= (8 if n == 1 else 128)


@cocotb.test()
async def cocotb_slave_use(top) -> None:
    for n in NS:
        await _slave_use(Prefixed(top, f"n{n}_"), n)


async def _slave_use(dut, n: int) -> None:
    """The arbiter inside the slave's command phase, one loop turn per cycle: the
    bench holds the GNT register (mask = last cycle's grant); a master with a command
    holds REQ until it sees GNT, then may present its next one in the cycle after."""
    rng = random.Random(int(os.environ["AK_SEED"]) + 100 + n)
    gnt_q = 0
    pending = 0            # masters holding REQ (a command not yet granted)
    served = [0] * n
    p_req = 0.7 / n        # offered load below the grant rate, so everyone is served
    for _cycle in range(3000):
        for i in range(n):
            # a master that saw GNT last cycle drops REQ now (its next command from t+2)
            if not (pending >> i) & 1 and not (gnt_q >> i) & 1 and rng.random() < p_req:
                pending |= 1 << i
        enable = rng.random() < 0.8   # queue not full
        await _apply(dut, n, pending | gnt_q, gnt_q, enable)
        gnt = int(dut.gnt_o.value)
        if gnt:
            i = gnt.bit_length() - 1
            assert (pending >> i) & 1, f"grant to master {i} that holds no new command"
            # nobody of higher priority had a command waiting
            assert pending & ((1 << i) - 1) == 0, f"master {i} granted over a higher one"
            pending &= ~gnt
            served[i] += 1
        elif enable:
            assert pending == 0, f"masters {pending:#x} wait while the arbiter is enabled"
        gnt_q = gnt
    assert all(served) and sum(served) > 500, served


def test_asbus_arbiter() -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    name = "ak_asbus_arbiter_tb"
    run_cocotb(toplevel=name, sources=[*SOURCES, *_wrapper(name)],
               test_module="test_asbus_arbiter", test_dir=HERE, parameters={},
               build_args=("-CFLAGS", "-O0"), extra_env={"AK_SEED": 100})


@pytest.mark.parametrize("value", [0, 17])
def test_bad_n_is_refused(value: int) -> None:
    """Elaboration stops with the module's message naming N."""
    from aeskit.sim.lint import refused

    out = refused("ak_asbus_arbiter", SOURCES, {"N": value})
    assert f"N={value} not in 1..16" in out, out
