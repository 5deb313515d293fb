"""Paper 004 (Deshpande & Leelavathi, after Drimer, Gueneysu and Paar): the T-table
cores beside the structure and rates the paper reports.

The paper's figures (from its text; Xilinx Spartan-6 / Virtex-5, VHDL, ISE 13.2):
basic module: two 36-Kbit BRAMs + four DSP48 blocks, eight pipeline stages, one
32-bit column per cycle, two blocks interleaved; round module: four basic modules,
eight blocks in flight, latency "still 80 clock cycles"; unrolled: ten round
modules, an 80-stage pipeline with 80 BRAMs and 160 DSPs, one block per cycle;
rates: 1.76 Gbit/s (abstract) / 1.92, 1.89, 1.73 Gbit/s reported for 128-, 176- and
192-bit inputs under a 128-bit key (Sec. V/VI), "over 55 Gbit/s" for the unrolled
design. Clock rates are not comparable (different FPGA family, vendor flow, and a
paper that excludes the key expansion); cycles and structure are.
"""

from __future__ import annotations

from typing import Any

from aeskit.report.numbers import num

from aeskit.report.render import misfit_note

TITLE = "Paper 004: T-tables in block RAM (Deshpande & Leelavathi / Drimer et al.)"
ORDER = 40

#: core -> (paper structure, paper cycles per block, paper in flight, paper memories)
PAPER = {
    "ttable_col": ("basic module: 8 stages, 1 column/cycle", "40 (2 blocks / 80)", 2,
                   "2 BRAM36 + 4 DSP48"),
    "ttable_round": ("round module: 4 basic modules", "10 (8 blocks / 80)", 8,
                     "8 BRAM36 + 16 DSP48"),
    "ttable_unrolled": ("unrolled: 10 round modules, 80 stages", "1", 80,
                        "80 BRAM36 + 160 DSP48"),
}

TARGET_MBPS = 25_000.0
TARGET_LUT4 = 6_000


def render(rows: list[dict[str, Any]], data: Any) -> str:
    mine = [r for r in rows if str(r.get("core", "")).startswith("ttable_")]
    out = [
        "Paper 004 maps an AES column onto one dual-port block RAM pair (T0/T2 and their",
        "last-round forms) and an XOR cascade in DSP48 blocks. On the ECP5 the DSPs",
        "(MULT18X18D/ALU54B) have no bitwise XOR, so our cascade is LUT XORs; each lookup",
        "port always serves one row, so the T1/T3 rotations are wiring and each ROM holds",
        "T0 and T0' only (encryption and decryption words side by side, 1024 x 32). A",
        "true-dual-port DP16KD is at most 18 bits wide, so each 32-bit dual-port ROM takes",
        "two EBR: 156/188 EBR for the unrolled AES-128/192 cores. AES-256 would take 220,",
        "more than the LFE5U-85F's 208, so its first two middle-round stages hold packed",
        "17-bit words (the four bytes of a T-table word are GF(2^8) multiples of one byte;",
        "24 LUT4 a lookup widen them again), one EBR per two lookups: 204 EBR.",
        "Round keys are not part of the paper's designs; ours include them (`ak_rk_ram`,",
        "8 DP16KD, in the iterative cores; `ak_rk_store` registers in the unrolled one).",
        "",
        "| core | key | paper structure | paper cycles/block | ours latency | ours interval |"
        " in flight | LUT4 | FF | EBR | Fmax MHz | Mbps | Mbps/LUT | Mbps/EBR |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in mine:
        base = "ttable_unrolled" if r["core"].startswith("ttable_unrolled") else r["core"]
        struct, cyc, _inf, _mem = PAPER.get(base, ("-", "-", "-", "-"))
        if base == "ttable_unrolled" and r.get("key_size") in (192, 256):
            # the paper builds AES-128; the same structure at 12 / 14 rounds
            nr = 10 + (int(r["key_size"]) - 128) // 32
            struct, _inf = f"unrolled: {nr} round modules, {8 * nr} stages", 8 * nr
        ebr = r.get("ebr")
        mbps = r.get("mbps")
        per_ebr = mbps / ebr if (mbps and ebr) else None
        out.append(
            f"| {r['core']} | {r['key_size']} | {struct} | {cyc} | {num(r.get('latency'))} | "
            f"{num(r.get('interval'), 1)} | {num(_inf)} | {num(r.get('lut4'))} | "
            f"{num(r.get('ff'))} | {num(ebr)} | "
            f"{misfit_note(r) or num(r.get('fmax_mhz'), 1)} | "
            f"{num(mbps)} | {num(r.get('mbps_per_lut'), 2)} | {num(per_ebr, 1)} |")
    out.append("")
    out.append("Paper rates: 1.76 Gbit/s (abstract) and 1.92 / 1.89 / 1.73 Gbit/s for 128-, "
               "176- and 192-bit inputs (basic module, Spartan-6), over 55 Gbit/s unrolled "
               "(Virtex-5); the paper's 176/192-bit inputs are two-block messages, which we "
               "run through CTR and CBC-CS on the RTL (tests/hw/cores/ttable/"
               "test_ttable_modes.py).")
    u = next((r for r in mine if r["core"] == "ttable_unrolled" and r["key_size"] == 128), None)
    if u and misfit_note(u):
        out.append("")
        out.append(f"Benchmark target (AES-128 `ttable_unrolled`: >= 25 Gbps with <= 6,000 "
                   f"LUT4 plus block RAM): it {misfit_note(u)} -- not met.")
    elif u and u.get("mbps") and u.get("lut4"):
        ok = u["mbps"] >= TARGET_MBPS and u["lut4"] <= TARGET_LUT4
        out.append("")
        out.append(f"Benchmark target (AES-128 `ttable_unrolled`: >= 25 Gbps with <= 6,000 "
                   f"LUT4 plus block RAM): {u['mbps'] / 1000:.1f} Gbps with {u['lut4']:,} "
                   f"LUT4 and {u.get('ebr')} EBR -- {'met' if ok else 'not met'}.")
    return "\n".join(out)
