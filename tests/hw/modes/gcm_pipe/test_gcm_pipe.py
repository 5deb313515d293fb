"""ak_gcm_pipe (GCM at one block per cycle) on unrolled cores, in cocotb on Verilator.

The bench (``ak_gcm_pipe_sys``: ak_gcm_pipe + a registry core) drives whole messages
one cycle at a time, with random input gaps and output/status stalls where stated, and
checks every cycle that an offered output beat or status holds still until taken.

* CAVP: the 96-bit-IV records of gcmEncryptExtIV128 / gcmDecrypt128 (the scope of
  ak_gcm_pipe; the mode engine runs every IV length), a deterministic sample in
  ``make test`` and every one (5,250 with AES-128) under the slow marker, FAIL records
  included (the hardware compare must reject them);
* random differential against OpenSSL (``cryptography``): random AAD and payload
  lengths, tags of 4..16 bytes, both directions, forged tags, random gaps and stalls;
* one block per cycle: a never-stalled message of n blocks takes exactly
  (n2 - n1) more cycles than one of n1 blocks, and its output beats are consecutive;
  the tag follows the last ciphertext beat after exactly Stages + 4 cycles;
* messages overlap: a stream of back-to-back 64-byte (1,500-byte) encryptions takes
  exactly 5 (95) cycles more per message, one for the command and one per block;
* an illegal tag length gives only the final beat, with the error flag.

The file is both the pytest module and the cocotb test module.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import cocotb
import pytest
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

HERE = Path(__file__).resolve().parent
KEY_LEN = {16: 0, 24: 1, 32: 2}


def _ossl(key: bytes, iv: bytes, pt: bytes, aad: bytes, t: int) -> tuple[bytes, bytes]:
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    e = Cipher(algorithms.AES(key), modes.GCM(iv, min_tag_length=4)).encryptor()
    e.authenticate_additional_data(aad)
    ct = e.update(pt) + e.finalize()
    return ct, e.tag[:t]


def _beats(data: bytes) -> list[int]:
    return [int.from_bytes(data[i:i + 16].ljust(16, b"\0"), "big")
            for i in range(0, len(data), 16)]


class Bench:
    def __init__(self, dut, seed: int) -> None:
        self.dut = dut
        self.rng = random.Random(seed)
        self.cycle = 0

    async def start(self) -> None:
        d = self.dut
        cocotb.start_soon(Clock(d.clk_i, 10, unit="ns").start())
        for name in ("key_valid_i", "cmd_valid_i", "in_valid_i", "key_i", "key_len_i",
                     "cmd_decrypt_i", "cmd_iv_i", "cmd_aad_len_i", "cmd_msg_len_i",
                     "cmd_tag_len_i", "cmd_hold_i", "in_data_i"):
            getattr(d, name).value = 0
        d.out_ready_i.value = 1
        d.rst_ni.value = 0
        await RisingEdge(d.clk_i)
        await RisingEdge(d.clk_i)
        await FallingEdge(d.clk_i)
        assert int(d.out_valid_o.value) == 0
        assert int(d.cmd_ready_o.value) == 0, "a command taken before any key"
        d.rst_ni.value = 1

    async def load_key(self, key: bytes) -> None:
        d = self.dut
        await FallingEdge(d.clk_i)
        d.key_i.value = int.from_bytes(key.ljust(32, b"\0"), "big")
        d.key_len_i.value = KEY_LEN[len(key)]
        d.key_valid_i.value = 1
        while True:
            await RisingEdge(d.clk_i)
            if int(d.key_ready_o.value):
                break
        await FallingEdge(d.clk_i)
        d.key_valid_i.value = 0
        for _ in range(5000):  # H through the core, then H^2 .. H^Stages
            if int(d.cmd_ready_o.value):
                return
            await FallingEdge(d.clk_i)
        raise AssertionError("cmd_ready_o never rose after the key")

    async def run(self, dec: bool, iv: bytes, data: bytes, aad: bytes, t: int,
                  tag: bytes = b"", gap: float = 0.0, stall: float = 0.0) -> dict:
        """One message; returns out (payload bytes), tag, pass, err, cycles, beat_cycles."""
        d, rng = self.dut, self.rng
        beats = _beats(aad) + _beats(data) + ([int.from_bytes(tag.ljust(16, b"\0"), "big")]
                                              if dec else [])
        await FallingEdge(d.clk_i)
        d.cmd_valid_i.value = 1
        d.cmd_decrypt_i.value = int(dec)
        d.cmd_iv_i.value = int.from_bytes(iv, "big")
        d.cmd_aad_len_i.value = len(aad)
        d.cmd_msg_len_i.value = len(data)
        d.cmd_tag_len_i.value = t
        while True:
            await RisingEdge(d.clk_i)
            if int(d.cmd_ready_o.value):
                break
        start = 0
        out: list[tuple[int, int, int]] = []
        k, offer, held = 0, False, None
        result = fin = None
        in_cycles: list[int] = []
        cyc = 0
        await FallingEdge(d.clk_i)
        d.cmd_valid_i.value = 0
        while result is None:
            cyc += 1
            assert cyc < 20000, "hang"
            # outputs of this cycle (registered or from the core's registered output)
            ov = int(d.out_valid_o.value)
            now = (ov, int(d.out_data_o.value), int(d.out_tag_o.value),
                   int(d.out_pass_o.value), int(d.out_error_o.value)) if ov else (0,) * 5
            if held is not None:
                assert now == held, f"cycle {cyc}: output beat changed under stall"
            ready = rng.random() >= stall
            d.out_ready_i.value = int(ready)
            held = now if (ov and not ready) else None
            if k < len(beats) and not offer:
                offer = rng.random() >= gap
            d.in_valid_i.value = int(offer and k < len(beats))
            if offer and k < len(beats):
                d.in_data_i.value = beats[k]
            await RisingEdge(d.clk_i)
            if offer and k < len(beats) and int(d.in_ready_o.value):
                in_cycles.append(cyc)
                k += 1
                offer = False
            if ov and ready:
                out.append((cyc, now[1], now[2]))
                if now[2]:
                    # (an illegal command's verdict may leave before its beats are dropped)
                    assert now[4] or k == len(beats), "final beat before the last input beat"
                    fin = {"pass": now[3], "err": now[4], "cycles": cyc - start}
            if fin is not None and k == len(beats):
                result = fin
            await FallingEdge(d.clk_i)
        d.in_valid_i.value = 0
        d.out_ready_i.value = 1
        pay = b"".join(v.to_bytes(16, "big") for _, v, tg in out if not tg)
        tags = [v.to_bytes(16, "big") for _, v, tg in out if tg]
        result.update(out=pay[:len(data)], tag=tags[0][:t] if tags else b"",
                      beat_cycles=[c for c, _, tg in out if not tg],
                      tag_cycles=[c for c, _, tg in out if tg], beats_out=len(out),
                      in_cycles=in_cycles)
        return result


async def _cavp(b: Bench, sample: int, key_bits: int) -> int:
    from aeskit.vectors.catalog import gcm_vectors

    records = [v for d in ("Encrypt", "Decrypt") for v in gcm_vectors(d, key_bits)
               if len(v.iv) == 12]
    assert len(records) == 2 * 2625
    records = records[::sample]
    for v in records:
        await b.load_key(v.key)
        if v.decrypt:
            r = await b.run(True, v.iv, v.ciphertext, v.aad, len(v.tag), v.tag)
            assert r["pass"] == v.expect_pass and not r["err"], f"{v.file}:{v.line}"
            if v.expect_pass:
                assert r["out"] == v.plaintext, f"{v.file}:{v.line}"
        else:
            r = await b.run(False, v.iv, v.plaintext or b"", v.aad, len(v.tag))
            assert (r["out"], r["tag"]) == (v.ciphertext, v.tag), f"{v.file}:{v.line}"
            assert r["pass"] and not r["err"]
    return len(records)


@cocotb.test()
async def cocotb_gcm_pipe(dut) -> None:
    b = Bench(dut, int(os.environ["AK_SEED"]))
    await b.start()
    ks = int(os.environ["AK_KEY_BYTES"])
    if int(os.environ["AK_SAMPLE"]):
        n = await _cavp(b, int(os.environ["AK_SAMPLE"]), 8 * ks)
        dut._log.info(f"{n} CAVP records")
    rng = random.Random(int(os.environ["AK_SEED"]))
    # random differential, gaps and stalls, forged tags
    for i in range(int(os.environ["AK_RANDOM"])):
        if i % 8 == 0:
            key = rng.randbytes(ks)
            await b.load_key(key)
        iv, t = rng.randbytes(12), rng.randint(4, 16)
        aad = rng.randbytes(rng.choice([0, 0, 5, 16, 33, rng.randint(0, 80)]))
        pt = rng.randbytes(rng.choice([0, 1, 15, 16, 17, 48, rng.randint(0, 300)]))
        ct, tag = _ossl(key, iv, pt, aad, t)
        gap, stall = rng.choice([(0, 0), (0.3, 0.3), (0, 0.6), (0.6, 0)])
        if rng.random() < 0.5:
            r = await b.run(False, iv, pt, aad, t, gap=gap, stall=stall)
            assert (r["out"], r["tag"], r["pass"]) == (ct, tag, 1), i
        else:
            good = rng.random() < 0.6
            rtag = tag if good else bytes([tag[0] ^ 0x20]) + tag[1:]
            r = await b.run(True, iv, ct, aad, t, rtag, gap=gap, stall=stall)
            assert r["pass"] == int(good) and not r["err"], i
            if good:
                assert r["out"] == pt, i
    # one block per cycle, never stalled
    key = bytes(range(ks))
    await b.load_key(key)
    spans = {}
    for nb in (8, 8, 40):
        pt = rng.randbytes(16 * nb)
        r = await b.run(False, bytes(12), pt, b"", 16)
        assert (r["out"], r["tag"]) == _ossl(key, bytes(12), pt, b"", 16)
        bc = r["beat_cycles"]
        # the first payload beat in -> its output beat: the core's latency + 3 (the
        # slice on the core's results, the output FIFO, the output slice)
        assert bc[0] - r["in_cycles"][0] == int(os.environ["AK_LATENCY"]) + 3
        assert bc == list(range(bc[0], bc[0] + nb)), "output beats not one per cycle"
        # the tag, exactly Stages + 4 cycles after the last ciphertext beat: the length
        # block enters the GHASH path a cycle after that beat leaves the queue, passes
        # ak_gcm_pipe's and ak_ghash_pipe's input registers (2), the pipeline (Stages +
        # 1 to done_o), the result FIFO (1) and the output slice, as the beat did (+1)
        stages = int(os.environ["AK_STAGES"])
        assert r["tag_cycles"] == [bc[-1] + stages + 4], (r["tag_cycles"], bc[-1])
        spans[nb] = r["cycles"]
    assert spans[40] - spans[8] == 32, spans
    # an illegal tag length: beats taken, only the final beat out (error, zero data)
    for t in (3, 17):
        r = await b.run(True, bytes(12), bytes(40), bytes(7), t, bytes(16))
        assert r["err"] == 1 and r["pass"] == 0 and r["beats_out"] == 1
        assert r["tag"] == bytes(16)[:t]
    # overlapping messages, never stalled: exact cycles per message in the steady state
    for nbytes, per_msg in ((64, 5), (1500, 95)):
        spans = {}
        for count in (4, 12):
            spans[count] = await stream(b, key, nbytes, count)
        assert spans[12] - spans[4] == 8 * per_msg, (nbytes, spans)


async def stream(b: Bench, key: bytes, nbytes: int, count: int, aad: int = 0) -> int:
    """``count`` encryptions of ``nbytes`` back to back (commands and beats offered every
    cycle, the output always ready); checks every output; returns the cycles from the
    first command taken to the last final beat out, both included."""
    d, rng = b.dut, b.rng
    msgs = []
    for i in range(count):
        iv, pt, a = rng.randbytes(12), rng.randbytes(nbytes), rng.randbytes(aad)
        msgs.append((iv, a, pt, _ossl(key, iv, pt, a, 16)))
    beats = [x for _, a, pt, _ in msgs for x in _beats(a) + _beats(pt)]
    await FallingEdge(d.clk_i)
    ci, k, first, cyc = 0, 0, None, 0
    got: list[tuple[int, int]] = []
    while len([1 for _, tg in got if tg]) < count:
        cyc += 1
        assert cyc < 50 * count * (nbytes // 16 + 2) + 2000, "hang"
        if ci < count:
            iv, a, pt, _ = msgs[ci]
            d.cmd_valid_i.value = 1
            d.cmd_decrypt_i.value = 0
            d.cmd_iv_i.value = int.from_bytes(iv, "big")
            d.cmd_aad_len_i.value = len(a)
            d.cmd_msg_len_i.value = len(pt)
            d.cmd_tag_len_i.value = 16
        else:
            d.cmd_valid_i.value = 0
        d.in_valid_i.value = int(k < len(beats))
        if k < len(beats):
            d.in_data_i.value = beats[k]
        d.out_ready_i.value = 1
        await RisingEdge(d.clk_i)
        if ci < count and int(d.cmd_ready_o.value):
            ci += 1
            if first is None:
                first = cyc
        if k < len(beats) and int(d.in_ready_o.value):
            k += 1
        if int(d.out_valid_o.value):
            got.append((int(d.out_data_o.value), int(d.out_tag_o.value)))
        await FallingEdge(d.clk_i)
    d.cmd_valid_i.value = 0
    d.in_valid_i.value = 0
    pos = 0
    for iv, a, pt, (ct, tag) in msgs:
        n = len(_beats(pt))
        out = b"".join(v.to_bytes(16, "big") for v, _ in got[pos:pos + n])
        assert [tg for _, tg in got[pos:pos + n + 1]] == [0] * n + [1]
        assert out[:len(pt)] == ct and got[pos + n][0].to_bytes(16, "big") == tag
        pos += n + 1
    assert first is not None
    return cyc - first + 1


CASES = [
    # core, key bytes, CAVP sample step (1 = every record), random messages
    ("ttable_unrolled", 16, 15, 150),
    pytest.param("tbox_unfolded", 16, 15, 150, marks=pytest.mark.slow),
    pytest.param("ttable_unrolled", 16, 1, 2000, marks=pytest.mark.slow),
    pytest.param("ttable_unrolled_256", 32, 0, 300, marks=pytest.mark.slow),
]


@pytest.mark.parametrize("core,ks,sample,nrand", CASES)
def test_gcm_pipe(core: str, ks: int, sample: int, nrand: int) -> None:
    from aeskit import BUILD_ROOT
    from aeskit.hw import get_core
    from aeskit.sim.cocotb_run import run_cocotb
    from aeskit.hw.systems.gcm_pipe import STAGES, system_files

    spec = get_core(core)
    out = BUILD_ROOT / "gcm_pipe" / core
    run_cocotb(toplevel="ak_gcm_pipe_sys", sources=system_files(spec, out),
               test_module="test_gcm_pipe", test_dir=HERE, parameters={},
               includes=spec.include_paths(),
               extra_env={"AK_SEED": 7, "AK_SAMPLE": sample, "AK_RANDOM": nrand,
                          "AK_KEY_BYTES": ks, "AK_STAGES": STAGES,
                          "AK_LATENCY": spec.latency[8 * ks]})
