"""How the ADAM cocotb benches build ``ak_adam`` (``tests/hw/systems/adam/test_adam*.py``
share one cached Verilator build per width).

* ``-CFLAGS -O0`` (:data:`ADAM_BUILD_ARGS`, also the build of :func:`aeskit.asbus.run.measure`): the generated C++ of the
  unrolled engines is large and compiles several times faster without optimisation;
  the benches spend their time in Python.
* ``--no-public-flat-rw`` with the bench manifest's configuration
  (``aeskit:bench:adam_bench``, hw/bench/adam_bench/adam_bench.vlt): only the top-level signals and
  the SRAM (ports and arrays) are visible through VPI, which is all the benches use;
  everything else stays optimisable (a third less C++, a faster model).

The stream tests (:data:`aeskit.asbus.cases.STREAM_TESTS`: 20 states, 320 bytes) run
on the same bench build with ``MemBytes`` = :data:`~aeskit.asbus.cases.STREAM_MEM_BYTES`
(:func:`stream_parameters`), shared by ``test_adam.py`` and
:func:`aeskit.asbus.run.measure`; every other ADAM bench keeps the paper's 256 bytes.
"""

from __future__ import annotations

from pathlib import Path

from aeskit.asbus.cases import STREAM_MEM_BYTES
from aeskit.hw import manifest

__all__ = ["ADAM_BENCH", "ADAM_BENCH_ARGS", "ADAM_BENCH_SOURCES", "ADAM_BUILD_ARGS",
           "stream_parameters"]

#: Verilator build arguments of every ADAM and XDAM bench and of
#: :func:`aeskit.asbus.run.measure` (both buses). The model's C++ is large (20 unrolled
#: engine rounds at 128 bits); compiled with -O0 it builds about 5x faster than with
#: Verilator's default -Os and the benches, which spend their time in Python, run
#: barely slower.
ADAM_BUILD_ARGS = ("-CFLAGS", "-O0")

#: the bench manifest: ak_adam plus the Verilator configuration of the signals the
#: benches reach
ADAM_BENCH = "aeskit:bench:adam_bench"
#: sources of the bench build: the configuration, then ak_adam in compile order
ADAM_BENCH_SOURCES: list[Path] = manifest.sim_sources(ADAM_BENCH)
#: build arguments of the bench build
ADAM_BENCH_ARGS: tuple[str, ...] = ("--no-public-flat-rw", *ADAM_BUILD_ARGS)


def stream_parameters(width: int) -> dict[str, int]:
    """HDL parameters of the bench build that runs the stream tests at ``width``."""
    return {"DataWidth": width, "MemBytes": STREAM_MEM_BYTES}
