"""Bus fuzzing of the ASBUS slave endpoint ``ak_asbus_slave`` as it serves in
``ak_adam`` (docs/asbus.md): the endpoint's arbiter, command checks and queue with the
dispatch, data paths, AES engines and memory that answer it, on the ADAM bench build
that tests/hw/systems/adam/test_adam.py uses (``aeskit:bench:adam_bench``, W = 32 in
``make test``; N = 2 masters, MemBytes 256, QueueDepth 8). The slave alone has no data
behind its queue, so its documented behaviour (an ERR pulse when a refused command
reaches the head and every earlier command of its direction has finished, no data,
memory unchanged) can only be seen in a system.

The bench plays both masters by the ASBUS rules (REQ with ADDR/WR/LEN held until GNT,
the next command in the cycle after GNT at the earliest or after a random idle gap;
WDATA/WD_VLD of the oldest granted write held until RESP[1]; junk on ADDR/LEN/WR and on
WDATA/WD_VLD when they carry nothing), drives random memory-side wait states in bursts
on both data phases (back-pressure) and, between stretches of traffic (epochs), the MBUS
registers: random legal and bad PITCH (not a multiple of a beat, huge, junk in the upper
bits), the engines on or off in each direction, new keys; in most epochs PITCH is also
written during the traffic, while commands wait in the queue and move data (see below).
Commands mix, per epoch in random proportions: legal linear, block (also PITCH 0 and a
LEN field at 0 = 16 words / 64 rows that fits) and state transfers of random lengths,
and illegal ones: the reserved mode, linear/block addresses off the beat grid, state
addresses off the 16-byte grid, blocks under a bad PITCH, transfers reaching past
MemBytes (a little, by a LEN field at 0 = 1024 beats or states, by ADDR at or above
MemBytes, by high address bits) and random ADDR/LEN. Cipher traffic (state writes
decrypted into memory, state reads encrypted) is checked against :mod:`aeskit.model`
through :class:`aeskit.asbus.model.DamModel`.

Checked in every cycle:

* GNT (REQ at edge t, GNT in t+1): only to a master that requested and was not granted
  in the cycle before, at most one, never to a master while a higher-priority one was
  eligible, and withheld from an eligible master only while at least QueueDepth
  commands are unfinished (the queue can be full);
* each direction is answered in grant order over both masters: RESP[1] / RESP[0] only
  to the owner of the oldest unfinished command of that direction, which the model
  accepts (:meth:`DamModel.check` with the PITCH of the command's grant), exactly its
  beat count; ERR only to the owner of the oldest unfinished command of that direction,
  which the model refuses, before any beat of it, as one pulse per command (an ERR may
  come in the command's GNT cycle); at most one RESP[1], one RESP[0], one ERR per cycle;
* every read beat equals the model's (memory replayed in grant order: ADAM keeps
  read-after-write and write-after-read order; cipher reads encrypted with the epoch's
  key);
* the SRAM write port (``u_mem``): every byte write is the next one an accepted write
  must make, in grant order (bypass: the beat's bytes with WD_VLD set at their lane
  addresses; decrypting: the state's plaintext from the model), so a refused command
  that moved data, a lost, reordered or doubled write is caught in the cycle it
  happens, even if later writes cover it;
* hangs: no GNT, beat or ERR for :data:`HANG` cycles while a command waits, or a
  command not granted / not finished after :data:`HANG_REQ` cycles.

At the end of each epoch (every 30-300 commands): the bus drained, the engines empty,
the whole SRAM (through the hierarchy) equals the byte-array model (nothing but the
accepted writes changed it; refused writes moved no data) and MBUS ERRCNT equals the
number of refused commands. A run must have covered every refusal kind, legal modes
both ways with the engines on and off, contention, back-to-back and overlapping data
phases, wait states on both phases (:data:`COVER`).

PITCH may be written at any time (docs/asbus.md "LEN"): a command keeps the PITCH of its
grant, the register's value in the cycle before GNT (a PITCH write at the edge that
takes the command counts for later ones only): the one it is checked against and whose
rows its data path generates (the slave carries it in the queue entry,
``head_pitch_o``). In most epochs the bench writes random PITCH values (back to the
epoch's, legal, bad) while commands are queued and streaming; the model records each
command's PITCH at its GNT and decides from it the refusal (:meth:`DamModel.check`), the
beat addresses (:func:`beat_addresses` through the model's writes and reads) and the
SRAM writes expected. Commands are made for the epoch's PITCH, so a later PITCH moves
their rows, or refuses them (past MemBytes, bad PITCH). Covered: a PITCH change while an
accepted block waits for its first beat and while one streams. CTRL and the keys are
still written only with the bus idle and the engines empty (a state command's
cipher/bypass choice follows CTRL when it is dispatched, the engines use the key
registers as they are).

``AK_FUZZ_N`` (commands) and ``AK_FUZZ_SEED`` size the run: 3,000 in ``make test``,
100,000 in the slow variant (which also runs 20,000 at 64 and at 128 bits, on the ADAM
bench builds of ``make test-full``). The file is both the pytest module and the cocotb
test module.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.asbus.bench import adam_backdoor_dump
from aeskit.asbus.bench_build import ADAM_BENCH_ARGS, ADAM_BENCH_SOURCES
from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, DamModel, ProtocolError,
                                beat_addresses, decode_len, encode_len)
from aeskit.model import expand_key
from aeskit.verif.asbus_fuzz import (HANG, HANG_REQ, N_FAST, N_SLOW, Coverage, FuzzFailure,
                                   run_fuzz, settings)

HERE = Path(__file__).resolve().parent
MEM = 256
N_MASTERS = 2
QUEUE = 8
#: cycles after the bus is idle until the decrypting engine has written its last state
DRAIN_CYCLES = 64
#: refusal reasons as DamModel words them (docs/asbus.md "Errors")
REFUSALS = {"reserved mode": "reserved", "not aligned to a": "beat alignment",
            "row pitch": "bad pitch", "not 16-byte aligned": "state alignment",
            "beyond": "beyond MemBytes"}
COVER = (
    *(f"refused {r}" for r in REFUSALS.values()), "refused write", "refused read",
    *(f"{d} {m}" for d in ("write", "read") for m in ("linear", "block", "state")),
    "write state decrypted", "read state encrypted", "accepted LEN field 0",
    "refused LEN field 0 (1024)", "refused ADDR >= MemBytes", "block PITCH 0 rows overlap",
    "both masters request", "priority decided", "REQ right after GNT", "queue full",
    "wait state write", "wait state read", "write and read beats in one cycle",
    "ERR in the GNT cycle", "ERR while the other direction streams", "writes back to back",
    "reads back to back", "epoch bad PITCH", "epoch engines on", "SRAM write cycles",
    "GNT into an idle slave", "PITCH changed under a waiting block",
    "PITCH changed under a streaming block")


@dataclass(eq=False)
class SCmd:
    """One master's command and what happened to it."""

    idx: int
    master: int
    wr: bool
    addr: int
    len12: int
    kind: str
    why: str | None                     # the model's refusal, None if accepted (decided
    beats: int                          # at GNT); data beats if accepted (0 if refused)
    data: list[int] = field(default_factory=list)
    vld: list[int] = field(default_factory=list)
    gap: int = 0
    req: int = -1
    gnt: int = -1
    done: int = -1
    n: int = 0                          # beats taken / returned
    want: list[int | None] = field(default_factory=list)
    pitch: int = -1                     # PITCH (bytes) of its grant cycle, -1 before GNT

    def __str__(self) -> str:
        at = f", PITCH {self.pitch} at GNT" if self.gnt >= 0 else ""
        return (f"master {self.master} {'write' if self.wr else 'read'} ADDR {self.addr:#010x} "
                f"LEN {self.len12:#05x} ({self.kind}; "
                f"{'refused: ' + self.why if self.why else f'{self.beats} beats'}{at})")


