/* aeskit_coproc.c: driver of the aeskit AES co-processor; see aeskit_coproc.h and
 * sw/README.md. Register names, offsets and fields come from the header that
 * peakrdl-cheader generates from hw/systems/coproc/coproc.rdl. */
#include "aeskit_coproc.h"

#include <stddef.h>
#include <string.h>

#include "aeskit_port.h"

/* generated for C99 (coproc.rdl: aeskit-cheader-std gnu99): no <assert.h>, no C11
 * static_assert */
#include "ak_coproc_regs.h"

#define REG(name) ((uintptr_t)offsetof(ak_coproc_regs_t, name))
#define FIELD(reg, f, v) \
  (((uint32_t)(v) << AK_COPROC_REGS__##reg##__##f##_bp) & AK_COPROC_REGS__##reg##__##f##_bm)
#define GET(reg, f, v) \
  (((uint32_t)(v) & AK_COPROC_REGS__##reg##__##f##_bm) >> AK_COPROC_REGS__##reg##__##f##_bp)

static uint32_t rd(const aeskit_dev *dev, uintptr_t off) {
  return aeskit_port_read32(dev->base + off);
}

static void wr(const aeskit_dev *dev, uintptr_t off, uint32_t v) {
  aeskit_port_write32(dev->base + off, v);
}

/* 16 bytes (byte 0 first) into four registers, byte 0 in bits [7:0] of the first. */
static void write_words(const aeskit_dev *dev, uintptr_t off, const uint8_t *b, size_t n) {
  size_t w;
  for (w = 0; w < n / 4u; ++w) {
    uint32_t v = (uint32_t)b[4u * w] | ((uint32_t)b[4u * w + 1u] << 8) |
                 ((uint32_t)b[4u * w + 2u] << 16) | ((uint32_t)b[4u * w + 3u] << 24);
    wr(dev, off + 4u * w, v);
  }
}

static void wait_not_busy(const aeskit_dev *dev) {
  while (rd(dev, REG(STATUS)) & AK_COPROC_REGS__STATUS__BUSY_bm) {
  }
}

/* Is the co-processor at base? ID reads "AKCP" and VERSION.MAJOR is the one of the
 * generated header this driver was built with (a newer MINOR only adds). Reads only:
 * nothing is written to whatever else answers at base. */
static int detect(const aeskit_dev *dev) {
  uint32_t ver;
  if (rd(dev, REG(ID)) != (uint32_t)AK_COPROC_REGS__ID__ID_reset) return 0;
  ver = rd(dev, REG(VERSION));
  return GET(VERSION, MAJOR, ver) == (uint32_t)AK_COPROC_REGS__VERSION__MAJOR_reset;
}

aeskit_status aeskit_init_soft(aeskit_dev *dev) {
  if (dev == NULL) return AESKIT_ERR_ARG;
  memset(dev, 0, sizeof *dev);
  dev->hw = 0;
  return AESKIT_OK;
}

aeskit_status aeskit_init(aeskit_dev *dev, uintptr_t base) {
  if (aeskit_init_soft(dev) != AESKIT_OK) return AESKIT_ERR_ARG;
  dev->base = base;
  if (!detect(dev)) return AESKIT_OK;
  dev->hw = 1;
  dev->minor = GET(VERSION, MINOR, rd(dev, REG(VERSION)));
  return aeskit_clear(dev);
}

int aeskit_has_hw(const aeskit_dev *dev) { return dev != NULL && dev->hw; }

aeskit_status aeskit_set_key(aeskit_dev *dev, const uint8_t *key, size_t key_len) {
  if (dev == NULL || key == NULL) return AESKIT_ERR_ARG;
  if (key_len != 16 && key_len != 24 && key_len != 32) return AESKIT_ERR_ARG;
  dev->key_code = (unsigned)(key_len / 8u - 2u);
  if (dev->pending) return AESKIT_ERR_BUSY; /* wait for the job first */
  if (dev->hw) {
    wait_not_busy(dev);
    write_words(dev, REG(KEY), key, key_len);
  } else if (aes_soft_set_key(&dev->soft, key, key_len) != AES_SOFT_OK) {
    return AESKIT_ERR_ARG;
  }
  dev->key_set = 1;
  dev->xts_key_set = 0;
  return AESKIT_OK;
}

aeskit_status aeskit_set_xts_key(aeskit_dev *dev, const uint8_t *key, size_t key_len) {
  size_t half = key_len / 2u;
  if (dev == NULL || key == NULL) return AESKIT_ERR_ARG;
  if (key_len != 32 && key_len != 48 && key_len != 64) return AESKIT_ERR_ARG;
  if (dev->pending) return AESKIT_ERR_BUSY;
  dev->key_code = (unsigned)(half / 8u - 2u);
  if (dev->hw) {
    wait_not_busy(dev);
    write_words(dev, REG(KEY), key, half);
    write_words(dev, REG(TWEAK_KEY), key + half, half);
  } else if (aes_soft_set_key(&dev->soft, key, half) != AES_SOFT_OK ||
             aes_soft_set_key(&dev->soft2, key + half, half) != AES_SOFT_OK) {
    return AESKIT_ERR_ARG;
  }
  dev->key_set = 1;
  dev->xts_key_set = 1;
  return AESKIT_OK;
}

aeskit_status aeskit_clear(aeskit_dev *dev) {
  if (dev == NULL) return AESKIT_ERR_ARG;
  if (dev->hw) {
    wait_not_busy(dev);
    wr(dev, REG(CTRL), AK_COPROC_REGS__CTRL__CLEAR_bm);
    wait_not_busy(dev);
    wr(dev, REG(INTR_STATE), AK_COPROC_REGS__INTR_STATE__DONE_bm |
                                 AK_COPROC_REGS__INTR_STATE__ERROR_bm);
  }
  aes_soft_wipe(&dev->soft);
  aes_soft_wipe(&dev->soft2);
  dev->key_set = 0;
  dev->xts_key_set = 0;
  dev->pending = 0;
  return AESKIT_OK;
}

/* a + n crosses 2^32 (n > 0) */
static int wraps(uint32_t a, uint64_t n) { return n != 0 && (uint64_t)a + n > 0x100000000ull; }

static uint32_t be32(const uint8_t *p) {
  return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

/* a FIRST or MIDDLE part: whole blocks, no tag, returns the state */
static int mid_part(const aeskit_job *j) {
  return j->part == AESKIT_PART_FIRST || j->part == AESKIT_PART_MIDDLE;
}

/* The co-processor's rules of a part (ERR_CODE 8: its CHECK, ak_coproc.sv); 1 = broken */
static int part_illegal(const aeskit_job *j) {
  int gcm = j->mode == AESKIT_GCM, cmac = j->mode == AESKIT_CMAC, mid = mid_part(j);
  const uint8_t *c = j->ctx;
  if (j->part == AESKIT_PART_WHOLE) return 0;
  if (!gcm && !cmac) return 1;
  if (mid && ((gcm && j->aad_len % 16u) || j->len % 16u)) return 1;
  if (cmac && j->len == 0) return 1;
  if (gcm && mid && j->aad_len == 0 && j->len == 0) return 1;
  if (gcm && j->part != AESKIT_PART_FIRST) {
    uint32_t blocks = be32(c + 16), abytes = be32(c + 20), pbytes = be32(c + 24);
    if ((j->aad_len != 0 && pbytes != 0) || abytes % 16u || pbytes % 16u ||
        (blocks >> 28) != 0 || (pbytes >> 4) != blocks) {
      return 1;
    }
    if (mid && ((uint64_t)abytes + j->aad_len > 0xffffffffu ||
                (uint64_t)pbytes + j->len > 0xffffffffu)) {
      return 1;
    }
  }
  return 0;
}

/* What the co-processor checks before it touches the bus (ERR_CODE 8, 2, 1, 3 in
 * this priority); the software path answers the same. */
static aeskit_status hw_checks(const aeskit_dev *dev, const aeskit_job *j) {
  int ccm = j->mode == AESKIT_CCM, gcm = j->mode == AESKIT_GCM;
  int cmac = j->mode == AESKIT_CMAC, xts = j->mode == AESKIT_XTS;
  int has_tag = (ccm || gcm || cmac) && !mid_part(j);
  if (ccm) {
    unsigned q = 15u - (unsigned)j->iv_len;
    if (j->iv_len < 7 || j->iv_len > 13) return AESKIT_ERR_ILLEGAL;
    if (j->tag_len < 4 || j->tag_len > 16 || j->tag_len % 2u) return AESKIT_ERR_ILLEGAL;
    if (q < 4u && (j->len >> (8u * q)) != 0) return AESKIT_ERR_ILLEGAL;
  }
  if ((gcm || cmac) && (j->tag_len < 4 || j->tag_len > 16)) return AESKIT_ERR_ILLEGAL;
  if (gcm && (j->iv_len >> 29) != 0) return AESKIT_ERR_ILLEGAL;
  if (xts && (dev->key_code == 1u || (j->len != 0 && j->len < 16u) || (j->len >> 29) != 0)) {
    return AESKIT_ERR_ILLEGAL;
  }
  if (part_illegal(j)) return AESKIT_ERR_ILLEGAL;
  /* (GCM and CMAC, also in parts: no LEN_ZERO) */
  if (!has_tag && !gcm && !cmac && j->len == 0) return AESKIT_ERR_LEN_ZERO;
  if ((j->mode == AESKIT_ECB || j->mode == AESKIT_CBC) && j->len % 16u) {
    return AESKIT_ERR_LEN_ALIGN;
  }
  {
    uint64_t tag = has_tag ? j->tag_len : 0u;
    uint64_t in = (uint64_t)j->len + (j->dir == AESKIT_DECRYPT ? tag : 0u);
    uint64_t out = (cmac ? 0u : (uint64_t)j->len) + (j->dir == AESKIT_ENCRYPT ? tag : 0u);
    if (wraps(j->src, in) || wraps(j->dst, out)) return AESKIT_ERR_ADDR_WRAP;
    if ((ccm || gcm) && wraps(j->aad, j->aad_len)) return AESKIT_ERR_ADDR_WRAP;
    if (gcm && j->iv_len != 12u && wraps(j->iv_addr, j->iv_len)) return AESKIT_ERR_ADDR_WRAP;
  }
  return AESKIT_OK;
}

/* [a, a + alen) and [b, b + blen) share a byte */
static int overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
  return alen != 0u && blen != 0u && a < b + blen && b < a + alen;
}

/* What only the driver can check: arguments the registers cannot express; and the
 * overlap of a CCM/GCM decryption, which the co-processor refuses too (OVERLAP). */
static aeskit_status arg_checks(const aeskit_dev *dev, const aeskit_job *j) {
  if (j == NULL) return AESKIT_ERR_ARG;
  if ((unsigned)j->mode > (unsigned)AESKIT_XTS) return AESKIT_ERR_ARG;
  if ((unsigned)j->part > (unsigned)AESKIT_PART_LAST) return AESKIT_ERR_ARG;
  if (j->part != AESKIT_PART_WHOLE && j->ctx == NULL) return AESKIT_ERR_ARG;
  if (j->dir != AESKIT_ENCRYPT && j->dir != AESKIT_DECRYPT) return AESKIT_ERR_ARG;
  if (!dev->key_set) return AESKIT_ERR_NO_KEY;
  if (j->mode == AESKIT_XTS && !dev->xts_key_set) return AESKIT_ERR_NO_KEY;
  if (j->mode == AESKIT_CCM || j->mode == AESKIT_GCM) {
    /* NONCE_LEN is 4 bits, TAG_LEN 5 bits; the nonce sits in the 16-byte IV; a GCM IV
     * of 12 bytes too, one of another length is read from memory (iv_addr) */
    int iv_mem = j->mode == AESKIT_GCM && j->iv_len != 12u;
    if (j->tag_len > 31u) return AESKIT_ERR_ARG;
    if (!iv_mem && (j->iv == NULL || j->iv_len > 15u)) return AESKIT_ERR_ARG;
    if (iv_mem && j->iv_len == 0) return AESKIT_ERR_ARG;
    if (j->dir == AESKIT_DECRYPT && j->len != 0 && !mid_part(j)) {
      /* the co-processor reads the message twice (tag check, then decryption): the
       * destination may be the source exactly, never overlap another range it reads;
       * the same check as its ERR_CODE OVERLAP, so the fallback answers alike */
      if ((j->dst != j->src && overlaps(j->dst, j->len, j->src, (uint64_t)j->len + j->tag_len))
          || overlaps(j->dst, j->len, j->aad, j->aad_len)
          || (iv_mem && overlaps(j->dst, j->len, j->iv_addr, j->iv_len))) {
        return AESKIT_ERR_OVERLAP;
      }
    }
  } else if (j->mode == AESKIT_CMAC) {
    if (j->tag_len > 31u) return AESKIT_ERR_ARG;
  } else if (j->mode != AESKIT_ECB) {
    if (j->iv == NULL || j->iv_len != 16u) return AESKIT_ERR_ARG;
  }
  return AESKIT_OK;
}

/* the software path of a part: the same check codes as the co-processor's; a LAST that
 * ran (its tag failed, a buffer the port cannot map) zeroes the context as the
 * co-processor's does */
static aeskit_status soft_part(aeskit_dev *dev, const aeskit_job *j, const uint8_t *in,
                               const uint8_t *aad, const uint8_t *ivp, uint8_t *out) {
  int dec = j->dir == AESKIT_DECRYPT, rc;
  uint8_t t[16];
  if (j->mode == AESKIT_GCM) {
    rc = aes_soft_gcm_part(&dev->soft, (int)j->part, dec, ivp, j->iv_len, j->ctx, aad,
                           j->aad_len, in, out, j->len,
                           dec ? (uint8_t *)(uintptr_t)(in + j->len) : out + j->len,
                           j->tag_len);
  } else {
    rc = aes_soft_cmac_part(&dev->soft, (int)j->part, j->ctx, in, j->len, t, j->tag_len);
    if (rc == AES_SOFT_OK && j->part == AESKIT_PART_LAST) {
      if (!dec) {
        memcpy(out, t, j->tag_len);
      } else if (aes_soft_ct_differ(t, in + j->len, j->tag_len)) {
        rc = AES_SOFT_EAUTH;
      }
    }
    memset(t, 0, sizeof t);
  }
  if (rc == AES_SOFT_EAUTH) return AESKIT_ERR_TAG;
  return rc == AES_SOFT_OK ? AESKIT_OK : AESKIT_ERR_ILLEGAL;
}

static aeskit_status soft_run(aeskit_dev *dev, const aeskit_job *j) {
  aeskit_status st = hw_checks(dev, j);
  const uint8_t *in, *aad = NULL, *ivp = j->iv;
  uint8_t *out;
  int ccm = j->mode == AESKIT_CCM, gcm = j->mode == AESKIT_GCM, cmac = j->mode == AESKIT_CMAC;
  int dec = j->dir == AESKIT_DECRYPT, has_tag = (ccm || gcm || cmac) && !mid_part(j);
  size_t in_len = j->len + (has_tag && dec ? j->tag_len : 0u);
  size_t out_len = (cmac ? 0u : j->len) + (has_tag && !dec ? j->tag_len : 0u);
  int rc = AES_SOFT_OK;
  if (st != AESKIT_OK) return st;
  st = AESKIT_OK;
  in = (const uint8_t *)aeskit_port_mem(j->src, in_len);
  if (in_len != 0 && in == NULL) st = AESKIT_ERR_DMA_READ;
  if (st == AESKIT_OK && gcm && j->iv_len != 12u) {
    ivp = (const uint8_t *)aeskit_port_mem(j->iv_addr, j->iv_len);
    if (ivp == NULL) st = AESKIT_ERR_DMA_READ;
  }
  if (st == AESKIT_OK && (ccm || gcm) && j->aad_len != 0) {
    aad = (const uint8_t *)aeskit_port_mem(j->aad, j->aad_len);
    if (aad == NULL) st = AESKIT_ERR_DMA_READ;
  }
  out = (uint8_t *)aeskit_port_mem(j->dst, out_len);
  if (st == AESKIT_OK && out_len != 0 && out == NULL) st = AESKIT_ERR_DMA_WRITE;
  if (st != AESKIT_OK) {
    if (j->part == AESKIT_PART_LAST) memset(j->ctx, 0, 32);
    return st;
  }
  if (j->part != AESKIT_PART_WHOLE) return soft_part(dev, j, in, aad, ivp, out);
  switch (j->mode) {
    case AESKIT_ECB: rc = aes_soft_ecb(&dev->soft, dec, in, out, j->len); break;
    case AESKIT_CBC: rc = aes_soft_cbc(&dev->soft, dec, j->iv, in, out, j->len); break;
    case AESKIT_CTR: rc = aes_soft_ctr(&dev->soft, j->iv, in, out, j->len); break;
    case AESKIT_CFB: rc = aes_soft_cfb(&dev->soft, dec, j->iv, in, out, j->len); break;
    case AESKIT_OFB: rc = aes_soft_ofb(&dev->soft, j->iv, in, out, j->len); break;
    case AESKIT_CCM:
      if (!dec) {
        rc = aes_soft_ccm_encrypt(&dev->soft, j->iv, j->iv_len, aad, j->aad_len, in, out,
                                  j->len, out + j->len, j->tag_len);
      } else {
        /* as the co-processor: no plaintext is written unless the tag matches */
        rc = aes_soft_ccm_check(&dev->soft, j->iv, j->iv_len, aad, j->aad_len, in, j->len,
                                in + j->len, j->tag_len);
        if (rc == AES_SOFT_OK) {
          rc = aes_soft_ccm_decrypt(&dev->soft, j->iv, j->iv_len, aad, j->aad_len, in, out,
                                    j->len, in + j->len, j->tag_len);
        }
      }
      break;
    case AESKIT_GCM:
      if (!dec) {
        rc = aes_soft_gcm_encrypt(&dev->soft, ivp, j->iv_len, aad, j->aad_len, in, out,
                                  j->len, out + j->len, j->tag_len);
      } else {
        /* aes_soft_gcm_decrypt checks the tag first: no plaintext unless it matches */
        rc = aes_soft_gcm_decrypt(&dev->soft, ivp, j->iv_len, aad, j->aad_len, in, out,
                                  j->len, in + j->len, j->tag_len);
      }
      break;
    case AESKIT_CMAC: {
      uint8_t t[16];
      rc = aes_soft_cmac(&dev->soft, in, j->len, t, j->tag_len);
      if (rc == AES_SOFT_OK && !dec) memcpy(out, t, j->tag_len);
      if (rc == AES_SOFT_OK && dec && aes_soft_ct_differ(t, in + j->len, j->tag_len)) {
        rc = AES_SOFT_EAUTH;
      }
      memset(t, 0, sizeof t);
      break;
    }
    case AESKIT_XTS:
      rc = aes_soft_xts(&dev->soft, &dev->soft2, dec, j->iv, in, out, j->len);
      break;
    default: rc = AES_SOFT_EINVAL; break;
  }
  if (rc == AES_SOFT_EAUTH) return AESKIT_ERR_TAG;
  return rc == AES_SOFT_OK ? AESKIT_OK : AESKIT_ERR_ILLEGAL;
}

static void hw_start(aeskit_dev *dev, const aeskit_job *j) {
  uint8_t iv[16];
  int ccm = j->mode == AESKIT_CCM, gcm = j->mode == AESKIT_GCM;
  memset(iv, 0, sizeof iv);
  if (j->iv != NULL && j->mode != AESKIT_CMAC && !(gcm && j->iv_len != 12u)) {
    memcpy(iv, j->iv, (ccm || gcm) ? j->iv_len : 16u);
  }
  write_words(dev, REG(IV), iv, 16);
  if (ccm || gcm || j->mode == AESKIT_CMAC) {
    /* NONCE_LEN: CCM's; the others ignore it */
    wr(dev, REG(CCM), FIELD(CCM, NONCE_LEN, ccm ? j->iv_len : 13u) |
                          FIELD(CCM, TAG_LEN, j->tag_len));
  }
  if (gcm) {
    /* IV_LEN 0: the IV is IV[0..2]; another length: read from IV_ADDR */
    wr(dev, REG(IV_LEN), j->iv_len == 12u ? 0u : (uint32_t)j->iv_len);
    wr(dev, REG(IV_ADDR), j->iv_addr);
  }
  if (ccm || gcm) {
    wr(dev, REG(AAD_LEN), j->aad_len);
    wr(dev, REG(AAD_ADDR), j->aad);
  } else {
    wr(dev, REG(AAD_LEN), 0);
  }
  if (j->part == AESKIT_PART_MIDDLE || j->part == AESKIT_PART_LAST) {
    write_words(dev, REG(CTX), j->ctx, 32); /* the context the part starts from */
  }
  wr(dev, REG(LEN), j->len);
  wr(dev, REG(SRC_ADDR), j->src);
  wr(dev, REG(DST_ADDR), j->dst);
  wr(dev, REG(INTR_STATE), AK_COPROC_REGS__INTR_STATE__DONE_bm |
                               AK_COPROC_REGS__INTR_STATE__ERROR_bm);
  /* the mode code: bits [2:0] in MODE, bit 3 in MODE_HI */
  dev->ctrl = FIELD(CTRL, DECRYPT, j->dir == AESKIT_DECRYPT) |
              FIELD(CTRL, MODE, (unsigned)j->mode & 7u) |
              FIELD(CTRL, MODE_HI, (unsigned)j->mode >> 3) | FIELD(CTRL, KEY_LEN, dev->key_code) |
              FIELD(CTRL, PART, (unsigned)j->part);
  wr(dev, REG(CTRL), dev->ctrl | AK_COPROC_REGS__CTRL__START_bm);
  memset(iv, 0, sizeof iv);
}

aeskit_status aeskit_start(aeskit_dev *dev, const aeskit_job *job) {
  aeskit_status st;
  if (dev == NULL) return AESKIT_ERR_ARG;
  st = arg_checks(dev, job);
  if (st != AESKIT_OK) return st;
  /* A job of this device not yet waited for, or the co-processor busy (another bus
   * master's job, a CLEAR): refuse without writing a register. (The co-processor copies
   * a job's parameters at START, so writing registers would not disturb the running
   * job; the driver keeps one job at a time per device so that each job's status is
   * collected by aeskit_wait, and leaves another master's job and its START alone.) */
  if (dev->pending) return AESKIT_ERR_BUSY;
  if (dev->hw) {
    /* CTRL.PART and CTX came with register map 1.2: an older co-processor would run a
     * part as a whole message. It cannot run parts: ILLEGAL, as for a mode its build
     * leaves out, but answered here, before any register write */
    if (job->part != AESKIT_PART_WHOLE && dev->minor < 2u) return AESKIT_ERR_ILLEGAL;
    if (rd(dev, REG(STATUS)) & AK_COPROC_REGS__STATUS__BUSY_bm) return AESKIT_ERR_BUSY;
    dev->part = job->part;
    dev->pctx = job->ctx;
    hw_start(dev, job);
  } else {
    dev->soft_status = soft_run(dev, job);
  }
  dev->pending = 1;
  return AESKIT_OK;
}

/* a job with this code ran (it was not refused by the co-processor's checks) */
static int ran_code(uint32_t code) {
  return code != AESKIT_ERR_ILLEGAL && code != AESKIT_ERR_LEN_ZERO &&
         code != AESKIT_ERR_LEN_ALIGN && code != AESKIT_ERR_ADDR_WRAP &&
         code != AESKIT_ERR_OVERLAP;
}

aeskit_status aeskit_wait(aeskit_dev *dev, aeskit_wait_style style) {
  uint32_t code;
  if (dev == NULL || (style != AESKIT_POLL && style != AESKIT_IRQ)) return AESKIT_ERR_ARG;
  if (!dev->pending) return AESKIT_ERR_NO_JOB;
  dev->pending = 0;
  if (!dev->hw) return dev->soft_status;
  if (style == AESKIT_IRQ) {
    /* irq_o is a level (IRQ_EN & INTR_STATE): enabling it after the job ended raises it
     * at once, so no completion is missed. CTRL keeps the job's fields (they are
     * copied by START anyway). */
    wr(dev, REG(CTRL), dev->ctrl | AK_COPROC_REGS__CTRL__IRQ_EN_bm);
    while (!(rd(dev, REG(INTR_STATE)) & AK_COPROC_REGS__INTR_STATE__DONE_bm)) {
      aeskit_port_wait_irq();
    }
  } else {
    while (!(rd(dev, REG(INTR_STATE)) & AK_COPROC_REGS__INTR_STATE__DONE_bm)) {
    }
  }
  code = GET(STATUS, ERR_CODE, rd(dev, REG(STATUS)));
  dev->cycles = rd(dev, REG(CYCLES));
  wr(dev, REG(INTR_STATE), AK_COPROC_REGS__INTR_STATE__DONE_bm |
                               AK_COPROC_REGS__INTR_STATE__ERROR_bm);
  if (style == AESKIT_IRQ) wr(dev, REG(CTRL), dev->ctrl);
  if (dev->part == AESKIT_PART_FIRST || dev->part == AESKIT_PART_MIDDLE) {
    /* the next part's context, which the co-processor left in CTX */
    if (code == AESKIT_OK || code == AESKIT_ERR_BUSY) {
      unsigned w;
      for (w = 0; w < 8u; ++w) {
        uint32_t v = rd(dev, REG(CTX) + 4u * w);
        dev->pctx[4u * w] = (uint8_t)v;
        dev->pctx[4u * w + 1u] = (uint8_t)(v >> 8);
        dev->pctx[4u * w + 2u] = (uint8_t)(v >> 16);
        dev->pctx[4u * w + 3u] = (uint8_t)(v >> 24);
      }
    }
  } else if (dev->part == AESKIT_PART_LAST && ran_code(code)) {
    memset(dev->pctx, 0, 32); /* used up (the co-processor zeroed CTX) */
  }
  dev->part = AESKIT_PART_WHOLE;
  dev->pctx = NULL;
  return code <= (uint32_t)AESKIT_ERR_CODE_MAX ? (aeskit_status)code : AESKIT_ERR_HW_UNKNOWN;
}

aeskit_status aeskit_run(aeskit_dev *dev, const aeskit_job *job, aeskit_wait_style style) {
  aeskit_status st = aeskit_start(dev, job);
  if (st != AESKIT_OK) return st;
  return aeskit_wait(dev, style);
}

uint32_t aeskit_cycles(const aeskit_dev *dev) { return dev != NULL && dev->hw ? dev->cycles : 0u; }

static aeskit_status run_mode(aeskit_dev *dev, aeskit_mode mode, aeskit_dir dir,
                              const uint8_t *iv, uint32_t src, uint32_t dst, uint32_t len,
                              aeskit_wait_style style) {
  aeskit_job j;
  memset(&j, 0, sizeof j);
  j.mode = mode;
  j.dir = dir;
  j.iv = iv;
  j.iv_len = 16;
  j.src = src;
  j.dst = dst;
  j.len = len;
  return aeskit_run(dev, &j, style);
}

aeskit_status aeskit_ecb(aeskit_dev *dev, aeskit_dir dir, uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_ECB, dir, NULL, src, dst, len, style);
}

aeskit_status aeskit_cbc(aeskit_dev *dev, aeskit_dir dir, const uint8_t iv[16], uint32_t src,
                         uint32_t dst, uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_CBC, dir, iv, src, dst, len, style);
}

aeskit_status aeskit_ctr(aeskit_dev *dev, const uint8_t ctr[16], uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_CTR, AESKIT_ENCRYPT, ctr, src, dst, len, style);
}

aeskit_status aeskit_cfb(aeskit_dev *dev, aeskit_dir dir, const uint8_t iv[16], uint32_t src,
                         uint32_t dst, uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_CFB, dir, iv, src, dst, len, style);
}

