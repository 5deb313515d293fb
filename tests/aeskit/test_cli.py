"""The command line: registry listing, file encryption through the RTL core, and
clear errors (non-zero exit, nothing written) for bad input."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.cli import main
from aeskit.hw import CORES, get_core
from aeskit.hw.manifest import sources

FIELDS = {"name", "top", "manifest", "files", "include_dirs", "parameters", "key_sizes",
          "decrypt", "latency", "interval", "paper"}


def test_cores_json_is_the_registry(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in data] == [c.name for c in CORES]
    assert "round" in [d["name"] for d in data]
    for d in data:
        assert FIELDS <= set(d)
        assert d["manifest"] == get_core(d["name"]).manifest_name()
        assert d["files"] == [str(p) for p in sources(d["manifest"])]
        for f in d["files"]:
            assert os.path.isabs(f) and Path(f).is_file(), f
        assert set(d["latency"]) == {str(k) for k in d["key_sizes"]}


def test_cores_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cores"]) == 0
    out = capsys.readouterr().out
    for c in CORES:
        assert c.name in out and c.top in out


def _openssl(mode: str, key: bytes, iv: bytes | None, data: bytes, decrypt: bool) -> bytes:
    m = modes.ECB() if mode == "ecb" else (modes.CBC(iv) if mode == "cbc" else modes.CTR(iv))
    c = Cipher(algorithms.AES(key), m)
    op = c.decryptor() if decrypt else c.encryptor()
    return op.update(data) + op.finalize()


@pytest.mark.parametrize("nbytes", [16, 24, 32])
def test_fips197_appendix_c_through_rtl(tmp_path: Path, nbytes: int) -> None:
    key = bytes(range(nbytes))
    pt = bytes.fromhex("00112233445566778899aabbccddeeff")
    src, dst, back = tmp_path / "pt.bin", tmp_path / "ct.bin", tmp_path / "back.bin"
    src.write_bytes(pt)
    assert main(["encrypt", "--core", "round", "--mode", "ecb", "--key", key.hex(),
                 "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ecb", key, None, pt, False)
    assert main(["decrypt", "--core", "round", "--mode", "ecb", "--key", key.hex(),
                 "--check", str(dst), str(back)]) == 0
    assert back.read_bytes() == pt


@pytest.mark.parametrize("mode", ["ecb", "cbc", "ctr"])
def test_one_mebibyte_file(tmp_path: Path, mode: str) -> None:
    rng = random.Random(mode)
    data = rng.randbytes(1 << 20)
    key = rng.randbytes(32)
    iv = rng.randbytes(16)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    src.write_bytes(data)
    ivarg = [] if mode == "ecb" else ["--iv", iv.hex()]
    assert main(["encrypt", "--core", "round", "--mode", mode, "--key", key.hex(), *ivarg,
                 "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl(mode, key, iv, data, False)
    assert main(["decrypt", "--core", "round", "--mode", mode, "--key", key.hex(), *ivarg,
                 str(dst), str(back)]) == 0
    assert back.read_bytes() == data


def test_ctr_odd_length_with_stalls(tmp_path: Path) -> None:
    rng = random.Random(5)
    data = rng.randbytes(1000)
    key, iv = rng.randbytes(24), rng.randbytes(16)
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(data)
    assert main(["encrypt", "--mode", "ctr", "--key", key.hex(), "--iv", iv.hex(),
                 "--stall", "40", "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ctr", key, iv, data, False)


@pytest.mark.parametrize("args,msg", [
    (["--key", "00" * 15], "16, 24 or 32 bytes"),
    (["--key", "0g" * 16], "not hex"),
    (["--key", "0" * 31], "odd number of hex digits"),
    (["--key", "00" * 16, "--mode", "cbc"], "needs --iv"),
    (["--key", "00" * 16, "--mode", "cbc", "--iv", "00" * 8], "IV must be 16 bytes"),
    (["--key", "00" * 16, "--core", "nosuch"], "unknown core"),
])
def test_bad_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str],
                       msg: str) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(32))
    assert main(["encrypt", *args, str(src), str(dst)]) == 2
    assert msg in capsys.readouterr().err
    assert not dst.exists()


def test_missing_input_and_existing_output(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not dst.exists()
    src.write_bytes(bytes(16))
    dst.write_bytes(b"keep me")
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "--force" in capsys.readouterr().err
    assert dst.read_bytes() == b"keep me"
    assert main(["encrypt", "--key", "00" * 16, "--force", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _openssl("ecb", bytes(16), None, bytes(16), False)


def test_ecb_partial_block_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(17))
    assert main(["encrypt", "--key", "00" * 16, str(src), str(dst)]) == 2
    assert "whole number of 16-byte blocks" in capsys.readouterr().err
    assert not dst.exists()


# ----------------------------------------------------------------------------------
# every mode through the RTL mode engine (hw/modes), on pipe2 and round
# ----------------------------------------------------------------------------------
def _reference(mode: str, key: bytes, iv: bytes, data: bytes) -> bytes:
    """Independent references: OpenSSL for the block modes, the golden model's CBC-CS
    byte reordering over OpenSSL's block cipher (OpenSSL has no CBC-CS)."""
    if mode.startswith("cbc-cs"):
        from aeskit.model import cbc_cs_encrypt

        class _Ossl:
            def encrypt(self, b: bytes) -> bytes:
                return _openssl("ecb", key, None, b, False)

            def decrypt(self, b: bytes) -> bytes:
                return _openssl("ecb", key, None, b, True)

        return cbc_cs_encrypt(_Ossl(), iv, data, int(mode[-1]))
    from cryptography.hazmat.decrepit.ciphers.modes import CFB, OFB

    m = {"cfb": CFB, "ofb": OFB}.get(mode)
    if m is None:
        return _openssl(mode, key, iv, data, False)
    e = Cipher(algorithms.AES(key), m(iv)).encryptor()
    return e.update(data) + e.finalize()


