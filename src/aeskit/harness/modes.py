"""The mode engine (hw/modes) over a registry core, in a compiled Verilator harness.

:func:`system_sv` renders ``ak_mode_sys``: one ``ak_mode_engine`` (two streams) wired
to one core of the registry by its contract ports, so the engine runs on ANY core
(template ``hw/bench/mode_sys/ak_mode_sys.sv.tpl``, manifest ``aeskit:bench:mode_sys``).
:class:`ModeHarness` builds it with ``modes/ak_mode_harness.cpp`` (cached per source
hash) and runs whole messages -- both streams at once, with random input gaps and
output stalls -- without waking Python per cycle. :class:`RtlModes` is the
message-level API the CLI (``aeskit encrypt --mode ...``) uses.

Messages are described by :class:`Message`; lengths, framing and byte order follow
docs/modes.md (the beats are built here: AAD and payload each padded to whole
16-byte beats, then the received tag for CCM decryption).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from aeskit import BUILD_ROOT
from aeskit.hw import contract, manifest, templates
from aeskit.hw.codes import Mode
from aeskit.hw.registry import ALL_MODES, KEY_LEN_CODE, CoreSpec, EngineConfig, get_core
from aeskit.sim.verilated_exe import (
    BUILD_FLAGS_VERSION,
    BULK_VERILATOR_ARGS,
    FileRun,
    HarnessError,
    LineProcess,
    build_executable,
    cpp_common_bytes,
)

MODE_CPP = Path(__file__).with_name("cpp") / "ak_mode_harness.cpp"
#: mode codes of cmd_mode_i (aeskit.hw.codes.Mode)
MODE_CODE: dict[str, int] = {m.name.lower(): int(m) for m in Mode}
#: modes whose command has a tag (generated, or compared on decryption / verification)
TAG_MODES = ("ccm", "gcm", "cmac")
STREAMS = 2
#: the manifest of the harness top (its template, and the engine as a dependency)
SYS = "aeskit:bench:mode_sys"
SYS_TOP = "ak_mode_sys"


def engine_paths() -> list[Path]:
    """The mode engine's sources in compile order (from its manifests)."""
    return manifest.sources(SYS)


#: the modes an engine built with AeadModes = 0 (:data:`LEAN`) still runs
LEAN_MODES = ("ecb", "cbc", "ctr", "cfb", "ofb", "ccm")


@dataclass(frozen=True)
class Build:
    """Which engine a harness holds: ``streams`` streams (1 or 2), the engine's
    ``AeadModes`` parameter (False leaves GCM/GMAC, CMAC and XTS out: the same RTL and
    the same cycles for every other mode, and a model about three times as fast) and
    its ``InFlight`` parameter (blocks of an independent flow a stream keeps in the
    core; more than 2 for a deep pipeline, see :func:`aeskit.crypt.bulk.bulk_build`) and
    its ``CoreInReg`` parameter (``core_in_reg``: the requests go into a register
    before the core, one cycle more per block, as ``cipher_ahb`` builds it)."""

    streams: int = STREAMS
    aead: bool = True
    in_flight: int = 2
    core_in_reg: bool = False
    #: the engine's ``Modes`` parameter: bit ``MODE_CODE[m]`` builds mode ``m``
    modes: int = ALL_MODES
    #: the engine's ``Parts`` parameter (GCM and CMAC messages in parts; the harness
    #: builds have it, the systems leave it out unless they opt in)
    parts: bool = True

    @property
    def name(self) -> str:
        deep = f"-f{self.in_flight}" if self.in_flight != 2 else ""
        reg = "-ir" if self.core_in_reg else ""
        mask = f"-m{self.modes:03x}" if self.modes != ALL_MODES else ""
        whole = "" if self.parts else "-whole"
        return f"s{self.streams}{'' if self.aead else '-lean'}{deep}{reg}{mask}{whole}"

    def has(self, mode: str) -> bool:
        """Whether this build runs ``mode`` (its ``Modes`` bit, and ``AeadModes`` for
        GCM/GMAC, CMAC and XTS)."""
        if not self.aead and mode not in LEAN_MODES:
            return False
        return bool(self.modes >> MODE_CODE[mode] & 1)


