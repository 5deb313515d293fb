"""ak_uart_demo_sys (hw/systems/uart_demo, docs/uart_demo.md), the UART demo, end to
end on its pins: cocotbext-uart's UartSource / UartSink play the host's USB-UART, and
the host tool's own protocol code (aeskit.board.protocol: frames, decoder, the
operations as generators) is pumped by a small async transport. Expected values come
from `cryptography` (OpenSSL), never from the RTL.

* on the default core compact32_bram_e128 (encrypt-only AES-128), ClkPerBit = 10:
  ECB, CBC, CTR encryption (a CTR message of several DATA frames, a partial last
  block) and CMAC of 0..81 bytes; the refusals of the build (ILLEGAL: decryption, a
  256-bit key, a block before any key, CMAC_FINAL outside CMAC); KEY_CLEAR (a block
  after it is refused); STATUS; garbage bytes, a bad CRC, a truncated frame, an
  unknown command, a bad length, a framing error and an overrun, each answered by its
  error frame and followed by a correct operation; frames back to back at the full
  rate (each request sent the moment the previous answer ends, no idle bit);
* on compact32_bram (both directions, every key size): ECB/CBC/CTR both ways and
  CMAC with 128/192/256-bit keys;
* at the boards' real ratio, 12 MHz and 115200 baud (ClkPerBit = 104): STATUS and a
  short CTR message;
* static: ``verilator --lint-only -Wall`` of both builds, zero warnings.

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
from cocotb.triggers import ClockCycles, FallingEdge, Timer
from cocotb.utils import get_sim_time

from aeskit.board import protocol as P
from aeskit.crypt.filecrypt import reference_crypt  # OpenSSL, through cryptography

HERE = Path(__file__).resolve().parent
#: the simulated builds: (clock Hz, baud), ClkPerBit = 10 and the real boards' ratio
FAST = (100_000, 10_000)
REAL = (12_000_000, 115_200)
#: turnaround bounds (cycles from a request's last stop bit to the answer's start bit,
#: ClkPerBit 10, compact32_bram_e128, measured 95 / 1,425 / 207): DATA at most
#: TURN_BASE + TURN_BLOCK per block, SET_KEY (key setup, L = E(0), buffer wipe) TURN_KEY
TURN_BASE = 10
TURN_BLOCK = 100
TURN_KEY = 250


# ----------------------------------------------------------------------------------
# expected values: cryptography (OpenSSL)
# ----------------------------------------------------------------------------------
def ref(mode: str, dec: bool, key: bytes, iv: bytes | None, data: bytes) -> bytes:
    return reference_crypt(mode, key, iv, data, dec)


def cmac_tag(key: bytes, msg: bytes) -> bytes:
    return reference_crypt("cmac", key, None, msg, False, tag_len=16)


# ----------------------------------------------------------------------------------
# the bench: the host's UART and an async transport for aeskit.board.protocol
# ----------------------------------------------------------------------------------
class Host:
    def __init__(self, dut, seed: int = 1) -> None:
        from cocotbext.uart import UartSink, UartSource

        self.dut = dut
        self.clk_hz = int(os.environ.get("AK_UD_CLK_HZ", FAST[0]))
        self.baud = int(os.environ.get("AK_UD_BAUD", FAST[1]))
        self.cpb = (self.clk_hz + self.baud // 2) // self.baud
        self.timeout = max(self.clk_hz // 100, 20 * self.cpb)    # cycles, as the RTL
        for name in ("cocotb.uart_rx_i", "cocotb.uart_tx_o", f"cocotb.{dut._name}"):
            logging.getLogger(name).setLevel(logging.WARNING)
        self.rng = random.Random(seed)
        period_ps = 2 * round(5e11 / self.clk_hz)   # even: a 50 % duty cycle
        cocotb.start_soon(Clock(dut.clk_i, period_ps, unit="ps").start())
        self.src = UartSource(dut.uart_rx_i, baud=self.baud)
        self.sink = UartSink(dut.uart_tx_o, baud=self.baud)
        self.dec = P.Decoder()
        self.pending: list[P.Response] = []
        self.period_ns = period_ps / 1000

    async def reset(self) -> None:
        self.dut.uart_rx_i.value = 1
        self.dut.rst_ni.value = 0
        await ClockCycles(self.dut.clk_i, 3)
        self.dut.rst_ni.value = 1
        await ClockCycles(self.dut.clk_i, 2)

    async def send(self, data: bytes) -> None:
        await self.src.write(data)
        await self.src.wait()

    async def response(self, max_bytes: int = 300, what: str = "") -> P.Response:
        """The next response frame; fails after the time of ``max_bytes`` bytes plus
        the inter-byte timeout."""
        budget_ns = (max_bytes * 10 * self.cpb + self.timeout) * self.period_ns * 1.2
        deadline = get_sim_time("ns") + budget_ns
        step = int(20 * self.cpb * self.period_ns)
        while not self.pending:
            self.pending += self.dec.feed(bytes(self.sink.read_nowait()))
            if self.pending:
                break
            assert get_sim_time("ns") < deadline, f"no response frame from the demo {what}"
            await self.sink.wait(timeout=step, timeout_unit="ns")
        return self.pending.pop(0)

    async def xfer(self, frame: bytes) -> P.Response:
        await self.send(frame)
        return await self.response(what=f"to {frame[:3].hex()}..., {len(frame)} bytes")

    async def quiet(self) -> None:
        """Wait out the drop after an error frame (the inter-byte timeout, + 10 %)."""
        await ClockCycles(self.dut.clk_i, self.timeout * 11 // 10 + 4 * self.cpb)

    async def run(self, op: P.Operation) -> bytes:
        """Pump an operation of aeskit.board.protocol, as aeskit.board.transport.run."""
        try:
            frame = next(op)
            while True:
                resp = await self.xfer(frame)
                if resp.status in P.DRAIN_STATUSES:
                    await self.quiet()
                frame = op.send(resp)
        except StopIteration as stop:
            return stop.value

    async def expect(self, frame: bytes, status: int, cmd: int | None = None) -> None:
        resp = await self.xfer(frame)
        assert resp.status == status, (P.Status(resp.status).name, P.Status(status).name)
        if cmd is not None:
            assert resp.cmd == cmd
        if status in P.DRAIN_STATUSES:
            await self.quiet()

    async def crypt(self, mode: str, dec: bool, key: bytes, data: bytes,
                    iv: bytes | None = None) -> None:
        if mode != "ecb" and iv is None:
            iv = self.rng.randbytes(16)
        got = await self.run(P.crypt(mode, key, iv, data, dec))
        assert got == ref(mode, dec, key, iv, data), (mode, dec, len(key), len(data))

    async def cmac(self, key: bytes, msg: bytes) -> None:
        got = await self.run(P.cmac(key, msg))
        assert got == cmac_tag(key, msg), (len(key), len(msg))


async def start(dut, seed: int = 1) -> Host:
    host = Host(dut, seed)
    await host.reset()
    return host


def _fail(op: P.Operation) -> P.Operation:
    return op


async def refused(host: Host, op: P.Operation) -> int:
    """The status of the DeviceError an operation ends with."""
    try:
        await host.run(op)
    except P.DeviceError as exc:
        return exc.status
    raise AssertionError("the operation was not refused")


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_modes(dut) -> None:
    """ECB/CBC/CTR and CMAC through the host's protocol code; on the full core both
    directions and every key size."""
    host = await start(dut, seed=2)
    full = bool(os.environ.get("AK_UD_FULL"))
    for klen in ((16, 24, 32) if full else (16,)):
        key = host.rng.randbytes(klen)
        for mode in ("ecb", "cbc", "ctr"):
            for dec in ((False, True) if full else (False,)):
                await host.crypt(mode, dec, key, host.rng.randbytes(48))
        for n in ((0, 16, 33) if full else (0, 1, 15, 16, 17, 32, 81)):
            await host.cmac(key, host.rng.randbytes(n))
    # a message of several DATA frames (240 + 37 bytes), a partial last CTR block
    await host.crypt("ctr", False, host.rng.randbytes(16), host.rng.randbytes(277))
    # RFC 4493 example 2 (cryptography gives the same; checked against both)
    key = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
    msg = bytes.fromhex("6bc1bee22e409f96e93d7e117393172a")
    tag = await host.run(P.cmac(key, msg))
    assert tag.hex() == "070a16b46b4d4144f79bdd9dd04a287c" == cmac_tag(key, msg).hex()


@cocotb.test()
async def cocotb_refusals(dut) -> None:
    """What the build leaves out ends in ILLEGAL; KEY_CLEAR leaves no key; STATUS."""
    host = await start(dut, seed=3)
    key = host.rng.randbytes(16)
    # no key after reset: a block is refused
    assert await refused(host, _no_setup_data(host)) == P.Status.ILLEGAL
    # the encrypt-only AES-128 core: decryption and a 256-bit key are refused
    assert await refused(host, P.crypt("ecb", key, None, bytes(16), True)) == P.Status.ILLEGAL
    assert await refused(host, P.crypt("ecb", bytes(32), None, bytes(16))) == P.Status.ILLEGAL
    # CMAC_FINAL outside CMAC mode
    await host.expect(P.encode_request(P.Cmd.SET_KEY, key), P.Status.OK)
    await host.expect(P.encode_request(P.Cmd.SET_MODE, b"\x00"), P.Status.OK)
    await host.expect(P.encode_request(P.Cmd.CMAC_FINAL, b"abc"), P.Status.ILLEGAL)
    # STATUS: KEY_OK, CTRL as set (ECB, KEY_LEN 0), the version
    st = await host.run(P.status())
    assert st[1] & 1 == 1 and st[2] == 0x00 and st[3] == P.VERSION, st.hex()
    data = host.rng.randbytes(32)
    got = await host.run(_data(data))
    assert got == ref("ecb", False, key, None, data)
    # KEY_CLEAR: STATUS.KEY_OK = 0 and the next block is refused
    await host.run(P.key_clear())
    st = await host.run(P.status())
    assert st[1] & 1 == 0, st.hex()
    assert await refused(host, _data(data)) == P.Status.ILLEGAL
    # a fresh key works again
    await host.crypt("ecb", False, key, data)


def _data(data: bytes) -> P.Operation:
    return (yield from P.request(P.Cmd.DATA, data))


def _no_setup_data(host: Host) -> P.Operation:
    return _data(bytes(16))


@cocotb.test()
async def cocotb_errors(dut) -> None:
    """Each bad input gets its error frame, then a correct operation works."""
    host = await start(dut, seed=4)
    key = host.rng.randbytes(16)
    data = host.rng.randbytes(32)

    async def works() -> None:
        await host.crypt("cbc", False, key, data)

    # garbage bytes (no 0xA5 among them): NO_SYNC
    await host.expect(bytes([0x00, 0x13, 0xFF, 0x42]), P.Status.NO_SYNC, 0)
    await works()
    # a bad CRC
    bad = bytearray(P.encode_request(P.Cmd.SET_IV, bytes(16)))
    bad[-1] ^= 0x01
    await host.expect(bytes(bad), P.Status.BAD_CHECK, P.Cmd.SET_IV)
    await works()
    # a truncated frame: TIMEOUT after the inter-byte timeout
    await host.expect(P.encode_request(P.Cmd.DATA, bytes(32))[:10], P.Status.TIMEOUT, 0)
    await works()
    # an unknown command; a bad length
    await host.expect(P.encode_request(0x42, b"xy"), P.Status.UNKNOWN_CMD, 0x42)
    await host.expect(P.encode_request(P.Cmd.DATA, bytes(15)), P.Status.BAD_LEN, P.Cmd.DATA)
    await host.expect(P.encode_request(P.Cmd.SET_KEY, bytes(20)), P.Status.BAD_LEN)
    await works()
    # a UART framing error (the stop bit low): FRAMING
    bit = 10 ** 9 / host.baud
    await host.src.wait()
    host.dut.uart_rx_i.value = 0
    await Timer(int(10 * bit), "ns")
    host.dut.uart_rx_i.value = 1
    resp = await host.response()
    assert resp.status == P.Status.FRAMING, resp
    await host.quiet()
    await works()
    # an overrun: a byte sent while the demo works on a frame: the answer, then OVERRUN
    await host.run(P.crypt("ecb", key, None, b"", False, clear=False))   # key, mode
    await host.send(P.encode_request(P.Cmd.DATA, data) + b"\x00")
    resp = await host.response()
    assert resp.status == P.Status.OK and resp.payload == ref("ecb", False, key, None, data)
    resp = await host.response()
    assert resp.status == P.Status.OVERRUN and resp.cmd == 0, resp
    await host.quiet()
    await works()
    assert host.dec.dropped == 0 and not host.pending


@cocotb.test()
async def cocotb_back_to_back(dut) -> None:
    """Frames back to back at the full rate: each request starts the moment the
    previous answer's last stop bit ends (no idle bit on either line), within a frame
    no gap between bytes; a long message of 15-block frames."""
    host = await start(dut, seed=5)
    key, iv = host.rng.randbytes(16), host.rng.randbytes(16)
    data = host.rng.randbytes(16 * 40)
    t0 = get_sim_time("ns")
    got = await host.run(P.crypt("cbc", key, iv, data))
    assert got == ref("cbc", False, key, iv, data)
    # the whole exchange is line time: requests + answers, plus little else
    frames = -(-len(data) // P.MAX_DATA)
    line_bytes = 2 * (len(data) + 5 * frames) + 2 * 5 * 4 + 2 * (16 + 16)
    line_ns = line_bytes * 10 * host.cpb * host.period_ns
    took = get_sim_time("ns") - t0
    dut._log.warning("uart_demo: %d bytes CBC in %.0f bit times (line %.0f)", len(data),
                     took / (host.cpb * host.period_ns), line_ns / (host.cpb * host.period_ns))
    assert took < line_ns * 1.15, (took, line_ns)


@cocotb.test()
async def cocotb_timing(dut) -> None:
    """Cycles from the end of a request's CRC byte (its stop bit) to the start bit of
    the answer (docs/uart_demo.md, "Timing"): DATA of 1 and 15 blocks at most
    TURN_BASE + TURN_BLOCK * blocks, SET_KEY at most TURN_KEY."""
    host = await start(dut, seed=7)
    await host.run(P.crypt("ecb", host.rng.randbytes(16), None, b"", clear=False))
    got = {}
    for name, frame, blocks in (
            ("SET_KEY", P.encode_request(P.Cmd.SET_KEY, bytes(16)), 0),
            ("DATA x1", P.encode_request(P.Cmd.DATA, bytes(16)), 1),
            ("DATA x15", P.encode_request(P.Cmd.DATA, bytes(240)), 15)):
        await host.send(frame)
        t0 = get_sim_time("ns")
        await FallingEdge(dut.uart_tx_o)
        cycles = round((get_sim_time("ns") - t0) / host.period_ns)
        assert (await host.response()).status == P.Status.OK
        got[name] = cycles
        assert cycles <= (TURN_BASE + TURN_BLOCK * blocks if blocks else TURN_KEY), \
            (name, cycles)
    dut._log.warning("uart_demo: cycles from a request's end to its answer: %s", got)


@cocotb.test()
async def cocotb_real_ratio(dut) -> None:
    """At the boards' clock / baud ratio: STATUS and a short CTR message."""
    host = await start(dut, seed=6)
    st = await host.run(P.status())
    assert st[3] == P.VERSION
    await host.crypt("ctr", False, host.rng.randbytes(16), host.rng.randbytes(20))


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
def _run(testcase: str | list[str], core: str = "compact32_bram_e128",
         clk_baud: tuple[int, int] = FAST, env: dict | None = None) -> None:
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.uart_demo import SYS_TOP, system_files

    clk_hz, baud = clk_baud
    run_cocotb(toplevel=SYS_TOP, sources=system_files(core, clk_hz=clk_hz, baud=baud),
               test_module="test_uart_demo", test_dir=HERE, parameters={},
               testcase=testcase, seed=1,
               extra_env={"AK_UD_CLK_HZ": str(clk_hz), "AK_UD_BAUD": str(baud), **(env or {})})


