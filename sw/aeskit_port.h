/* aeskit_port.h: what a port of the aeskit co-processor driver supplies.
 *
 * The driver (aeskit_coproc.c) touches the hardware only through these functions;
 * a port implements them for its SoC (volatile pointer accesses on a bare-metal CPU,
 * a simulator's bus functional model in the RTL test, ...). See sw/README.md.
 */
#ifndef AESKIT_PORT_H_
#define AESKIT_PORT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One 32-bit read/write of the co-processor's AXI4-Lite register port at CPU address
 * addr (the base given to aeskit_init plus the register offset; 4-byte aligned). */
uint32_t aeskit_port_read32(uintptr_t addr);
void aeskit_port_write32(uintptr_t addr, uint32_t value);

/* Interrupt-driven completion: return after the co-processor's irq_o was raised (or
 * any interrupt: the driver checks its interrupt status and calls again while its job
 * is not done). A bare-metal port sleeps (wfi) here; an RTOS port waits on a
 * semaphore its interrupt handler gives. */
void aeskit_port_wait_irq(void);

/* Software fallback only: the CPU pointer to the len bytes at bus address addr (the
 * address the co-processor's AXI4 master would use), or NULL if they are not
 * accessible. On a SoC where CPU and DMA addresses coincide: (void *)(uintptr_t)addr. */
void *aeskit_port_mem(uint32_t addr, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* AESKIT_PORT_H_ */
