"""Static bus latency models of paper 000 (Yang, Wen, Fan: ASBUS against AXI).

Table I of the paper as typed functions -- linear, block and cipher transfers on AXI
and ASBUS, any of the 32 / 64 / 128-bit widths, any burst limit, any back-to-back
probability -- and the paper's published numbers next to what they give.

Modules:

* :mod:`aeskit.busmodel.latency` -- the models (Table I, eqs. 10-19)
* :mod:`aeskit.busmodel.compare` -- ASBUS/AXI cycle and valid-data bandwidth ratios
* :mod:`aeskit.busmodel.paper` -- Table IV and the Sec. 5.2 / Sec. 7 ratios, model
  against paper

Derivation, parameters and what does and does not reproduce: ``docs/busmodel.md``.

>>> axi_cipher_cycles(20, 32), asbus_cipher_cycles(20, 32)
(172.0, 132.0)
>>> round(100 * linear_ratio(80, p_b2b=0.95), 2)
88.51
"""

from __future__ import annotations

from aeskit.busmodel.compare import bandwidth_ratio, block_ratio, cipher_ratio, linear_ratio
from aeskit.busmodel.latency import (
    AES_ROUNDS,
    ASBUS_BLOCK_HEIGHT_LIMIT,
    ASBUS_BLOCK_WIDTH_LIMIT,
    ASBUS_COMMAND_CYCLES,
    ASBUS_LINEAR_LIMIT,
    ASBUS_STATE_LIMIT,
    AXI3_BURST_LIMIT,
    AXI4_BURST_LIMIT,
    AXI_COMMAND_CYCLES,
    BUSES,
    CYCLES_PER_ROUND,
    OVERLAP_CYCLES,
    STATE_BITS,
    WIDTHS,
    Bus,
    BusModelError,
    Probability,
    aes_latency_cycles,
    asbus_block_commands,
    asbus_block_cycles,
    asbus_cipher_cycles,
    asbus_linear_commands,
    asbus_linear_cycles,
    asbus_state_commands,
    axi_block_commands,
    axi_block_cycles,
    axi_cipher_cycles,
    axi_linear_commands,
    axi_linear_cycles,
    beats_per_state,
    block_cycles,
    cipher_cycles,
    command_overhead,
    linear_cycles,
    max_b2b_probability,
)
from aeskit.busmodel.paper import (
    PAPER_TABLE_IV_CYCLES,
    PAYLOAD_BITS,
    RatioRow,
    TableIVRow,
    TestKind,
    Workload,
    paper_ratios,
    sec52_workload,
    table_iv,
    table_iv_workload,
)

__all__ = [
    "AES_ROUNDS",
    "ASBUS_BLOCK_HEIGHT_LIMIT",
    "ASBUS_BLOCK_WIDTH_LIMIT",
    "ASBUS_COMMAND_CYCLES",
    "ASBUS_LINEAR_LIMIT",
    "ASBUS_STATE_LIMIT",
    "AXI3_BURST_LIMIT",
    "AXI4_BURST_LIMIT",
    "AXI_COMMAND_CYCLES",
    "BUSES",
    "CYCLES_PER_ROUND",
    "OVERLAP_CYCLES",
    "PAPER_TABLE_IV_CYCLES",
    "PAYLOAD_BITS",
    "STATE_BITS",
    "WIDTHS",
    "Bus",
    "BusModelError",
    "Probability",
    "RatioRow",
    "TableIVRow",
    "TestKind",
    "Workload",
    "aes_latency_cycles",
    "asbus_block_commands",
    "asbus_block_cycles",
    "asbus_cipher_cycles",
    "asbus_linear_commands",
    "asbus_linear_cycles",
    "asbus_state_commands",
    "axi_block_commands",
    "axi_block_cycles",
    "axi_cipher_cycles",
    "axi_linear_commands",
    "axi_linear_cycles",
    "bandwidth_ratio",
    "beats_per_state",
    "block_cycles",
    "block_ratio",
    "cipher_cycles",
    "cipher_ratio",
    "command_overhead",
    "linear_cycles",
    "linear_ratio",
    "max_b2b_probability",
    "paper_ratios",
    "sec52_workload",
    "table_iv",
    "table_iv_workload",
]
