"""Shared primitives (hw/primitives) against the golden model.

* ak_sbox / ak_inv_sbox: all 256 inputs vs ``aeskit.model.SBOX`` / ``INV_SBOX`` (that
  the committed files are the generator's output is tests/aeskit/gen's check).
* ak_xtime: all 256 inputs vs ``gf_mul(x, 2)``.
* ak_sub_word: random words vs ``aeskit.model.sub_word``.
* ak_mix_column / ak_inv_mix_column: random columns (and the FIPS-197 example
  columns) vs the model's ``mix_columns`` / ``inv_mix_columns``.
* ak_inv_mix_pre: the same columns vs ``inv_mix_columns`` applied twice (the pre-map
  is MixColumns^-1 o InvMixColumns, and MixColumns^-1 = InvMixColumns).
* ak_key_step_ctl: every key length, reachable phase and direction against the
  SubWord positions from FIPS-197's index arithmetic.
* ak_key_step_split, run as a schedule runs it (each step fed the sub_o of the step
  before): the FIPS-197 Appendix A key expansions and 200 random keys per size, run
  forward from the key for Nr steps and then backward to the key, every window, phase,
  Rcon and sub_o against ``aeskit.model.key_schedule_words`` and the reference SubWord
  selection; and 1,000 random keys per size (forward all round keys, backward to the
  key).
* the S-box library of issue 3 (tests below ``# S-box library``): every S-box and
  inversion variant on all 256 inputs (both directions of the shared enc/dec forms)
  against ``SBOX``/``INV_SBOX``/``gf_inv``; the composite-field substages on every
  input against the field model of :mod:`aeskit.gen`; the block-RAM forms with
  their one-cycle latency; the column maps (paper 001 merged Affine+MixColumns and
  InvMixColumns+InvAffine, paper 002 unified affine maps, direct InvMixColumns) on random columns against
  the model's MixColumns/InvMixColumns; the selectors for every Impl.

The file is both the pytest module (one build per primitive) and the cocotb test
module (``cocotb_*`` coroutines, selected per top level).
"""

from __future__ import annotations

import random
from pathlib import Path

import cocotb
import pytest
from cocotb.triggers import Timer

from aeskit import REPO_ROOT
from aeskit.hw import PRIMITIVES
from aeskit.model import (
    INV_SBOX,
    SBOX,
    gf_inv,
    gf_mul,
    inv_mix_columns,
    key_schedule_words,
    mix_columns,
    sub_word,
)
from aeskit.model.gf import affine, inv_affine

KEY_LEN_CODE = {16: 0, 24: 1, 32: 2}
NK = {16: 4, 24: 6, 32: 8}
NR = {16: 10, 24: 12, 32: 14}

#: FIPS-197 Appendix A cipher keys (A.1, A.2, A.3)
FIPS_KEYS = [
    bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"),
    bytes.fromhex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
    bytes.fromhex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
]


async def settle() -> None:
    await Timer(1, unit="ns")


# ----------------------------------------------------------------------------------
# cocotb tests (run inside the simulator)
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_sbox_all(dut) -> None:
    for x in range(256):
        dut.in_i.value = x
        await settle()
        got = int(dut.out_o.value)
        assert got == SBOX[x], f"ak_sbox({x:#04x}) = {got:#04x}, expected {SBOX[x]:#04x}"


@cocotb.test()
async def cocotb_inv_sbox_all(dut) -> None:
    for x in range(256):
        dut.in_i.value = x
        await settle()
        got = int(dut.out_o.value)
        assert got == INV_SBOX[x], (f"ak_inv_sbox({x:#04x}) = {got:#04x}, "
                                    f"expected {INV_SBOX[x]:#04x}")


@cocotb.test()
async def cocotb_xtime_all(dut) -> None:
    for x in range(256):
        dut.in_i.value = x
        await settle()
        got = int(dut.out_o.value)
        assert got == gf_mul(x, 2), f"ak_xtime({x:#04x}) = {got:#04x}"


@cocotb.test()
async def cocotb_sub_word_random(dut) -> None:
    rng = random.Random(11)
    words = [0, 0xFFFFFFFF, 0x00010203, 0xCF4F3C09] + [rng.getrandbits(32) for _ in range(500)]
    for w in words:
        dut.in_i.value = w
        await settle()
        got = int(dut.out_o.value)
        assert got == sub_word(w), f"ak_sub_word({w:#010x}) = {got:#010x}"


