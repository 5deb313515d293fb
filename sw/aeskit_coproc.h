/* aeskit_coproc.h: driver of the aeskit AES co-processor (ak_coproc, paper 003's
 * co-processor as an SoC peripheral: AXI4-Lite registers, AXI4 DMA master, irq_o),
 * with a software fallback (aes_soft.c) when no co-processor is present.
 *
 * C99, no OS, no allocation, no libc beyond <stdint.h>, <stddef.h> and <string.h>.
 * The hardware is reached only through the port functions of aeskit_port.h.
 *
 * A job reads its source buffer and writes its destination buffer in memory; buffer
 * addresses are BUS addresses (what the co-processor's AXI4 master puts on the bus).
 * Byte order: FIPS-197 everywhere; byte i of a buffer is at address + i. The status
 * codes 1..AESKIT_ERR_CODE_MAX are the co-processor's STATUS.ERR_CODE values; the
 * software fallback answers the same code for the same bad request. See sw/README.md.
 */
#ifndef AESKIT_COPROC_H_
#define AESKIT_COPROC_H_

#include <stddef.h>
#include <stdint.h>

#include "aes_soft.h"

/* aeskit_status (AESKIT_OK, the co-processor's STATUS.ERR_CODE values up to
 * AESKIT_ERR_CODE_MAX with the same numbers, then the driver's own codes) and
 * aeskit_mode (AESKIT_ECB .. AESKIT_XTS: the mode codes; the co-processor (register
 * map 1.1) runs all nine, a job with another code gets AESKIT_ERR_ARG), generated from
 * hw/modes/ak_mode_codes.rdl */
#include "aeskit_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { AESKIT_ENCRYPT = 0, AESKIT_DECRYPT = 1 } aeskit_dir;

/* Completion: poll the interrupt status register, or sleep in aeskit_port_wait_irq()
 * with the co-processor's interrupt enabled. */
typedef enum { AESKIT_POLL = 0, AESKIT_IRQ = 1 } aeskit_wait_style;

/* One job. CCM, GCM: encryption writes len bytes of ciphertext then the tag_len-byte
 * tag at dst (dst .. dst + len + tag_len); decryption reads the ciphertext followed by
 * the received tag at src and writes len bytes of plaintext at dst, only if the tag
 * matches. CMAC: dir AESKIT_ENCRYPT generates (the tag_len-byte tag at dst, nothing
 * else written), AESKIT_DECRYPT verifies (the received tag at src + len; nothing
 * written). XTS: one data unit of len >= 16 bytes (key: aeskit_set_xts_key). */
typedef struct {
  aeskit_mode mode;
  aeskit_dir dir;
  const uint8_t *iv; /* 16 bytes: IV (CBC/CFB/OFB), counter block (CTR), XTS tweak;
                        CCM: the nonce (iv_len bytes); GCM: the IV (12 bytes; another
                        length: unused, see iv_addr); ECB, CMAC: unused (may be NULL) */
  size_t iv_len;     /* 16, CCM: the nonce length 7..13, GCM: 12 or 1 .. 2^29 - 1 */
  uint32_t src;      /* bus address of the input */
  uint32_t dst;      /* bus address of the output */
  uint32_t len;      /* payload bytes (CMAC: the message) */
  uint32_t aad;      /* CCM, GCM: bus address of the associated data */
  uint32_t aad_len;  /* CCM, GCM: associated-data bytes */
  size_t tag_len;    /* CCM: 4, 6, ..., 16; GCM, CMAC: 4..16 */
  uint32_t iv_addr;  /* GCM with iv_len != 12: bus address of the IV (the co-processor
                        reads it from memory: IV_ADDR, IV_LEN) */
  aeskit_part part;  /* AESKIT_PART_WHOLE (0: the message in one job, every mode) or a
                        part of a GCM/CMAC message (register map 1.2; the calls
                        aeskit_gcm_update ... below build these jobs) */
  uint8_t *ctx;      /* parts: the message's 32-byte context, read by MIDDLE and LAST,
                        written by FIRST and MIDDLE when they end with AESKIT_OK (or
                        AESKIT_ERR_BUSY from aeskit_wait), zeroed by a LAST that ran */
} aeskit_job;

/* Driver state of one co-processor (or of the software fallback). Treat as opaque. */
typedef struct {
  uintptr_t base;     /* CPU address of the register block */
  int hw;             /* 1: co-processor present, 0: software fallback */
  unsigned key_code;  /* 0/1/2 = AES-128/192/256 */
  int key_set;
  int pending;        /* a started job not yet waited for */
  aeskit_status soft_status; /* software path: the pending job's result */
  uint32_t cycles;    /* hardware path: CYCLES of the last job */
  uint32_t ctrl;      /* hardware path: CTRL fields of the last started job */
  aes_soft_ctx soft;  /* software path: the expanded key (XTS: K1) */
  int xts_key_set;    /* the key is an XTS key (aeskit_set_xts_key) */
  aes_soft_ctx soft2; /* software path: XTS's tweak key K2 */
  aeskit_part part;   /* hardware path: the started job's part */
  uint8_t *pctx;      /* hardware path: its context (FIRST/MIDDLE: read back at the end) */
  unsigned minor;     /* hardware path: VERSION.MINOR of the co-processor */
} aeskit_dev;

