/* aes_soft.c: plain C99 AES and its modes; see aes_soft.h.
 *
 * The state is the FIPS-197 byte array: state byte 4c + r is row r of column c, the
 * order of the input bytes. The S-box is built on first use from its definition
 * (FIPS-197 5.1.1): the inverse in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (via powers
 * of the generator 0x03), then the affine map b ^ rotl(b,1..4) ^ 0x63.
 */
#include "aes_soft.h"

#include <string.h>

static uint8_t sbox[256];
static uint8_t inv_sbox[256];
static int sbox_ready;

static uint8_t xtime(uint8_t b) {
  return (uint8_t)((uint8_t)(b << 1) ^ ((b & 0x80u) ? 0x1bu : 0x00u));
}

static uint8_t gmul(uint8_t a, uint8_t b) {
  uint8_t p = 0;
  while (b) {
    if (b & 1u) p ^= a;
    a = xtime(a);
    b >>= 1;
  }
  return p;
}

static uint8_t rotl8(uint8_t b, unsigned n) {
  return (uint8_t)((uint8_t)(b << n) | (uint8_t)(b >> (8u - n)));
}

static void build_sbox(void) {
  uint8_t pow3[255];
  uint8_t log3[256];
  uint8_t x = 1;
  unsigned i;
  for (i = 0; i < 255; ++i) {
    pow3[i] = x;
    log3[x] = (uint8_t)i;
    x = gmul(x, 3);
  }
  for (i = 0; i < 256; ++i) {
    uint8_t inv = 0;
    uint8_t s;
    if (i != 0) inv = pow3[(255u - log3[i]) % 255u];
    s = (uint8_t)(inv ^ rotl8(inv, 1) ^ rotl8(inv, 2) ^ rotl8(inv, 3) ^ rotl8(inv, 4) ^ 0x63u);
    sbox[i] = s;
    inv_sbox[s] = (uint8_t)i;
  }
  sbox_ready = 1;
}

int aes_soft_set_key(aes_soft_ctx *ctx, const uint8_t *key, size_t key_len) {
  unsigned nk, nr, words, i;
  uint8_t rcon = 1;
  if (ctx == NULL || key == NULL) return AES_SOFT_EINVAL;
  if (key_len != 16 && key_len != 24 && key_len != 32) return AES_SOFT_EINVAL;
  if (!sbox_ready) build_sbox();
  nk = (unsigned)(key_len / 4u);
  nr = nk + 6u;
  words = 4u * (nr + 1u);
  memcpy(ctx->rk, key, key_len);
  for (i = nk; i < words; ++i) {
    uint8_t t[4];
    unsigned j;
    memcpy(t, &ctx->rk[4u * (i - 1u)], 4);
    if (i % nk == 0) {
      uint8_t t0 = t[0];
      t[0] = (uint8_t)(sbox[t[1]] ^ rcon);
      t[1] = sbox[t[2]];
      t[2] = sbox[t[3]];
      t[3] = sbox[t0];
      rcon = xtime(rcon);
    } else if (nk > 6 && i % nk == 4) {
      for (j = 0; j < 4; ++j) t[j] = sbox[t[j]];
    }
    for (j = 0; j < 4; ++j) ctx->rk[4u * i + j] = (uint8_t)(ctx->rk[4u * (i - nk) + j] ^ t[j]);
  }
  ctx->nr = nr;
  return AES_SOFT_OK;
}

void aes_soft_wipe(aes_soft_ctx *ctx) {
  volatile uint8_t *p = ctx->rk;
  size_t i;
  for (i = 0; i < sizeof ctx->rk; ++i) p[i] = 0;
  ctx->nr = 0;
}

static void add_round_key(uint8_t s[16], const uint8_t *rk) {
  unsigned i;
  for (i = 0; i < 16; ++i) s[i] ^= rk[i];
}

/* ShiftRows (inv = 0) or InvShiftRows (inv = 1), fused with (Inv)SubBytes. */
static void sub_shift(uint8_t s[16], int inv) {
  uint8_t t[16];
  unsigned c, r;
  for (c = 0; c < 4; ++c) {
    for (r = 0; r < 4; ++r) {
      if (!inv) {
        t[4u * c + r] = sbox[s[4u * ((c + r) % 4u) + r]];
      } else {
        t[4u * ((c + r) % 4u) + r] = inv_sbox[s[4u * c + r]];
      }
    }
  }
  memcpy(s, t, 16);
}

