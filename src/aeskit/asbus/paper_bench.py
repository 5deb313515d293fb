"""cocotb test module of :func:`aeskit.asbus.run.measure`: the paper's cases on ADAM or
XDAM (whichever is the top level), records written as JSON to ``$AK_RESULTS``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import cocotb

from aeskit.asbus.bench import XdamTB, adam_paper_cases, xdam_paper_cases
from aeskit.asbus.tb import AdamTB


@cocotb.test()
async def paper_cases(dut) -> None:
    seed = int(os.environ.get("AK_SEED", "0"))
    if hasattr(dut, "s_axi_wdata"):
        tb = XdamTB(dut)
        await tb.start()
        recs = await xdam_paper_cases(tb, seed=seed)
    else:
        atb = AdamTB(dut)
        await atb.start()
        recs = [r for r, _, _ in await adam_paper_cases(atb, seed=seed)]
    out = os.environ.get("AK_RESULTS")
    if out:
        Path(out).write_text(json.dumps([r.as_dict() for r in recs], indent=1))
