"""aeskit.hw.templates: the bench templates under hw/bench (``*.sv.tpl``, listed by
their manifests as ``user`` files) render with every value given, refuse a missing or
an extra value, and leave their documentation header out of the rendered text."""

from __future__ import annotations

import pytest

from aeskit import HW_ROOT
from aeskit.hw import manifest, templates

#: (manifest, template module) of every bench template
TEMPLATES = [("aeskit:bench:mode_sys", "ak_mode_sys"), ("aeskit:bench:lanes", "ak_lanes"),
             ("aeskit:bench:multi_instance", "ak_multi_instance"),
             ("aeskit:bench:multi_instance", "ak_multi_instance_inst"),
             ("aeskit:bench:gcm_pipe_sys", "ak_gcm_pipe_sys"),
             ("aeskit:bench:bulk_top", "ak_bulk_top")]


def test_every_template_file_is_listed() -> None:
    listed = {templates.template_path(m, t) for m, t in TEMPLATES}
    on_disk = {p.resolve() for p in (HW_ROOT / "bench").rglob("*.sv.tpl")}
    assert listed == on_disk
    for p in on_disk:
        assert manifest.owner(p).startswith("aeskit:bench:")


@pytest.mark.parametrize("core, module", TEMPLATES, ids=[t for _, t in TEMPLATES])
def test_values_must_match_the_placeholders(core: str, module: str) -> None:
    import string

    head, _, body = templates.template_path(core, module).read_text().partition("\n\n")
    names = string.Template(body).get_identifiers()
    assert names, f"{module}: a template without placeholders should be a plain .sv"
    values = {n: f"<{n}>" for n in names}
    text = templates.render(core, module, **values)
    assert "${" not in text and all(f"<{n}>" in text for n in names)
    # the header documents the template and is not rendered
    assert head.startswith(f"// {module}.sv.tpl: ") and head not in text
    with pytest.raises(templates.TemplateError, match="placeholders"):
        templates.render(core, module, **dict(list(values.items())[1:]))
    with pytest.raises(templates.TemplateError, match="placeholders"):
        templates.render(core, module, **values, not_a_placeholder=1)


def test_unknown_template_is_an_error() -> None:
    with pytest.raises(templates.TemplateError, match="no template"):
        templates.template_path("aeskit:bench:lanes", "ak_mode_sys")


def test_write_if_changed_keeps_the_file(tmp_path) -> None:
    p = templates.write_if_changed(tmp_path / "a" / "x.sv", "one\n")
    mtime = p.stat().st_mtime_ns
    assert templates.write_if_changed(p, "one\n").stat().st_mtime_ns == mtime
    assert templates.write_if_changed(p, "two\n").read_text() == "two\n"