/* Detect the co-processor at CPU address base (its ID register reads "AKCP" and
 * VERSION.MAJOR matches the driver's generated header; only reads); with one, wipe it
 * (CLEAR) and use it, else use the software fallback. Returns AESKIT_OK either way (AESKIT_ERR_ARG for a
 * NULL dev); aeskit_has_hw() tells which. */
aeskit_status aeskit_init(aeskit_dev *dev, uintptr_t base);
/* Use the software fallback without reading the bus (no co-processor in this system). */
aeskit_status aeskit_init_soft(aeskit_dev *dev);
int aeskit_has_hw(const aeskit_dev *dev);

/* Key of the next jobs: 16, 24 or 32 bytes (write-only KEY registers; the
 * co-processor expands it at every start). AESKIT_ERR_BUSY while a started job is
 * not waited for. */
aeskit_status aeskit_set_key(aeskit_dev *dev, const uint8_t *key, size_t key_len);
/* Key of the next XTS jobs: the XTS-AES key K1 || K2 of IEEE 1619, 32 or 64 bytes
 * (AES-128 / AES-256 halves; 48 is taken, and its jobs end in AESKIT_ERR_ILLEGAL as
 * on the co-processor: XTS has no AES-192). K1 goes to KEY, K2 to TWEAK_KEY; the other
 * modes would use K1 as their key. aeskit_set_key replaces it. */
aeskit_status aeskit_set_xts_key(aeskit_dev *dev, const uint8_t *key, size_t key_len);
/* Wipe key, IV, round keys and state (waits for a running job to end first). */
aeskit_status aeskit_clear(aeskit_dev *dev);

/* Start a job and return (the co-processor runs it; the software fallback runs it
 * here). Collect its result with aeskit_wait. AESKIT_ERR_BUSY, with nothing written,
 * while this device's last job is not waited for or the co-processor is busy. */
aeskit_status aeskit_start(aeskit_dev *dev, const aeskit_job *job);
/* Wait for the started job to end; its status. */
aeskit_status aeskit_wait(aeskit_dev *dev, aeskit_wait_style style);
/* aeskit_start then aeskit_wait. */
aeskit_status aeskit_run(aeskit_dev *dev, const aeskit_job *job, aeskit_wait_style style);
/* Cycles the co-processor counted for the last job (start to done); 0 in software. */
uint32_t aeskit_cycles(const aeskit_dev *dev);

