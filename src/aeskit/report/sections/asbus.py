"""Paper 000 (Yang, Wen, Fan: "Improving AES Core Performance via an Advanced ASBUS
Protocol"): ADAM (ASBUS) against XDAM (AXI) on the paper's test cases.

``collect`` runs :func:`aeskit.asbus.evaluate.evaluate` (traced simulations and the
ECP5 flow at 32/64/128 bits, both cached under ``build/asbus``); ``render`` prints the
three tables of :mod:`aeskit.asbus.tables`, the same ones ``aeskit asbus`` prints.
"""

from __future__ import annotations

from typing import Any, Callable

TITLE = "Paper 000: ASBUS against AXI"
ORDER = 5


def collect(cores: list[Any], progress: Callable[[str], None] | None, force: bool,
            device: str | None = None, seeds: tuple[int, ...] = (1,)) -> Any:
    """The paper's Table II comparison is always placed on the flow's default device
    (LFE5U-85F), whatever the report's ``device``, with the report's ``seeds``."""
    from aeskit.asbus.evaluate import evaluate

    del device
    say = progress or (lambda _m: None)
    # capture=False: the report runs jobs in threads; redirecting the process's
    # stdout/stderr into a log would swallow their progress lines
    ev = evaluate(synth=True, force=force, progress=lambda m: say(f"asbus: {m}"), capture=False,
                  placement_seeds=seeds)
    return ev.to_json()


def render(rows: list[dict[str, Any]], data: Any) -> str:
    from aeskit.asbus.evaluate import Evaluation, cached_evaluation
    from aeskit.asbus.tables import render as render_tables

    intro = [
        "The paper's system (docs/asbus.md): a DMA subsystem with two AES engines and a",
        "256-byte memory behind ASBUS (ADAM: state transfers pre-scheduled in ShiftRows /",
        "InvShiftRows order, one command for any number of states) and the same engines",
        "behind AXI4 (XDAM: one burst per state, the engine buffers and reschedules each",
        "state). Each test writes 160 bytes and reads them back (Sec. 6): 40 words linear,",
        "a 10 x 4-word block, 10 AES states through the engines. The rows cipher_stream and",
        "cipher_duplex run the cipher test as Table I counts it (ADAM only, 512-byte memory):",
        "10 states written while 10 other states are read, so one engine latency is exposed.",
        "Cycles are measured in simulation (Verilator, cocotb) from the first command to",
        "the last read beat;",
        "toggles are bit changes of every net of the DUT (VCD, each net once) inside those",
        "cycles, our stand-in for the paper's XPower dynamic energy; area and Fmax come",
        "from the project's ECP5 flow. `aeskit asbus` prints the same tables.",
        "",
    ]
    if data is None:
        # a report without synthesis: the cached simulations, if they are current
        ev = cached_evaluation()
        if ev is None:
            return "\n".join(intro) + ("Not collected (the report ran with --no-synth and "
                                       "there are no current cached runs: `aeskit asbus`).\n")
        intro.append("(Report made with --no-synth: cached simulation runs, no area.)\n")
        return "\n".join(intro) + render_tables(ev)
    return "\n".join(intro) + render_tables(Evaluation.from_json(data))
