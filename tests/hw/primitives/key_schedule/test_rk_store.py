"""The round-key stores of paper 003's cores against the golden model:
ak_rk_fill (the hardware key expansion), ak_rk_store (register bank) and ak_rk_ram
(RAM bank, read latency 1).

For the FIPS-197 Appendix A keys and a few hundred random keys of each size: every
encryption round key (``aeskit.model.expand_key``) and every equivalent-inverse-cipher
decryption round key (r = 0 -> enc Nr, 1 .. Nr-1 -> ``inv_mix_columns(enc Nr-r)``,
Nr -> enc 0); the exact fill timing (ready_o first high rk_fill_cycles() edges after the handshake);
entries above Nr zero after a shorter key follows a longer one (ak_rk_store, also with
its write chain: entry r final r // Group edges after ready_o); the software load
port; the illegal key length; reset in the middle of a fill.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw import PRIMITIVES
from aeskit.hw.catalog.memory_primitives import rk_fill_cycles
from aeskit.model import expand_key, inv_mix_columns

KEY_LEN_CODE = {16: 0, 24: 1, 32: 2}
NR = {16: 10, 24: 12, 32: 14}

FIPS_KEYS = [
    bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"),
    bytes.fromhex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
    bytes.fromhex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
]


def model_keys(key: bytes) -> tuple[list[bytes], list[bytes]]:
    """(encryption round keys, decryption round keys of the equivalent inverse cipher)"""
    enc = expand_key(key)
    nr = len(enc) - 1
    dec = [enc[nr]] + [inv_mix_columns(enc[nr - r]) for r in range(1, nr)] + [enc[0]]
    return enc, dec


def test_keys(n_per_size: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    keys = list(FIPS_KEYS)
    for n in (16, 24, 32):
        keys += [bytes(n), b"\xff" * n] + [rng.randbytes(n) for _ in range(n_per_size)]
    rng.shuffle(keys)
    return keys


test_keys.__test__ = False  # a helper, not a pytest test


def _entry(v: int, r: int) -> bytes:
    return ((v >> (128 * r)) & ((1 << 128) - 1)).to_bytes(16, "big")


async def _start(dut, sw: bool = True) -> None:
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    dut.rst_ni.value = 0
    dut.key_valid_i.value = 0
    dut.key_i.value = 0
    dut.key_len_i.value = 0
    if sw:
        dut.sw_we_i.value = 0
        dut.sw_dec_i.value = 0
        dut.sw_round_i.value = 0
        dut.sw_key_i.value = 0
    await RisingEdge(dut.clk_i)
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await FallingEdge(dut.clk_i)


async def _load(dut, key: bytes, code: int | None = None) -> int:
    """Present the key at a falling edge; return the cycles from the handshake edge
    to the first edge at which ready_o is high (-1 for an illegal key)."""
    assert int(dut.key_ready_o.value) == 1
    dut.key_i.value = int.from_bytes(key.ljust(32, b"\0"), "big")
    dut.key_len_i.value = KEY_LEN_CODE[len(key)] if code is None else code
    dut.key_valid_i.value = 1
    await RisingEdge(dut.clk_i)  # handshake
    await FallingEdge(dut.clk_i)
    dut.key_valid_i.value = 0
    if code == 3:
        return -1
    cycles = 1
    while not int(dut.ready_o.value):
        assert int(dut.key_ready_o.value) == 0, "key_ready_o high during the fill"
        await FallingEdge(dut.clk_i)
        cycles += 1
        assert cycles < 100
    assert int(dut.key_ready_o.value) == 1
    return cycles


# ----------------------------------------------------------------------------------
# ak_rk_store
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_store_keys(dut) -> None:
    nr_max = int(os.environ.get("AK_NR_MAX", "14"))
    await _start(dut)
    sizes = [n for n in (16, 24, 32) if NR[n] <= nr_max]
    keys = [k for k in test_keys(int(os.environ.get("AK_KEYS", "200")), 3) if len(k) in sizes]
    for key in keys:
        cycles = await _load(dut, key)
        nr = NR[len(key)]
        want = rk_fill_cycles(8 * len(key))
        assert cycles == want, f"ready_o first high {cycles} edges after the handshake, expected {want}"
        assert int(dut.nr_o.value) == nr
        enc, dec = model_keys(key)
        # entry r is final _level(r) edges after the edge at which ready_o rose (0
        # without a write chain): check each entry from that cycle on
        for k in range(_level(nr_max) + 1):
            ev, dv = int(dut.enc_keys_o.value), int(dut.dec_keys_o.value)
            for r in (r for r in range(15) if _level(r) <= k):
                if r <= nr:
                    assert _entry(ev, r) == enc[r], f"key {key.hex()}: enc round {r} (+{k})"
                    assert _entry(dv, r) == dec[r], f"key {key.hex()}: dec round {r} (+{k})"
                else:
                    assert _entry(ev, r) == bytes(16), f"enc entry {r} above Nr not zero"
                    assert _entry(dv, r) == bytes(16), f"dec entry {r} above Nr not zero"
            await FallingEdge(dut.clk_i)
    dut._log.info("%d keys checked", len(keys))


def _level(r: int) -> int:
    """Edges after ready_o (or a software write) until entry r is written: r // Group
    (ak_rk_store's write chain; 0 without one)."""
    group = int(os.environ.get("AK_GROUP", "0"))
    return r // group if group else 0


@cocotb.test()
async def cocotb_store_sw_illegal_reset(dut) -> None:
    await _start(dut)
    rng = random.Random(5)
    key = rng.randbytes(16)
    await _load(dut, key)
    enc, dec = model_keys(key)
    # software writes: overwrite some rounds of both directions
    new = {}
    for _ in range(12):
        d, r, v = rng.randint(0, 1), rng.randint(0, 10), rng.randbytes(16)
        dut.sw_we_i.value = 1
        dut.sw_dec_i.value = d
        dut.sw_round_i.value = r
        dut.sw_key_i.value = int.from_bytes(v, "big")
        new[(d, r)] = v
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
    dut.sw_we_i.value = 0
    for _ in range(_level(14)):
        await FallingEdge(dut.clk_i)
    ev, dv = int(dut.enc_keys_o.value), int(dut.dec_keys_o.value)
    for r in range(11):
        assert _entry(ev, r) == new.get((0, r), enc[r])
        assert _entry(dv, r) == new.get((1, r), dec[r])
    # illegal key length: handshake completes, no key
    assert await _load(dut, bytes(32), code=3) == -1
    for _ in range(20):
        assert int(dut.ready_o.value) == 0 and int(dut.key_ready_o.value) == 1
        await FallingEdge(dut.clk_i)
    # reset in the middle of a fill, then a clean load
    dut.key_i.value = int.from_bytes(rng.randbytes(32), "big")
    dut.key_len_i.value = 2
    dut.key_valid_i.value = 1
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.key_valid_i.value = 0
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 0
    await FallingEdge(dut.clk_i)
    dut.rst_ni.value = 1
    await FallingEdge(dut.clk_i)
    assert int(dut.ready_o.value) == 0 and int(dut.key_ready_o.value) == 1
    key = rng.randbytes(24)
    assert await _load(dut, key) == rk_fill_cycles(192)
    enc, dec = model_keys(key)
    for _ in range(_level(12)):
        await FallingEdge(dut.clk_i)
    assert _entry(int(dut.dec_keys_o.value), 12) == dec[12]


# ----------------------------------------------------------------------------------
# ak_rk_ram
# ----------------------------------------------------------------------------------
async def _ram_read(dut, dec: int, r: int) -> bytes:
    dut.rd_en_i.value = 1
    dut.rd_dec_i.value = dec
    dut.rd_round_i.value = r
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.rd_en_i.value = 0
    return int(dut.rd_key_o.value).to_bytes(16, "big")


@cocotb.test()
async def cocotb_ram_keys(dut) -> None:
    await _start(dut)
    dut.rd_en_i.value = 0
    dut.rd_dec_i.value = 0
    dut.rd_round_i.value = 0
    keys = test_keys(int(os.environ.get("AK_KEYS", "200")), 4)
    for key in keys:
        cycles = await _load(dut, key)
        nr = NR[len(key)]
        assert cycles == rk_fill_cycles(8 * len(key))
        enc, dec = model_keys(key)
        assert int(dut.enc_key0_o.value).to_bytes(16, "big") == enc[0]
        assert int(dut.dec_key0_o.value).to_bytes(16, "big") == dec[0]
        for d, ref in ((0, enc), (1, dec)):
            for r in range(nr + 1):
                got = await _ram_read(dut, d, r)
                assert got == ref[r], f"key {key.hex()} {'dec' if d else 'enc'} round {r}"
    # the read output holds while rd_en_i is low
    held = await _ram_read(dut, 1, 3)
    dut.rd_round_i.value = 7
    dut.rd_dec_i.value = 0
    for _ in range(3):
        await FallingEdge(dut.clk_i)
        assert int(dut.rd_key_o.value).to_bytes(16, "big") == held
    # software writes
    dut.sw_we_i.value = 1
    dut.sw_dec_i.value = 1
    dut.sw_round_i.value = 5
    dut.sw_key_i.value = 0x0123456789ABCDEF0011223344556677
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.sw_dec_i.value = 0
    dut.sw_round_i.value = 0
    dut.sw_key_i.value = 0xFFEEDDCCBBAA99887766554433221100
    await RisingEdge(dut.clk_i)
    await FallingEdge(dut.clk_i)
    dut.sw_we_i.value = 0
    assert await _ram_read(dut, 1, 5) == bytes.fromhex("0123456789abcdef0011223344556677")
    assert await _ram_read(dut, 0, 0) == bytes.fromhex("ffeeddccbbaa99887766554433221100")
    assert int(dut.enc_key0_o.value) == 0xFFEEDDCCBBAA99887766554433221100


# ----------------------------------------------------------------------------------
# ak_rk_fill (the writes it issues)
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_fill_writes(dut) -> None:
    await _start(dut, sw=False)
    for key in test_keys(20, 6):
        nr = NR[len(key)]
        enc, dec = model_keys(key)
        dut.key_i.value = int.from_bytes(key.ljust(32, b"\0"), "big")
        dut.key_len_i.value = KEY_LEN_CODE[len(key)]
        dut.key_valid_i.value = 1
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        dut.key_valid_i.value = 0
        enc_writes, dec_writes = [], []
        edges, final_edge = 0, None
        while not int(dut.ready_o.value):
            edges += 1
            onehot_e = int(dut.we_round_o.value)
            onehot_d = int(dut.dec_we_round_o.value)
            if int(dut.we_o.value):
                r = int(dut.round_o.value)
                assert onehot_e == 1 << r
                enc_writes.append((r, int(dut.enc_key_o.value), edges))
                final_edge = edges
            else:
                assert onehot_e == 0
            if int(dut.dec_we_o.value):
                dr = int(dut.dec_round_o.value)
                assert onehot_d == 1 << dr
                dec_writes.append((dr, int(dut.dec_key_o.value), edges))
            else:
                assert onehot_d == 0
            await FallingEdge(dut.clk_i)
        # encryption keys in order, the last at the edge that raises ready_o
        assert [w[0] for w in enc_writes] == list(range(nr + 1))
        assert final_edge == edges
        for r, ek, _ in enc_writes:
            assert ek.to_bytes(16, "big") == enc[r]
        # every decryption key once: dec round 0 (= enc round Nr) with the last
        # encryption write, the others one cycle after their encryption round's
        assert sorted(w[0] for w in dec_writes) == list(range(nr + 1))
        for dr, dk, edge in dec_writes:
            assert dk.to_bytes(16, "big") == dec[dr]
        enc_edge = {r: edge for r, _, edge in enc_writes}
        for dr, _, edge in dec_writes:
            plain = dr in (0, nr)
            assert edge == enc_edge[nr - dr] + (0 if plain else 1)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent


def _prim(top: str):
    return next(p for p in PRIMITIVES if p.top == top)


def _run(top: str, testcase: str | list[str], parameters: dict | None = None,
         **env: object) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    p = _prim(top)
    run_cocotb(toplevel=top, sources=p.file_paths(), test_module="test_rk_store",
               test_dir=HERE, parameters=parameters or {}, testcase=testcase,
               extra_env={k: str(v) for k, v in env.items()})


@pytest.mark.parametrize("nr_max, group", [(14, 0), (10, 0),
                                            pytest.param(14, 2, marks=pytest.mark.slow),
                                            (10, 1)])
def test_rk_store(nr_max: int, group: int) -> None:
    """Group > 0: the write chain of the unrolled cores (entry r written r // Group
    edges after the fill's write): every entry checked from the cycle it must be
    final, software writes and the reset mid-fill included."""
    cases = ["cocotb_store_keys"] + (["cocotb_store_sw_illegal_reset"] if nr_max == 14 else [])
    _run("ak_rk_store", cases, {"NrMax": nr_max, "Group": group}, AK_NR_MAX=nr_max,
         AK_GROUP=group)


def test_rk_ram() -> None:
    _run("ak_rk_ram", "cocotb_ram_keys")


def test_rk_fill() -> None:
    _run("ak_rk_fill", "cocotb_fill_writes")
