"""ak_aes_lite (hw/systems/lite, docs/aes_lite.md), the lean AES peripheral, end to end
with cocotbext-axi's AXI4-Lite master as the CPU (random pauses on all five channels:
valid gaps on AW, W, AR and bready / rready held low on B and R), against
`cryptography` (OpenSSL):

* on its default core compact32_bram_e128 (encrypt-only AES-128; Modes = 9'h087): the
  reset value of every register, ECB, CBC and CTR encryption of random messages of
  several blocks, CMAC generation of 0..80-byte messages, the errors (an address
  outside the map answers SLVERR on read and write; ECB/CBC decryption, a 192/256-bit
  key, KEY_LEN 3, mode codes 3..6 and GO before a key end in ERR ILLEGAL), and the
  cycles from the GO write to DONE per mode (LITE_CYCLES);
* on compact32_bram (both directions, every key size): ECB/CBC/CTR both ways and
  CMAC with 128/192/256-bit keys;
* a build with Modes = 9'h007 (aes_lite_ecc): CMAC ends in ILLEGAL, the core untouched
  (ECB still right afterwards);
* static: ``verilator --lint-only -Wall`` of the three builds and Yosys ``read_slang``
  of ak_aes_lite, zero warnings.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import logging
import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, FallingEdge

from aeskit.hw.systems.lite import ERR, KEY_LEN_CODE, MODE_CODE, regmap

HERE = Path(__file__).resolve().parent
RM = regmap()
#: the compact cores' latency (registry: 44, 52, 60 cycles for 128/192/256-bit keys)
CORE_LATENCY = {16: 44, 24: 52, 32: 60}
#: cycles from the edge that takes the GO write (the later of its AW and W
#: handshakes) to the first edge at which irq_o (IRQ_EN = 1) is seen high, per mode, on
#: a core of latency L: L + LITE_OVERHEAD (docs/aes_lite.md, "Timing")
LITE_OVERHEAD = 4


# ----------------------------------------------------------------------------------
# expected values: cryptography (OpenSSL)
# ----------------------------------------------------------------------------------
def ref(mode: str, dec: bool, key: bytes, iv: bytes, data: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    m = {"ecb": modes.ECB(), "cbc": modes.CBC(iv), "ctr": modes.CTR(iv)}[mode]
    c = Cipher(algorithms.AES(key), m)
    ctx = c.decryptor() if dec else c.encryptor()
    return ctx.update(data) + ctx.finalize()


def cmac_tag(key: bytes, msg: bytes) -> bytes:
    from cryptography.hazmat.primitives.ciphers import algorithms
    from cryptography.hazmat.primitives.cmac import CMAC

    c = CMAC(algorithms.AES(key))
    c.update(msg)
    return c.finalize()


def words(data: bytes) -> list[int]:
    """Register words of a block or key: byte 0 in bits [7:0] of word 0."""
    return [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]


# ----------------------------------------------------------------------------------
# the bench
# ----------------------------------------------------------------------------------
def _pauses(rng: random.Random, pct: int):
    while True:
        yield int(rng.randrange(100) < pct)


class Bench:
    def __init__(self, dut, seed: int = 1, pause_pct: int = 30) -> None:
        from cocotbext.axi import AxiLiteBus, AxiLiteMaster

        self.dut = dut
        logging.getLogger(f"cocotb.{dut._name}").setLevel(logging.WARNING)
        self.rng = random.Random(seed)
        cocotb.start_soon(Clock(dut.clk_i, 10, unit="ns").start())
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i,
                                  dut.rst_ni, reset_active_level=False)
        self.set_pauses(pause_pct)
        self.edge = 0
        self.go_edge = -1
        self.irq_edge = -1
        self.bp = {"b": 0, "r": 0}
        cocotb.start_soon(self._count())

    def set_pauses(self, pct: int) -> None:
        chans = [self.axil.write_if.aw_channel, self.axil.write_if.w_channel,
                 self.axil.write_if.b_channel, self.axil.read_if.ar_channel,
                 self.axil.read_if.r_channel]
        for i, ch in enumerate(chans):
            if pct:
                ch.set_pause_generator(_pauses(random.Random(self.rng.random() + i), pct))
            else:
                ch.clear_pause_generator()
                ch.pause = False

    async def _count(self) -> None:
        """Edge counter (sampled between edges): the edge of the GO write's later
        handshake, the first edge with irq_o high; back-pressure seen (bvalid or rvalid
        held against a low ready)."""
        d = self.dut
        aw = w = False
        prev_irq = 0
        while True:
            await FallingEdge(d.clk_i)
            self.edge += 1
            if int(d.s_axil_awvalid.value) and int(d.s_axil_awready.value):
                aw = int(d.s_axil_awaddr.value) == RM.addr["GO"]
            if int(d.s_axil_wvalid.value) and int(d.s_axil_wready.value):
                w = True
            if aw and w:
                self.go_edge, aw, w = self.edge, False, False
            elif not aw:
                w = w and not (int(d.s_axil_wvalid.value) and int(d.s_axil_wready.value))
            irq = int(d.irq_o.value)
            if irq and not prev_irq:
                self.irq_edge = self.edge
            prev_irq = irq
            if int(d.s_axil_bvalid.value) and not int(d.s_axil_bready.value):
                self.bp["b"] += 1
            if int(d.s_axil_rvalid.value) and not int(d.s_axil_rready.value):
                self.bp["r"] += 1

    async def reset(self) -> None:
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.dut.clk_i, 2)

    async def wr(self, reg: str | int, value: int) -> int:
        addr = RM.addr[reg] if isinstance(reg, str) else reg
        r = await self.axil.write(addr, value.to_bytes(4, "little"))
        return int(r.resp)

    async def rd_resp(self, reg: str | int) -> tuple[int, int]:
        addr = RM.addr[reg] if isinstance(reg, str) else reg
        r = await self.axil.read(addr, 4)
        return int.from_bytes(r.data, "little"), int(r.resp)

    async def rd(self, reg: str | int) -> int:
        v, resp = await self.rd_resp(reg)
        assert resp == 0, (reg, resp)
        return v

    async def wr_block(self, name: str, data: bytes) -> None:
        for i, v in enumerate(words(data)):
            assert await self.wr(f"{name}{i}", v) == 0

    async def rd_block(self, name: str) -> bytes:
        out = b""
        for i in range(4):
            out += (await self.rd(f"{name}{i}")).to_bytes(4, "little")
        return out

    async def wait_done(self) -> int:
        """Poll STATUS until BUSY = 0 and DONE = 1; the ERR code."""
        while True:
            s = await self.rd("STATUS")
            if not RM.get(s, "STATUS.BUSY") and RM.get(s, "STATUS.DONE"):
                return RM.get(s, "STATUS.ERR")

    async def ctrl(self, mode: str | int, dec: bool = False, klen: int = 16) -> None:
        code = MODE_CODE[mode] if isinstance(mode, str) else mode
        assert await self.wr("CTRL", RM.value(CTRL__MODE=code, CTRL__DECRYPT=int(dec),
                                              CTRL__KEY_LEN=KEY_LEN_CODE.get(klen, 3),
                                              CTRL__IRQ_EN=1)) == 0

    async def load_key(self, key: bytes, klen: int | None = None) -> int:
        """KEYGO with ``key`` (KEY_LEN from its length, or ``klen`` bytes); ERR."""
        for i, v in enumerate(words(key.ljust(32, b"\0"))):
            assert await self.wr(f"KEY{i}", v) == 0
        s = await self.rd("CTRL")
        code = KEY_LEN_CODE.get(klen or len(key), 3)
        await self.wr("CTRL", (s & ~(3 << RM.field["CTRL.KEY_LEN"][0]))
                      | (code << RM.field["CTRL.KEY_LEN"][0]))
        assert await self.wr("KEYGO", RM.value(KEYGO__GO=1)) == 0
        return await self.wait_done()

    async def go(self, last: bool = False, nbytes: int = 0) -> int:
        assert await self.wr("GO", RM.value(GO__START=1, GO__LAST=int(last),
                                            GO__NBYTES=nbytes)) == 0
        return await self.wait_done()

    async def message(self, mode: str, dec: bool, key: bytes, iv: bytes,
                      data: bytes) -> bytes:
        """Run ``data`` (whole blocks) through ``mode`` with the loaded key."""
        await self.ctrl(mode, dec, len(key))
        await self.wr_block("IV", iv)
        out = b""
        for i in range(0, len(data), 16):
            await self.wr_block("DIN", data[i:i + 16])
            assert await self.go() == ERR["NONE"], (mode, dec, i)
            out += await self.rd_block("DOUT")
        return out

    async def cmac(self, key: bytes, msg: bytes) -> bytes:
        await self.ctrl("cmac", False, len(key))
        await self.wr_block("IV", bytes(16))
        n = max(1, -(-len(msg) // 16))
        for b in range(n):
            blk = msg[16 * b:16 * b + 16]
            await self.wr_block("DIN", blk.ljust(16, b"\0"))
            last = b == n - 1
            assert await self.go(last, len(blk) if last else 0) == ERR["NONE"], (len(msg), b)
        tag = await self.rd_block("IV")
        assert await self.rd_block("DOUT") == tag
        return tag


async def start(dut, seed: int = 1, pause_pct: int = 30) -> Bench:
    tb = Bench(dut, seed, pause_pct)
    await tb.reset()
    return tb


async def check_modes(tb: Bench, klens: tuple[int, ...], decrypt: bool) -> None:
    rng = tb.rng
    for klen in klens:
        key = rng.randbytes(klen)
        assert await tb.load_key(key) == ERR["NONE"]
        for mode in ("ecb", "cbc", "ctr"):
            for dec in ((False, True) if decrypt else (False,)):
                iv = rng.randbytes(16) if mode != "ctr" else \
                    (rng.randbytes(12) + b"\xff\xff\xff\xfe")  # a carry across words
                data = rng.randbytes(16 * rng.randint(2, 4))
                got = await tb.message(mode, dec, key, iv, data)
                assert got == ref(mode, dec, key, iv, data), (mode, dec, klen)
                # IV continues the message: CBC the last input/output block, CTR + n
                if mode == "cbc":
                    want_iv = (data if dec else got)[-16:]
                    assert await tb.rd_block("IV") == want_iv
                if mode == "ctr":
                    n = len(data) // 16
                    want = (int.from_bytes(iv, "big") + n) % (1 << 128)
                    assert await tb.rd_block("IV") == want.to_bytes(16, "big")


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_reset_values(dut) -> None:
    """Every register after reset (KEY reads 0: write-only), and again after a reset
    that follows writes to all of them (KEY, IV, DIN, DOUT cleared)."""
    tb = await start(dut, seed=2)
    want = {"CTRL": 0, "STATUS": 0, "KEYGO": 0, "GO": 0}
    want.update({f"{r}{i}": 0 for r in ("IV", "DIN", "DOUT") for i in range(4)})
    want.update({f"KEY{i}": 0 for i in range(8)})
    for reg, v in want.items():
        assert await tb.rd(reg) == v, reg
    assert int(dut.irq_o.value) == 0
    key = bytes(range(16))
    assert await tb.load_key(key) == 0
    await tb.ctrl("ecb")
    await tb.wr_block("IV", bytes(range(16, 32)))
    await tb.wr_block("DIN", bytes(16))
    assert await tb.go() == 0
    assert await tb.rd_block("DOUT") == ref("ecb", False, key, b"", bytes(16))
    assert int(dut.irq_o.value) == 1
    s = await tb.rd("STATUS")
    assert RM.get(s, "STATUS.KEY_OK") == 1 and RM.get(s, "STATUS.DONE") == 1
    # DONE is write-1-to-clear
    await tb.wr("STATUS", RM.value(STATUS__DONE=1))
    assert RM.get(await tb.rd("STATUS"), "STATUS.DONE") == 0
    assert int(dut.irq_o.value) == 0
    await tb.reset()
    for reg, v in want.items():
        assert await tb.rd(reg) == v, reg
    # reset forgot the key: GO is refused
    await tb.ctrl("ecb")
    assert await tb.go() == ERR["ILLEGAL"]


@cocotb.test()
async def cocotb_modes(dut) -> None:
    """ECB, CBC, CTR of random messages; on a decrypting core both ways and every key
    size the core builds (AK_LITE_FULL)."""
    tb = await start(dut, seed=3)
    full = bool(os.environ.get("AK_LITE_FULL"))
    await check_modes(tb, (16, 24, 32) if full else (16,), decrypt=full)
    assert tb.bp["b"] > 0 and tb.bp["r"] > 0, tb.bp


@cocotb.test()
async def cocotb_cmac(dut) -> None:
    """CMAC generation for 0..80-byte messages (every length; AK_LITE_FULL: fewer
    lengths, every key size), a new key between."""
    tb = await start(dut, seed=4, pause_pct=20)
    full = bool(os.environ.get("AK_LITE_FULL"))
    rng = tb.rng
    klens = (16, 24, 32) if full else (16,)
    lengths = (0, 1, 15, 16, 17, 32, 33, 80) if full else tuple(range(81))
    for klen in klens:
        key = rng.randbytes(klen)
        assert await tb.load_key(key) == 0
        for n in lengths:
            msg = rng.randbytes(n)
            assert await tb.cmac(key, msg) == cmac_tag(key, msg), (klen, n)
    # RFC 4493 example 2 (AES-128, 16 bytes)
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    assert await tb.load_key(key) == 0
    msg = bytes.fromhex("6bc1bee22e409f96e93d7e117393172a")
    assert await tb.cmac(key, msg) == bytes.fromhex("070a16b46b4d4144f79bdd9dd04a287c")


@cocotb.test()
async def cocotb_errors(dut) -> None:
    """SLVERR outside the map; ILLEGAL for what the build or the core lacks; the key in
    force stays usable after a refused GO."""
    tb = await start(dut, seed=5)
    for addr in (0x60, 0x7C, 0x80, 0x1000, 0xFFFF_FFFC):
        assert await tb.wr(addr, 0x1234_5678) == 2, hex(addr)   # SLVERR
        v, resp = await tb.rd_resp(addr)
        assert resp == 2 and v == 0, hex(addr)
    # GO before any key
    await tb.ctrl("ecb")
    assert await tb.go() == ERR["ILLEGAL"]
    key = tb.rng.randbytes(16)
    assert await tb.load_key(key) == 0
    # mode codes that are not modes
    for code in (3, 4, 5, 6):
        await tb.ctrl(code)
        assert await tb.go() == ERR["ILLEGAL"], code
    # KEY_LEN 3 always; on an encrypt-only AES-128 core: decryption, 192/256-bit keys
    assert await tb.load_key(key, klen=3) == ERR["ILLEGAL"]
    assert RM.get(await tb.rd("STATUS"), "STATUS.KEY_OK") == 0
    assert await tb.load_key(key) == 0
    if not os.environ.get("AK_LITE_FULL"):
        for mode in ("ecb", "cbc"):
            await tb.ctrl(mode, dec=True)
            assert await tb.go() == ERR["ILLEGAL"], mode
        data = tb.rng.randbytes(16)
        assert await tb.message("ecb", False, key, bytes(16), data) == ref(
            "ecb", False, key, b"", data)
        for klen in (24, 32):
            assert await tb.load_key(tb.rng.randbytes(klen)) == ERR["ILLEGAL"], klen
        await tb.ctrl("ecb")
        assert await tb.go() == ERR["ILLEGAL"]      # the refused key left no key
        assert await tb.load_key(key) == 0
    # a Modes = 9'h007 build: CMAC is refused, nothing changes, ECB still right
    if os.environ.get("AK_LITE_ECC"):
        await tb.wr_block("IV", bytes(range(16)))
        await tb.wr_block("DIN", bytes(16))
        dout = await tb.rd_block("DOUT")
        await tb.ctrl("cmac")
        assert await tb.go() == ERR["ILLEGAL"]
        assert await tb.rd_block("IV") == bytes(range(16))
        assert await tb.rd_block("DOUT") == dout
    data = tb.rng.randbytes(32)
    assert await tb.message("ecb", False, key, bytes(16), data) == ref(
        "ecb", False, key, b"", data)


@cocotb.test()
async def cocotb_cycles(dut) -> None:
    """Cycles from the GO write to irq_o per mode (no pauses): core latency +
    LITE_OVERHEAD for every mode; KEYGO is timed too (core key setup + ...)."""
    tb = await start(dut, seed=6, pause_pct=0)
    key = tb.rng.randbytes(16)
    assert await tb.load_key(key) == 0
    got = {}
    for mode in ("ecb", "cbc", "ctr", "cmac"):
        for last in ((False, True) if mode == "cmac" else (False,)):
            await tb.ctrl(mode)
            await tb.wr_block("DIN", bytes(16))
            # wait until irq_o is low (GO clears DONE) then count
            assert await tb.wr("GO", RM.value(GO__START=1, GO__LAST=int(last),
                                              GO__NBYTES=16)) == 0
            assert await tb.wait_done() == 0
            got[(mode, last)] = tb.irq_edge - tb.go_edge
    dut._log.warning("aes_lite cycles GO write -> irq: %s", got)
    want = CORE_LATENCY[16] + LITE_OVERHEAD
    assert all(v == want for v in got.values()), got


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str | list[str], env: dict | None = None, core: str | None = None,
         modes: int | None = None) -> None:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.lite import DEFAULT_CORE, SYS_TOP, system_files

    run_cocotb(toplevel=SYS_TOP, sources=system_files(core or DEFAULT_CORE, modes=modes),
               test_module="test_aes_lite", test_dir=HERE, parameters={},
               testcase=testcase, extra_env=env or {}, seed=1)


def test_aes_lite() -> None:
    """The registry's aes_lite on compact32_bram_e128: reset values, ECB/CBC/CTR, CMAC
    0..80 bytes, errors, cycles."""
    _run(["cocotb_reset_values", "cocotb_modes", "cocotb_cmac", "cocotb_errors",
          "cocotb_cycles"])


def test_aes_lite_full_core() -> None:
    """On compact32_bram (both directions, every key size)."""
    _run(["cocotb_modes", "cocotb_cmac", "cocotb_errors"], env={"AK_LITE_FULL": "1"},
         core="compact32_bram")


@pytest.mark.slow  # its own Verilator build; the default build refuses codes 3..6 alike
def test_aes_lite_ecc() -> None:
    """A build with Modes = 9'h007 (aes_lite_ecc) refuses CMAC."""
    _run("cocotb_errors", env={"AK_LITE_ECC": "1"}, modes=0x007)