#: the harness the tests and every mode use
FULL = Build()
#: the bulk file path's harnesses (ECB, CBC, CTR, CFB, OFB, CCM)
LEAN = Build(aead=False)
LEAN1 = Build(streams=1, aead=False)
#: :data:`FULL` without messages in parts (the engine's Parts = 0): a top without the
#: part ports, for the cocotb benches and synthesis
WHOLE = Build(parts=False)


def config_build(config: EngineConfig) -> Build:
    """The harness build of a mode-engine configuration of the registry
    (:data:`aeskit.hw.registry.ENGINE_CONFIGS`): its ``Modes`` and ``Streams``, AeadModes
    left at 1 (the mask leaves GCM/GMAC, CMAC and XTS out where it clears their bits)."""
    return Build(streams=config.streams, modes=config.modes,
                 core_in_reg=config.core_in_reg)


def system_sv(core: CoreSpec, streams: int = STREAMS, *, aead: bool = True,
              in_flight: int = 2, core_in_reg: bool = False, modes: int = ALL_MODES,
              parts: bool = False) -> str:
    """SystemVerilog of ``ak_mode_sys``: the engine on ``core`` (registry parameters);
    ``aead`` False sets the engine's AeadModes parameter to 0, ``in_flight`` its
    InFlight parameter, ``core_in_reg`` True its CoreInReg parameter to 1, ``modes``
    its Modes parameter (the mask of the modes built), ``parts`` True its Parts
    parameter to 1 (messages in parts)."""
    tw = max(1, (2 * streams - 1).bit_length())
    params = ", ".join(f".{k}({v})" for k, v in {**core.parameters, "TagWidth": tw}.items())
    # the part ports only on a build with Parts = 1 (a top without them ties them off)
    part_ports = (f"  input  logic [{streams - 1}:0][1:0] cmd_part_i,\n"
                  f"  input  logic [{streams - 1}:0][255:0] cmd_ctx_i,\n") if parts else ""
    part_conn = ".cmd_part_i, .cmd_ctx_i" if parts else ".cmd_part_i('0), .cmd_ctx_i('0)"
    text = templates.render(SYS, SYS_TOP, core=core.name, core_top=core.top,
                            core_params=params, streams=streams, s_msb=streams - 1,
                            tag_msb=tw - 1, part_ports=part_ports, part_conn=part_conn)
    extra = ("" if aead else ", .AeadModes(1'b0)") + \
        ("" if in_flight == 2 else f", .InFlight({in_flight})") + \
        (", .CoreInReg(1)" if core_in_reg else "") + \
        ("" if modes == ALL_MODES else f", .Modes(9'h{modes:03x})") + \
        (", .Parts(1'b1)" if parts else "") + core.engine_caps()
    if extra:
        inst = f"ak_mode_engine #(.Streams({streams}))"
        if text.count(inst) != 1:
            raise RuntimeError(f"{SYS_TOP} template: no single '{inst}' to set parameters on")
        text = text.replace(inst, f"ak_mode_engine #(.Streams({streams}){extra})")
    return text


def system_files(core: CoreSpec, out_dir: Path, build: Build = WHOLE) -> list[Path]:
    """Write ``ak_mode_sys.sv`` for ``core`` into ``out_dir``; return every source.
    The default build is the harness's without messages in parts (:data:`WHOLE`: no
    part ports on the top, the engine's Parts = 0), as the systems build it."""
    top = templates.write_if_changed(out_dir / f"{SYS_TOP}.sv",
                                     system_sv(core, build.streams, aead=build.aead,
                                               in_flight=build.in_flight,
                                               core_in_reg=build.core_in_reg,
                                               modes=build.modes, parts=build.parts))
    return core.file_paths() + engine_paths() + [top]


def _build_dir(core: CoreSpec, build: Build = FULL) -> Path:
    h = hashlib.sha256()
    h.update(core.source_hash().encode())
    for p in engine_paths() + [MODE_CPP]:
        h.update(p.read_bytes())
    h.update(cpp_common_bytes())
    h.update(system_sv(core, build.streams, aead=build.aead, in_flight=build.in_flight,
                       core_in_reg=build.core_in_reg, modes=build.modes,
                       parts=build.parts).encode())
    h.update(contract.fingerprint(core).encode())
    h.update(BUILD_FLAGS_VERSION.encode())
    if build != FULL:
        h.update(repr(BULK_VERILATOR_ARGS).encode())
    tag = "" if build == FULL else f"{build.name}-"
    return BUILD_ROOT / "mode_harness" / f"{core.name}-{tag}{h.hexdigest()[:12]}"