aeskit_status aeskit_ofb(aeskit_dev *dev, const uint8_t iv[16], uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_OFB, AESKIT_ENCRYPT, iv, src, dst, len, style);
}

/* one CCM or GCM job: the nonce / IV from the CPU, AAD and payload from memory */
static aeskit_status run_aead(aeskit_dev *dev, aeskit_mode mode, aeskit_dir dir,
                              const uint8_t *iv, size_t iv_len, uint32_t aad,
                              uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                              size_t tag_len, aeskit_wait_style style) {
  aeskit_job j;
  memset(&j, 0, sizeof j);
  j.mode = mode;
  j.dir = dir;
  j.iv = iv;
  j.iv_len = iv_len;
  j.src = src;
  j.dst = dst;
  j.len = len;
  j.aad = aad;
  j.aad_len = aad_len;
  j.tag_len = tag_len;
  return aeskit_run(dev, &j, style);
}

static aeskit_status run_ccm(aeskit_dev *dev, aeskit_dir dir, const uint8_t *nonce,
                             size_t nonce_len, uint32_t aad, uint32_t aad_len, uint32_t src,
                             uint32_t dst, uint32_t len, size_t tag_len,
                             aeskit_wait_style style) {
  return run_aead(dev, AESKIT_CCM, dir, nonce, nonce_len, aad, aad_len, src, dst, len,
                  tag_len, style);
}

