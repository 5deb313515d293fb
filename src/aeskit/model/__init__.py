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
from aeskit.model import modes as _modes
from aeskit.model.modes import *  # noqa: F403  (ECB .. CBC-CS and CCM: modes.__all__)

__all__ = [
    "AES",
    "TraceStep",
    "ENCRYPT_STEPS",
    "DECRYPT_STEPS",
    "KeyLengthError",
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
    "MctResult",
    "MCT_MODES",
    "mct_ecb",
    "mct_cbc",
    "mct_cfb128",
    "mct_ofb",
    "run_mct",
]
#: the modes of operation and CCM, as :mod:`aeskit.model.modes` exports them
__all__ += [n for n in _modes.__all__ if n not in __all__]
