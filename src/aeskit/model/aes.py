"""The AES block cipher of FIPS-197: round steps, key expansion, cipher and trace.

Byte order (the same everywhere in aeskit):

* A block or state is 16 ``bytes`` in FIPS-197 input order: byte ``in[n]`` is
  ``state[n]``, and the state matrix is ``s[r][c] = in[r + 4c]`` -- so each group
  of four consecutive bytes is one *column*. In the RTL, byte ``in0`` sits in
  bits [127:120] of a 128-bit bus.
* A key is 16/24/32 ``bytes``, key byte 0 first (RTL: bits [255:248]).
* Key-schedule words ``w[i]`` are 32-bit ``int`` with byte 0 of the word in bits
  31:24 (big-endian), as FIPS-197 Appendix A prints them.
* Round key ``r`` is ``w[4r] || w[4r+1] || w[4r+2] || w[4r+3]`` as 16 bytes.

Worked example (FIPS-197 Appendix C.1): key ``000102...0e0f`` and plaintext
``00112233...eeff`` give ciphertext ``69c4e0d86a7b0430d8cdb78070b4c55a``.

Every step function takes and returns a 16-byte state; they are the building
blocks of :meth:`AES.encrypt` / :meth:`AES.decrypt` and of the FIPS-197
Appendix C traces (:meth:`AES.trace_encrypt`, :meth:`AES.trace_decrypt`).
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter

from aeskit.model.errors import KeyLengthError
from aeskit.model.gf import INV_SBOX, SBOX, gf_mul

__all__ = [
    "BLOCK_SIZE",
    "AES",
    "TraceStep",
    "ENCRYPT_STEPS",
    "DECRYPT_STEPS",
    "sub_bytes",
    "inv_sub_bytes",
    "shift_rows",
    "inv_shift_rows",
    "mix_columns",
    "inv_mix_columns",
    "add_round_key",
    "sub_word",
    "rot_word",
    "key_schedule_words",
    "expand_key",
    "encrypt_block",
    "decrypt_block",
]

BLOCK_SIZE = 16
#: key length in bytes -> (key size in bits, Nk, Nr)
_KEY_PARAMS: dict[int, tuple[int, int, int]] = {
    16: (128, 4, 10),
    24: (192, 6, 12),
    32: (256, 8, 14),
}

#: step names of the FIPS-197 Appendix C cipher trace, in the order they occur
ENCRYPT_STEPS: tuple[str, ...] = ("input", "start", "s_box", "s_row", "m_col", "k_sch", "output")
#: step names of the FIPS-197 Appendix C inverse-cipher trace
DECRYPT_STEPS: tuple[str, ...] = (
    "iinput", "istart", "is_row", "is_box", "ik_sch", "ik_add", "ioutput",
)  # fmt: skip

_SBOX_BYTES = bytes(SBOX)
_INV_SBOX_BYTES = bytes(INV_SBOX)
# ShiftRows: s'[r][c] = s[r][(c + r) mod 4]; index n = r + 4c of the output takes
# byte r + 4((c + r) mod 4) of the input.
_SHIFT_ROWS = itemgetter(*(r + 4 * ((c + r) % 4) for c in range(4) for r in range(4)))
_INV_SHIFT_ROWS = itemgetter(*(r + 4 * ((c - r) % 4) for c in range(4) for r in range(4)))
_MUL = {k: tuple(gf_mul(x, k) for x in range(256)) for k in (2, 3, 9, 11, 13, 14)}


@dataclass(frozen=True)
class TraceStep:
    """One line of a FIPS-197 Appendix C trace, e.g. ``round[ 1].s_box``.

    ``state`` is the 16-byte state after the step; for ``k_sch``/``ik_sch`` it is
    the round key used in that round.
    """

    round: int
    step: str
    state: bytes

    def __str__(self) -> str:
        return f"round[{self.round:2d}].{self.step:<8s}{self.state.hex()}"


def _as_bytes(name: str, value: bytes) -> bytes:
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{name} must be bytes, got {type(value).__name__}")
    return bytes(value)


def _check_state(state: bytes, name: str = "state") -> bytes:
    state = _as_bytes(name, state)
    if len(state) != BLOCK_SIZE:
        raise ValueError(f"AES {name} must be exactly {BLOCK_SIZE} bytes, got {len(state)}")
    return state


# --- round steps --------------------------------------------------------------
# The private versions skip argument checks; the cipher uses them on states it
# built itself. The public versions check their argument first.

_M2, _M3, _M9, _M11, _M13, _M14 = (_MUL[k] for k in (2, 3, 9, 11, 13, 14))


def _sub_bytes(s: bytes) -> bytes:
    return s.translate(_SBOX_BYTES)


def _inv_sub_bytes(s: bytes) -> bytes:
    return s.translate(_INV_SBOX_BYTES)


def _shift_rows(s: bytes) -> bytes:
    return bytes(_SHIFT_ROWS(s))


def _inv_shift_rows(s: bytes) -> bytes:
    return bytes(_INV_SHIFT_ROWS(s))


def _mix_columns(s: bytes) -> bytes:
    out = bytearray(BLOCK_SIZE)
    for c in (0, 4, 8, 12):
        a0, a1, a2, a3 = s[c : c + 4]
        out[c] = _M2[a0] ^ _M3[a1] ^ a2 ^ a3
        out[c + 1] = a0 ^ _M2[a1] ^ _M3[a2] ^ a3
        out[c + 2] = a0 ^ a1 ^ _M2[a2] ^ _M3[a3]
        out[c + 3] = _M3[a0] ^ a1 ^ a2 ^ _M2[a3]
    return bytes(out)


def _inv_mix_columns(s: bytes) -> bytes:
    out = bytearray(BLOCK_SIZE)
    for c in (0, 4, 8, 12):
        a0, a1, a2, a3 = s[c : c + 4]
        out[c] = _M14[a0] ^ _M11[a1] ^ _M13[a2] ^ _M9[a3]
        out[c + 1] = _M9[a0] ^ _M14[a1] ^ _M11[a2] ^ _M13[a3]
        out[c + 2] = _M13[a0] ^ _M9[a1] ^ _M14[a2] ^ _M11[a3]
        out[c + 3] = _M11[a0] ^ _M13[a1] ^ _M9[a2] ^ _M14[a3]
    return bytes(out)


def _add_round_key(s: bytes, round_key: bytes) -> bytes:
    return (int.from_bytes(s, "big") ^ int.from_bytes(round_key, "big")).to_bytes(BLOCK_SIZE, "big")


def sub_bytes(state: bytes) -> bytes:
    """SubBytes: the S-box on each of the 16 bytes."""
    return _sub_bytes(_check_state(state))


def inv_sub_bytes(state: bytes) -> bytes:
    """InvSubBytes: the inverse S-box on each byte."""
    return _inv_sub_bytes(_check_state(state))


def shift_rows(state: bytes) -> bytes:
    """ShiftRows: row r rotates left by r columns, s'[r][c] = s[r][(c + r) mod 4]."""
    return _shift_rows(_check_state(state))