aeskit_status aeskit_ccm_encrypt(aeskit_dev *dev, const uint8_t *nonce, size_t nonce_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style) {
  return run_ccm(dev, AESKIT_ENCRYPT, nonce, nonce_len, aad, aad_len, src, dst, len, tag_len,
                 style);
}

aeskit_status aeskit_ccm_decrypt(aeskit_dev *dev, const uint8_t *nonce, size_t nonce_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style) {
  return run_ccm(dev, AESKIT_DECRYPT, nonce, nonce_len, aad, aad_len, src, dst, len, tag_len,
                 style);
}

static aeskit_status run_gcm(aeskit_dev *dev, aeskit_dir dir, const uint8_t *iv,
                             size_t iv_len, uint32_t aad, uint32_t aad_len, uint32_t src,
                             uint32_t dst, uint32_t len, size_t tag_len,
                             aeskit_wait_style style) {
  /* the IV is a CPU pointer here: 12 bytes (another length: an aeskit_job, iv_addr) */
  if (iv_len != 12u) return AESKIT_ERR_ARG;
  return run_aead(dev, AESKIT_GCM, dir, iv, iv_len, aad, aad_len, src, dst, len, tag_len,
                  style);
}

aeskit_status aeskit_gcm_encrypt(aeskit_dev *dev, const uint8_t *iv, size_t iv_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style) {
  return run_gcm(dev, AESKIT_ENCRYPT, iv, iv_len, aad, aad_len, src, dst, len, tag_len, style);
}

