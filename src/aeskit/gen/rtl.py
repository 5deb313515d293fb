"""Every generated RTL file: its path relative to ``hw/`` and the function that renders
it. A file lives beside the design that owns it (its ``.core`` manifest lists it)."""

from __future__ import annotations

from collections.abc import Callable

from aeskit.gen import render, tables

#: path relative to hw/ -> renderer (the exact text of the file)
RTL: dict[str, Callable[[], str]] = {
    # S-box primitives (aeskit:prim:sbox_*)
    "primitives/sbox/ak_sbox.sv": lambda: tables.sbox_sv(False),
    "primitives/sbox/ak_inv_sbox.sv": lambda: tables.sbox_sv(True),
    "primitives/sbox/ak_gf_inv.sv": tables.gf_inv_sv,
    "primitives/sbox/ak_affine.sv": lambda: render.affine_sv(False),
    "primitives/sbox/ak_inv_affine.sv": lambda: render.affine_sv(True),
    "primitives/sbox/ak_sbox_bram.sv": lambda: tables.bram_sv(False),
    "primitives/sbox/ak_inv_sbox_bram.sv": lambda: tables.bram_sv(True),
    "primitives/sbox/ak_sbox_comp_s1.sv": render.comp_s1_sv,
    "primitives/sbox/ak_sbox_comp_s2.sv": render.comp_s2_sv,
    "primitives/sbox/ak_nb_inv.sv": render.nb_inv_sv,
    "primitives/sbox/ak_sbox_canright_encdec.sv": render.canright_sv,
    # paper 001 (pipe2 core)
    "cores/pipe2/ak_affine_mix_column.sv": render.affine_mix_column_sv,
    # paper 002 (ueno core)
    "cores/ueno/ak_ueno_iso.sv": lambda: render.ueno_map_sv("iso"),
    "cores/ueno/ak_ueno_iso_inv.sv": lambda: render.ueno_map_sv("iso_inv"),
    "cores/ueno/ak_ueno_affine.sv": render.ueno_affine_sv,
    "cores/ueno/ak_ueno_enc_column.sv": lambda: render.ueno_map_sv("enc_column"),
    "cores/ueno/ak_ueno_dec_column.sv": lambda: render.ueno_map_sv("dec_column"),
    # paper 003 (tbox cores)
    "cores/tbox/ak_tbox_ram.sv": tables.tbox_ram_sv,
}


def outputs() -> dict[str, str]:
    """Repository-relative path -> text of every generated RTL file."""
    return {f"hw/{rel}": fn() for rel, fn in RTL.items()}
