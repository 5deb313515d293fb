"""Every generated RTL file: its module and the function that renders it. Where the
file lives is the manifests' business: each generated file is listed by the ``.core``
of the design that owns it, and :func:`outputs` asks :mod:`aeskit.hw.manifest` for
its path (so moving a design moves its generated files with it)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from aeskit import REPO_ROOT
from aeskit.gen import render, tables
from aeskit.hw import manifest

#: module name -> renderer (the exact text of its file)
RTL: dict[str, Callable[[], str]] = {
    # S-box primitives (aeskit:prim:sbox_*)
    "ak_sbox": lambda: tables.sbox_sv(False),
    "ak_inv_sbox": lambda: tables.sbox_sv(True),
    "ak_gf_inv": tables.gf_inv_sv,
    "ak_affine": lambda: render.affine_sv(False),
    "ak_inv_affine": lambda: render.affine_sv(True),
    "ak_sbox_bram": lambda: tables.bram_sv(False),
    "ak_inv_sbox_bram": lambda: tables.bram_sv(True),
    "ak_sbox_rom_byte": tables.rom_byte_sv,
    "ak_sbox_comp_s1": render.comp_s1_sv,
    "ak_sbox_comp_s2": render.comp_s2_sv,
    "ak_nb_inv": render.nb_inv_sv,
    "ak_sbox_canright_encdec": render.canright_sv,
    # paper 001 (pipe2 core)
    "ak_affine_mix_column": render.affine_mix_column_sv,
    "ak_inv_mix_column_inv_affine": render.inv_mix_column_inv_affine_sv,
    # paper 002 (ueno core)
    "ak_ueno_iso": lambda: render.ueno_map_sv("iso"),
    "ak_ueno_iso_inv": lambda: render.ueno_map_sv("iso_inv"),
    "ak_ueno_affine": render.ueno_affine_sv,
    "ak_ueno_enc_column": lambda: render.ueno_map_sv("enc_column"),
    "ak_ueno_dec_column": lambda: render.ueno_map_sv("dec_column"),
    # paper 003 (tbox cores)
    "ak_tbox_ram": tables.tbox_ram_sv,
}


def outputs() -> dict[str, str]:
    """Repository-relative path -> text of every generated RTL file."""
    return {str(path(module).relative_to(REPO_ROOT)): fn() for module, fn in RTL.items()}


def path(module: str) -> Path:
    """Where the generated file of ``module`` lives (the file its manifest lists)."""
    return manifest.module_file(module)
