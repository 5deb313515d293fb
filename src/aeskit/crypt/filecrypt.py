"""Encrypt or decrypt bytes through the RTL mode engine on an RTL core, in simulation.

This is the path behind ``aeskit encrypt`` / ``aeskit decrypt``: the data goes
through the Verilator model of the mode engine (hw/modes) driving the chosen core
(aeskit.harness.modes), never through the golden model. Modes:

* ``ecb``, ``cbc``: data must be a whole number of 16-byte blocks.
* ``ctr``: any length; ``iv`` is the initial 128-bit counter block, incremented as a
  128-bit big-endian integer; the core only ever encrypts (decrypt == encrypt).
* ``cfb`` (CFB-128), ``ofb``: any length.
* ``cbc-cs1``, ``cbc-cs2``, ``cbc-cs3`` (ciphertext stealing, SP 800-38A addendum):
  any length >= 16 bytes. The engine does the block work (CBC over the zero-padded
  data; for decryption one ECB block to recover the stolen bytes, then CBC); only
  the final reordering of bytes is done here.
* ``ccm`` (SP 800-38C): ``nonce`` 7..13 bytes, ``aad`` any length, ``tag_len``
  4..16 (even). Encryption returns ciphertext || tag; decryption takes
  ciphertext || tag, the engine compares the tag in hardware, and a mismatch raises
  :class:`TagMismatch` -- no plaintext is returned.
* ``gcm`` (SP 800-38D): ``iv`` of any length >= 1 byte (12 bytes is the fast path; any
  other length goes through GHASH in the engine), ``aad`` any length, ``tag_len``
  4..16. Encryption returns ciphertext || tag; decryption takes ciphertext || tag and
  raises :class:`TagMismatch` on a mismatch -- no plaintext is returned.
* ``gmac``: GCM with the data as associated data and no payload. "Encryption"
  returns the tag; "decryption" takes data || tag and returns the data only if the
  hardware finds the tag authentic.
* ``cmac`` (SP 800-38B): no IV, ``tag_len`` 4..16. "Encryption" returns the tag;
  "decryption" takes message || tag and returns the message only if authentic.
* ``xts`` (IEEE 1619 / SP 800-38E, XTS-AES-128 and -256): the key is K1 || K2 (32 or
  64 bytes). Either ``tweak`` (16 bytes: the whole input is one data unit) or
  ``data_unit`` (the first data unit's sequence number, as 16 little-endian bytes;
  the input is cut into units of ``unit_size`` bytes, the last one possibly shorter,
  unit k taking number ``data_unit + k``). Every unit is at least 16 bytes; a partial
  last block is ciphertext stealing, done in the engine. The engine swaps K2 into
  the core for each unit's tweak and K1 back.
"""

from __future__ import annotations

from typing import Callable

from aeskit.hw.registry import CoreSpec
from aeskit.model import CCM_NONCE_LENGTHS, CCM_TAG_LENGTHS
from aeskit.crypt.bulk import BULK_MODES, crypt_bulk_bytes
from aeskit.harness.modes import RtlModes, TagMismatch

MODES = ("ecb", "cbc", "cbc-cs1", "cbc-cs2", "cbc-cs3", "ctr", "cfb", "ofb", "ccm", "gcm",
         "gmac", "cmac", "xts")
#: XTS's default data unit (a disk sector)
XTS_UNIT_SIZE = 512
#: modes with a tag (CCM, GCM, GMAC, CMAC): --tag-len, default 16 bytes
TAG_MODES = ("ccm", "gcm", "gmac", "cmac")
#: modes with associated data (--aad-file)
AAD_MODES = ("ccm", "gcm")
#: tag lengths of GCM, GMAC and CMAC in bytes
MAC_TAG_LENGTHS = tuple(range(4, 17))
#: modes that need the core's decryption when decrypting
_DEC_MODES = ("ecb", "cbc", "cbc-cs1", "cbc-cs2", "cbc-cs3", "xts")

__all__ = ["MODES", "TAG_MODES", "AAD_MODES", "CryptInputError", "TagMismatch", "check_args", "crypt_bytes",
           "parse_hex", "reference_crypt"]


class CryptInputError(ValueError):
    """Bad user input (key, IV, data length, mode) for a file operation."""


def parse_hex(text: str, what: str) -> bytes:
    t = text.strip().lower().removeprefix("0x").replace(" ", "").replace("_", "")
    if len(t) % 2:
        raise CryptInputError(f"{what}: odd number of hex digits ({len(t)})")
    try:
        return bytes.fromhex(t)
    except ValueError:
        bad = next((c for c in t if c not in "0123456789abcdef"), "?")
        raise CryptInputError(f"{what}: not hex (bad character {bad!r})") from None


