"""Benchmarks of aeskit's own tools (``aeskit bench ...``); speeds are measured and
printed here, never asserted in tests."""