static void mix_columns(uint8_t s[16], int inv) {
  unsigned c;
  for (c = 0; c < 4; ++c) {
    uint8_t *a = &s[4u * c];
    uint8_t a0 = a[0], a1 = a[1], a2 = a[2], a3 = a[3];
    if (!inv) {
      a[0] = (uint8_t)(gmul(a0, 2) ^ gmul(a1, 3) ^ a2 ^ a3);
      a[1] = (uint8_t)(a0 ^ gmul(a1, 2) ^ gmul(a2, 3) ^ a3);
      a[2] = (uint8_t)(a0 ^ a1 ^ gmul(a2, 2) ^ gmul(a3, 3));
      a[3] = (uint8_t)(gmul(a0, 3) ^ a1 ^ a2 ^ gmul(a3, 2));
    } else {
      a[0] = (uint8_t)(gmul(a0, 14) ^ gmul(a1, 11) ^ gmul(a2, 13) ^ gmul(a3, 9));
      a[1] = (uint8_t)(gmul(a0, 9) ^ gmul(a1, 14) ^ gmul(a2, 11) ^ gmul(a3, 13));
      a[2] = (uint8_t)(gmul(a0, 13) ^ gmul(a1, 9) ^ gmul(a2, 14) ^ gmul(a3, 11));
      a[3] = (uint8_t)(gmul(a0, 11) ^ gmul(a1, 13) ^ gmul(a2, 9) ^ gmul(a3, 14));
    }
  }
}

void aes_soft_encrypt_block(const aes_soft_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  uint8_t s[16];
  unsigned r;
  memcpy(s, in, 16);
  add_round_key(s, ctx->rk);
  for (r = 1; r <= ctx->nr; ++r) {
    sub_shift(s, 0);
    if (r != ctx->nr) mix_columns(s, 0);
    add_round_key(s, &ctx->rk[16u * r]);
  }
  memcpy(out, s, 16);
}

void aes_soft_decrypt_block(const aes_soft_ctx *ctx, const uint8_t in[16], uint8_t out[16]) {
  uint8_t s[16];
  unsigned r;
  memcpy(s, in, 16);
  add_round_key(s, &ctx->rk[16u * ctx->nr]);
  for (r = ctx->nr; r-- > 0;) {
    sub_shift(s, 1);
    add_round_key(s, &ctx->rk[16u * r]);
    if (r != 0) mix_columns(s, 1);
  }
  memcpy(out, s, 16);
}

static int ready(const aes_soft_ctx *ctx) {
  return ctx != NULL && (ctx->nr == 10 || ctx->nr == 12 || ctx->nr == 14);
}

static int buffers_ok(const aes_soft_ctx *ctx, const uint8_t *in, const uint8_t *out,
                      size_t len) {
  return ready(ctx) && (len == 0 || (in != NULL && out != NULL));
}

int aes_soft_ecb(const aes_soft_ctx *ctx, int decrypt, const uint8_t *in, uint8_t *out,
                 size_t len) {
  size_t i;
  if (!buffers_ok(ctx, in, out, len) || len % 16u != 0) return AES_SOFT_EINVAL;
  for (i = 0; i < len; i += 16) {
    if (decrypt) {
      aes_soft_decrypt_block(ctx, in + i, out + i);
    } else {
      aes_soft_encrypt_block(ctx, in + i, out + i);
    }
  }
  return AES_SOFT_OK;
}

int aes_soft_cbc(const aes_soft_ctx *ctx, int decrypt, const uint8_t iv[16],
                 const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t chain[16], blk[16];
  size_t i;
  unsigned j;
  if (!buffers_ok(ctx, in, out, len) || iv == NULL || len % 16u != 0) return AES_SOFT_EINVAL;
  memcpy(chain, iv, 16);
  for (i = 0; i < len; i += 16) {
    memcpy(blk, in + i, 16);
    if (decrypt) {
      uint8_t p[16];
      aes_soft_decrypt_block(ctx, blk, p);
      for (j = 0; j < 16; ++j) out[i + j] = (uint8_t)(p[j] ^ chain[j]);
      memcpy(chain, blk, 16);
    } else {
      for (j = 0; j < 16; ++j) blk[j] ^= chain[j];
      aes_soft_encrypt_block(ctx, blk, chain);
      memcpy(out + i, chain, 16);
    }
  }
  return AES_SOFT_OK;
}

/* Increment the last `width` bytes of a counter block as a big-endian number. */
static void ctr_inc(uint8_t ctr[16], unsigned width) {
  unsigned i;
  for (i = 0; i < width; ++i) {
    if (++ctr[15u - i] != 0) break;
  }
}

