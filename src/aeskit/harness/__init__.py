"""The compiled Verilator harnesses: a core alone (:mod:`aeskit.harness.core`) and the
mode engine over a core (:mod:`aeskit.harness.modes`), their C++ sources in ``cpp/``."""
