"""ak_gf128_mul (hw/primitives/gf128) in a compiled Verilator harness, every variant.

The harness (``gf128_harness.cpp``) runs a list of products through the multiplier
without waking Python per cycle and reports, per product, z_o in the cycle of done_o
and the cycles from the start cycle to done_o. Expected values come from
:func:`aeskit.model.gf128.gf128_mul` (SP 800-38D Algorithm 1, independent of the RTL).

The one-cycle schoolbook variant (DigitBits = 128, Karatsuba = 0) is
``ak_gf128_mul_comb`` between the input sampling and z_q, so its 100,000 products here
are ``ak_gf128_mul_comb``'s simulation test (the Karatsuba one likewise
``ak_gf128_mul_kara``'s).

Checked per variant:

* every product equals the model's; the special operands 0, 1 (x^0), x^127, all-ones,
  the SP 800-38D test case 2 H and its GHASH input, then random operands;
* done_o exactly ``128 / DigitBits`` cycles after the start cycle, for every product;
* back-to-back starts (in the cycle of done_o) and random gaps of 1..7 idle cycles;
* a_i/b_i random in every cycle without a start (sampled only at the start), random
  start_i while a product runs (ignored), ready_o low while a product runs, z_o held
  from done_o until the next start, no done_o without a product (the harness);
* the whole run's cycle count: sum of latencies and gaps, exact.

``make test`` runs 100,000 products on the one-cycle variants and on the serial ones
it keeps (D = 16 both forms, D = 1; the others under the slow marker, see FAST)
about 400,000 cycles' worth (20,000 products for D = 32/16/8, 10,000 for D = 4, 3,000
for D = 1: the model runs some 50,000 cycles/s of the bit-serial form); ``make
test-full`` (slow marker) 100,000 on every variant.
"""

from __future__ import annotations

import hashlib
import random
import subprocess
from functools import lru_cache
from pathlib import Path

import pytest

from aeskit import BUILD_ROOT
from aeskit.hw import PRIMITIVES
from aeskit.hw.catalog.gf128 import MUL_VARIANTS, cycles_per_product, mul_name
from aeskit.model.gf128 import MASK128, block_int, gf128_mul
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.sim.verilated_exe import build_executable, cpp_common_bytes

HERE = Path(__file__).resolve().parent
CPP = HERE / "gf128_harness.cpp"

#: SP 800-38D test case 2: H = E(K, 0^128) for K = 0, and its one GHASH block
H_TC2 = block_int(bytes.fromhex("66e94bd4ef8a2c3b884cfa59ca342b2e"))
C_TC2 = block_int(bytes.fromhex("0388dace60b6a392f328c2b971b2fe78"))
SPECIAL = [0, 1, 1 << 127, MASK128, H_TC2, C_TC2, 0xE1 << 120]


def _spec(d: int, k: bool):
    name = mul_name(d, k)
    return next(p for p in PRIMITIVES if p.name == name)


def _harness(d: int, k: bool) -> Path:
    spec = _spec(d, k)
    h = hashlib.sha256(CPP.read_bytes() + cpp_common_bytes())
    for f in spec.file_paths():
        h.update(f.read_bytes())
    h.update(repr(sorted(spec.parameters.items())).encode())
    bdir = BUILD_ROOT / "sim" / "gf128" / f"{spec.name}-{h.hexdigest()[:12]}"
    return build_executable(
        bdir, top="ak_gf128_mul", prefix="Vgf128",
        sources=[WAIVERS, *spec.file_paths(), CPP],
        extra_args=[f"-GDigitBits={d}", f"-GKaratsuba={int(k)}"],
        what=f"gf128 harness {spec.name}")


@lru_cache(maxsize=4)
def _stimulus(n: int, seed: int) -> tuple[tuple[int, int, int], ...]:
    """(a, b, gap) per product: the special operands paired, then random ones; gaps
    0 (back-to-back) half the time, else 1..7."""
    rng = random.Random(seed)
    out = [(a, b, 0) for a in SPECIAL for b in SPECIAL]
    while len(out) < n:
        gap = 0 if rng.random() < 0.5 else rng.randint(1, 7)
        out.append((rng.getrandbits(128), rng.getrandbits(128), gap))
    return tuple(out[:n])


