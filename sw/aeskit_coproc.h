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
 * aeskit_mode (AESKIT_ECB ..: the mode codes; the co-processor runs ECB .. CCM, a job
 * in another mode gets AESKIT_ERR_ARG), generated from hw/modes/ak_mode_codes.rdl */
#include "aeskit_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { AESKIT_ENCRYPT = 0, AESKIT_DECRYPT = 1 } aeskit_dir;

/* Completion: poll the interrupt status register, or sleep in aeskit_port_wait_irq()
 * with the co-processor's interrupt enabled. */
typedef enum { AESKIT_POLL = 0, AESKIT_IRQ = 1 } aeskit_wait_style;

/* One job. CCM: encryption writes len bytes of ciphertext then the tag_len-byte tag
 * at dst (dst .. dst + len + tag_len); decryption reads the ciphertext followed by the
 * received tag at src and writes len bytes of plaintext at dst, only if the tag
 * matches. */
typedef struct {
  aeskit_mode mode;
  aeskit_dir dir;
  const uint8_t *iv; /* 16 bytes: IV (CBC/CFB/OFB), counter block (CTR);
                        CCM: the nonce (iv_len bytes); ECB: unused (may be NULL) */
  size_t iv_len;     /* 16, CCM: the nonce length 7..13 */
  uint32_t src;      /* bus address of the input */
  uint32_t dst;      /* bus address of the output */
  uint32_t len;      /* payload bytes */
  uint32_t aad;      /* CCM: bus address of the associated data */
  uint32_t aad_len;  /* CCM: associated-data bytes */
  size_t tag_len;    /* CCM: 4, 6, ..., 16 */
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
  aes_soft_ctx soft;  /* software path: the expanded key */
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

/* "OK", "LEN_ALIGN", ... (the names of sw/README.md). */
const char *aeskit_status_name(aeskit_status st);

#ifdef __cplusplus
}
#endif

#endif /* AESKIT_COPROC_H_ */
