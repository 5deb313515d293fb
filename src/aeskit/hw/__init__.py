"""The hardware registry: every core configuration aeskit knows, in one list."""

from aeskit.hw.registry import (
    CORES,
    PRIMITIVES,
    ENGINE_CONFIGS,
    CoreSpec,
    EngineConfig,
    PrimitiveSpec,
    SYSTEMS,
    SystemSpec,
    UnknownCoreError,
    get_engine_config,
    get_system,
    get_core,
    core_names,
)

__all__ = [
    "CORES",
    "PRIMITIVES",
    "ENGINE_CONFIGS",
    "CoreSpec",
    "EngineConfig",
    "PrimitiveSpec",
    "SYSTEMS",
    "SystemSpec",
    "UnknownCoreError",
    "get_engine_config",
    "get_system",
    "get_core",
    "core_names",
]
