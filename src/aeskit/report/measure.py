"""Simulation measurements of a core for the report: exact cycle counts and a
conformance check, both through the compiled harness.

Per key size (and direction, when the core decrypts):

* latency: one block into an idle core, never stalled; cycles from the accepting
  edge to the first edge with ``out_valid_o`` high;
* interval: the steady-state cycles per block with blocks offered back to back and
  the output never stalled: runs of 64 and of 128 blocks from an idle core, the
  difference of their accept spans divided by 64 -- the start-up (a core that holds
  k blocks takes the first k at once) cancels, so a two-block core at Nr cycles per
  block measures exactly Nr, not the 63-block average (9.86 for pipe2);
* key setup: cycles from the key handshake until ``in_ready_o`` is high;
* conformance: every NIST ECB KAT and MMT vector of that key size and direction,
  then 500 random blocks with random keys under 30 % gaps and stalls, all compared
  with the golden model. The report marks a core whose check fails.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any, Callable

from aeskit.hw.registry import CoreSpec
from aeskit.harness.core import HARNESS_CPP, Harness

MEASURE_VERSION = "2"
INTERVAL_BLOCKS = 64
RANDOM_BLOCKS = 500


def _split(msg: bytes) -> list[bytes]:
    return [msg[i:i + 16] for i in range(0, len(msg), 16)]


def conformance(h: Harness, key_size: int, decrypt: bool, rng: random.Random) -> tuple[int, int, list[str]]:
    """NIST ECB KAT/MMT + random stalled blocks; returns (passed, total, failures)."""
    from aeskit.model import AES
    from aeskit.vectors import block_vectors

    passed = total = 0
    failures: list[str] = []
    for v in block_vectors("ECB", key_size=key_size):
        if v.decrypt != decrypt:
            continue
        src, exp = (v.ciphertext, v.plaintext) if decrypt else (v.plaintext, v.ciphertext)
        h.load_key(v.key)
        got, _ = h.run(_split(src), decrypt)
        total += 1
        if b"".join(got) == exp:
            passed += 1
        elif len(failures) < 5:
            failures.append(f"{Path(v.file).name}:{v.line} COUNT={v.count}")
    done = 0
    while done < RANDOM_BLOCKS:
        key = rng.randbytes(key_size // 8)
        model = AES(key)
        blocks = [rng.randbytes(16) for _ in range(rng.randint(1, 50))]
        h.load_key(key)
        got, _ = h.run(blocks, decrypt, gap_pct=30, stall_pct=30, seed=rng.getrandbits(31))
        exp = [model.decrypt(b) if decrypt else model.encrypt(b) for b in blocks]
        total += 1
        if got == exp:
            passed += 1
        elif len(failures) < 5:
            failures.append(f"random key {key.hex()} ({len(blocks)} blocks)")
        done += len(blocks)
    return passed, total, failures


def steady_interval(h: Harness, decrypt: bool, rng: random.Random) -> float:
    """Steady-state cycles per block under the harness's loaded key (see the module
    doc): accept spans of 128 and of 64 back-to-back blocks, difference over 64."""
    _, many = h.run([rng.randbytes(16) for _ in range(INTERVAL_BLOCKS)], decrypt)
    _, more = h.run([rng.randbytes(16) for _ in range(2 * INTERVAL_BLOCKS)], decrypt)
    span = (more.accept_last - more.accept_first) - (many.accept_last - many.accept_first)
    return span / INTERVAL_BLOCKS


def measure_key(core: CoreSpec) -> str:
    """The key of :func:`measure_core`'s result: the core's sources, this module's
    :data:`MEASURE_VERSION` and the harness."""
    h_ = hashlib.sha256((core.source_hash() + MEASURE_VERSION).encode())
    h_.update(HARNESS_CPP.read_bytes())
    return h_.hexdigest()[:16]


def measure_parts(core: CoreSpec) -> dict[str, Any]:
    """The results-store key parts of :func:`measure_core`'s result."""
    return {"kind": "sim", "core": core.name, "key": measure_key(core)}


def measure_core(core: CoreSpec, cache_dir: Path, *, force: bool = False,
                 progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Measure ``core`` (cached in ``cache_dir/sim.json`` by source hash, and in the
    results store)."""
    key = measure_key(core)
    from aeskit.store import cached_file

    def compute() -> dict[str, Any]:
        rng = random.Random(2026)
        result: dict[str, Any] = {"cache_key": key, "core": core.name, "per_key": {}}
        with Harness(core, progress) as h:
            for ks in core.key_sizes:
                if progress:
                    progress(f"{core.name}: measuring AES-{ks}")
                entry: dict[str, Any] = {}
                for decrypt in ([False, True] if core.decrypt else [False]):
                    d = "dec" if decrypt else "enc"
                    setup = h.load_key(rng.randbytes(ks // 8))
                    _, one = h.run([rng.randbytes(16)], decrypt)
                    interval = steady_interval(h, decrypt, rng)
                    passed, total, failures = conformance(h, ks, decrypt, rng)
                    entry[d] = {
                        "latency": one.latency_first,
                        "interval": interval,
                        "key_setup": setup,
                        "tests_passed": passed,
                        "tests_total": total,
                        "failures": failures,
                    }
                result["per_key"][str(ks)] = entry
        return result

    data = cached_file(cache_dir / "sim.json", measure_parts(core), compute, force=force)
    return data
