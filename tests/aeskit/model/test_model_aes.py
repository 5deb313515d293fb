"""The AES block cipher against OpenSSL (``cryptography``) and against FIPS-197 written
out independently here (matrix form of the state, byte-list key expansion).

S-box and field multiplication are checked on their own in test_model_gf.py, so the
references below may use ``SBOX`` and ``gf_mul``.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.model import (
    AES,
    DECRYPT_STEPS,
    ENCRYPT_STEPS,
    INV_SBOX,
    SBOX,
    KeyLengthError,
    TraceStep,
    add_round_key,
    decrypt_block,
    encrypt_block,
    expand_key,
    gf_mul,
    inv_mix_columns,
    inv_shift_rows,
    inv_sub_bytes,
    key_schedule_words,
    mix_columns,
    shift_rows,
    sub_bytes,
)

KEY_LENGTHS = (16, 24, 32)
ROUNDS = {16: 10, 24: 12, 32: 14}
#: FIPS-197 Appendix C: key 00 01 02 ... and plaintext 00 11 22 ... ff
APPENDIX_C_PLAINTEXT = bytes(0x11 * i for i in range(16))


def openssl_encrypt(key: bytes, block: bytes) -> bytes:
    enc = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return enc.update(block) + enc.finalize()


def openssl_decrypt(key: bytes, block: bytes) -> bytes:
    dec = Cipher(algorithms.AES(key), modes.ECB()).decryptor()
    return dec.update(block) + dec.finalize()


# --- independent FIPS-197 reference, state as a 4x4 matrix s[r][c] = in[r + 4c] ---

Matrix = list[list[int]]


def to_matrix(state: bytes) -> Matrix:
    return [[state[r + 4 * c] for c in range(4)] for r in range(4)]


def from_matrix(m: Matrix) -> bytes:
    return bytes(m[r][c] for c in range(4) for r in range(4))


def ref_sub(state: bytes, box: tuple[int, ...] = SBOX) -> bytes:
    return from_matrix([[box[x] for x in row] for row in to_matrix(state)])


def ref_shift(state: bytes, direction: int = 1) -> bytes:
    m = to_matrix(state)
    return from_matrix([[m[r][(c + direction * r) % 4] for c in range(4)] for r in range(4)])


def ref_mix(state: bytes, first_row: tuple[int, int, int, int] = (2, 3, 1, 1)) -> bytes:
    m = to_matrix(state)
    matrix = [[first_row[(j - i) % 4] for j in range(4)] for i in range(4)]
    out = [[0] * 4 for _ in range(4)]
    for c in range(4):
        for r in range(4):
            acc = 0
            for k in range(4):
                acc ^= gf_mul(matrix[r][k], m[k][c])
            out[r][c] = acc
    return from_matrix(out)


def ref_xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def ref_key_words(key: bytes) -> list[list[int]]:
    nk = len(key) // 4
    nr = nk + 6
    rcon = [1]
    while len(rcon) < 10:
        rcon.append(gf_mul(rcon[-1], 2))
    w = [list(key[4 * i : 4 * i + 4]) for i in range(nk)]
    for i in range(nk, 4 * (nr + 1)):
        t = list(w[i - 1])
        if i % nk == 0:
            t = [SBOX[b] for b in t[1:] + t[:1]]
            t[0] ^= rcon[i // nk - 1]
        elif nk > 6 and i % nk == 4:
            t = [SBOX[b] for b in t]
        w.append([a ^ b for a, b in zip(w[i - nk], t, strict=True)])
    return w


# --- FIPS-197 Appendix C -----------------------------------------------------------


@pytest.mark.parametrize("key_len", KEY_LENGTHS, ids=["C.1", "C.2", "C.3"])
def test_appendix_c_encrypt_trace(key_len: int) -> None:
    key = bytes(range(key_len))
    aes = AES(key)
    trace = aes.trace_encrypt(APPENDIX_C_PLAINTEXT)
    nr = ROUNDS[key_len]
    names = [(0, "input"), (0, "k_sch")]
    for r in range(1, nr + 1):
        names += [(r, "start"), (r, "s_box"), (r, "s_row")]
        names += [(r, "m_col")] if r < nr else []
        names += [(r, "k_sch")]
    names.append((nr, "output"))
    assert [(t.round, t.step) for t in trace] == names
    assert {t.step for t in trace} == set(ENCRYPT_STEPS)

    # every step is the documented transformation of the previous one
    words = ref_key_words(key)
    round_keys = [bytes(b for w in words[4 * r : 4 * r + 4] for b in w) for r in range(nr + 1)]
    state = APPENDIX_C_PLAINTEXT
    for t in trace:
        if t.step == "input":
            assert t.state == APPENDIX_C_PLAINTEXT
            continue
        if t.step == "k_sch":
            assert t.state == round_keys[t.round]
            state = ref_xor(state, t.state)
            continue
        if t.step == "s_box":
            expected = ref_sub(state)
        elif t.step == "s_row":
            expected = ref_shift(state)
        elif t.step == "m_col":
            expected = ref_mix(state)
        else:
            assert t.step in ("start", "output")
            expected = state
        assert t.state == expected, str(t)
        state = t.state
    assert trace[-1].state == openssl_encrypt(key, APPENDIX_C_PLAINTEXT)
    assert trace[-1].state == aes.encrypt(APPENDIX_C_PLAINTEXT)
    # round 1 spelled out: start = input ^ key, then the three steps
    first = {t.step: t.state for t in trace if t.round == 1}
    assert first["start"] == ref_xor(APPENDIX_C_PLAINTEXT, key[:16])
    assert first["m_col"] == ref_mix(ref_shift(ref_sub(first["start"])))
    assert first["k_sch"] == round_keys[1]


@pytest.mark.parametrize("key_len", KEY_LENGTHS, ids=["C.1", "C.2", "C.3"])
def test_appendix_c_decrypt_trace(key_len: int) -> None:
    key = bytes(range(key_len))
    aes = AES(key)
    nr = ROUNDS[key_len]
    ct = openssl_encrypt(key, APPENDIX_C_PLAINTEXT)
    trace = aes.trace_decrypt(ct)
    assert {t.step for t in trace} == set(DECRYPT_STEPS)
    assert trace[0] == TraceStep(0, "iinput", ct)
    assert trace[1] == TraceStep(0, "ik_sch", aes.round_keys[nr])
    assert trace[-1] == TraceStep(nr, "ioutput", APPENDIX_C_PLAINTEXT)

    state = ref_xor(ct, aes.round_keys[nr])
    for t in trace[2:-1]:
        if t.step == "ik_sch":
            assert t.state == aes.round_keys[nr - t.round]
            state = ref_xor(state, t.state)
        elif t.step == "ik_add":
            assert t.state == state
            state = ref_mix(state, (14, 11, 13, 9))
        else:
            if t.step == "is_row":
                state = ref_shift(state, -1)
            elif t.step == "is_box":
                state = ref_sub(state, INV_SBOX)
            assert t.step in ("istart", "is_row", "is_box")
            assert t.state == state, str(t)

    # Appendix C's symmetry: inverse round r mirrors cipher round nr + 1 - r
    enc = {(t.round, t.step): t.state for t in aes.trace_encrypt(APPENDIX_C_PLAINTEXT)}
    dec = {(t.round, t.step): t.state for t in trace}
    for r in range(1, nr + 1):
        assert dec[r, "istart"] == enc[nr + 1 - r, "s_row"]
        assert dec[r, "is_row"] == enc[nr + 1 - r, "s_box"]
        assert dec[r, "is_box"] == enc[nr + 1 - r, "start"]
        assert dec[r, "ik_sch"] == enc[nr - r, "k_sch"]
        if r < nr:
            assert dec[r, "ik_add"] == enc[nr - r, "m_col"]


def test_trace_step_prints_like_appendix_c() -> None:
    step = AES(bytes(16)).trace_encrypt(bytes(16))[0]
    assert str(step) == "round[ 0].input   " + "00" * 16


# --- against OpenSSL ----------------------------------------------------------------


@pytest.mark.parametrize("key_len", KEY_LENGTHS)
def test_random_blocks_against_openssl(key_len: int) -> None:
    rng = random.Random(1970 + key_len)
    for _ in range(800):
        key, block = rng.randbytes(key_len), rng.randbytes(16)
        aes = AES(key)
        ct = aes.encrypt(block)
        assert ct == openssl_encrypt(key, block), (key.hex(), block.hex())
        assert aes.decrypt(block) == openssl_decrypt(key, block), (key.hex(), block.hex())
        assert aes.decrypt(ct) == block


def test_one_shot_helpers_and_bytes_like_inputs() -> None:
    key, block = bytes(range(32)), bytes(range(16, 32))
    assert encrypt_block(key, block) == openssl_encrypt(key, block)
    assert decrypt_block(key, block) == openssl_decrypt(key, block)
    bytes_like = AES(bytearray(key)).encrypt(memoryview(block))  # type: ignore[arg-type]
    assert bytes_like == openssl_encrypt(key, block)


# --- key schedule ---------------------------------------------------------------------


@pytest.mark.parametrize("key_len", KEY_LENGTHS)
def test_key_schedule(key_len: int) -> None:
    rng = random.Random(key_len)
    for _ in range(50):
        key = rng.randbytes(key_len)
        words = key_schedule_words(key)
        ref = ref_key_words(key)
        nr = ROUNDS[key_len]
        assert len(words) == 4 * (nr + 1)
        assert words == [int.from_bytes(bytes(w), "big") for w in ref]
        aes = AES(key)
        assert (aes.key_size, aes.nr) == (8 * key_len, nr)
        assert aes.round_keys == expand_key(key)
        assert len(aes.round_keys) == nr + 1 and all(len(k) == 16 for k in aes.round_keys)
        assert aes.round_keys[0] == key[:16]
        assert b"".join(aes.round_keys) == b"".join(w.to_bytes(4, "big") for w in words)


# --- round steps ----------------------------------------------------------------------


def test_steps_against_matrix_reference() -> None:
    rng = random.Random(7)
    for _ in range(300):
        s, k = rng.randbytes(16), rng.randbytes(16)
        assert sub_bytes(s) == ref_sub(s)
        assert inv_sub_bytes(s) == ref_sub(s, INV_SBOX)
        assert shift_rows(s) == ref_shift(s)
        assert inv_shift_rows(s) == ref_shift(s, -1)
        assert mix_columns(s) == ref_mix(s)
        assert inv_mix_columns(s) == ref_mix(s, (14, 11, 13, 9))
        assert add_round_key(s, k) == ref_xor(s, k)
        assert inv_sub_bytes(sub_bytes(s)) == s
        assert inv_shift_rows(shift_rows(s)) == s
        assert inv_mix_columns(mix_columns(s)) == s


def test_shift_rows_byte_order() -> None:
    # s[r][c] = in[r + 4c]: row 1 is bytes 1, 5, 9, 13 and rotates left by one column
    expected = [0, 5, 10, 15, 4, 9, 14, 3, 8, 13, 2, 7, 12, 1, 6, 11]
    assert shift_rows(bytes(range(16))) == bytes(expected)


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("length", [0, 1, 15, 17, 20, 31, 33, 64])
def test_bad_key_length(length: int) -> None:
    with pytest.raises(KeyLengthError, match=f"got {length} bytes"):
        AES(bytes(length))
    with pytest.raises(ValueError):
        key_schedule_words(bytes(length))


@pytest.mark.parametrize("length", [0, 15, 17, 32])
def test_bad_block_length(length: int) -> None:
    aes = AES(bytes(16))
    with pytest.raises(ValueError, match=f"exactly 16 bytes, got {length}"):
        aes.encrypt(bytes(length))
    with pytest.raises(ValueError, match=f"exactly 16 bytes, got {length}"):
        aes.decrypt(bytes(length))
    with pytest.raises(ValueError, match="16 bytes"):
        mix_columns(bytes(length))


def test_non_bytes_rejected() -> None:
    with pytest.raises(TypeError, match="key must be bytes"):
        AES("0123456789abcdef")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="block must be bytes"):
        AES(bytes(16)).encrypt([0] * 16)  # type: ignore[arg-type]
