"""One registry of cores: the CLI, the tests, the synthesis flow and the report
all read it, and nothing else keeps a second list. File lists are not kept here:
each entry names its FuseSoC manifest (:mod:`aeskit.hw.manifest`), which is the
only place files are listed; the registry keeps what FuseSoC has no field for
(capabilities, claimed cycle counts, paper, report grouping).

Every core speaks the core contract of ``docs/core-contract.md``. ``latency`` and
``interval`` are the *claimed* cycle counts per key size (the report measures them
and shows both):

* latency: cycles from the clock edge that accepts a block (``in_valid_i &&
  in_ready_o``) to the first clock edge at which ``out_valid_o`` is high;
* interval: cycles between two accepted blocks of one stream when the core is fed
  continuously and never stalled (ECB), i.e. the initiation interval.

``aeskit cores --json`` prints :func:`registry_json`; its field names are a public
interface and stay stable.

Cores outside the repository: a folder named in ``$AESKIT_EXTRA_HW`` (see
:mod:`aeskit.hw.manifest`) is an extra root; its ``.core`` files join the manifests
and every ``catalog.py`` under it joins the registry as one more declaration module
(same ``CORES``/``PRIMITIVES``/``SYSTEMS``/``ENGINE_CONFIGS``/``ORDER`` fields as
``aeskit.hw.catalog``'s). The registry is fixed at import, so set the variable before
starting aeskit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import HW_ROOT
from aeskit.hw import manifest as _manifest

KEY_SIZES_ALL: tuple[int, ...] = (128, 192, 256)
#: the mode engine's ``Modes`` parameter with every mode built: bit m builds the mode
#: of code m (:class:`aeskit.hw.codes.Mode`: 0 ECB .. 8 XTS)
ALL_MODES = 0x1FF
#: key_len_i encoding of the core contract
KEY_LEN_CODE: dict[int, int] = {128: 0, 192: 1, 256: 2}
#: rounds per key size
ROUNDS: dict[int, int] = {128: 10, 192: 12, 256: 14}


class UnknownCoreError(KeyError):
    """Raised for a core name the registry does not hold."""

    def __str__(self) -> str:  # KeyError quotes its message; keep it readable
        return str(self.args[0])


@dataclass(frozen=True)
class CoreSpec:
    """One core configuration."""

    name: str
    top: str
    description: str
    paper: str
    key_sizes: tuple[int, ...] = KEY_SIZES_ALL
    decrypt: bool = True
    sbox: str = "table"
    parameters: dict[str, Any] = field(default_factory=dict)
    include_dirs: tuple[str, ...] = ()
    #: claimed latency per key size, cycles
    latency: dict[int, int] = field(default_factory=dict)
    #: claimed initiation interval per key size, cycles
    interval: dict[int, int] = field(default_factory=dict)
    #: blocks the core can hold in flight (tags tell them apart)
    in_flight: int = 1
    #: claimed key setup per key size: cycles from the key handshake edge until
    #: ``in_ready_o`` is high
    key_setup: dict[int, int] = field(default_factory=dict)
    #: nextpnr router for this core instead of the flow's block-RAM rule
    #: (``aeskit.synth.flow.router_for``; part of the hash when set): for a core the
    #: rule's router does not route in reasonable time
    router: str | None = None
    #: nextpnr placer for this core instead of nextpnr's default (``heap``; one of
    #: ``aeskit.synth.flow.PLACERS``; part of the hash when set): for a core whose
    #: HeAP placement is too dense to route
    placer: str | None = None
    #: EBR rows of the LFE5U-85F to pin the core's block RAMs to, in name order
    #: (``aeskit.synth.floorplan``; part of the hash when set)
    ram_rows: tuple[int, ...] | None = None
    #: name of the FuseSoC manifest (``hw/**/*.core``) that builds ``top``; default:
    #: the manifest that lists ``top``'s file
    manifest: str | None = None

    def manifest_name(self) -> str:
        return self.manifest or _manifest.owner(_manifest.module_file(self.top))

    def file_paths(self) -> list[Path]:
        """Source files in compile order, read from the manifests (dependencies first)."""
        return _manifest.sources(self.manifest_name())

    @property
    def files(self) -> tuple[str, ...]:
        """:meth:`file_paths` relative to ``hw/`` (absolute for a file outside it)."""
        return _rel_hw(self.file_paths())

    def include_paths(self) -> list[Path]:
        return [HW_ROOT / d for d in self.include_dirs]

    def blocks_in_flight(self) -> int:
        """Blocks the core holds at once when fed at its interval: the largest
        ceil(latency / interval) over its key sizes (1 for an iterative core, 9 for
        ``ttable_round``, 83 for ``ttable_unrolled``)."""
        return max(-(-self.latency[k] // self.interval[k]) for k in self.latency)

    def engine_in_flight(self) -> int:
        """The mode engine's ``InFlight`` for a system on this core with the engine's
        input slice (``CoreInReg`` = 2): every block the core holds at once
        (:meth:`blocks_in_flight`) plus the two the slice holds, so an independent
        flow (ECB, CTR, CBC and CFB decryption) runs at the core's interval."""
        return max(2, self.blocks_in_flight() + 2)

    def engine_caps(self) -> str:
        """The mode engine's ``CoreDirections`` and ``CoreKeySizes`` for a system on
        this core, as parameter overrides (``", .CoreDirections(2'b01), ..."``); empty
        for a core of both directions and every key size (the engine's defaults), so a
        full build renders as before. docs/core-contract.md, "Configurations"."""
        if self.decrypt and tuple(self.key_sizes) == KEY_SIZES_ALL:
            return ""
        dirs = 3 if self.decrypt else 1
        return (f", .CoreDirections(2'b{dirs:02b}), "
                f".CoreKeySizes(3'b{key_sizes_mask(self.key_sizes):03b})")

    def source_hash(self) -> str:
        """Hash of everything that defines the built hardware (:func:`aeskit.sources.source_hash`)."""
        from aeskit.sources import source_hash

        return source_hash(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "top": self.top,
            "manifest": self.manifest_name(),
            "files": [str(p) for p in self.file_paths()],
            "include_dirs": [str(p) for p in self.include_paths()],
            "parameters": dict(self.parameters),
            "key_sizes": list(self.key_sizes),
            "decrypt": self.decrypt,
            "sbox": self.sbox,
            "latency": {str(k): v for k, v in self.latency.items()},
            "interval": {str(k): v for k, v in self.interval.items()},
            "key_setup": {str(k): v for k, v in self.key_setup.items()},
            "in_flight": self.in_flight,
            "paper": self.paper,
            "description": self.description,
        }