@dataclass
class Master:
    index: int
    pending: deque[SCmd] = field(default_factory=deque)
    current: SCmd | None = None          # on REQ
    next_at: int = 0
    writes: deque[SCmd] = field(default_factory=deque)   # granted, unfinished
    last_gnt: int = -10
    junk: tuple[int, int, int] = (0, 0, 0)                 # ADDR, WR, LEN while REQ is low


# ----------------------------------------------------------------------------------
# commands
# ----------------------------------------------------------------------------------
def random_command(rng: random.Random, width: int, pitch: int,
                   p_bad: float) -> tuple[int, int, str]:
    """(ADDR, LEN, kind) for a 256-byte memory and row pitch ``pitch``: legal shapes
    (which a bad PITCH makes refused blocks) with probability 1 - ``p_bad``, else one
    of the illegal kinds of the module doc."""
    nb = width // 8
    if rng.random() >= p_bad:
        mode = rng.choice((MODE_LINEAR, MODE_LINEAR, MODE_BLOCK, MODE_BLOCK, MODE_STATE))
        if mode == MODE_LINEAR:
            n = rng.randint(1, 8) if rng.random() < 0.85 else rng.randint(1, MEM // nb)
            return nb * rng.randrange(MEM // nb - n + 1), encode_len(MODE_LINEAR, n), "linear"
        if mode == MODE_STATE:
            n = rng.randint(1, 3) if rng.random() < 0.85 else rng.randint(1, MEM // 16)
            return 16 * rng.randrange(MEM // 16 - n + 1), encode_len(MODE_STATE, n), "state"
        words = rng.randint(1, 4) if rng.random() < 0.8 else rng.randint(1, min(16, MEM // nb))
        if rng.random() < 0.05:
            words = min(16, MEM // nb)                 # the width field at 0 (W <= 64)
        room = MEM - words * nb
        max_rows = 64 if pitch == 0 else min(64, room // pitch + 1) if pitch <= room else 1
        rows = rng.randint(1, min(4, max_rows)) if rng.random() < 0.85 else rng.randint(1, max_rows)
        if pitch == 0 and rng.random() < 0.03:
            rows = 64                                   # the height field at 0
        span = (rows - 1) * pitch + words * nb
        addr = nb * rng.randrange(max(0, (MEM - span) // nb) + 1)
        return addr, encode_len(MODE_BLOCK, rows=rows, words=words), "block"
    x = rng.random()
    if x < 0.15:
        return rng.choice((0, 16 * rng.randrange(16), rng.getrandbits(8))), \
            (3 << 10) | rng.getrandbits(10), "reserved"
    if x < 0.30:
        mode = rng.choice((MODE_LINEAR, MODE_BLOCK))
        ln = encode_len(MODE_LINEAR, rng.randint(1, 4)) if mode == MODE_LINEAR else \
            encode_len(MODE_BLOCK, rows=rng.randint(1, 2), words=rng.randint(1, 2))
        return nb * rng.randrange(MEM // nb - 8) + rng.randint(1, nb - 1), ln, "unaligned beat"
    if x < 0.42:
        return 16 * rng.randrange(MEM // 16 - 1) + rng.randint(1, 15), \
            encode_len(MODE_STATE, rng.randint(1, 2)), "unaligned state"
    if x < 0.62:                                        # a little past the end
        mode = rng.choice((MODE_LINEAR, MODE_STATE, MODE_BLOCK))
        if mode == MODE_LINEAR:
            n = rng.randint(2, 16)
            return MEM - nb * rng.randint(1, n - 1), encode_len(MODE_LINEAR, n), "past end"
        if mode == MODE_STATE:
            n = rng.randint(2, 4)
            return MEM - 16 * rng.randint(1, n - 1), encode_len(MODE_STATE, n), "past end"
        rows = rng.randint(2, 64)
        return MEM - nb * rng.randint(1, 4), encode_len(MODE_BLOCK, rows=rows, words=1), "past end"
    if x < 0.75:                                        # a field at 0: the maximum
        mode = rng.choice((MODE_LINEAR, MODE_STATE, MODE_BLOCK))
        if mode != MODE_BLOCK:
            return rng.choice((0, 16 * rng.randrange(16))), mode << 10, "LEN field 0"
        return 0, (MODE_BLOCK << 10) | rng.choice((0, rng.randrange(64))), "LEN field 0"
    if x < 0.88:                                        # ADDR at or above MemBytes
        addr = rng.choice((MEM, MEM + 16 * rng.randrange(16), 0x1000, 0x8000_0000,
                           0xFFFF_FFF0, (rng.getrandbits(24) << 8) | 0x10))
        return addr, rng.choice((encode_len(MODE_LINEAR, 1), encode_len(MODE_STATE, 1),
                                 encode_len(MODE_BLOCK, rows=1, words=1))), "high ADDR"
    return rng.getrandbits(rng.choice((8, 9, 32))), rng.getrandbits(12), "random"


# ----------------------------------------------------------------------------------
# the bench
# ----------------------------------------------------------------------------------
_INPUTS = ("s_asbus_req", "s_asbus_addr", "s_asbus_wr", "s_asbus_len", "s_asbus_wd_vld",
           "s_asbus_wdata", "s_mbus_sel", "s_mbus_wr", "s_mbus_addr", "s_mbus_wdata", "wait_i")


class SlaveFuzz:
    """Random ASBUS traffic from both masters into ak_adam (see the module doc)."""

    def __init__(self, dut: Any, seed: int, n: int) -> None:
        self.dut = dut
        self.seed, self.n = seed, n
        self.rng = random.Random(seed)
        self.w = len(dut.s_asbus_rdata)
        self.nb = self.w // 8
        self.masters = [Master(i) for i in range(N_MASTERS)]
        self.h = {name: getattr(dut, name) for name in _INPUTS}
        self.drv: dict[str, int] = {}
        self.cov = Coverage()
        self.cycle = 0
        self.idx = 0                    # commands generated
        self.granted = 0
        self.refused = 0                # ERR pulses seen
        self.expect_refused = 0         # commands granted that the model refuses
        self.gq_w: deque[SCmd] = deque()  # granted, unfinished, grant order (both masters)
        self.gq_r: deque[SCmd] = deque()
        self.req_now = 0
        self.req_prev = 0
        self.gnt_prev = 0
        self.unfinished_prev = 0
        self.last_w_done = self.last_r_done = -10
        self.progress = 0
        self.mbus_q: deque[tuple[int, int, int]] = deque()   # (wr, addr, data)
        self.mbus_read: int | None = None                    # cycle of a pending read
        self.mbus_data: list[int] = []
        self.wait_p = (0.0, 0.0)
        self.burst = 1
        self.wait_left = [0, 0]
        self.p_gap = 0.0
        # the model's pitch is the PITCH of the command being replayed (set at its GNT)
        self.model = DamModel(self.w, mem_bytes=MEM)
        self.epochs = 0
        # the PITCH register as the slave sees it: in this cycle, in the cycle before (what
        # a command granted now was checked against), and a write driven this cycle
        # (MBUS write latency 1: used from the cycle after the edge that takes it)
        self.pitch_reg = self.pitch_prev = 0
        self.pitch_next: int | None = None
        self.epoch_pitch = 0            # the epoch's PITCH, for which commands are made
        self.p_pitch = 0.0              # chance per cycle of a PITCH write during traffic
        # the SRAM write port (visible through adam_bench.vlt): the byte writes the
        # accepted writes must make, in grant order, one set of (address, byte) per cycle
        self.sram_q: deque[tuple[SCmd, frozenset[tuple[int, int]]]] = deque()
        self.mem_we = dut.u_mem.we_i
        self.mem_word = dut.u_mem.wr_word_i
        self.mem_data = dut.u_mem.wr_data_i
        self.aw = (MEM // self.nb).bit_length() - 1

    # -------------------------------------------------------------- helpers
    def fail(self, msg: str, cmd: SCmd | None = None) -> NoReturn:
        what = f"transaction {cmd.idx} ({cmd})" if cmd else f"after transaction {self.granted}"
        raise FuzzFailure(f"seed {self.seed}, W={self.w}, cycle {self.cycle}, epoch "
                          f"{self.epochs} (PITCH register {self.pitch_reg}, CTRL "
                          f"{int(self.model.dec_en) | int(self.model.enc_en) << 1}), {what}: {msg}")

    def _set(self, name: str, value: int) -> None:
        if self.drv.get(name) != value:
            self.drv[name] = value
            self.h[name].value = value

    def busy(self) -> bool:
        return any(m.pending or m.current for m in self.masters) or bool(self.gq_w or self.gq_r)

    # -------------------------------------------------------------- one cycle
    async def step(self) -> None:
        await RisingEdge(self.dut.clk_i)
        self.cycle += 1
        self.drive()
        await FallingEdge(self.dut.clk_i)
        self.sample()

    def drive(self) -> None:
        c, rng, nb = self.cycle, self.rng, self.nb
        self._pitch_edge()
        req = addr = wr = ln = wdata = vld = 0
        for m in self.masters:
            i = m.index
            if m.current is None and m.pending and c >= m.next_at:
                m.current = m.pending.popleft()
                m.current.req = c
            if m.current is not None:
                cm = m.current
                req |= 1 << i
                addr |= cm.addr << (32 * i)
                wr |= int(cm.wr) << i
                ln |= cm.len12 << (12 * i)
            else:                                # junk while REQ is low
                if rng.random() < 0.2:
                    m.junk = (rng.getrandbits(32), rng.getrandbits(1), rng.getrandbits(12))
                addr |= m.junk[0] << (32 * i)
                wr |= m.junk[1] << i
                ln |= m.junk[2] << (12 * i)
            if m.writes:
                w = m.writes[0]
                wdata |= w.data[min(w.n, len(w.data) - 1)] << (self.w * i)
                vld |= w.vld[min(w.n, len(w.vld) - 1)] << (nb * i)
            elif rng.random() < 0.2:
                wdata |= rng.getrandbits(self.w) << (self.w * i)
                vld |= rng.getrandbits(nb) << (nb * i)
        self.req_now = req
        self._set("s_asbus_req", req)
        self._set("s_asbus_addr", addr)
        self._set("s_asbus_wr", wr)
        self._set("s_asbus_len", ln)
        self._set("s_asbus_wdata", wdata)
        self._set("s_asbus_wd_vld", vld)
        wait = 0
        for bit in (0, 1):
            if self.wait_left[bit]:
                self.wait_left[bit] -= 1
                wait |= 1 << bit
            elif self.wait_p[bit] and rng.random() < self.wait_p[bit]:
                self.wait_left[bit] = rng.randint(0, self.burst - 1)
                wait |= 1 << bit
        self._set("wait_i", wait)
        if wait & 2 and self.gq_w:
            self.cov("wait state write")
        if wait & 1 and self.gq_r:
            self.cov("wait state read")
        if self.p_pitch and not self.mbus_q and rng.random() < self.p_pitch:
            self.mbus_q.append((1, 0x04, self._traffic_pitch() | rng.getrandbits(16) << 16))
        if self.mbus_q:
            mw, ma, md = self.mbus_q.popleft()
            if mw and ma == 0x04:
                self.pitch_next = md & 0xFFFF
            self._set("s_mbus_sel", 1)
            self._set("s_mbus_wr", mw)
            self._set("s_mbus_addr", ma)
            self._set("s_mbus_wdata", md)
            if not mw:
                self.mbus_read = c
        else:
            self._set("s_mbus_sel", 0)

    def _pitch_edge(self) -> None:
        """The edge that starts this cycle: a PITCH write driven in the cycle before
        takes effect (commands taken at this edge were checked with the old value)."""
        self.pitch_prev = self.pitch_reg
        if self.pitch_next is None:
            return
        new, self.pitch_next = self.pitch_next, None
        if new == self.pitch_reg:
            return
        self.pitch_reg = new
        for q in (self.gq_w, self.gq_r):
            for cm in q:
                if cm.why is None and cm.len12 >> 10 == MODE_BLOCK and cm.pitch != new:
                    self.cov("PITCH changed under a waiting block" if cm.n == 0 else
                             "PITCH changed under a streaming block")

    def _traffic_pitch(self) -> int:
        """A PITCH written while commands are queued and in flight: back to the epoch's,
        legal ones (which move the rows of the blocks granted after it, or push them past
        MemBytes), sometimes a bad one."""
        rng, nb = self.rng, self.nb
        x = rng.random()
        if x < 0.3:
            return self.epoch_pitch
        if x < 0.9:
            return nb * rng.choice((0, 1, 2, 3, 4, 8, 12, 16, 31, rng.randrange(MEM // nb)))
        return rng.choice((nb * rng.randrange(1, 64) + rng.randint(1, nb - 1), 0xFFFF,
                           rng.getrandbits(16)))

    def sample(self) -> None:
        c, d = self.cycle, self.dut
        if self.mbus_read is not None and self.mbus_read == c - 1:
            self.mbus_data.append(int(d.s_mbus_rdata.value))
            self.mbus_read = None
        we = int(self.mem_we.value)
        if we:
            self._sram_write(we)
        gnt = int(d.s_asbus_gnt.value)
        resp = int(d.s_asbus_resp.value)
        err = int(d.s_asbus_err.value)
        eligible = self.req_prev & ~self.gnt_prev
        if gnt:
            self._grant(gnt, eligible)
        elif eligible:
            # no GNT to a master that may have one: only with the queue full at the edge,
            # so at least QueueDepth commands were granted by the previous cycle and not
            # finished before it (a command leaves the queue at its dispatch or ERR)
            if self.unfinished_prev < QUEUE:
                self.fail(f"no GNT for REQ {eligible:#x} with only {self.unfinished_prev} "
                          f"commands unfinished in the cycle before (queue of {QUEUE})")
            self.cov("queue full")
        unfinished = len(self.gq_w) + len(self.gq_r)
        if self.req_now & 3 == 3:
            self.cov("both masters request")
        # at most one beat per direction and one ERR per cycle
        for bits, what in ((resp & 0xAAAA, "RESP[1]"), (resp & 0x5555, "RESP[0]"),
                           (err, "ERR")):
            if bits & (bits - 1):
                self.fail(f"{what} to several masters at once ({bits:#x})")
        if resp & 0xAAAA and resp & 0x5555:
            self.cov("write and read beats in one cycle")
        for i in range(N_MASTERS):
            if resp >> (2 * i + 1) & 1:
                self._beat(i, True)
            if resp >> (2 * i) & 1:
                self._beat(i, False)
        for i in range(N_MASTERS):
            if err >> (2 * i + 1) & 1:
                self._refused(i, True, bool(resp & 0x5555))
            if err >> (2 * i) & 1:
                self._refused(i, False, bool(resp & 0xAAAA))
        if gnt or resp or err:
            self.progress = c
        self.req_prev, self.gnt_prev = self.req_now, gnt
        self.unfinished_prev = unfinished
        self._watch()

    def _grant(self, gnt: int, eligible: int) -> None:
        c = self.cycle
        if gnt & (gnt - 1):
            self.fail(f"GNT to several masters at once ({gnt:#x})")
        i = gnt.bit_length() - 1
        m = self.masters[i]
        if not eligible >> i & 1:
            why = "was granted in the cycle before" if self.gnt_prev >> i & 1 else \
                "did not request"
            self.fail(f"GNT to master {i}, which {why}", m.current)
        if eligible & ((1 << i) - 1):
            self.fail(f"GNT to master {i} while master {(eligible & -eligible).bit_length() - 1} "
                      "(higher priority) requested", m.current)
        if eligible & ~gnt:
            self.cov("priority decided")
        if not self.unfinished_prev:
            self.cov("GNT into an idle slave")
        cm = m.current
        assert cm is not None
        cm.gnt = c
        if cm.req == m.last_gnt + 1:
            self.cov("REQ right after GNT")
        m.last_gnt = c
        m.current = None
        m.next_at = c + 1 + self._gap()
        self.granted += 1
        (self.gq_w if cm.wr else self.gq_r).append(cm)
        if cm.wr:
            m.writes.append(cm)
        # checked (and its rows placed) with the PITCH of the cycle before GNT
        mdl = self.model
        cm.pitch = mdl.pitch = self.pitch_prev
        try:
            mdl.check(cm.addr, cm.len12)
            cm.why, cm.beats = None, mdl.beats(cm.len12)
        except ProtocolError as e:
            cm.why, cm.beats = str(e), 0
        if cm.wr and len(cm.data) < cm.beats:   # accepted under this PITCH only
            self._write_beats(cm, cm.beats - len(cm.data))
        if cm.why is None:                      # replay in grant order
            if cm.wr:
                cipher = cm.len12 >> 10 == MODE_STATE and mdl.dec_en
                mdl.write(cm.addr, cm.len12, cm.data, None if cipher else cm.vld)
                self._expect_writes(cm, cipher)
                if cipher:
                    self.cov("write state decrypted")
            else:
                cm.want = mdl.read(cm.addr, cm.len12)
                if cm.len12 >> 10 == MODE_STATE and mdl.enc_en:
                    self.cov("read state encrypted")
            mode, count, rows, words = decode_len(cm.len12)
            self.cov(f"{'write' if cm.wr else 'read'} {('linear', 'block', 'state')[mode]}")
            if (mode == MODE_BLOCK and (cm.len12 & 0x3F == 0 or cm.len12 >> 6 & 0xF == 0)):
                self.cov("accepted LEN field 0")
            if mode == MODE_BLOCK and mdl.pitch == 0 and rows > 1:
                self.cov("block PITCH 0 rows overlap")
        else:
            self.expect_refused += 1
            self.cov(f"refused {'write' if cm.wr else 'read'}")
            for key, label in REFUSALS.items():
                if key in cm.why:
                    self.cov(f"refused {label}")
            if cm.len12 >> 10 in (MODE_LINEAR, MODE_STATE) and cm.len12 & 0x3FF == 0:
                self.cov("refused LEN field 0 (1024)")
            if cm.addr >= MEM:
                self.cov("refused ADDR >= MemBytes")

    def _expect_writes(self, cm: SCmd, cipher: bool) -> None:
        """The SRAM writes an accepted write makes: bypass, a beat's bytes with WD_VLD set
        at their lane addresses (none for WD_VLD = 0); decrypting, each state's plaintext
        (the model's, just written) in natural order, one beat a cycle."""
        nb, mdl = self.nb, self.model
        if cipher:
            for k in range(cm.beats * nb // 16):
                for j in range(16 // nb):
                    a = cm.addr + 16 * k + j * nb
                    self.sram_q.append((cm, frozenset((a + b, mdl.mem[a + b]) for b in range(nb))))
            return
        for j, lanes in enumerate(beat_addresses(self.w, cm.addr, cm.len12, pitch=mdl.pitch)):
            v, d = cm.vld[j], cm.data[j]
            bytes_ = frozenset((lanes[b], d >> (8 * b) & 0xFF) for b in range(nb) if v >> b & 1)
            if bytes_:
                self.sram_q.append((cm, bytes_))

    def _sram_write(self, we: int) -> None:
        """An SRAM write cycle: the next bytes an accepted write must make, exactly."""
        words, data = int(self.mem_word.value), int(self.mem_data.value)
        mask = (1 << self.aw) - 1
        got = frozenset((((words >> (m * self.aw)) & mask) * self.nb + m, data >> (8 * m) & 0xFF)
                        for m in range(self.nb) if we >> m & 1)
        show = sorted((hex(a), hex(b)) for a, b in got)
        if not self.sram_q:
            self.fail(f"SRAM write {show} with no accepted write pending (data moved by a "
                      "refused command, or twice)")
        cm, want = self.sram_q.popleft()
        self.cov("SRAM write cycles")
        if got != want:
            self.fail(f"SRAM write {show}, expected {sorted((hex(a), hex(b)) for a, b in want)}",
                      cm)

    def _beat(self, i: int, wr: bool) -> None:
        """RESP[1] / RESP[0] to master ``i``: a beat of the oldest unfinished command of
        that direction, which must be master i's, accepted and not yet complete."""
        c = self.cycle
        q = self.gq_w if wr else self.gq_r
        what = "RESP[1]" if wr else "RESP[0]"
        if not q:
            self.fail(f"{what} to master {i} with no command of that direction granted")
        h = q[0]
        if h.master != i:
            self.fail(f"{what} to master {i}, but the oldest unfinished "
                      f"{'write' if wr else 'read'} is master {h.master}'s", h)
        if h.why is not None:
            self.fail(f"{what} (beat {h.n}) for a command the slave must refuse", h)
        if h.n == 0 and (self.last_w_done if wr else self.last_r_done) == c - 1:
            self.cov("writes back to back" if wr else "reads back to back")
        if not wr:
            got = int(self.dut.s_asbus_rdata.value)
            want = h.want[h.n]
            if want is not None and got != want:
                self.fail(f"read beat {h.n}: RDATA {got:#x}, model {want:#x}", h)
        h.n += 1
        if h.n == h.beats:
            self._finish(q, wr)

    def _refused(self, i: int, wr: bool, other: bool) -> None:
        q = self.gq_w if wr else self.gq_r
        what = "ERR[1]" if wr else "ERR[0]"
        if not q:
            self.fail(f"{what} to master {i} with no command of that direction granted")
        h = q[0]
        if h.master != i:
            self.fail(f"{what} to master {i}, but the oldest unfinished "
                      f"{'write' if wr else 'read'} is master {h.master}'s", h)
        if h.why is None:
            self.fail(f"{what}: the model accepts the command", h)
        if h.n:
            self.fail(f"{what} after {h.n} beats", h)
        if h.gnt == self.cycle:
            self.cov("ERR in the GNT cycle")
        if other:
            self.cov("ERR while the other direction streams")
        self.refused += 1
        self._finish(q, wr)

    def _finish(self, q: deque[SCmd], wr: bool) -> None:
        h = q.popleft()
        h.done = self.cycle
        if wr:
            m = self.masters[h.master]
            if not m.writes or m.writes[0] is not h:
                self.fail("finished, but it is not its master's oldest write", h)
            m.writes.popleft()
            self.last_w_done = self.cycle
        else:
            self.last_r_done = self.cycle

    def _gap(self) -> int:
        """Idle cycles before a master's next REQ: none, some, or (sparse epochs, p_gap
        above 1) always 4 to 60, so that commands also meet an idle slave."""
        rng = self.rng
        if self.p_gap > 1.0:
            return rng.randint(4, 60)
        if not self.p_gap or rng.random() >= self.p_gap:
            return 0
        return rng.randint(1, 3) if rng.random() < 0.7 else rng.randint(4, 60)

    def _watch(self) -> None:
        c = self.cycle
        if any(m.current for m in self.masters) or self.gq_w or self.gq_r:
            if c - self.progress > HANG:
                waits = [f"master {m.index} REQ since {m.current.req}" for m in self.masters
                         if m.current]
                if self.gq_w:
                    waits.append(f"write {self.gq_w[0].idx} unfinished")
                if self.gq_r:
                    waits.append(f"read {self.gq_r[0].idx} unfinished")
                head = self.gq_w[0] if self.gq_w else self.gq_r[0] if self.gq_r else None
                self.fail(f"hang: no GNT, beat or ERR for {HANG} cycles ({', '.join(waits)})",
                          head)
        for m in self.masters:
            if m.current is not None and c - m.current.req > HANG_REQ:
                self.fail(f"no GNT in {HANG_REQ} cycles", m.current)
        for q in (self.gq_w, self.gq_r):
            if q and c - q[0].gnt > HANG_REQ:
                self.fail(f"not finished {HANG_REQ} cycles after GNT", q[0])

    # -------------------------------------------------------------- epochs
    async def cycles(self, k: int) -> None:
        for _ in range(k):
            await self.step()

    async def mbus_idle(self) -> None:
        while self.mbus_q or self.mbus_read is not None:
            await self.step()

    def new_command(self, master: int, p_bad: float) -> SCmd:
        """A command made for the epoch's PITCH (its refusal and beats are decided again
        at its GNT, with the PITCH of that cycle)."""
        rng, mdl = self.rng, self.model
        mdl.pitch = self.epoch_pitch
        addr, ln, kind = random_command(rng, self.w, mdl.pitch, p_bad)
        wr = rng.random() < 0.5
        self.idx += 1
        try:
            mdl.check(addr, ln)
            why, beats = None, mdl.beats(ln)
        except ProtocolError as e:
            why, beats = str(e), 0
        cm = SCmd(self.idx, master, wr, addr, ln, kind, why, beats)
        if wr:
            self._write_beats(cm, max(beats, 1))
        return cm

    def _write_beats(self, cm: SCmd, k: int) -> None:
        """``k`` more random write beats (WDATA, WD_VLD) for ``cm``."""
        rng = self.rng
        full = (1 << self.nb) - 1
        for _ in range(k):
            cm.data.append(rng.getrandbits(self.w))
            x = rng.random()
            cm.vld.append(full if x < 0.6 else 0 if x < 0.7 else rng.getrandbits(self.nb))

    async def epoch(self, budget: int) -> int:
        """Configure MBUS (bus idle), run a stretch of random commands from both masters
        (with PITCH writes in between in most epochs), drain, then compare the memory and
        ERRCNT with the model. Returns the commands issued."""
        rng, mdl, nb = self.rng, self.model, self.nb
        self.epochs += 1
        # ---- configuration (the bus is idle and the engines are empty); the first four
        # epochs go through PITCH 0, a bad PITCH and a legal one, each engine on and off
        plan = {1: ("zero", 3), 2: ("bad", 0), 3: ("legal", 1), 4: ("zero", 2)}.get(self.epochs)
        x = rng.random() if plan is None else {"zero": 0.0, "legal": 0.5, "bad": 0.9}[plan[0]]
        if plan is not None and plan[0] == "zero":
            pitch = 0
        elif x < 0.8:
            pitch = nb * rng.choice((0, 0, 1, 2, 3, 4, 12, 16, 31, rng.randrange(MEM // nb),
                                     rng.randrange(0x10000 // nb)))
        else:
            pitch = rng.choice((nb * rng.randrange(1, 64) + rng.randint(1, nb - 1), 0xFFFF,
                                rng.getrandbits(16) | 1))
            self.cov("epoch bad PITCH")
        self.epoch_pitch = mdl.pitch = pitch
        self.mbus_q.append((1, 0x04, pitch | rng.getrandbits(16) << 16))
        if self.epochs == 1 or rng.random() < 0.3:
            mdl.key = rng.randbytes(16)
            words = b"".join(expand_key(mdl.key))
            for k in range(44):
                self.mbus_q.append((1, 0x40 + 4 * k, int.from_bytes(words[4 * k:4 * k + 4], "big")))
        mdl.dec_en, mdl.enc_en = rng.random() < 0.5, rng.random() < 0.5
        if plan is not None:
            mdl.dec_en, mdl.enc_en = bool(plan[1] & 1), bool(plan[1] & 2)
        if mdl.dec_en or mdl.enc_en:
            self.cov("epoch engines on")
        self.mbus_q.append((1, 0x00, int(mdl.dec_en) | int(mdl.enc_en) << 1
                            | rng.getrandbits(30) << 2))
        await self.mbus_idle()
        # ---- traffic
        self.wait_p = (rng.choice((0.0, 0.1, 0.3, 0.6)), rng.choice((0.0, 0.1, 0.3, 0.6)))
        self.burst = rng.choice((1, 4, 16))
        self.p_gap = rng.choice((0.0, 0.2, 0.6, 2.0))
        share = rng.choice((0.5, 0.5, 0.0, 1.0, 0.2))     # master 0's part
        p_bad = rng.choice((0.05, 0.2, 0.5))
        n = min(budget, rng.randint(30, 300))
        for _ in range(n):
            master = 0 if rng.random() < share else 1
            self.masters[master].pending.append(self.new_command(master, p_bad))
        # PITCH writes while commands are queued and in flight (none in some epochs)
        self.p_pitch = rng.choice((0.0, 0.005, 0.02, 0.1))
        while self.busy():
            await self.step()
        # ---- memory and ERRCNT against the model
        self.wait_p = (0.0, 0.0)
        self.p_pitch = 0.0
        await self.cycles(DRAIN_CYCLES)
        if self.sram_q:
            self.fail(f"{len(self.sram_q)} SRAM writes never made", self.sram_q[0][0])
        got = adam_backdoor_dump(self.dut, self.w, MEM)
        bad = [(a, g, w) for a, (g, w) in enumerate(zip(got, mdl.mem)) if w is not None and g != w]
        if bad:
            self.fail(f"memory differs from the model at {len(bad)} bytes after the epoch; "
                      f"first (address, SRAM, model): "
                      f"{[(hex(a), hex(g), hex(w)) for a, g, w in bad[:6]]}")
        self.mbus_q.append((0, 0x08, 0))
        await self.mbus_idle()
        errcnt = self.mbus_data[-1] & 0xFFFF
        if errcnt != self.expect_refused & 0xFFFF:
            self.fail(f"ERRCNT {errcnt}, the model refused {self.expect_refused} commands")
        return n

    async def fill(self) -> None:
        """Known memory: one linear bypass write of every byte by master 0."""
        mdl, rng = self.model, self.rng
        mdl.dec_en = mdl.enc_en = False
        self.mbus_q.append((1, 0x00, 0))
        await self.mbus_idle()
        n = MEM // self.nb
        self.idx += 1
        cm = SCmd(self.idx, 0, True, 0, encode_len(MODE_LINEAR, n), "fill", None, n,
                  [rng.getrandbits(self.w) for _ in range(n)], [(1 << self.nb) - 1] * n)
        self.masters[0].pending.append(cm)
        while self.busy():
            await self.step()
        self.cov.n.clear()

    async def run(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        d.rst_ni.value = 0
        for name in _INPUTS:
            self._set(name, 0)
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await self.fill()
        issued = 0
        while issued < self.n:
            issued += await self.epoch(self.n - issued)
        d._log.info("ASBUS slave fuzz (ak_adam, W=%d): seed %d, %d commands (%d refused) in %d "
                    "epochs, %d cycles; %s", self.w, self.seed, issued, self.refused,
                    self.epochs, self.cycle, self.cov)
        self.cov.require(COVER, f"seed {self.seed}, W={self.w}")


@cocotb.test()
async def cocotb_asbus_slave_fuzz(dut: Any) -> None:
    n, seed = settings(default_seed=1)
    await SlaveFuzz(dut, seed, n).run()


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(width: int, n: int, seed: int) -> None:
    """Run ``n`` commands with ``seed`` on the ADAM bench build at ``width`` bits."""
    run_fuzz(toplevel="ak_adam", sources=ADAM_BENCH_SOURCES, test_module="test_asbus_slave_fuzz",
             test_dir=HERE, testcase="cocotb_asbus_slave_fuzz", n=n, seed=seed,
             parameters={"DataWidth": width}, build_args=ADAM_BENCH_ARGS)


@pytest.mark.slow  # 78 s; make test fuzzes the ASBUS master (test_asbus_master_fuzz)
def test_asbus_slave_fuzz() -> None:
    """3,000 random commands at 32 bits (the build of test_adam.py)."""
    _run(32, *settings(default_seed=1, default_n=N_FAST))


@pytest.mark.slow
@pytest.mark.parametrize("width", [32, 64, 128])
def test_asbus_slave_fuzz_long(width: int) -> None:
    """100,000 random commands at 32 bits, 20,000 at 64 and 128 (make test-full; the
    wider ADAM builds are test_adam.py's)."""
    _run(width, *settings(default_seed=width,
                          default_n=N_SLOW if width == 32 else N_SLOW // 5))