@lru_cache(maxsize=4)
def _expected(n: int, seed: int) -> tuple[int, ...]:
    return tuple(gf128_mul(a, b) for a, b, _ in _stimulus(n, seed))


def _run(d: int, k: bool, n: int, seed: int = 15) -> None:
    exe = _harness(d, k)
    stim = _stimulus(n, seed)
    steps = cycles_per_product(d)
    text = f"{seed} {steps}\n" + "".join(f"{a:032x} {b:032x} {g}\n" for a, b, g in stim)
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True, timeout=600)
    lines = res.stdout.splitlines()
    assert res.returncode == 0 and lines and lines[-1].startswith("ok "), (
        f"{mul_name(d, k)}: harness failed (exit {res.returncode}):\n"
        + "\n".join(lines[-3:]) + res.stderr[-2000:])
    results = lines[:-1]
    assert len(results) == n, f"{len(results)} products out of {n}"
    exp = _expected(n, seed)
    for i, (line, want, (a, b, _)) in enumerate(zip(results, exp, stim)):
        z, lat = line.split()
        assert int(lat) == steps, f"product {i}: done_o after {lat} cycles, expected {steps}"
        assert int(z, 16) == want, (f"product {i}: {a:032x} * {b:032x} = {z}, "
                                    f"expected {want:032x}")
    # the run (from the first cycle after reset to the cycle of the last done_o): every
    # product takes `steps` cycles and every gap its idle cycles, nothing more
    cycles = int(lines[-1].split()[1])
    assert cycles == n * steps + sum(g for _, _, g in stim) + 1, (
        f"{cycles} cycles for {n} products")


N_FAST = 100_000
#: products per serial variant in make test, by DigitBits
N_SERIAL = {32: 20_000, 16: 20_000, 8: 20_000, 4: 10_000, 1: 3_000}
N_FULL = 100_000

IDS = [mul_name(d, k) for d, k in MUL_VARIANTS]


#: in make test: the one-cycle forms, the engine's 16-bit digit (both forms) and the
#: bit-serial extreme; the other digits (all formally proven too) in make test-full
FAST = {(128, False), (128, True), (16, False), (16, True), (1, False)}


@pytest.mark.parametrize("d,k", [v if v in FAST else pytest.param(*v, marks=pytest.mark.slow)
                                 for v in MUL_VARIANTS], ids=IDS)
def test_gf128_mul(d: int, k: bool) -> None:
    _run(d, k, N_FAST if d == 128 else N_SERIAL[d])


@pytest.mark.slow
@pytest.mark.parametrize("d,k", [v for v in MUL_VARIANTS if v[0] != 128],
                         ids=[i for i, v in zip(IDS, MUL_VARIANTS) if v[0] != 128])
def test_gf128_mul_full(d: int, k: bool) -> None:
    _run(d, k, N_FULL, seed=1915)


def test_model_known_answer() -> None:
    """The model itself: SP 800-38D test case 2, GHASH(H, {}, C) = X1 * H with
    X1 = C (one block, then the length block) -- checked through its tag."""
    lens = (0 << 64) | 128
    x = gf128_mul(C_TC2, H_TC2)
    x = gf128_mul(x ^ lens, H_TC2)
    assert x == block_int(bytes.fromhex("f38cbb1ad69223dcc3457ae5b6b0f885"))


def test_bad_digit_bits_is_refused() -> None:
    from aeskit.toolchain.paths import verilator

    spec = _spec(128, False)
    for bad in (2, 64, 3):
        res = subprocess.run([verilator(), "--lint-only", "-Wall", "--top-module", "ak_gf128_mul",
                              f"-GDigitBits={bad}", str(WAIVERS),
                              *map(str, spec.file_paths())], capture_output=True, text=True)
        out = res.stdout + res.stderr
        assert res.returncode != 0 and "DigitBits" in out and str(bad) in out, out
