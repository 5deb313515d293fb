"""Each registry system's ``modes`` and ``streams`` (what the report and
``aeskit systems`` say it builds) against the mode engine instance in its RTL: the
``Modes`` and ``Streams`` parameters of its ``ak_mode_engine``, read from the source
(a ``Modes`` the system passes on from a parameter of its own: that parameter's default).
A change to one without the other fails here.

The lean peripheral (aes_lite, aes_lite_ecc, and the UART demo around it) has no mode
engine: its modes are the
``Modes`` parameter of ``ak_aes_lite`` itself (the default, 9'h087, is aes_lite's) and
the mask its rendered top sets; it runs one block at a time (``streams`` 1)."""

from __future__ import annotations

import re

import pytest

from aeskit.hw import manifest
from aeskit.hw.registry import SYSTEMS

#: the module of each system that instantiates the engine (its file from the manifests)
ENGINE_MODULE = {"cipher_ahb": "ak_cipher_ahb", "coproc": "ak_coproc", "axis_core": "ak_axis_core"}
#: systems built from another's RTL with fewer modes: the Modes of their rendered top
RENDERED = {"coproc_lite": "coproc", "coproc_cmac": "coproc"}
#: systems without the general engine: the module whose own Modes parameter selects
#: the modes (its default is the system with the module's modes, the first listed)
NO_ENGINE = {"aes_lite": "ak_aes_lite", "aes_lite_ecc": "ak_aes_lite",
             "uart_demo": "ak_aes_lite", "gcm_line": "ak_gcm_line"}


def _engine_params(text: str) -> str:
    m = re.search(r"ak_mode_engine\s*#\((.*?)\)\s*u_engine", text, re.S)
    assert m, "no 'ak_mode_engine #(...) u_engine' instance"
    return m.group(1)


def _streams(text: str, params: str) -> int:
    m = re.search(r"\.Streams\s*\(\s*(\w+)\s*\)", params)
    assert m, "the engine instance sets no Streams"
    value = m.group(1)
    if value.isdigit():
        return int(value)
    local = re.search(rf"localparam\s+int\s+{value}\s*=\s*(\d+)\s*;", text)
    assert local, f"Streams({value}): no localparam int {value}"
    return int(local.group(1))


@pytest.mark.parametrize("name", sorted(ENGINE_MODULE))
def test_system_config_matches_rtl(name: str) -> None:
    spec = next(s for s in SYSTEMS if s.name == name)
    text = manifest.module_file(ENGINE_MODULE[name]).read_text()
    params = _engine_params(text)
    m = re.search(r"\.Modes\s*\(\s*9'h([0-9a-fA-F]+)\s*\)", params)
    if m is None:
        # the system's own parameter passed on (ak_coproc's Modes): its default
        p = re.search(r"\.Modes\s*\(\s*(\w+)\s*\)", params)
        assert p, f"{name}: the engine instance sets no Modes (9'h... or a parameter)"
        m = re.search(rf"parameter\s+logic\s*\[8:0\]\s*{p.group(1)}\s*=\s*9'h([0-9a-fA-F]+)",
                      text)
        assert m, f"{name}: Modes({p.group(1)}): no parameter logic [8:0] {p.group(1)} = 9'h..."
    assert int(m.group(1), 16) == spec.modes, (name, m.group(1), hex(spec.modes))
    assert _streams(text, params) == spec.streams, name


@pytest.mark.parametrize("name", sorted(RENDERED))
def test_rendered_system_sets_its_modes(name: str, tmp_path) -> None:
    """A system with fewer modes than its RTL's default renders its top with that mask
    (the top SystemSpec.sources writes for its default core)."""
    spec = next(s for s in SYSTEMS if s.name == name)
    base = next(s for s in SYSTEMS if s.name == RENDERED[name])
    assert (spec.top, spec.manifest, spec.builder) == (base.top, base.manifest, base.builder)
    top = next(p for p in spec.sources(out_dir=tmp_path) if p.stem == spec.top)
    m = re.search(r"\.Modes\s*\(\s*9'h([0-9a-fA-F]+)\s*\)", top.read_text())
    assert m and int(m.group(1), 16) == spec.modes, (name, hex(spec.modes))
    assert spec.modes & base.modes == spec.modes


@pytest.mark.parametrize("name", sorted(NO_ENGINE))
def test_engineless_system_sets_its_modes(name: str, tmp_path) -> None:
    """A system without ak_mode_engine: no engine instance in its module, the module's
    Modes default covers the system's mask (equals it for the full build), and the top
    SystemSpec.sources renders for its default core passes exactly that mask."""
    spec = next(s for s in SYSTEMS if s.name == name)
    text = manifest.module_file(NO_ENGINE[name]).read_text()
    assert "ak_mode_engine" not in re.sub(r"//.*", "", text), name
    m = re.search(r"parameter\s+logic\s*\[8:0\]\s*Modes\s*=\s*9'h([0-9a-fA-F]+)", text)
    assert m, f"{name}: no parameter logic [8:0] Modes = 9'h..."
    default = int(m.group(1), 16)
    assert spec.modes & default == spec.modes, (name, hex(default))
    if name == min(n for n, mod in NO_ENGINE.items() if mod == NO_ENGINE[name]):
        assert spec.modes == default, (name, hex(default))
    top = next(p for p in spec.sources(out_dir=tmp_path) if p.stem == spec.top)
    r = re.search(r"\.Modes\s*\(\s*9'h([0-9a-fA-F]+)\s*\)", top.read_text())
    assert r and int(r.group(1), 16) == spec.modes, (name, hex(spec.modes))
    assert spec.streams == 1


def test_every_engine_system_is_checked() -> None:
    with_engine = {s.name for s in SYSTEMS if s.modes is not None}
    assert with_engine == set(ENGINE_MODULE) | set(RENDERED) | set(NO_ENGINE), with_engine