def build_mode_harness(core: CoreSpec, progress: Callable[[str], None] | None = None,
                       build: Build = FULL) -> Path:
    """Compile the harness of ``core`` and ``build`` (cached); return the executable.
    Older builds of the same core and build are removed (one per core and build)."""
    bdir = _build_dir(core, build)
    return build_executable(bdir, top="ak_mode_sys", prefix="Vsys",
                            sources=[*system_files(core, bdir / "src", build),
                                     *contract.files(), MODE_CPP],
                            # the core contract's assertions, bound into the core
                            extra_args=[*(f"-I{p}" for p in core.include_paths()),
                                        *contract.verilator_args(core),
                                        # the file path's builds: see BULK_VERILATOR_ARGS
                                        *(BULK_VERILATOR_ARGS if build != FULL else ())],
                            defines={"AK_STREAMS": str(build.streams),
                                     "AK_PARTS": str(int(build.parts))},
                            jobs=1, what=f"mode-engine harness for {core.name} ({build.name})",
                            progress=progress, stale=_stale_dirs(bdir))


def harness_built(core: CoreSpec, build: Build = FULL) -> bool:
    """Whether the harness of ``core`` and ``build`` is built for the current sources."""
    return (_build_dir(core, build) / "harness").is_file()


def _stale_dirs(bdir: Path) -> list[Path]:
    """Other builds of the same core and build (older sources): ``<name>-<12 hex>``."""
    stem = bdir.name[:-12]
    return [d for d in bdir.parent.glob(f"{stem}*")
            if d != bdir and len(d.name) == len(bdir.name) and d.name[len(stem):].isalnum()
            and all(c in "0123456789abcdef" for c in d.name[len(stem):])]


def _pad_beats(data: bytes) -> list[bytes]:
    return [data[i:i + 16].ljust(16, b"\0") for i in range(0, len(data), 16)]


@dataclass
class Message:
    """One message for one stream of the engine (see docs/modes.md)."""

    mode: str
    decrypt: bool
    data: bytes = b""
    #: IV (CBC/CFB/OFB; GCM: any length >= 1), initial counter block (CTR) or nonce
    #: (CCM, 7..13 bytes)
    iv: bytes = bytes(16)
    aad: bytes = b""
    tag_len: int = 0
    #: CCM/GCM decryption, CMAC verification (decrypt=True): the received tag
    tag: bytes = b""
    stream: int = 0
    #: a raw cmd_mode_i code sent instead of ``mode``'s (to drive the illegal codes 8..15;
    #: framing still follows ``mode``)
    mode_code: int | None = None
    #: XTS: the data unit's length in bits (default 8 * len(data)); ``data`` holds
    #: ceil(bits / 8) bytes, the unused low bits of the last byte zero
    bits: int | None = None
    #: GCM, CMAC in parts (docs/modes.md "Messages in parts"): 0 WHOLE, 1 FIRST,
    #: 2 MIDDLE, 3 LAST; ``ctx`` (MIDDLE, LAST) the 32-byte context: the state the
    #: previous part returned, then GCM's payload blocks, AAD bytes and payload bytes
    #: of the earlier parts (32-bit big-endian each), then 4 reserved bytes
    part: int = 0
    ctx: bytes = bytes(32)
    # filled in by ModeHarness.run
    out: bytes = b""
    out_tag: bytes = b""
    #: a FIRST or MIDDLE part: the 16-byte state its tag beat returned
    state: bytes = b""
    passed: bool | None = None
    error: bool | None = None
    cmd_cycle: int = 0
    sts_cycle: int = 0
    beats_out: list[tuple[int, bytes]] = field(default_factory=list)

    def command_line(self) -> str:
        ccm, gcm = self.mode == "ccm", self.mode == "gcm"
        tagged = self.mode in TAG_MODES
        nonce_len = len(self.iv) if ccm else 0
        iv_len = len(self.iv) if gcm else 12
        # GCM: a 12-byte IV rides in the command, any other length in beats of its own
        iv_beats = _pad_beats(self.iv) if gcm and iv_len != 12 else []
        iv = self.iv.ljust(16, b"\0")[:16] if not iv_beats else bytes(16)
        aad = self.aad if ccm or gcm else b""
        beats = iv_beats + _pad_beats(aad) + _pad_beats(self.data)
        # (a FIRST or MIDDLE part takes no tag)
        if tagged and self.decrypt and self.part not in (1, 2):
            beats.append(self.tag.ljust(16, b"\0")[:16])
        code = MODE_CODE[self.mode] if self.mode_code is None else self.mode_code
        # XTS counts its data unit in bits, every other mode in bytes
        length = (8 * len(self.data) if self.bits is None else self.bits) \
            if self.mode == "xts" else len(self.data)
        head = (f"msg {self.stream} {code} {int(self.decrypt)} {iv.hex()} "
                f"{nonce_len} {self.tag_len if tagged else 0} {len(aad)} "
                f"{length} {iv_len} {len(beats)} {self.part} "
                f"{self.ctx.ljust(32, bytes(1))[:32].hex()}\n")
        return head + "".join(b.hex() + "\n" for b in beats)


