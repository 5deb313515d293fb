"""The UART demo's frame protocol (docs/uart_demo.md), without I/O.

Request ``0xA5 CMD LEN PAYLOAD[LEN] CRC``, response ``0x5A CMD STATUS LEN
PAYLOAD[LEN] CRC``; CRC-8 (polynomial 0x07, initial value 0, no reflection, no final
XOR) over the bytes from CMD to the end of the payload. Payloads are in the order of
ak_aes_lite's registers, which is the byte order of the data: byte 0 of a block, IV or
key is sent first.

An operation (:func:`crypt`, :func:`cmac`, ...) is a generator: it yields request
frames and is sent each response (a :class:`Response`); its return value is the
result. The same generator runs over pyserial (:func:`aeskit.board.transport.run`)
and inside a cocotb bench. A response with a status other than OK raises
:class:`DeviceError` inside the generator.

>>> op = status()
>>> next(op).hex()
'a5010000'
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from enum import IntEnum

from aeskit.hw.codes import Mode

SYNC_REQ = 0xA5
SYNC_RESP = 0x5A
#: the protocol version (STATUS payload byte 3)
VERSION = 1
#: the most payload bytes of a DATA frame (15 blocks)
MAX_DATA = 240
BLOCK = 16


class Cmd(IntEnum):
    STATUS = 0x01
    SET_KEY = 0x02
    SET_IV = 0x03
    SET_MODE = 0x04
    DATA = 0x05
    CMAC_FINAL = 0x06
    KEY_CLEAR = 0x07


class Status(IntEnum):
    OK = 0x00
    BAD_CHECK = 0x01
    BAD_LEN = 0x02
    UNKNOWN_CMD = 0x03
    ILLEGAL = 0x04
    TIMEOUT = 0x05
    OVERRUN = 0x06
    FRAMING = 0x07
    NO_SYNC = 0x08
    BUS = 0x09


#: what each status means, for messages
STATUS_TEXT: dict[int, str] = {
    Status.OK: "ok",
    Status.BAD_CHECK: "the request's CRC did not match",
    Status.BAD_LEN: "a payload length the command does not take",
    Status.UNKNOWN_CMD: "an unknown command",
    Status.ILLEGAL: "refused by the AES peripheral: a mode, direction or key size this "
                    "build leaves out, or no key loaded",
    Status.TIMEOUT: "a truncated request (inter-byte timeout)",
    Status.OVERRUN: "bytes arrived while the board was busy",
    Status.FRAMING: "a UART framing error (wrong baud rate?)",
    Status.NO_SYNC: "bytes outside a frame",
    Status.BUS: "an AXI4-Lite error inside the board",
}
#: ak_aes_lite's CTRL.MODE codes: the project's mode codes (aeskit.hw.codes.Mode)
MODE_CODE: dict[str, int] = {m.name.lower(): int(m)
                             for m in (Mode.ECB, Mode.CBC, Mode.CTR, Mode.CMAC)}
#: SET_MODE's direction bit
DECRYPT = 0x08


def crc8(data: bytes, crc: int = 0) -> int:
    """CRC-8, polynomial x^8 + x^2 + x + 1 (0x07), MSB first, init 0, no final XOR.

    >>> hex(crc8(b"123456789"))
    '0xf4'
    """
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
    return crc


def encode_request(cmd: int, payload: bytes = b"") -> bytes:
    """A request frame."""
    if len(payload) > 255:
        raise ValueError(f"payload of {len(payload)} bytes; a frame carries 0..255")
    body = bytes([cmd, len(payload)]) + payload
    return bytes([SYNC_REQ]) + body + bytes([crc8(body)])


@dataclass(frozen=True)
class Response:
    """A decoded response frame."""

    cmd: int
    status: int
    payload: bytes = b""

    def encode(self) -> bytes:
        body = bytes([self.cmd, self.status, len(self.payload)]) + self.payload
        return bytes([SYNC_RESP]) + body + bytes([crc8(body)])


class ProtocolError(Exception):
    """The board's answer does not follow the protocol."""


class DeviceError(ProtocolError):
    """The board answered with an error status."""

    def __init__(self, status: int, cmd: int) -> None:
        self.status = status
        self.cmd = cmd
        try:
            name = Status(status).name
        except ValueError:
            name = f"0x{status:02x}"
        what = STATUS_TEXT.get(status, "an unknown status")
        super().__init__(f"the board answered {name} ({what})")


class Decoder:
    """Incremental response decoder: :meth:`feed` any slice of the byte stream, get
    the frames completed by it. Bytes before a SYNC and frames whose CRC does not
    match are dropped (counted in :attr:`dropped`); the search then resumes at the
    byte after the SYNC that started the bad frame."""

    def __init__(self, sync: int = SYNC_RESP) -> None:
        self.sync = sync
        self.buf = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> list[Response]:
        self.buf += data
        out: list[Response] = []
        while True:
            i = self.buf.find(self.sync)
            if i < 0:
                self.dropped += len(self.buf)
                self.buf.clear()
                return out
            if i:
                self.dropped += i
                del self.buf[:i]
            # SYNC CMD STATUS LEN payload CRC
            if len(self.buf) < 4 or len(self.buf) < 5 + self.buf[3]:
                return out
            n = 5 + self.buf[3]
            frame = bytes(self.buf[:n])
            if crc8(frame[1:-1]) != frame[-1]:
                self.dropped += 1
                del self.buf[:1]
                continue
            del self.buf[:n]
            out.append(Response(frame[1], frame[2], frame[4:-1]))

    def need(self) -> int:
        """Bytes still missing for the frame at the head (at least: the shortest frame
        is 5 bytes)."""
        if len(self.buf) < 4:
            return 5 - len(self.buf)
        return 5 + self.buf[3] - len(self.buf)


