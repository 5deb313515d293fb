"""Register access by name for a cocotb bench with an AXI4-Lite master (cocotbext-axi).

:class:`AxilRegs` is mixed into a bench class that sets ``self.axil`` (an
``AxiLiteMaster``), ``self.addr`` (register name -> byte address) and ``self.bits``
(field name -> (lsb, width)), e.g. from :func:`aeskit.gen.regs.layout`; every access
must answer OKAY within :attr:`AxilRegs.ACCESS_TIMEOUT_US`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["AxilRegs", "stream_bfms"]


class AxilRegs:
    """Named register reads and writes, field packing and unpacking."""

    ACCESS_TIMEOUT_US = 20
    axil: Any
    addr: dict[str, int]
    bits: dict[str, tuple[int, int]]

    def f(self, name: str, value: int = 1) -> int:
        """``value`` placed in field ``name`` (checked to fit)."""
        lsb, width = self.bits[name]
        assert 0 <= value < (1 << width), name
        return value << lsb

    def field(self, reg_value: int, name: str) -> int:
        """Field ``name`` of a register value."""
        lsb, width = self.bits[name]
        return (reg_value >> lsb) & ((1 << width) - 1)

    async def write(self, reg: str, value: int) -> None:
        from cocotb.triggers import with_timeout
        from cocotbext.axi import AxiResp

        r = await with_timeout(self.axil.write(self.addr[reg], value.to_bytes(4, "little")),
                               self.ACCESS_TIMEOUT_US, "us")
        assert r.resp == AxiResp.OKAY, (reg, r.resp)

    async def read(self, reg: str) -> int:
        from cocotb.triggers import with_timeout
        from cocotbext.axi import AxiResp

        r = await with_timeout(self.axil.read(self.addr[reg], 4), self.ACCESS_TIMEOUT_US, "us")
        assert r.resp == AxiResp.OKAY, (reg, r.resp)
        return int.from_bytes(r.data, "little")

    async def write_block(self, base: str, data: bytes) -> None:
        """Register array ``base`` words from ``data``: byte 0 in [7:0] of word 0."""
        for i in range(len(data) // 4):
            await self.write(f"{base}{i}", int.from_bytes(data[4 * i:4 * i + 4], "little"))


def stream_bfms(dut: Any) -> tuple[Any, Any, Any]:
    """cocotbext-axi BFMs of a stream top with a register block: ``s_axis`` source,
    ``m_axis`` sink and ``s_axil`` master on ``clk_i`` / ``rst_ni`` (active low), their
    logs at WARNING."""
    import logging

    from cocotbext.axi import (AxiLiteBus, AxiLiteMaster, AxiStreamBus, AxiStreamSink,
                               AxiStreamSource)

    src = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis"), dut.clk_i, dut.rst_ni,
                          reset_active_level=False)
    sink = AxiStreamSink(AxiStreamBus.from_prefix(dut, "m_axis"), dut.clk_i, dut.rst_ni,
                         reset_active_level=False)
    axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk_i, dut.rst_ni,
                         reset_active_level=False)
    for bfm in (src, sink, axil.write_if, axil.read_if):
        bfm.log.setLevel(logging.WARNING)
    return src, sink, axil
