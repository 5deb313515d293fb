"""Equivalence proofs for bilinear designs (GF(2^128) multipliers): a type check of the
gate netlist plus an exhaustive evaluation on a basis.

SAT cannot prove a 128-bit Karatsuba multiplier equal to a schoolbook one in useful
time (the miter of :func:`aeskit.formal.equiv.prove_equivalent` on ak_gf128_mul_kara
vs ak_gf128_mul_comb: 595,433 variables, no answer in 300 s), because the two
agree only after cancelling long XOR sums. But both are *bilinear*, and a bilinear map
is fixed by its values on a basis. The proof here has two parts, both mechanical:

1. **Type check** (abstract interpretation of the Yosys gate netlist, registers
   included). Every input port is declared ``C`` (control: the same value at every
   evaluation point, e.g. start_i), ``A`` or ``B`` (the two operands). Every net gets
   the least type of: ``C``; ``A`` (affine in the A inputs); ``B``; ``AB`` (a sum of
   products l(A) m(B) plus affine terms in A and B); ``BAD``. XOR/XNOR/NOT/BUF take the
   join; AND/OR/NAND/NOR/ANDNOT/ORNOT of a ``C`` net with anything give the other
   type (the gate is then affine in it), of an ``A`` with a ``B`` net give ``AB``,
   anything else ``BAD``; a MUX is ``A ^ S & (A ^ B)``; a flip-flop's Q the join of its
   D over all cycles (a fixpoint). Every checked output must not be ``BAD``. Then each
   output, at each cycle of a fixed control schedule, is a function
   ``f(a, b) = F(a, b) + L(a) + M(b) + c`` with F bilinear.
2. **Evaluation** of gold and gate, bit-parallel (one Python int per net holding
   all points), on the (n_A + 1)(n_B + 1) points (0 | e_i, 0 | e_j). Two functions of
   that form that agree there agree everywhere (their difference d has d(0, 0) = c,
   d(e_i, 0), d(0, e_j) and then d(e_i, e_j) fix c, L, M and F).

So a proof is complete for every value of the A and B inputs under the schedule; the
control inputs follow the schedule (start at cycle 0, fixed values after). Netlists
come from Yosys (read_slang, proc, flatten, async2sync, dffunmap, techmap, opt), so
what is proven is the RTL as Yosys reads it for synthesis (``SYNTHESIS`` defined),
the same front end as the SAT proofs. The registers start from their reset values
(async2sync turns the asynchronous reset into logic; rst_ni is held high).
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from aeskit import BUILD_ROOT
from aeskit.formal.equiv import FormalError, ProofResult, _sv_value
from aeskit.synth.flow import SynthTarget, stage_sources
from aeskit.toolchain import paths as tools

__all__ = ["Netlist", "Schedule", "prove_bilinear", "read_netlist"]

C, A, B, AB, BAD = 0, 1, 2, 3, 4
_NAMES = {C: "C", A: "A", B: "B", AB: "AB", BAD: "BAD"}


def _join(x: int, y: int) -> int:
    if x == BAD or y == BAD:
        return BAD
    if x == C:
        return y
    if y == C:
        return x
    return x if x == y else AB


def _and(x: int, y: int) -> int:
    if x == C:
        return y
    if y == C:
        return x
    if {x, y} == {A, B}:
        return AB
    return BAD


_BIN = {"$_AND_", "$_OR_", "$_NAND_", "$_NOR_", "$_ANDNOT_", "$_ORNOT_"}
_LIN = {"$_XOR_", "$_XNOR_"}
_UN = {"$_NOT_", "$_BUF_"}


@dataclass
class Netlist:
    """A flattened gate netlist of one module (Yosys JSON, after techmap)."""

    top: str
    #: port -> (direction, bits)
    ports: dict[str, tuple[str, list]]
    #: combinational cells (type, connections) in evaluation order
    comb: list[tuple[str, dict[str, list]]]
    #: flip-flops: (d bit, q bit)
    ffs: list[tuple[object, object]]


def read_netlist(design: SynthTarget, work: Path, timeout_s: float = 600) -> Netlist:
    """Read ``design`` with Yosys into a gate netlist (see the module text)."""
    work = Path(work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    files, incs = stage_sources(design, work)
    parts = ["read_slang", "-j", "1", "-D", "SYNTHESIS"]
    for inc in incs:
        parts += ["-I", inc]
    for k, v in sorted(design.parameters.items()):
        parts += ["-G", f"{k}={_sv_value(v)}"]
    parts += ["--top", design.top, *files]
    script = [" ".join(parts), f"hierarchy -check -top {design.top}", "proc", "flatten",
              "opt_clean", "async2sync", "techmap", "opt -fast", "dffunmap", "opt_clean",
              "write_json net.json", ""]
    (work / "net.ys").write_text("\n".join(script))
    res = subprocess.run([*tools.yosys(), "-q", "-l", "net.log", "-s", "net.ys"], cwd=work,
                         capture_output=True, text=True, timeout=timeout_s)
    if res.returncode != 0 or not (work / "net.json").is_file():
        raise FormalError(f"{design.name}: yosys could not read the design ({work / 'net.log'})"
                          f":\n{(res.stdout + res.stderr)[-3000:]}")
    mod = json.loads((work / "net.json").read_text())["modules"][design.top]
    ports = {n: (p["direction"], p["bits"]) for n, p in mod["ports"].items()}
    comb: list[tuple[str, dict[str, list]]] = []
    ffs: list[tuple[object, object]] = []
    for name, cell in mod["cells"].items():
        t = cell["type"]
        con = cell["connections"]
        if t == "$_DFF_P_":
            ffs.append((con["D"][0], con["Q"][0]))
        elif t in _BIN or t in _LIN or t in _UN or t == "$_MUX_":
            comb.append((t, con))
        else:
            raise FormalError(f"{design.name}: cell {name} of type {t} is not supported "
                              "by the bilinear proof")
    # topological order of the combinational cells
    driver = {}
    for i, (_t, con) in enumerate(comb):
        driver[con["Y"][0]] = i
    order: list[int] = []
    state = [0] * len(comb)
    for root in range(len(comb)):
        if state[root]:
            continue
        stack = [(root, iter(_inputs(comb[root][1])))]
        state[root] = 1
        while stack:
            i, it = stack[-1]
            for bit in it:
                j = driver.get(bit)
                if j is not None and state[j] == 0:
                    state[j] = 1
                    stack.append((j, iter(_inputs(comb[j][1]))))
                    break
                if j is not None and state[j] == 1:
                    raise FormalError(f"{design.name}: combinational loop")
            else:
                stack.pop()
                state[i] = 2
                order.append(i)
    return Netlist(design.top, ports, [comb[i] for i in order], ffs)


def _inputs(con: Mapping[str, list]) -> list:
    return [con[k][0] for k in ("A", "B", "S") if k in con]


@dataclass(frozen=True)
class Schedule:
    """Inputs per cycle and the outputs compared.

    ``types``: port -> ``"A"``/``"B"``/``"C"`` (ports not named are ``C``);
    ``cycles``: per cycle, port -> value (an int) or ``"A"``/``"B"`` (the operand
    variables: the same variables in every cycle that names them); ports not named in
    a cycle are 0; ``check``: the cycles (0-based, outputs read before that cycle's
    edge) at which the outputs of ``outputs`` are compared; ``gold_cycle``: the cycle
    of the gold design compared against (a combinational gold: 0)."""

    types: dict[str, str]
    cycles: tuple[dict[str, object], ...]
    check: tuple[int, ...]
    outputs: tuple[str, ...]
    gold_cycle: int | None = 0


def _types(net: Netlist, types: Mapping[str, str]) -> dict:
    ty: dict = {"0": C, "1": C, "x": C, "z": C}
    code = {"A": A, "B": B, "C": C}
    for name, (direction, bits) in net.ports.items():
        if direction == "input":
            for b in bits:
                ty[b] = code[types.get(name, "C")]
    for _d, q in net.ffs:
        ty[q] = C
    while True:
        for t, con in net.comb:
            ins = [ty.get(b, C) for b in _inputs(con)]
            if t in _UN:
                r = ins[0]
            elif t in _LIN:
                r = _join(ins[0], ins[1])
            elif t in _BIN:
                r = _and(ins[0], ins[1])
            else:  # $_MUX_: Y = S ? B : A = A ^ S & (A ^ B)
                r = _join(ins[0], _and(ins[2], _join(ins[0], ins[1])))
            ty[con["Y"][0]] = r
        changed = False
        for d, q in net.ffs:
            n = _join(ty[q], ty.get(d, C))
            if n != ty[q]:
                ty[q] = n
                changed = True
        if not changed:
            return ty


class _Sim:
    def __init__(self, net: Netlist, width: int) -> None:
        self.net = net
        self.mask = (1 << width) - 1
        self.v: dict = {"0": 0, "1": self.mask, "x": 0, "z": 0}
        # registers power up to all ones at every point: a schedule starts with reset
        for _d, q in net.ffs:
            self.v[q] = self.mask

    def set(self, port: str, values: Sequence[int]) -> None:
        for b, val in zip(self.net.ports[port][1], values):
            self.v[b] = val

    def get(self, port: str) -> list[int]:
        return [self.v[b] for b in self.net.ports[port][1]]

    def eval(self) -> None:
        v, m = self.v, self.mask
        for t, con in self.net.comb:
            a = v[con["A"][0]]
            if t == "$_XOR_":
                r = a ^ v[con["B"][0]]
            elif t == "$_AND_":
                r = a & v[con["B"][0]]
            elif t == "$_NOT_":
                r = a ^ m
            elif t == "$_MUX_":
                s = v[con["S"][0]]
                r = (a & ~s | v[con["B"][0]] & s) & m
            elif t == "$_OR_":
                r = a | v[con["B"][0]]
            elif t == "$_XNOR_":
                r = (a ^ v[con["B"][0]]) ^ m
            elif t == "$_NAND_":
                r = (a & v[con["B"][0]]) ^ m
            elif t == "$_NOR_":
                r = (a | v[con["B"][0]]) ^ m
            elif t == "$_ANDNOT_":
                r = a & ~v[con["B"][0]] & m
            elif t == "$_ORNOT_":
                r = (a | (v[con["B"][0]] ^ m)) & m
            else:  # $_BUF_
                r = a
            v[con["Y"][0]] = r

    def clock(self) -> None:
        new = [(q, self.v.get(d, 0)) for d, q in self.net.ffs]
        for q, val in new:
            self.v[q] = val


def _port_width(net: Netlist, port: str) -> int:
    return len(net.ports[port][1])


def prove_bilinear(gold: SynthTarget, gate: SynthTarget, gold_sched: Schedule,
                   gate_sched: Schedule, *, name: str, out_dir: Path | None = None,
                   expect: Mapping[int, Mapping[str, int]] | None = None) -> ProofResult:
    """Prove ``gate`` (under ``gate_sched``) equal to ``gold`` (under ``gold_sched``) on
    every value of the A and B inputs (see the module text). ``expect``: cycle -> port
    -> value of control outputs of the gate (done_o, ready_o) that must hold at every
    point. Raises :class:`FormalError` when a design is not bilinear in its declared
    operands (the proof does not apply)."""
    work = (Path(out_dir) if out_dir is not None else BUILD_ROOT / "formal" / name).resolve()
    t0 = time.monotonic()
    nets = {"gold": read_netlist(gold, work / "gold"), "gate": read_netlist(gate, work / "gate")}
    scheds = {"gold": gold_sched, "gate": gate_sched}
    log = [f"bilinear proof {name}: gold {gold.top} {dict(getattr(gold, 'parameters', {}))}, "
           f"gate {gate.top} {dict(getattr(gate, 'parameters', {}))}"]
    # operand widths: the A and B ports of the gate (gold's must add up the same)
    widths = {}
    for role in ("gold", "gate"):
        net, sch = nets[role], scheds[role]
        wa = sum(_port_width(net, p) for p, t in sch.types.items() if t == "A")
        wb = sum(_port_width(net, p) for p, t in sch.types.items() if t == "B")
        widths[role] = (wa, wb)
        ty = _types(net, sch.types)
        for out in sch.outputs:
            bad = [i for i, b in enumerate(net.ports[out][1]) if ty.get(b, C) == BAD]
            if bad:
                raise FormalError(f"{name}: {role} {net.top}.{out} bits {bad[:8]} are not "
                                  "bilinear in the declared operands")
        kinds = sorted({_NAMES[ty.get(b, C)] for o in sch.outputs for b in net.ports[o][1]})
        log.append(f"{role}: {len(net.comb)} gates, {len(net.ffs)} flip-flops; "
                   f"output types {kinds}")
    if widths["gold"] != widths["gate"]:
        raise FormalError(f"{name}: operand widths differ: {widths}")
    na, nb = widths["gate"]
    stride = nb + 1
    npts = (na + 1) * stride
    rep = 0
    for ia in range(na + 1):
        rep |= 1 << (ia * stride)
    a_vars = [((1 << stride) - 1) << ((k + 1) * stride) for k in range(na)]
    b_vars = [rep << (j + 1) for j in range(nb)]
    log.append(f"{npts} points ((n_A + 1)(n_B + 1), n_A = {na}, n_B = {nb})")
    mask = (1 << npts) - 1

    def run(role: str) -> dict[int, dict[str, list[int]]]:
        net, sch = nets[role], scheds[role]
        sim = _Sim(net, npts)
        seen: dict[int, dict[str, list[int]]] = {}
        ia = ib = 0
        # A/B ports in declaration order take the variables in order
        a_ports = [p for p, t in sch.types.items() if t == "A"]
        b_ports = [p for p, t in sch.types.items() if t == "B"]
        slices = {}
        for ports, pool in ((a_ports, a_vars), (b_ports, b_vars)):
            k = 0
            for p in ports:
                w = _port_width(net, p)
                slices[p] = pool[k:k + w]
                k += w
        del ia, ib
        for cyc, inputs in enumerate(sch.cycles):
            for p, (direction, bits) in net.ports.items():
                if direction != "input":
                    continue
                val = inputs.get(p, 0)
                if val in ("A", "B"):
                    sim.set(p, slices[p])
                else:
                    sim.set(p, [mask if (int(val) >> i) & 1 else 0 for i in range(len(bits))])
            sim.eval()
            if cyc in sch.check or (expect and cyc in expect):
                seen[cyc] = {o: sim.get(o) for o in net.ports if net.ports[o][0] == "output"}
            sim.clock()
        return seen

    gold_out = run("gold")
    gate_out = run("gate")
    ok = True
    detail = []
    gcyc = gold_sched.check[0]
    for cyc in gate_sched.check:
        for o in gate_sched.outputs:
            if gold_out[gcyc][o] != gate_out[cyc][o]:
                bits = [i for i, (x, y) in enumerate(zip(gold_out[gcyc][o], gate_out[cyc][o]))
                        if x != y]
                ok = False
                detail.append(f"cycle {cyc}: {o} differs in bits {bits[:16]}")
    for cyc, outs in (expect or {}).items():
        for o, want in outs.items():
            got = gate_out[cyc][o]
            for i, bitv in enumerate(got):
                if bitv != (mask if (want >> i) & 1 else 0):
                    ok = False
                    detail.append(f"cycle {cyc}: {o}[{i}] is not {(want >> i) & 1} everywhere")
    dt = time.monotonic() - t0
    log.append(("PROVEN" if ok else "FAIL") + f" in {dt:.1f} s")
    log += detail
    lp = work / "prove.log"
    lp.write_text("\n".join(log) + "\n")
    return ProofResult(name, ok, dt, lp, "\n".join(detail[:40]))
