"""aeskit golden model: AES (FIPS-197), its modes of operation and the CAVP Monte Carlo Tests.

Byte order everywhere: a block is 16 ``bytes`` in FIPS-197 input order, state
``s[r][c] = in[r + 4c]``; byte ``in0`` is bits [127:120] of an RTL bus. Keys are
16/24/32 bytes, byte 0 first. See :mod:`aeskit.model.aes` for a worked example.

Modules:

* :mod:`aeskit.model.gf` -- GF(2^8) arithmetic and the computed S-boxes
* :mod:`aeskit.model.aes` -- round steps, key expansion, :class:`AES`, traces
* :mod:`aeskit.model.blockcipher` -- the ``BlockCipher`` protocol the modes use
* :mod:`aeskit.model.modes` -- ECB, CBC, CTR, CFB128, OFB, CBC-CS1/2/3 (+ CCM)
* :mod:`aeskit.model.ccm` -- CCM (SP 800-38C)
* :mod:`aeskit.model.mct` -- AESAVS Monte Carlo Tests
"""

from __future__ import annotations

from aeskit.model.aes import (
    AES,
    BLOCK_SIZE,
    DECRYPT_STEPS,
    ENCRYPT_STEPS,
    TraceStep,
    add_round_key,
    decrypt_block,
    encrypt_block,
    expand_key,
    inv_mix_columns,
    inv_shift_rows,
    inv_sub_bytes,
    key_schedule_words,
    mix_columns,
    rot_word,
    shift_rows,
    sub_bytes,
    sub_word,
)
from aeskit.model.blockcipher import BlockCipher, CipherFactory
from aeskit.model.errors import KeyLengthError, TagMismatchError
from aeskit.model.gf import INV_SBOX, SBOX, gf_inv, gf_mul
from aeskit.model.mct import (
    MCT_MODES,
    MctResult,
    mct_cbc,
    mct_cfb128,
    mct_ecb,
    mct_ofb,
    run_mct,
)
from aeskit.model.modes import (
    CBC_CS_VARIANTS,
    CCM_NONCE_LENGTHS,
    CCM_TAG_LENGTHS,
    cbc_cs_decrypt,
    cbc_cs_encrypt,
    cbc_decrypt,
    cbc_encrypt,
    ccm_counter_block,
    ccm_decrypt,
    ccm_encode_adata_len,
    ccm_encrypt,
    ccm_format_adata,
    ccm_format_b0,
    ccm_max_payload,
    cfb128_decrypt,
    cfb128_encrypt,
    ctr_crypt,
    ctr_increment,
    ecb_decrypt,
    ecb_encrypt,
    ofb_crypt,
)

__all__ = [
    "AES",
    "BLOCK_SIZE",
    "TraceStep",
    "ENCRYPT_STEPS",
    "DECRYPT_STEPS",
    "KeyLengthError",
    "TagMismatchError",
    "BlockCipher",
    "CipherFactory",
    "SBOX",
    "INV_SBOX",
    "gf_mul",
    "gf_inv",
    "sub_bytes",
    "inv_sub_bytes",
    "shift_rows",
    "inv_shift_rows",
    "mix_columns",
    "inv_mix_columns",
    "add_round_key",
    "sub_word",
    "rot_word",
    "key_schedule_words",
    "expand_key",
    "encrypt_block",
    "decrypt_block",
    "ecb_encrypt",
    "ecb_decrypt",
    "cbc_encrypt",
    "cbc_decrypt",
    "ctr_crypt",
    "ctr_increment",
    "cfb128_encrypt",
    "cfb128_decrypt",
    "ofb_crypt",
    "cbc_cs_encrypt",
    "cbc_cs_decrypt",
    "CBC_CS_VARIANTS",
    "ccm_encrypt",
    "ccm_decrypt",
    "ccm_format_b0",
    "ccm_format_adata",
    "ccm_encode_adata_len",
    "ccm_counter_block",
    "ccm_max_payload",
    "CCM_NONCE_LENGTHS",
    "CCM_TAG_LENGTHS",
    "MctResult",
    "MCT_MODES",
    "mct_ecb",
    "mct_cbc",
    "mct_cfb128",
    "mct_ofb",
    "run_mct",
]