#: an operation: yields request frames, is sent the responses, returns its result
Operation = Generator[bytes, Response, bytes]
Progress = Callable[[int, int], None]


def request(cmd: int, payload: bytes = b"") -> Generator[bytes, Response, bytes]:
    """One request; the response's payload (DeviceError unless OK)."""
    resp = yield encode_request(cmd, payload)
    if resp.status != Status.OK:
        raise DeviceError(resp.status, resp.cmd)
    if resp.cmd != cmd:
        raise ProtocolError(f"answer to command 0x{resp.cmd:02x}, expected 0x{cmd:02x}")
    return resp.payload


def status() -> Operation:
    """STATUS: 4 bytes: ak_aes_lite's STATUS[15:0] (little-endian), the CTRL fields the
    demo set (MODE | DECRYPT << 3 | KEY_LEN << 4), the protocol version."""
    return (yield from request(Cmd.STATUS))


def key_clear() -> Operation:
    """KEY_CLEAR: the key wiped in the board; every later block is refused."""
    return (yield from request(Cmd.KEY_CLEAR))


def _setup(mode: str, key: bytes, iv: bytes | None,
           decrypt: bool) -> Generator[bytes, Response, None]:
    yield from request(Cmd.SET_KEY, key)
    yield from request(Cmd.SET_MODE, bytes([MODE_CODE[mode] | (DECRYPT if decrypt else 0)]))
    if iv is not None:
        yield from request(Cmd.SET_IV, iv)


def crypt(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool = False, *,
          clear: bool = True, progress: Progress | None = None,
          chunk: int = MAX_DATA) -> Operation:
    """ECB, CBC or CTR encryption or decryption of a whole message. ECB and CBC take
    whole blocks; CTR any length (the last partial block is padded on the way in and
    cut on the way back). ``clear``: KEY_CLEAR at the end (also after an error
    answer). ``progress(done, total)`` after each DATA frame; ``chunk``: bytes per DATA
    frame (a multiple of 16, at most 240)."""
    if mode not in ("ecb", "cbc", "ctr"):
        raise ValueError(f"mode {mode!r}: ecb, cbc or ctr")
    if mode != "ctr" and len(data) % BLOCK:
        raise ValueError(f"{mode.upper()} takes whole blocks, got {len(data)} bytes")
    _check_chunk(chunk)

    def body() -> Operation:
        padded = data + bytes(-len(data) % BLOCK)
        out = bytearray()
        yield from _setup(mode, key, iv, decrypt and mode != "ctr")
        for i in range(0, len(padded), chunk):
            out += yield from request(Cmd.DATA, padded[i:i + chunk])
            if progress is not None:
                progress(min(i + chunk, len(data)), len(data))
        return bytes(out[:len(data)])

    return (yield from _then_clear(body(), clear))


def cmac(key: bytes, msg: bytes, *, clear: bool = True,
         progress: Progress | None = None, chunk: int = MAX_DATA) -> Operation:
    """The 16-byte AES-CMAC tag of ``msg`` (SP 800-38B): every block but the last in
    DATA frames, the last 0..16 bytes in CMAC_FINAL (``clear``, ``progress``, ``chunk``:
    as :func:`crypt`)."""
    _check_chunk(chunk)
    split = max(0, (len(msg) - 1) // BLOCK * BLOCK)   # the last 1..16 bytes (0: empty)

    def body() -> Operation:
        yield from _setup("cmac", key, bytes(BLOCK), False)
        for i in range(0, split, chunk):
            yield from request(Cmd.DATA, msg[i:min(i + chunk, split)])
            if progress is not None:
                progress(min(i + chunk, split), len(msg))
        tag = yield from request(Cmd.CMAC_FINAL, msg[split:])
        if progress is not None:
            progress(len(msg), len(msg))
        if len(tag) != BLOCK:
            raise ProtocolError(f"CMAC_FINAL answered {len(tag)} bytes, expected 16")
        return tag

    return (yield from _then_clear(body(), clear))


def _check_chunk(chunk: int) -> None:
    if chunk % BLOCK or not BLOCK <= chunk <= MAX_DATA:
        raise ValueError(f"chunk {chunk}: a multiple of 16 in 16..240")


def _then_clear(body: Operation, clear: bool) -> Operation:
    """Run ``body``, then KEY_CLEAR if ``clear`` -- also when the board answered an
    error (the error is raised after the clear; a failing clear does not hide it)."""
    try:
        result = yield from body
    except ProtocolError:
        if clear:
            try:
                yield from key_clear()
            except ProtocolError:
                pass
        raise
    if clear:
        yield from key_clear()
    return result


#: statuses after which the board drops input until the line has been quiet for its
#: inter-byte timeout (10 ms): a driver waits QUIET_S before the next request
DRAIN_STATUSES = frozenset({Status.BAD_CHECK, Status.BAD_LEN, Status.UNKNOWN_CMD,
                            Status.TIMEOUT, Status.OVERRUN, Status.FRAMING,
                            Status.NO_SYNC})
QUIET_S = 0.02
