"""Running simulators: the cocotb runner on Verilator (:mod:`aeskit.sim.cocotb_run`), the
Verilated executables of the compiled harnesses (:mod:`aeskit.sim.verilated_exe`),
lint, and the VCD toggle counter.

Beside it, by role: :mod:`aeskit.harness` (the compiled harnesses), :mod:`aeskit.testbench`
(the reusable cocotb benches), :mod:`aeskit.verif` (bus models, fuzzers, reset and
initial-state drivers, the key-wipe check), :mod:`aeskit.hw.systems` (the system-top
renderers), :mod:`aeskit.crypt` (files through the RTL)."""
