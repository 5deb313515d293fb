"""Simulation: cocotb test benches on Verilator/Icarus (:mod:`aeskit.sim.cocotb_run`,
:mod:`aeskit.sim.coretb`) and the compiled harness for bulk runs."""