@dataclass(frozen=True)
class PrimitiveSpec:
    """A shared primitive (S-box, MixColumns, key-schedule step)."""

    name: str
    kind: str
    top: str
    description: str
    #: parameters of ``top`` that make this variant (e.g. ak_sbox_sel's Impl)
    parameters: dict[str, int] = field(default_factory=dict)
    #: FuseSoC manifest that builds ``top`` (default: the one that lists its file)
    manifest: str | None = None

    def manifest_name(self) -> str:
        return self.manifest or _manifest.owner(_manifest.module_file(self.top))

    def file_paths(self) -> list[Path]:
        """Source files in compile order, read from the manifests."""
        return _manifest.sources(self.manifest_name())

    @property
    def files(self) -> tuple[str, ...]:
        return _rel_hw(self.file_paths())


@dataclass(frozen=True)
class SystemSpec:
    """A bus system or SoC peripheral built around the mode engine and a core.

    A system whose core is chosen per build (SystemVerilog cannot take a module name
    as a parameter) names a ``builder``: a renderer of :mod:`aeskit.hw.systems` with the
    signature of :func:`aeskit.hw.systems.coproc.system_files` -- ``(core, out_dir,
    modes=...) -> sources`` -- that renders its top from the manifest's template for one
    registry core. A system with a fixed core (``builder`` None) is built from its
    manifest alone.
    """

    name: str
    top: str
    description: str
    paper: str
    #: FuseSoC manifest of the system's RTL (and its template, if any)
    manifest: str
    #: the core a synthesis or a measurement uses unless told otherwise
    default_core: str
    #: the renderer of the top for any core (None: fixed core)
    builder: Callable[..., list[Path]] | None = None
    #: bus interfaces, for the listings ("AXI4-Lite slave, AXI4 master", ...)
    interfaces: str = ""
    #: nextpnr router instead of the flow's rule (see :class:`CoreSpec`)
    router: str | None = None
    #: nextpnr placer instead of nextpnr's default (see :class:`CoreSpec`)
    placer: str | None = None
    #: the modes the system runs: its engine's ``Modes`` mask (bit m: mode code m)
    modes: int = ALL_MODES
    #: the engine's ``Streams``
    streams: int = 1

    def sources(self, core: str | None = None, out_dir: Path | None = None) -> list[Path]:
        """Every source in compile order for ``core`` (default :attr:`default_core`);
        a rendered top goes into ``out_dir`` (default ``build/systems/<name>/<core>``)."""
        from aeskit import BUILD_ROOT

        if self.builder is None:
            if core not in (None, self.default_core):
                raise ValueError(f"system {self.name} is built on {self.default_core} only")
            return _manifest.sources(self.manifest)
        spec = get_core(core or self.default_core)
        build = self.builder
        out = out_dir if out_dir is not None else BUILD_ROOT / "systems" / self.name / spec.name
        # a system built for fewer modes than all renders its top with that Modes mask
        # (a builder takes ``modes``); the full build keeps the RTL default
        if self.modes != ALL_MODES:
            return list(build(spec, out, modes=self.modes))
        return list(build(spec, out))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "top": self.top, "manifest": self.manifest,
                "default_core": self.default_core, "any_core": self.builder is not None,
                "interfaces": self.interfaces, "paper": self.paper,
                "description": self.description, "modes": list(mode_names(self.modes)),
                "streams": self.streams}