def _column_cases(seed: int) -> list[bytes]:
    rng = random.Random(seed)
    # FIPS-197 Appendix B round 1 column 0 (d4 bf 5d 30 -> 04 66 81 e5), extremes, random
    fixed = [bytes.fromhex(h) for h in ("d4bf5d30", "00000000", "ffffffff", "01010101",
                                        "db135345", "f20a225c", "c6c6c6c6", "2d26314c")]
    return fixed + [rng.randbytes(4) for _ in range(1000)]


async def _check_column_op(dut, op, name: str) -> None:
    for col in _column_cases(12):
        dut.in_i.value = int.from_bytes(col, "big")
        await settle()
        got = int(dut.out_o.value)
        # the model works on a state: put the column in column 0 of a zero state
        exp = int.from_bytes(op(col + bytes(12))[:4], "big")
        assert got == exp, f"{name}({col.hex()}) = {got:08x}, expected {exp:08x}"


@cocotb.test()
async def cocotb_mix_column_random(dut) -> None:
    await _check_column_op(dut, mix_columns, "ak_mix_column")


@cocotb.test()
async def cocotb_inv_mix_column_random(dut) -> None:
    await _check_column_op(dut, inv_mix_columns, "ak_inv_mix_column")


@cocotb.test()
async def cocotb_inv_mix_pre_random(dut) -> None:
    # InvMixColumns = MixColumns o pre and MixColumns^-1 = InvMixColumns, so
    # pre = InvMixColumns o InvMixColumns: the model's inverse applied twice
    await _check_column_op(dut, lambda s: inv_mix_columns(inv_mix_columns(s)),
                           "ak_inv_mix_pre")


def _window_int(words: list[int]) -> int:
    v = 0
    for i in range(8):
        v = (v << 32) | (words[i] if i < len(words) else 0)
    return v


def _window_words(v: int) -> list[int]:
    return [(v >> (32 * (7 - i))) & 0xFFFFFFFF for i in range(8)]


def _ctl(code: int, phase: int, reverse: bool) -> int:
    """ak_key_step_ctl's vector from FIPS-197's index arithmetic, not from its RTL: the
    four words a step makes (forward) or recovers (backward) are w[b + Nk .. b + Nk + 3]
    with b the index of the oldest word of the window they start (forward this one,
    backward the new one, 4 words back); word j of them gets RotWord(SubWord()) ^ Rcon
    when its index is 0 mod Nk, SubWord() alone when Nk = 8 and it is 4 mod 8.
    Only the fields a step uses are fixed here: rot where a SubWord lands."""
    nk = {0: 4, 1: 6}.get(code, 8)
    start = (phase - 4) % nk if reverse else phase  # phase of the window the words start
    hits = [j for j in range(4) if (start + nk + j) % nk == 0 or (nk == 8 and (start + j) % 8 == 4)]
    rot = any((start + nk + j) % nk == 0 for j in hits)
    bits = [reverse, code == 0, code == 1, code >= 2, 0 in hits, 2 in hits, rot,
            phase == 0, phase == 4]
    return sum(int(bool(v)) << i for i, v in enumerate(bits))


#: the phases a window of each key-length code can have: (4s) mod Nk
_PHASES = {0: (0,), 1: (0, 2, 4), 2: (0, 4)}


@cocotb.test()
async def cocotb_key_step_ctl_all(dut) -> None:
    """Every (key length, reachable phase, direction): ctl_o against :func:`_ctl` (the
    rot bit only where a SubWord lands) and phase_next_o against (4s +- 4) mod Nk."""
    for code, phases in _PHASES.items():
        nk = (4, 6, 8)[code]
        for phase in phases:
            for reverse in (False, True):
                dut.key_len_i.value = code
                dut.phase_i.value = phase
                dut.reverse_i.value = int(reverse)
                await settle()
                got, want = int(dut.ctl_o.value), _ctl(code, phase, reverse)
                mask = 0x1FF if want & 0x30 else 0x1BF  # rot matters with a SubWord
                assert got & mask == want & mask, (
                    f"key_len {code} phase {phase} reverse {reverse}: ctl {got:09b}, "
                    f"want {want:09b}")
                nxt = (phase - 4) % nk if reverse else (phase + 4) % nk
                assert int(dut.phase_next_o.value) == nxt, (
                    f"key_len {code} phase {phase} reverse {reverse}: next phase")


