"""Bus systems and SoC peripherals around the mode engine: paper 001's AHB-Lite cipher
(fixed core), paper 003's co-processor and the AXI4-Stream wrapper (any core); and the
lean peripheral without the mode engine (aes_lite, any core) and the UART demo around it.
See docs/cipher_ahb.md, docs/coproc.md, docs/axis_core.md, docs/aes_lite.md and
docs/uart_demo.md."""

from __future__ import annotations

from aeskit.hw.registry import SystemSpec
from aeskit.hw.systems import axis, coproc, gcm_line, lite, uart_demo

ORDER = 50

SYSTEMS: tuple[SystemSpec, ...] = (
    SystemSpec(
        name="cipher_ahb",
        top="ak_cipher_ahb",
        description="Paper 001's cipher as an AHB-Lite slave: PeakRDL registers, two-stream "
                    "FIFOs, the mode engine on pipe2",
        paper="001 Lin/Huang",
        manifest="aeskit:system:cipher_ahb",
        default_core="pipe2",
        interfaces="AHB-Lite slave, irq",
        # router1 left about 3,000 arcs overused after an hour (2026-11-21)
        router="router2",
        # ak_cipher_ahb: AeadModes = 0 (modes 0..5), Streams = 2
        modes=0x03F,
        streams=2,
    ),
    SystemSpec(
        name="coproc",
        top="ak_coproc_sys",
        description="Paper 003's co-processor: AXI4-Lite exchange registers, AXI4 DMA master "
                    "(16-beat bursts, 4 reads outstanding), the mode engine on any core",
        paper="003 Chaves et al.",
        manifest="aeskit:system:coproc",
        default_core="tbox_folded",
        builder=coproc.system_files,
        interfaces="AXI4-Lite slave, AXI4 master, irq",
        # router1 still had 8,930 overused arcs after 7 minutes (2026-11-25; yosys:
        # 16,316 LUT4 + 797 CCU2C, 6,104 FF, 24 DP16KD), as on cipher_ahb; router2 on
        # HeAP's placement never converged (1,537 wires overused at iteration 91): the
        # static placer spreads it and router2 finishes (aeskit.synth.flow.PLACERS)
        router="router2",
        placer="static",
        # ak_coproc: every mode (its Modes parameter, default 9'h1ff), Streams = 1
        modes=0x1FF,
        streams=1,
    ),
    SystemSpec(
        name="axis_core",
        top="ak_axis_sys",
        description="AXI4-Stream wrapper: packets are messages through the mode engine "
                    "(ECB, CBC, CTR, CFB-128, OFB; CCM, GCM/GMAC, CMAC, XTS with "
                    "lengths from registers) on any core; key and mode over AXI4-Lite",
        paper="-",
        manifest="aeskit:system:axis_core",
        default_core="round",
        builder=axis.system_files,
        interfaces="AXI4-Stream slave and master, AXI4-Lite slave",
        # router1 on HeAP's placement still had 59,313 arcs to route after 53,000
        # iterations (2026-11-25; 20,538 LUT4, 3,996 FF); static placer + router2 routes
        # it in 26 iterations (2 min 47 s)
        router="router2",
        placer="static",
        # ak_axis_core: Modes = 9'h1ff (every mode; its Modes parameter's default),
        # Streams = 1
        modes=0x1FF,
        streams=1,
    ),
    # the co-processor for the smallest FPGAs (issue 50): on the block-RAM compact core,
    # encrypt-only AES-128, built with ECB/CBC/CTR only, and with CMAC added
    SystemSpec(
        name="coproc_lite",
        top="ak_coproc_sys",
        description="The co-processor built with ECB, CBC and CTR only (Modes = 9'h007) "
                    "on the compact core: the AES peripheral of a small FPGA",
        paper="003 Chaves et al.",
        manifest="aeskit:system:coproc",
        default_core="compact32_bram_e128",
        builder=coproc.system_files,
        interfaces="AXI4-Lite slave, AXI4 master, irq",
        modes=0x007,
        streams=1,
    ),
    SystemSpec(
        name="coproc_cmac",
        top="ak_coproc_sys",
        description="The co-processor built with ECB, CBC, CTR and CMAC (Modes = 9'h087) "
                    "on the compact core: encryption and message authentication",
        paper="003 Chaves et al.",
        manifest="aeskit:system:coproc",
        default_core="compact32_bram_e128",
        builder=coproc.system_files,
        interfaces="AXI4-Lite slave, AXI4 master, irq",
        modes=0x087,
        streams=1,
    ),
    # the lean peripheral for the smallest FPGAs (issue 50): registers only, the CPU
    # drives one block at a time, no DMA, no FIFO, no mode engine (docs/aes_lite.md)
    SystemSpec(
        name="aes_lite",
        top="ak_aes_lite_sys",
        description="The lean AES peripheral: AXI4-Lite registers, one block at a time by "
                    "the CPU in ECB, CBC, CTR or CMAC (Modes = 9'h087), no DMA, no mode "
                    "engine, on the compact core",
        paper="-",
        manifest="aeskit:system:aes_lite",
        default_core="compact32_bram_e128",
        builder=lite.system_files,
        interfaces="AXI4-Lite slave, irq",
        modes=0x087,
        streams=1,
    ),
    SystemSpec(
        name="aes_lite_ecc",
        top="ak_aes_lite_sys",
        description="The lean AES peripheral built with ECB, CBC and CTR only (Modes = "
                    "9'h007) on the compact core",
        paper="-",
        manifest="aeskit:system:aes_lite",
        default_core="compact32_bram_e128",
        builder=lite.system_files,
        interfaces="AXI4-Lite slave, irq",
        modes=0x007,
        streams=1,
    ),
    # line-rate GCM (issue 49): ak_gcm_pipe behind AXI4-Stream and AXI4-Lite, messages
    # overlapping, on the unrolled core (docs/gcm_line.md)
    SystemSpec(
        name="gcm_line",
        top="ak_gcm_line_sys",
        description="Line-rate AES-GCM: ak_gcm_pipe (one block per cycle, packets "
                    "overlapping) behind AXI4-Stream in and out (a header beat per packet) "
                    "and AXI4-Lite registers (four key slots, counters, last tag)",
        paper="-",
        manifest="aeskit:system:gcm_line",
        default_core="ttable_unrolled",
        builder=gcm_line.system_files,
        interfaces="AXI4-Stream slave and master, AXI4-Lite slave",
        # as ak_gcm_pipe_sys (docs/gcm_pipe.md): router1 and HeAP do not route it
        router="router2",
        placer="static",
        # GCM only (mode code 6; ak_gcm_line's Modes), one stream
        modes=gcm_line.MODES,
        streams=1,
    ),
    # the board demo (issue 52): a USB-UART's framed commands drive aes_lite through a
    # small AXI4-Lite master (docs/uart_demo.md); the lead's board wrappers instantiate it
    SystemSpec(
        name="uart_demo",
        top="ak_uart_demo_sys",
        description="UART demo: framed commands over a UART (8N1, 115200 baud at 12 MHz "
                    "by default) drive the lean AES peripheral (ECB, CBC, CTR, CMAC) "
                    "through a small AXI4-Lite master",
        paper="-",
        manifest="aeskit:system:uart_demo",
        default_core="compact32_bram_e128",
        builder=uart_demo.system_files,
        interfaces="UART (rx, tx), 2 LEDs",
        modes=0x087,
        streams=1,
    ),
)
