"""Formal equivalence proofs with Yosys (the YoWASP build): gold vs gate.

:func:`prove_equivalent` reads both designs with ``read_slang``, flattens them,
builds a miter (``miter -equiv -flatten -make_assert``) and asks the SAT solver to
prove its assertion for every input (``sat -verify -prove-asserts``). Inputs of the
gate (or gold) can be tied to constants first (``fix=``): that is how a shared
enc/dec S-box is proven in each direction. For designs with registers, ``seq=n``
proves the outputs equal at step ``n`` from *any* initial state (steps before are not
checked: ``-seq n -prove-skip n-1``); ``seq=2`` is a complete proof for circuits
whose outputs depend on the inputs of the previous cycle only (a registered ROM).

Both designs are staged into ``out_dir/gold`` and ``out_dir/gate`` (the YoWASP tools
cannot see /tmp, so ``out_dir`` must be under the checkout, by default
``build/formal/<name>``); the script ``prove.ys`` and the log ``prove.log`` stay there.

>>> r = prove_equivalent(gold, gate, fix={"dec_i": 0})    # doctest: +SKIP
>>> r.proven, r.time_s                                    # doctest: +SKIP
"""

from __future__ import annotations

import re
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aeskit import BUILD_ROOT
from aeskit.toolchain import paths as tools
from aeskit.synth.flow import SynthTarget, stage_sources

__all__ = ["ProofResult", "FormalError", "prove_equivalent"]


class FormalError(RuntimeError):
    """The proof could not be run (a design does not elaborate, ports differ ...)."""


@dataclass
class ProofResult:
    name: str
    proven: bool
    time_s: float
    log_path: Path
    #: the lines of the SAT result (the counterexample when not proven)
    detail: str = ""
    fix: dict[str, int] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return self.proven


def _sv_value(v: Any) -> str:
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, int):
        return str(v)
    return str(v)


def _read(design: SynthTarget, work: Path, sub: str, role: str,
          fix: Mapping[str, int]) -> list[str]:
    files, incs = stage_sources(design, work / sub)
    parts = ["read_slang", "-j", "1", "-D", "SYNTHESIS"]
    for inc in incs:
        parts += ["-I", f"{sub}/{inc}"]
    for k, v in sorted(design.parameters.items()):
        parts += ["-G", f"{k}={_sv_value(v)}"]
    parts += ["--top", design.top, *(f"{sub}/{f}" for f in files)]
    # memory: a ROM (a memory with initial contents and no write port, ak_sbox_rom2)
    # becomes constant logic, so its contents are part of the proof, not free state
    lines = [" ".join(parts), f"hierarchy -check -top {design.top}", "proc", "flatten",
             "memory", f"cd {design.top}"]
    for port, val in sorted(fix.items()):
        # tie an input: drop its port status and drive the wire with a constant
        lines += [f"delete -port w:{port}", f"connect -set {port} {int(val)}"]
    lines += ["cd ..", f"rename {design.top} {role}", f"design -stash {role}_design"]
    return lines


def prove_equivalent(gold: SynthTarget, gate: SynthTarget, *, name: str | None = None,
                     fix: Mapping[str, int] | None = None,
                     fix_gold: Mapping[str, int] | None = None, seq: int = 0,
                     out_dir: Path | None = None, linear_width: int = 0,
                     timeout_s: float = 600) -> ProofResult:
    """Prove that ``gate`` computes the same outputs as ``gold`` for every input.

    ``gold``/``gate``: anything :func:`aeskit.synth.synthesize` accepts (a registry
    spec or an :class:`aeskit.synth.Design`); their ports (after ``fix``/``fix_gold``
    tie inputs to constants) must have the same names and widths. Returns a
    :class:`ProofResult` (``proven`` False with the counterexample in ``detail`` when
    the designs differ); raises :class:`FormalError` when the proof cannot be run.

    ``linear_width=n``: the XOR-only proof for GF(2)-linear maps with one input
    ``in_i[n-1:0]``. SAT solvers are slow on wide XOR miters (parity), so instead
    Yosys first asserts that both netlists, mapped to gates, contain only XOR, XNOR,
    NOT and buffer cells (so both compute affine maps of ``in_i``), and then proves
    the miter for the n+1 inputs 0 and 2^i: two affine maps that agree there agree
    everywhere.
    """
    name = name or f"{gold.name}-vs-{gate.name}"
    work = Path(out_dir) if out_dir is not None else BUILD_ROOT / "formal" / name
    work = work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    sat = "sat -verify -prove-asserts -show-inputs -show-outputs"
    if seq > 0:
        sat += f" -seq {seq}" + (f" -prove-skip {seq - 1}" if seq > 1 else "")
    sats = [f"{sat} miter"]
    affine_check: list[str] = []
    if linear_width:
        affine_check = ["techmap", "opt -fast"] + [
            f"select -assert-none {m}/t:* {m}/t:$_XOR_ {m}/t:$_XNOR_ {m}/t:$_NOT_ "
            f"{m}/t:$_BUF_ %u %u %u %d" for m in ("gold", "gate")]
        vecs = [0] + [1 << i for i in range(linear_width)]
        sats = [f"{sat} -set in_in_i {linear_width}'h{v:x} miter" for v in vecs]
    script = [
        *_read(gold, work, "gold", "gold", fix_gold or {}),
        *_read(gate, work, "gate", "gate", fix or {}),
        "design -copy-from gold_design -as gold gold",
        "design -copy-from gate_design -as gate gate",
        "memory",
        "opt -fast",
        *affine_check,
        "miter -equiv -flatten -make_assert gold gate miter",
        "hierarchy -top miter",
        "opt -fast",
        *sats,
        "",
    ]
    (work / "prove.ys").write_text("\n".join(script))
    log = work / "prove.log"
    log.unlink(missing_ok=True)
    t0 = time.monotonic()
    try:
        res = subprocess.run([*tools.yosys(), "-q", "-l", log.name, "-s", "prove.ys"], cwd=work,
                             capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired as e:
        raise FormalError(f"{name}: proof timed out after {timeout_s} s ({log})") from e
    dt = time.monotonic() - t0
    text = log.read_text() if log.is_file() else res.stdout + res.stderr
    n_ok = text.count("SAT proof finished - no model found: SUCCESS!")
    if n_ok == len(sats) and res.returncode == 0:
        return ProofResult(name, True, dt, log, "", dict(fix or {}))
    if "SAT proof finished - model found: FAIL!" in text:
        m = re.search(r"SAT proof finished - model found: FAIL!.*", text, re.S)
        return ProofResult(name, False, dt, log, m.group(0)[:4000] if m else "", dict(fix or {}))
    tail = "\n".join((text + res.stderr).splitlines()[-30:])
    raise FormalError(f"{name}: yosys could not run the proof (exit {res.returncode}), "
                      f"log {log}:\n{tail}")