async def _step(dut, win: int, code: int, phase: int, rcon: int, reverse: bool):
    dut.win_i.value = win
    dut.ctl_i.value = _ctl(code, phase, reverse)
    dut.key_len_i.value = code
    dut.phase_i.value = phase
    dut.rcon_i.value = rcon
    dut.reverse_i.value = int(reverse)
    await settle()
    return int(dut.win_o.value), int(dut.phase_o.value), int(dut.rcon_o.value)


def _check_window(win: int, key: bytes, s: int, what: str) -> None:
    """Window s must hold w[4s .. 4s+Nk-1] (as far as FIPS-197 defines them) and zeros."""
    nk = NK[len(key)]
    ref = key_schedule_words(key)
    got = _window_words(win)
    for j in range(8):
        i = 4 * s + j
        if j >= nk:
            assert got[j] == 0, f"{what}: unused window word {j} = {got[j]:08x}, expected 0"
        elif i < len(ref):
            assert got[j] == ref[i], (f"{what}: key {key.hex()} window {s} word {j} "
                                      f"(w[{i}]) = {got[j]:08x}, expected {ref[i]:08x}")


def _sub_input(win: int, code: int, phase: int, reverse: bool) -> int:
    """The SubWord input of a step from ``win`` (what the caller of ak_key_step_split
    supplies, as its header defines it)."""
    w = _window_words(win)
    if not reverse:
        if code == 0:
            return w[3]
        if code == 1:
            return w[0] ^ w[1] ^ w[5] if phase == 4 else w[5]
        return w[7]
    if code == 0:
        return w[3] ^ w[2]
    if code == 1:
        return w[3] if phase == 2 else w[1]
    return w[3]


async def _split_step(dut, win: int, code: int, phase: int, rcon: int, reverse: bool,
                      sub: int):
    dut.sub_i.value = sub
    win_o, phase_o, rcon_o = await _step(dut, win, code, phase, rcon, reverse)
    return win_o, phase_o, rcon_o, int(dut.sub_o.value)


@cocotb.test()
async def cocotb_key_step_split_expansion(dut) -> None:
    """ak_key_step_split as a schedule runs it: the SubWord input of each step is the
    sub_o of the step before (only the first one of each direction comes from the
    reference selection); every window against the model, forward and backward, and
    every sub_o against the selection from the new window."""
    rng = random.Random(19)
    keys = list(FIPS_KEYS)
    for n in (16, 24, 32):
        keys += [bytes(n), b"\xff" * n] + [rng.randbytes(n) for _ in range(200)]
    for key in keys:
        nk, nr, code = NK[len(key)], NR[len(key)], KEY_LEN_CODE[len(key)]
        start = _window_int([int.from_bytes(key[4 * i:4 * i + 4], "big") for i in range(nk)])
        win, phase, rcon = start, 0, 0x01
        sub = _sub_input(win, code, phase, False)
        forward = [(win, phase, rcon)]
        for s in range(1, nr + 1):
            win, phase, rcon, sub = await _split_step(dut, win, code, phase, rcon, False, sub)
            _check_window(win, key, s, f"split forward step {s}")
            assert sub == _sub_input(win, code, phase, False), f"forward sub_o, step {s}"
            forward.append((win, phase, rcon))
        sub = _sub_input(win, code, phase, True)
        for s in range(nr - 1, -1, -1):
            win, phase, rcon, sub = await _split_step(dut, win, code, phase, rcon, True, sub)
            assert (win, phase, rcon) == forward[s], (
                f"key {key.hex()}: split backward step to window {s} differs from forward")
            assert sub == _sub_input(win, code, phase, True), f"backward sub_o, window {s}"
        assert win == start


@cocotb.test()
async def cocotb_key_step_split_random_1000(dut) -> None:
    """1,000 random keys per size: every forward window (all round keys) against the
    model, then backward to the cipher key, each step fed the sub_o of the step before."""
    rng = random.Random(17)
    for n in (16, 24, 32):
        nk, nr, code = NK[n], NR[n], KEY_LEN_CODE[n]
        for _ in range(1000):
            key = rng.randbytes(n)
            ref = key_schedule_words(key)
            start = _window_int([int.from_bytes(key[4 * i:4 * i + 4], "big") for i in range(nk)])
            win, phase, rcon = start, 0, 0x01
            sub = _sub_input(win, code, phase, False)
            for s in range(1, nr + 1):
                win, phase, rcon, sub = await _split_step(dut, win, code, phase, rcon, False,
                                                          sub)
                got = _window_words(win)
                for j in range(min(nk, len(ref) - 4 * s)):
                    assert got[j] == ref[4 * s + j], f"key {key.hex()} window {s} word {j}"
            sub = _sub_input(win, code, phase, True)
            for s in range(nr - 1, -1, -1):
                win, phase, rcon, sub = await _split_step(dut, win, code, phase, rcon, True,
                                                          sub)
            assert win == start, f"key {key.hex()}: backward run does not return to the key"