int aes_soft_ctr(const aes_soft_ctx *ctx, const uint8_t ctr[16], const uint8_t *in,
                 uint8_t *out, size_t len) {
  uint8_t c[16], ks[16];
  size_t i;
  if (!buffers_ok(ctx, in, out, len) || ctr == NULL) return AES_SOFT_EINVAL;
  memcpy(c, ctr, 16);
  for (i = 0; i < len; ++i) {
    if (i % 16u == 0) {
      aes_soft_encrypt_block(ctx, c, ks);
      ctr_inc(c, 16);
    }
    out[i] = (uint8_t)(in[i] ^ ks[i % 16u]);
  }
  return AES_SOFT_OK;
}

int aes_soft_cfb(const aes_soft_ctx *ctx, int decrypt, const uint8_t iv[16],
                 const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t reg[16], ks[16];
  size_t i;
  if (!buffers_ok(ctx, in, out, len) || iv == NULL) return AES_SOFT_EINVAL;
  memcpy(reg, iv, 16);
  for (i = 0; i < len; ++i) {
    uint8_t x = in[i];
    if (i % 16u == 0) aes_soft_encrypt_block(ctx, reg, ks);
    out[i] = (uint8_t)(x ^ ks[i % 16u]);
    reg[i % 16u] = decrypt ? x : out[i]; /* the ciphertext feeds back */
  }
  return AES_SOFT_OK;
}

int aes_soft_ofb(const aes_soft_ctx *ctx, const uint8_t iv[16], const uint8_t *in,
                 uint8_t *out, size_t len) {
  uint8_t ks[16];
  size_t i;
  if (!buffers_ok(ctx, in, out, len) || iv == NULL) return AES_SOFT_EINVAL;
  memcpy(ks, iv, 16);
  for (i = 0; i < len; ++i) {
    if (i % 16u == 0) aes_soft_encrypt_block(ctx, ks, ks);
    out[i] = (uint8_t)(in[i] ^ ks[i % 16u]);
  }
  return AES_SOFT_OK;
}

int aes_soft_ct_differ(const uint8_t *a, const uint8_t *b, size_t n) {
  uint8_t d = 0;
  size_t i;
  for (i = 0; i < n; ++i) d |= (uint8_t)(a[i] ^ b[i]);
  return (int)((d | (uint8_t)(0u - d)) >> 7) & 1;
}

/* CBC-MAC accumulator of CCM: bytes are XORed into y at pos; a full block is
 * enciphered; ccm_mac_pad closes a zero-padded block. */
typedef struct {
  uint8_t y[16];
  unsigned pos;
  const aes_soft_ctx *ctx;
} ccm_mac;

static void ccm_mac_bytes(ccm_mac *m, const uint8_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    m->y[m->pos++] ^= p[i];
    if (m->pos == 16) {
      aes_soft_encrypt_block(m->ctx, m->y, m->y);
      m->pos = 0;
    }
  }
}

static void ccm_mac_pad(ccm_mac *m) {
  if (m->pos != 0) {
    aes_soft_encrypt_block(m->ctx, m->y, m->y);
    m->pos = 0;
  }
}

/* Check the parameters, start the MAC (B0 and the AAD) and build Ctr0. */
static int ccm_start(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                     const uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len,
                     ccm_mac *m, uint8_t ctr0[16]) {
  unsigned q, i;
  uint8_t b0[16], hdr[10];
  size_t hlen;
  if (!buffers_ok(ctx, in, out, len) || nonce == NULL || tag == NULL) return AES_SOFT_EINVAL;
  if (nonce_len < 7 || nonce_len > 13) return AES_SOFT_EINVAL;
  if (tag_len < 4 || tag_len > 16 || tag_len % 2u != 0) return AES_SOFT_EINVAL;
  if (aad_len != 0 && aad == NULL) return AES_SOFT_EINVAL;
  q = 15u - (unsigned)nonce_len;
  if (8u * q < 8u * sizeof(size_t) && (len >> (8u * q)) != 0) return AES_SOFT_EINVAL;
  memset(b0, 0, 16);
  b0[0] = (uint8_t)((aad_len ? 64u : 0u) + 8u * (((unsigned)tag_len - 2u) / 2u) + (q - 1u));
  memcpy(&b0[1], nonce, nonce_len);
  {
    size_t v = len;
    for (i = 0; i < q; ++i) {
      b0[15u - i] = (uint8_t)(v & 0xffu);
      v >>= 8;
    }
  }
  memset(m, 0, sizeof *m);
  m->ctx = ctx;
  ccm_mac_bytes(m, b0, 16);
  if (aad_len) {
    /* the AAD length prefix (SP 800-38C A.2.2) */
    uint64_t a = (uint64_t)aad_len;
    if (a < 0xff00u) {
      hdr[0] = (uint8_t)(a >> 8);
      hdr[1] = (uint8_t)a;
      hlen = 2;
    } else if (a <= 0xffffffffu) {
      hdr[0] = 0xff;
      hdr[1] = 0xfe;
      for (i = 0; i < 4; ++i) hdr[2 + i] = (uint8_t)(a >> (24u - 8u * i));
      hlen = 6;
    } else {
      hdr[0] = 0xff;
      hdr[1] = 0xff;
      for (i = 0; i < 8; ++i) hdr[2 + i] = (uint8_t)(a >> (56u - 8u * i));
      hlen = 10;
    }
    ccm_mac_bytes(m, hdr, hlen);
    ccm_mac_bytes(m, aad, aad_len);
    ccm_mac_pad(m);
  }
  memset(ctr0, 0, 16);
  ctr0[0] = (uint8_t)(q - 1u);
  memcpy(&ctr0[1], nonce, nonce_len);
  return AES_SOFT_OK;
}

