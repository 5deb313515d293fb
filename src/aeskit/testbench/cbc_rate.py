"""CBC at full speed on any contract core: cycles per block with a zero-latency mode
engine, measured in simulation (cocotb on Verilator).

The engine is the fastest a core can be driven in CBC: encryption presents
``P_i ^ out_data_o`` in the very cycle ``out_valid_o`` shows ``C_{i-1}`` (the chained
block depends on the previous result); decryption presents the next ciphertext as soon
as the core can take it and XORs the previous ciphertext into each output. Cycles per
block = edges between consecutive input handshakes.

* :func:`cbc_stream` drives one stream (used by tests and by :func:`measure_cbc`);
* :func:`measure_cbc` builds a core and returns ``{key_size: {"enc": n, "dec": n}}``
  (every block checked against :mod:`aeskit.model`; an uneven spacing is an error);
* ``cocotb_cbc_cycles`` is the cocotb test that :func:`measure_cbc` runs.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from aeskit.model import AES, cbc_decrypt, cbc_encrypt

__all__ = ["cbc_stream", "measure_cbc"]

#: blocks per measured stream
CBC_BLOCKS = 20


async def cbc_stream(dut: Any, iv: bytes, blocks: list[bytes],
                     decrypt: bool) -> tuple[list[bytes], list[int]]:
    """Run ``blocks`` through ``dut`` in CBC (key already loaded, core idle, nothing
    else driving its inputs). Returns the mode outputs (plaintext or ciphertext) and
    the cycle numbers of the input handshakes."""
    dut.out_ready_i.value = 1
    dut.key_valid_i.value = 0
    dut.in_decrypt_i.value = int(decrypt)
    dut.in_tag_i.value = 0
    outs: list[bytes] = []
    accepts: list[int] = []
    prev = iv
    sent = 0
    cycle = 0

    def present(i: int) -> None:
        data = blocks[i] if decrypt else bytes(a ^ b for a, b in zip(blocks[i], prev))
        dut.in_data_i.value = int.from_bytes(data, "big")
        dut.in_valid_i.value = 1

    present(0)
    valid = True
    while len(outs) < len(blocks):
        await FallingEdge(dut.clk_i)
        cycle += 1
        if cycle > 100 * len(blocks):
            raise AssertionError("CBC stream hung")
        if int(dut.out_valid_o.value):
            o = int(dut.out_data_o.value).to_bytes(16, "big")
            if decrypt:
                outs.append(bytes(a ^ b for a, b in zip(o, prev)))
                prev = blocks[len(outs) - 1]
            else:
                outs.append(o)
                prev = o
            if not decrypt and sent < len(blocks):
                present(sent)          # the chained block, in the same cycle
                valid = True
        fire_in = valid and bool(int(dut.in_ready_o.value))
        if fire_in:
            accepts.append(cycle)
            sent += 1
        await RisingEdge(dut.clk_i)
        if fire_in:
            valid = False
            dut.in_valid_i.value = 0
            if decrypt and sent < len(blocks):
                present(sent)
                valid = True
    dut.in_valid_i.value = 0
    return outs, accepts


@cocotb.test()
async def cocotb_cbc_cycles(dut: Any) -> None:
    """Measure CBC cycles per block for the key sizes in AK_KEY_SIZES (bits), both
    directions; write ``{ks: {"enc": n, "dec": n}}`` to AK_CBC_OUT."""
    from aeskit.testbench.coretb import CoreTB

    tb = CoreTB(dut, seed=1)
    tb.start_clock()
    await tb.reset()
    rng = random.Random(2016)
    result: dict[str, dict[str, int]] = {}
    for ks in [int(k) for k in os.environ.get("AK_KEY_SIZES", "128,192,256").split(",")]:
        key, iv = rng.randbytes(ks // 8), rng.randbytes(16)
        pts = [rng.randbytes(16) for _ in range(CBC_BLOCKS)]
        ct = cbc_encrypt(AES(key), iv, b"".join(pts))
        await tb.load_key(key)
        tb.pause()
        await RisingEdge(dut.clk_i)
        entry: dict[str, int] = {}
        for decrypt in (False, True):
            src = [ct[i:i + 16] for i in range(0, len(ct), 16)] if decrypt else pts
            outs, accepts = await cbc_stream(dut, iv, src, decrypt)
            want = cbc_decrypt(AES(key), iv, ct) if decrypt else ct
            assert b"".join(outs) == want, f"AES-{ks} CBC decrypt={decrypt}: wrong result"
            gaps = {b - a for a, b in zip(accepts, accepts[1:])}
            assert len(gaps) == 1, f"AES-{ks} CBC decrypt={decrypt}: uneven spacing {gaps}"
            entry["dec" if decrypt else "enc"] = gaps.pop()
            for _ in range(3):
                await RisingEdge(dut.clk_i)
        result[str(ks)] = entry
        tb.resume()
    Path(os.environ["AK_CBC_OUT"]).write_text(json.dumps(result))


def measure_cbc(core: Any, out_json: Path, key_sizes: tuple[int, ...] | None = None,
                ) -> dict[int, dict[str, int]]:
    """Build ``core`` (a registry spec) on Verilator and measure CBC cycles per block."""
    from aeskit.sim.cocotb_run import run_cocotb

    sizes = key_sizes or tuple(core.key_sizes)
    out_json = Path(out_json).resolve()
    out_json.parent.mkdir(parents=True, exist_ok=True)
    out_json.unlink(missing_ok=True)
    run_cocotb(toplevel=core.top, sources=core.file_paths(), test_module="aeskit.testbench.cbc_rate",
               test_dir=Path(__file__).resolve().parent,
               parameters={**core.parameters, "TagWidth": 1}, testcase="cocotb_cbc_cycles",
               extra_env={"AK_KEY_SIZES": ",".join(str(k) for k in sizes),
                          "AK_CBC_OUT": str(out_json)})
    data = json.loads(out_json.read_text())
    return {int(k): v for k, v in data.items()}
