"""Does a netlist fit a device? Checked on Yosys's cell counts before nextpnr runs, and
read from nextpnr's log when placement runs out of sites.

>>> from aeskit.synth.fit import check_fit
>>> m = check_fit({"LUT4": 100, "DP16KD": 156}, "LFE5U-25F")
>>> m.message("ttable_unrolled")
'ttable_unrolled does not fit LFE5U-25F: needs 156 of 56 DP16KD'
>>> check_fit({"LUT4": 100, "DP16KD": 56}, "LFE5U-25F") is None
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aeskit.synth.devices import FAMILY_RESOURCES, Device, get_device

__all__ = ["Misfit", "check_fit", "misfit_from_nextpnr_log", "misfit_from_route_failure",
           "misfit_from_route_timeout", "needs_of"]


def _prefixed(cells: Mapping[str, int], *prefixes: str) -> int:
    return sum(int(n) for c, n in cells.items() if c.startswith(prefixes))


#: iCE40 flip-flop cells: SB_DFF, SB_DFFE, SB_DFFSR, SB_DFFNESS ...
_ICE40_FF = ("SB_DFF",)
#: Nexus flip-flop cells (FD1P3BX/DX/IX/JX) and block-RAM cells (DP16K, PDP16K, SP16K,
#: PDPSC16K)
_NEXUS_FF = ("FD1P3",)
_NEXUS_EBR = ("DP16K", "PDP16K", "SP16K", "PDPSC16K")
_NEXUS_LRAM = ("LRAM", "DPSC512K", "PDPSC512K", "SP512K")


def needs_of(cells: Mapping[str, int], family: str = "ECP5") -> dict[str, int]:
    """Sites per resource (:data:`~aeskit.synth.devices.FAMILY_RESOURCES`) that a
    Yosys netlist of ``family`` needs.

    ECP5 (``synth_ecp5``): LUT4 sites are ``LUT4 + 2*CCU2C + 2*TRELLIS_DPR16X4`` (a
    carry cell and a distributed-RAM block take two each). iCE40 (``synth_ice40``): a
    logic cell holds one LUT4, one flip-flop and one carry, so the netlist needs at
    least ``max(SB_LUT4, flip-flops, SB_CARRY)`` ICESTORM_LC (a lower bound: the packer
    pairs a LUT with a flip-flop only when the LUT drives it; nextpnr's count is the
    result). Nexus (``synth_nexus``): ``LUT4 + 2*WIDEFN9 + 2*CCU2 + 2*DPR16X4``
    OXIDE_COMB (a lower bound: INV cells may take one more), flip-flops, block RAMs,
    large RAMs, and 18x18 multipliers (a MULT18X36 takes two, a MULT36X36 four, a
    MULT9X9 one)."""
    if family == "iCE40":
        return {
            "ICESTORM_LC": max(cells.get("SB_LUT4", 0), _prefixed(cells, *_ICE40_FF),
                               cells.get("SB_CARRY", 0)),
            "ICESTORM_RAM": _prefixed(cells, "SB_RAM40_4K"),
            "ICESTORM_DSP": cells.get("SB_MAC16", 0),
            "ICESTORM_SPRAM": cells.get("SB_SPRAM256KA", 0),
        }
    if family == "Nexus":
        return {
            "OXIDE_COMB": (cells.get("LUT4", 0) + 2 * cells.get("WIDEFN9", 0)
                           + 2 * cells.get("CCU2", 0) + 2 * cells.get("DPR16X4", 0)),
            "OXIDE_FF": _prefixed(cells, *_NEXUS_FF),
            "OXIDE_EBR": sum(cells.get(c, 0) for c in _NEXUS_EBR),
            "LRAM_CORE": sum(cells.get(c, 0) for c in _NEXUS_LRAM),
            "MULT18_CORE": (cells.get("MULT9X9", 0) + cells.get("MULT18X18", 0)
                            + 2 * cells.get("MULT18X36", 0) + 4 * cells.get("MULT36X36", 0)),
        }
    if family != "ECP5":
        raise ValueError(f"unknown device family {family!r}")
    return {
        "LUT4": (cells.get("LUT4", 0) + 2 * cells.get("CCU2C", 0)
                 + 2 * cells.get("TRELLIS_DPR16X4", 0)),
        "FF": cells.get("TRELLIS_FF", 0),
        "DP16KD": cells.get("DP16KD", 0),
        "MULT18X18D": cells.get("MULT18X18D", 0),
    }


#: the start of a :class:`Misfit` ``detail`` for a net the router gave up on
_NO_ROUTE = "does not route: "


@dataclass(frozen=True)
class Misfit:
    """A design that does not fit a device: what it needs, what the device has, and
    which resources are short (``over``, in :data:`RESOURCES` order)."""

    device: str
    #: ``"yosys"`` (cell counts before place and route), ``"nextpnr"`` (placement) or
    #: ``"route"`` (the router did not resolve congestion within the flow's budget, or
    #: gave up on a net: ``detail`` says which)
    stage: str
    needs: dict[str, int]
    available: dict[str, int]
    over: tuple[str, ...]
    #: the verdict in words where no count says it (``stage == "route"``)
    detail: str = ""

    def summary(self) -> str:
        """``needs 156 of 56 DP16KD`` (every short resource, comma-separated), or the
        router's verdict (``routing congested: ...``)."""
        if self.detail:
            return self.detail
        parts = []
        for r in self.over:
            n, a = self.needs.get(r), self.available.get(r)
            if n is not None and a is not None and n > a:
                parts.append(f"{n} of {a} {r}")
            elif a is not None:  # placement ran out before the count exceeded the sites
                parts.append(f"more than the {a} {r}")
            else:
                parts.append(f"more {r} than the device has")
        return "needs " + ", ".join(parts)

    def message(self, name: str) -> str:
        """``<name> does not fit <device>: needs N of M X``: the one-line verdict
        (``<name> does not route on <device>: ...`` for a router that gave up or did
        not finish in the flow's budget)."""
        if self.detail.startswith(_NO_ROUTE):
            return f"{name} does not route on {self.device}: {self.detail[len(_NO_ROUTE):]}"
        if self.stage == "route":
            return f"{name} does not route on {self.device}: {self.summary()}"
        return f"{name} does not fit {self.device}: {self.summary()}"

    def note(self) -> str:
        """``does not fit (needs N of M X)``: a table cell (``does not route: ...`` for
        a router that gave up, ``does not route (routing congested: ...)`` for one that
        did not finish in the flow's budget)."""
        if self.detail.startswith(_NO_ROUTE):
            return self.detail
        if self.stage == "route":
            return f"does not route ({self.summary()})"
        return f"does not fit ({self.summary()})"

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"device": self.device, "stage": self.stage,
                                "needs": dict(self.needs), "available": dict(self.available),
                                "over": list(self.over)}
        if self.detail:
            data["detail"] = self.detail
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Misfit:
        return cls(device=str(data["device"]), stage=str(data["stage"]),
                   needs={k: int(v) for k, v in data["needs"].items()},
                   available={k: int(v) for k, v in data["available"].items()},
                   over=tuple(str(r) for r in data["over"]),
                   detail=str(data.get("detail", "")))