@dataclass
class FileMessage:
    """A bulk message for one stream (ECB, CBC, CTR, CFB, OFB): its ``length`` bytes are
    read from ``src`` at ``src_offset`` by the harness itself, and its output bytes
    written to ``dst`` (which must exist) at ``dst_offset``; Python never sees a beat."""

    mode: str
    decrypt: bool
    length: int
    src: Path
    dst: Path
    iv: bytes = bytes(16)
    src_offset: int = 0
    dst_offset: int = 0
    stream: int = 0
    # filled in by ModeHarness.run_files
    error: bool | None = None
    cmd_cycle: int = 0
    sts_cycle: int = 0
    beats_out: int = 0

    def command_line(self) -> str:
        for p in (self.src, self.dst):
            if any(c.isspace() for c in str(p)):
                raise ValueError(f"harness file paths cannot hold spaces: {p}")
        iv = self.iv.ljust(16, bytes(1))[:16].hex()
        return (f"fmsg {self.stream} {MODE_CODE[self.mode]} {int(self.decrypt)} "
                f"{iv} {self.length} {self.src} "
                f"{self.src_offset} {self.dst} {self.dst_offset}\n")


class ModeHarness(LineProcess):
    """A running mode-engine harness for one core. Use as a context manager."""

    def __init__(self, core: CoreSpec | str,
                 progress: Callable[[str], None] | None = None,
                 build: Build = FULL) -> None:
        self.core = get_core(core) if isinstance(core, str) else core
        self.build = build
        super().__init__(build_mode_harness(self.core, progress, build),
                         f"mode harness for {self.core.name} ({build.name})")
        self.key_size: int | None = None

    def load_key(self, key: bytes, key2: bytes | None = None, *,
                 refused: bool = False) -> int:
        """Load ``key`` (and ``key2``, XTS's tweak key, of the same size; zero if None).
        ``refused`` True sends a key of a size the core leaves out (a test of the
        RTL's refusal, docs/core-contract.md "Configurations") instead of raising."""
        size = len(key) * 8
        if size not in KEY_LEN_CODE:
            raise ValueError(f"key must be 16, 24 or 32 bytes, got {len(key)}")
        if size not in self.core.key_sizes and not refused:
            raise ValueError(f"core {self.core.name} does not support {size}-bit keys")
        if key2 is not None and len(key2) != len(key):
            raise ValueError(f"the two XTS keys must have the same size, got {len(key)} and "
                             f"{len(key2)} bytes")
        k2 = (key2 or b"") + bytes(32 - len(key2 or b""))
        self._send(f"key {KEY_LEN_CODE[size]} {(key + bytes(32 - len(key))).hex()} "
                   f"{k2.hex()}\n")
        self.key_size = size
        return int(self._readline().split()[1])

    def _check(self, messages: Sequence[Message | FileMessage]) -> None:
        for m in messages:
            if m.mode not in MODE_CODE:
                raise ValueError(f"unknown mode {m.mode!r}")
            # (a raw mode code drives the engine's refusal of a mode it leaves out)
            if not self.build.has(m.mode) and getattr(m, "mode_code", None) is None:
                raise ValueError(f"the {self.build.name} harness has no {m.mode} "
                                 f"(AeadModes {int(self.build.aead)}, "
                                 f"Modes 9'h{self.build.modes:03x})")
            if not 0 <= m.stream < self.build.streams:
                raise ValueError(f"no stream {m.stream} in the {self.build.name} harness")
            # (so does it drive the refusal of a direction the core leaves out)
            if m.decrypt and m.mode in ("ecb", "cbc", "xts") and not self.core.decrypt \
                    and getattr(m, "mode_code", None) is None:
                raise ValueError(f"core {self.core.name} cannot decrypt")

    def run_files(self, messages: Sequence[FileMessage], *, gap_pct: int = 0,
                  stall_pct: int = 0, seed: int = 1) -> FileRun:
        """Run bulk ``messages`` (each stream's in list order, the streams at once); the
        harness reads and writes their files. Fills in their results."""
        if self.key_size is None:
            raise HarnessError("load a key before running messages")
        self._check(messages)
        for m in messages:
            if m.mode not in ("ecb", "cbc", "ctr", "cfb", "ofb"):
                raise ValueError(f"{m.mode} is not a bulk mode")
        self._send("".join(m.command_line() for m in messages) +
                   f"run {gap_pct} {stall_pct} {seed}\n")
        for m in messages:
            f = self._readline().split()
            assert f[0] == "m" and int(f[1]) == m.stream and f[4] == "0", f
            m.error = f[3] == "1"
            m.cmd_cycle, m.sts_cycle, m.beats_out = int(f[5]), int(f[6]), int(f[7])
        f = self._readline().split()
        return FileRun(int(f[1]), int(f[2]) / 1e9, int(f[3]) / 1e9)

    def run(self, messages: Sequence[Message], *, gap_pct: int = 0, stall_pct: int = 0,
            seed: int = 1) -> int:
        """Run ``messages`` (both streams at once, each stream in list order); fill in
        their results; return the cycles taken."""
        if self.key_size is None:
            raise HarnessError("load a key before running messages")
        self._check(messages)
        self._send("".join(m.command_line() for m in messages) +
                   f"run {gap_pct} {stall_pct} {seed}\n")
        for m in messages:
            f = self._readline().split()
            assert f[0] == "m" and int(f[1]) == m.stream
            m.passed, m.error = f[2] == "1", f[3] == "1"
            m.cmd_cycle, m.sts_cycle = int(f[5]), int(f[6])
            m.beats_out = []
            for _ in range(int(f[4])):
                t, h = self._readline().split()
                m.beats_out.append((int(t), bytes.fromhex(h)))
            data = b"".join(b for t, b in m.beats_out if not t)
            m.out = data[:len(m.data)]
            tags = [b for t, b in m.beats_out if t]
            m.out_tag = tags[0][:m.tag_len] if tags else b""
            m.state = tags[0] if tags and m.part in (1, 2) else b""
        return int(self._readline().split()[1])


