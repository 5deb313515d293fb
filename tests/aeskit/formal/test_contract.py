"""Proofs of the core contract (:mod:`aeskit.formal.contract`): the checker
``ak_core_contract_chk`` bound into a core, bounded model checking from reset to the
core's largest key setup + largest latency + 4 cycles, every input free but for the
legal-master assumptions.

* The checker itself: on ``ak_contract_fault_core`` (hw/bench/contract) the proof
  passes with Fault = 0 and fails with Fault = n on rule Cn, with all three engines
  (the two SymbiYosys engines naming the rule).
* Every registry core with SymbiYosys and ABC's ``bmc3`` (engine ``abc``): ``make
  test`` all but four T-table cores (``ttable_unrolled`` is in), ``make test-full``
  those too (``ttable_round`` once per key size, and mixed to depth 142); the other two
  engines cross-check it on ``round`` (``make test``) and on the ten round-based cores
  (``make test-full``).
"""

from __future__ import annotations

from typing import Any

import pytest

from aeskit.formal.contract import ENGINES, RULES, proof_depth, prove_contract, rule_lines
from aeskit.hw import CORES, get_core
from aeskit.hw.contract import fault_core


def test_every_rule_has_one_assertion() -> None:
    assert sorted(rule_lines().values()) == list(RULES)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_good_core_passes(engine: str) -> None:
    r = prove_contract(fault_core(0), depth=16, engine=engine)
    assert r.status == "PASS", r.log.read_text()[-3000:]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("fault", range(1, 7))
def test_each_broken_rule_is_found(engine: str, fault: int) -> None:
    r = prove_contract(fault_core(fault), depth=16, engine=engine)
    assert r.status == "FAIL", r.log.read_text()[-3000:]
    if engine != "sat":
        # SymbiYosys names the failing assertion (the abc engine by replaying ABC's
        # counter-example with smtbmc); a dropped result (Fault 3) also
        # leaves key_ready_o high with a block counted in flight (C4)
        assert f"C{fault}" in r.failed


#: measured seconds per proof at the full depth, every input free (2026-11-26, data
#: path cut, written memories mapped and split; 2 cores). SymbiYosys with ABC's bmc3:
#: round, round_comp, round_canright, round_lutinv, ueno, ueno_mux, satoh, lutz, liu
#: 1.3-1.7 s, pipe2 4.2 s, tbox_folded 11 s, tbox_unfolded 26 s, tbox_unfolded_pp
#: 33 s, ttable_unrolled 70 s, ttable_unrolled_192 177 s, ttable_unrolled_256 200 s,
#: ttable_col 796 s. Yosys sat: the round cores 2.8-3.8 s, pipe2 19 s, tbox_folded
#: 110 s, tbox_unfolded 62 s. z3: round 19 s, pipe2 140 s.
#: In make test: the cores below (with one configuration, round_e128); the other
#: T-table cores (minutes each) and configurations in test-full.
#: ``ttable_unrolled`` (257 s) and ``tbox_unfolded_pp`` (46 s, the same RTL as
#: ``tbox_unfolded`` with its pipeline parameter) moved to test-full to keep make test in
#: its 30 minutes when the configurations and the compact class came (29 Nov 2026);
#: ``tbox_unfolded`` (42 s) followed for the same reason.
ABC_TEST = ("round", "round_e128", "round_comp", "round_canright", "round_lutinv", "pipe2", "ueno",
            "ueno_mux", "satoh", "lutz", "liu", "tbox_folded")


def _tier(names: tuple[str, ...]) -> list[Any]:
    """Every registry core; those in ``names`` in make test, the others slow."""
    return [pytest.param(c.name, marks=() if c.name in names else pytest.mark.slow)
            for c in CORES]


#: proved once per key size (the master loads keys of that size only, depth its setup +
#: latency + 4): with all three sizes mixed ``ttable_round``'s proof passed frame 148 of
#: 193 after 10 minutes, each further frame slower (250 s at frame 148); one size at a
#: time it takes 82 s (128, depth 142), 134 s (192, 164) and 612 s (256, 193)
PER_KEY_SIZE = ("ttable_round",)


def _abc_params() -> list[Any]:
    out: list[Any] = []
    for p in _tier(ABC_TEST):
        name = p.values[0]
        sizes = get_core(name).key_sizes if name in PER_KEY_SIZE else (None,)
        out += [pytest.param(name, k, marks=p.marks,
                             id=f"{name}-{k}" if k else name) for k in sizes]
    return out


@pytest.mark.parametrize(("name", "key_size"), _abc_params())
def test_registry_core_abc(name: str, key_size: int | None) -> None:
    r = prove_contract(get_core(name), engine="abc", key_size=key_size, timeout=4 * 3600)
    assert r.status == "PASS", r.log.read_text()[-3000:]


@pytest.mark.slow
def test_ttable_round_key_sizes_mixed() -> None:
    """``ttable_round`` with the three key sizes mixed, to the depth of one 128-bit key
    and block (setup 57 + latency 82 + 4 = 143; about 140 s): a change of key size is
    in the proof for that long (the full 193 does not finish, see PER_KEY_SIZE)."""
    core = get_core("ttable_round")
    r = prove_contract(core, engine="abc", depth=proof_depth(core, 128))
    assert r.status == "PASS", r.log.read_text()[-3000:]


#: the other two engines cross-check the first: round with sat in make test (z3 takes
#: 57 s on it), the round-based cores (the first ten of ABC_TEST) in make test-full
CROSS = tuple(n for n in ABC_TEST if n != "round_e128")[:10]


@pytest.mark.parametrize("name", [p for p in _tier(("round",)) if p.values[0] in CROSS])
@pytest.mark.parametrize("engine", (pytest.param("z3", marks=pytest.mark.slow), "sat"))
def test_registry_core_other_engines(engine: str, name: str) -> None:
    r = prove_contract(get_core(name), engine=engine)
    assert r.status == "PASS", r.log.read_text()[-3000:]
