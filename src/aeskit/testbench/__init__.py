"""The reusable cocotb benches: the core contract bench (:mod:`~aeskit.testbench.coretb`,
:mod:`~aeskit.testbench.corebench`), CBC at full rate, multi-instance test tops, the C
driver's executable against the co-processor RTL."""
