"""Verification models for the benches: bus fuzzers and memory models (AXI4-Lite, AXI4,
AHB, ASBUS, AXI4-Stream), the reset and initial-state drivers, the key-wipe check."""