/* CTR over the payload with Ctr1, Ctr2, ...; the MAC absorbs the plaintext
 * (out NULL: nothing is written). */
static void ccm_payload(ccm_mac *m, const uint8_t ctr0[16], unsigned q, int decrypt,
                        const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t c[16], ks[16];
  size_t i;
  memcpy(c, ctr0, 16);
  for (i = 0; i < len; ++i) {
    uint8_t x = in[i], y;
    if (i % 16u == 0) {
      ctr_inc(c, q);
      aes_soft_encrypt_block(m->ctx, c, ks);
    }
    y = (uint8_t)(x ^ ks[i % 16u]);
    if (out != NULL) out[i] = y;
    ccm_mac_bytes(m, decrypt ? &y : &x, 1);
  }
  ccm_mac_pad(m);
}

static void ccm_tag(ccm_mac *m, const uint8_t ctr0[16], uint8_t t[16]) {
  unsigned i;
  aes_soft_encrypt_block(m->ctx, ctr0, t);
  for (i = 0; i < 16; ++i) t[i] ^= m->y[i];
}

int aes_soft_ccm_encrypt(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t tag_len) {
  ccm_mac m;
  uint8_t ctr0[16], t[16];
  int rc = ccm_start(ctx, nonce, nonce_len, aad, aad_len, in, out, len, tag, tag_len, &m,
                     ctr0);
  if (rc != AES_SOFT_OK) return rc;
  ccm_payload(&m, ctr0, 15u - (unsigned)nonce_len, 0, in, out, len);
  ccm_tag(&m, ctr0, t);
  memcpy(tag, t, tag_len);
  return AES_SOFT_OK;
}

int aes_soft_ccm_decrypt(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len) {
  ccm_mac m;
  uint8_t ctr0[16], t[16];
  int rc = ccm_start(ctx, nonce, nonce_len, aad, aad_len, in, out, len, tag, tag_len, &m,
                     ctr0);
  if (rc != AES_SOFT_OK) return rc;
  ccm_payload(&m, ctr0, 15u - (unsigned)nonce_len, 1, in, out, len);
  ccm_tag(&m, ctr0, t);
  if (aes_soft_ct_differ(t, tag, tag_len)) {
    if (len) memset(out, 0, len);
    return AES_SOFT_EAUTH;
  }
  return AES_SOFT_OK;
}

int aes_soft_ccm_check(const aes_soft_ctx *ctx, const uint8_t *nonce, size_t nonce_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len) {
  ccm_mac m;
  uint8_t ctr0[16], t[16];
  int rc = ccm_start(ctx, nonce, nonce_len, aad, aad_len, in, in, len, tag, tag_len, &m,
                     ctr0);
  if (rc != AES_SOFT_OK) return rc;
  ccm_payload(&m, ctr0, 15u - (unsigned)nonce_len, 1, in, NULL, len);
  ccm_tag(&m, ctr0, t);
  return aes_soft_ct_differ(t, tag, tag_len) ? AES_SOFT_EAUTH : AES_SOFT_OK;
}

/* ---- GCM (SP 800-38D) ------------------------------------------------------------ */

/* x = x * h in GF(2^128), GCM's bit order (bit 0 = the MSB of byte 0; R = 0xe1 || 0^120):
 * bit by bit, no table (slow and small; the co-processor is the fast path). */
