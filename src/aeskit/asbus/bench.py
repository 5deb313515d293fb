"""The paper's test cases (Sec. 6) as cocotb routines for ADAM and XDAM.

Used by the tests (``tests/hw/systems``) and by :func:`aeskit.asbus.run.measure`.
Each routine runs the three cases at the DUT's width, checks returned data and memory
against the models (raising ``AssertionError``) and returns one
:class:`aeskit.asbus.cases.CycleRecord` per case.

* ADAM: master 0 writes, master 1 reads back (its read is queued at once and waits for
  the written bytes); measured = first REQ of the write to the last read beat.
  :func:`adam_stream_case` runs the cipher test in the scenario Table I counts
  (:data:`aeskit.asbus.cases.STREAM_TESTS`: the read encrypts other states, on a
  :data:`~aeskit.asbus.cases.STREAM_MEM_BYTES`-byte ADAM).
* XDAM (cocotbext-axi): the write bursts (at most 16 beats; one per block row; one per
  state for the cipher case, ciphertext in natural order), then, after their B
  responses, the read bursts; measured = first AWVALID to the last R beat.
"""

from __future__ import annotations

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from cocotb.utils import get_sim_time
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.asbus.cases import TESTS, CycleRecord, block_pitch, paper_case, record
from aeskit.asbus.cases import stream_case, stream_read_delay, with_window
from aeskit.asbus.model import MODE_LINEAR, AsbusCommand, DamModel, beat_addresses, encode_len
from aeskit.asbus.tb import AdamTB
from aeskit.model import AES, expand_key

__all__ = ["XdamTB", "adam_backdoor_dump", "adam_dump", "adam_paper_cases", "adam_stream_case",
           "check_mem", "xdam_paper_cases"]

MEM = 256
#: clock period of the XDAM bench
PERIOD_PS = 10_000


async def _adam_edge_times(tb: AdamTB) -> tuple[int, int, int]:
    """``(cycle, rising edge time of that cycle, period)`` in ps, read at two falling
    edges (``tb.cycle`` changes only at rising edges)."""
    clk = tb.dut.clk_i
    await FallingEdge(clk)
    c1, t1 = tb.cycle, int(get_sim_time("ps"))
    await FallingEdge(clk)
    c2, t2 = tb.cycle, int(get_sim_time("ps"))
    period = (t2 - t1) // (c2 - c1)
    return c2, t2 - period // 2, period