/* One call per mode (aeskit_run with a job built from the arguments). */
aeskit_status aeskit_ecb(aeskit_dev *dev, aeskit_dir dir, uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_cbc(aeskit_dev *dev, aeskit_dir dir, const uint8_t iv[16], uint32_t src,
                         uint32_t dst, uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_ctr(aeskit_dev *dev, const uint8_t ctr[16], uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_cfb(aeskit_dev *dev, aeskit_dir dir, const uint8_t iv[16], uint32_t src,
                         uint32_t dst, uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_ofb(aeskit_dev *dev, const uint8_t iv[16], uint32_t src, uint32_t dst,
                         uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_ccm_encrypt(aeskit_dev *dev, const uint8_t *nonce, size_t nonce_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style);
aeskit_status aeskit_ccm_decrypt(aeskit_dev *dev, const uint8_t *nonce, size_t nonce_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style);

/* GCM (SP 800-38D) with a 12-byte IV (another length: AESKIT_ERR_ARG here; an aeskit_job
 * with iv_len != 12 and the IV in memory at iv_addr takes any length), AAD at aad,
 * tag_len 4..16 bytes; memory layout as CCM's (see aeskit_job). Decryption is
 * verify-first (no plaintext written on AESKIT_ERR_TAG); in place (dst = src) allowed,
 * any other overlap of dst .. + len with what the job reads is AESKIT_ERR_OVERLAP. */
aeskit_status aeskit_gcm_encrypt(aeskit_dev *dev, const uint8_t *iv, size_t iv_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style);
aeskit_status aeskit_gcm_decrypt(aeskit_dev *dev, const uint8_t *iv, size_t iv_len,
                                 uint32_t aad, uint32_t aad_len, uint32_t src, uint32_t dst,
                                 uint32_t len, size_t tag_len, aeskit_wait_style style);
/* GMAC: GCM with an empty payload; the tag_len-byte tag of the AAD is written at dst.
 * (Verification: aeskit_gcm_decrypt with len 0 and the received tag at src.) */
aeskit_status aeskit_gmac(aeskit_dev *dev, const uint8_t *iv, size_t iv_len, uint32_t aad,
                          uint32_t aad_len, uint32_t dst, size_t tag_len,
                          aeskit_wait_style style);
/* CMAC (SP 800-38B) of len bytes at src (0 allowed), tag_len 4..16: generation writes
 * the tag at dst; verification compares it with the received tag at src + len
 * (AESKIT_OK or AESKIT_ERR_TAG; nothing written). */
aeskit_status aeskit_cmac_generate(aeskit_dev *dev, uint32_t src, uint32_t len, uint32_t dst,
                                   size_t tag_len, aeskit_wait_style style);
aeskit_status aeskit_cmac_verify(aeskit_dev *dev, uint32_t src, uint32_t len, size_t tag_len,
                                 aeskit_wait_style style);
/* XTS-AES (IEEE 1619): one data unit of len >= 16 bytes (ciphertext stealing for a
 * length that is not a multiple of 16) with the 16-byte tweak (the data unit sequence
 * number, little-endian), the key of aeskit_set_xts_key; in place allowed. */
aeskit_status aeskit_xts(aeskit_dev *dev, aeskit_dir dir, const uint8_t tweak[16],
                         uint32_t src, uint32_t dst, uint32_t len, aeskit_wait_style style);

/* Messages in parts (init / update / final; register map 1.2, CTRL.PART and CTX; the
 * fallback: aes_soft_gcm_part / aes_soft_cmac_part): a GCM/GMAC or CMAC message longer
 * than one buffer goes through in several jobs, the state carried in a context the
 * caller owns (one per open message; messages may interleave on one device, and other
 * jobs may run between the parts). Every part needs the message's key set on the
 * device (aeskit_set_key). update takes whole blocks: aad_len and len multiples of 16
 * (else AESKIT_ERR_ILLEGAL, the co-processor's code; an update of nothing does
 * nothing); final takes the rest, any length (a CMAC final at least one byte when
 * updates ran: keep the message's last block for it). GCM: all AAD before the payload
 * (an update or final with AAD after one with payload: AESKIT_ERR_ILLEGAL). The buffers
 * of the parts are independent (each part its own src/dst/aad); each part's
 * ciphertext (plaintext) goes to its dst. final as the whole-message calls: GCM
 * encryption writes the last part's ciphertext and then the tag at dst (dst + len);
 * decryption reads the received tag at src + len and writes the last part's plaintext
 * only if the tag matches (AESKIT_ERR_TAG otherwise: that part's dst untouched). The
 * plaintext of GCM decryption's updates is written when each update ends, before the
 * tag is known: only final's AESKIT_OK authenticates the message; hold or discard the
 * earlier plaintext until then. CMAC: final writes the tag at dst (generation) or
 * compares the received tag at src + len (verification). A final without updates runs
 * the message whole. A failed update leaves the context as it was (retry it); final
 * wipes the context once its job ran (whatever its status), and leaves it open when
 * the job was refused before it ran (AESKIT_ERR_ARG, NO_KEY, BUSY from the start, and
 * the co-processor's checks: ILLEGAL, ADDR_WRAP, OVERLAP). The context is secret (its
 * state with known data reveals GHASH's H, or allows a CMAC forgery): do not store it
 * where the key would not be stored, wipe it (memset) when a message is abandoned. */
typedef struct {
  uint8_t ctx[32];      /* the context (the co-processor's CTX layout, sw/README.md) */
  aeskit_mode mode;     /* AESKIT_GCM or AESKIT_CMAC */
  aeskit_dir dir;       /* GCM: encrypt/decrypt; CMAC: generate/verify */
  uint8_t iv[12];       /* GCM: the 12-byte IV */
  size_t iv_len;        /* GCM: 12, or 1 .. 2^29 - 1 with the IV in memory at iv_addr */
  uint32_t iv_addr;
  size_t tag_len;       /* 4..16 */
  unsigned parts;       /* updates run (0: final runs the message whole) */
  int open;             /* init done, final not yet run */
} aeskit_part_ctx;

/* GCM in parts: init records the direction, the IV (12 bytes at iv, copied; another
 * length: read from memory at iv_addr in every part) and the tag length (4..16, else
 * AESKIT_ERR_ILLEGAL); no job. */
aeskit_status aeskit_gcm_init(aeskit_dev *dev, aeskit_part_ctx *pc, aeskit_dir dir,
                              const uint8_t *iv, size_t iv_len, uint32_t iv_addr,
                              size_t tag_len);
aeskit_status aeskit_gcm_update(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t aad,
                                uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                                aeskit_wait_style style);
aeskit_status aeskit_gcm_final(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t aad,
                               uint32_t aad_len, uint32_t src, uint32_t dst, uint32_t len,
                               aeskit_wait_style style);
/* CMAC in parts: dir AESKIT_ENCRYPT generates, AESKIT_DECRYPT verifies. */
aeskit_status aeskit_cmac_init(aeskit_dev *dev, aeskit_part_ctx *pc, aeskit_dir dir,
                               size_t tag_len);
aeskit_status aeskit_cmac_update(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t src,
                                 uint32_t len, aeskit_wait_style style);
aeskit_status aeskit_cmac_final(aeskit_dev *dev, aeskit_part_ctx *pc, uint32_t src,
                                uint32_t len, uint32_t dst, aeskit_wait_style style);

/* "OK", "LEN_ALIGN", ... (the names of sw/README.md). */
const char *aeskit_status_name(aeskit_status st);

#ifdef __cplusplus
}
#endif

#endif /* AESKIT_COPROC_H_ */