static void gf_mul(uint8_t x[16], const uint8_t h[16]) {
  uint8_t z[16], v[16];
  unsigned i, j;
  memset(z, 0, 16);
  memcpy(v, h, 16);
  for (i = 0; i < 128; ++i) {
    uint8_t lsb;
    uint8_t bit = (uint8_t)((x[i / 8u] >> (7u - i % 8u)) & 1u);
    uint8_t mask = (uint8_t)(0u - bit);
    for (j = 0; j < 16; ++j) z[j] ^= (uint8_t)(v[j] & mask);
    lsb = (uint8_t)(v[15] & 1u);
    for (j = 15; j > 0; --j) v[j] = (uint8_t)((v[j] >> 1) | (v[j - 1u] << 7));
    v[0] >>= 1;
    v[0] ^= (uint8_t)(0xe1u & (0u - lsb));
  }
  memcpy(x, z, 16);
}

/* GHASH accumulator: bytes XORed into y; every full (or zero-padded) block multiplied
 * by h */
typedef struct {
  uint8_t y[16], h[16];
  unsigned pos;
} ghash;

static void ghash_bytes(ghash *g, const uint8_t *p, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    g->y[g->pos++] ^= p[i];
    if (g->pos == 16) {
      gf_mul(g->y, g->h);
      g->pos = 0;
    }
  }
}

static void ghash_pad(ghash *g) {
  if (g->pos != 0) {
    gf_mul(g->y, g->h);
    g->pos = 0;
  }
}

static void put_be64(uint8_t *p, uint64_t v) {
  unsigned i;
  for (i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (56u - 8u * i));
}

/* H, J0 (IV of 12 bytes: IV || 0^31 || 1; else GHASH of the IV and its length) */
static int gcm_start(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                     const uint8_t *aad, size_t aad_len, const uint8_t *in,
                     const uint8_t *out, size_t len, const void *tag, size_t tag_len,
                     ghash *g, uint8_t j0[16]) {
  if (!buffers_ok(ctx, in, out, len) || iv == NULL || iv_len == 0 || tag == NULL)
    return AES_SOFT_EINVAL;
  if (tag_len < 4 || tag_len > 16) return AES_SOFT_EINVAL;
  if (aad_len != 0 && aad == NULL) return AES_SOFT_EINVAL;
  memset(g, 0, sizeof *g);
  aes_soft_encrypt_block(ctx, g->y, g->h);
  if (iv_len == 12) {
    memcpy(j0, iv, 12);
    j0[12] = 0;
    j0[13] = 0;
    j0[14] = 0;
    j0[15] = 1;
  } else {
    uint8_t lb[16];
    ghash_bytes(g, iv, iv_len);
    ghash_pad(g);
    memset(lb, 0, 8);
    put_be64(&lb[8], 8u * (uint64_t)iv_len);
    ghash_bytes(g, lb, 16);
    memcpy(j0, g->y, 16);
    memset(g->y, 0, 16);
  }
  ghash_bytes(g, aad, aad_len);
  ghash_pad(g);
  return AES_SOFT_OK;
}

/* GCTR from inc32(J0) over the payload; GHASH absorbs the ciphertext (out NULL:
 * nothing written) */
static void gcm_payload(const aes_soft_ctx *ctx, ghash *g, const uint8_t j0[16], int decrypt,
                        const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t c[16], ks[16];
  size_t i;
  memcpy(c, j0, 16);
  for (i = 0; i < len; ++i) {
    uint8_t x = in[i], y;
    if (i % 16u == 0) {
      ctr_inc(c, 4);
      aes_soft_encrypt_block(ctx, c, ks);
    }
    y = (uint8_t)(x ^ ks[i % 16u]);
    if (out != NULL) out[i] = y;
    ghash_bytes(g, decrypt ? &x : &y, 1);
  }
  ghash_pad(g);
}

static void gcm_tag(const aes_soft_ctx *ctx, ghash *g, const uint8_t j0[16], size_t aad_len,
                    size_t len, uint8_t t[16]) {
  uint8_t lb[16];
  unsigned i;
  put_be64(lb, 8u * (uint64_t)aad_len);
  put_be64(&lb[8], 8u * (uint64_t)len);
  ghash_bytes(g, lb, 16);
  aes_soft_encrypt_block(ctx, j0, t);
  for (i = 0; i < 16; ++i) t[i] ^= g->y[i];
}

