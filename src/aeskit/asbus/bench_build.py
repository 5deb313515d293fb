"""How the ADAM cocotb benches build ``ak_adam`` (``tests/hw/systems/test_adam*.py``
share one cached Verilator build per width).

* ``-CFLAGS -O0`` (:data:`aeskit.asbus.run.ADAM_BUILD_ARGS`): the generated C++ of the
  unrolled engines is large and compiles several times faster without optimisation;
  the benches spend their time in Python.
* ``--no-public-flat-rw`` with :data:`ADAM_BENCH_VLT`: only the top-level signals and
  the SRAM (ports and arrays) are visible through VPI, which is all the benches use;
  everything else stays optimisable (a third less C++, a faster model).
"""

from __future__ import annotations

from pathlib import Path

from aeskit.asbus.run import ADAM_BUILD_ARGS, ADAM_SOURCES

__all__ = ["ADAM_BENCH_ARGS", "ADAM_BENCH_SOURCES", "ADAM_BENCH_VLT"]

#: Verilator configuration: the signals the benches reach (see the file)
ADAM_BENCH_VLT = Path(__file__).resolve().with_name("adam_bench.vlt")
#: sources of the bench build: the configuration, then ak_adam in compile order
ADAM_BENCH_SOURCES: list[Path] = [ADAM_BENCH_VLT, *ADAM_SOURCES]
#: build arguments of the bench build
ADAM_BENCH_ARGS: tuple[str, ...] = ("--no-public-flat-rw", *ADAM_BUILD_ARGS)