def test_uart_demo() -> None:
    """The registry's uart_demo on compact32_bram_e128 (ClkPerBit 10): modes, refusals,
    key clear, errors, back-to-back frames."""
    _run(["cocotb_modes", "cocotb_refusals", "cocotb_errors", "cocotb_back_to_back",
          "cocotb_timing"])


@pytest.mark.slow  # 35 s; make test keeps every mode on the e128 build
def test_uart_demo_full_core() -> None:
    """On compact32_bram: ECB/CBC/CTR both ways and CMAC with 128/192/256-bit keys."""
    _run("cocotb_modes", core="compact32_bram", env={"AK_UD_FULL": "1"})


@pytest.mark.slow  # 23 s at 104 clocks a bit
def test_uart_demo_real_ratio() -> None:
    """12 MHz, 115200 baud (ClkPerBit 104): STATUS and a short message."""
    _run("cocotb_real_ratio", clk_baud=REAL)


@pytest.mark.parametrize("core", ["compact32_bram_e128", "compact32_bram"])
def test_verilator_lint(core: str, tmp_path: Path) -> None:
    """``verilator --lint-only -Wall`` of ak_uart_demo_sys (demo, ak_aes_lite, core):
    zero warnings."""
    import subprocess

    from aeskit.sim.cocotb_run import WAIVERS
    from aeskit.hw.systems.uart_demo import SYS_TOP, system_files
    from aeskit.toolchain.paths import verilator

    cmd = [verilator(), "--lint-only", "-Wall", "--top-module", SYS_TOP, str(WAIVERS),
           *(str(f) for f in system_files(core, tmp_path / "src"))]
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    out = res.stdout + res.stderr
    assert res.returncode == 0 and "%Warning" not in out, out
