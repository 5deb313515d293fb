"""XTS-AES (IEEE Std 1619, NIST SP 800-38E) over two BlockCiphers.

Notation of IEEE 1619: Key = Key_1 || Key_2 (:func:`xts_split_key`), Key_1 the data
key and Key_2 the tweak key; the tweak i is a 128-bit value given as 16 bytes; the
block j of a data unit (j = 0, 1, ...) is processed with

    T = CIPH_Key2(i) (x) alpha^j,   C_j = CIPH_Key1(P_j xor T) xor T

where (x) alpha is multiplication by the primitive element x of GF(2^128) modulo
x^128 + x^7 + x^2 + x + 1, with the 16 bytes read *little-endian*: byte 0 holds the
coefficients of x^0..x^7 (its least significant bit is x^0) and byte 15 those of
x^120..x^127. So multiplying by alpha shifts every byte left by one bit, carries the
top bit of byte k into the bottom bit of byte k+1, and, when the top bit of byte 15
falls out, XORs 0x87 into byte 0 (IEEE 1619 5.2; :func:`xts_mul_alpha`).

Data units and the bit convention of partial blocks
---------------------------------------------------
A data unit has l >= 128 bits (the CAVP XTSGenAES files use l = 128, 130, 140,
200, 250, 256 and 384). It is held in ceil(l / 8) bytes; its bits are numbered
from the most significant bit of byte 0 (bit 0) onwards, so when l is not a
multiple of 8 the data occupies the *high* l mod 8 bits of the last byte and the
unused low bits are zero (the CAVP files print e.g. l = 130 as 17 bytes whose last
byte is 0x40 or 0xc0 or 0x80 or 0x00). With m = floor(l / 128) and b = l mod 128,
P_0 .. P_(m-1) are the full blocks (bits 128j .. 128j + 127) and P_m the final b
bits. Ciphertext stealing (IEEE 1619 5.3.2) for b > 0:

    CC = XEX(P_(m-1), j = m-1);  C_m = the first b bits of CC;
    CP = the last 128 - b bits of CC;  C_(m-1) = XEX(P_m || CP, j = m)

where "first" means most significant in this numbering (byte 0 first, MSB first
in each byte). The output has the same layout as the input (the unused low bits
of its last byte are zero); decryption reverses it (5.4.2). The CAVP records of
both files, both key sizes and both directions agree with this convention.

The tweak of the ``tweak-dataunitseqno`` files is the data-unit sequence number
as a 128-bit little-endian value (:func:`xts_tweak_from_seqno`), as IEEE 1619
prescribes for a data-unit number.
"""

from __future__ import annotations

from aeskit.model.blockcipher import BLOCK_SIZE, BlockCipher, check_bytes, xor_bytes

__all__ = [
    "XTS_KEY_LENGTHS",
    "XTS_MIN_BITS",
    "XTS_MAX_BITS",
    "xts_split_key",
    "xts_mul_alpha",
    "xts_tweak_from_seqno",
    "xts_block_tweaks",
    "xts_encrypt",
    "xts_decrypt",
]

#: Key_1 || Key_2 lengths in bytes: XTS-AES-128 and XTS-AES-256
XTS_KEY_LENGTHS: tuple[int, ...] = (32, 64)
#: shortest data unit (one block), in bits
XTS_MIN_BITS = 128
#: longest data unit of IEEE 1619 (2^20 blocks), in bits
XTS_MAX_BITS = 128 * 2**20

_MASK = (1 << 128) - 1


def xts_split_key(key: bytes) -> tuple[bytes, bytes]:
    """(Key_1, Key_2) from the 32-byte (XTS-AES-128) or 64-byte (XTS-AES-256) key."""
    key = check_bytes("XTS key", key)
    if len(key) not in XTS_KEY_LENGTHS:
        raise ValueError(
            f"XTS key must be 32 bytes (XTS-AES-128) or 64 bytes (XTS-AES-256), "
            f"got {len(key)} bytes"
        )
    half = len(key) // 2
    return key[:half], key[half:]


def xts_mul_alpha(t: bytes) -> bytes:
    """T (x) alpha: the 16 bytes as a little-endian polynomial, times x (IEEE 1619 5.2)."""
    v = int.from_bytes(check_bytes("XTS tweak value", t, BLOCK_SIZE), "little") << 1
    if v >> 128:
        v = (v & _MASK) ^ 0x87
    return v.to_bytes(BLOCK_SIZE, "little")


def xts_tweak_from_seqno(n: int) -> bytes:
    """The tweak i of data-unit sequence number ``n``: [n]_128 little-endian."""
    if not isinstance(n, int) or not 0 <= n <= _MASK:
        raise ValueError(f"XTS data-unit sequence number must be 0 to 2^128 - 1, got {n!r}")
    return n.to_bytes(BLOCK_SIZE, "little")