def check_args(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, decrypt: bool,
               length: int, *, nonce: bytes | None = None, tag_len: int | None = None,
               aad_len: int = 0, tweak: bytes | None = None, data_unit: int | None = None,
               unit_size: int | None = None) -> None:
    if mode not in MODES:
        raise CryptInputError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}")
    if mode == "xts":
        _check_xts(core, key, iv, decrypt, length, nonce, tag_len, aad_len, tweak, data_unit,
                   unit_size)
        return
    if tweak is not None or data_unit is not None or unit_size is not None:
        raise CryptInputError(f"--tweak, --data-unit and --unit-size are for XTS, not "
                              f"{mode.upper()}")
    if len(key) not in (16, 24, 32):
        raise CryptInputError(f"key must be 16, 24 or 32 bytes (32, 48 or 64 hex digits), "
                              f"got {len(key)} bytes")
    if len(key) * 8 not in core.key_sizes:
        raise CryptInputError(f"core {core.name} does not support {len(key) * 8}-bit keys")
    if mode == "ccm":
        if iv is not None:
            raise CryptInputError("CCM takes --nonce, not --iv")
        if nonce is None:
            raise CryptInputError("CCM needs --nonce (7..13 bytes, 14..26 hex digits)")
        if len(nonce) not in CCM_NONCE_LENGTHS:
            raise CryptInputError(f"CCM nonce must be 7..13 bytes, got {len(nonce)}")
        if tag_len not in CCM_TAG_LENGTHS:
            raise CryptInputError(f"CCM --tag-len must be one of "
                                  f"{', '.join(map(str, CCM_TAG_LENGTHS))}, got {tag_len}")
        payload = length - tag_len if decrypt else length
        if payload < 0:
            raise CryptInputError(f"CCM input ({length} bytes) is shorter than the "
                                  f"{tag_len}-byte tag")
        q = 15 - len(nonce)
        if payload >= min(1 << (8 * q), 1 << 32):
            raise CryptInputError(f"CCM payload of {payload} bytes is too long for a "
                                  f"{len(nonce)}-byte nonce")
        if aad_len >= 1 << 32:
            raise CryptInputError("CCM associated data must be shorter than 4 GiB")
        return
    if nonce is not None:
        raise CryptInputError(f"--nonce is for CCM, not {mode.upper()}")
    if aad_len and mode not in AAD_MODES:
        raise CryptInputError(f"--aad-file is for CCM and GCM, not {mode.upper()}")
    if mode in ("gcm", "gmac", "cmac"):
        name = mode.upper()
        if mode == "cmac" and iv is not None:
            raise CryptInputError("CMAC takes no --iv")
        if mode != "cmac" and (iv is None or not iv):
            raise CryptInputError(f"{name} needs --iv (any length of at least 1 byte; "
                                  f"12 bytes, 24 hex digits, is the usual one)")
        if mode != "cmac" and len(iv or b"") >= 1 << 28:
            raise CryptInputError(f"{name} IV must be shorter than 256 MiB")
        if tag_len not in MAC_TAG_LENGTHS:
            raise CryptInputError(f"{name} --tag-len must be 4..16, got {tag_len}")
        if decrypt and length < tag_len:
            raise CryptInputError(f"{name} input ({length} bytes) is shorter than the "
                                  f"{tag_len}-byte tag")
        if length >= 1 << 32 or aad_len >= 1 << 32:
            raise CryptInputError("inputs of 4 GiB or more are not supported")
        return
    if mode == "ecb":
        if iv is not None:
            raise CryptInputError("ECB takes no IV")
    elif iv is None:
        raise CryptInputError(f"{mode.upper()} needs --iv (16 bytes, 32 hex digits)")
    elif len(iv) != 16:
        raise CryptInputError(f"IV must be 16 bytes (32 hex digits), got {len(iv)} bytes")
    if mode in ("ecb", "cbc") and length % 16:
        raise CryptInputError(f"{mode.upper()} needs a whole number of 16-byte blocks; the input "
                              f"is {length} bytes (use --mode ctr or cbc-cs3, or pad the file)")
    if mode.startswith("cbc-cs") and length < 16:
        raise CryptInputError(f"{mode.upper()} needs at least 16 bytes, got {length}")
    if length >= 1 << 32:
        raise CryptInputError("inputs of 4 GiB or more are not supported")
    if decrypt and mode in _DEC_MODES and not core.decrypt:
        raise CryptInputError(f"core {core.name} cannot decrypt; {mode.upper()} decryption needs it")


