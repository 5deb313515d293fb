"""Run the paper's test cases on the RTL and return cycle records (for a CLI or the
report): one :class:`~aeskit.asbus.cases.CycleRecord` per test case, bus and width with
``test``, ``bus``, ``width``, ``measured_cycles``, ``model_cycles``, ``paper_cycles``.

>>> from aeskit.asbus.run import measure
>>> recs = measure(widths=(32,), buses=("asbus",))      # doctest: +SKIP
>>> [(r.test, r.measured_cycles, r.model_cycles, r.paper_cycles) for r in recs]  # doctest: +SKIP
[('linear', 84, 82.0, 82), ('block', 84, 82.0, 82), ('cipher', 178, 132.0, 132)]

Each (bus, width) is one Verilator build (cached under ``build/sim``) and one
simulation; the data are checked on the way (a mismatch raises).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable
from pathlib import Path

from aeskit import HW_ROOT
from aeskit.asbus.cases import CycleRecord

__all__ = ["ADAM_BUILD_ARGS", "ADAM_SOURCES", "XDAM_SOURCES", "measure"]

_PRIMS = [HW_ROOT / "primitives" / f"{m}.sv" for m in
          ("ak_sbox_comp_s1", "ak_sbox_comp_s2", "ak_xtime", "ak_mix_column", "ak_inv_mix_column")]
_DAM = [HW_ROOT / "systems/adam" / f"{m}.sv" for m in
        ("ak_dam_aes_engine", "ak_dam_mem", "ak_dam_mbus_regs", "ak_dam_wpath", "ak_dam_rpath")]
#: sources of ak_adam in compile order
ADAM_SOURCES = (_PRIMS + [HW_ROOT / "bus/asbus" / f"{m}.sv" for m in
                          ("ak_asbus_arbiter", "ak_asbus_addrgen", "ak_asbus_slave")]
                + _DAM + [HW_ROOT / "systems/adam/ak_adam.sv"])
#: Verilator build arguments of every ADAM bench (tests and :func:`measure` share one
#: cached build per width). The model's C++ is large (20 unrolled engine rounds at 128
#: bits); compiled with -O0 it builds about 5x faster than with Verilator's default -Os
#: and the benches, which spend their time in Python, run barely slower.
ADAM_BUILD_ARGS = ("-CFLAGS", "-O0")
#: sources of ak_xdam in compile order
XDAM_SOURCES = (_PRIMS + [HW_ROOT / "bus/asbus/ak_asbus_addrgen.sv"] + _DAM
                + [HW_ROOT / "systems/xdam" / f"{m}.sv" for m in ("ak_xdam_fifo", "ak_xdam")])


def measure(widths: Iterable[int] = (32, 64, 128),
            buses: Iterable[str] = ("axi", "asbus"), seed: int = 0) -> list[CycleRecord]:
    """Simulate the three test cases for every bus and width; return their records."""
    from aeskit.sim.cocotb_run import run_cocotb

    records: list[CycleRecord] = []
    for bus in buses:
        if bus not in ("axi", "asbus"):
            raise ValueError(f"bus must be 'axi' or 'asbus', got {bus!r}")
        top, sources = (("ak_adam", ADAM_SOURCES) if bus == "asbus" else ("ak_xdam", XDAM_SOURCES))
        for width in widths:
            if width not in (32, 64, 128):
                raise ValueError(f"width must be 32, 64 or 128, got {width!r}")
            with tempfile.TemporaryDirectory() as tmp:
                out = Path(tmp) / "records.json"
                run_cocotb(toplevel=top, sources=list(sources), test_module="aeskit.asbus.paper_bench",
                           test_dir=Path(__file__).resolve().parent, parameters={"W": width},
                           build_args=ADAM_BUILD_ARGS if bus == "asbus" else (),
                           extra_env={"AK_RESULTS": str(out), "AK_SEED": str(seed)})
                records.extend(CycleRecord(**r) for r in json.loads(out.read_text()))
    return records