class TagMismatch(Exception):
    """CCM/GCM decryption or CMAC/GMAC verification: the engine's tag compare failed
    (no plaintext is returned)."""


class RtlModes:
    """Message-level modes through the RTL engine on one core (one key)."""

    def __init__(self, core: CoreSpec | str, key: bytes,
                 progress: Callable[[str], None] | None = None,
                 key2: bytes | None = None) -> None:
        self.h = ModeHarness(core, progress)
        self.h.load_key(key, key2)
        #: random input gaps / output stalls (percent) and their seed
        self.gap_pct = 0
        self.stall_pct = 0
        self.seed = 1

    def close(self) -> None:
        self.h.close()

    def __enter__(self) -> "RtlModes":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, msg: Message) -> Message:
        self.h.run([msg], gap_pct=self.gap_pct, stall_pct=self.stall_pct, seed=self.seed)
        self.seed += 1
        if msg.error:
            raise ValueError(f"the mode engine rejected the {msg.mode} command "
                             f"(lengths or parameters)")
        return msg

    def crypt(self, mode: str, decrypt: bool, data: bytes, iv: bytes = bytes(16)) -> bytes:
        return self.run(Message(mode, decrypt, data, iv=iv)).out

    def ccm_encrypt(self, nonce: bytes, data: bytes, aad: bytes, tag_len: int) -> bytes:
        m = self.run(Message("ccm", False, data, iv=nonce, aad=aad, tag_len=tag_len))
        return m.out + m.out_tag

    def ccm_decrypt(self, nonce: bytes, data_and_tag: bytes, aad: bytes, tag_len: int) -> bytes:
        if len(data_and_tag) < tag_len:
            raise TagMismatch("input shorter than the tag")
        data, tag = data_and_tag[:-tag_len], data_and_tag[-tag_len:]
        m = self.run(Message("ccm", True, data, iv=nonce, aad=aad, tag_len=tag_len, tag=tag))
        if not m.passed:
            raise TagMismatch("CCM tag mismatch: the message is not authentic")
        return m.out

    def gcm_encrypt(self, iv: bytes, data: bytes, aad: bytes, tag_len: int) -> bytes:
        """GCM (SP 800-38D): ciphertext || tag. GMAC is this with empty ``data``."""
        m = self.run(Message("gcm", False, data, iv=iv, aad=aad, tag_len=tag_len))
        return m.out + m.out_tag

    def gcm_decrypt(self, iv: bytes, data_and_tag: bytes, aad: bytes, tag_len: int) -> bytes:
        """GCM decryption of ciphertext || tag; TagMismatch (and no plaintext) when the
        hardware's tag compare fails."""
        if len(data_and_tag) < tag_len:
            raise TagMismatch("input shorter than the tag")
        data, tag = data_and_tag[:-tag_len], data_and_tag[-tag_len:]
        m = self.run(Message("gcm", True, data, iv=iv, aad=aad, tag_len=tag_len, tag=tag))
        if not m.passed:
            raise TagMismatch("GCM tag mismatch: the message is not authentic")
        return m.out

    def xts(self, decrypt: bool, tweak: bytes, data: bytes, bits: int | None = None) -> bytes:
        """XTS-AES (IEEE 1619) of one data unit of ``bits`` bits (default 8 * len(data));
        the keys are the ones given at construction (``key`` = K1, ``key2`` = K2)."""
        return self.run(Message("xts", decrypt, data, iv=tweak, bits=bits)).out

    def cmac(self, message: bytes, tag_len: int) -> bytes:
        """CMAC (SP 800-38B) of ``message``: the first ``tag_len`` bytes."""
        return self.run(Message("cmac", False, message, tag_len=tag_len)).out_tag

    def cmac_verify(self, message: bytes, tag: bytes) -> None:
        """Compare ``tag`` with the CMAC of ``message`` in hardware; TagMismatch if not."""
        m = self.run(Message("cmac", True, message, tag_len=len(tag), tag=tag))
        if not m.passed:
            raise TagMismatch("CMAC tag mismatch: the message is not authentic")