aeskit_status aeskit_gcm_decrypt(aeskit_dev *dev, const uint8_t *iv, size_t iv_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style) {
  return run_gcm(dev, AESKIT_DECRYPT, iv, iv_len, aad, aad_len, src, dst, len, tag_len, style);
}

aeskit_status aeskit_gmac(aeskit_dev *dev, const uint8_t *iv, size_t iv_len, uint32_t aad,
                          uint32_t aad_len, uint32_t dst, size_t tag_len,
                          aeskit_wait_style style) {
  /* no payload: SRC_ADDR is not read (dst given, as a valid address) */
  return run_gcm(dev, AESKIT_ENCRYPT, iv, iv_len, aad, aad_len, dst, dst, 0, tag_len, style);
}

static aeskit_status run_cmac(aeskit_dev *dev, aeskit_dir dir, uint32_t src, uint32_t len,
                              uint32_t dst, size_t tag_len, aeskit_wait_style style) {
  aeskit_job j;
  memset(&j, 0, sizeof j);
  j.mode = AESKIT_CMAC;
  j.dir = dir;
  j.src = src;
  j.dst = dst;
  j.len = len;
  j.tag_len = tag_len;
  return aeskit_run(dev, &j, style);
}

aeskit_status aeskit_cmac_generate(aeskit_dev *dev, uint32_t src, uint32_t len, uint32_t dst,
                                   size_t tag_len, aeskit_wait_style style) {
  return run_cmac(dev, AESKIT_ENCRYPT, src, len, dst, tag_len, style);
}

