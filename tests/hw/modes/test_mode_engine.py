"""ak_mode_engine (with ak_mode_stream) in cocotb on Verilator, on pipe2 and on round
(the generated ak_mode_sys), for what the compiled harness cannot see:

* the core side of the engine, every cycle: a block offered to the core and not taken
  is offered again, unchanged (valid, data, direction, tag); results are always taken;
* the user side: output beats and status hold still under stall;
* random messages of every mode on both streams against the golden model, with random
  gaps and stalls;
* keys changed between messages (key_ready_o low while a stream is busy);
* reset in the middle of messages leaves both streams idle, and the engine works after.

The file is both the pytest module and the cocotb test module (``cocotb_*``).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.hw.codes import Mode
from aeskit.model import AES, TagMismatchError
from aeskit.model import modes as M

MODE_CODE = {m.name.lower(): int(m) for m in Mode if m <= Mode.CCM}
KEY_LEN = {16: 0, 24: 1, 32: 2}


def _model(key: bytes, m: dict) -> tuple[bytes, bool]:
    """Expected output beats (payload, then CCM tag) and pass bit."""
    c, mode, d = AES(key), m["mode"], m["dec"]
    if mode == "ccm":
        if not d:
            return M.ccm_encrypt(c, m["iv"], m["aad"], m["data"], m["tag_len"]), True
        try:
            return M.ccm_decrypt(c, m["iv"], m["aad"], m["data"] + m["tag"], m["tag_len"]), True
        except TagMismatchError:
            return b"", False
    f = {("ecb", 0): lambda: M.ecb_encrypt(c, m["data"]),
         ("ecb", 1): lambda: M.ecb_decrypt(c, m["data"]),
         ("cbc", 0): lambda: M.cbc_encrypt(c, m["iv"], m["data"]),
         ("cbc", 1): lambda: M.cbc_decrypt(c, m["iv"], m["data"]),
         ("ctr", 0): lambda: M.ctr_crypt(c, m["iv"], m["data"]),
         ("ctr", 1): lambda: M.ctr_crypt(c, m["iv"], m["data"]),
         ("cfb", 0): lambda: M.cfb128_encrypt(c, m["iv"], m["data"]),
         ("cfb", 1): lambda: M.cfb128_decrypt(c, m["iv"], m["data"]),
         ("ofb", 0): lambda: M.ofb_crypt(c, m["iv"], m["data"]),
         ("ofb", 1): lambda: M.ofb_crypt(c, m["iv"], m["data"])}[(mode, int(d))]
    return f(), True


def _beats(m: dict) -> list[bytes]:
    pad = lambda b: [b[i:i + 16].ljust(16, b"\0") for i in range(0, len(b), 16)]  # noqa: E731
    out = (pad(m["aad"]) if m["mode"] == "ccm" else []) + pad(m["data"])
    if m["mode"] == "ccm" and m["dec"]:
        out.append(m["tag"].ljust(16, b"\0"))
    return out


def _random_message(rng: random.Random, key: bytes) -> dict:
    mode = rng.choice(list(MODE_CODE))
    dec = rng.random() < 0.5
    n = rng.randint(0, 70)
    if mode in ("ecb", "cbc"):
        n -= n % 16
    m = {"mode": mode, "dec": dec, "data": rng.randbytes(n), "iv": rng.randbytes(16),
         "aad": b"", "tag_len": 0, "tag": b""}
    if mode == "ccm":
        m["iv"] = rng.randbytes(rng.randint(7, 13))
        m["tag_len"] = rng.choice([4, 8, 16])
        m["aad"] = rng.randbytes(rng.choice([0, 3, 14, 15, 20]))
        if dec:
            ref = M.ccm_encrypt(AES(key), m["iv"], m["aad"], m["data"], m["tag_len"])
            m["data"], m["tag"] = ref[:n], ref[n:]
            if rng.random() < 0.3:
                m["tag"] = bytes([m["tag"][0] ^ 1]) + m["tag"][1:]
    return m


class EngineTB:
    """One clocked loop drives both streams (the per-stream ports share vectors) and
    checks the handshake rules on the user side and the core side every cycle."""

    def __init__(self, dut, *, gap: float = 0.0, stall: float = 0.0, seed: int = 1) -> None:
        self.dut, self.gap, self.stall = dut, gap, stall
        self.rng = random.Random(seed)
        self.cycle = 0

    def _f(self, name: str, s: int, width: int) -> int:
        return (int(getattr(self.dut, name).value) >> (width * s)) & ((1 << width) - 1)

    async def start(self) -> None:
        cocotb.start_soon(Clock(self.dut.clk_i, 10, unit="ns").start())
        await self.reset()

    async def reset(self) -> None:
        d = self.dut
        for sig in ("key_valid_i", "cmd_valid_i", "in_valid_i"):
            getattr(d, sig).value = 0
        d.out_ready_i.value = 3
        d.sts_ready_i.value = 3
        d.rst_ni.value = 0
        await RisingEdge(d.clk_i)
        await RisingEdge(d.clk_i)
        d.rst_ni.value = 1
        await FallingEdge(d.clk_i)

    async def load_key(self, key: bytes) -> None:
        d = self.dut
        d.key_i.value = int.from_bytes(key + bytes(32 - len(key)), "big")
        d.key_len_i.value = KEY_LEN[len(key)]
        d.key_valid_i.value = 1
        for _ in range(10_000):
            await FallingEdge(d.clk_i)
            if int(d.key_ready_o.value):
                break
        else:
            raise AssertionError("key_ready_o never rose")
        await RisingEdge(d.clk_i)
        d.key_valid_i.value = 0
        await FallingEdge(d.clk_i)

    async def run(self, queues: list[list[dict]], stop_after: int | None = None,
                  key_during: bytes | None = None) -> int:
        """Run the messages of both streams (results into each dict); return cycles.
        With ``stop_after``, return after that many cycles (for a reset test). With
        ``key_during``, hold key_valid_i and check key_ready_o stays low while busy."""
        d = self.dut
        act: list[dict | None] = [None, None]
        beat = [0, 0]
        offer = [False, False]
        pend = [list(q) for q in queues]
        held_core = None
        held_out: list[tuple | None] = [None, None]
        held_sts: list[tuple | None] = [None, None]
        start = self.cycle
        if key_during is not None:
            d.key_i.value = int.from_bytes(key_during + bytes(32 - len(key_during)), "big")
            d.key_len_i.value = KEY_LEN[len(key_during)]
        while any(pend) or any(a is not None for a in act):
            if stop_after is not None and self.cycle - start >= stop_after:
                return self.cycle - start
            # ---- checks of the values that hold for the coming rising edge ----
            eng = d.u_engine
            cv, cr = int(eng.core_in_valid_o.value), int(eng.core_in_ready_i.value)
            now = (cv, int(eng.core_in_data_o.value), int(eng.core_in_decrypt_o.value),
                   int(eng.core_in_tag_o.value))
            if held_core is not None:
                assert now == held_core, f"cycle {self.cycle}: core request changed before taken"
            held_core = now if (cv and not cr) else None
            assert int(eng.core_out_ready_o.value) == 1
            if key_during is not None and any(a is not None for a in act):
                assert not int(d.key_ready_o.value), "key_ready_o high while a stream is busy"
                if all(a is not None for a in act):
                    d.key_valid_i.value = 1  # offered while both streams are busy
            cmd_v = cmd_mode = cmd_dec = cmd_nl = cmd_tl = 0
            iv_v = ivl_v = aad_v = len_v = in_v = in_d = 0
            out_r = sts_r = 0
            fires = []
            for s in (0, 1):
                # outputs (out_valid_o etc. come from registers: valid for the edge)
                ov = self._f("out_valid_o", s, 1)
                o = (ov, self._f("out_data_o", s, 128), self._f("out_tag_o", s, 1))
                if held_out[s] is not None:
                    assert o == held_out[s], f"stream {s}: output beat changed under stall"
                sv = self._f("sts_valid_o", s, 1)
                st = (sv, self._f("sts_pass_o", s, 1), self._f("sts_error_o", s, 1))
                if held_sts[s] is not None:
                    assert st == held_sts[s], f"stream {s}: status changed under stall"
                ready_o = self.rng.random() >= self.stall
                ready_s = self.rng.random() >= self.stall
                out_r |= int(ready_o) << s
                sts_r |= int(ready_s) << s
                held_out[s] = o if (ov and not ready_o) else None
                held_sts[s] = st if (sv and not ready_s) else None
                if ov and ready_o:
                    assert act[s] is not None, f"stream {s}: output with no message"
                    act[s]["got"].append((o[2], o[1].to_bytes(16, "big")))
                if sv and ready_s:
                    assert act[s] is not None and beat[s] == len(act[s]["beats"])
                    act[s]["pass"], act[s]["err"] = st[1], st[2]
                    act[s] = None
                # command
                if act[s] is None and pend[s] and self._f("cmd_ready_o", s, 1):
                    m = pend[s][0]
                    cmd_v |= 1 << s
                    cmd_mode |= MODE_CODE[m["mode"]] << (4 * s)
                    cmd_dec |= int(m["dec"]) << s
                    iv_v |= int.from_bytes(m["iv"].ljust(16, b"\0"), "big") << (128 * s)
                    ivl_v |= 12 << (32 * s)
                    cmd_nl |= (len(m["iv"]) if m["mode"] == "ccm" else 0) << (4 * s)
                    cmd_tl |= m["tag_len"] << (5 * s)
                    aad_v |= len(m["aad"]) << (32 * s)
                    len_v |= len(m["data"]) << (32 * s)
                    fires.append(("cmd", s))
                # input beats, held until taken
                if act[s] is not None and beat[s] < len(act[s]["beats"]):
                    if not offer[s]:
                        offer[s] = self.rng.random() >= self.gap
                    if offer[s]:
                        in_v |= 1 << s
                        in_d |= int.from_bytes(act[s]["beats"][beat[s]], "big") << (128 * s)
                        if self._f("in_ready_o", s, 1):
                            fires.append(("in", s))
            d.cmd_valid_i.value = cmd_v
            d.cmd_mode_i.value = cmd_mode
            d.cmd_decrypt_i.value = cmd_dec
            d.cmd_iv_i.value = iv_v
            d.cmd_iv_len_i.value = ivl_v
            d.cmd_nonce_len_i.value = cmd_nl
            d.cmd_tag_len_i.value = cmd_tl
            d.cmd_aad_len_i.value = aad_v
            d.cmd_msg_len_i.value = len_v
            d.in_valid_i.value = in_v
            d.in_data_i.value = in_d
            d.out_ready_i.value = out_r
            d.sts_ready_i.value = sts_r
            for kind, s in fires:
                if kind == "cmd":
                    act[s] = pend[s].pop(0)
                    act[s]["got"] = []
                    act[s]["beats"] = _beats(act[s])
                    beat[s] = 0
                    offer[s] = False
                else:
                    beat[s] += 1
                    offer[s] = False
            await RisingEdge(d.clk_i)
            await FallingEdge(d.clk_i)
            self.cycle += 1
            assert self.cycle - start < 200_000, "hang"
        d.cmd_valid_i.value = 0
        d.in_valid_i.value = 0
        d.key_valid_i.value = 0
        return self.cycle - start


def _check(key: bytes, msgs: list[dict]) -> None:
    for m in msgs:
        want, ok = _model(key, m)
        what = f"{m['mode']} dec={m['dec']} len={len(m['data'])}"
        assert m["err"] == 0 and m["pass"] == int(ok), what
        got = b"".join(b for t, b in m["got"] if not t)[:len(m["data"])]
        tag = [b for t, b in m["got"] if t]
        if ok:
            if m["mode"] == "ccm" and not m["dec"]:
                assert got + tag[0][:m["tag_len"]] == want, what
            else:
                assert got == want and not tag, what


# ----------------------------------------------------------------------------------
# cocotb tests
# ----------------------------------------------------------------------------------
@cocotb.test()
async def cocotb_random_messages(dut) -> None:
    seed = int(os.environ.get("AK_SEED", "1"))
    tb = EngineTB(dut, gap=float(os.environ.get("AK_GAP", "0.2")),
                  stall=float(os.environ.get("AK_STALL", "0.3")), seed=seed)
    await tb.start()
    rng = random.Random(seed)
    for ks in (16, 24, 32):
        key = rng.randbytes(ks)
        await tb.load_key(key)
        queues = [[_random_message(rng, key) for _ in range(12)] for _ in range(2)]
        await tb.run(queues)
        _check(key, queues[0] + queues[1])


@cocotb.test()
async def cocotb_key_between_messages(dut) -> None:
    """A key presented while both streams are busy is not taken (key_ready_o low)
    until they finish; the messages after it use the new key."""
    tb = EngineTB(dut, stall=0.2, seed=5)
    await tb.start()
    rng = random.Random(5)
    k1, k2 = rng.randbytes(16), rng.randbytes(32)
    await tb.load_key(k1)
    queues = [[{"mode": "ctr", "dec": False, "data": rng.randbytes(200), "iv": rng.randbytes(16),
                "aad": b"", "tag_len": 0, "tag": b""}],
              [{"mode": "ccm", "dec": False, "data": rng.randbytes(150), "iv": rng.randbytes(9),
                "aad": rng.randbytes(40), "tag_len": 10, "tag": b""}]]
    await tb.run(queues, key_during=k2)
    _check(k1, queues[0] + queues[1])
    await tb.load_key(k2)
    queues = [[_random_message(rng, k2) for _ in range(4)] for _ in range(2)]
    await tb.run(queues)
    _check(k2, queues[0] + queues[1])


@cocotb.test()
async def cocotb_reset_mid_message(dut) -> None:
    """Reset at several points inside messages of both streams: afterwards both
    streams are idle (command ready, no output, no status) and work again."""
    tb = EngineTB(dut, stall=0.2, seed=9)
    await tb.start()
    rng = random.Random(9)
    for where in (1, 3, 8, 17, 30, 55):
        key = rng.randbytes(24)
        await tb.load_key(key)
        queues = [[{"mode": "ccm", "dec": False, "data": rng.randbytes(60), "iv": rng.randbytes(13),
                    "aad": rng.randbytes(20), "tag_len": 8, "tag": b""}],
                  [{"mode": "cbc", "dec": True, "data": rng.randbytes(64), "iv": rng.randbytes(16),
                    "aad": b"", "tag_len": 0, "tag": b""}]]
        await tb.run(queues, stop_after=where)
        await tb.reset()
        assert int(dut.cmd_ready_o.value) == 3
        assert int(dut.out_valid_o.value) == 0 and int(dut.sts_valid_o.value) == 0
        assert int(dut.in_ready_o.value) == 0
        await tb.load_key(key)
        queues = [[_random_message(rng, key) for _ in range(3)] for _ in range(2)]
        await tb.run(queues)
        _check(key, queues[0] + queues[1])


# ----------------------------------------------------------------------------------
# pytest side
# ----------------------------------------------------------------------------------
HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize("core", [pytest.param("pipe2", marks=pytest.mark.slow), "round"])
def test_mode_engine_cocotb(core: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.harness.modes import system_files

    files = system_files(get_core(core), BUILD_ROOT / "mode_sys_src" / core)
    run_cocotb(toplevel="ak_mode_sys", sources=files, test_module="test_mode_engine",
               test_dir=HERE, parameters={}, build_args=["--public-flat-rw"],
               testcase=["cocotb_random_messages", "cocotb_key_between_messages",
                         "cocotb_reset_mid_message"],
               extra_env={"AK_SEED": str(len(core))})