def mode_names(mask: int) -> tuple[str, ...]:
    """The modes of an engine ``Modes`` mask, lower-case (``("ecb", "cbc", "ctr")``
    for 0x007), in code order."""
    from aeskit.hw.codes import Mode

    if not 0 <= mask <= ALL_MODES:
        raise ValueError(f"Modes mask {mask:#x} outside 0..{ALL_MODES:#x}")
    return tuple(m.name.lower() for m in Mode if mask >> int(m) & 1)


@dataclass(frozen=True)
class EngineConfig:
    """A configuration of the mode engine as a user would pick it: the engine's
    ``Modes`` mask and ``Streams`` on a core. The report synthesizes each as
    ``ak_mode_sys`` (the engine and the core, no bus:
    :func:`aeskit.harness.modes.config_build`,
    :func:`aeskit.report.sections.paper001.engine_design`)."""

    name: str
    #: the engine's ``Modes`` parameter (bit m builds the mode of code m)
    modes: int
    #: the engine's ``Streams`` parameter (1 or 2)
    streams: int
    description: str
    #: the core under the engine
    core: str = "pipe2"
    #: the engine's ``CoreInReg`` parameter (a register before the core)
    core_in_reg: bool = False

    def __post_init__(self) -> None:
        mode_names(self.modes)  # a mask out of range raises here
        if self.streams not in (1, 2):
            raise ValueError(f"engine configuration {self.name}: streams must be 1 or 2")

    def mode_names(self) -> tuple[str, ...]:
        return mode_names(self.modes)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "modes": list(self.mode_names()),
                "modes_mask": self.modes, "streams": self.streams, "core": self.core,
                "core_in_reg": self.core_in_reg, "description": self.description}


#: the ``Directions`` build parameter (docs/core-contract.md, "Configurations"): bit 0
#: builds encryption, bit 1 decryption
DIR_ENCRYPT, DIR_DECRYPT, DIR_BOTH = 1, 2, 3


def key_sizes_mask(key_sizes: tuple[int, ...] | list[int]) -> int:
    """The ``KeySizes`` build parameter for ``key_sizes``: bit ``KEY_LEN_CODE[k]`` per
    size (128 -> 1, 128 and 256 -> 5, all three -> 7)."""
    return sum(1 << KEY_LEN_CODE[k] for k in set(key_sizes))


def config_suffix(key_sizes: tuple[int, ...], decrypt: bool) -> str:
    """The name suffix of a configuration (docs/core-contract.md): ``e`` for encrypt
    only, then the key sizes built unless all three, joined by ``_``: ``e128``,
    ``e``, ``128``, ``e128_256``."""
    sizes = "" if tuple(sorted(key_sizes)) == KEY_SIZES_ALL else \
        "_".join(str(k) for k in sorted(key_sizes))
    return ("" if decrypt else "e") + sizes


def configuration(base: CoreSpec, *, key_sizes: tuple[int, ...] = KEY_SIZES_ALL,
                  decrypt: bool = True, name: str | None = None) -> CoreSpec:
    """``base`` (a full build: both directions, its key sizes) built for ``key_sizes``
    and, with ``decrypt`` False, encryption only: its ``Directions`` and ``KeySizes``
    parameters set, capabilities and claims cut to what is built (the cycle counts of
    a size do not change), named ``<base>_<config_suffix>`` unless ``name`` is given.
    Decrypt-only builds (``Directions`` = 2) exist in the RTL but have no registry
    entry: the registry has no field for a core that does not encrypt."""
    from dataclasses import replace

    ks = tuple(k for k in KEY_SIZES_ALL if k in key_sizes)
    if not ks or not set(ks) <= set(base.key_sizes):
        raise ValueError(f"{base.name}: key sizes {key_sizes} not a subset of "
                         f"{base.key_sizes}")
    if decrypt and not base.decrypt:
        raise ValueError(f"{base.name} does not decrypt")
    if ks == tuple(base.key_sizes) and decrypt == base.decrypt:
        raise ValueError(f"{base.name}: the configuration is the full build")
    what = ("encryption only" if not decrypt else "both directions") + ", AES-" + \
        "/".join(str(k) for k in ks)
    params = {**base.parameters, "Directions": DIR_BOTH if decrypt else DIR_ENCRYPT,
              "KeySizes": key_sizes_mask(ks)}
    return replace(
        base, name=name or f"{base.name}_{config_suffix(ks, decrypt)}",
        description=f"{base.name} built for {what} (Directions = {params['Directions']}, "
                    f"KeySizes = {params['KeySizes']}); refuses the rest "
                    "(docs/core-contract.md)",
        key_sizes=ks, decrypt=decrypt, parameters=params,
        latency={k: v for k, v in base.latency.items() if k in ks},
        interval={k: v for k, v in base.interval.items() if k in ks},
        key_setup={k: v for k, v in base.key_setup.items() if k in ks})


