"""ak_mode_cmd's decode of messages in parts, with Parts = 0 and 1 (the harness only
builds Parts = 1): at Parts = 0 every part other than WHOLE is illegal and the WHOLE
decode is the one of Parts = 1; at Parts = 1 a legal part's counts, length block
(the totals), counter offset and starting state. A cocotb bench of the combinational
unit (Verilator)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
WHOLE, FIRST, MIDDLE, LAST = 0, 1, 2, 3

try:
    import cocotb
    from cocotb.triggers import Timer
except ImportError:  # pragma: no cover - the pytest side imports this module too
    cocotb = None


def _ctx(y: int, blocks: int, aad: int, pay: int) -> int:
    return (y << 128) | (blocks << 96) | (aad << 64) | (pay << 32)


if cocotb is not None:
    @cocotb.test()
    async def cocotb_cmd_parts(dut) -> None:
        parts = int(os.environ["AK_PARTS"])
        rng = random.Random(parts)

        async def cmd(mode: int, part: int, aad: int, msg: int, ctx: int = 0,
                      iv_len: int = 12, dec: int = 0, tag_len: int = 16) -> None:
            dut.mode_i.value = mode
            dut.decrypt_i.value = dec
            dut.iv_i.value = 0
            dut.iv_len_i.value = iv_len
            dut.nonce_len_i.value = 13
            dut.tag_len_i.value = tag_len
            dut.aad_len_i.value = aad
            dut.msg_len_i.value = msg
            dut.key_len_i.value = 0
            dut.part_i.value = part
            dut.ctx_i.value = ctx
            await Timer(1, "ns")

        y = rng.getrandbits(128)
        for mode in (6, 7):
            # WHOLE: legal at both settings, nothing of the parts
            await cmd(mode, WHOLE, 16 if mode == 6 else 0, 40, _ctx(y, 3, 16, 48), dec=1)
            assert int(dut.err_o.value) == 0 and int(dut.mid_o.value) == 0
            assert int(dut.tag_in_o.value) == 1
            assert int(dut.y0_o.value) == 0 and int(dut.ctr_o.value) == 0
            if mode == 6:
                assert int(dut.glen_o.value) == (128 << 64) | 320
            for part in (FIRST, MIDDLE, LAST):
                await cmd(mode, part, 16 if mode == 6 and part == FIRST else 0, 32,
                          _ctx(y, 2, 16, 32), dec=1)
                assert int(dut.err_o.value) == (0 if parts else 1), (mode, part)
                # (a FIRST / MIDDLE part announces no tag beat, built or not)
                assert int(dut.tag_in_o.value) == (1 if part == LAST else 0)
                if parts:
                    assert int(dut.mid_o.value) == (part != LAST)
                    assert int(dut.y0_o.value) == (y if part != FIRST else 0)
                    assert int(dut.ctr_o.value) == (2 if mode == 6 and part != FIRST else 0)
                    if mode == 6 and part == LAST:
                        # the totals: 16 AAD bytes and 32 + 32 payload bytes, in bits
                        assert int(dut.glen_o.value) == (128 << 64) | 512
                        assert int(dut.mac_blocks_o.value) == 2 + 1
                    if mode == 6 and part == MIDDLE:
                        assert int(dut.mac_blocks_o.value) == 2  # no length block
                else:
                    assert int(dut.mid_o.value) == 0 and int(dut.y0_o.value) == 0
        # GCM, IV not of 12 bytes: y starts at 0 (J0 first), the restart value is ctx's
        await cmd(6, MIDDLE, 0, 16, _ctx(y, 1, 0, 16), iv_len=20)
        assert int(dut.err_o.value) == (0 if parts else 1)
        assert int(dut.y0_o.value) == 0
        assert int(dut.yc_o.value) == (y if parts else 0)
        # the other modes: any part is illegal
        for mode in (0, 1, 2, 3, 4, 5, 8):
            for part in (FIRST, MIDDLE, LAST):
                await cmd(mode, part, 0, 256)
                assert int(dut.err_o.value) == 1, (mode, part)


@pytest.mark.parametrize("parts", [0, 1])
def test_cmd_parts(parts: int) -> None:
    from aeskit.hw.manifest import sources_of_module
    from aeskit.sim.cocotb_run import run_cocotb

    # the mode engine's manifest (its packages first; the other units come along and
    # are not elaborated under this top)
    files = sources_of_module("ak_mode_cmd")
    run_cocotb(toplevel="ak_mode_cmd", sources=files, test_module="test_mode_cmd_parts",
               test_dir=HERE, parameters={"Parts": parts},
               extra_env={"AK_PARTS": str(parts)})
