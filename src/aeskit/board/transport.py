"""Running the UART demo's operations (:mod:`aeskit.board.protocol`) over a byte
transport: a :class:`Transport` is anything with ``write(bytes)`` and
``read(n, timeout)``; :class:`SerialTransport` is a serial port (pyserial, imported
only when a port is opened)."""

from __future__ import annotations

import errno
import time
from collections.abc import Generator
from typing import Protocol, TypeVar

from aeskit.board.protocol import DRAIN_STATUSES, QUIET_S, Decoder, Response

T = TypeVar("T")

#: what to install for the serial port
PYSERIAL_HINT = "pip install 'aeskit[board]'"


#: why a port does not open, by errno
_OPEN_ERRORS = {errno.ENOENT: "no such device (is the board plugged in? the port's name?)",
                errno.EACCES: "permission denied (on Linux: the 'dialout' group)",
                errno.EBUSY: "busy (another program has it open)"}


class BoardError(Exception):
    """The board cannot be reached or does not answer (one-line message)."""


class BoardTimeout(BoardError):
    """No complete response within the timeout."""


class Transport(Protocol):
    def write(self, data: bytes) -> None: ...

    def read(self, n: int, timeout: float) -> bytes:
        """Up to ``n`` bytes; fewer (maybe none) when ``timeout`` seconds pass first."""
        ...


class SerialTransport:
    """A serial port through pyserial (8N1, no flow control); ``port`` may also be a
    pyserial URL such as ``socket://host:port``."""

    def __init__(self, port: str, baud: int = 115_200) -> None:
        try:
            import serial  # type: ignore[import-untyped]
        except ModuleNotFoundError:
            raise BoardError(f"the serial port needs pyserial: {PYSERIAL_HINT}") from None
        try:
            # a device (/dev/ttyUSB0, COM3) or a pyserial URL (socket://, loop://)
            self._port = serial.serial_for_url(port, baud, timeout=0.1)
        except (serial.SerialException, OSError, ValueError) as exc:
            why = _OPEN_ERRORS.get(getattr(exc, "errno", None) or 0, str(exc))
            raise BoardError(f"cannot open serial port {port}: {why}") from None
        # opening a port may put a glitch on the line, which the board answers with an
        # error frame and a drop of its input: let that pass, then discard the answer
        time.sleep(2 * QUIET_S)
        self._port.reset_input_buffer()

    def write(self, data: bytes) -> None:
        self._port.write(data)
        self._port.flush()

    def read(self, n: int, timeout: float) -> bytes:
        self._port.timeout = timeout
        return bytes(self._port.read(n))

    def close(self) -> None:
        self._port.close()


def exchange(transport: Transport, frame: bytes, decoder: Decoder, timeout: float) -> Response:
    """Write one request frame and read until its response is decoded."""
    transport.write(frame)
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise BoardTimeout(f"no answer from the board within {timeout:g} s (is it "
                               f"programmed with the UART demo, at this baud rate?)")
        frames = decoder.feed(transport.read(decoder.need(), left))
        if frames:
            return frames[0]


def run(op: Generator[bytes, Response, T], transport: Transport,
        timeout: float = 2.0) -> T:
    """Drive an operation of :mod:`aeskit.board.protocol` over ``transport``; its
    result. After an answer that makes the board drop input, wait for its quiet time
    before the next request."""
    decoder = Decoder()
    try:
        frame = next(op)
        while True:
            resp = exchange(transport, frame, decoder, timeout)
            if resp.status in DRAIN_STATUSES:
                time.sleep(QUIET_S)
            frame = op.send(resp)
    except StopIteration as stop:
        return stop.value  # type: ignore[no-any-return]
    finally:
        op.close()
