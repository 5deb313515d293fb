"""Declarations of the registry, one module per core family.

Each module may define ``CORES`` (a tuple of :class:`~aeskit.hw.registry.CoreSpec`),
``PRIMITIVES`` (a tuple of :class:`~aeskit.hw.registry.PrimitiveSpec`), ``SYSTEMS`` (a
tuple of :class:`~aeskit.hw.registry.SystemSpec`: bus systems around a core),
``ENGINE_CONFIGS`` (a tuple of :class:`~aeskit.hw.registry.EngineConfig`: mode-engine
configurations the report synthesizes) and ``ORDER``
(an int; lower lists first, default 100). :mod:`aeskit.hw.registry` imports them all;
nothing else keeps a list of cores. Add a family by adding a module here.
"""