def _device(device: Device | str) -> Device:
    return device if isinstance(device, Device) else get_device(device)


def check_fit(cells: Mapping[str, int], device: Device | str) -> Misfit | None:
    """``None`` if the Yosys cell counts ``cells`` (``yosys_stat.json``) fit ``device``;
    else the :class:`Misfit`. Exactly as many as the device has fits."""
    dev = _device(device)
    needs, available = needs_of(cells, dev.family), dev.capacity()
    over = tuple(r for r in dev.resources if needs[r] > available[r])
    if not over:
        return None
    return Misfit(dev.name, "yosys", needs, available, over)


#: ``Info:           DP16KD:      57/     56   101%`` in nextpnr's device utilisation
_UTIL_RE = re.compile(r"^Info:\s+(\w+):\s+(\d+)/\s*(\d+)\s+\d+%\s*$", re.M)
_NO_BELS_RE = re.compile(r"no BELs remaining to implement cell type '?(\w+)'?")


def misfit_from_nextpnr_log(log: str, device: Device | str) -> Misfit | None:
    """The :class:`Misfit` a failed nextpnr run's log shows: a resource of the device
    utilisation over 100 %, or "no BELs remaining to implement cell type X". ``None``
    when the log shows neither (the failure is something else)."""
    dev = _device(device)
    resources = FAMILY_RESOURCES[dev.family]
    bel_to_res = {bel: res for res, bel in resources.items()}
    used: dict[str, tuple[int, int]] = {}
    for bel, n, a in _UTIL_RE.findall(log):
        used[bel_to_res.get(bel, bel)] = (int(n), int(a))
    short = {bel_to_res.get(b, b) for b in _NO_BELS_RE.findall(log)}
    short |= {r for r, (n, a) in used.items() if n > a}
    if not short:
        return None
    order = [r for r in resources if r in short] + sorted(short - set(resources))
    counted = [r for r in resources if r in used] + [r for r in order if r not in resources]
    needs = {r: used[r][0] for r in counted if r in used}
    available = {**dev.capacity(), **{r: used[r][1] for r in needs}}
    return Misfit(dev.name, "nextpnr", needs, available, tuple(order))


