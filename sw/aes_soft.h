/* aes_soft.h: plain C99 AES (FIPS-197: AES-128/192/256, encryption and decryption)
 * and the block-cipher modes of NIST SP 800-38A (ECB, CBC, CFB-128, OFB, CTR),
 * SP 800-38C (CCM), SP 800-38D (GCM/GMAC), SP 800-38B (CMAC) and SP 800-38E (XTS).
 * It is the aeskit driver's software fallback when no co-processor is present, and
 * usable on its own: no OS, no allocation, only <stdint.h>,
 * <stddef.h> and <string.h>.
 *
 * Byte order: FIPS-197. Keys, IVs, counter blocks, nonces and data are byte strings;
 * byte 0 is the first byte in memory. CTR increments the whole 16-byte counter block
 * as one big-endian number (SP 800-38A, B.1). CFB is CFB-128; CTR, CFB and OFB take
 * any length (a short last block uses the leading bytes of its key-stream block);
 * ECB and CBC need a multiple of 16 bytes.
 *
 * Every function works in place (in == out) too. The S-box is computed (multiplicative
 * inverse in GF(2^8) followed by the affine map) on first use; nothing is copied
 * from tables. Not hardened against cache-timing attacks (table look-ups); the CCM,
 * GCM tag checks are constant time.
 */
#ifndef AES_SOFT_H_
#define AES_SOFT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AES_SOFT_BLOCK 16u

/* Return codes of the functions below. */
#define AES_SOFT_OK 0
#define AES_SOFT_EINVAL (-1) /* bad argument (key size, length, nonce or tag length) */
#define AES_SOFT_EAUTH (-2)  /* CCM/GCM decryption: the tag does not match */

/* Expanded key: encryption round keys (decryption uses them in reverse order). */
typedef struct {
  uint8_t rk[240]; /* (nr + 1) round keys of 16 bytes */
  unsigned nr;     /* 10, 12 or 14; 0 when no key is set */
} aes_soft_ctx;

/* Expand a 16-, 24- or 32-byte key. AES_SOFT_EINVAL for another length. */
int aes_soft_set_key(aes_soft_ctx *ctx, const uint8_t *key, size_t key_len);
/* Overwrite the round keys with zero. */
void aes_soft_wipe(aes_soft_ctx *ctx);

/* One block (in and out may be equal). */
void aes_soft_encrypt_block(const aes_soft_ctx *ctx, const uint8_t in[16], uint8_t out[16]);
void aes_soft_decrypt_block(const aes_soft_ctx *ctx, const uint8_t in[16], uint8_t out[16]);

/* Modes. `decrypt` 0 encrypts, nonzero decrypts. `len` in bytes. */
int aes_soft_ecb(const aes_soft_ctx *ctx, int decrypt, const uint8_t *in, uint8_t *out,
                 size_t len);
int aes_soft_cbc(const aes_soft_ctx *ctx, int decrypt, const uint8_t iv[16],
                 const uint8_t *in, uint8_t *out, size_t len);
int aes_soft_ctr(const aes_soft_ctx *ctx, const uint8_t ctr[16], const uint8_t *in,
                 uint8_t *out, size_t len);
int aes_soft_cfb(const aes_soft_ctx *ctx, int decrypt, const uint8_t iv[16],
                 const uint8_t *in, uint8_t *out, size_t len);
int aes_soft_ofb(const aes_soft_ctx *ctx, const uint8_t iv[16], const uint8_t *in,
                 uint8_t *out, size_t len);

/* CCM (SP 800-38C): nonce of 7..13 bytes, tag of 4, 6, ..., 16 bytes, any AAD and
 * payload length the nonce allows (payload < 2^(8q), q = 15 - nonce_len).
 * Encryption writes len bytes of ciphertext to out and tag_len bytes to tag.
 * Decryption compares the tag in constant time; on a mismatch it returns
 * AES_SOFT_EAUTH and overwrites out with zeros (no plaintext survives). */
int aes_soft_ccm_encrypt(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t tag_len);
int aes_soft_ccm_decrypt(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len);

/* CCM decryption's tag check alone: AES_SOFT_OK when the tag matches, AES_SOFT_EAUTH
 * when not; writes nothing (a caller that must not write plaintext before the tag is
 * known checks first, then decrypts). */
