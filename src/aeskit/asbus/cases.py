"""The paper's test cases (Sec. 6) as ASBUS command lists, and their cycle records.

Each case writes 160 bytes and reads them back (master 0 writes, like the paper's
USB 2.0 host; master 1 reads, like its Wi-Fi MAC), at any of the three bus widths:

* ``linear``: 40 32-bit words = 160 bytes at address 0, one linear command each way;
* ``block``: 10 rows x 4 words (16 bytes per row), row pitch 24 bytes (16 at 128 bits,
  where the pitch must be a multiple of the beat), one block command each way;
* ``cipher``: 10 AES states at address 0, one state command each way, DEC_EN and
  ENC_EN on: ciphertext in, plaintext in memory, ciphertext back out.

And the scenario Table I counts for the cipher test (:data:`STREAM_TESTS`, ADAM only,
on a :data:`STREAM_MEM_BYTES`-byte memory): master 0 writes the ``cipher`` case's 10
states at address 0 (decrypted into memory) while master 1 reads 10 *other* states
(plaintext preloaded at :data:`STREAM_READ_ADDR` by a bypass linear write before the
measured cycles), which come out encrypted. The read does not wait for the states just
written, so one engine latency is exposed:

* ``cipher_stream``: Table I's stream; the read's REQ two cycles before the write's
  last beat (:func:`stream_read_delay`), so that its command phase hides under the
  write's data phase and, were it a bypass read, its first beat would follow the
  write's last beat in the next cycle;
* ``cipher_duplex``: both REQs in the same cycle (full duplex, which Table I's one
  stream does not count).

:class:`CycleRecord` is what a CLI or the report prints: measured cycles beside the
static model (:mod:`aeskit.busmodel`, Table IV's workload) and the paper.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace

from aeskit.asbus.model import MODE_BLOCK, MODE_LINEAR, MODE_STATE, AsbusCommand, DamModel, encode_len
from aeskit.busmodel import PAPER_TABLE_IV_CYCLES, WIDTHS, table_iv_workload

__all__ = ["ENGINE_LATENCY", "STREAM_MEM_BYTES", "STREAM_READ_ADDR", "STREAM_TESTS", "TESTS",
           "CycleRecord", "StreamCase", "expected_asbus_cycles", "expected_stream_cycles",
           "paper_case", "record", "stream_case", "stream_read_delay", "table_iv_row",
           "with_window"]

TESTS = ("linear", "block", "cipher")
#: the cipher test in the scenario Table I counts (ADAM only; see the module doc)
STREAM_TESTS = ("cipher_stream", "cipher_duplex")
#: memory of the ADAM build that runs :data:`STREAM_TESTS`: 20 states = 320 bytes do
#: not fit the paper's 256
STREAM_MEM_BYTES = 512
PAYLOAD = 160
ROWS, ROW_BYTES = 10, 16
#: the read states of :data:`STREAM_TESTS`: bytes 160..319, right above the write's
STREAM_READ_ADDR = PAYLOAD


def block_pitch(width: int) -> int:
    """Row pitch of the block case: 24 bytes, or 16 where 24 is not a whole beat."""
    return 24 if 24 % (width // 8) == 0 else 16


def paper_case(test: str, width: int, seed: int = 0) -> tuple[DamModel, AsbusCommand, AsbusCommand]:
    """``(model, write, read)`` for one test case; the model is configured (key, pitch,
    CTRL) but holds no data yet. Data are random from ``seed``."""
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}")
    if width not in WIDTHS:
        raise ValueError(f"width must be one of {WIDTHS}, got {width!r}")
    rng = random.Random(f"{test}-{width}-{seed}")
    nb = width // 8
    model = DamModel(width)
    if test == "linear":
        ln = encode_len(MODE_LINEAR, PAYLOAD // nb)
    elif test == "block":
        model.pitch = block_pitch(width)
        ln = encode_len(MODE_BLOCK, rows=ROWS, words=ROW_BYTES // nb)
    else:
        model.key = rng.randbytes(16)
        model.dec_en = model.enc_en = True
        ln = encode_len(MODE_STATE, PAYLOAD // 16)
    beats = model.beats(ln)
    data = [rng.getrandbits(width) for _ in range(beats)]
    return model, AsbusCommand(True, 0, ln, data), AsbusCommand(False, 0, ln)


#: ADAM engine latency, first beat in to first beat out (ak_dam_aes_engine header)
ENGINE_LATENCY = {32: 47, 64: 29, 128: 20}


def expected_asbus_cycles(test: str, width: int) -> tuple[int, int]:
    """Cycle-accurate expectation for a paper case on ADAM: ``(write, whole test)``, the
    write from its REQ to its last beat, the test from the write's REQ to the last read
    beat (write and read REQ in the same cycle, no wait states). The write takes 2
    command cycles + its beats (+ the engine latency until the last state is in memory,
    cipher); the read is queued behind it (same bytes) and starts the cycle after the
    write path is free, then 1 memory cycle (+ the engine latency, cipher) and its
    beats. See docs/asbus.md, "Measured cycles"."""
    model, wcmd, _ = paper_case(test, width)
    n = model.beats(wcmd.len12)
    write = 2 + n                      # REQ, GNT, n beats (no wait states)
    lat = ENGINE_LATENCY[width]
    if test == "cipher":
        # the last write beat is taken in cycle write - 1; the last plaintext beat
        # leaves the engine lat cycles later (beat j of a state leaves lat + j cycles
        # after the state's first beat); the read is dispatched in the cycle after
        # that, issues its first memory read one cycle later, whose data enter the
        # encrypting engine one cycle later again and leave it lat cycles after that
        last_mem = (write - 1) + lat
        first_out = last_mem + 3 + lat
    else:
        # the read is dispatched the cycle after the last write beat, issues its
        # first memory read one cycle later, data on RDATA one cycle after that
        first_out = (write - 1) + 3
    return write, first_out + n        # cycles 0 .. first_out + n - 1


@dataclass(frozen=True)
class StreamCase:
    """One of :data:`STREAM_TESTS`: ``model`` (configured on a
    :data:`STREAM_MEM_BYTES`-byte memory, no data yet), ``preload`` (a linear write of
    the plaintext the read encrypts, always bypass, before the measured cycles),
    ``write`` (the ``cipher`` case's 10 states at 0) and ``read`` (10 states at
    :data:`STREAM_READ_ADDR`)."""

    model: DamModel
    preload: AsbusCommand
    write: AsbusCommand
    read: AsbusCommand


def stream_case(test: str, width: int, seed: int = 0) -> StreamCase:
    """The commands of a stream test; data are random from ``seed``."""
    if test not in STREAM_TESTS:
        raise ValueError(f"test must be one of {STREAM_TESTS}, got {test!r}")
    cipher, wcmd, _ = paper_case("cipher", width, seed=seed)
    model = DamModel(width, mem_bytes=STREAM_MEM_BYTES, key=cipher.key, dec_en=True,
                     enc_en=True)
    rng = random.Random(f"{test}-{width}-{seed}")
    n = PAYLOAD // (width // 8)
    preload = AsbusCommand(True, STREAM_READ_ADDR, encode_len(MODE_LINEAR, n),
                           [rng.getrandbits(width) for _ in range(n)])
    read = AsbusCommand(False, STREAM_READ_ADDR, encode_len(MODE_STATE, PAYLOAD // 16))
    return StreamCase(model, preload, wcmd, read)


def stream_read_delay(test: str, width: int) -> int:
    """Cycles from the write's REQ to the read's REQ. ``cipher_stream``: the write's
    last beat is in cycle ``n + 1`` (REQ 0, GNT 1, beats 2 .. n + 1), and a read's
    first beat comes 3 cycles after its REQ (GNT, memory read, RDATA), so REQ in
    ``n - 1``; ``cipher_duplex``: 0."""
    if test not in STREAM_TESTS:
        raise ValueError(f"test must be one of {STREAM_TESTS}, got {test!r}")
    if test == "cipher_duplex":
        return 0
    return PAYLOAD // (width // 8) - 1


def expected_stream_cycles(test: str, width: int) -> tuple[int, int]:
    """Cycle-accurate expectation for a stream test on ADAM, as
    :func:`expected_asbus_cycles`: ``(write, whole test)``, the test from the write's
    REQ to the last read beat (no wait states). The read's bytes are disjoint from the
    write's, so nothing waits for the decrypting engine: the read is taken at the edge
    after its REQ (one edge later when both REQ in the same cycle: master 0 wins),
    dispatched at once (GNT cycle), issues its first memory read in the next cycle,
    whose data enter the encrypting engine one cycle later and leave it
    :data:`ENGINE_LATENCY` cycles after that; then one beat per cycle."""
    n = PAYLOAD // (width // 8)        # beats per direction
    write = 2 + n                      # REQ, GNT, n beats (no wait states)
    req = stream_read_delay(test, width)
    gnt = req + (2 if req == 0 else 1)
    first_out = gnt + 2 + ENGINE_LATENCY[width]
    return write, max(write, first_out + n)


@dataclass(frozen=True)
class CycleRecord:
    """One test case on one bus at one width."""

    test: str
    bus: str
    width: int
    measured_cycles: int
    model_cycles: float
    paper_cycles: int
    write_cycles: int | None = None   # first REQ to the write's last beat
    read_cycles: int | None = None    # the read's REQ to its last beat
    #: simulation time of the measured cycles, [start, end) in ps (rising edges)
    t_start_ps: int | None = None
    t_end_ps: int | None = None
    #: bit toggles of all DUT nets inside [t_start_ps, t_end_ps) (traced runs only)
    toggles: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def table_iv_row(test: str) -> str:
    """The Table IV row a test is compared with: its own, ``cipher`` for the stream tests."""
    return "cipher" if test in STREAM_TESTS else test


def record(test: str, bus: str, width: int, measured: int, *, write_cycles: int | None = None,
           read_cycles: int | None = None) -> CycleRecord:
    """A record with the model and paper numbers filled in."""
    row = table_iv_row(test)
    model = table_iv_workload(row, width).cycles(bus)  # type: ignore[arg-type]
    paper = PAPER_TABLE_IV_CYCLES[(row, bus)][WIDTHS.index(width)]  # type: ignore[index]
    return CycleRecord(test, bus, width, measured, model, paper, write_cycles, read_cycles)


def with_window(rec: CycleRecord, t_start_ps: int, t_end_ps: int) -> CycleRecord:
    """``rec`` with the simulation-time window of its measured cycles."""
    return replace(rec, t_start_ps=t_start_ps, t_end_ps=t_end_ps)
