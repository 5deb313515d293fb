"""Bulk regressions for EVERY core of the registry, through the compiled harness
(no Python per cycle): Monte Carlo tests and random blocks against OpenSSL and the
golden model, with random input gaps and output stalls.

``make test`` runs a short form (one MCT outer iteration per key size and direction,
20,000 random blocks) on one registry configuration per manifest -- the first one each
manifest builds (round, pipe2, ueno, satoh, ...); the other configurations (S-box
variants, ueno_mux, tbox_unfolded_pp, the 192- and 256-bit unrolled builds) differ from theirs by parameters, run their own cocotb benches in ``make test``,
and the short form here in ``make test-full`` (each one is a compiled-harness build of
one to two minutes). ``make test-full`` also runs the full CAVP MCTs (100 outer
iterations of 1000 blocks) and 1,000,000 random blocks on every core.
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.hw import CORES, CoreSpec
from aeskit.model import AES
from aeskit.model.mct import run_mct
from aeskit.harness.core import Harness, RtlCipher
from aeskit.vectors import mct_vectors

CORE_IDS = [c.name for c in CORES]


def _first_per_manifest() -> set[str]:
    seen: dict[str, str] = {}
    for c in CORES:
        seen.setdefault(c.manifest_name(), c.name)
    return set(seen.values())


def _tiered(fast: set[str]) -> list[object]:
    """Every core; those outside ``fast`` marked slow (make test-full)."""
    return [n if n in fast else pytest.param(n, marks=pytest.mark.slow) for n in CORE_IDS]


#: paper 002's comparison cores (satoh, liu, lutz) keep their KATs in make test (tests/hw/cores/
#: ueno/test_paper002.py); their MCT runs in test-full
MCT_FAST = _first_per_manifest() - {"satoh", "liu", "lutz"}
RANDOM_FAST = MCT_FAST


def _mct_cases(core: CoreSpec) -> list[tuple[str, int, bool]]:
    cases = []
    for mode in ("ECB", "CBC", "CFB128", "OFB"):
        for ks in core.key_sizes:
            for dec in (False, True):
                # CFB/OFB only use the forward cipher; ECB/CBC decryption needs the core's
                if dec and mode in ("ECB", "CBC") and not core.decrypt:
                    continue
                cases.append((mode, ks, dec))
    return cases


class _OpenSSL:
    """OpenSSL as a ``BlockCipher``: the reference where no CAVP MCT file exists (ECB)."""

    def __init__(self, key: bytes) -> None:
        self._c = Cipher(algorithms.AES(key), modes.ECB())

    def encrypt(self, block: bytes) -> bytes:
        e = self._c.encryptor()
        return e.update(block) + e.finalize()

    def decrypt(self, block: bytes) -> bytes:
        d = self._c.decryptor()
        return d.update(block) + d.finalize()


def _check_mct(core: CoreSpec, mode: str, ks: int, decrypt: bool, iterations: int) -> None:
    vecs = [v for v in mct_vectors(mode, ks) if v.decrypt == decrypt]
    if vecs:
        assert len(vecs) == 100, f"expected 100 outer iterations in the {mode} MCT file"
        start = (vecs[0].key, vecs[0].iv, vecs[0].input)
        expected = [(v.key, v.iv, v.input, v.output, f"{v.file}:{v.line}") for v in vecs]
    else:
        # No CAVP file for this MCT (ECB): the same AESAVS loop over OpenSSL is the reference.
        rng = random.Random(f"mct{mode}{ks}{decrypt}")
        start = (rng.randbytes(ks // 8), None, rng.randbytes(16))
        ref = run_mct(mode, _OpenSSL, *start, decrypt, iterations)
        expected = [(r.key, r.iv, r.input, r.output, f"OpenSSL COUNT={i}")
                    for i, r in enumerate(ref)]
    with Harness(core) as h:
        seed = random.Random(f"{mode}{ks}{decrypt}")
        results = run_mct(mode, lambda k: RtlCipher(h, k, gap_pct=10, stall_pct=10,
                                                    seed=seed.getrandbits(32)),
                          *start, decrypt, iterations)
    assert len(results) == iterations
    for res, (key, iv, inp, out, where) in zip(results, expected):
        assert (res.key, res.iv, res.input) == (key, iv, inp), f"{where}: MCT inputs diverged"
        assert res.output == out, f"{where}: {mode}-{ks} decrypt={decrypt} mismatch"


@pytest.mark.parametrize("core_name", _tiered(MCT_FAST))
def test_mct_first_outer_iteration(core_name: str) -> None:
    core = next(c for c in CORES if c.name == core_name)
    for mode, ks, dec in _mct_cases(core):
        if mode in ("ECB", "CBC"):
            _check_mct(core, mode, ks, dec, iterations=1)


@pytest.mark.slow
@pytest.mark.parametrize("core_name", CORE_IDS)
def test_mct_full(core_name: str) -> None:
    core = next(c for c in CORES if c.name == core_name)
    for mode, ks, dec in _mct_cases(core):
        _check_mct(core, mode, ks, dec, iterations=100)


def _random_blocks(core: CoreSpec, total: int, seed: int) -> None:
    rng = random.Random(seed)
    done = 0
    model_checked = 0
    with Harness(core) as h:
        while done < total:
            ks = rng.choice(core.key_sizes)
            key = rng.randbytes(ks // 8)
            decrypt = core.decrypt and rng.random() < 0.5
            n = rng.randint(1, 4000)
            blocks = [rng.randbytes(16) for _ in range(n)]
            gap, stall = rng.choice([(0, 0), (0, 50), (50, 0), (30, 30), (80, 80)])
            h.load_key(key)
            out, st = h.run(blocks, decrypt, gap_pct=gap, stall_pct=stall,
                            seed=rng.getrandbits(31))
            c = Cipher(algorithms.AES(key), modes.ECB())
            op = c.decryptor() if decrypt else c.encryptor()
            exp = op.update(b"".join(blocks)) + op.finalize()
            assert b"".join(out) == exp, f"key {key.hex()} decrypt={decrypt} gap={gap} stall={stall}"
            # the golden model agrees on a sample of each batch
            model = AES(key)
            i = rng.randrange(n)
            assert out[i] == (model.decrypt(blocks[i]) if decrypt else model.encrypt(blocks[i]))
            model_checked += 1
            if (gap, stall) == (0, 0) and n > 1:
                assert st.latency_min == st.latency_max == core.latency[ks]
                span = st.accept_last - st.accept_first
                if core.in_flight == 1:
                    assert st.interval == core.interval[ks]
                else:
                    # Interleaved cores accept in groups: blocks j and j + in_flight are
                    # exactly in_flight * interval cycles apart, the gaps inside a group
                    # vary; so the span of n accepts is exact up to one group.
                    assert abs(span - core.interval[ks] * (n - 1)) <= \
                        core.interval[ks] * core.in_flight, (span, n)
            done += n
    assert model_checked > 0


@pytest.mark.parametrize("core_name", _tiered(RANDOM_FAST))
def test_random_blocks_short(core_name: str) -> None:
    _random_blocks(next(c for c in CORES if c.name == core_name), 20_000, 1)


#: make test-full: 10^7 random blocks per core (issue 16), mixed key sizes, directions,
#: gaps and stalls, every block numbered by its tag, against OpenSSL
TEN_MILLION = 10_000_000


@pytest.mark.slow
@pytest.mark.parametrize("core_name", CORE_IDS)
def test_random_blocks_ten_million(core_name: str) -> None:
    _random_blocks(next(c for c in CORES if c.name == core_name), TEN_MILLION, 2)