def measure_cycles_per_block(h: ModeHarness, mode: str, *, decrypt: bool = False,
                             streams: int = 1, blocks: tuple[int, int] = (8, 24)) -> float:
    """Cycles per 16-byte block of ``mode`` on the harness's core and key, never
    stalled, measured as the slope between two message lengths (so command and
    pipeline fill/drain costs cancel). With two streams, both run the same mode at
    once and the result is the aggregate: cycles per block of the two together."""
    import random

    rng = random.Random(f"{mode}{decrypt}{streams}")
    spans = []
    # the first length twice: the first run may wait for the core's key setup
    for n in (blocks[0],) + tuple(blocks):
        msgs = []
        for s in range(streams):
            iv = rng.randbytes({"ccm": 13, "gcm": 12}.get(mode, 16))
            data = rng.randbytes(16 * n)
            tag_len = {"ccm": 8, "gcm": 16, "cmac": 16}.get(mode, 0)
            msgs.append(Message(mode, decrypt, data, iv=iv, tag_len=tag_len,
                                tag=bytes(tag_len), stream=s))
        h.run(msgs)
        spans.append(max(m.sts_cycle for m in msgs) - min(m.cmd_cycle for m in msgs))
    return (spans[2] - spans[1]) / (streams * (blocks[1] - blocks[0]))
