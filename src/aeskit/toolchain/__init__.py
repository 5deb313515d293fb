"""External tools (Yosys, nextpnr, Verilator, Icarus): where aeskit finds them."""