aeskit_status aeskit_cmac_verify(aeskit_dev *dev, uint32_t src, uint32_t len, size_t tag_len,
                                 aeskit_wait_style style) {
  /* nothing is written: DST_ADDR = src, a valid address */
  return run_cmac(dev, AESKIT_DECRYPT, src, len, src, tag_len, style);
}

aeskit_status aeskit_xts(aeskit_dev *dev, aeskit_dir dir, const uint8_t tweak[16],
                         uint32_t src, uint32_t dst, uint32_t len, aeskit_wait_style style) {
  return run_mode(dev, AESKIT_XTS, dir, tweak, src, dst, len, style);
}

/* ---- messages in parts ------------------------------------------------------------ */

static aeskit_status part_init(aeskit_dev *dev, aeskit_part_ctx *pc, aeskit_mode mode,
                               aeskit_dir dir, size_t tag_len) {
  if (dev == NULL || pc == NULL) return AESKIT_ERR_ARG;
  if (dir != AESKIT_ENCRYPT && dir != AESKIT_DECRYPT) return AESKIT_ERR_ARG;
  memset(pc, 0, sizeof *pc);
  if (tag_len < 4u || tag_len > 16u) return AESKIT_ERR_ILLEGAL;
  pc->mode = mode;
  pc->dir = dir;
  pc->tag_len = tag_len;
  pc->open = 1;
  return AESKIT_OK;
}

