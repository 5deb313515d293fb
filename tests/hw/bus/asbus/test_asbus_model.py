"""The ASBUS reference model (aeskit.asbus.model): LEN coding, the Fig. 7 byte schedule,
block row addresses, command checks, and the cipher data paths against aeskit.model."""

from __future__ import annotations

import random

import pytest

from aeskit.asbus.cases import TESTS, paper_case, record
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, DamModel, ProtocolError,
                                beat_addresses, decode_len, encode_len)
from aeskit.model import AES


def _label(addr: int) -> str:
    """Fig. 7 byte label 0xRC of a byte address (columns 4..7: the second state)."""
    k, o = divmod(addr, 16)
    c, r = divmod(o, 4)
    return f"{r}{c + 4 * k:x}"


# Fig. 7 of the paper (b) write and (c) read, 64-bit bus, LEN = 12'h802 (typed from the
# figure as printed in the seed, byte labels 0xRC)
FIG7_WRITE = [["00", "13", "22", "31", "01", "10", "23", "32"],
              ["02", "11", "20", "33", "03", "12", "21", "30"],
              ["04", "17", "26", "35", "05", "14", "27", "36"],
              ["06", "15", "24", "37", "07", "16", "25", "34"]]
FIG7_READ = [["00", "11", "22", "33", "01", "12", "23", "30"],
             ["02", "13", "20", "31", "03", "10", "21", "32"],
             ["04", "15", "26", "37", "05", "16", "27", "34"],
             ["06", "17", "24", "35", "07", "14", "25", "36"]]


def test_fig7_byte_order() -> None:
    assert decode_len(0x802) == (MODE_STATE, 2, 2, 16)
    w = beat_addresses(64, 0, 0x802)
    r = beat_addresses(64, 0, 0x802, read=True)
    assert [[_label(a) for a in beat] for beat in w] == FIG7_WRITE
    assert [[_label(a) for a in beat] for beat in r] == FIG7_READ


@pytest.mark.parametrize("width", [32, 64, 128])
def test_state_schedule_is_shift_rows(width: int) -> None:
    """Read order = ShiftRows of the state, write order = InvShiftRows, at every width:
    the scheduled bytes, as columns, are the model's shift_rows/inv_shift_rows."""
    from aeskit.model import inv_shift_rows, shift_rows

    state = bytes(range(16))
    for read, fn in ((True, shift_rows), (False, inv_shift_rows)):
        beats = beat_addresses(width, 0, encode_len(MODE_STATE, 1), read=read)
        flat = bytes(a for beat in beats for a in beat)
        assert flat == bytes(fn(state)), (width, read)
        # every memory lane once per beat (one banked-memory access per beat)
        nb = width // 8
        assert all(sorted(a % nb for a in beat) == list(range(nb)) for beat in beats)


def test_len_coding_zero_is_max() -> None:
    assert decode_len(encode_len(MODE_LINEAR, 1024)) == (MODE_LINEAR, 1024, 64, 16)
    assert encode_len(MODE_LINEAR, 1024) == 0
    assert encode_len(MODE_BLOCK, rows=64, words=16) == 0x400
    assert decode_len(encode_len(MODE_BLOCK, rows=10, words=4))[2:] == (10, 4)
    for bad in (dict(mode=MODE_LINEAR, count=0), dict(mode=MODE_LINEAR, count=1025)):
        with pytest.raises(ValueError):
            encode_len(**bad)
    with pytest.raises(ValueError):
        encode_len(MODE_BLOCK, rows=65, words=1)
    with pytest.raises(ValueError):
        encode_len(MODE_BLOCK, rows=1, words=17)


def test_block_rows_use_pitch() -> None:
    beats = beat_addresses(32, 8, encode_len(MODE_BLOCK, rows=3, words=2), pitch=40)
    assert [beat[0] for beat in beats] == [8, 12, 48, 52, 88, 92]


@pytest.mark.parametrize("addr,len12,why", [
    (0, encode_len(MODE_LINEAR, 1024), "beyond"),
    (2, encode_len(MODE_LINEAR, 1), "aligned"),
    (8, encode_len(MODE_STATE, 1), "16-byte"),
    (0, 0xC00, "reserved"),
    (0, encode_len(MODE_BLOCK, rows=64, words=16), "beyond"),
])
def test_checks(addr: int, len12: int, why: str) -> None:
    m = DamModel(32, pitch=16)
    with pytest.raises(ProtocolError, match=why):
        m.check(addr, len12)
    with pytest.raises(ProtocolError):
        m.write(addr, len12, [0])
    assert all(x is None for x in m.mem)


@pytest.mark.parametrize("width", [32, 64, 128])
def test_cipher_paths(width: int) -> None:
    """Decrypt on write, encrypt on read, against aeskit.model directly."""
    rng = random.Random(width)
    key = rng.randbytes(16)
    m = DamModel(width, key=key, dec_en=True, enc_en=True)
    ct = [rng.randbytes(16) for _ in range(3)]
    ln = encode_len(MODE_STATE, 3)
    lanes = beat_addresses(width, 0x40, ln)
    beats = [sum(ct[(a - 0x40) // 16][(a - 0x40) % 16] << (8 * b) for b, a in enumerate(la))
             for la in lanes]
    m.write(0x40, ln, beats)
    for k in range(3):
        assert bytes(m.mem[0x40 + 16 * k:0x50 + 16 * k]) == AES(key).decrypt(ct[k])
    out = m.read(0x40, ln)
    nb = width // 8
    assert b"".join(x.to_bytes(nb, "little") for x in out) == b"".join(ct)


@pytest.mark.parametrize("test", TESTS)
@pytest.mark.parametrize("width", [32, 64, 128])
def test_paper_cases(test: str, width: int) -> None:
    model, w, r = paper_case(test, width)
    assert model.beats(w.len12) * width == 160 * 8
    model.write(w.addr, w.len12, w.data)
    assert None not in model.read(r.addr, r.len12)
    rec = record(test, "asbus", width, 0)
    assert rec.paper_cycles == {"linear": (82, 42, 22), "block": (82, 42, 22),
                                "cipher": (132, 72, 42)}[test][(32, 64, 128).index(width)]
    assert rec.model_cycles == rec.paper_cycles