def _rel_hw(paths: list[Path]) -> tuple[str, ...]:
    return tuple(str(p.relative_to(HW_ROOT)) if p.is_relative_to(HW_ROOT) else str(p)
                 for p in paths)


# --------------------------------------------------------------------------------
# The lists, assembled from the declaration modules of aeskit.hw.catalog
# --------------------------------------------------------------------------------
def _extra_catalogs() -> list[Any]:
    """The ``catalog.py`` modules under the extra manifest roots, imported by path."""
    import importlib.util
    import sys

    mods = []
    for root in _manifest.extra_roots():
        for path in sorted(root.rglob("catalog.py")):
            name = "aeskit_extra_catalog_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
            spec = importlib.util.spec_from_file_location(name, path)
            assert spec is not None and spec.loader is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            spec.loader.exec_module(mod)
            mods.append(mod)
    return mods


def _collect() -> tuple[tuple[CoreSpec, ...], tuple[PrimitiveSpec, ...],
                        tuple[SystemSpec, ...], tuple[EngineConfig, ...]]:
    """Import every module of :mod:`aeskit.hw.catalog` and every ``catalog.py`` of
    the extra roots (ordered by their ``ORDER``, then name) and concatenate their
    ``CORES``, ``PRIMITIVES``, ``SYSTEMS`` and ``ENGINE_CONFIGS``.

    One registry, declared in one small module per core family, so that adding a
    family never edits a shared list. Duplicate names are an error.
    """
    import importlib
    import pkgutil

    from aeskit.hw import catalog

    mods = [importlib.import_module(f"{catalog.__name__}.{m.name}")
            for m in pkgutil.iter_modules(catalog.__path__) if not m.name.startswith("_")]
    mods += _extra_catalogs()
    mods.sort(key=lambda m: (getattr(m, "ORDER", 100), m.__name__))
    cores: list[CoreSpec] = []
    prims: list[PrimitiveSpec] = []
    systems: list[SystemSpec] = []
    engines: list[EngineConfig] = []
    for m in mods:
        cores += getattr(m, "CORES", ())
        prims += getattr(m, "PRIMITIVES", ())
        systems += getattr(m, "SYSTEMS", ())
        engines += getattr(m, "ENGINE_CONFIGS", ())
    for kind, items in (("core", cores), ("primitive", prims), ("system", systems),
                        ("engine configuration", engines)):
        names = [i.name for i in items]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise RuntimeError(f"duplicate {kind} names in the registry: {', '.join(dup)}")
    return tuple(cores), tuple(prims), tuple(systems), tuple(engines)


CORES, PRIMITIVES, SYSTEMS, ENGINE_CONFIGS = _collect()


def core_names() -> list[str]:
    return [c.name for c in CORES]


def get_core(name: str) -> CoreSpec:
    for c in CORES:
        if c.name == name:
            return c
    raise UnknownCoreError(
        f"unknown core {name!r}; known cores: {', '.join(core_names())}"
    )


def system_names() -> list[str]:
    return [s.name for s in SYSTEMS]


def get_system(name: str) -> SystemSpec:
    for s in SYSTEMS:
        if s.name == name:
            return s
    raise UnknownCoreError(
        f"unknown system {name!r}; known systems: {', '.join(system_names())}"
    )


def get_engine_config(name: str) -> EngineConfig:
    for e in ENGINE_CONFIGS:
        if e.name == name:
            return e
    raise UnknownCoreError(f"unknown engine configuration {name!r}; known: "
                           f"{', '.join(e.name for e in ENGINE_CONFIGS)}")


def registry_json() -> list[dict[str, Any]]:
    return [c.to_json() for c in CORES]
