"""ak_tbox_round (one memory-based round of paper 003) against the golden model.

A new random state and direction every cycle (and random cycles with the clock
enable low), for Pipe = 0 (latency 1) and Pipe = 1 (latency 3), with (Inv)ShiftRows
on the RAM addresses (ShiftAtOutput = 0) and on the RAM output words (1). Every output
is checked at its exact latency against the golden model's round steps, computed here
from the model's SubBytes / ShiftRows / MixColumns functions, not from T-tables:

- mix_o  = MixColumns(SubBytes(ShiftRows(s)))  encrypting,
           InvMixColumns(InvSubBytes(InvShiftRows(s)))  decrypting;
- last_o = SubBytes(ShiftRows(s)) / InvSubBytes(InvShiftRows(s)) (Pipe = 0 always;
  Pipe = 1 when final_i was high for the block in the XOR-tree stage, and then
  mix_o carries the last-round bytes too);
- dec_o  = the block's direction.

With the enable low nothing moves (outputs held, the blocks in flight wait).

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import manifest
from aeskit.model.aes import (inv_mix_columns, inv_shift_rows, inv_sub_bytes, mix_columns,
                              shift_rows, sub_bytes)

CYCLES = 600


def expected(state: bytes, dec: bool) -> tuple[bytes, bytes]:
    """(mix, last) of one round without AddRoundKey."""
    if dec:
        last = inv_sub_bytes(inv_shift_rows(state))
        return inv_mix_columns(last), last
    last = sub_bytes(shift_rows(state))
    return mix_columns(last), last


@cocotb.test()
async def cocotb_tbox_round_random(dut) -> None:
    pipe = int(dut.Pipe.value)
    latency = 3 if pipe else 1
    rng = random.Random(0x7B0C5 + pipe)
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.en_i.value = 0
    dut.state_i.value = 0
    dut.dec_i.value = 0
    dut.final_i.value = 0
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    # one entry per enabled edge: (state, dec, final)
    taken: list[tuple[bytes, bool, bool]] = []
    checked = 0
    held: tuple[int, int, int] | None = None
    for _ in range(CYCLES):
        en = rng.random() < 0.8
        state = rng.randbytes(16)
        dec = rng.random() < 0.5
        dut.en_i.value = int(en)
        dut.state_i.value = int.from_bytes(state, "big")
        dut.dec_i.value = int(dec)
        # final_i belongs to the block that enters the XOR-tree register at this
        # edge: the one accepted two enabled edges earlier
        final = bool(len(taken) >= 2 and taken[-2][2])
        dut.final_i.value = int(final)
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        outs = (int(dut.mix_o.value), int(dut.last_o.value), int(dut.dec_o.value))
        if not en:
            if held is not None:
                assert outs == held, "outputs moved with the enable low"
            continue
        taken.append((state, dec, rng.random() < 0.3 if pipe else False))
        held = outs
        if len(taken) < latency:
            continue
        s, d, f = taken[-latency]
        mix, last = expected(s, d)
        got_mix = outs[0].to_bytes(16, "big")
        got_last = outs[1].to_bytes(16, "big")
        assert outs[2] == int(d), f"dec_o {outs[2]}, want {int(d)}"
        if pipe and f:
            assert got_mix == last and got_last == last, \
                f"final round, dec={d}: mix {got_mix.hex()} last {got_last.hex()}, " \
                f"want {last.hex()}"
        else:
            assert got_mix == mix, f"dec={d} state {s.hex()}: mix {got_mix.hex()}, want {mix.hex()}"
            if not pipe:
                assert got_last == last, f"dec={d}: last {got_last.hex()}, want {last.hex()}"
        checked += 1
    assert checked > CYCLES // 2, f"only {checked} results checked"


HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("shift_at_output", [0, 1])
@pytest.mark.parametrize("pipe", [0, 1])
def test_tbox_round(pipe: int, shift_at_output: int) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    sources = manifest.sources(manifest.owner(manifest.module_file("ak_tbox_round")))
    run_cocotb(toplevel="ak_tbox_round", sources=sources, test_module="test_tbox_round",
               test_dir=HERE, parameters={"Pipe": pipe, "ShiftAtOutput": shift_at_output},
               testcase="cocotb_tbox_round_random")
