"""Paper 004's "176-bit and 192-bit" inputs under a 128-bit key: messages that are not
a whole number of blocks (22 and 24 bytes), through CTR and CBC with ciphertext
stealing (CBC-CS1/2/3) of the software mode layer (``aeskit.model.modes``) running
on the RTL ``ttable_*`` cores (``aeskit.harness.core.RtlCipher``), and the same lengths
through the RTL mode engine (hw/modes) on the cores. Compared with OpenSSL (CTR) and
the golden model (both).
"""

from __future__ import annotations

import random

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from aeskit.hw import get_core
from aeskit.model import AES, cbc_cs_decrypt, cbc_cs_encrypt, ctr_crypt
from aeskit.harness.core import Harness, RtlCipher

CORES = ["ttable_col", "ttable_round", "ttable_unrolled"]


@pytest.mark.parametrize("core_name", CORES)
def test_ttable_odd_lengths(core_name: str) -> None:
    core = get_core(core_name)
    rng = random.Random(core_name)
    with Harness(core) as h:
        for nbytes in (22, 24):        # 176 and 192 bits
            for _ in range(3):
                key = rng.randbytes(16)
                iv = rng.randbytes(16)
                msg = rng.randbytes(nbytes)
                rtl = RtlCipher(h, key, gap_pct=20, stall_pct=20, seed=rng.getrandbits(32))
                gold = AES(key)
                # CTR: encryption and decryption are the same operation
                ct = ctr_crypt(rtl, iv, msg)
                enc = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
                assert ct == enc.update(msg) + enc.finalize() == ctr_crypt(gold, iv, msg)
                assert ctr_crypt(rtl, iv, ct) == msg
                # CBC with ciphertext stealing, all three variants
                for variant in (1, 2, 3):
                    c = cbc_cs_encrypt(rtl, iv, msg, variant)
                    assert len(c) == nbytes
                    assert c == cbc_cs_encrypt(gold, iv, msg, variant)
                    assert cbc_cs_decrypt(rtl, iv, c, variant) == msg


# ttable_unrolled's mode-engine build takes about 3 minutes, ttable_round's run 74 s:
# make test-full (make test runs the odd lengths through the engine on round and pipe2,
# tests/aeskit/test_cli.py, and on these cores through the model above)
@pytest.mark.parametrize("core_name", [pytest.param("ttable_round", marks=pytest.mark.slow),
                                       pytest.param("ttable_unrolled", marks=pytest.mark.slow)])
def test_ttable_odd_lengths_through_the_rtl_mode_engine(core_name: str) -> None:
    """The same 22- and 24-byte messages through the RTL mode engine (hw/modes) on the
    core: CTR and CBC-CS1/2/3, both directions, with random gaps and stalls, against
    OpenSSL (CTR) and OpenSSL's block cipher with the model's stealing (CBC-CS)."""
    from aeskit.crypt.filecrypt import crypt_bytes, reference_crypt

    core = get_core(core_name)
    rng = random.Random(f"{core_name}-engine")
    for nbytes in (22, 24):
        key, iv, msg = rng.randbytes(16), rng.randbytes(16), rng.randbytes(nbytes)
        for mode in ("ctr", "cbc-cs1", "cbc-cs2", "cbc-cs3"):
            want = reference_crypt(mode, key, iv, msg, False)
            got = crypt_bytes(core, mode, key, iv, msg, False, stall_pct=20, gap_pct=20,
                              seed=rng.getrandbits(16))
            assert got == want, f"{core_name} {mode} {nbytes} bytes: encrypt"
            back = crypt_bytes(core, mode, key, iv, got, True, stall_pct=20, gap_pct=20,
                               seed=rng.getrandbits(16))
            assert back == msg, f"{core_name} {mode} {nbytes} bytes: decrypt"