def _check_xts(core: CoreSpec, key: bytes, iv: bytes | None, decrypt: bool, length: int,
               nonce: bytes | None, tag_len: int | None, aad_len: int, tweak: bytes | None,
               data_unit: int | None, unit_size: int | None) -> None:
    if len(key) not in (32, 64):
        raise CryptInputError(f"XTS key must be K1 || K2, 32 or 64 bytes (64 or 128 hex "
                              f"digits), got {len(key)} bytes")
    if len(key) * 4 not in core.key_sizes:
        raise CryptInputError(f"core {core.name} does not support {len(key) * 4}-bit keys")
    for option, value in (("--iv", iv), ("--nonce", nonce), ("--tag-len", tag_len)):
        if value is not None:
            raise CryptInputError(f"XTS takes no {option} (use --tweak or --data-unit)")
    if aad_len:
        raise CryptInputError("XTS takes no --aad-file")
    if (tweak is None) == (data_unit is None):
        raise CryptInputError("XTS needs exactly one of --tweak (16 bytes, 32 hex digits) and "
                              "--data-unit (the first data unit's number)")
    if tweak is not None:
        if len(tweak) != 16:
            raise CryptInputError(f"--tweak must be 16 bytes (32 hex digits), got {len(tweak)}")
        if unit_size is not None:
            raise CryptInputError("--unit-size goes with --data-unit (--tweak makes the whole "
                                  "input one data unit)")
        size = length
    else:
        assert data_unit is not None
        if not 0 <= data_unit < 1 << 128:
            raise CryptInputError(f"--data-unit must be 0 .. 2^128-1, got {data_unit}")
        size = XTS_UNIT_SIZE if unit_size is None else unit_size
        if size < 16:
            raise CryptInputError(f"--unit-size must be at least 16 bytes, got {size}")
    if length < 16:
        raise CryptInputError(f"XTS needs at least 16 bytes of input (one data unit of at "
                              f"least one block), got {length} bytes")
    if 0 < length % size < 16:
        raise CryptInputError(f"XTS data units must be at least 16 bytes; the input of {length} "
                              f"bytes leaves a last unit of {length % size} bytes")
    if size >= 1 << 24:
        raise CryptInputError("XTS data units must be shorter than 16 MiB")
    if decrypt and not core.decrypt:
        raise CryptInputError(f"core {core.name} cannot decrypt; XTS decryption needs it")
    half = len(key) // 2
    if key[:half] == key[half:]:
        raise CryptInputError("XTS key halves K1 and K2 are equal: IEEE 1619 use wants two "
                              "different keys")


def _xts_units(data: bytes, tweak: bytes | None, data_unit: int | None,
               unit_size: int | None) -> list[tuple[bytes, bytes]]:
    """(tweak, unit) pairs of an input, as the module docstring says."""
    if tweak is not None:
        return [(tweak, data)]
    assert data_unit is not None
    size = XTS_UNIT_SIZE if unit_size is None else unit_size
    return [(((data_unit + k) % (1 << 128)).to_bytes(16, "little"), data[i:i + size])
            for k, i in enumerate(range(0, len(data), size))]