int aes_soft_gcm_encrypt(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, uint8_t *tag, size_t tag_len) {
  ghash g;
  uint8_t j0[16], t[16];
  int rc = gcm_start(ctx, iv, iv_len, aad, aad_len, in, out, len, tag, tag_len, &g, j0);
  if (rc != AES_SOFT_OK) return rc;
  gcm_payload(ctx, &g, j0, 0, in, out, len);
  gcm_tag(ctx, &g, j0, aad_len, len, t);
  memcpy(tag, t, tag_len);
  return AES_SOFT_OK;
}

int aes_soft_gcm_check(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                       const uint8_t *aad, size_t aad_len, const uint8_t *in, size_t len,
                       const uint8_t *tag, size_t tag_len) {
  ghash g;
  uint8_t j0[16], t[16];
  int rc = gcm_start(ctx, iv, iv_len, aad, aad_len, in, in, len, tag, tag_len, &g, j0);
  if (rc != AES_SOFT_OK) return rc;
  gcm_payload(ctx, &g, j0, 1, in, NULL, len);
  gcm_tag(ctx, &g, j0, aad_len, len, t);
  return aes_soft_ct_differ(t, tag, tag_len) ? AES_SOFT_EAUTH : AES_SOFT_OK;
}

int aes_soft_gcm_decrypt(const aes_soft_ctx *ctx, const uint8_t *iv, size_t iv_len,
                         const uint8_t *aad, size_t aad_len, const uint8_t *in,
                         uint8_t *out, size_t len, const uint8_t *tag, size_t tag_len) {
  int rc = aes_soft_gcm_check(ctx, iv, iv_len, aad, aad_len, in, len, tag, tag_len);
  ghash g;
  uint8_t j0[16];
  if (rc != AES_SOFT_OK) return rc;
  if (!buffers_ok(ctx, in, out, len)) return AES_SOFT_EINVAL;
  rc = gcm_start(ctx, iv, iv_len, aad, aad_len, in, out, len, tag, tag_len, &g, j0);
  if (rc == AES_SOFT_OK) gcm_payload(ctx, &g, j0, 1, in, out, len);
  return rc;
}

/* ---- GCM and CMAC messages in parts ----------------------------------------------- */

static uint32_t get_be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

/* The rules of a part (aes_soft.h): AES_SOFT_EINVAL when broken. */
static int gcm_part_ok(int part, const uint8_t context[32], size_t aad_len, size_t len) {
  uint32_t blocks = get_be32(context + 16), abytes = get_be32(context + 20);
  uint32_t pbytes = get_be32(context + 24);
  int mid = part == AES_SOFT_FIRST || part == AES_SOFT_MIDDLE;
  if (part < AES_SOFT_FIRST || part > AES_SOFT_LAST) return 0;
  if (aad_len > 0xffffffffu || len > 0xffffffffu) return 0;
  if (mid && (aad_len % 16u || len % 16u || aad_len + len == 0)) return 0;
  if (part != AES_SOFT_FIRST) {
    if ((aad_len != 0 && pbytes != 0) || abytes % 16u || pbytes % 16u ||
        (blocks >> 28) != 0 || (pbytes >> 4) != blocks) {
      return 0;
    }
    /* FIRST / MIDDLE: the counts must fit 32 bits (only LAST may pass 4 GiB) */
    if (mid && ((uint64_t)abytes + aad_len > 0xffffffffu ||
                (uint64_t)pbytes + len > 0xffffffffu)) {
      return 0;
    }
  }
  return 1;
}

