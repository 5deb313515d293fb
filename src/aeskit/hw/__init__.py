"""The hardware registry: every core configuration aeskit knows, in one list."""

from aeskit.hw.registry import (
    CORES,
    PRIMITIVES,
    CoreSpec,
    PrimitiveSpec,
    SYSTEMS,
    SystemSpec,
    UnknownCoreError,
    get_system,
    get_core,
    core_names,
)

__all__ = [
    "CORES",
    "PRIMITIVES",
    "CoreSpec",
    "PrimitiveSpec",
    "SYSTEMS",
    "SystemSpec",
    "UnknownCoreError",
    "get_system",
    "get_core",
    "core_names",
]
