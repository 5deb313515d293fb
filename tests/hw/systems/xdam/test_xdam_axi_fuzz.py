"""AXI4 bus fuzzing of ak_xdam's AXI4 slave (DataWidth 32 in make test, 64 and 128 in
make test-full; MemBytes 256, MaxBurst 16, IdWidth 4: the bench builds of test_xdam.py),
with the engine
:mod:`aeskit.verif.axi4_fuzz` (its docstring describes the master and the protocol
checks).

The reference model is a byte array of the 256-byte memory with the semantics of the
ak_xdam header and docs/asbus.md, the AES of :mod:`aeskit.model`:

* refused, with SLVERR on B or on every R beat (AxLEN + 1 R beats of zeros, never memory
  or engine data), the W beats consumed and dropped, memory unchanged and MBUS ERRCNT
  counting it: AxLEN + 1 > MaxBurst (up to 256 beats), AxSIZE other than the bus width,
  AxBURST FIXED, WRAP or the reserved 3, an address not beat aligned, any byte at or
  above MemBytes (bursts across 4 KiB and past the top of the address space included),
  and, with the engine on for that direction, a burst that is not whole aligned states;
* a legal bypass write stores the bytes its WSTRB selects; with CTRL.DEC_EN a write is
  ciphertext in natural order and memory gets its AES-128 decryption, state by state
  (the whole state: WSTRB is not used for cipher bursts, as for ASBUS state transfers
  in aeskit.asbus.model); a bypass read returns memory, with CTRL.ENC_EN the AES-128
  encryption of each state;
* bursts take effect in arrival order (AW/AR handshake order): a read returns what the
  writes that arrived before it stored, decrypted data included.

Traffic: random bursts of random IDs (half from two IDs, so per-ID order is exercised),
legal ones (bypass or whole states for the engine) and one in three broken in one of
the ways above; random strobes; AW/W order and gaps, BREADY/RREADY stalls and up to 12
bursts in flight as the engine draws them; memory-side wait states on W (``wait_i[1]``)
and junk on the unused ``wait_i[0]``. Every 250 bursts (and at the end): bypass, the
whole memory read back over AXI and compared, every MBUS register read back (CTRL, PITCH,
ERRCNT = the model's count of refused bursts, the 44 key words, unmapped addresses read
0), then writes to unmapped and read-only MBUS addresses (ignored), and a new random
configuration: ENC_EN/DEC_EN, PITCH, sometimes a new AES-128 key.

``AK_FUZZ_N`` / ``AK_FUZZ_SEED`` size the run (bursts; 3,000 in ``make test``, 100,000
in the slow variant, 3,000 at each wider bus there). The file is both the pytest module
and the cocotb test module.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cocotb
import pytest
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.model import AES, expand_key
from aeskit.verif.axi4_fuzz import FIXED, INCR, WRAP, Axi4Fuzz, Burst
from aeskit.verif.busfuzz import N_FAST, N_SLOW, OKAY, SLVERR, Stretch, run_fuzz, settings

HERE = Path(__file__).resolve().parent
#: the width of test_xdam.py's make-test build (its other parameters: the defaults)
WIDTH = 32
MEM = 256
MAX_BURST = 16
READBACK = 250
REASONS = ("AxLEN + 1 > MaxBurst", "AxSIZE not the bus width", "AxBURST not INCR",
           "not beat aligned", "beyond the memory", "not whole states")


def refusals(b: Burst, nb: int, cipher: bool) -> list[str]:
    """Why ak_xdam refuses burst ``b`` (its header's list; empty: accepted) on a bus of
    ``nb`` bytes, with the engine of its direction on (``cipher``) or not."""
    end = b.addr + b.n * nb
    why = []
    if b.n > MAX_BURST:
        why.append(REASONS[0])
    if b.size != nb.bit_length() - 1:
        why.append(REASONS[1])
    if b.btype != INCR:
        why.append(REASONS[2])
    if b.addr % nb:
        why.append(REASONS[3])
    if end > MEM:
        why.append(REASONS[4])
    if cipher and (b.addr % 16 or end % 16):
        why.append(REASONS[5])
    return why


class XdamFuzz(Axi4Fuzz):
    """ak_xdam: the memory behind AXI, configured over MBUS."""

    def __init__(self, dut: Any, seed: int) -> None:
        super().__init__(dut, seed, clk=dut.clk_i)
        for s in (dut.s_mbus_sel, dut.s_mbus_wr, dut.s_mbus_addr, dut.s_mbus_wdata):
            s.value = 0
        dut.wait_i.value = 0
        self.lb = self.nb.bit_length() - 1
        self.wait_rng = random.Random(seed + 2)
        self.w_stall = Stretch(8)
        self.wait_val = 0
        self.mem = bytearray(MEM)
        self.dec = self.enc = False
        self.ctrl = self.pitch = self.errcnt = 0
        self.key = bytes(16)
        self.kw = [0] * 44                  # the MBUS key words
        self.aes = AES(self.key)

    # --- the model ------------------------------------------------------------------
    def arrive(self, b: Burst) -> None:
        nb = self.nb
        end = b.addr + b.n * nb
        kind = "write" if b.write else "read"
        if b.addr // 4096 != (end - 1) // 4096:
            self.stats.count("across 4 KiB")
        if end > 1 << 32:
            self.stats.count("past the top of the address space")
        why = refusals(b, nb, self.dec if b.write else self.enc)
        if why:
            b.want_resp, b.note = SLVERR, "refused: " + ", ".join(why)
            b.want = [0] * b.n
            self.errcnt += 1
            self.stats.count(f"refused {kind}")
            for w in why:
                self.stats.count(f"{kind}: {w}")
            if b.n > 2 * MAX_BURST:
                self.stats.count(f"refused {kind} of {2 * MAX_BURST + 1}..256 beats")
            return
        b.want_resp = OKAY
        cipher = self.dec if b.write else self.enc
        b.note = ("decrypt" if b.write else "encrypt") if cipher else "bypass"
        self.stats.count(f"{kind} {b.note}")
        a = b.addr
        if b.write:
            if cipher:
                ct = b"".join(d.to_bytes(nb, "little") for d in b.data)
                for s in range(0, len(ct), 16):
                    self.mem[a + s:a + s + 16] = self.aes.decrypt(ct[s:s + 16])
                if any(st != (1 << nb) - 1 for st in b.strb):
                    self.stats.count("decrypt with partial WSTRB (whole states written)")
                return
            for k, (d, st) in enumerate(zip(b.data, b.strb, strict=True)):
                if st != (1 << nb) - 1:
                    self.stats.count("zero WSTRB" if not st else "partial WSTRB")
                for lane in range(nb):
                    if st >> lane & 1:
                        self.mem[a + k * nb + lane] = d >> (8 * lane) & 0xFF
            return
        data = bytes(self.mem[a:end])
        if cipher:
            data = b"".join(self.aes.encrypt(data[s:s + 16]) for s in range(0, len(data), 16))
        b.want = [int.from_bytes(data[i:i + nb], "little") for i in range(0, len(data), nb)]

    def tick(self) -> None:
        """Memory-side wait states on W (wait_i[1]); junk now and then on the unused
        wait_i[0]."""
        w = int(self.w_stall.stalled(self.wait_rng, 0.05))
        v = (w << 1) | (self.wait_val & 1)
        if self.wait_rng.random() < 0.05:
            v ^= 1
        if w:
            self.stats.count("W wait states (wait_i[1])")
        if v != self.wait_val:
            self.wait_val = v
            self.dut.wait_i.value = v

    # --- traffic --------------------------------------------------------------------
    def random_burst(self) -> Burst:
        rng = self.rng
        nb = self.nb
        write = rng.random() < 0.5
        cipher = self.dec if write else self.enc
        ident = rng.getrandbits(self.id_bits) if rng.random() < 0.5 else rng.randrange(2)
        if cipher and rng.random() < 0.85:                  # whole states
            k = rng.randint(1, min(MEM // 16, MAX_BURST * nb // 16))
            beats, addr = 16 * k // nb, 16 * rng.randrange(MEM // 16 - k + 1)
        else:
            beats = rng.randint(1, MAX_BURST)
            addr = nb * rng.randrange(MEM // nb - beats + 1)
        size, btype = self.lb, INCR
        if rng.random() < 0.35:
            kind = rng.choice(("long", "long", "size", "burst", "unaligned", "beyond",
                               "beyond", "4k", "top", "states"))
            self.stats.count(f"mutation {kind}")
            if kind == "long":
                beats = rng.randint(MAX_BURST + 1, 2 * MAX_BURST) if rng.random() < 0.9 \
                    else rng.randint(2 * MAX_BURST + 1, 256)
                addr = nb * rng.randrange(MEM // nb)
            elif kind == "size":
                size = rng.choice([s for s in range(8) if s != self.lb])
            elif kind == "burst":
                btype = rng.choice((FIXED, WRAP, 3))
                if btype == WRAP:
                    beats = rng.choice((2, 4, 8, 16))
                    addr = nb * beats * rng.randrange(MEM // (nb * beats)) \
                        + nb * rng.randrange(beats)
            elif kind == "unaligned":
                addr += rng.randint(1, nb - 1)
            elif kind == "beyond":
                addr = rng.choice((MEM - nb * rng.randint(0, beats - 1) if beats > 1 else MEM,
                                   MEM + nb * rng.randrange(64),
                                   rng.randrange(MEM, 1 << 32) & ~(nb - 1)))
            elif kind == "4k":
                beats = max(beats, 2)
                addr = 4096 * rng.randint(1, (1 << 20) - 1) - nb * rng.randint(1, beats - 1)
            elif kind == "top":
                addr = (1 << 32) - nb * rng.randint(1, beats)
            else:                                             # part of a state
                addr = rng.choice((addr + nb, addr)) if nb < 16 else addr
                if nb < 16 and rng.random() < 0.5:
                    beats = max(1, beats - 1)
        return self.burst(write, addr, beats, size=size, btype=btype, ident=ident)

    def readback(self) -> list[Burst]:
        """The whole memory in bypass reads of MaxBurst beats, in random order."""
        step = MAX_BURST * self.nb
        addrs = list(range(0, MEM, step))
        self.rng.shuffle(addrs)
        return [self.burst(False, a, min(MAX_BURST, (MEM - a) // self.nb)) for a in addrs]

    # --- MBUS (the AXI side idle) -----------------------------------------------------
    async def mbus_write(self, addr: int, data: int) -> None:
        d = self.dut
        await RisingEdge(self.clk)
        d.s_mbus_sel.value = 1
        d.s_mbus_wr.value = 1
        d.s_mbus_addr.value = addr
        d.s_mbus_wdata.value = data
        await RisingEdge(self.clk)
        d.s_mbus_sel.value = 0
        d.s_mbus_wr.value = 0

    async def mbus_read(self, addr: int) -> int:
        d = self.dut
        await RisingEdge(self.clk)
        d.s_mbus_sel.value = 1
        d.s_mbus_wr.value = 0
        d.s_mbus_addr.value = addr
        await RisingEdge(self.clk)
        d.s_mbus_sel.value = 0
        await FallingEdge(self.clk)
        return int(d.s_mbus_rdata.value)

    async def set_ctrl(self, value: int) -> None:
        await self.mbus_write(0x00, value)
        self.ctrl = value & 3
        self.dec, self.enc = bool(self.ctrl & 1), bool(self.ctrl & 2)

    async def set_key(self, key: bytes) -> None:
        words = b"".join(expand_key(key))
        self.key, self.aes = key, AES(key)
        for i in range(44):
            self.kw[i] = int.from_bytes(words[4 * i:4 * i + 4], "big")
            await self.mbus_write(0x40 + 4 * i, self.kw[i])

    async def check_mbus(self) -> None:
        want = {0x00: self.ctrl, 0x04: self.pitch, 0x08: self.errcnt & 0xFFFF}
        # the key words are write only: they read 0 (no key on any bus)
        want.update({0x40 + 4 * i: 0 for i in range(len(self.kw))})
        unmapped = [0x0C, 0xF0, 0xFC, self.rng.randrange(0x10, 0x40, 4),
                    0x40 + 4 * self.rng.randrange(44) + self.rng.randint(1, 3)]
        want.update({a: 0 for a in unmapped})
        for a, w in want.items():
            got = await self.mbus_read(a)
            assert got == w, (f"seed {self.seed}, after burst {self.idx}: MBUS {a:#04x} reads "
                              f"{got:#010x}, model {w:#010x}")

    async def barrier(self) -> None:
        """Bypass; memory and MBUS read back; MBUS writes that must be ignored; a new
        random configuration."""
        rng = self.rng
        await self.set_ctrl(rng.getrandbits(32) & ~3)
        await self.pump(self.readback())
        await self.check_mbus()
        self.stats.count("read-backs")
        for _ in range(rng.randint(0, 3)):          # ignored: read-only, unmapped, unaligned
            a = rng.choice((0x08, 0x0C, rng.randrange(0x10, 0x40), rng.randrange(0xF0, 0x100),
                            0x40 + 4 * rng.randrange(44) + rng.randint(1, 3)))
            await self.mbus_write(a, rng.getrandbits(32))
            self.stats.count("MBUS write ignored")
        if rng.random() < 0.3:
            await self.set_key(rng.randbytes(16))
        self.pitch = rng.getrandbits(32)
        await self.mbus_write(0x04, self.pitch)
        self.pitch &= 0xFFFF
        await self.set_ctrl(rng.getrandbits(32))
        self.stats.count(f"configuration DEC_EN {int(self.dec)} ENC_EN {int(self.enc)}")

    def items(self, n: int) -> Iterator[Any]:
        for i in range(n):
            if i % READBACK == READBACK - 1:
                yield self.barrier
            yield self.random_burst()
        yield self.barrier

    # --- the run --------------------------------------------------------------------
    async def run(self, n: int) -> None:
        self.dut._log.info("AXI4 fuzz of ak_xdam: seed %d, %d bursts", self.seed, n)
        await self.reset(self.dut.rst_ni)
        await self.check_mbus()                     # reset values: all 0
        await self.set_key(self.rng.randbytes(16))
        init = bytes(self.rng.getrandbits(8) for _ in range(MEM))
        step = MAX_BURST * self.nb
        await self.pump([self.burst(True, a, MAX_BURST, data=[
            int.from_bytes(init[a + i:a + i + self.nb], "little") for i in range(0, step, self.nb)],
            strb=[(1 << self.nb) - 1] * MAX_BURST) for a in range(0, MEM, step)])
        assert bytes(self.mem) == init
        await self.set_ctrl(self.rng.getrandbits(2))
        await self.pump(self.items(n))
        self.check_coverage()
        bus = self.bus
        self.dut._log.info("seed %d, %d bursts, %d cycles; in flight <= %d; B held %d, R held "
                           "%d cycles; ERRCNT %d; %s", self.seed, self.idx, self.cycle,
                           bus.max_flight, bus.b.held_cycles, bus.r.held_cycles, self.errcnt,
                           self.stats.line())

    def check_coverage(self) -> None:
        want = [f"{k}: {r}" for k in ("write", "read") for r in REASONS]
        want += ["write bypass", "read bypass", "write decrypt", "read encrypt",
                 "across 4 KiB", "past the top of the address space", "partial WSTRB",
                 "zero WSTRB", "W shown first", "AW shown first", "AW and W shown together",
                 "W wait states (wait_i[1])", "MBUS write ignored",
                 f"refused write of {2 * MAX_BURST + 1}..256 beats",
                 f"refused read of {2 * MAX_BURST + 1}..256 beats"]
        missing = self.stats.missing(want)
        bus = self.bus
        if not (bus.b.held_cycles and bus.r.held_cycles and bus.max_flight >= 4):
            missing.append("back-pressure / bursts in flight")
        assert not missing, f"seed {self.seed}: never exercised: {missing}"


@cocotb.test()
async def cocotb_xdam_axi_fuzz(dut: Any) -> None:
    """Random legal and refused AXI4 bursts against the byte model, with read-backs."""
    n, seed = settings(default_seed=1)
    fz = XdamFuzz(dut, seed)
    await fz.run(n)


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def test_refusal_rules() -> None:
    """The model's refusals, case by case, as the ak_xdam header lists them (a 4-byte
    bus, 256 bytes of memory, MaxBurst 16)."""
    def b(addr: int, beats: int, size: int = 2, btype: int = INCR) -> Burst:
        return Burst(0, True, 0, addr, beats - 1, size, btype)

    L, S, B, A, M, ST = REASONS
    for burst, cipher, want in [
            (b(0, 16), False, []), (b(0xF0, 4), True, []), (b(0x40, 8), True, []),
            (b(0, 17), False, [L]), (b(0, 256), False, [L, M]), (b(0, 4, size=1), False, [S]),
            (b(0, 4, size=3), False, [S]), (b(0, 4, btype=FIXED), False, [B]),
            (b(0, 4, btype=WRAP), False, [B]), (b(0, 4, btype=3), False, [B]),
            (b(2, 1), False, [A]), (b(0xFC, 2), False, [M]), (b(0x100, 1), False, [M]),
            (b(0xFFC, 2), False, [M]), (b(0xFFFF_FFFC, 2), False, [M]),
            (b(8, 4), True, [ST]), (b(0, 3), True, [ST]), (b(8, 4), False, [])]:
        assert refusals(burst, 4, cipher) == want, (burst, cipher)


def _run(n: int, seed: int, width: int = WIDTH) -> None:
    from aeskit.asbus.run import ADAM_BUILD_ARGS
    from aeskit.hw.manifest import sim_sources

    run_fuzz(toplevel="ak_xdam", sources=sim_sources("aeskit:bench:xdam_bench"),
             test_module="test_xdam_axi_fuzz", test_dir=HERE,
             testcase="cocotb_xdam_axi_fuzz", n=n, seed=seed,
             parameters={"DataWidth": width},
             build_args=("--no-public-flat-rw", *ADAM_BUILD_ARGS))


def test_xdam_axi_fuzz() -> None:
    """3,000 random AXI4 bursts on ak_xdam (same build as test_xdam.py)."""
    _run(N_FAST, seed=1)


@pytest.mark.slow
def test_xdam_axi_fuzz_long() -> None:
    """100,000 bursts (make test-full)."""
    _run(N_SLOW, seed=2)


@pytest.mark.slow
@pytest.mark.parametrize("width", [64, 128])
def test_xdam_axi_fuzz_wide(width: int) -> None:
    """3,000 bursts at 64 and 128 bits (the builds of test_xdam.py's slow widths)."""
    _run(N_FAST, seed=3, width=width)
