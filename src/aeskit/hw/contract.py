"""The core contract's checker (``hw/bench/contract``): which files bind it into a
core and the defines that carry the core's registry claims to it. Used by every
simulation of a registry core (:mod:`aeskit.testbench.corebench`, the compiled harness) and
by the proofs (:mod:`aeskit.formal.contract`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from aeskit.hw import manifest
from aeskit.hw.registry import KEY_LEN_CODE, KEY_SIZES_ALL, CoreSpec

__all__ = ["MANIFEST", "bind_into", "defines", "fault_core", "files", "fingerprint",
           "sources", "verilator_args"]

#: the manifest of the checker and its bind file
MANIFEST = "aeskit:bench:core_contract"


def files() -> list[Path]:
    """The checker and the bind file, from their manifest."""
    return manifest.sources(MANIFEST)


def sources(core: CoreSpec) -> list[Path]:
    """``core``'s files followed by the checker bound into it."""
    return [*core.file_paths(), *files()]


def _pow2(n: int) -> int:
    return 1 << max(0, n - 1).bit_length()


def defines(core: CoreSpec, *, check_data: bool = True) -> dict[str, str]:
    """The defines of ``ak_core_contract_bind.sv`` for ``core``: its module, the
    claimed key setup per size (a size the core lacks takes the largest claim: a key
    of that size is never legal, the value is only a bound), the key sizes, whether it
    decrypts, the shadow FIFO depth (generous: four times the blocks it works on plus
    one) and whether the stall rule compares the data too."""
    # a core without claims (a bench fixture) gets the weakest bound: one cycle
    setup_max = max(core.key_setup.values(), default=1)
    d = {"AK_CC_CORE": core.top,
         "AK_CC_KEYSIZES": str(sum(1 << KEY_LEN_CODE[k] for k in core.key_sizes)),
         "AK_CC_DECRYPT": "1" if core.decrypt else "0",
         # the simulation's shadow FIFO: 4x the blocks the core works on plus one
         # (under stall a core holds more than it works on: ttable_round 8 + 1,
         # ttable_col at least 4 of its 2 in the proof)
         "AK_CC_DEPTH": str(4 * _pow2(core.in_flight + 1)),
         "AK_CC_CHECKDATA": "1" if check_data else "0"}
    for k in (128, 192, 256):
        d[f"AK_CC_SETUP{k}"] = str(core.key_setup.get(k, setup_max))
    return d


def verilator_args(core: CoreSpec) -> list[str]:
    """Verilator options that enable the bound checker's assertions."""
    return ["--assert", *(f"-D{k}={v}" for k, v in defines(core).items())]


def fingerprint(core: CoreSpec) -> str:
    """What the bound checker adds to a build of ``core`` (for build-cache keys)."""
    h = hashlib.sha256()
    for p in files():
        h.update(p.read_bytes())
    h.update(repr(sorted(defines(core).items())).encode())
    return h.hexdigest()[:16]


def bind_into(sources: Sequence[Path]) -> tuple[list[Path], list[str]]:
    """For a simulation built from ``sources`` (a system or bench that holds a registry
    core): the checker files and Verilator options that bind the contract into the
    core, or nothing when ``sources`` already bind it, hold no registry core's top, or
    hold several. The claims are those of every registry entry of that top together:
    the build's parameters are not known here, so the key sizes and directions of
    all its configurations are allowed (rule C7 refuses none of them) and each key
    size takes the setup of the first entry that has it."""
    resolved = {Path(s).resolve() for s in sources}
    if any(p.resolve() in resolved for p in files()):
        return [], []
    from aeskit.hw.registry import CORES

    tops: dict[str, list[CoreSpec]] = {}
    for core in CORES:
        if core.top in tops:
            tops[core.top].append(core)
            continue
        try:
            if manifest.module_file(core.top).resolve() in resolved:
                tops[core.top] = [core]
        except manifest.ManifestError:
            continue
    if len(tops) != 1:
        return [], []
    return files(), verilator_args(_union(next(iter(tops.values()))))


def _union(specs: list[CoreSpec]) -> CoreSpec:
    """The first of ``specs`` with the key sizes, directions and key setups of all."""
    from dataclasses import replace

    sizes = tuple(k for k in KEY_SIZES_ALL if any(k in c.key_sizes for c in specs))
    setup: dict[int, int] = {}
    for c in specs:
        for k, v in c.key_setup.items():
            setup.setdefault(k, v)
    return replace(specs[0], key_sizes=sizes, decrypt=any(c.decrypt for c in specs),
                   key_setup=setup)


def fault_core(fault: int) -> CoreSpec:
    """The bench core ``ak_contract_fault_core`` (hw/bench/contract) with rule
    C<fault> broken (0: none), and its true claims: latency and interval 3, key setup
    2, every key size, one block in flight. Used by the checker's own tests."""
    return CoreSpec(name=f"contract_fault{fault}", top="ak_contract_fault_core",
                    manifest="aeskit:bench:contract_fault_core", description="bench",
                    paper="-", parameters={"Fault": fault},
                    latency={k: 3 for k in KEY_SIZES_ALL},
                    interval={k: 3 for k in KEY_SIZES_ALL},
                    key_setup={k: 2 for k in KEY_SIZES_ALL})