/* One part: FIRST / MIDDLE (update) or LAST / WHOLE (final) of the open message. */
static aeskit_status part_run(aeskit_dev *dev, aeskit_part_ctx *pc, int final, uint32_t aad,
                              uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                              aeskit_wait_style style) {
  aeskit_job j;
  aeskit_status st;
  if (dev == NULL || pc == NULL || !pc->open) return AESKIT_ERR_ARG;
  if (!final && aad_len == 0 && len == 0) return AESKIT_OK; /* nothing to add */
  memset(&j, 0, sizeof j);
  j.mode = pc->mode;
  j.dir = pc->dir;
  j.iv = pc->mode == AESKIT_GCM && pc->iv_len == 12u ? pc->iv : NULL;
  j.iv_len = pc->iv_len;
  j.iv_addr = pc->iv_addr;
  j.aad = aad;
  j.aad_len = aad_len;
  j.src = src;
  j.dst = dst;
  j.len = len;
  j.tag_len = pc->tag_len;
  j.ctx = pc->ctx;
  if (final) {
    j.part = pc->parts ? AESKIT_PART_LAST : AESKIT_PART_WHOLE;
  } else {
    j.part = pc->parts ? AESKIT_PART_MIDDLE : AESKIT_PART_FIRST;
  }
  st = aeskit_start(dev, &j);
  if (st != AESKIT_OK) return st; /* refused by the driver: nothing ran */
  st = aeskit_wait(dev, style);
  if (!final) {
    if (st == AESKIT_OK || st == AESKIT_ERR_BUSY) ++pc->parts;
  } else if (ran_code((uint32_t)st)) {
    memset(pc, 0, sizeof *pc); /* the message is done: the context wiped, closed */
  }
  return st;
}