async def adam_dump(tb: AdamTB, mem_bytes: int = MEM, master: int = 1) -> list[int]:
    """All ADAM memory bytes, read in bypass with one linear command (CTRL must be 0
    or the command is linear anyway: linear transfers always bypass the engines)."""
    nb = tb.nb
    ic = tb.issue(master, AsbusCommand(False, 0, encode_len(MODE_LINEAR, mem_bytes // nb)),
                  mem_bytes // nb)
    await tb.drain()
    assert not ic.error, "memory dump refused"
    out = []
    for beat in ic.rdata:
        out.extend((beat >> (8 * b)) & 0xFF for b in range(nb))
    return out


def adam_backdoor_dump(dut, width: int, mem_bytes: int = MEM) -> list[int]:
    """All SRAM bytes of ADAM read through the hierarchy (``u_mem.g_lane[m].lane_q``,
    byte ``a`` in lane ``a mod W/8``, word ``a div W/8``): no bus cycles, no clock."""
    nb = width // 8
    out = [0] * mem_bytes
    for m in range(nb):
        lane = dut.u_mem[f"g_lane[{m}]"].lane_q
        for w in range(mem_bytes // nb):
            out[w * nb + m] = int(lane[w].value)
    return out


def check_mem(got: list[int], model: DamModel, what: str) -> None:
    bad = [(a, g, w) for a, (g, w) in enumerate(zip(got, model.mem, strict=True))
           if w is not None and g != w]
    assert not bad, f"{what}: memory differs at {len(bad)} bytes, first (addr, got, want) {bad[:4]}"


async def _adam_window(tb: AdamTB, rec: CycleRecord, first: int, last: int) -> CycleRecord:
    """``rec`` with the simulation time of the cycles ``first .. last`` (inclusive) as
    [rising edge, rising edge)."""
    cyc, t_rise, period = await _adam_edge_times(tb)
    return with_window(rec, t_rise - (cyc - first) * period, t_rise - (cyc - last - 1) * period)


async def adam_paper_cases(tb: AdamTB, seed: int = 0) -> list[tuple[CycleRecord, int, int]]:
    """Run the three cases on a started :class:`AdamTB`; return
    ``(record, write_req_cycle_offset, ...)`` as ``(record, write cycles, read cycles)``."""
    width = tb.width
    out = []
    for test in TESTS:
        model, wcmd, rcmd = paper_case(test, width, seed=seed)
        tb.configure(model)
        await tb.mbus_idle()
        start = tb.cycle + 1
        w = tb.issue(0, wcmd, model.beats(wcmd.len12), start_after=start)
        r = tb.issue(1, rcmd, model.beats(rcmd.len12), start_after=start)
        await tb.drain()
        assert not w.error and not r.error, f"{test} {width}: refused"
        model.write(wcmd.addr, wcmd.len12, wcmd.data)
        want = model.read(rcmd.addr, rcmd.len12)
        assert None not in want
        assert r.rdata == want, (f"{test} {width}: returned data differ, first beats "
                                 f"{[hex(x) for x in r.rdata[:4]]} / {[hex(x) for x in want[:4]]}")
        check_mem(await adam_dump(tb), model, f"{test} {width}")
        write_cycles = w.done_cycle - w.req_cycle + 1
        measured = r.done_cycle - w.req_cycle + 1
        read_cycles = r.done_cycle - r.req_cycle + 1
        rec = record(test, "asbus", width, measured, write_cycles=write_cycles,
                     read_cycles=read_cycles)
        out.append((await _adam_window(tb, rec, w.req_cycle, r.done_cycle), write_cycles,
                    measured))
    return out


def _aes_ecb(key: bytes, data: bytes, encrypt: bool) -> bytes:
    """AES-128-ECB by the ``cryptography`` package (independent of the RTL and of
    :mod:`aeskit.model`, which the data-path model uses)."""
    c = Cipher(algorithms.AES(key), modes.ECB())
    op = c.encryptor() if encrypt else c.decryptor()
    return op.update(data) + op.finalize()


async def adam_stream_case(tb: AdamTB, test: str, seed: int = 0) -> tuple[CycleRecord, int, int]:
    """One of :data:`~aeskit.asbus.cases.STREAM_TESTS` on a started :class:`AdamTB`
    of a :data:`~aeskit.asbus.cases.STREAM_MEM_BYTES`-byte ADAM: the plaintext of the
    read preloaded (bypass linear write, before the measured cycles), then master 0's
    state write and master 1's state read of the other bytes, the read's REQ
    :func:`~aeskit.asbus.cases.stream_read_delay` cycles after the write's. Checks the
    read's ciphertext and the memory against :class:`DamModel` and against AES-ECB
    by ``cryptography``; returns ``(record, write cycles, measured)``, measured = the
    write's REQ to the last beat of either command."""
    width, nb = tb.width, tb.nb
    case = stream_case(test, width, seed=seed)
    model, pre, wcmd, rcmd = case.model, case.preload, case.write, case.read
    tb.configure(model)
    await tb.mbus_idle()
    p = tb.issue(1, pre, model.beats(pre.len12))
    await tb.drain()
    assert not p.error, f"{test} {width}: preload refused"
    model.write(pre.addr, pre.len12, pre.data)
    start = tb.cycle + 1
    w = tb.issue(0, wcmd, model.beats(wcmd.len12), start_after=start)
    r = tb.issue(1, rcmd, model.beats(rcmd.len12),
                 start_after=start + stream_read_delay(test, width))
    await tb.drain()
    assert not w.error and not r.error, f"{test} {width}: refused"
    assert w.req_cycle is not None and r.req_cycle is not None
    assert r.req_cycle - w.req_cycle == stream_read_delay(test, width), (
        f"{test} {width}: read REQ {r.req_cycle - w.req_cycle} cycles after the write's")
    want = model.read(rcmd.addr, rcmd.len12)
    model.write(wcmd.addr, wcmd.len12, wcmd.data)
    assert r.rdata == want, f"{test} {width}: returned ciphertext differs from the model"
    plain = _bytes(pre.data, nb)
    assert _bytes(r.rdata, nb) == _aes_ecb(model.key, plain, encrypt=True), (
        f"{test} {width}: returned data are not AES-ECB of the preloaded plaintext")
    mem = await adam_dump(tb, model.mem_bytes)
    check_mem(mem, model, f"{test} {width}")
    ct = bytearray(model.beats(wcmd.len12) * nb)     # the ciphertext in natural order
    for beat, lanes in zip(wcmd.data, beat_addresses(width, wcmd.addr, wcmd.len12), strict=True):
        for b, a in enumerate(lanes):
            ct[a - wcmd.addr] = (beat >> (8 * b)) & 0xFF
    plain_mem = bytes(mem[wcmd.addr:wcmd.addr + len(ct)])
    assert plain_mem == _aes_ecb(model.key, bytes(ct), encrypt=False), (
        f"{test} {width}: memory is not the AES-ECB decryption of the written states")
    assert r.done_cycle is not None and w.done_cycle is not None
    last = max(w.done_cycle, r.done_cycle)
    write_cycles = w.done_cycle - w.req_cycle + 1
    measured = last - w.req_cycle + 1
    rec = record(test, "asbus", width, measured, write_cycles=write_cycles,
                 read_cycles=r.done_cycle - r.req_cycle + 1)
    return await _adam_window(tb, rec, w.req_cycle, last), write_cycles, measured


class XdamTB:
    """cocotbext-axi master, MBUS writes and a cycle monitor for ``ak_xdam``."""

    def __init__(self, dut, max_burst_len: int = 16) -> None:
        self.dut = dut
        self.width = len(dut.s_axi_wdata)
        self.nb = self.width // 8
        self.cycle = 0
        self.first_aw: int | None = None
        self.last_r: int | None = None
        self.t_first_aw: int | None = None   # falling edge of first_aw, ps
        self.t_last_r: int | None = None     # falling edge of last_r, ps
        self.max_burst_len = max_burst_len

    async def start(self) -> None:
        from cocotbext.axi import AxiBus, AxiMaster

        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, PERIOD_PS, unit="ps").start())
        d.s_mbus_sel.value = 0
        d.s_mbus_wr.value = 0
        d.s_mbus_addr.value = 0
        d.s_mbus_wdata.value = 0
        d.wait_i.value = 0
        self.axi = AxiMaster(AxiBus.from_prefix(d, "s_axi"), d.clk_i, d.rst_ni,
                             reset_active_level=False, max_burst_len=self.max_burst_len)
        d.rst_ni.value = 0
        for _ in range(3):
            await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await RisingEdge(d.clk_i)
        cocotb.start_soon(self._monitor())

    async def _monitor(self) -> None:
        d = self.dut
        while True:
            await FallingEdge(d.clk_i)
            self.cycle += 1
            if self.first_aw is None and int(d.s_axi_awvalid.value):
                self.first_aw = self.cycle
                self.t_first_aw = int(get_sim_time("ps"))
            if int(d.s_axi_rvalid.value) and int(d.s_axi_rready.value):
                self.last_r = self.cycle
                self.t_last_r = int(get_sim_time("ps"))

    def mark(self) -> None:
        self.first_aw = self.last_r = None
        self.t_first_aw = self.t_last_r = None

    async def mbus_write(self, addr: int, data: int) -> None:
        d = self.dut
        await RisingEdge(d.clk_i)
        d.s_mbus_sel.value = 1
        d.s_mbus_wr.value = 1
        d.s_mbus_addr.value = addr
        d.s_mbus_wdata.value = data
        await RisingEdge(d.clk_i)
        d.s_mbus_sel.value = 0
        d.s_mbus_wr.value = 0

    async def configure(self, key: bytes, dec: bool, enc: bool) -> None:
        words = b"".join(expand_key(key))
        for i in range(44):
            await self.mbus_write(0x40 + 4 * i, int.from_bytes(words[4 * i:4 * i + 4], "big"))
        await self.mbus_write(0x00, int(dec) | (int(enc) << 1))

    async def dump(self) -> bytes:
        from cocotbext.axi import AxiResp

        await self.mbus_write(0x00, 0)
        resp = await self.axi.read(0, MEM)
        assert resp.resp == AxiResp.OKAY
        return bytes(resp.data)


def _bytes(beats: list[int], nb: int) -> bytes:
    return b"".join(b.to_bytes(nb, "little") for b in beats)


async def xdam_paper_cases(tb: XdamTB, seed: int = 0) -> list[CycleRecord]:
    """Run the three cases on a started :class:`XdamTB`."""
    from cocotbext.axi import AxiResp

    width, nb = tb.width, tb.nb
    out = []
    for test in TESTS:
        model, wcmd, _ = paper_case(test, width, seed=seed)
        payload = _bytes(wcmd.data, nb)
        await tb.configure(model.key, model.dec_en, model.enc_en)
        for _ in range(4):
            await RisingEdge(tb.dut.clk_i)
        if test == "linear":
            chunks = [(0, payload)]
        elif test == "block":
            pitch = block_pitch(width)
            chunks = [(r * pitch, payload[16 * r:16 * r + 16]) for r in range(10)]
        else:
            # the same ciphertext as the ASBUS case, in natural byte order
            ct = bytearray(160)
            for beat, lanes in zip(wcmd.data, beat_addresses(width, 0, wcmd.len12), strict=True):
                for b, a in enumerate(lanes):
                    ct[a] = (beat >> (8 * b)) & 0xFF
            chunks = [(16 * k, bytes(ct[16 * k:16 * k + 16])) for k in range(10)]
        tb.mark()
        wr = [cocotb.start_soon(tb.axi.write(a, d)) for a, d in chunks]
        wres = [await t for t in wr]
        rd = [cocotb.start_soon(tb.axi.read(a, len(d))) for a, d in chunks]
        rres = [await t for t in rd]
        assert all(r.resp == AxiResp.OKAY for r in wres + rres), f"{test} {width}: SLVERR"
        measured = tb.last_r - tb.first_aw + 1
        # the measured cycles as [rising edge, rising edge): half a period around the
        # falling edges at which the monitor saw the first AWVALID and the last R beat
        assert tb.t_first_aw is not None and tb.t_last_r is not None
        window = (tb.t_first_aw - PERIOD_PS // 2, tb.t_last_r + PERIOD_PS // 2)
        for (a, d), r in zip(chunks, rres, strict=True):
            assert bytes(r.data) == d, f"{test} {width}: read at {a:#x} differs"
        mem = await tb.dump()
        for a, d in chunks:
            want = AES(model.key).decrypt(d) if test == "cipher" else d
            assert mem[a:a + len(d)] == want, f"{test} {width}: memory at {a:#x}"
        out.append(with_window(record(test, "axi", width, measured), *window))
    return out
