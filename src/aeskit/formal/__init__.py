"""Formal equivalence proofs (Yosys SAT): the runner (equiv) and the proof list (proofs)."""
