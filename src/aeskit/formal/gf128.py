"""The proofs of the GF(2^128) multipliers (hw/primitives/gf128), for
:mod:`aeskit.formal.proofs`: designs and schedules of :mod:`aeskit.formal.bilinear`.

* ``gf128-kara``: ak_gf128_mul_kara == ak_gf128_mul_comb (combinational, all a, b);
* ``gf128-step-D[-kara]``: ak_gf128_digit_step #(D) == fv_gf128_step_ref #(D) (the step
  z * x^D + d * b written with two schoolbook products), for all z, d, b;
* ``gf128-mul-dD[-kara]``: the whole multiplier ak_gf128_mul #(D, Karatsuba), run from
  reset: reset in cycle 0, start_i with a_i = a, b_i = b in cycle 1, then 128/D cycles
  with start_i high while busy (must be ignored) and fixed random a_i/b_i (must not
  matter). Proven for all a, b: z_o in cycle 1 + 128/D equals ak_gf128_mul_comb(a, b);
  done_o is 0 in cycles 1 .. 128/D and 1 in cycle 1 + 128/D; ready_o is 1 in cycle 1,
  0 in between (128/D > 1) and 1 with done_o. Not covered by the proof: other values
  of a_i/b_i after the start (the simulation draws random ones every cycle) and other
  start patterns (back-to-back starts, gaps: simulation).
"""

from __future__ import annotations

import random
from pathlib import Path

from aeskit.formal.bilinear import Schedule
from aeskit.hw import manifest
from aeskit.synth import Design

__all__ = ["comb", "kara", "mul", "step", "step_ref", "comb_schedule", "step_schedule",
           "mul_schedule"]

MANIFEST = "aeskit:prim:gf128"
STEP_REF = "aeskit:bench:fv_gf128_step_ref"


def _src(name: str) -> tuple[Path, ...]:
    # named by manifest, not looked up by module file: a stand-in ak_gf128_mul in an
    # extra root must not make the lookup ambiguous
    return tuple(manifest.sources(name))


def comb() -> Design:
    return Design("gf128_mul_comb", "ak_gf128_mul_comb", _src(MANIFEST))


def kara() -> Design:
    return Design("gf128_mul_kara", "ak_gf128_mul_kara", _src(MANIFEST))


def step(d: int, k: bool) -> Design:
    return Design(f"gf128_digit_step_d{d}{'_kara' if k else ''}", "ak_gf128_digit_step",
                  _src(MANIFEST), parameters={"DigitBits": d, "Karatsuba": int(k)})


def step_ref(d: int) -> Design:
    return Design(f"fv_gf128_step_ref_d{d}", "fv_gf128_step_ref", _src(STEP_REF),
                  parameters={"DigitBits": d})


def mul(d: int, k: bool) -> Design:
    return Design(f"gf128_mul_d{d}{'_kara' if k else ''}", "ak_gf128_mul", _src(MANIFEST),
                  parameters={"DigitBits": d, "Karatsuba": int(k)})


_AB = {"a_i": "A", "b_i": "B"}


def comb_schedule() -> tuple[Schedule, Schedule, None]:
    s = Schedule(_AB, ({"a_i": "A", "b_i": "B"},), (0,), ("z_o",))
    return s, s, None


def step_schedule() -> tuple[Schedule, Schedule, None]:
    types = {"z_i": "A", "d_i": "A", "b_i": "B"}
    s = Schedule(types, ({"z_i": "A", "d_i": "A", "b_i": "B"},), (0,), ("z_o",))
    return s, s, None


def mul_schedule(d: int) -> tuple[Schedule, Schedule, dict[int, dict[str, int]]]:
    n = 128 // d
    rng = random.Random(1500 + d)
    cycles: list[dict[str, object]] = [{"rst_ni": 0},
                                       {"rst_ni": 1, "start_i": 1, "a_i": "A", "b_i": "B"}]
    for c in range(n):
        cycles.append({"rst_ni": 1, "start_i": int(c < n - 1),
                       "a_i": rng.getrandbits(128), "b_i": rng.getrandbits(128)})
    expect: dict[int, dict[str, int]] = {1: {"ready_o": 1, "done_o": 0},
                                         1 + n: {"ready_o": 1, "done_o": 1}}
    for c in range(2, 1 + n):
        expect[c] = {"ready_o": 0, "done_o": 0}
    gold, _, _ = comb_schedule()
    return gold, Schedule(_AB, tuple(cycles), (1 + n,), ("z_o",)), expect
