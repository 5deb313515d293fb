"""The FPGA boards (issue 52): the UART demo's host side.

:mod:`aeskit.board.protocol` is the demo's frame protocol without I/O (frames, an
incremental decoder, each operation as a generator of request frames);
:mod:`aeskit.board.transport` runs an operation over a serial port (pyserial);
:mod:`aeskit.board.uart_cli` is ``aeskit uart``. See docs/uart_demo.md.
"""
