"""aeskit.board without a board: the frame codec and decoder (round trips, garbage,
split input, bad CRCs), the operations (aeskit.board.protocol) against a small
stand-in board built on `cryptography`'s AES block, the driver over a loopback
transport (aeskit.board.transport.run), and ``aeskit uart``: bad input is one line,
exit 2 (exit 1 when the board cannot be reached or answers an error), no traceback, no
output file, and the port is not opened before the arguments are checked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from aeskit.board import protocol as P
from aeskit.crypt.filecrypt import reference_crypt  # OpenSSL, through cryptography
from aeskit.board import transport as T
from aeskit.cli import main

K16 = "00" * 16
IV = "00" * 16


# ----------------------------------------------------------------------------------
# expected values: cryptography
# ----------------------------------------------------------------------------------
def ref(mode: str, dec: bool, key: bytes, iv: bytes | None, data: bytes) -> bytes:
    return reference_crypt(mode, key, iv, data, dec)


def cmac_tag(key: bytes, msg: bytes) -> bytes:
    return reference_crypt("cmac", key, None, msg, False, tag_len=16)


# ----------------------------------------------------------------------------------
# a stand-in board: the demo's commands on cryptography's AES block (ECB)
# ----------------------------------------------------------------------------------
class FakeBoard:
    """Answers request frames as docs/uart_demo.md says (AES-128 encrypt-only build,
    like compact32_bram_e128); ``fail``: answer every DATA with that status."""

    def __init__(self, fail: int | None = None) -> None:
        self.key: bytes | None = None
        self.mode, self.dec, self.iv = 0, False, bytes(16)
        self.fail = fail
        self.frames: list[tuple[int, bytes]] = []

    def _e(self, block: bytes) -> bytes:
        assert self.key is not None
        return ref("ecb", False, self.key, None, block)

    def answer(self, frame: bytes) -> bytes:
        assert frame[0] == P.SYNC_REQ and P.crc8(frame[1:]) == 0
        cmd, n, pay = frame[1], frame[2], frame[3:-1]
        assert len(pay) == n
        self.frames.append((cmd, pay))
        out, st = b"", P.Status.OK
        if cmd == P.Cmd.SET_KEY:
            self.key = pay if n == 16 else None
            st = P.Status.OK if n == 16 else P.Status.ILLEGAL
        elif cmd == P.Cmd.SET_MODE:
            self.mode, self.dec = pay[0] & 7, bool(pay[0] & 8)
        elif cmd == P.Cmd.SET_IV:
            self.iv = pay
        elif cmd == P.Cmd.KEY_CLEAR:
            self.key = None
        elif cmd in (P.Cmd.DATA, P.Cmd.CMAC_FINAL):
            if self.fail is not None:
                st = self.fail
            elif self.key is None or self.dec:
                st = P.Status.ILLEGAL
            else:
                out = self._blocks(cmd, pay)
        return P.Response(cmd, st, out).encode()

    def _blocks(self, cmd: int, pay: bytes) -> bytes:
        if cmd == P.Cmd.CMAC_FINAL:
            # the tag of everything DATA brought plus this, by cryptography's CMAC
            start = self._cmac_start()
            msg = b"".join(p for i, (c, p) in enumerate(self.frames)
                           if c == P.Cmd.DATA and i > start) + pay
            return cmac_tag(self.key or b"", msg)
        out = b""
        for i in range(0, len(pay), 16):
            blk = pay[i:i + 16]
            if self.mode == 0:
                out += self._e(blk)
            elif self.mode == 1:
                self.iv = self._e(bytes(a ^ b for a, b in zip(blk, self.iv)))
                out += self.iv
            elif self.mode == 2:
                out += bytes(a ^ b for a, b in zip(blk, self._e(self.iv)))
                self.iv = ((int.from_bytes(self.iv, "big") + 1) % (1 << 128)).to_bytes(16, "big")
        return b"" if self.mode == 7 else out

    def _cmac_start(self) -> int:
        return max(i for i, (c, p) in enumerate(self.frames)
                   if c == P.Cmd.SET_MODE and p[0] & 7 == 7)


class Loopback:
    """A Transport to a FakeBoard (silent: a board that never answers)."""

    def __init__(self, board: FakeBoard | None) -> None:
        self.board = board
        self.rx = bytearray()

    def write(self, data: bytes) -> None:
        if self.board is not None:
            self.rx += self.board.answer(data)

    def read(self, n: int, timeout: float) -> bytes:
        out = bytes(self.rx[:n])
        del self.rx[:n]
        return out

    def close(self) -> None:
        pass


# ----------------------------------------------------------------------------------
# frames and the decoder
# ----------------------------------------------------------------------------------
def test_crc8_check_value() -> None:
    assert P.crc8(b"123456789") == 0xF4     # CRC-8 (SMBus) check value
    frame = P.encode_request(P.Cmd.SET_IV, bytes(range(16)))
    assert frame[:3] == bytes([0xA5, 0x03, 16]) and P.crc8(frame[1:]) == 0


@pytest.mark.parametrize("n", [0, 1, 16, 255])
def test_response_round_trip(n: int) -> None:
    r = P.Response(P.Cmd.DATA, P.Status.OK, bytes(random.Random(n).randbytes(n)))
    d = P.Decoder()
    assert d.feed(r.encode()) == [r] and d.dropped == 0 and d.need() == 5


def test_decoder_garbage_split_and_bad_crc() -> None:
    a = P.Response(P.Cmd.STATUS, P.Status.OK, b"\x01\x02\x03\x04")
    b = P.Response(0, P.Status.TIMEOUT)
    bad = bytearray(P.Response(P.Cmd.DATA, P.Status.OK, bytes(16)).encode())
    bad[-1] ^= 0xFF
    stream = b"\x00\x5a\x13" [:1] + b"\xff\x42" + bytes(bad) + a.encode() + b"junk" + b.encode()
    d = P.Decoder()
    got = []
    for i in range(len(stream)):               # one byte at a time
        got += d.feed(stream[i:i + 1])
    assert got == [a, b]
    assert d.dropped == 3 + len(bad) + 4
    with pytest.raises(ValueError):
        P.encode_request(P.Cmd.DATA, bytes(256))


# ----------------------------------------------------------------------------------
# the operations, over the loopback transport
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode,n", [("ecb", 32), ("cbc", 512), ("ctr", 277), ("ctr", 0)])
def test_crypt_operation(mode: str, n: int) -> None:
    rng = random.Random(n)
    key, iv, data = rng.randbytes(16), rng.randbytes(16), rng.randbytes(n)
    iv_arg = None if mode == "ecb" else iv
    board = FakeBoard()
    seen: list[tuple[int, int]] = []
    got = T.run(P.crypt(mode, key, iv_arg, data, progress=lambda d, t: seen.append((d, t))),
                Loopback(board))
    assert got == ref(mode, False, key, iv_arg, data)
    cmds = [c for c, _ in board.frames]
    assert cmds[:2] == [P.Cmd.SET_KEY, P.Cmd.SET_MODE] and cmds[-1] == P.Cmd.KEY_CLEAR
    assert all(len(p) <= P.MAX_DATA for c, p in board.frames if c == P.Cmd.DATA)
    assert (seen[-1] == (n, n)) if n else not seen


@pytest.mark.parametrize("n", [0, 1, 16, 17, 256, 300])
def test_cmac_operation(n: int) -> None:
    rng = random.Random(n)
    key, msg = rng.randbytes(16), rng.randbytes(n)
    board = FakeBoard()
    assert T.run(P.cmac(key, msg), Loopback(board)) == cmac_tag(key, msg)
    final = [p for c, p in board.frames if c == P.Cmd.CMAC_FINAL]
    assert len(final) == 1 and (1 <= len(final[0]) <= 16 or n == 0)


def test_error_answer_clears_the_key_then_raises() -> None:
    board = FakeBoard(fail=P.Status.ILLEGAL)
    with pytest.raises(P.DeviceError, match="ILLEGAL"):
        T.run(P.crypt("ecb", bytes(16), None, bytes(16)), Loopback(board))
    assert board.frames[-1][0] == P.Cmd.KEY_CLEAR and board.key is None


def test_no_answer_times_out() -> None:
    with pytest.raises(T.BoardTimeout, match="no answer from the board within 0.05 s"):
        T.run(P.status(), Loopback(None), timeout=0.05)


# ----------------------------------------------------------------------------------
# aeskit uart
# ----------------------------------------------------------------------------------
@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.bin").write_bytes(bytes(range(32)))
    (tmp_path / "in17.bin").write_bytes(bytes(17))
    return {"IN": "in.bin", "IN17": "in17.bin", "OUT": "out.bin", "MISSING": "nosuch.bin"}


def _board(monkeypatch: pytest.MonkeyPatch, board: FakeBoard | None | str) -> None:
    def open_port(port: str, baud: int = 115_200) -> Loopback:
        if board == "tripwire":
            raise AssertionError("bad input reached the serial port")
        if port == "/dev/nosuch":
            raise T.BoardError(f"cannot open serial port {port}: no such device")
        return Loopback(board if isinstance(board, FakeBoard) else None)

    monkeypatch.setattr("aeskit.board.uart_cli.SerialTransport", open_port)


BAD = {
    "no port": (["uart", "encrypt", "--key", K16, "{IN}", "{OUT}"],
                "the following arguments are required: --port"),
    "no op": (["uart", "--port", "p"], "the following arguments are required: OP"),
    "key 15 bytes": (["uart", "--port", "p", "encrypt", "--key", "00" * 15, "{IN}", "{OUT}"],
                     "key must be 16, 24 or 32 bytes"),
    "key 256 on e128": (["uart", "--port", "p", "encrypt", "--key", "00" * 32, "{IN}", "{OUT}"],
                        "core compact32_bram_e128 does not support 256-bit keys"),
    "key not hex": (["uart", "--port", "p", "cmac", "--key", "0g" * 16, "{IN}", "{OUT}"],
                    "--key: not hex"),
    "key odd digits": (["uart", "--port", "p", "encrypt", "--key", "0" * 31, "{IN}", "{OUT}"],
                       "odd number of hex digits"),
    "iv 8 bytes": (["uart", "--port", "p", "encrypt", "--mode", "cbc", "--key", K16, "--iv",
                    "00" * 8, "{IN}", "{OUT}"], "IV must be 16 bytes"),
    "cbc without iv": (["uart", "--port", "p", "encrypt", "--mode", "cbc", "--key", K16,
                        "{IN}", "{OUT}"], "needs --iv"),
    "ecb partial": (["uart", "--port", "p", "encrypt", "--key", K16, "{IN17}", "{OUT}"],
                    "whole number of 16-byte blocks"),
    "decrypt on e128": (["uart", "--port", "p", "decrypt", "--key", K16, "{IN}", "{OUT}"],
                        "cannot decrypt"),
    "cmac tag 3": (["uart", "--port", "p", "cmac", "--key", K16, "--tag-len", "3", "{IN}",
                    "{OUT}"], "--tag-len must be 4..16"),
    "mode gcm": (["uart", "--port", "p", "encrypt", "--mode", "gcm", "--key", K16, "{IN}",
                  "{OUT}"], "argument --mode: invalid choice: 'gcm'"),
    "input missing": (["uart", "--port", "p", "encrypt", "--key", K16, "{MISSING}", "{OUT}"],
                      "does not exist"),
    "output exists": (["uart", "--port", "p", "encrypt", "--key", K16, "{IN}", "{IN17}"],
                      "exists; pass --force"),
    "unknown core": (["uart", "--port", "p", "--core", "nosuch", "encrypt", "--key", K16,
                      "{IN}", "{OUT}"], "unknown core 'nosuch'"),
}


def _main(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _one_line(err: str, wanted: str) -> None:
    assert "Traceback" not in err
    assert err.startswith("aeskit: error: ") and err.count("\n") == 1, err
    assert wanted in err, err


@pytest.mark.parametrize("case", list(BAD))
def test_uart_bad_input(case: str, files: dict[str, str], monkeypatch: pytest.MonkeyPatch,
                        capsys: pytest.CaptureFixture[str]) -> None:
    _board(monkeypatch, "tripwire")
    argv, wanted = BAD[case]
    assert _main([a.format(**files) for a in argv]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    _one_line(cap.err, wanted)
    assert not Path("out.bin").exists()


@pytest.mark.parametrize("board,wanted", [
    ("missing port", "cannot open serial port /dev/nosuch"),
    ("silent", "no answer from the board within"),
    ("error frame", "the board answered ILLEGAL"),
])
def test_uart_board_failures(board: str, wanted: str, files: dict[str, str],
                             monkeypatch: pytest.MonkeyPatch,
                             capsys: pytest.CaptureFixture[str]) -> None:
    _board(monkeypatch, FakeBoard(fail=P.Status.ILLEGAL) if board == "error frame" else None)
    port = "/dev/nosuch" if board == "missing port" else "p"
    argv = ["uart", "--port", port, "--timeout", "0.05", "encrypt", "--key", K16, "in.bin",
            "out.bin"]
    assert _main(argv) == 1
    _one_line(capsys.readouterr().err, wanted)
    assert sorted(p.name for p in Path.cwd().iterdir()) == ["in.bin", "in17.bin"]


def test_uart_without_pyserial(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "serial", None)
    with pytest.raises(T.BoardError, match=r"pip install 'aeskit\[board\]'"):
        T.SerialTransport("/dev/ttyUSB0")


def test_serial_transport_loopback() -> None:
    """pyserial's loop:// port: what is written is read back, a short read at the
    timeout; a request echoed is no response, so run() times out."""
    port = T.SerialTransport("loop://")
    frame = P.encode_request(P.Cmd.STATUS)
    port.write(frame)
    assert port.read(10, 0.05) == frame
    assert port.read(1, 0.01) == b""
    with pytest.raises(T.BoardTimeout):
        T.run(P.status(), port, timeout=0.05)
    port.close()


@pytest.mark.parametrize("op", ["encrypt", "cmac"])
def test_uart_writes_the_result(op: str, files: dict[str, str],
                                monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    _board(monkeypatch, FakeBoard())
    extra = ["--mode", "ctr", "--iv", IV] if op == "encrypt" else ["--tag-len", "8"]
    assert main(["uart", "--port", "p", op, *extra, "--key", K16, "in.bin", "out.bin"]) == 0
    data = bytes(range(32))
    want = (ref("ctr", False, bytes(16), bytes(16), data) if op == "encrypt"
            else cmac_tag(bytes(16), data)[:8])
    assert Path("out.bin").read_bytes() == want
    err = capsys.readouterr().err
    assert "[aeskit] uart: 32/32 bytes" in err and "-> out.bin" in err