#: ``Info:     iter=66 wires=309082 overused=1029 overuse=1035 archfail=NA`` (router2);
#: router1 prints ``... overused=N ...`` in its progress lines as well
_OVERUSED_RE = re.compile(r"\boverused=(\d+)")


def misfit_from_route_timeout(log: str, device: Device | str, minutes: float,
                              router: str) -> Misfit:
    """The verdict on a design whose routing did not converge within ``minutes``: the
    last count of overused wires the router printed (``log``: its log so far)."""
    dev = _device(device)
    counts = _OVERUSED_RE.findall(log)
    left = f"{int(counts[-1]):,} wires still overused" if counts else "not routed"
    return Misfit(dev.name, "route", {}, {}, ("routing",),
                  detail=f"routing congested: {left} after {minutes:g} min of {router}")


#: router2 (and router1's global-clock step): ``ERROR: Failed to route arc 0.0 of net
#: 'u_dut.clk_i', from X87/Y17/JPADDI_SEIO33_CORE_IOA to X86/Y28/JCLKI_DCC_DCC1.``;
#: ``ERROR: Failed to route net 'x' from A to B using dedicated routing.``
_ROUTE_ARC_RE = re.compile(
    r"Failed to route (?:arc (?P<arc>[\d.]+) of )?net '(?P<net>[^']*)',? from (?P<src>\S+) "
    r"to (?P<dst>\S+?)\.?(?: using dedicated routing\.?)?\s*$", re.M)
#: router1: ``Warning: Failed to find a route for arc 0 of net x.``
_ROUTE_FIND_RE = re.compile(r"Failed to find a route for arc (?P<arc>\S+) of net '?(?P<net>.+?)'?\.?\s*$",
                            re.M)
_ROUTE_FAILED_RE = re.compile(r"^ERROR: Routing design failed", re.M)
#: destination wires of a global-clock buffer (Nexus DCC, iCE40 SB_GB, ECP5 DCC)
_GLOBAL_BUFFER_RE = re.compile(r"DCC|GBUFG|_GB\b|glb_netwk|GLOBAL_BUFFER", re.I)


def misfit_from_route_failure(log: str, device: Device | str, tool: str) -> Misfit | None:
    """The :class:`Misfit` (stage ``route``) of a nextpnr run whose router gave up on a
    net after placement: "Failed to route arc ... of net X, from A to B" (router2, and
    the global-clock step), "Failed to find a route for arc ... of net X" or "Routing
    design failed" (router1). ``tool`` names the nextpnr and its version (``nextpnr-nexus
    0.11.1``). ``None`` when the log shows no router failure.

    >>> m = misfit_from_route_failure("ERROR: Failed to route arc 0.0 of net 'clk', from "
    ...     "X87/Y17/JPADDI_SEIO33_CORE_IOA to X86/Y28/JCLKI_DCC_DCC1.", "LIFCL-40",
    ...     "nextpnr-nexus 0.11.1")
    >>> m.note()
    "does not route: nextpnr-nexus 0.11.1 cannot route clock net 'clk' to its global buffer (arc 0.0, X87/Y17/JPADDI_SEIO33_CORE_IOA -> X86/Y28/JCLKI_DCC_DCC1)"
    """
    dev = _device(device)
    m = _ROUTE_ARC_RE.search(log)
    if m:
        net, src, dst = m.group("net"), m.group("src"), m.group("dst")
        arc = f"arc {m.group('arc')}, " if m.group("arc") else ""
        if _GLOBAL_BUFFER_RE.search(dst):
            what = f"clock net '{net}' to its global buffer"
        else:
            what = f"net '{net}'"
        reason = f"{tool} cannot route {what} ({arc}{src} -> {dst})"
    elif (f := _ROUTE_FIND_RE.search(log)) is not None:
        reason = f"{tool} cannot route net '{f.group('net')}' (arc {f.group('arc')})"
    elif _ROUTE_FAILED_RE.search(log):
        reason = f"{tool}'s router failed"
    else:
        return None
    return Misfit(dev.name, "route", {}, {}, ("routing",), detail=_NO_ROUTE + reason)
