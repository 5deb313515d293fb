"""SymbiYosys's ``abc`` engines (``bmc3``, ``pdr``) on Debian's ``berkeley-abc``.

YoWASP's Yosys has ABC linked in but ships no ``yosys-abc`` program, which the ``abc``
engines of SymbiYosys run; Debian's ``berkeley-abc`` (2022) is that program, two
details older than the SBY of YoWASP 0.70 expects:
  - ``pdr -l`` (print per-property status lines) does not exist; it is dropped (one
    property is proven or refuted as a whole, reported by "Property proved." or by
    "Output N ... was asserted in frame F", which SBY reads);
  - ``write_cex -a`` writes the AIGER 1.9 witness body without its header ("1", the
    bad property "bN") and its end (".", where it writes "# DONE"), with the latch
    ``fold`` added; it is rewritten, N from ABC's report, so SBY replays the
    counter-example and names the failed assertion.
Used as ``ABC="<python> -m aeskit.formal.sby_abc"`` (aeskit.formal.contract; SBY runs
the engine through a shell). Exit status: ABC's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from aeskit.toolchain.paths import ToolNotFoundError, berkeley_abc


def _latches(init: str) -> str:
    """The initial latch values cut to the model's latches: ABC's ``fold`` adds one
    for the constraints, which the 2022 ``write_cex`` keeps."""
    ywa = Path("model/design_aiger.ywa")
    if ywa.exists():
        return init[:json.loads(ywa.read_text())["latch_count"]]
    return init


def main(argv: list[str]) -> int:
    try:
        abc = berkeley_abc()
    except ToolNotFoundError as e:
        print(f"sby_abc: {e}", file=sys.stderr)
        return 127
    if len(argv) == 2 and argv[0] == "-c":
        argv = ["-c", argv[1].replace("pdr -v -l", "pdr -v")]
    proc = subprocess.Popen([abc, *argv], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    bad = None
    for line in proc.stdout:
        sys.stdout.write(line)
        sys.stdout.flush()
        m = re.match(r"Output (\d+) of miter .* was asserted in frame", line)
        if m:
            bad = int(m.group(1))
    rc = proc.wait()
    m = re.search(r"write_cex -a (\S+?)'?$", argv[-1]) if argv else None
    if m and bad is not None:
        cex = Path(m.group(1))
        if cex.exists():
            lines = cex.read_text().replace("# DONE", "").split()
            if lines and lines[0] != "1":
                cex.write_text("\n".join(["1", f"b{bad}", _latches(lines[0]), *lines[1:],
                                           "."]) + "\n")
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