def _cbc_cs(eng: RtlModes, variant: int, iv: bytes, data: bytes, decrypt: bool) -> bytes:
    """CBC-CS1/2/3 with all block work in the engine (see the module docstring)."""
    n = -(-len(data) // 16)
    d = len(data) - 16 * (n - 1)
    swaps = variant == 3 or (variant == 2 and d != 16)
    if not decrypt:
        ct = eng.crypt("cbc", False, data + bytes(16 - d), iv)
        if n == 1:
            return ct
        head, c_prev, c_last = ct[:16 * (n - 2)], ct[16 * (n - 2):16 * (n - 2) + d], ct[-16:]
        return head + c_last + c_prev if swaps else head + c_prev + c_last
    if n == 1:
        return eng.crypt("cbc", True, data, iv)
    head, tail = data[:16 * (n - 2)], data[16 * (n - 2):]
    c_last, c_prev = (tail[:16], tail[16:]) if swaps else (tail[d:], tail[:d])
    if d != 16:
        # D(C_n) = (P*_n || 0) ^ C_(n-1): its last 16-d bytes complete C_(n-1)
        z = eng.crypt("ecb", True, c_last)
        c_prev = c_prev + z[d:]
    return eng.crypt("cbc", True, head + c_prev + c_last, iv)[:len(data)]


def _mac_mode(eng: RtlModes, mode: str, iv: bytes | None, data: bytes, decrypt: bool,
              aad: bytes, tag_len: int) -> bytes:
    """GCM, GMAC and CMAC through the engine (see the module docstring)."""
    if mode == "gcm":
        assert iv is not None
        if decrypt:
            return eng.gcm_decrypt(iv, data, aad, tag_len)
        return eng.gcm_encrypt(iv, data, aad, tag_len)
    body, tag = (data[:len(data) - tag_len], data[len(data) - tag_len:]) if decrypt else (data, b"")
    if mode == "gmac":
        assert iv is not None
        if decrypt:
            eng.gcm_decrypt(iv, tag, body, tag_len)  # TagMismatch unless authentic
            return body
        return eng.gcm_encrypt(iv, b"", data, tag_len)
    if decrypt:
        eng.cmac_verify(body, tag)
        return body
    return eng.cmac(data, tag_len)


#: highest stall/gap percentage of the harnesses: a cycle stalls when a draw of 0..99
#: is below it, so 100 stalls every cycle (the run never ends)
STALL_MAX = 99


def crypt_bytes(core: CoreSpec, mode: str, key: bytes, iv: bytes | None, data: bytes,
                decrypt: bool, *, nonce: bytes | None = None, aad: bytes = b"",
                tag_len: int | None = None, progress: Callable[[str], None] | None = None,
                stall_pct: int = 0, gap_pct: int = 0, seed: int = 1,
                tweak: bytes | None = None, data_unit: int | None = None,
                unit_size: int | None = None, jobs: int = 1) -> bytes:
    """Run ``data`` through the mode engine on ``core`` in ``mode``; return the result.

    ECB, CBC, CTR, CFB and OFB take the bulk path (:mod:`aeskit.crypt.bulk`: ``jobs``
    harness processes, two engine streams each where the blocks are independent).

    ``stall_pct``/``gap_pct``: 0 .. :data:`STALL_MAX` (the harness stalls a cycle when a
    draw of 0..99 is below it: 100 would stall for ever); ValueError outside, before
    anything is built. CCM decryption raises :class:`TagMismatch` when the hardware tag
    compare fails."""
    for name, pct in (("stall_pct", stall_pct), ("gap_pct", gap_pct)):
        if not 0 <= pct <= STALL_MAX:
            raise ValueError(f"{name} must be 0..{STALL_MAX}, got {pct}")
    check_args(core, mode, key, iv, decrypt, len(data), nonce=nonce, tag_len=tag_len,
               aad_len=len(aad), tweak=tweak, data_unit=data_unit, unit_size=unit_size)
    if mode in BULK_MODES:
        # the harness streams the data from and to files, both engine streams at once
        # where the blocks are independent (aeskit.crypt.bulk)
        return crypt_bulk_bytes(core, mode, key, iv, data, decrypt, jobs=jobs,
                                gap_pct=gap_pct, stall_pct=stall_pct, seed=seed,
                                progress=progress)
    if mode == "xts":
        half = len(key) // 2
        with RtlModes(core, key[:half], progress, key2=key[half:]) as eng:
            eng.gap_pct, eng.stall_pct, eng.seed = gap_pct, stall_pct, seed
            return b"".join(eng.xts(decrypt, t, unit)
                            for t, unit in _xts_units(data, tweak, data_unit, unit_size))
    with RtlModes(core, key, progress) as eng:
        eng.gap_pct, eng.stall_pct, eng.seed = gap_pct, stall_pct, seed
        if mode == "ccm":
            assert nonce is not None and tag_len is not None
            if decrypt:
                return eng.ccm_decrypt(nonce, data, aad, tag_len)
            return eng.ccm_encrypt(nonce, data, aad, tag_len)
        if mode in ("gcm", "gmac", "cmac"):
            assert tag_len is not None
            return _mac_mode(eng, mode, iv, data, decrypt, aad, tag_len)
        assert mode.startswith("cbc-cs") and iv is not None
        return _cbc_cs(eng, int(mode[-1]), iv, data, decrypt)


class _OpenSSLBlock:
    """OpenSSL's AES as a ``BlockCipher`` for the golden model's CBC-CS functions."""

    def __init__(self, key: bytes) -> None:
        from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

        self._c = Cipher(algorithms.AES(key), modes.ECB())

    def encrypt(self, block: bytes) -> bytes:
        e = self._c.encryptor()
        return e.update(block) + e.finalize()

    def decrypt(self, block: bytes) -> bytes:
        d = self._c.decryptor()
        return d.update(block) + d.finalize()


def reference_crypt(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool, *,
                    nonce: bytes | None = None, aad: bytes = b"",
                    tag_len: int | None = None, tweak: bytes | None = None,
                    data_unit: int | None = None, unit_size: int | None = None) -> bytes:
    """The same operation through OpenSSL (``cryptography``), for ``--check``. CBC-CS,
    which OpenSSL lacks, is the golden model's byte reordering over OpenSSL's block
    cipher. CCM decryption with a bad tag raises ``cryptography``'s InvalidTag."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    if mode == "ccm":
        from cryptography.hazmat.primitives.ciphers.aead import AESCCM

        assert nonce is not None and tag_len is not None
        a = AESCCM(key, tag_length=tag_len)
        return a.decrypt(nonce, data, aad) if decrypt else a.encrypt(nonce, data, aad)
    if mode in ("gcm", "gmac", "cmac"):
        assert tag_len is not None
        return _reference_mac(mode, key, iv, data, decrypt, aad, tag_len)
    if mode == "xts":
        out = []
        for t, unit in _xts_units(data, tweak, data_unit, unit_size):
            op = Cipher(algorithms.AES(key), modes.XTS(t))
            f = op.decryptor() if decrypt else op.encryptor()
            out.append(f.update(unit) + f.finalize())
        return b"".join(out)
    if mode.startswith("cbc-cs"):
        from aeskit.model import cbc_cs_decrypt, cbc_cs_encrypt

        assert iv is not None
        f = cbc_cs_decrypt if decrypt else cbc_cs_encrypt
        return f(_OpenSSLBlock(key), iv, data, int(mode[-1]))
    try:  # CFB and OFB moved to the "decrepit" module in newer cryptography
        from cryptography.hazmat.decrepit.ciphers.modes import CFB, OFB
    except ImportError:  # pragma: no cover - older cryptography
        CFB, OFB = modes.CFB, modes.OFB
    m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
         "ctr": lambda: modes.CTR(iv), "cfb": lambda: CFB(iv), "ofb": lambda: OFB(iv)}[mode]()
    c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


def _reference_mac(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool,
                   aad: bytes, tag_len: int) -> bytes:
    """GCM, GMAC and CMAC through OpenSSL; a bad tag raises ``cryptography``'s
    InvalidTag (or InvalidSignature for CMAC). OpenSSL's GCM takes IVs of 8 bytes or
    more only: for a shorter IV the golden model (``aeskit.model.gcm``) is the
    reference."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    body, tag = (data[:len(data) - tag_len], data[len(data) - tag_len:]) if decrypt else (data, b"")
    if mode == "cmac":
        from cryptography.hazmat.primitives.cmac import CMAC

        c = CMAC(algorithms.AES(key))
        c.update(body)
        full = c.finalize()
        if decrypt:
            from cryptography.exceptions import InvalidSignature

            if full[:tag_len] != tag:
                raise InvalidSignature("CMAC tag mismatch")
            return body
        return full[:tag_len]
    assert iv is not None
    payload, assoc = (b"", body) if mode == "gmac" else (body, aad)
    if len(iv) < 8:
        return _model_gcm(key, iv, payload, assoc, decrypt, tag, tag_len, body, mode)
    if decrypt:
        d = Cipher(algorithms.AES(key), modes.GCM(iv, tag, min_tag_length=4)).decryptor()
        d.authenticate_additional_data(assoc)
        out = d.update(payload) + d.finalize()
        return body if mode == "gmac" else out
    e = Cipher(algorithms.AES(key), modes.GCM(iv, min_tag_length=4)).encryptor()
    e.authenticate_additional_data(assoc)
    ct = e.update(payload) + e.finalize()
    return ct + e.tag[:tag_len]


def _model_gcm(key: bytes, iv: bytes, payload: bytes, assoc: bytes, decrypt: bool, tag: bytes,
               tag_len: int, body: bytes, mode: str) -> bytes:
    """GCM/GMAC through the golden model, for IVs OpenSSL refuses (1..7 bytes)."""
    from aeskit.model import AES
    from aeskit.model.gcm import gcm_decrypt, gcm_encrypt

    if decrypt:
        out = gcm_decrypt(AES(key), iv, payload, assoc, tag)
        return body if mode == "gmac" else out
    ct, t = gcm_encrypt(AES(key), iv, payload, assoc, tag_len)
    return ct + t