def inv_shift_rows(state: bytes) -> bytes:
    """InvShiftRows: row r rotates right by r columns."""
    return _inv_shift_rows(_check_state(state))


def mix_columns(state: bytes) -> bytes:
    """MixColumns: each column times the circulant matrix with first row ({02} {03} {01} {01})."""
    return _mix_columns(_check_state(state))


def inv_mix_columns(state: bytes) -> bytes:
    """InvMixColumns: each column times the circulant matrix ({0e} {0b} {0d} {09})."""
    return _inv_mix_columns(_check_state(state))


def add_round_key(state: bytes, round_key: bytes) -> bytes:
    """AddRoundKey: bytewise XOR of the state and a 16-byte round key."""
    return _add_round_key(_check_state(state), _check_state(round_key, "round key"))


# --- key expansion --------------------------------------------------------------


def sub_word(word: int) -> int:
    """SubWord: the S-box on each byte of a 32-bit word."""
    return int.from_bytes(word.to_bytes(4, "big").translate(_SBOX_BYTES), "big")


def rot_word(word: int) -> int:
    """RotWord: [a0 a1 a2 a3] -> [a1 a2 a3 a0] (a0 in bits 31:24)."""
    return ((word << 8) | (word >> 24)) & 0xFFFFFFFF


def _key_params(key: bytes) -> tuple[bytes, int, int, int]:
    key = _as_bytes("key", key)
    if len(key) not in _KEY_PARAMS:
        raise KeyLengthError(
            f"AES key must be 16, 24 or 32 bytes (128/192/256 bits), got {len(key)} bytes"
        )
    bits, nk, nr = _KEY_PARAMS[len(key)]
    return key, bits, nk, nr


def key_schedule_words(key: bytes) -> list[int]:
    """KeyExpansion (FIPS-197 section 5.2): all 4*(Nr+1) words w[i], big-endian."""
    key, _, nk, nr = _key_params(key)
    w = [int.from_bytes(key[4 * i : 4 * i + 4], "big") for i in range(nk)]
    rcon = 0x01
    for i in range(nk, 4 * (nr + 1)):
        temp = w[i - 1]
        if i % nk == 0:
            temp = sub_word(rot_word(temp)) ^ (rcon << 24)
            rcon = gf_mul(rcon, 2)
        elif nk > 6 and i % nk == 4:
            temp = sub_word(temp)
        w.append(w[i - nk] ^ temp)
    return w


