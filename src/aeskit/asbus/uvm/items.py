"""Sequence items and observed transactions of the ADAM UVM environment.

* :class:`MbusItem` -- one MBUS access of the processor (write, or read with its data);
* :class:`AsbusItem` -- one ASBUS command of a bus master: the request (WR, ADDR, LEN,
  write beats and WD_VLD, idle cycles before REQ) and, filled in by the driver (as the
  response) or by the monitor (as the observed transaction), what the slave did with
  it: ERR, read beats, the REQ / GNT / last-beat cycles;
* :class:`MemAccess` -- one SRAM port access seen by the memory-PHY monitor (one
  cycle: byte address -> byte written, or byte address -> byte read);
* :class:`WaitItem` -- the memory-side wait-state pattern for a stretch of cycles.

Cycles count rising clock edges after reset, the same count the bench uses.
"""

from __future__ import annotations

from pyuvm import uvm_sequence_item

from aeskit.asbus.model import AsbusCommand, decode_len

__all__ = ["AsbusItem", "MbusItem", "MemAccess", "WaitItem", "command_beats"]


def command_beats(width: int, len12: int) -> int:
    """Data beats of a command as the master counts them (1 for the reserved mode, so a
    refused command still has a beat to offer)."""
    mode, count, rows, words = decode_len(len12)
    if mode == 1:
        return rows * words
    if mode == 2:
        return count * (128 // width)
    if mode == 3:
        return 1
    return count


class MbusItem(uvm_sequence_item):
    """One MBUS access: ``wr`` with ``data``, or a read that returns ``rdata``."""

    def __init__(self, name: str = "mbus", *, wr: bool = True, addr: int = 0,
                 data: int = 0) -> None:
        super().__init__(name)
        self.wr = wr
        self.addr = addr
        self.data = data
        self.rdata: int | None = None
        self.cycle: int | None = None

    def __str__(self) -> str:
        if self.wr:
            return f"MBUS wr [{self.addr:#04x}] = {self.data:#010x} @{self.cycle}"
        rd = "?" if self.rdata is None else f"{self.rdata:#010x}"
        return f"MBUS rd [{self.addr:#04x}] -> {rd} @{self.cycle}"


class AsbusItem(uvm_sequence_item):
    """One ASBUS command of one master, with what happened to it."""

    def __init__(self, name: str = "asbus", *, wr: bool = False, addr: int = 0,
                 len12: int = 0, data: list[int] | None = None,
                 vld: list[int] | None = None, delay: int = 0) -> None:
        super().__init__(name)
        self.wr = wr
        self.addr = addr
        self.len12 = len12
        self.data: list[int] = list(data or [])
        self.vld: list[int] = list(vld or [])
        self.delay = delay                 # idle cycles before REQ (request only)
        self.master: int | None = None
        # result
        self.error = False
        self.rdata: list[int] = []
        self.req_cycle: int | None = None
        self.gnt_cycle: int | None = None
        self.done_cycle: int | None = None

    @classmethod
    def from_command(cls, cmd: AsbusCommand, delay: int = 0, name: str = "asbus") -> AsbusItem:
        return cls(name, wr=cmd.wr, addr=cmd.addr, len12=cmd.len12, data=cmd.data,
                   vld=cmd.vld, delay=delay)

    def command(self) -> AsbusCommand:
        return AsbusCommand(self.wr, self.addr, self.len12, list(self.data), list(self.vld))

    @property
    def mode(self) -> int:
        return (self.len12 >> 10) & 3

    def __str__(self) -> str:
        what = "wr" if self.wr else "rd"
        res = " ERR" if self.error else ""
        return (f"ASBUS m{self.master} {what} {self.addr:#04x} LEN {self.len12:#05x}{res} "
                f"req {self.req_cycle} gnt {self.gnt_cycle} done {self.done_cycle}")


class MemAccess(uvm_sequence_item):
    """One cycle of one SRAM port: ``write`` (bytes written at the edge ending ``cycle``)
    or read (bytes returned for the read issued in ``cycle``)."""

    def __init__(self, name: str = "mem", *, write: bool, cycle: int,
                 data: dict[int, int]) -> None:
        super().__init__(name)
        self.write = write
        self.cycle = cycle
        self.bytes = data

    def __str__(self) -> str:
        return (f"MEM {'wr' if self.write else 'rd'} @{self.cycle} "
                + " ".join(f"{a:02x}:{v:02x}" for a, v in sorted(self.bytes.items())))


class WaitItem(uvm_sequence_item):
    """Memory-side wait states for ``cycles`` cycles: each cycle holds the write beats
    with probability ``write_prob`` and the read beats with ``read_prob``."""

    def __init__(self, name: str = "wait", *, read_prob: float = 0.0, write_prob: float = 0.0,
                 cycles: int = 0) -> None:
        super().__init__(name)
        self.read_prob = read_prob
        self.write_prob = write_prob
        self.cycles = cycles
