"""Scoreboard of the ADAM UVM environment: everything the monitors saw against the golden
model (:class:`aeskit.asbus.model.DamModel`, which uses :mod:`aeskit.model` for AES).

It takes the transactions of the MBUS monitor, both ASBUS monitors and the memory-PHY
monitor and, at the check phase, replays them in time order:

* **MBUS**: writes set the register model (CTRL, PITCH, the 44 key words, which read 0); every read
  must return the register model's value (ERRCNT = refused commands answered before the
  read, unmapped addresses 0);
* **ASBUS, in grant order** (the order of the slave's command queue, which the RTL keeps
  for overlapping bytes): the model decides whether a command must be refused
  (:meth:`DamModel.check`); the DUT must have answered exactly those with ERR and no
  data. Accepted writes update the model and give the bytes the SRAM must receive;
  accepted reads must return the model's beats (cipher reads: the AES encryption of
  the model's memory with the key on MBUS);
* **memory PHY**: the SRAM writes seen on the memory port, in order, must be exactly
  the bytes of the accepted writes in grant order (nothing for refused commands,
  nothing twice), and every SRAM read must return the bytes last written there;
* **final memory**: the SRAM array, read through the hierarchy (backdoor), must equal
  the model wherever the model knows the byte.

Config (key, pitch, CTRL) may only change while no command is in flight; the
scoreboard applies an MBUS write to the commands granted after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyuvm import uvm_analysis_export, uvm_scoreboard

from aeskit.asbus.model import MODE_STATE, DamModel, ProtocolError, beat_addresses
from aeskit.asbus.uvm.items import AsbusItem, MbusItem, MemAccess
from aeskit.model import AES, expand_key

__all__ = ["AdamScoreboard", "MbusRegModel", "expected_mem_writes"]


class _Imp(uvm_analysis_export):
    """An analysis export that hands every transaction to a function."""

    def __init__(self, name: str, parent: Any, fn: Callable[[Any], None]) -> None:
        super().__init__(name, parent)
        self.fn = fn

    def write(self, tt: Any) -> None:
        self.fn(tt)


class MbusRegModel:
    """The MBUS register file (ak_dam_mbus_regs) as the processor sees it."""

    def __init__(self) -> None:
        self.ctrl = 0
        self.pitch = 0
        self.keys = [0] * 44

    def write(self, addr: int, data: int) -> None:
        if addr == 0x00:
            self.ctrl = data & 3
        elif addr == 0x04:
            self.pitch = data & 0xFFFF
        elif addr >= 0x40 and addr % 4 == 0 and (addr - 0x40) // 4 < 44:
            self.keys[(addr - 0x40) // 4] = data

    def read(self, addr: int, errcnt: int) -> int:
        if addr == 0x00:
            return self.ctrl
        if addr == 0x04:
            return self.pitch
        if addr == 0x08:
            return errcnt & 0xFFFF
        return 0  # unmapped, and the key words: write only

    def key(self) -> bytes | None:
        """The AES-128 key whose expansion the key words are, or None."""
        key = b"".join(w.to_bytes(4, "big") for w in self.keys[:4])
        words = b"".join(expand_key(key))
        if [int.from_bytes(words[4 * i:4 * i + 4], "big") for i in range(44)] != self.keys:
            return None
        return key


def expected_mem_writes(model: DamModel, item: AsbusItem) -> list[dict[int, int]]:
    """The SRAM writes (one dict per write cycle) of an accepted write command, on the
    model *before* it is applied: bypass beats through the lane map and WD_VLD, cipher
    states as plaintext beats in natural order at the state's address."""
    nb = model.nb
    if item.mode == MODE_STATE and model.dec_en:
        aes = AES(model.key)
        lanes = beat_addresses(model.width, item.addr, item.len12)
        per = 128 // model.width
        out = []
        for k in range(len(item.data) // per):
            ct = [0] * 16
            for j in range(per):
                beat = item.data[k * per + j]
                for b, a in enumerate(lanes[k * per + j]):
                    ct[a - item.addr - 16 * k] = (beat >> (8 * b)) & 0xFF
            pt = aes.decrypt(bytes(ct))
            base = item.addr + 16 * k
            out.extend({base + j * nb + b: pt[j * nb + b] for b in range(nb)} for j in range(per))
        return out
    lanes = beat_addresses(model.width, item.addr, item.len12, pitch=model.pitch)
    out = []
    for beat, v, addrs in zip(item.data, item.vld, lanes, strict=True):
        cyc = {a: (beat >> (8 * b)) & 0xFF for b, a in enumerate(addrs) if (v >> b) & 1}
        if cyc:
            out.append(cyc)
    return out


class AdamScoreboard(uvm_scoreboard):
    """Checks ADAM against :class:`DamModel` (see the module docstring)."""

    def build_phase(self) -> None:
        self.width: int = self.cdb_get("width")
        self.mem_bytes: int = self.cdb_get("mem_bytes")
        self.backdoor: Callable[[], list[int]] | None = self.cdb_get("backdoor")
        self.mbus_export = _Imp("mbus_export", self, self.mbus.append)
        self.asbus_export = _Imp("asbus_export", self, self.asbus.append)
        self.mem_export = _Imp("mem_export", self, self.mem.append)

    def __init__(self, name: str, parent: Any) -> None:
        super().__init__(name, parent)
        self.mbus: list[MbusItem] = []
        self.asbus: list[AsbusItem] = []
        self.mem: list[MemAccess] = []
        self.model: DamModel | None = None
        self.stats: dict[str, int] = {}

    def _count(self, what: str) -> None:
        self.stats[what] = self.stats.get(what, 0) + 1

    def check_phase(self) -> None:
        model = DamModel(self.width, mem_bytes=self.mem_bytes)
        regs = MbusRegModel()
        expected_writes: list[dict[int, int]] = []
        refused_done: list[int] = []     # done cycles of the commands refused so far
        # MBUS accesses at their cycle, commands at their grant cycle (MBUS first: a
        # command granted in the cycle after a register write sees the new value)
        events: list[tuple[int, int, Any]] = [(m.cycle or 0, 0, m) for m in self.mbus]
        for it in self.asbus:
            assert it.gnt_cycle is not None and it.done_cycle is not None, f"{it}: incomplete"
            events.append((it.gnt_cycle, 1, it))
        for _, _, ev in sorted(events, key=lambda e: (e[0], e[1])):
            if isinstance(ev, MbusItem):
                self._mbus(ev, regs, refused_done)
                continue
            model.pitch = regs.pitch
            model.dec_en, model.enc_en = bool(regs.ctrl & 1), bool(regs.ctrl & 2)
            if ev.mode == MODE_STATE and (regs.ctrl & (1 if ev.wr else 2)):
                key = regs.key()
                assert key is not None, f"{ev}: cipher command, but the key words on MBUS " \
                                        "are not an AES-128 expansion (the model needs one)"
                model.key = key
            self._command(ev, model, expected_writes, refused_done)
        self._memory(expected_writes, model)
        self.model = model

    def _mbus(self, ev: MbusItem, regs: MbusRegModel, refused_done: list[int]) -> None:
        if ev.wr:
            regs.write(ev.addr, ev.data)
            self._count("mbus write")
            return
        errcnt = sum(1 for c in refused_done if ev.cycle is not None and c < ev.cycle)
        want = regs.read(ev.addr, errcnt)
        assert ev.rdata == want, f"{ev}: expected {want:#010x}"
        self._count("mbus read")

    def _command(self, ev: AsbusItem, model: DamModel, expected_writes: list[dict[int, int]],
                 refused_done: list[int]) -> None:
        kind = f"{['linear', 'block', 'state', 'reserved'][ev.mode]} {'write' if ev.wr else 'read'}"
        try:
            model.check(ev.addr, ev.len12)
        except ProtocolError as exc:
            assert ev.error, f"{ev}: accepted, the model refuses it ({exc})"
            assert not ev.data and not ev.rdata, f"{ev}: refused but data moved"
            refused_done.append(ev.done_cycle or 0)
            self._count(f"refused {kind}")
            return
        assert not ev.error, f"{ev}: refused, the model accepts it"
        cipher = ev.mode == MODE_STATE and (model.dec_en if ev.wr else model.enc_en)
        self._count(f"{kind}{' cipher' if cipher else ''}")
        if ev.wr:
            expected_writes.extend(expected_mem_writes(model, ev))
            model.write(ev.addr, ev.len12, ev.data, None if cipher else ev.vld)
            return
        want = model.read(ev.addr, ev.len12)
        bad = [j for j, (g, w) in enumerate(zip(ev.rdata, want, strict=True))
               if w is not None and g != w]
        assert not bad, (f"{ev}: read beats {bad[:4]} differ: got "
                         f"{[hex(ev.rdata[j]) for j in bad[:4]]}, want "
                         f"{[hex(want[j] or 0) for j in bad[:4]]}")
        self._count("read beats checked")

    def _memory(self, expected_writes: list[dict[int, int]], model: DamModel) -> None:
        got = [m.bytes for m in self.mem if m.write]
        for n, (g, w) in enumerate(zip(got, expected_writes, strict=False)):
            assert g == w, f"SRAM write {n} (of {len(expected_writes)}): got {g}, want {w}"
        assert len(got) == len(expected_writes), (
            f"{len(got)} SRAM writes seen on the memory port, {len(expected_writes)} expected")
        shadow: list[int | None] = [None] * self.mem_bytes
        for acc in self.mem:       # in cycle order, a cycle's read before its write
            if acc.write:
                for a, v in acc.bytes.items():
                    shadow[a] = v
            else:
                bad = [a for a, v in acc.bytes.items() if shadow[a] is not None and shadow[a] != v]
                assert not bad, f"{acc}: SRAM read returns other bytes than last written at {bad}"
        if self.backdoor is not None:
            dump = self.backdoor()
            bad = [a for a in range(self.mem_bytes)
                   if model.mem[a] is not None and dump[a] != model.mem[a]]
            assert not bad, (f"final memory differs from the model at {len(bad)} bytes, first "
                             f"{[(a, dump[a], model.mem[a]) for a in bad[:4]]}")
            assert all(shadow[a] is None or shadow[a] == dump[a] for a in range(self.mem_bytes))
        self.stats["SRAM writes checked"] = len(got)
        self.stats["SRAM reads checked"] = sum(1 for m in self.mem if not m.write)

    def report_phase(self) -> None:
        self.logger.info("scoreboard: %s",
                         ", ".join(f"{k} {v}" for k, v in sorted(self.stats.items())))
