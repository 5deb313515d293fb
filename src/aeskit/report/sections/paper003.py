"""Paper 003 (Chaves, Kuzmanov, Vassiliadis, Sousa: "Reconfigurable Memory Based AES
Co-Processor"): the memory-based cores beside the paper's Tables 1, 3 and 4.

The paper's figures (Xilinx XC2VP20-7, ISE 6.3, encryption and decryption in every
core; the folded core's key expansion is outside the core, its 12 BRAMs include 4
for the expanded-key register):

* Table 1: folded 515 slices, 12 BRAM, 182 MHz, 2.33 Gbit/s, latency 10;
  unfolded inter-pp 3168 slices, 80 BRAM, 156 MHz, 19.95 Gbit/s, latency 10;
  unfolded intra-pp 3513 slices, 80 BRAM, 271 MHz, 34.7 Gbit/s, latency 30.
* Table 3 (folded comparisons): ours 515 slices, 12 BRAM, 182 MHz, latency 10,
  2332 Mbit/s, 4.6 Mbit/s per slice.
* Table 4 (unfolded comparisons): Ours-P10 3168 slices, 80 BRAM, 156 MHz, latency 10,
  19.95 Gbit/s, 6.3 Mbit/s per slice; Ours-P30 3513 slices, 80 BRAM, 272 MHz,
  latency 30, 34.76 Gbit/s, 9.9 Mbit/s per slice (Table 1 says 271 MHz).

Clock rates and slices are not comparable with ECP5 LUT4/EBR figures from Yosys and
nextpnr (different family, different memory primitive, vendor vs open flow); cycle
counts and structure are.
"""

from __future__ import annotations

from typing import Any

from aeskit.report.numbers import num

from aeskit.report.render import misfit_note

TITLE = "Paper 003: memory-based AES (Chaves et al.)"
ORDER = 30

#: core -> (paper row, paper table(s), cycles/block, latency, slices, BRAM, MHz, Gbit/s)
PAPER: dict[str, tuple[str, str, int, int, int, int, float, float]] = {
    "tbox_folded": ("folded", "Tables 1, 3", 10, 10, 515, 12, 182.0, 2.33),
    "tbox_unfolded": ("unfolded inter-pp (Ours-P10)", "Tables 1, 4", 1, 10, 3168, 80, 156.0,
                      19.95),
    "tbox_unfolded_pp": ("unfolded intra-pp (Ours-P30)", "Tables 1, 4", 1, 30, 3513, 80,
                         271.0, 34.7),
}

TARGET_PP_MBPS = 25_000.0
TARGET_PP_LUT4 = 6_000
TARGET_FOLDED_MBPS_PER_LUT = 1.0


def _find(rows: list[dict[str, Any]], core: str, ks: int = 128) -> dict[str, Any] | None:
    return next((r for r in rows if r.get("core") == core and r.get("key_size") == ks), None)