# ----------------------------------------------------------------------------------
# S-box library (issue 3)
# ----------------------------------------------------------------------------------
def _gen():
    from aeskit.gen import gf2, maps
    return gf2, maps


async def _check_comb(dut, cases, expect, name: str, dec: int | None = None) -> None:
    for x in cases:
        dut.in_i.value = x
        if dec is not None:
            dut.dec_i.value = dec
        await settle()
        got = int(dut.out_o.value)
        want = expect(x)
        assert got == want, f"{name}(in={x:#x}, dec={dec}) = {got:#x}, expected {want:#x}"


async def _check_encdec(dut, name: str) -> None:
    await _check_comb(dut, range(256), lambda x: SBOX[x], name, dec=0)
    await _check_comb(dut, range(256), lambda x: INV_SBOX[x], name, dec=1)


@cocotb.test()
async def cocotb_encdec_all(dut) -> None:
    await _check_encdec(dut, dut._name)


@cocotb.test()
async def cocotb_sel_all(dut) -> None:
    """ak_sbox_sel / ak_inv_sbox_sel with the Impl they were built with."""
    table = INV_SBOX if "inv" in dut._name else SBOX
    await _check_comb(dut, range(256), lambda x: table[x], dut._name)


@cocotb.test()
async def cocotb_gf_inv_all(dut) -> None:
    await _check_comb(dut, range(256), gf_inv, "ak_gf_inv")


@cocotb.test()
async def cocotb_affine_all(dut) -> None:
    await _check_comb(dut, range(256), affine, "ak_affine")


@cocotb.test()
async def cocotb_inv_affine_all(dut) -> None:
    await _check_comb(dut, range(256), inv_affine, "ak_inv_affine")


@cocotb.test()
async def cocotb_bram_all(dut) -> None:
    """Registered read: out_o after edge n is S(in_i before edge n)."""
    from cocotb.clock import Clock
    from cocotb.triggers import FallingEdge, RisingEdge

    table = INV_SBOX if "inv" in dut._name else SBOX
    cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
    order = list(range(256)) + random.Random(3).sample(range(256), 256)
    await FallingEdge(dut.clk_i)
    prev = None
    for x in order:
        dut.in_i.value = x
        await RisingEdge(dut.clk_i)
        await FallingEdge(dut.clk_i)
        got = int(dut.out_o.value)
        assert got == table[x], f"{dut._name}: S({x:#04x}) one cycle later = {got:#04x}"
        prev = x
    assert prev is not None


@cocotb.test()
async def cocotb_comp_s1_all(dut) -> None:
    gf2, maps = _gen()
    ch = maps.composite()

    def want(dec: int):
        def f(x: int) -> int:
            a = gf2.apply(ch.t, inv_affine(x) if dec else x)
            return (a << 4) | ch.field.norm_inv(a)
        return f
    for dec in (0, 1):
        await _check_comb(dut, range(256), want(dec), "ak_sbox_comp_s1", dec=dec)


@cocotb.test()
async def cocotb_comp_s2_all(dut) -> None:
    gf2, maps = _gen()
    ch = maps.composite()
    f = ch.field

    def want(dec: int):
        def g(v: int) -> int:
            a1, a0, di = v >> 8, (v >> 4) & 15, v & 15
            inv = (f.mul16(a1, di) << 4) | f.mul16(a1 ^ a0, di)
            y = gf2.apply(ch.t_inv, inv)
            return y if dec else affine(y)
        return g
    for dec in (0, 1):
        await _check_comb(dut, range(4096), want(dec), "ak_sbox_comp_s2", dec=dec)


@cocotb.test()
async def cocotb_nb_inv_all(dut) -> None:
    gf2, maps = _gen()
    ch = maps.canright()
    await _check_comb(dut, range(256),
                      lambda x: gf2.apply(ch.t, gf_inv(gf2.apply(ch.t_inv, x))), "ak_nb_inv")


@cocotb.test()
async def cocotb_ueno_iso_all(dut) -> None:
    gf2, maps = _gen()
    u = maps.ueno()
    m = u.delta_inv if dut._name == "ak_ueno_iso_inv" else u.delta
    await _check_comb(dut, range(256), lambda x: gf2.apply(m, x), dut._name)