# ----------------------------------------------------------------------------------
# static checks: Verilator -Wall and Yosys read_slang, zero warnings
# ----------------------------------------------------------------------------------
@pytest.mark.parametrize("core,modes", [("compact32_bram_e128", None),
                                        ("compact32_bram_e128", 0x007),
                                        ("compact32_bram", None)])
def test_verilator_lint(core: str, modes: int | None, tmp_path: Path) -> None:
    """``verilator --lint-only -Wall`` of ak_aes_lite_sys (the peripheral with its core,
    each build of the tests): zero warnings."""
    import subprocess

    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.hw.systems.lite import SYS_TOP, system_files
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", SYS_TOP, str(WAIVERS),
           *(str(f) for f in system_files(core, tmp_path / "src", modes=modes))]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out, out


def test_yosys_slang_check() -> None:
    """Yosys read_slang + hierarchy + proc + check of ak_aes_lite: no warning."""
    import re
    import subprocess

    from aeskit import BUILD_ROOT
    from aeskit.hw.systems.lite import lite_paths
    from aeskit.toolchain.paths import yosys

    files = " ".join(str(f) for f in lite_paths())
    script = (f"read_slang -j 1 --top ak_aes_lite {files}; hierarchy -check -top ak_aes_lite; "
              f"proc; check -assert")
    cwd = BUILD_ROOT / "lint"
    cwd.mkdir(parents=True, exist_ok=True)
    res = subprocess.run(yosys() + ["-p", script], capture_output=True, text=True,
                         cwd=cwd, timeout=600)
    out = res.stdout + res.stderr
    bad = [ln for ln in out.splitlines()
           if re.match(r"\s*(Warning|ERROR)\b", ln) or re.search(r": (warning|error): ", ln)]
    assert res.returncode == 0 and "Build succeeded: 0 errors, 0 warnings" in out and not bad, \
        "\n".join(bad or out.splitlines()[-30:])