aeskit_status aeskit_gcm_init(aeskit_dev *dev, aeskit_part_ctx *pc, aeskit_dir dir,
                              const uint8_t *iv, size_t iv_len, uint32_t iv_addr,
                              size_t tag_len) {
  aeskit_status st;
  if (pc == NULL || iv_len == 0 || (iv_len >> 29) != 0) return AESKIT_ERR_ARG;
  if (iv_len == 12u && iv == NULL) return AESKIT_ERR_ARG;
  st = part_init(dev, pc, AESKIT_GCM, dir, tag_len);
  if (st != AESKIT_OK) return st;
  if (iv_len == 12u) memcpy(pc->iv, iv, 12);
  pc->iv_len = iv_len;
  pc->iv_addr = iv_addr;
  return AESKIT_OK;
}

aeskit_status aeskit_gcm_update(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t aad,
                                uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                                aeskit_wait_style style) {
  if (pc != NULL && pc->mode != AESKIT_GCM) return AESKIT_ERR_ARG;
  return part_run(dev, pc, 0, aad, aad_len, src, dst, len, style);
}

aeskit_status aeskit_gcm_final(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t aad,
                               uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                               aeskit_wait_style style) {
  if (pc != NULL && pc->mode != AESKIT_GCM) return AESKIT_ERR_ARG;
  return part_run(dev, pc, 1, aad, aad_len, src, dst, len, style);
}