@cocotb.test()
async def cocotb_ueno_affine_all(dut) -> None:
    gf2, maps = _gen()
    u = maps.ueno()

    def tower(fn):
        return lambda x: gf2.apply(u.delta, fn(gf2.apply(u.delta_inv, x)))
    await _check_comb(dut, range(256), tower(affine), "ak_ueno_affine", dec=0)
    await _check_comb(dut, range(256), tower(inv_affine), "ak_ueno_affine", dec=1)


def _col_bytes(x: int) -> list[int]:
    return [(x >> (24 - 8 * i)) & 0xFF for i in range(4)]


def _col_int(b: list[int] | bytes) -> int:
    return int.from_bytes(bytes(b), "big")


def _col_cases(seed: int) -> list[int]:
    rng = random.Random(seed)
    return [0, 0xFFFFFFFF, 0x01020304] + [1 << i for i in range(32)] + [
        rng.getrandbits(32) for _ in range(1000)]


def _mc(col: list[int], inverse: bool = False) -> list[int]:
    op = inv_mix_columns if inverse else mix_columns
    return list(op(bytes(col) + bytes(12))[:4])


@cocotb.test()
async def cocotb_affine_mix_column_random(dut) -> None:
    await _check_comb(dut, _col_cases(21),
                      lambda v: _col_int(_mc([affine(b) for b in _col_bytes(v)])),
                      "ak_affine_mix_column")


@cocotb.test()
async def cocotb_inv_mix_column_inv_affine_random(dut) -> None:
    await _check_comb(dut, _col_cases(29),
                      lambda v: _col_int([inv_affine(b) for b in _mc(_col_bytes(v), True)]),
                      "ak_inv_mix_column_inv_affine")


@cocotb.test()
async def cocotb_ueno_enc_column_random(dut) -> None:
    gf2, maps = _gen()
    u = maps.ueno()

    def want(x: int) -> int:
        a = [affine(gf2.apply(u.delta_inv, b)) for b in _col_bytes(x)]
        return _col_int([gf2.apply(u.delta, b) for b in _mc(a)])
    await _check_comb(dut, _col_cases(22), want, "ak_ueno_enc_column")


@cocotb.test()
async def cocotb_ueno_dec_column_random(dut) -> None:
    gf2, maps = _gen()
    u = maps.ueno()

    def want(y: int) -> int:
        m = _mc([gf2.apply(u.delta_inv, b) for b in _col_bytes(y)], inverse=True)
        return _col_int([gf2.apply(u.delta, inv_affine(b)) for b in m])
    await _check_comb(dut, _col_cases(23), want, "ak_ueno_dec_column")


@cocotb.test()
async def cocotb_inv_mix_column_direct_random(dut) -> None:
    await _check_column_op(dut, inv_mix_columns, "ak_inv_mix_column_direct")


# ----------------------------------------------------------------------------------
# pytest side: build each primitive and run its cocotb tests
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent
#: tests/hw: a primitive that lives beside its core is tested beside it (tests mirror hw/)
TESTS_HW = HERE.parent
PRIM_DIR = REPO_ROOT / "hw" / "primitives"

#: cocotb tests per primitive top level (files come from the registry)
COCOTB_TESTS: dict[str, list[str]] = {
    "ak_sbox": ["cocotb_sbox_all"],
    "ak_inv_sbox": ["cocotb_inv_sbox_all"],
    "ak_xtime": ["cocotb_xtime_all"],
    "ak_sub_word": ["cocotb_sub_word_random"],
    "ak_mix_column": ["cocotb_mix_column_random"],
    "ak_inv_mix_column": ["cocotb_inv_mix_column_random"],
    "ak_inv_mix_pre": ["cocotb_inv_mix_pre_random"],
    "ak_key_step_ctl": ["cocotb_key_step_ctl_all"],
    "ak_key_step_split": ["cocotb_key_step_split_expansion", "cocotb_key_step_split_random_1000"],
    # S-box library (issue 3)
    "ak_sbox_bram": ["cocotb_bram_all"],
    "ak_inv_sbox_bram": ["cocotb_bram_all"],
    "ak_sbox_comp_s1": ["cocotb_comp_s1_all"],
    "ak_sbox_comp_s2": ["cocotb_comp_s2_all"],
    "ak_sbox_comp_encdec": ["cocotb_encdec_all"],
    "ak_nb_inv": ["cocotb_nb_inv_all"],
    "ak_sbox_canright_encdec": ["cocotb_encdec_all"],
    "ak_gf_inv": ["cocotb_gf_inv_all"],
    "ak_affine": ["cocotb_affine_all"],
    "ak_inv_affine": ["cocotb_inv_affine_all"],
    "ak_sbox_lutinv_encdec": ["cocotb_encdec_all"],
    "ak_affine_mix_column": ["cocotb_affine_mix_column_random"],
    "ak_inv_mix_column_inv_affine": ["cocotb_inv_mix_column_inv_affine_random"],
    "ak_ueno_iso": ["cocotb_ueno_iso_all"],
    "ak_ueno_iso_inv": ["cocotb_ueno_iso_all"],
    "ak_ueno_affine": ["cocotb_ueno_affine_all"],
    "ak_ueno_enc_column": ["cocotb_ueno_enc_column_random"],
    "ak_ueno_dec_column": ["cocotb_ueno_dec_column_random"],
    "ak_sbox_sel": ["cocotb_sel_all"],
    "ak_inv_sbox_sel": ["cocotb_sel_all"],
    "ak_inv_mix_column_direct": ["cocotb_inv_mix_column_direct_random"],
}