def render(rows: list[dict[str, Any]], data: Any) -> str:
    mine = [r for r in rows if str(r.get("core", "")) in PAPER]
    out = [
        "Paper 003 merges SubBytes and the MixColumns coefficients into one dual-port RAM",
        "per pair of state bytes: address {decrypt, byte}, data S(b) x {02,01,01,03} or",
        "S^-1(b) x {0e,09,0d,0b}; ShiftRows is routing with a multiplexer on rows 1 and 3",
        "only (on the RAM addresses in the unfolded cores, on the RAM output words in the",
        "folded one); the last round takes the x1 lane (encryption) or the XOR of the four",
        "lanes (decryption). On the ECP5 a DP16KD has 36-bit ports only in pseudo-dual-port mode",
        "(one read port), so each of these RAMs is 2 EBR: 16 EBR per round where the",
        "paper's Virtex-II Pro needed 8 BRAMs. Unlike the paper (key expansion in",
        "software), our cores include the hardware key expansion (`ak_rk_fill`); the",
        "folded core keeps its round keys in a RAM bank addressed by {decrypt, round}",
        "(`ak_rk_ram`, 8 EBR: two 128-bit banks), the unfolded ones in registers",
        "(`ak_rk_store`). The unfolded cores are built for AES-128 (NrMax = 10: 160 EBR);",
        "all three key sizes are a run-time choice in an NrMax = 14 build, which needs 224",
        "EBR, more than the LFE5U-85F has.",
        "",
        "| core | key | paper (table) | paper cycles/block | paper latency | paper slices |"
        " paper BRAM | paper MHz | paper Gbit/s | ours latency | ours interval | LUT4 | FF |"
        " EBR | Fmax MHz | Mbps | Mbps/LUT | Mbps/EBR |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        " --- | --- | --- | --- |",
    ]
    for r in mine:
        row, tables, cyc, lat, slices, bram, mhz, gbps = PAPER[r["core"]]
        ebr = r.get("ebr")
        mbps = r.get("mbps")
        per_ebr = mbps / ebr if (mbps and ebr) else None
        out.append(
            f"| {r['core']} | {r['key_size']} | {row} ({tables}) | {cyc} | {lat} | "
            f"{slices:,} | {bram} | {mhz:.0f} | {gbps:.2f} | {num(r.get('latency'))} | "
            f"{num(r.get('interval'), 1)} | {num(r.get('lut4'))} | {num(r.get('ff'))} | "
            f"{num(ebr)} | {misfit_note(r) or num(r.get('fmax_mhz'), 1)} | {num(mbps)} | "
            f"{num(r.get('mbps_per_lut'), 2)} | {num(per_ebr, 1)} |")
    out += [
        "",
        "Cycle counts match the paper: the folded core takes Nr cycles per block (10/12/14)",
        "with the T-box RAM output registers as its round register, also for CBC encryption",
        "when the chaining XOR is formed combinationally from `out_data_o`; the unfolded",
        "cores take one block per cycle, as the paper's, at latency 10 (RAM outputs as",
        "inter-round registers) or 30 (two more registers per round), plus 2 cycles of our",
        "output buffer (12 / 32), which lets the pipeline run without a stall enable",
        "fanning out to its 160 RAMs. Clock rates are not comparable",
        "(Virtex-II Pro with ISE 6.3 vs ECP5 with Yosys/nextpnr), and a slice is not a LUT4.",
    ]
    pp = _find(rows, "tbox_unfolded_pp")
    if pp and misfit_note(pp):
        out += ["", f"Target (benchmark, not a test): AES-128 `tbox_unfolded_pp` at "
                f"{TARGET_PP_MBPS / 1000:.0f} Gbit/s or more with at most "
                f"{TARGET_PP_LUT4:,} LUT4 plus block RAM: it {misfit_note(pp)} -- not met."]
    elif pp and pp.get("mbps") and pp.get("lut4"):
        ok = pp["mbps"] >= TARGET_PP_MBPS and pp["lut4"] <= TARGET_PP_LUT4
        out += ["", f"Target (benchmark, not a test): AES-128 `tbox_unfolded_pp` at "
                f"{TARGET_PP_MBPS / 1000:.0f} Gbit/s or more with at most "
                f"{TARGET_PP_LUT4:,} LUT4 plus block RAM: measured {pp['mbps']:,.0f} Mbit/s "
                f"with {pp['lut4']:,} LUT4 and {num(pp.get('ebr'))} EBR -- "
                f"{'met' if ok else 'not met'}."]
    fo = _find(rows, "tbox_folded")
    if fo and misfit_note(fo):
        out += ["", f"Target (benchmark): `tbox_folded` at "
                f"{TARGET_FOLDED_MBPS_PER_LUT:.1f} Mbit/s per LUT4 or more: it "
                f"{misfit_note(fo)} -- not met."]
    elif fo and fo.get("mbps_per_lut"):
        ok = fo["mbps_per_lut"] >= TARGET_FOLDED_MBPS_PER_LUT
        out += ["", f"Target (benchmark): `tbox_folded` at "
                f"{TARGET_FOLDED_MBPS_PER_LUT:.1f} Mbit/s per LUT4 or more: measured "
                f"{fo['mbps_per_lut']:.2f} (AES-128, {fo.get('lut4'):,} LUT4) -- "
                f"{'met' if ok else 'not met'}."]
    return "\n".join(out)
