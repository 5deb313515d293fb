"""aeskit.testbench.wrapper: the generated multi-instance tops are what Verilator accepts
(lint of a two-instance top of a real module, zero warnings), name every port once,
are rewritten only when their text changes, and bad descriptions are refused."""

from __future__ import annotations

import subprocess

import pytest

from aeskit.hw import manifest
from aeskit.sim.cocotb_run import WAIVERS
from aeskit.testbench.wrapper import Instance, Prefixed, wrapper_sv, write_wrapper
from aeskit.toolchain.paths import verilator

FIFO = manifest.module_file("ak_fifo")


def _fifo(prefix: str, dw: int, depth: int) -> Instance:
    return Instance(prefix, {"Width": dw, "Depth": depth},
                    [("input", "clr_i", 1), ("input", "push_i", 1), ("input", "data_i", dw),
                     ("input", "pop_i", 1), ("input", "hold_i", 1), ("input", "release_i", 1),
                     ("input", "drop_i", 1), ("output", "valid_o", 1), ("output", "full_o", 1),
                     ("output", "data_o", dw), ("output", "count_o", depth.bit_length())])


def test_two_instances_lint_clean() -> None:
    insts = [_fifo("a_", 5, 2), _fifo("b_", 13, 8)]
    paths = write_wrapper("ak_wrapper_selftest", "ak_fifo", insts,
                          generator="tests/aeskit/testbench/test_wrapper.py",
                          public_ports_only=True)
    assert [p.suffix for p in paths] == [".vlt", ".sv"]
    text = paths[1].read_text()
    for inst in insts:
        for _, port, _ in inst.ports:
            assert text.count(f"{inst.prefix}{port}") == 2, port   # declared, connected
    assert "ak_fifo #(.Width(13), .Depth(8)) u_b (" in text
    res = subprocess.run([verilator(), "--lint-only", "-Wall", "--top-module",
                          "ak_wrapper_selftest", str(WAIVERS), str(FIFO), str(paths[1])],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0 and "%Warning" not in res.stderr, res.stderr
    # unchanged text: the file is not rewritten (build stamps stay valid)
    mtime = paths[1].stat().st_mtime_ns
    write_wrapper("ak_wrapper_selftest", "ak_fifo", insts,
                  generator="tests/aeskit/testbench/test_wrapper.py", public_ports_only=True)
    assert paths[1].stat().st_mtime_ns == mtime


def test_unclocked_instance_has_no_clock() -> None:
    text = wrapper_sv("t", "m", [Instance("x_", {}, [("input", "a_i", 3)], clocked=False)],
                      generator="g")
    assert "clk_i" not in text and "input logic [2:0] x_a_i" in text
    assert "  m u_x (\n    .a_i(x_a_i)\n  );" in text


@pytest.mark.parametrize("instances, msg", [
    ([], "at least one instance"),
    ([Instance("a_", {}, []), Instance("a_", {}, [])], "distinct"),
    ([Instance("", {}, [])], "non-empty"),
    ([Instance("a_", {}, [("inout", "x", 1)])], "bad port"),
    ([Instance("a_", {}, [("input", "x", 0)])], "bad port"),
])
def test_bad_descriptions_are_refused(instances: list[Instance], msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        wrapper_sv("t", "m", instances, generator="g")


def test_prefixed_maps_names() -> None:
    class Dut:
        m32_we_i = "handle"

    assert Prefixed(Dut(), "m32_").we_i == "handle"
    with pytest.raises(AttributeError):
        _ = Prefixed(Dut(), "m64_").we_i