int aes_soft_gcm_part(const aes_soft_ctx *ctx, int part, int decrypt, const uint8_t *iv,
                      size_t iv_len, uint8_t context[32], const uint8_t *aad, size_t aad_len,
                      const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag,
                      size_t tag_len) {
  ghash g;
  uint8_t j0[16], jn[16], t[16], zero[32];
  uint32_t blocks, n;
  uint64_t a_tot, p_tot;
  int first = part == AES_SOFT_FIRST, last = part == AES_SOFT_LAST;
  unsigned i;
  if (context == NULL) return AES_SOFT_EINVAL;
  memset(zero, 0, sizeof zero);
  if (!gcm_part_ok(part, first ? zero : context, aad_len, len)) return AES_SOFT_EINVAL;
  /* H and J0; the AAD hashed from the context's Y (FIRST: from 0) */
  /* (the tag length is checked in every part, used by LAST) */
  if (gcm_start(ctx, iv, iv_len, NULL, 0, in, out, len, last ? (const void *)tag : context,
                tag_len, &g, j0) != AES_SOFT_OK) {
    return AES_SOFT_EINVAL;
  }
  if (aad_len != 0 && aad == NULL) return AES_SOFT_EINVAL;
  blocks = first ? 0u : get_be32(context + 16);
  a_tot = (uint64_t)aad_len + (first ? 0u : get_be32(context + 20));
  p_tot = (uint64_t)len + (first ? 0u : get_be32(context + 24));
  if (!first) memcpy(g.y, context, 16);
  ghash_bytes(&g, aad, aad_len);
  ghash_pad(&g);
  /* the first payload block's counter: inc32^(1 + blocks)(J0) */
  memcpy(jn, j0, 16);
  n = get_be32(jn + 12) + blocks;
  put_be32(jn + 12, n);
  if (!last) {
    gcm_payload(ctx, &g, jn, decrypt, in, out, len);
    memcpy(context, g.y, 16);
    put_be32(context + 16, blocks + (uint32_t)(len / 16u));
    put_be32(context + 20, (uint32_t)a_tot);
    put_be32(context + 24, (uint32_t)p_tot);
    memset(context + 28, 0, 4);
    return AES_SOFT_OK;
  }
  /* LAST: the length block from the totals; decryption checks the tag before it
   * writes any plaintext. The context is used up (zeroed) either way. */
  {
    ghash g0 = g;
    uint8_t lb[16];
    int rc = AES_SOFT_OK;
    gcm_payload(ctx, &g, jn, decrypt, in, decrypt ? NULL : out, len);
    put_be64(lb, 8u * a_tot);
    put_be64(&lb[8], 8u * p_tot);
    ghash_bytes(&g, lb, 16);
    aes_soft_encrypt_block(ctx, j0, t);
    for (i = 0; i < 16; ++i) t[i] ^= g.y[i];
    if (!decrypt) {
      memcpy(tag, t, tag_len);
    } else if (aes_soft_ct_differ(t, tag, tag_len)) {
      rc = AES_SOFT_EAUTH;
    } else {
      g = g0;
      gcm_payload(ctx, &g, jn, 1, in, out, len);
    }
    memset(t, 0, sizeof t);
    memset(context, 0, 32);
    return rc;
  }
}

/* ---- CMAC (SP 800-38B) ----------------------------------------------------------- */

/* x = x * 2 in GF(2^128) (a left shift; R = 0^120 || 0x87) */
static void dbl(uint8_t x[16]) {
  uint8_t msb = (uint8_t)(x[0] >> 7);
  unsigned i;
  for (i = 0; i < 15; ++i) x[i] = (uint8_t)((x[i] << 1) | (x[i + 1u] >> 7));
  x[15] = (uint8_t)((x[15] << 1) ^ (0x87u & (0u - msb)));
}

/* CBC-MAC of the message from y, the last block with K1 (whole) or K2 (padded, or the
 * empty message); the tag's tag_len leading bytes. */
static void cmac_finish(const aes_soft_ctx *ctx, uint8_t y[16], const uint8_t *msg,
                        size_t len, uint8_t *tag, size_t tag_len) {
  uint8_t k[16], last[16];
  size_t n, i, full;
  memset(k, 0, 16);
  aes_soft_encrypt_block(ctx, k, k);
  dbl(k); /* K1 */
  n = len == 0 ? 1u : (len + 15u) / 16u;
  full = len != 0 && len % 16u == 0;
  if (!full) dbl(k); /* K2 */
  for (i = 0; i + 1u < n; ++i) {
    unsigned j;
    for (j = 0; j < 16; ++j) y[j] ^= msg[16u * i + j];
    aes_soft_encrypt_block(ctx, y, y);
  }
  memset(last, 0, 16);
  if (len) memcpy(last, msg + 16u * (n - 1u), len - 16u * (n - 1u));
  if (!full) last[len - 16u * (n - 1u)] = 0x80;
  for (i = 0; i < 16; ++i) y[i] ^= (uint8_t)(last[i] ^ k[i]);
  aes_soft_encrypt_block(ctx, y, y);
  memcpy(tag, y, tag_len);
  memset(k, 0, sizeof k);
}

int aes_soft_cmac(const aes_soft_ctx *ctx, const uint8_t *msg, size_t len, uint8_t *tag,
                  size_t tag_len) {
  uint8_t y[16];
  if (!ready(ctx) || tag == NULL || (len != 0 && msg == NULL)) return AES_SOFT_EINVAL;
  if (tag_len < 4 || tag_len > 16) return AES_SOFT_EINVAL;
  memset(y, 0, 16);
  cmac_finish(ctx, y, msg, len, tag, tag_len);
  memset(y, 0, sizeof y);
  return AES_SOFT_OK;
}