int aes_soft_ccm_check(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len);

/* GCM (SP 800-38D): an IV of any length >= 1 byte (12: J0 = IV || 0^31 || 1; else
 * from GHASH), a tag of 4..16 bytes (the leading bytes of the full tag), any AAD and
 * payload length (GMAC: len 0). Encryption writes len bytes of ciphertext to out and
 * tag_len bytes to tag. aes_soft_gcm_check compares the tag in constant time and
 * writes nothing (AES_SOFT_EAUTH on a mismatch); aes_soft_gcm_decrypt checks first and
 * writes the plaintext only when the tag matches. GHASH is computed bit by bit. */
int aes_soft_gcm_encrypt(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t tag_len);
int aes_soft_gcm_check(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len);
int aes_soft_gcm_decrypt(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len);

/* CMAC (SP 800-38B): the tag_len (4..16) leading bytes of the MAC of len bytes (0
 * allowed). A verifier compares them with aes_soft_ct_differ. */
int aes_soft_cmac(const aes_soft_ctx *ctx, const uint8_t *msg, size_t len, uint8_t *tag,
                  size_t tag_len);

/* GCM and CMAC messages in parts (init / update / final), the co-processor's parts
 * with its 32-byte context (docs/coproc.md "Messages in parts"): part AES_SOFT_FIRST,
 * AES_SOFT_MIDDLE (any number), AES_SOFT_LAST. The caller keeps `context` from one
 * part to the next (FIRST does not read it; FIRST and MIDDLE write the next one; LAST
 * zeroes it, also when the tag does not match). Layout: bytes 0..15 the state (GCM:
 * the GHASH accumulator Y; CMAC: the CBC-MAC value), GCM bytes 16..19 the payload
 * blocks, 20..23 the AAD bytes, 24..27 the payload bytes of the earlier parts
 * (big-endian), the rest 0. It is secret: with known data it gives GHASH's key H (a
 * CBC-MAC value: a forgery); wipe it when a message is abandoned.
 * Rules (AES_SOFT_EINVAL otherwise, the context unchanged): FIRST and MIDDLE take AAD
 * and payload lengths that are multiples of 16 and at least one block (CMAC: payload
 * only, at least one block); a CMAC LAST at least one byte; a GCM part after one with
 * payload takes no AAD; the counts of the earlier parts stay below 2^32 bytes; the tag
 * length (4..16) is checked in every part. GCM: the IV (any length >= 1) again in every
 * part; each part encrypts or decrypts its payload (FIRST and MIDDLE decryption output
 * their plaintext before the message's tag is known: only LAST authenticates); LAST
 * writes tag_len bytes of tag (encryption) or compares `tag` (decryption, constant time,
 * no plaintext written on AES_SOFT_EAUTH). CMAC: LAST writes the tag. */
#define AES_SOFT_FIRST 1
#define AES_SOFT_MIDDLE 2
#define AES_SOFT_LAST 3
int aes_soft_gcm_part(const aes_soft_ctx *ctx, int part, int decrypt, const uint8_t *iv,
                      size_t iv_len, uint8_t context[32], const uint8_t *aad, size_t aad_len,
                      const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
                      size_t tag_len);
int aes_soft_cmac_part(const aes_soft_ctx *ctx, int part, uint8_t context[32],
                       const uint8_t *msg, size_t len, uint8_t *tag, size_t tag_len);

/* XTS-AES (IEEE 1619, SP 800-38E): one data unit of len >= 16 bytes (a length that is
 * not a multiple of 16 uses ciphertext stealing), data key k1, tweak key k2 (both
 * AES-128 or both AES-256; AES-192 is AES_SOFT_EINVAL), the 16-byte tweak value i
 * (byte 0 the least significant byte of the data unit sequence number). */
int aes_soft_xts(const aes_soft_ctx *k1, const aes_soft_ctx *k2, int decrypt,
                 const uint8_t tweak[16], const uint8_t *in, uint8_t *out, size_t len);

/* Constant-time comparison of n bytes: 0 when equal, 1 otherwise. */
int aes_soft_ct_differ(const uint8_t *a, const uint8_t *b, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* AES_SOFT_H_ */
