"""ak_compact8r_core (registry ``compact8r_e128``: byte-serial, encryption and AES-128
only, state and keys in one 64 x 8 block RAM, issue 50) on Verilator.

* every AES-128 ECB KAT (GFSbox, KeySbox, VarKey, VarTxt) and MMT encryption record
  against NIST, under gaps and stalls;
* exact cycle counts, never stalled: latency and interval 702 (11 passes of 64
  cycles, the result written at step 700), key setup 18 after the handshake, and the
  key staging before it: key_ready_o rises 16 cycles after key_valid_i on an idle
  core (the registry's claims, checked by the shared core bench);
* random blocks against ``cryptography``'s AES with random keys, gaps and stalls;
  tags through a TagWidth = 4 build;
* key reload behind blocks in flight, a key withdrawn during its staging (the key in
  force stays), reset in the middle of a block, of a stalled result and of a key setup, the refusals (192/256-bit
  keys, the illegal code, decryption).

The file is both the pytest module and the cocotb module (``cocotb_*``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.hw import get_core
from aeskit.testbench import corebench
# cocotb_*: shared core-bench tests; cocotb runs every test this module holds
from aeskit.testbench.corebench import (Claims, check_block, cocotb_exact_timing, cocotb_kat,
                                        cocotb_refusal, key_reload, refuse_key, reset_round,
                                        start)

#: latency and interval: 11 passes of 64 cycles, the last byte at step 700, plus one
CYCLES = 11 * 64 - 4 + 2
#: key setup after the handshake: 16 bytes copied from the round-key area to the key
#: area, one cycle for the read, one for the key flag
SETUP = 18
#: cycles of key_valid_i (core idle) before key_ready_o rises: the 16 bytes staged
KEY_STAGE = 16


def _ecb(key: bytes, block: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


@cocotb.test()
async def cocotb_against_cryptography(dut: Any) -> None:
    """Random keys and blocks under gaps and stalls, checked against ``cryptography``
    (the bench's scoreboard checks them against aeskit's model as well)."""
    tb = await start(dut, gap=0.2, stall=0.4, seed=31)
    rng = random.Random(31)
    recs = []
    for _ in range(12):
        tb.queue_key(rng.randbytes(16))
        recs += [tb.send(rng.randbytes(16), tag=rng.randrange(1 << tb.tag_width))
                 for _ in range(rng.randint(1, 4))]
    await tb.drain()
    for r in recs:
        assert r.result == _ecb(r.key, r.data), r.index
    dut._log.info("%d blocks", len(recs))


@cocotb.test()
async def cocotb_key_copy(dut: Any) -> None:
    """key_ready_o rises exactly KEY_STAGE cycles after key_valid_i on an idle core; a
    key withdrawn in the middle of its staging leaves the key in force (a block under
    it is right), and the staging of the next key starts from byte 0."""
    tb = await start(dut)
    key = bytes(range(16))
    await check_block(tb, key, bytes(16))
    tb.pause()
    clk = dut.clk_i

    async def edge() -> None:
        await RisingEdge(clk)
        await FallingEdge(clk)

    key2 = bytes(range(100, 116))
    dut.key_i.value = int.from_bytes(key2.ljust(32, b"\0"), "big")
    dut.key_len_i.value = 0
    dut.in_valid_i.value = 0
    dut.in_decrypt_i.value = 0
    dut.out_ready_i.value = 1
    # withdrawn after 10 cycles
    dut.key_valid_i.value = 1
    for _ in range(10):
        await edge()
        assert not dut.key_ready_o.value
    dut.key_valid_i.value = 0
    await edge()
    assert dut.key_ready_o.value and dut.in_ready_o.value, "the key in force stays"
    dut.in_valid_i.value = 1
    dut.in_data_i.value = int.from_bytes(bytes(range(16)), "big")
    await RisingEdge(clk)  # the accepting edge
    dut.in_valid_i.value = 0
    await FallingEdge(clk)
    while not dut.out_valid_o.value:
        await edge()
    got = int(dut.out_data_o.value).to_bytes(16, "big")
    assert got == _ecb(key, bytes(range(16))), "a withdrawn key changed the key in force"
    await RisingEdge(clk)  # the result taken
    # a full staging: key_ready_o after exactly KEY_STAGE cycles of key_valid_i
    dut.key_valid_i.value = 1
    n = 0
    while True:
        await edge()
        n += 1
        if dut.key_ready_o.value:
            break
        assert n < 100
    assert n == KEY_STAGE, n
    await RisingEdge(clk)  # the handshake edge
    dut.key_valid_i.value = 0
    dut.in_valid_i.value = 1
    dut.in_data_i.value = 0
    n = 0
    while True:
        await FallingEdge(clk)
        n += 1
        if dut.in_ready_o.value:
            break
        await RisingEdge(clk)
    assert n == SETUP, n
    await RisingEdge(clk)  # the accepting edge
    dut.in_valid_i.value = 0
    n = 0
    while True:
        await FallingEdge(clk)
        if dut.out_valid_o.value:
            break
        await RisingEdge(clk)
        n += 1
    assert n + 1 == CYCLES, n
    got = int(dut.out_data_o.value).to_bytes(16, "big")
    assert got == _ecb(key2, bytes(16))
    await RisingEdge(clk)
    tb.resume()
    await check_block(tb, key, bytes(range(16)))


@cocotb.test()
async def cocotb_key_reload_128(dut: Any) -> None:
    """Key reload behind blocks in flight, AES-128 keys, encryption."""
    await key_reload(dut, keys=(16, 16, 16), first=16, second=16, after_decrypt=False,
                     mixed=False)


@cocotb.test()
async def cocotb_controls(dut: Any) -> None:
    """Reset in the middle of a block, of a stalled result and of a key setup (idle and
    keyless after it); the illegal key length and the sizes the build lacks
    (handshake at once, no key after)."""
    tb = await start(dut, seed=9)
    rng = random.Random(9)
    for where in (1, 17, 40, 300, 701, 702, 900):
        await reset_round(tb, rng, where, 16, "ee", stalled=CYCLES + 5, setup_mod=40,
                          final=False)
    for code in (1, 2, 3):
        await refuse_key(tb, bytes(range(32)), code, 100)
    await check_block(tb, bytes(range(16)), bytes(range(16)))


@cocotb.test()
async def cocotb_tags_128(dut: Any) -> None:
    """Every tag value goes through with its block, under gaps and stalls."""
    tb = await start(dut, gap=0.2, stall=0.5, seed=21)
    rng = random.Random(21)
    await tb.load_key(rng.randbytes(16))
    recs = [tb.send(rng.randbytes(16), tag=t) for t in list(range(1 << tb.tag_width)) * 2]
    await tb.drain()
    assert [r.tag for r in recs] == list(range(1 << tb.tag_width)) * 2
    assert all(r.done for r in recs)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
CORE = get_core("compact8r_e128")
_ = (cocotb_kat, cocotb_exact_timing, cocotb_refusal)


def _run(testcase: str | list[str], tag_width: int = 4, **env: object) -> None:
    corebench.run(CORE, "test_compact8r", HERE, testcase, tag_width=tag_width,
                  claims=Claims.of(CORE, timing_blocks=4), AK_KEY_SIZE=128, **env)


def test_compact8r_claims() -> None:
    assert CORE.top == "ak_compact8r_core"
    assert CORE.latency == {128: CYCLES} and CORE.interval == {128: CYCLES}
    assert CORE.key_setup == {128: SETUP}
    assert CYCLES == 702
    assert CORE.key_sizes == (128,) and not CORE.decrypt and CORE.in_flight == 1
    assert CORE.parameters == {"Directions": 1, "KeySizes": 1}


def test_compact8r_kat_timing() -> None:
    _run(["cocotb_kat", "cocotb_exact_timing"], AK_GAP=0.2, AK_STALL=0.3)


def test_compact8r_random() -> None:
    _run(["cocotb_against_cryptography", "cocotb_tags_128"])


def test_compact8r_control() -> None:
    _run(["cocotb_key_copy", "cocotb_key_reload_128", "cocotb_controls", "cocotb_refusal"],
         AK_SEED=48)
