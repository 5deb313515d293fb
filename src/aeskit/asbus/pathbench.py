"""Commands for the benches of ADAM's and XDAM's data paths (``ak_dam_wpath``,
``ak_dam_rpath``), which play the dispatcher themselves.

A :class:`PathCommand` is one command as the systems hand it to a data path, with
its random user data (write path) and the memory byte of every bus lane of every
beat (:func:`aeskit.asbus.model.beat_addresses`: the write schedule for the write
path, the read schedule for the read path). :func:`random_path_command` draws one the
way the system of the path's ``PreScheduled`` setting uses it:

* ``PreScheduled = 1`` (ADAM): linear (1..24 beats), block (1..8 rows x 1..4 words,
  random row pitch, rows may overlap) or AES states (1..4); a state command encrypts /
  decrypts in 60 % of the cases (ADAM's ``CTRL.ENC_EN`` / ``DEC_EN`` apply to state
  transfers only);
* ``PreScheduled = 0`` (XDAM): linear only (``ak_xdam`` drives ``mode_i = 0``); half of
  them cipher commands of 1..4 whole states at a 16-byte aligned address;

and 10 % of all commands discarded (``discard_i``, XDAM's refused bursts). Every
command passes :meth:`aeskit.asbus.model.DamModel.check`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from aeskit.asbus.model import (MODE_BLOCK, MODE_LINEAR, MODE_STATE, DamModel, ProtocolError,
                                beat_addresses, encode_len)

__all__ = ["PathCommand", "command_ports", "path_aw", "path_fields", "random_path_command"]


@dataclass
class PathCommand:
    master: int
    mode: int
    addr: int             # byte address
    len12: int
    pitch: int            # bytes (block mode)
    cipher: bool
    discard: bool
    n: int                # beats
    beats: list[int] = field(default_factory=list)          # write data (write path)
    vld: list[int] = field(default_factory=list)            # byte valids (write path)
    lanes: list[list[int]] = field(default_factory=list)    # memory byte per bus lane
    k: int = 0            # beats done

    @property
    def kind(self) -> str:
        """For the benches' coverage counts."""
        if self.discard:
            return "discard"
        if self.cipher:
            return "cipher"
        return {MODE_LINEAR: "linear", MODE_BLOCK: "block"}.get(self.mode, "state_bypass")


def path_aw(width: int, mem_bytes: int) -> int:
    """Word-address bits of a data path (``AW`` of the RTL)."""
    return (mem_bytes // (width // 8)).bit_length() - 1


def command_ports(width: int, mem_bytes: int, mw: int) -> list[tuple[str, str, int]]:
    """The command inputs and status outputs both data paths share (for
    :class:`aeskit.testbench.wrapper.Instance`)."""
    aw = path_aw(width, mem_bytes)
    return [("input", "rk_i", 1408), ("input", "start_i", 1), ("input", "cipher_i", 1),
            ("input", "discard_i", 1), ("input", "master_i", mw), ("input", "mode_i", 2),
            ("input", "word_i", aw), ("input", "count_i", 11), ("input", "height_i", 7),
            ("input", "width_i", 5), ("input", "pitch_i", aw),
            ("output", "idle_o", 1), ("output", "finishing_o", 1), ("output", "eng_busy_o", 1)]


def path_fields(width: int, cmd: PathCommand) -> dict[str, int]:
    """The command inputs as the systems drive them (``ak_adam``: the slave's decoded
    queue head; ``ak_xdam``: linear, count = beats)."""
    nb = width // 8
    low = cmd.len12 & 0x3FF
    return {"mode_i": (cmd.len12 >> 10) & 3, "word_i": cmd.addr // nb,
            "count_i": low or 1024, "height_i": (low & 0x3F) or 64,
            "width_i": (low >> 6) or 16, "pitch_i": cmd.pitch // nb}


def random_path_command(rng: random.Random, width: int, pre_scheduled: bool, *, write: bool,
                        mem_bytes: int, mw: int) -> PathCommand:
    """One random command (see the module doc); ``write`` adds random data beats and
    byte valids and selects the write schedule for :attr:`PathCommand.lanes`."""
    nb, per = width // 8, 128 // width
    while True:
        pitch = 0
        discard = rng.random() < 0.1
        if not pre_scheduled:
            mode = MODE_LINEAR
            cipher = not discard and rng.random() < 0.5
            if cipher:
                addr = 16 * rng.randrange(mem_bytes // 16)
                len12 = encode_len(MODE_LINEAR, rng.randint(1, 4) * per)
            else:
                addr = nb * rng.randrange(mem_bytes // nb)
                len12 = encode_len(MODE_LINEAR, rng.randint(1, 24))
        else:
            mode = rng.choice((MODE_LINEAR, MODE_BLOCK, MODE_STATE, MODE_STATE))
            cipher = mode == MODE_STATE and not discard and rng.random() < 0.6
            if mode == MODE_LINEAR:
                addr = nb * rng.randrange(mem_bytes // nb)
                len12 = encode_len(MODE_LINEAR, rng.randint(1, 24))
            elif mode == MODE_BLOCK:
                addr = nb * rng.randrange(mem_bytes // nb)
                pitch = nb * rng.randrange(mem_bytes // nb // 2)
                len12 = encode_len(MODE_BLOCK, rows=rng.randint(1, 8), words=rng.randint(1, 4))
            else:
                addr = 16 * rng.randrange(mem_bytes // 16)
                len12 = encode_len(MODE_STATE, rng.randint(1, 4))
        model = DamModel(width, mem_bytes=mem_bytes, pitch=pitch)
        try:
            model.check(addr, len12)
        except ProtocolError:
            continue
        n = model.beats(len12)
        cmd = PathCommand(master=rng.randrange(1 << mw), mode=mode, addr=addr, len12=len12,
                          pitch=pitch, cipher=cipher, discard=discard, n=n)
        if write:
            cmd.beats = [rng.getrandbits(width) for _ in range(n)]
            cmd.vld = [rng.getrandbits(nb) if rng.random() < 0.3 else (1 << nb) - 1
                       for _ in range(n)]
        cmd.lanes = beat_addresses(width, addr, len12, pitch=pitch, read=not write)
        return cmd
