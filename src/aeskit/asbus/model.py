"""The ASBUS protocol of paper 000 and the ADAM/XDAM data paths, in Python.

Conventions (docs/asbus.md):

* A beat is ``W`` bits; bus byte lane ``b`` is bits ``8b+7..8b``. In linear and block
  mode lane ``b`` of a beat at byte address ``a`` is memory byte ``a + b``.
* ``LEN[11:10]``: ``00`` linear, ``LEN[9:0]`` beats (0 means 1024); ``01`` block,
  ``LEN[9:6]`` beats per row (0 means 16) and ``LEN[5:0]`` rows (0 means 64), row ``i``
  at ``ADDR + i * pitch``; ``10`` AES states, ``LEN[9:0]`` states of 16 bytes (0
  means 1024); ``11`` reserved.
* State transfers (Fig. 7, SEED-NOTES): memory holds a state column-major, byte
  ``4c + r`` is ``s[r][c]``. Beat ``j`` of a state carries columns
  ``c = jP .. jP+P-1`` (``P = W/32``), column ``c`` in bus lanes ``4q .. 4q+3``
  (``q = c - jP``) as ``s[r][c - r]`` on a write (InvShiftRows order) and
  ``s[r][c + r]`` on a read (ShiftRows order), indices mod 4.
* Data paths: a state write with decryption on carries ciphertext (in the write
  schedule) and memory receives the plaintext in natural order; a state read with
  encryption on reads the plaintext in the read schedule and returns the ciphertext
  in natural order (beat ``j`` = ciphertext bytes ``j*W/8 ..``). With the engine off
  (bypass) the schedule maps bus bytes to their memory addresses directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from aeskit.model import AES

__all__ = [
    "MODE_BLOCK",
    "MODE_LINEAR",
    "MODE_STATE",
    "AsbusCommand",
    "DamModel",
    "ProtocolError",
    "beat_addresses",
    "decode_len",
    "encode_len",
    "random_legal_command",
]

MODE_LINEAR = 0
MODE_BLOCK = 1
MODE_STATE = 2
WIDTHS = (32, 64, 128)


class ProtocolError(ValueError):
    """A command the slave must answer with an error."""


def encode_len(mode: int, count: int = 0, *, rows: int = 0, words: int = 0) -> int:
    """LEN[11:0] of a command: ``count`` beats or states, or a ``rows`` x ``words`` block.

    The field value 0 encodes the maximum (1024, 64 rows, 16 words), as in the RTL.
    """
    if mode == MODE_BLOCK:
        if not (1 <= rows <= 64 and 1 <= words <= 16):
            raise ValueError(f"block {rows} x {words} outside 1..64 x 1..16")
        return (1 << 10) | ((words % 16) << 6) | (rows % 64)
    if mode in (MODE_LINEAR, MODE_STATE):
        if not 1 <= count <= 1024:
            raise ValueError(f"count {count} outside 1..1024")
        return (mode << 10) | (count % 1024)
    raise ValueError(f"mode {mode} is not 0, 1 or 2")


def decode_len(len12: int) -> tuple[int, int, int, int]:
    """``(mode, count, rows, words)`` of LEN; count for linear/state, rows x words for block."""
    mode = (len12 >> 10) & 3
    count = (len12 & 0x3FF) or 1024
    rows = (len12 & 0x3F) or 64
    words = ((len12 >> 6) & 0xF) or 16
    return mode, count, rows, words


def beat_addresses(width: int, addr: int, len12: int, *, pitch: int = 0,
                   read: bool = False) -> list[list[int]]:
    """Memory byte address of every bus lane of every beat of a command.

    ``read`` selects the state-transfer schedule (ShiftRows order) instead of the write
    schedule (InvShiftRows order). No checks: see :meth:`DamModel.check`.
    """
    if width not in WIDTHS:
        raise ValueError(f"width {width} not in {WIDTHS}")
    nb = width // 8
    mode, count, rows, words = decode_len(len12)
    beats: list[list[int]] = []
    if mode == MODE_LINEAR:
        for i in range(count):
            beats.append([addr + i * nb + b for b in range(nb)])
    elif mode == MODE_BLOCK:
        for r in range(rows):
            for w in range(words):
                beats.append([addr + r * pitch + w * nb + b for b in range(nb)])
    elif mode == MODE_STATE:
        p = width // 32
        for k in range(count):
            for j in range(128 // width):
                lanes = []
                for b in range(nb):
                    q, row = divmod(b, 4)
                    c = j * p + q
                    cs = (c + row) % 4 if read else (c - row) % 4
                    lanes.append(addr + 16 * k + 4 * cs + row)
                beats.append(lanes)
    else:
        raise ProtocolError(f"LEN {len12:#05x}: reserved mode 3")
    return beats


@dataclass
class AsbusCommand:
    """One ASBUS command as a master issues it (data beats for writes)."""

    wr: bool
    addr: int
    len12: int
    data: list[int] = field(default_factory=list)    # write beats, lane 0 in bits 7..0
    vld: list[int] = field(default_factory=list)     # WD_VLD per write beat

    @property
    def mode(self) -> int:
        return (self.len12 >> 10) & 3


@dataclass
class DamModel:
    """Memory and data paths of ADAM (and XDAM) at one bus width.

    ``mem`` holds ``None`` for bytes never written (the RTL SRAM is not reset).
    """

    width: int
    mem_bytes: int = 256
    pitch: int = 0
    dec_en: bool = False
    enc_en: bool = False
    key: bytes = bytes(16)
    mem: list[int | None] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.mem:
            self.mem = [None] * self.mem_bytes

    @property
    def nb(self) -> int:
        return self.width // 8

    def beats(self, len12: int) -> int:
        """Data beats of a command."""
        mode, count, rows, words = decode_len(len12)
        if mode == MODE_BLOCK:
            return rows * words
        if mode == MODE_STATE:
            return count * (128 // self.width)
        return count

    def check(self, addr: int, len12: int) -> None:
        """Raise :class:`ProtocolError` if the slave must refuse the command."""
        mode, count, rows, words = decode_len(len12)
        if mode == 3:
            raise ProtocolError("reserved mode LEN[11:10] = 3")
        if mode == MODE_STATE:
            if addr % 16:
                raise ProtocolError(f"state transfer at {addr:#x}, not 16-byte aligned")
            end = addr + 16 * count
        else:
            if addr % self.nb:
                raise ProtocolError(f"address {addr:#x} not aligned to a {self.nb}-byte beat")
            if mode == MODE_BLOCK:
                if self.pitch % self.nb:
                    raise ProtocolError(f"row pitch {self.pitch} not a multiple of {self.nb}")
                end = addr + (rows - 1) * self.pitch + words * self.nb
            else:
                end = addr + count * self.nb
        if end > self.mem_bytes:
            raise ProtocolError(f"bytes {addr:#x}..{end - 1:#x} beyond the "
                                f"{self.mem_bytes}-byte memory")

    def write(self, addr: int, len12: int, data: list[int], vld: list[int] | None = None) -> None:
        """Apply a write command (raises ProtocolError and changes nothing if refused)."""
        self.check(addr, len12)
        nb = self.nb
        if len(data) != self.beats(len12):
            raise ValueError(f"{len(data)} beats for a {self.beats(len12)}-beat command")
        lanes = beat_addresses(self.width, addr, len12, pitch=self.pitch, read=False)
        if (len12 >> 10) == MODE_STATE and self.dec_en:
            aes = AES(self.key)
            per = 128 // self.width
            for k in range(len(data) // per):
                ct = [0] * 16
                for j in range(per):
                    beat = data[k * per + j]
                    for b in range(nb):
                        ct[lanes[k * per + j][b] - addr - 16 * k] = (beat >> (8 * b)) & 0xFF
                pt = aes.decrypt(bytes(ct))
                for i in range(16):
                    self.mem[addr + 16 * k + i] = pt[i]
            return
        for i, beat in enumerate(data):
            v = vld[i] if vld is not None else (1 << nb) - 1
            for b in range(nb):
                if (v >> b) & 1:
                    self.mem[lanes[i][b]] = (beat >> (8 * b)) & 0xFF

    def read(self, addr: int, len12: int) -> list[int | None]:
        """Expected read beats (None where a beat depends on never-written bytes)."""
        self.check(addr, len12)
        nb = self.nb
        lanes = beat_addresses(self.width, addr, len12, pitch=self.pitch, read=True)
        out: list[int | None] = []
        if (len12 >> 10) == MODE_STATE and self.enc_en:
            aes = AES(self.key)
            per = 128 // self.width
            for k in range(len(lanes) // per):
                state = self.mem[addr + 16 * k: addr + 16 * k + 16]
                if any(x is None for x in state):
                    out.extend([None] * per)
                    continue
                ct = aes.encrypt(bytes(state))  # type: ignore[arg-type]
                for j in range(per):
                    out.append(int.from_bytes(ct[j * nb:(j + 1) * nb], "little"))
            return out
        for beat in lanes:
            vals = [self.mem[a] for a in beat]
            if any(v is None for v in vals):
                out.append(None)
            else:
                out.append(sum(v << (8 * b) for b, v in enumerate(vals)))  # type: ignore[operator]
        return out


def random_legal_command(rng: Random, width: int, mem_bytes: int, pitch: int) -> tuple[int, int]:
    """A random (addr, LEN) that :meth:`DamModel.check` accepts for a ``mem_bytes``
    memory with row pitch ``pitch`` (at most ``(mem_bytes - 3 * width // 8) // 3``):
    linear 1..12 beats (half of the commands), block 1..4 rows x 1..3 words, or 1..3
    AES states; every address that fits equally likely."""
    nb = width // 8
    mode = rng.choice((MODE_LINEAR, MODE_LINEAR, MODE_BLOCK, MODE_STATE))
    if mode == MODE_LINEAR:
        n = rng.randint(1, 12)
        return nb * rng.randrange(0, mem_bytes // nb - n + 1), encode_len(MODE_LINEAR, n)
    if mode == MODE_BLOCK:
        rows, words = rng.randint(1, 4), rng.randint(1, 3)
        span = (rows - 1) * pitch + words * nb
        return (nb * rng.randrange(0, (mem_bytes - span) // nb + 1),
                encode_len(MODE_BLOCK, rows=rows, words=words))
    n = rng.randint(1, 3)
    return 16 * rng.randrange(0, mem_bytes // 16 - n + 1), encode_len(MODE_STATE, n)
