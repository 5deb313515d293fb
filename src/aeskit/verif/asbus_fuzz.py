"""ASBUS bus fuzzing (paper 000's bus, docs/asbus.md): the pieces shared by the two
fuzzers of the ASBUS endpoints,

* tests/hw/bus/asbus/test_asbus_slave_fuzz.py: ``ak_asbus_slave`` inside ``ak_adam``
  (the slave endpoint with the dispatch, the data paths, the AES engines and the memory
  that answer its queue), driven by its N masters with random legal and illegal
  commands, and checked against a byte-array memory model;
* tests/hw/bus/asbus/test_asbus_master_fuzz.py: ``ak_asbus_master`` driven on its user
  side with random legal and locally refused commands while a random responder plays
  the slave, checked cycle by cycle against a reference model of its header.

What is shared: the run size (``AK_FUZZ_N`` transactions, ``AK_FUZZ_SEED``; 3,000 in
``make test``, 100,000 in the slow variant), the hang limits, a coverage counter, the
beat count of a command as a master counts it, the labelled random LEN shapes of the
master's user side (fitting its buffer, filling it, longer than it, every LEN field at
0 = its maximum, the reserved mode), and the pytest-side runner. Seeds are fixed and
printed; every failure message names the seed and the transaction it concerns
(``seed 5, ..., transaction 1234 (...): ...``), and the same pytest test run with
``AK_FUZZ_SEED=5`` (and ``AK_FUZZ_N``) in its environment repeats the run.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from aeskit.asbus.model import MODE_BLOCK, MODE_LINEAR, MODE_STATE, decode_len
# run size, seeds and the pytest side are the shared ones of every bus fuzzer
from aeskit.verif.busfuzz import N_FAST, N_SLOW, run_fuzz, settings

__all__ = ["HANG", "HANG_REQ", "N_FAST", "N_SLOW", "Coverage", "FuzzFailure", "master_beats",
           "random_shape", "run_fuzz", "settings"]

#: cycles a handshake may wait for its partner while the other side makes no progress
#: (a GNT, a data beat, an ERR, a user-side handshake) before the bench calls it a hang
HANG = 2_000
#: cycles any one command may wait for its GNT or its completion, progress or not
HANG_REQ = 200_000


class FuzzFailure(AssertionError):
    """A check of a fuzzer failed; the message names seed and transaction."""


class Coverage:
    """Counts of what a run exercised; :meth:`require` fails on a count of zero."""

    def __init__(self) -> None:
        self.n: dict[str, int] = {}

    def __call__(self, what: str, k: int = 1) -> None:
        self.n[what] = self.n.get(what, 0) + k

    def get(self, what: str) -> int:
        return self.n.get(what, 0)

    def missing(self, wanted: Iterable[str]) -> list[str]:
        return [w for w in wanted if not self.n.get(w)]

    def require(self, wanted: Iterable[str], where: str) -> None:
        gone = self.missing(wanted)
        if gone:
            raise FuzzFailure(f"{where}: never exercised: {gone}")

    def __str__(self) -> str:
        return ", ".join(f"{k} {v}" for k, v in sorted(self.n.items()))


def master_beats(width: int, len12: int) -> int:
    """Data beats of a command as a master counts them (docs/asbus_master.md "Beat
    counts"): linear LEN[9:0], block LEN[9:6] x LEN[5:0], AES states LEN[9:0] x
    128 / W, each field value 0 its maximum (1024, 16, 64, 1024); the reserved mode 0."""
    mode, count, rows, words = decode_len(len12)
    if mode == MODE_LINEAR:
        return count
    if mode == MODE_BLOCK:
        return rows * words
    if mode == MODE_STATE:
        return count * (128 // width)
    return 0


def _len_with_beats(rng: random.Random, width: int, beats: int) -> int | None:
    """A LEN of some mode with exactly ``beats`` beats (None if no mode has it)."""
    per = 128 // width
    opts: list[int] = []
    if beats <= 1024:
        opts.append((MODE_LINEAR << 10) | (beats % 1024))
    if beats % per == 0 and beats // per <= 1024:
        opts.append((MODE_STATE << 10) | ((beats // per) % 1024))
    for words in range(1, 17):
        if beats % words == 0 and beats // words <= 64:
            opts.append((MODE_BLOCK << 10) | ((words % 16) << 6) | ((beats // words) % 64))
    return rng.choice(opts) if opts else None


def random_shape(rng: random.Random, width: int, limit: int) -> tuple[int, str]:
    """A random LEN for a master with a ``limit``-beat buffer and its label:

    * ``"fits"``: 1 .. ``limit`` beats, mostly short, in any mode;
    * ``"fills"``: exactly ``limit`` beats (the most a buffer takes);
    * ``"over"``: ``limit`` + 1 .. ``limit`` + 8 beats (refused locally);
    * ``"max"``: a field at 0, the maximum (linear / states 1024, a block of 16 words
      or 64 rows), whatever it comes to;
    * ``"reserved"``: LEN[11:10] = 3, any LEN[9:0] (no beat; the slave refuses it).
    """
    x = rng.random()
    if x < 0.72:
        hi = min(limit, 1024)
        beats = rng.randint(1, min(hi, 8)) if rng.random() < 0.75 else rng.randint(1, hi)
        ln = _len_with_beats(rng, width, beats)
        while ln is None:                      # no mode has that many beats: fewer
            beats -= 1
            ln = _len_with_beats(rng, width, beats)
        return ln, "fits"
    if x < 0.78:
        ln = _len_with_beats(rng, width, limit)
        if ln is not None:
            return ln, "fills"
    if x < 0.86:
        for _ in range(16):
            ln = _len_with_beats(rng, width, limit + rng.randint(1, 8))
            if ln is not None:
                return ln, "over"
    if x < 0.94:
        mode = rng.choice((MODE_LINEAR, MODE_STATE, MODE_BLOCK, MODE_BLOCK))
        if mode != MODE_BLOCK:
            return mode << 10, "max"
        words, rows = rng.choice(((0, rng.randrange(64)), (rng.randrange(16), 0), (0, 0)))
        return (MODE_BLOCK << 10) | (words << 6) | rows, "max"
    return (3 << 10) | rng.getrandbits(10), "reserved"