def _ours() -> set[str]:
    """Tops declared by the catalogs this file tests (shared primitives, S-box library);
    other families' catalog modules (memory, T-table primitives) bring their own tests."""
    from aeskit.hw.catalog import primitives, sboxes

    return {p.top for p in (*primitives.PRIMITIVES, *sboxes.PRIMITIVES)}


def _proven() -> set[str]:
    """Primitives a make-test proof shows equal to the reference on every input
    (tests/aeskit/formal: aeskit.formal.proofs.PROOFS' ``covers``)."""
    from aeskit.formal.proofs import PROOFS

    return {name for proof in PROOFS for name in proof.covers}


#: a proven primitive's exhaustive simulation repeats what its proof shows; it runs in
#: make test-full (one Verilator build of about 20 s each), the others in make test
PRIMITIVE_PARAMS = [pytest.param(p, marks=pytest.mark.slow) if p.name in _proven() else p
                    for p in PRIMITIVES]


@pytest.mark.parametrize("prim", PRIMITIVE_PARAMS, ids=lambda p: p.name)
def test_primitive(prim) -> None:
    from aeskit.sim.cocotb_run import run_cocotb

    if prim.top not in _ours():
        # Declared by another family's catalog module, which brings its own test file:
        # check that one exists and exercises this top (no silent skip).
        owners = [f.name for f in TESTS_HW.rglob("test_*.py")
                  if f.name != "test_primitives.py" and prim.top in f.read_text()]
        assert owners, f"primitive {prim.top} has no test file in {TESTS_HW}"
        return
    assert prim.top in COCOTB_TESTS, f"no cocotb test for primitive {prim.top}"
    # the selector variants (Impl = 1/2/3) run the selector's test: all 256 inputs
    run_cocotb(toplevel=prim.top, sources=prim.file_paths(), test_module="test_primitives",
               test_dir=HERE, parameters=dict(prim.parameters),
               testcase=COCOTB_TESTS[prim.top])


def test_every_primitive_is_registered_and_tested() -> None:
    """Every module of hw/primitives (all listed by ``aeskit:prim:*`` manifests) is a
    registered primitive, and every registered primitive that is not there lives in the
    folder of the core that owns it (listed by an ``aeskit:core:*`` manifest)."""
    from aeskit.hw import manifest

    on_disk = {p.stem for p in PRIM_DIR.rglob("*.sv")}
    listed = {f.stem for m in manifest.manifests().values() if m.name.startswith("aeskit:prim:")
              for f in m.files}
    assert on_disk == listed, (
        f"hw/primitives and the aeskit:prim:* manifests differ: files only "
        f"{sorted(on_disk - listed)}, manifests only {sorted(listed - on_disk)}")
    owner = {p.top: manifest.owner(manifest.module_file(p.top)) for p in PRIMITIVES}
    registered = {top for top, name in owner.items() if name.startswith("aeskit:prim:")}
    assert on_disk == registered, (
        f"hw/primitives and the registry's PRIMITIVES differ: files only "
        f"{sorted(on_disk - registered)}, registry only {sorted(registered - on_disk)}")
    elsewhere = {top: name for top, name in owner.items() if top not in registered}
    assert all(name.startswith("aeskit:core:") for name in elsewhere.values()), elsewhere
    assert _ours() == set(COCOTB_TESTS)
