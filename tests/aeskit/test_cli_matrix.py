"""Bad input found by generation (issue 51): every mode x direction x input length x
each optional argument absent, valid, malformed or out of range, through ``aeskit
encrypt`` / ``decrypt``. Every case must end in exit 0 with the right output, or exit 1
or 2 with exactly one line on standard error, no traceback and no output file. The RTL
is replaced by OpenSSL (the CLI's plumbing and checks are under test, not the cores:
tests/aeskit/test_cli.py runs the RTL); exit-0 outputs are checked against
``cryptography`` computed here, or by a round trip through the CLI for the modes
OpenSSL lacks (CBC-CS) or that the CLI frames (GMAC, CMAC, XTS data units)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import cmac as ossl_cmac
from cryptography.hazmat.decrepit.ciphers.modes import CFB, OFB
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM

import aeskit.crypt.filecrypt
import aeskit.harness.modes
from aeskit.cli import main
from aeskit.crypt.filecrypt import MODES, reference_crypt

LENGTHS = (0, 1, 15, 16, 17, 31, 4096)
KEY = bytes(range(16))
KEY_XTS = bytes(range(32))

#: per mode, the valid value of each option it takes
VALID: dict[str, dict[str, str]] = {
    "ecb": {}, "cbc": {"--iv": "11" * 16}, "cbc-cs1": {"--iv": "11" * 16},
    "cbc-cs2": {"--iv": "11" * 16}, "cbc-cs3": {"--iv": "11" * 16},
    "ctr": {"--iv": "ff" * 12 + "00" * 4}, "cfb": {"--iv": "22" * 16},
    "ofb": {"--iv": "33" * 16},
    "ccm": {"--nonce": "44" * 13, "--tag-len": "8", "--aad-file": "{AAD}"},
    "gcm": {"--iv": "55" * 12, "--tag-len": "16", "--aad-file": "{AAD}"},
    "gmac": {"--iv": "66" * 12, "--tag-len": "12"},
    "cmac": {"--tag-len": "12"},
    "xts": {"--tweak": "77" * 16},
}
#: per option, a malformed and an out-of-range value
BAD = {"--iv": ("zz" * 16, "11" * 15), "--nonce": ("4" * 25, "44" * 6),
       "--tag-len": ("eight", "17"), "--aad-file": ("{MISSING}", "{DIR}"),
       "--tweak": ("q" * 32, "77" * 8), "--data-unit": ("x", "-1"),
       "--unit-size": ("big", "15"), "--key": ("0g" * 16, "00" * 15)}
#: options a mode does not take, tried present with a valid-looking value
FOREIGN = {"--iv": "11" * 16, "--nonce": "44" * 13, "--tweak": "77" * 16,
           "--data-unit": "3", "--aad-file": "{AAD}"}


def _variants(mode: str) -> list[tuple[str, dict[str, str]]]:
    """(label, options) of one mode: the valid set, each of its options absent or
    bad, each foreign option present, and for XTS the data-unit form."""
    valid = dict(VALID[mode])
    key = (KEY_XTS if mode == "xts" else KEY).hex()
    out = [("valid", {"--key": key, **valid})]
    for opt in valid:
        out.append((f"{opt} absent", {"--key": key, **{k: v for k, v in valid.items()
                                                      if k != opt}}))
        for i, bad in enumerate(BAD[opt]):
            out.append((f"{opt} {'malformed' if i == 0 else 'out of range'}",
                        {"--key": key, **valid, opt: bad}))
    for i, bad in enumerate(BAD["--key"]):
        out.append((f"--key {'malformed' if i == 0 else 'out of range'}", {**valid, "--key": bad}))
    for opt, v in FOREIGN.items():
        if opt not in valid:
            out.append((f"foreign {opt}", {"--key": key, **valid, opt: v}))
    if mode == "xts":
        unit = {"--key": key, "--data-unit": "5", "--unit-size": "32"}
        out.append(("data unit", unit))
        for opt in ("--data-unit", "--unit-size"):
            for i, bad in enumerate(BAD[opt]):
                out.append((f"{opt} {'malformed' if i == 0 else 'out of range'}",
                            {**unit, opt: bad}))
    return out


@pytest.fixture
def openssl_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def fake(core: object, mode: str, key: bytes, iv: bytes | None, data: bytes,
             decrypt: bool, *, progress: object = None, stall_pct: int = 0,
             gap_pct: int = 0, **extra: Any) -> bytes:
        try:
            return reference_crypt(mode, key, iv, data, decrypt, **extra)
        except Exception as exc:  # a tag mismatch, as the engine reports it
            if type(exc).__name__ == "InvalidTag" or "tag" in str(exc).lower():
                raise aeskit.crypt.filecrypt.TagMismatch() from exc
            raise

    def no_build(*_a: object, **_k: object) -> None:
        raise AssertionError("the matrix must not build a model")

    monkeypatch.setattr(aeskit.crypt.filecrypt, "crypt_bytes", fake)
    monkeypatch.setattr(aeskit.harness.modes, "build_mode_harness", no_build)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(argv)
        except SystemExit as exc:
            rc = int(exc.code or 0)
    return rc, out.getvalue(), err.getvalue()


def _expected(mode: str, decrypt: bool, opts: dict[str, str], data: bytes,
              aad: bytes) -> bytes | None:
    """OpenSSL's answer computed here; None where a round trip checks instead."""
    key = bytes.fromhex(opts["--key"])
    iv = bytes.fromhex(opts["--iv"]) if "--iv" in opts else None
    if mode in ("ecb", "cbc", "ctr", "cfb", "ofb"):
        m = {"ecb": lambda: modes.ECB(), "cbc": lambda: modes.CBC(iv),
             "ctr": lambda: modes.CTR(iv), "cfb": lambda: CFB(iv),
             "ofb": lambda: OFB(iv)}[mode]()
        c = Cipher(algorithms.AES(key), m)
        op = c.decryptor() if decrypt else c.encryptor()
        return op.update(data) + op.finalize()
    if mode == "gcm" and not decrypt:
        t = int(opts.get("--tag-len", "16"))
        full = AESGCM(key).encrypt(iv, data, aad or None)
        return full[:len(data)] + full[len(data):][:t]
    if mode == "ccm" and not decrypt:
        t = int(opts.get("--tag-len", "16"))
        return AESCCM(key, tag_length=t).encrypt(bytes.fromhex(opts["--nonce"]), data,
                                                 aad or None)
    if mode == "cmac" and not decrypt:
        c = ossl_cmac.CMAC(algorithms.AES(key))
        c.update(data)
        return c.finalize()[:int(opts.get("--tag-len", "16"))]
    if mode == "xts" and "--tweak" in opts:
        c = Cipher(algorithms.AES(key), modes.XTS(bytes.fromhex(opts["--tweak"])))
        op = c.decryptor() if decrypt else c.encryptor()
        return op.update(data) + op.finalize()
    return None


