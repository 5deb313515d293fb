"""cocotb test module of :func:`aeskit.asbus.run.measure`: the paper's cases on ADAM or
XDAM (whichever is the top level), records written as JSON to ``$AK_RESULTS``.
``$AK_CASES=stream`` runs the stream tests instead
(:data:`aeskit.asbus.cases.STREAM_TESTS`, ADAM built with
``MemBytes`` = :data:`aeskit.asbus.cases.STREAM_MEM_BYTES`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb

from aeskit.asbus.bench import XdamTB, adam_paper_cases, adam_stream_case, xdam_paper_cases
from aeskit.asbus.cases import STREAM_MEM_BYTES, STREAM_TESTS
from aeskit.asbus.tb import AdamTB


@cocotb.test()
async def paper_cases(dut) -> None:
    seed = int(os.environ.get("AK_SEED", "0"))
    stream = os.environ.get("AK_CASES", "paper") == "stream"
    if hasattr(dut, "s_axi_wdata"):
        assert not stream, "the stream tests run on ADAM only"
        tb = XdamTB(dut)
        await tb.start()
        recs = await xdam_paper_cases(tb, seed=seed)
    elif stream:
        atb = AdamTB(dut, mem_bytes=STREAM_MEM_BYTES)
        await atb.start()
        recs = [(await adam_stream_case(atb, test, seed=seed))[0] for test in STREAM_TESTS]
    else:
        atb = AdamTB(dut)
        await atb.start()
        recs = [r for r, _, _ in await adam_paper_cases(atb, seed=seed)]
    out = os.environ.get("AK_RESULTS")
    if out:
        Path(out).write_text(json.dumps([r.as_dict() for r in recs], indent=1))