int aes_soft_cmac_part(const aes_soft_ctx *ctx, int part, uint8_t context[32],
                       const uint8_t *msg, size_t len, uint8_t *tag, size_t tag_len) {
  uint8_t y[16];
  size_t i;
  int last = part == AES_SOFT_LAST;
  if (!ready(ctx) || context == NULL || (len != 0 && msg == NULL)) return AES_SOFT_EINVAL;
  if (part < AES_SOFT_FIRST || part > AES_SOFT_LAST) return AES_SOFT_EINVAL;
  /* (the tag length is checked in every part, used by LAST) */
  if (tag_len < 4 || tag_len > 16 || (last && tag == NULL)) return AES_SOFT_EINVAL;
  /* every part at least one byte; FIRST and MIDDLE whole blocks (LAST has the last) */
  if (len == 0 || (!last && len % 16u)) return AES_SOFT_EINVAL;
  if (part == AES_SOFT_FIRST) {
    memset(y, 0, 16);
  } else {
    memcpy(y, context, 16);
  }
  if (last) {
    cmac_finish(ctx, y, msg, len, tag, tag_len);
    memset(context, 0, 32);
  } else {
    for (i = 0; i < len; i += 16u) {
      unsigned j;
      for (j = 0; j < 16; ++j) y[j] ^= msg[i + j];
      aes_soft_encrypt_block(ctx, y, y);
    }
    memcpy(context, y, 16);
    memset(context + 16, 0, 16);
  }
  memset(y, 0, sizeof y);
  return AES_SOFT_OK;
}

/* ---- XTS (IEEE 1619, SP 800-38E) ------------------------------------------------- */

/* t = t * alpha: GF(2^128) with byte 0 least significant (IEEE 1619, 5.2) */
static void xts_mul_alpha(uint8_t t[16]) {
  uint8_t carry = (uint8_t)(t[15] >> 7);
  unsigned i;
  for (i = 15; i > 0; --i) t[i] = (uint8_t)((t[i] << 1) | (t[i - 1u] >> 7));
  t[0] = (uint8_t)((t[0] << 1) ^ (0x87u & (0u - carry)));
}

static void xts_block(const aes_soft_ctx *k1, int decrypt, const uint8_t t[16],
                      const uint8_t in[16], uint8_t out[16]) {
  uint8_t b[16];
  unsigned i;
  for (i = 0; i < 16; ++i) b[i] = (uint8_t)(in[i] ^ t[i]);
  if (decrypt) {
    aes_soft_decrypt_block(k1, b, b);
  } else {
    aes_soft_encrypt_block(k1, b, b);
  }
  for (i = 0; i < 16; ++i) out[i] = (uint8_t)(b[i] ^ t[i]);
}

int aes_soft_xts(const aes_soft_ctx *k1, const aes_soft_ctx *k2, int decrypt,
                 const uint8_t tweak[16], const uint8_t *in, uint8_t *out, size_t len) {
  uint8_t t[16], tn[16], cc[16], pp[16];
  size_t m, r, i;
  if (!buffers_ok(k1, in, out, len) || !ready(k2) || tweak == NULL || len < 16)
    return AES_SOFT_EINVAL;
  if (k1->nr != k2->nr || k1->nr == 12u) return AES_SOFT_EINVAL; /* XTS-AES-128/256 */
  aes_soft_encrypt_block(k2, tweak, t);
  m = len / 16u;
  r = len % 16u;
  /* the whole blocks before the last one (or two, with ciphertext stealing) */
  for (i = 0; i + (r ? 1u : 0u) < m; ++i) {
    xts_block(k1, decrypt, t, in + 16u * i, out + 16u * i);
    xts_mul_alpha(t);
  }
  if (r == 0) return AES_SOFT_OK;
  /* ciphertext stealing: block m-1 (t) and the partial block m (t * alpha) */
  memcpy(tn, t, 16);
  xts_mul_alpha(tn);
  i = 16u * (m - 1u);
  /* encryption: CC = E(P[m-1], t); decryption: PP = D(C[m-1], t * alpha) */
  xts_block(k1, decrypt, decrypt ? tn : t, in + i, cc);
  memcpy(pp, in + i + 16u, r);
  memcpy(pp + r, cc + r, 16u - r);
  memcpy(out + i + 16u, cc, r);
  xts_block(k1, decrypt, decrypt ? t : tn, pp, out + i);
  return AES_SOFT_OK;
}