def expand_key(key: bytes) -> list[bytes]:
    """The Nr+1 round keys, 16 bytes each, round 0 first."""
    w = key_schedule_words(key)
    return [b"".join(x.to_bytes(4, "big") for x in w[i : i + 4]) for i in range(0, len(w), 4)]


# --- the cipher -----------------------------------------------------------------


class AES:
    """AES with one expanded key; ``encrypt``/``decrypt`` act on one 16-byte block.

    This is the reference every core, mode engine and test bench in aeskit is
    checked against, and it satisfies the ``BlockCipher`` protocol of
    :mod:`aeskit.model.modes`.
    """

    key_size: int
    nr: int
    round_keys: list[bytes]

    def __init__(self, key: bytes) -> None:
        key, bits, _, nr = _key_params(key)
        self.key = key
        self.key_size = bits
        self.nr = nr
        self.round_keys = expand_key(key)

    def __repr__(self) -> str:
        return f"AES(key_size={self.key_size})"

    def _encrypt(self, block: bytes, trace: list[TraceStep] | None) -> bytes:
        rk = self.round_keys
        state = _check_state(block, "block")
        if trace is not None:
            trace += [TraceStep(0, "input", state), TraceStep(0, "k_sch", rk[0])]
        state = _add_round_key(state, rk[0])
        for rnd in range(1, self.nr + 1):
            start = state
            state = _sub_bytes(state)
            s_box = state
            state = _shift_rows(state)
            s_row = state
            if rnd != self.nr:
                state = _mix_columns(state)
            if trace is not None:
                trace += [
                    TraceStep(rnd, "start", start),
                    TraceStep(rnd, "s_box", s_box),
                    TraceStep(rnd, "s_row", s_row),
                ]
                if rnd != self.nr:
                    trace.append(TraceStep(rnd, "m_col", state))
                trace.append(TraceStep(rnd, "k_sch", rk[rnd]))
            state = _add_round_key(state, rk[rnd])
        if trace is not None:
            trace.append(TraceStep(self.nr, "output", state))
        return state

    def _decrypt(self, block: bytes, trace: list[TraceStep] | None) -> bytes:
        rk = self.round_keys
        nr = self.nr
        state = _check_state(block, "block")
        if trace is not None:
            trace += [TraceStep(0, "iinput", state), TraceStep(0, "ik_sch", rk[nr])]
        state = _add_round_key(state, rk[nr])
        for rnd in range(1, nr + 1):
            start = state
            state = _inv_shift_rows(state)
            is_row = state
            state = _inv_sub_bytes(state)
            is_box = state
            state = _add_round_key(state, rk[nr - rnd])
            if trace is not None:
                trace += [
                    TraceStep(rnd, "istart", start),
                    TraceStep(rnd, "is_row", is_row),
                    TraceStep(rnd, "is_box", is_box),
                    TraceStep(rnd, "ik_sch", rk[nr - rnd]),
                ]
                if rnd != nr:
                    trace.append(TraceStep(rnd, "ik_add", state))
            if rnd != nr:
                state = _inv_mix_columns(state)
        if trace is not None:
            trace.append(TraceStep(nr, "ioutput", state))
        return state

    def encrypt(self, block: bytes) -> bytes:
        """Cipher (FIPS-197 section 5.1) of one 16-byte block."""
        return self._encrypt(block, None)

    def decrypt(self, block: bytes) -> bytes:
        """InvCipher (FIPS-197 section 5.3) of one 16-byte block."""
        return self._decrypt(block, None)

    def trace_encrypt(self, block: bytes) -> list[TraceStep]:
        """Every intermediate value of :meth:`encrypt`, named as in FIPS-197 Appendix C."""
        trace: list[TraceStep] = []
        self._encrypt(block, trace)
        return trace

    def trace_decrypt(self, block: bytes) -> list[TraceStep]:
        """Every intermediate value of :meth:`decrypt`, named as in FIPS-197 Appendix C."""
        trace: list[TraceStep] = []
        self._decrypt(block, trace)
        return trace


def encrypt_block(key: bytes, block: bytes) -> bytes:
    """One-shot AES encryption of one block."""
    return AES(key).encrypt(block)


def decrypt_block(key: bytes, block: bytes) -> bytes:
    """One-shot AES decryption of one block."""
    return AES(key).decrypt(block)
