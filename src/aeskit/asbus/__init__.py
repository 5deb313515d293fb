"""ASBUS (paper 000) reference model and test benches.

* :mod:`aeskit.asbus.model` -- the protocol in Python: LEN decoding, the byte schedule
  of every transfer mode (Fig. 7 for AES states), the command checks, and a model of
  the ADAM/XDAM memory and data paths (decrypt on write, encrypt on read, bypass).
  It is written from the protocol description, not from the RTL, and is what the
  cocotb benches check the RTL against.
* :mod:`aeskit.asbus.tb` -- cocotb drivers (ASBUS masters, MBUS processor) and the
  ADAM bench used by ``tests/hw/systems``.

The RTL is under ``hw/bus/asbus`` and ``hw/systems/adam``; see ``docs/asbus.md``.
"""

from aeskit.asbus.model import (
    MODE_BLOCK,
    MODE_LINEAR,
    MODE_STATE,
    AsbusCommand,
    DamModel,
    ProtocolError,
    beat_addresses,
    decode_len,
    encode_len,
)

__all__ = [
    "MODE_BLOCK",
    "MODE_LINEAR",
    "MODE_STATE",
    "AsbusCommand",
    "DamModel",
    "ProtocolError",
    "beat_addresses",
    "decode_len",
    "encode_len",
]