aeskit_status aeskit_cmac_init(aeskit_dev *dev, aeskit_part_ctx *pc, aeskit_dir dir,
                               size_t tag_len) {
  return part_init(dev, pc, AESKIT_CMAC, dir, tag_len);
}

aeskit_status aeskit_cmac_update(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t src,
                                 uint32_t len, aeskit_wait_style style) {
  if (pc != NULL && pc->mode != AESKIT_CMAC) return AESKIT_ERR_ARG;
  return part_run(dev, pc, 0, 0, 0, src, src, len, style);
}

aeskit_status aeskit_cmac_final(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t src,
                                uint32_t len, uint32_t dst, aeskit_wait_style style) {
  if (pc != NULL && pc->mode != AESKIT_CMAC) return AESKIT_ERR_ARG;
  /* verification writes nothing: DST_ADDR = src, a valid address */
  return part_run(dev, pc, 1, 0, 0, src,
                  pc != NULL && pc->dir == AESKIT_DECRYPT ? src : dst, len, style);
}

const char *aeskit_status_name(aeskit_status st) {
  switch (st) {
    case AESKIT_OK: return "OK";
    case AESKIT_ERR_LEN_ALIGN: return "LEN_ALIGN";
    case AESKIT_ERR_LEN_ZERO: return "LEN_ZERO";
    case AESKIT_ERR_ADDR_WRAP: return "ADDR_WRAP";
    case AESKIT_ERR_BUSY: return "BUSY";
    case AESKIT_ERR_DMA_READ: return "DMA_READ";
    case AESKIT_ERR_DMA_WRITE: return "DMA_WRITE";
    case AESKIT_ERR_TAG: return "TAG";
    case AESKIT_ERR_ILLEGAL: return "ILLEGAL";
    case AESKIT_ERR_OVERLAP: return "OVERLAP";
    case AESKIT_ERR_HW_UNKNOWN: return "HW_UNKNOWN";
    case AESKIT_ERR_ARG: return "ARG";
    case AESKIT_ERR_NO_KEY: return "NO_KEY";
    case AESKIT_ERR_NO_JOB: return "NO_JOB";
  }
  return "?";
}
