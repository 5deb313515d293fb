"""Sequences of the ADAM UVM environment.

Processor (MBUS): :class:`MbusConfigSeq` (the 44 expanded-key words, PITCH, CTRL),
:class:`MbusAccessSeq` (any list of writes and reads; the reads come back in the items).

Bus masters (ASBUS): :class:`AsbusCommandSeq` sends a list of commands, pipelined, and
ends when every one of them has finished (its response came back);
the paper's three cases (Sec. 6: 40 words linear, a 10 x 4-word block, 10 AES states)
are one write and one read item each, from :func:`aeskit.asbus.cases.paper_case`;
:func:`init_command` one linear write over the whole memory; :func:`random_commands` random traffic (modes, lengths, addresses, byte valids, idle
gaps, a share of illegal commands); :data:`ILLEGAL` the protocol errors of
docs/asbus.md (length field 0 = 1024, block too wide/tall, out of range, unaligned
state, reserved mode).

Memory PHY: :class:`WaitSeq` memory-side wait states.
"""

from __future__ import annotations

import random

from pyuvm import uvm_sequence

from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, DamModel, encode_len,
                                random_legal_command)
from aeskit.asbus.uvm.items import AsbusItem, MbusItem, WaitItem, command_beats
from aeskit.model import expand_key

__all__ = ["ILLEGAL", "AsbusCommandSeq", "MbusAccessSeq", "MbusConfigSeq", "WaitSeq",
           "init_command", "random_commands"]

#: (what, addr, LEN) that the 256-byte ADAM must refuse at every width
ILLEGAL: list[tuple[str, int, int]] = [
    ("linear LEN=0 (1024 beats)", 0, encode_len(MODE_LINEAR, 1024)),
    ("linear beyond the memory", 0xF0, encode_len(MODE_LINEAR, 8)),
    ("address beyond the memory", 0x100, encode_len(MODE_LINEAR, 1)),
    ("linear not beat aligned", 0x02, encode_len(MODE_LINEAR, 1)),
    ("block width field 0 (16 words) x 64 rows", 0, encode_len(MODE_BLOCK, rows=64, words=16)),
    ("block taller than the memory", 0, encode_len(MODE_BLOCK, rows=40, words=1)),
    ("state not 16-byte aligned", 0x08, encode_len(MODE_STATE, 1)),
    ("state LEN=0 (1024 states)", 0, encode_len(MODE_STATE, 1024)),
    ("state beyond the memory", 0xF0, encode_len(MODE_STATE, 2)),
    ("reserved mode 3", 0, 0xC01),
]


class MbusAccessSeq(uvm_sequence):
    """MBUS accesses in order: ``(addr, data)`` writes, ``(addr, None)`` reads."""

    def __init__(self, name: str, accesses: list[tuple[int, int | None]]) -> None:
        super().__init__(name)
        self.accesses = accesses
        self.items: list[MbusItem] = []

    async def body(self) -> None:
        for addr, data in self.accesses:
            item = MbusItem("mbus", wr=data is not None, addr=addr, data=data or 0)
            await self.start_item(item)
            await self.finish_item(item)
            self.items.append(item)


class MbusConfigSeq(MbusAccessSeq):
    """The processor configures ADAM for ``model``: key words, PITCH, then CTRL."""

    def __init__(self, name: str, model: DamModel, ctrl: int | None = None) -> None:
        words = b"".join(expand_key(model.key))
        acc: list[tuple[int, int | None]] = [
            (0x40 + 4 * i, int.from_bytes(words[4 * i:4 * i + 4], "big")) for i in range(44)]
        acc.append((0x04, model.pitch))
        acc.append((0x00, int(model.dec_en) | int(model.enc_en) << 1 if ctrl is None else ctrl))
        super().__init__(name, acc)


class AsbusCommandSeq(uvm_sequence):
    """Commands of one master, pipelined; done when every response is back."""

    def __init__(self, name: str, items: list[AsbusItem]) -> None:
        super().__init__(name)
        self.items = items

    async def body(self) -> None:
        for item in self.items:
            await self.start_item(item)
            await self.finish_item(item)
        for item in self.items:
            await self.get_response(item.transaction_id)


class WaitSeq(uvm_sequence):
    """Wait states on the memory side: read / write hold probabilities (kept until the
    next item when ``cycles`` is 0)."""

    def __init__(self, name: str, read_prob: float, write_prob: float, cycles: int = 0) -> None:
        super().__init__(name)
        self.item = WaitItem("wait", read_prob=read_prob, write_prob=write_prob, cycles=cycles)

    async def body(self) -> None:
        await self.start_item(self.item)
        await self.finish_item(self.item)


def init_command(rng: random.Random, width: int, mem_bytes: int) -> AsbusItem:
    """One linear write of random data over the whole memory (known contents)."""
    n = mem_bytes // (width // 8)
    return AsbusItem("init", wr=True, addr=0, len12=encode_len(MODE_LINEAR, n),
                     data=[rng.getrandbits(width) for _ in range(n)])


def random_commands(rng: random.Random, width: int, n: int, *, mem_bytes: int = 256,
                    pitch: int = 48, illegal: float = 0.08, max_gap: int = 12) -> list[AsbusItem]:
    """``n`` random commands of one master: reads and writes, every mode, random byte
    valids, random idle gaps before REQ, a share ``illegal`` from :data:`ILLEGAL`."""
    nb = width // 8
    out = []
    for _ in range(n):
        wr = rng.random() < 0.5
        if rng.random() < illegal:
            _, addr, ln = rng.choice(ILLEGAL)
        else:
            addr, ln = random_legal_command(rng, width, mem_bytes, pitch)
        beats = command_beats(width, ln) if wr else 0
        data = [rng.getrandbits(width) for _ in range(beats)]
        vld = [(1 << nb) - 1 if rng.random() < 0.5 else rng.getrandbits(nb) for _ in range(beats)]
        out.append(AsbusItem("rand", wr=wr, addr=addr, len12=ln, data=data, vld=vld,
                             delay=rng.choice((0, 0, 0, rng.randint(1, max_gap)))))
    return out