def _sealed(mode: str, data: bytes, aad: bytes) -> bytes:
    """What ``decrypt`` of a tag mode takes, made by OpenSSL here with the mode's valid
    options: the message and its tag (CCM, GCM: ciphertext || tag; GMAC, CMAC: the
    authenticated data || tag)."""
    opts = {"--key": KEY.hex(), **VALID[mode]}
    if mode == "gmac":
        t = int(opts["--tag-len"])
        return data + AESGCM(KEY).encrypt(bytes.fromhex(opts["--iv"]), b"", data)[:t]
    sealed = _expected(mode, False, opts, data, aad)
    assert sealed is not None
    return data + sealed if mode == "cmac" else sealed


@pytest.mark.usefixtures("openssl_engine")
@pytest.mark.parametrize("direction", ["encrypt", "decrypt"])
@pytest.mark.parametrize("mode", MODES)
def test_generated_matrix(mode: str, direction: str, tmp_path: Path,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    aad = bytes(range(21))
    (tmp_path / "aad.bin").write_bytes(aad)
    (tmp_path / "adir").mkdir()
    paths = {"AAD": str(tmp_path / "aad.bin"), "MISSING": str(tmp_path / "nosuch.bin"),
             "DIR": str(tmp_path / "adir")}
    seen = {0: 0, 1: 0, 2: 0}
    for length in LENGTHS:
        data = bytes((7 * i + length) & 0xFF for i in range(length))
        src = tmp_path / f"in{length}.bin"
        sealed = direction == "decrypt" and mode in ("ccm", "gcm", "gmac", "cmac")
        src.write_bytes(_sealed(mode, data, aad) if sealed else data)
        for label, opts in _variants(mode):
            out = tmp_path / "out.bin"
            argv = [direction, "--mode", mode]
            for k, v in opts.items():
                argv += [k, v.format(**paths)]
            rc, so, se = _cli([*argv, str(src), str(out)])
            where = f"{direction} {mode} {length} B, {label}: rc {rc}, stderr {se!r}"
            assert rc in (0, 1, 2), where
            assert "Traceback" not in se and so == "", where
            seen[rc] += 1
            if rc != 0:
                assert se.count("\n") == 1 and se.startswith("aeskit: error: "), where
                assert not out.exists(), where
                continue
            got = out.read_bytes()
            want = (data if sealed else
                    _expected(mode, direction == "decrypt", opts, data,
                              aad if "--aad-file" in opts else b""))
            if want is not None:
                assert got == want, where
            elif direction == "encrypt":  # the CLI's own inverse gives the input back
                back_in = tmp_path / "back_in.bin"
                back_in.write_bytes(data + got if mode in ("gmac", "cmac") else got)
                rc2, _, se2 = _cli(["decrypt", *argv[1:], str(back_in),
                                    str(tmp_path / "back.bin")])
                assert rc2 == 0, (where, se2)
                assert (tmp_path / "back.bin").read_bytes() == data, where
                (tmp_path / "back.bin").unlink()
            out.unlink()
    # the matrix reached both outcomes (a generator that only produced errors, or
    # only successes, would prove nothing)
    assert seen[2] > 0 and seen[0] > 0, seen
    if direction == "decrypt" and mode in ("ccm", "gcm", "gmac", "cmac"):
        assert seen[1] > 0, seen  # another tag length or no AAD: the tag does not match
