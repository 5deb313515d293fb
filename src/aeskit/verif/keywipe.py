"""Key hygiene of a core: after the documented wipe (docs/core-contract.md, "Wiping a
key": load an all-zero key of the core's largest key size, let its setup finish, then
reset) no register and no RAM word of the core holds a word of the old key's
schedule. The check reads ALL internal state of the simulated core through the
simulator (Verilator with ``--public-flat-rw``, which cocotb builds use): every signal
and every element of every memory, recursively through the hierarchy.

What counts as key material: every 32-bit word of the expanded key (FIPS-197 ``w[i]``),
and every word of the equivalent inverse cipher's round keys (InvMixColumns of round
keys 1 .. Nr-1), each in both byte orders, found at ANY bit offset of any signal or
memory word. A 32-bit pattern can also sit in constant tables (T-box ROMs) by chance,
so the locations that match before the key is ever loaded are recorded first and not
counted. Before the wipe the scan must find the key (else the check could not fail).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from cocotb.handle import ArrayObject, HierarchyArrayObject, HierarchyObject

from aeskit.model.aes import inv_mix_columns, key_schedule_words

__all__ = ["key_words", "scan", "state_values", "wipe_check"]


def key_words(key: bytes) -> set[int]:
    """The key's schedule words and equivalent-inverse-cipher words, both byte orders."""
    w = key_schedule_words(key)
    words = set(w)
    nr = len(w) // 4 - 1
    for r in range(1, nr):
        rk = b"".join(x.to_bytes(4, "big") for x in w[4 * r:4 * r + 4])
        imc = inv_mix_columns(rk)
        words.update(int.from_bytes(imc[4 * i:4 * i + 4], "big") for i in range(4))
    return words | {int.from_bytes(x.to_bytes(4, "big"), "little") for x in words}


def state_values(handle: Any, path: str = "") -> Iterator[tuple[str, int, int]]:
    """(path, width, value) of every signal and memory element below ``handle``."""
    for child in handle:
        name = f"{path}.{child._name}" if path else child._name
        if isinstance(child, (HierarchyObject, HierarchyArrayObject)):
            yield from state_values(child, name)
        elif isinstance(child, ArrayObject):
            for i, elem in enumerate(child):
                if isinstance(elem, ArrayObject):
                    yield from state_values(elem, f"{name}[{i}]")
                else:
                    yield from _value(f"{name}[{i}]", elem)
        else:  # a signal (packed or one bit) or a parameter
            yield from _value(name, child)


def _value(name: str, h: Any) -> Iterator[tuple[str, int, int]]:
    try:
        v = h.value
        if isinstance(v, int):  # an integer parameter
            return
        width = len(v)
        yield name, width, v.to_unsigned() if width > 1 else int(v)
    except (ValueError, TypeError, AttributeError):  # X/Z (none on Verilator), no value
        return


def scan(dut: Any, words: set[int]) -> set[tuple[str, int]]:
    """Locations (signal path, bit offset) where a word of ``words`` sits."""
    hits: set[tuple[str, int]] = set()
    for name, width, value in state_values(dut):
        if width < 32 or value == 0:
            continue
        for off in range(width - 31):
            if ((value >> off) & 0xFFFFFFFF) in words:
                hits.add((name, off))
    return hits


async def wipe_check(tb: Any, key_sizes: list[int], decrypt: bool, seed: int, *,
                     zero_key: bool = True) -> list[str]:
    """For every key size: a random key and blocks of both directions, then the wipe;
    returns the report lines; raises AssertionError on a finding. ``tb`` is a
    :class:`aeskit.testbench.coretb.CoreTB` after its reset. ``zero_key=False`` leaves the
    zero key out of the wipe (a reset alone), to show what it is needed for."""
    rng = random.Random(seed)
    dut = tb.dut
    largest = max(key_sizes) // 8
    report = []
    for bits in key_sizes:
        key = rng.randbytes(bits // 8)
        words = key_words(key)
        baseline = scan(dut, words)
        await tb.load_key(key)
        recs = [tb.send(rng.randbytes(16), decrypt=decrypt and rng.random() < 0.5)
                for _ in range(6)]
        await tb.drain()
        for rec in recs:
            assert rec.result == rec.expected, f"block {rec.index}: wrong result"

        loaded = scan(dut, words) - baseline
        assert loaded, (f"{bits}-bit key: the scan finds no word of the loaded key in the "
                        f"core's state, so it could not see one after the wipe")
        # the wipe: an all-zero key of the largest size, its setup, a reset
        if zero_key:
            await tb.load_key(bytes(largest))
        await tb.reset()
        left = sorted(scan(dut, words) - baseline)
        assert not left, (f"{bits}-bit key: after the wipe {len(left)} location(s) still "
                          f"hold words of the old key's schedule, e.g. "
                          + ", ".join(f"{n} bit {o}" for n, o in left[:8]))
        report.append(f"{bits}-bit key: {len(loaded)} locations held it, 0 after the wipe "
                      f"({len(baseline)} chance matches in constants)")
    return report