#: each (core, mode, length); the runs on pipe2 (its harness build and 23-45 s a run)
#: are in make test-full, round runs every case in make test
EVERY_MODE = [
    pytest.param(core, mode, length, marks=pytest.mark.slow if core == "pipe2" else ())
    for core in ("pipe2", "round")
    for mode, length in (
        ("ecb", 4096), ("cbc", 4096), ("ctr", 5001), ("cfb", 1023), ("ofb", 17),
        ("cbc-cs1", 1000), ("cbc-cs2", 1000), ("cbc-cs3", 1000), ("cbc-cs1", 32),
        ("cbc-cs2", 48), ("cbc-cs3", 16), ("cbc-cs3", 33))]


@pytest.mark.parametrize("core,mode,length", EVERY_MODE)
def test_every_mode_through_the_engine(tmp_path: Path, core: str, mode: str,
                                        length: int) -> None:
    rng = random.Random(f"{core}{mode}{length}")
    data = rng.randbytes(length)
    key, iv = rng.randbytes(rng.choice([16, 24, 32])), rng.randbytes(16)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    src.write_bytes(data)
    ivarg = [] if mode == "ecb" else ["--iv", iv.hex()]
    assert main(["encrypt", "--core", core, "--mode", mode, "--key", key.hex(), *ivarg,
                 "--stall", "20", "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == _reference(mode, key, iv, data)
    assert main(["decrypt", "--core", core, "--mode", mode, "--key", key.hex(), *ivarg,
                 "--check", str(dst), str(back)]) == 0
    assert back.read_bytes() == data


# pipe2's engine runs of the CLI are in make test-full (round's keep make test's coverage)
@pytest.mark.parametrize("core", [pytest.param("pipe2", marks=pytest.mark.slow), "round"])
def test_ccm_encrypt_decrypt_and_forgery(tmp_path: Path, core: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    rng = random.Random(core)
    key, nonce = rng.randbytes(16), rng.randbytes(13)
    aad, data = rng.randbytes(22), rng.randbytes(1500)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    aad_f = tmp_path / "aad.bin"
    src.write_bytes(data)
    aad_f.write_bytes(aad)
    args = ["--core", core, "--mode", "ccm", "--key", key.hex(), "--nonce", nonce.hex(),
            "--aad-file", str(aad_f), "--tag-len", "8"]
    assert main(["encrypt", *args, "--check", str(src), str(dst)]) == 0
    assert dst.read_bytes() == AESCCM(key, tag_length=8).encrypt(nonce, data, aad)
    assert main(["decrypt", *args, "--check", str(dst), str(back)]) == 0
    assert back.read_bytes() == data
    # a flipped bit in the ciphertext, in the tag, or other AAD: non-zero, no output
    good = dst.read_bytes()
    for where in (0, len(good) - 1):
        forged = bytearray(good)
        forged[where] ^= 0x10
        dst.write_bytes(bytes(forged))
        out = tmp_path / f"forged{where}.bin"
        capsys.readouterr()
        assert main(["decrypt", *args, str(dst), str(out)]) == 1
        assert "CCM authentication failed" in capsys.readouterr().err
        assert not out.exists()
    dst.write_bytes(good)
    aad_f.write_bytes(aad[:-1])
    out = tmp_path / "wrong_aad.bin"
    assert main(["decrypt", *args, str(dst), str(out)]) == 1
    assert not out.exists()


def test_ccm_defaults_and_empty_payload(tmp_path: Path) -> None:
    """No AAD file, default 16-byte tag, empty payload: OUT is just the tag."""
    from cryptography.hazmat.primitives.ciphers.aead import AESCCM

    key, nonce = bytes(range(32)), bytes(range(7))
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    src.write_bytes(b"")
    assert main(["encrypt", "--core", "round", "--mode", "ccm", "--key", key.hex(),
                 "--nonce", nonce.hex(), str(src), str(dst)]) == 0
    assert dst.read_bytes() == AESCCM(key).encrypt(nonce, b"", None)
    assert len(dst.read_bytes()) == 16
    assert main(["decrypt", "--core", "round", "--mode", "ccm", "--key", key.hex(),
                 "--nonce", nonce.hex(), str(dst), str(back)]) == 0
    assert back.read_bytes() == b""


@pytest.mark.parametrize("args,msg", [
    (["--mode", "ccm"], "needs --nonce"),
    (["--mode", "ccm", "--nonce", "00" * 6], "nonce must be 7..13 bytes"),
    (["--mode", "ccm", "--nonce", "00" * 14], "nonce must be 7..13 bytes"),
    (["--mode", "ccm", "--nonce", "00" * 13, "--tag-len", "5"], "--tag-len must be one of"),
    (["--mode", "ccm", "--nonce", "00" * 13, "--iv", "00" * 16], "not --iv"),
    (["--mode", "ctr", "--iv", "00" * 16, "--nonce", "00" * 13], "for CCM"),
    (["--mode", "ctr", "--iv", "00" * 16, "--tag-len", "8"], "for CCM"),
    (["--mode", "cfb"], "needs --iv"),
    (["--mode", "cbc-cs1", "--iv", "00" * 16], "at least 16 bytes"),
    (["--mode", "ocb"], "invalid choice"),
    (["--mode", "gcm"], "GCM needs --iv"),
    (["--mode", "gmac", "--iv", "00" * 12, "--tag-len", "3"], "--tag-len must be 4..16"),
    (["--mode", "gcm", "--iv", "00" * 12, "--tag-len", "17"], "--tag-len must be 4..16"),
    (["--mode", "gcm", "--iv", "00" * 12, "--nonce", "00" * 13], "--nonce is for CCM"),
    (["--mode", "cmac", "--iv", "00" * 16], "CMAC takes no --iv"),
    (["--mode", "cmac", "--aad-file", "{SRC}"], "--aad-file is for CCM, GCM"),
    (["--mode", "gmac", "--iv", "00" * 12, "--aad-file", "{SRC}"], "--aad-file is for CCM, GCM"),
    (["--mode", "xts", "--tweak", "00" * 16], "XTS key must be K1 || K2"),
    (["--mode", "ctr", "--iv", "00" * 16, "--tweak", "00" * 16], "are for XTS, not CTR"),
])
def test_bad_mode_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                            args: list[str], msg: str) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(15))
    args = [str(src) if a == "{SRC}" else a for a in args]
    try:
        rc = main(["encrypt", "--key", "00" * 16, *args, str(src), str(dst)])
    except SystemExit as exc:  # argparse rejects unknown choices itself
        rc = exc.code
    assert rc == 2
    assert msg in capsys.readouterr().err
    assert not dst.exists()


@pytest.mark.parametrize("core", ["pipe2", "round"])
def test_gcm_gmac_cmac_and_forgery(tmp_path: Path, core: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    """GCM (a 12-byte and a 5-byte IV), GMAC and CMAC: encrypt matches OpenSSL (or, for
    the 5-byte IV OpenSSL refuses, the golden model); decrypt returns the data; a flipped
    bit anywhere gives exit 1, the mode's message and no output file."""
    from cryptography.hazmat.primitives.cmac import CMAC
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    from aeskit.model import AES
    from aeskit.model.gcm import gcm_encrypt

    rng = random.Random("gcm" + core)
    key, aad, data = rng.randbytes(32), rng.randbytes(21), rng.randbytes(700)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    aad_f = tmp_path / "aad.bin"
    src.write_bytes(data)
    aad_f.write_bytes(aad)
    cases = []
    for iv in (rng.randbytes(12), rng.randbytes(5)):
        if len(iv) >= 8:
            e = Cipher(algorithms.AES(key), modes.GCM(iv, min_tag_length=4)).encryptor()
            e.authenticate_additional_data(aad)
            ct = e.update(data) + e.finalize()
            want = ct + e.tag[:12]
        else:
            ct, tag = gcm_encrypt(AES(key), iv, data, aad, 12)
            want = ct + tag
        cases.append((["--mode", "gcm", "--iv", iv.hex(), "--aad-file", str(aad_f),
                       "--tag-len", "12"], want))
    iv = rng.randbytes(12)
    e = Cipher(algorithms.AES(key), modes.GCM(iv)).encryptor()
    e.authenticate_additional_data(data)
    e.finalize()
    cases.append((["--mode", "gmac", "--iv", iv.hex()], e.tag))
    c = CMAC(algorithms.AES(key))
    c.update(data)
    cases.append((["--mode", "cmac", "--tag-len", "8"], c.finalize()[:8]))
    for opts, want in cases:
        args = ["--core", core, "--key", key.hex(), *opts]
        assert main(["encrypt", *args, "--check", "--force", str(src), str(dst)]) == 0, opts
        sealed = dst.read_bytes()
        assert sealed == want, opts
        # GMAC and CMAC: decrypt verifies DATA || TAG and writes DATA
        given = sealed if opts[1] == "gcm" else data + sealed
        dst.write_bytes(given)
        assert main(["decrypt", *args, "--check", "--force", str(dst), str(back)]) == 0, opts
        assert back.read_bytes() == data
        for where in (0, len(given) - 1):
            forged = bytearray(given)
            forged[where] ^= 0x08
            dst.write_bytes(bytes(forged))
            out = tmp_path / f"forged{where}.bin"
            capsys.readouterr()
            assert main(["decrypt", *args, str(dst), str(out)]) == 1, opts
            assert f"{opts[1].upper()} authentication failed" in capsys.readouterr().err
            assert not out.exists()


@pytest.mark.parametrize("core", ["pipe2", "round"])
def test_xts_units_and_tweak(tmp_path: Path, core: str) -> None:
    """XTS-AES-128 and -256 through the engine: units of 512 bytes numbered from
    --data-unit (the last one 300 bytes: stealing), and one unit with --tweak; the
    results match OpenSSL's XTS unit by unit and decrypt back."""
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    rng = random.Random("xts" + core)
    data = rng.randbytes(2 * 512 + 300)
    src, dst, back = tmp_path / "in.bin", tmp_path / "out.bin", tmp_path / "back.bin"
    src.write_bytes(data)
    for klen in (32, 64):
        key, tweak = rng.randbytes(klen), rng.randbytes(16)
        for opts, units in ((["--data-unit", "41"],
                             [(n.to_bytes(16, "little"), data[i:i + 512])
                              for n, i in zip((41, 42, 43), (0, 512, 1024))]),
                            (["--tweak", tweak.hex()], [(tweak, data)])):
            want = b""
            for t, unit in units:
                e = Cipher(algorithms.AES(key), modes.XTS(t)).encryptor()
                want += e.update(unit) + e.finalize()
            args = ["--core", core, "--mode", "xts", "--key", key.hex(), *opts, "--force"]
            assert main(["encrypt", *args, "--check", str(src), str(dst)]) == 0
            assert dst.read_bytes() == want
            assert main(["decrypt", *args, "--check", str(dst), str(back)]) == 0
            assert back.read_bytes() == data


def test_ccm_decrypt_shorter_than_tag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(bytes(7))
    assert main(["decrypt", "--key", "00" * 16, "--mode", "ccm", "--nonce", "00" * 13,
                 "--tag-len", "8", str(src), str(dst)]) == 2
    assert "shorter than the 8-byte tag" in capsys.readouterr().err
    assert not dst.exists()


# --------------------------------------------------------------------------------
# aeskit synth / report --device, and a design that does not fit
# --------------------------------------------------------------------------------
SYNTH_FIX = Path(__file__).parent / "synth" / "fixtures"


def _rc(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse rejects unknown choices itself
        return int(exc.code or 0)


@pytest.mark.parametrize("cmd", [["synth", "round"], ["report", "--cores", "round"]])
def test_unknown_device_is_refused(cmd: list[str], capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import aeskit.report
    import aeskit.synth

    def never(*_a: object, **_k: object) -> None:
        raise AssertionError("must not run")

    monkeypatch.setattr(aeskit.synth, "synthesize", never)
    monkeypatch.setattr(aeskit.report, "run_report", never)
    assert _rc([*cmd, "--device", "LFE5U-99F"]) == 2
    err = capsys.readouterr().err
    assert "argument --device: invalid choice: 'LFE5U-99F'" in err
    assert "LFE5U-12F" in err and "LFE5U-85F" in err and "Traceback" not in err


def _misfit_error(name: str, device: str, needs: int, available: int) -> Exception:
    from aeskit.synth import DoesNotFit, SynthResult
    from aeskit.synth.fit import Misfit

    misfit = Misfit(device, "yosys", {"LUT4": 10, "FF": 5, "DP16KD": needs, "MULT18X18D": 0},
                    {"LUT4": 24288, "FF": 24288, "DP16KD": available, "MULT18X18D": 28},
                    ("DP16KD",))
    data = {"core": name, "top": f"ak_{name}", "parameters": {}, "source_hash": "0" * 16,
            "flow_version": "v", "seed": 1, "device": device, "package": "CABGA381",
            "speed_grade": 6, "freq_target_mhz": 200.0, "lut4": 10, "lut4_synth": 10, "ff": 5,
            "ebr": needs, "dsp": 0, "fmax_mhz": None, "clocks": {}, "ge": None, "depth": None,
            "gate_cells": {}, "ecp5_cells": {"LUT4": 10, "TRELLIS_FF": 5, "DP16KD": needs},
            "utilization": {}, "tool_versions": {}, "times_s": {}, "commands": {},
            "out_dir": "/nonexistent", "files": {}, "fits": False,
            "misfit": misfit.to_json()}
    return DoesNotFit(SynthResult.from_json(data))


def test_synth_does_not_fit_is_one_line_and_exit_3(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    import aeskit.synth

    seen: dict[str, object] = {}

    def fake(core: object, out_dir: Path, **kw: object) -> None:
        seen.update(kw, out_dir=out_dir)
        raise _misfit_error("ttable_unrolled", str(kw["device"]), 156, 56)

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    assert main(["synth", "ttable_unrolled", "--device", "LFE5U-25F"]) == 3
    cap = capsys.readouterr()
    assert cap.err == "aeskit: ttable_unrolled does not fit LFE5U-25F: needs 156 of 56 DP16KD\n"
    assert cap.out == ""
    from aeskit.synth import synth_dir
    assert seen["device"] == "LFE5U-25F"
    assert seen["out_dir"] == synth_dir("ttable_unrolled", "LFE5U-25F")


def test_synth_tool_failure_is_an_error_without_traceback(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          ) -> None:
    import aeskit.synth
    from aeskit.synth import SynthError

    def fake(*_a: object, **_k: object) -> None:
        raise SynthError("nextpnr-ecp5 of round failed (exit code 139)",
                         Path("/x/nextpnr.log"), "Info: routing\nSegmentation fault")

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    assert main(["synth", "round"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("aeskit: error: nextpnr-ecp5 of round failed (exit code 139)")
    assert "Segmentation fault" in err and "/x/nextpnr.log" in err
    assert "Traceback" not in err


@pytest.mark.slow
def test_synth_cli_oversized_design_on_the_smallest_device(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Real Yosys through `aeskit synth`: the fixture RAM (57 DP16KD) on the LFE5U-12F
    (56); the registry core name is mapped to the fixture design."""
    import aeskit.cli
    from aeskit.synth import Design

    design = Design("fx_big_ram", "ak_fx_big_ram", (SYNTH_FIX / "ak_fx_big_ram.sv",))
    monkeypatch.setattr(aeskit.cli, "get_core",
                        lambda name: design if name == "fx_big_ram" else get_core(name))
    out = tmp_path / "out"
    argv = ["synth", "fx_big_ram", "--device", "LFE5U-12F", "--out", str(out)]
    for _ in range(2):  # the second answer comes from the cache
        assert main(argv) == 3
        cap = capsys.readouterr()
        assert cap.out == ""
        last = cap.err.splitlines()[-1]
        assert last == "aeskit: fx_big_ram does not fit LFE5U-12F: needs 57 of 56 DP16KD"
        assert [ln for ln in cap.err.splitlines() if not ln.startswith("[aeskit]")] == [last]
        assert "Traceback" not in cap.err
    assert json.loads((out / "synth.json").read_text())["fits"] is False


def test_systems_listing(capsys: pytest.CaptureFixture[str]) -> None:
    from aeskit.hw import SYSTEMS

    assert main(["systems", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["name"] for d in data] == [s.name for s in SYSTEMS]
    assert main(["systems"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split()[0] for ln in lines[2:]] == [s.name for s in SYSTEMS]


def test_synth_a_system_on_a_core(capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """`aeskit synth coproc --on pipe2` synthesizes ak_coproc_sys rendered around pipe2;
    `--on` with a core name, or an unknown core, is a usage error (exit 2)."""
    import aeskit.synth

    seen: dict[str, object] = {}

    def fake(design: object, out_dir: Path, **kw: object) -> None:
        seen.update(design=design, out_dir=out_dir)
        raise aeskit.synth.SynthError("stop here", Path("/x.log"), "")

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    assert main(["synth", "coproc", "--on", "pipe2"]) == 1
    design = seen["design"]
    assert getattr(design, "name") == "coproc_pipe2" and getattr(design, "top") == "ak_coproc_sys"
    top = [p for p in getattr(design, "files") if p.stem == "ak_coproc_sys"][0]
    assert "ak_pipe2_core" in top.read_text()
    capsys.readouterr()
    assert main(["synth", "round", "--on", "pipe2"]) == 2
    assert "--on applies to a system" in capsys.readouterr().err
    assert main(["synth", "coproc", "--on", "nosuch"]) == 2
    assert "unknown core 'nosuch'" in capsys.readouterr().err


@pytest.mark.parametrize("text, seeds", [
    (None, (1, 2, 3)), ("1-3", (1, 2, 3)), ("4", (4,)), ("1,4-5", (1, 4, 5)), (" 2 , 7", (2, 7)),
])
def test_report_seeds_parse(text: str | None, seeds: tuple[int, ...]) -> None:
    from aeskit.cli import parse_seeds

    assert parse_seeds(text) == seeds


@pytest.mark.parametrize("text, reason", [
    ("x", "is not a seed or a range"), ("3-1", "not a range of positive seeds"),
    ("0", "not a range of positive seeds"), ("1,1", "names a seed twice"),
    ("1-", "is not a seed or a range"),
])
def test_report_bad_seeds_are_an_error(text: str, reason: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--no-synth", "--cores", "round", "--seeds", text]) == 2
    err = capsys.readouterr().err
    assert err.startswith("aeskit: error: --seeds") and reason in err


def test_synth_seed_gets_its_own_folder(monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import aeskit.synth
    from aeskit.synth import synth_dir

    seen: dict[str, object] = {}

    def fake(core: object, out_dir: Path, **kw: object) -> None:
        seen.update(kw, out_dir=out_dir)
        raise _misfit_error("round", "LFE5U-25F", 156, 56)

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    main(["synth", "round", "--seed", "2"])
    capsys.readouterr()
    assert seen["seed"] == 2 and seen["out_dir"] == synth_dir("round", seed=2)
    assert seen["out_dir"].name == "round~seed2"


def test_synth_prints_one_line_and_the_whole_result_with_json(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    import aeskit.synth
    from aeskit.synth import SynthResult

    data = {"core": "round", "top": "ak_round_core", "parameters": {}, "source_hash": "h",
            "flow_version": "f", "seed": 2, "device": "LFE5U-85F", "package": "CABGA381",
            "speed_grade": 6, "freq_target_mhz": 200.0, "lut4": 12385, "lut4_synth": 12385,
            "ff": 2059, "ebr": 0, "dsp": 0, "fmax_mhz": 73.24, "clocks": {}, "ge": 1.0,
            "depth": 1, "gate_cells": {}, "ecp5_cells": {}, "utilization": {},
            "tool_versions": {}, "times_s": {}, "commands": {}, "files": {}, "fits": True,
            "misfit": None, "outreg": {}, "critical_path": None, "lut_levels": 1.0}

    def fake(core: object, out_dir: Path, **kw: object) -> SynthResult:
        return SynthResult.from_json(data, out_dir)

    monkeypatch.setattr(aeskit.synth, "synthesize", fake)
    out = tmp_path / "r"
    assert main(["synth", "round", "--seed", "2", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"round: fits LFE5U-85F (seed 2): 12,385 LUT4, 2,059 FF, 73.2 MHz -> "
                     f"{out}/synth.json (--json: the whole result)"]
    assert main(["synth", "round", "--seed", "2", "--out", str(out), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["lut4"] == 12385 and got["fmax_mhz"] == 73.24