def xts_block_tweaks(tweak_cipher: BlockCipher, tweak: bytes, count: int) -> list[bytes]:
    """T_j = CIPH_Key2(i) (x) alpha^j for j = 0 .. count-1."""
    t = tweak_cipher.encrypt(check_bytes("XTS tweak", tweak, BLOCK_SIZE))
    out = []
    for _ in range(count):
        out.append(t)
        t = xts_mul_alpha(t)
    return out


def _unit_bits(data: bytes, data_unit_bits: int | None) -> tuple[bytes, int]:
    data = check_bytes("XTS data unit", data)
    bits = 8 * len(data) if data_unit_bits is None else data_unit_bits
    if not isinstance(bits, int) or isinstance(bits, bool):
        raise TypeError(f"XTS data-unit length must be an int (bits), got {bits!r}")
    if bits < XTS_MIN_BITS:
        raise ValueError(f"XTS data unit must be at least 128 bits long, got {bits} bits")
    if bits > XTS_MAX_BITS:
        raise ValueError(f"XTS data unit must be at most 2^27 bits (2^20 blocks), got {bits} bits")
    if len(data) != -(-bits // 8):
        raise ValueError(
            f"XTS data unit of {bits} bits takes {-(-bits // 8)} bytes, got {len(data)} bytes"
        )
    pad = 8 * len(data) - bits
    if data and data[-1] & ((1 << pad) - 1):
        raise ValueError(
            f"XTS data unit of {bits} bits: the {pad} unused low bits of the last byte must be zero"
        )
    return data, bits


def _xts(
    data_cipher: BlockCipher,
    tweak_cipher: BlockCipher,
    tweak: bytes,
    data: bytes,
    data_unit_bits: int | None,
    decrypt: bool,
) -> bytes:
    data, bits = _unit_bits(data, data_unit_bits)
    tweak = check_bytes("XTS tweak", tweak, BLOCK_SIZE)
    m, b = divmod(bits, 128)
    pad = 8 * len(data) - bits
    value = int.from_bytes(data, "big") >> pad  # the l bits, bit 0 most significant
    tweaks = xts_block_tweaks(tweak_cipher, tweak, m + (1 if b else 0))
    op = data_cipher.decrypt if decrypt else data_cipher.encrypt

    def xex(block: int, j: int) -> int:
        t = tweaks[j]
        out = xor_bytes(op(xor_bytes(block.to_bytes(BLOCK_SIZE, "big"), t)), t)
        return int.from_bytes(out, "big")

    full = value >> b
    blocks = [(full >> (128 * (m - 1 - j))) & _MASK for j in range(m)]
    if b:
        last = value & ((1 << b) - 1)
        # encrypt: CC from P_(m-1) with T_(m-1), then C_(m-1) from P_m || CP with T_m;
        # decrypt: PP from C_(m-1) with T_m, then P_(m-1) from C_m || CP with T_(m-1)
        first_j, second_j = (m, m - 1) if decrypt else (m - 1, m)
        cc = xex(blocks[m - 1], first_j)
        stolen, kept = cc >> (128 - b), cc & ((1 << (128 - b)) - 1)
        blocks[m - 1] = xex((last << (128 - b)) | kept, second_j)
        out_value = stolen
    else:
        out_value = 0
    for j in range(m - (1 if b else 0)):
        blocks[j] = xex(blocks[j], j)
    result = 0
    for block in blocks:
        result = (result << 128) | block
    result = (result << b) | out_value
    return (result << pad).to_bytes(len(data), "big")


def xts_encrypt(
    data_cipher: BlockCipher,
    tweak_cipher: BlockCipher,
    tweak: bytes,
    plaintext: bytes,
    data_unit_bits: int | None = None,
) -> bytes:
    """XTS-AES encryption of one data unit (IEEE 1619 5.3).

    ``data_cipher`` is keyed with Key_1, ``tweak_cipher`` with Key_2; ``tweak`` is
    the 16-byte i. ``data_unit_bits`` (default ``8 * len(plaintext)``) is the length
    l in bits; the bytes must be ceil(l / 8), the unused low bits of the last byte
    zero (see the module docstring for the bit order).
    """
    return _xts(data_cipher, tweak_cipher, tweak, plaintext, data_unit_bits, decrypt=False)


def xts_decrypt(
    data_cipher: BlockCipher,
    tweak_cipher: BlockCipher,
    tweak: bytes,
    ciphertext: bytes,
    data_unit_bits: int | None = None,
) -> bytes:
    """XTS-AES decryption of one data unit (IEEE 1619 5.4); arguments as :func:`xts_encrypt`."""
    return _xts(data_cipher, tweak_cipher, tweak, ciphertext, data_unit_bits, decrypt=True)
